"""The prescan (BR-02, BR-25, seed-001a §3.3): blank pages, an all-blank document, and the penalties
a document earns before it is scored (few pages with a text layer, no picture anywhere)."""

from __future__ import annotations

from dataclasses import dataclass, field

from skuflow_contracts.profile import PrescanRules
from skuflow_evaluator.domain.features import PageGlance

MIN_PICTURE_SHARE = 0.01  # a page with a picture this large is not blank, whatever its text


@dataclass(frozen=True)
class Penalty:
    rule: str
    weight: float
    reason: str


@dataclass(frozen=True)
class PrescanResult:
    all_blank: bool
    blank_pages: list[int]
    penalties: list[Penalty] = field(default_factory=list)
    raw_metrics: dict[str, float] = field(default_factory=dict)

    @property
    def total_penalty(self) -> float:
        return round(sum(p.weight for p in self.penalties), 4)


def is_blank(glance: PageGlance, rules: PrescanRules) -> bool:
    return glance.text_chars < rules.min_text_chars_for_blank and glance.picture_share < MIN_PICTURE_SHARE


def prescan(glances: list[PageGlance], rules: PrescanRules) -> PrescanResult:
    blank = [g.page for g in glances if is_blank(g, rules)]
    content = [g for g in glances if not is_blank(g, rules)]
    with_text = sum(1 for g in content if g.text_chars >= rules.min_text_chars_for_blank)
    text_rate = with_text / len(content) if content else 0.0
    pictures = sum(1 for g in content if g.picture_share >= MIN_PICTURE_SHARE)
    metrics = {"text_layer_rate": round(text_rate, 4), "pages_with_pictures": pictures,
               "text_char_count": sum(g.text_chars for g in glances), "blank_pages": len(blank)}
    penalties = []
    if content and text_rate < rules.ocr_rate_penalty_threshold:
        penalties.append(Penalty("ocr_rate_low", rules.ocr_rate_penalty_weight,
                                 f"text_layer_rate={text_rate:.2f}<{rules.ocr_rate_penalty_threshold:g}: "
                                 "pages must be OCR'd"))
    if content and not pictures:
        penalties.append(Penalty("no_images", rules.no_images_penalty_weight, "no picture on any page"))
    return PrescanResult(all_blank=not content, blank_pages=blank, penalties=penalties, raw_metrics=metrics)

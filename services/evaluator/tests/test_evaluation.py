"""The evaluator's pure core: prescan, sampling, scoring and routing (seed-001a §3.3, §7.7–7.8)."""

from __future__ import annotations

import pytest

from skuflow_contracts.profile import ClassificationThresholds, PrescanRules, profile_for
from skuflow_evaluator.domain.evaluation import blend, evaluate
from skuflow_evaluator.domain.features import PageFeatures, PageGlance
from skuflow_evaluator.domain.prescan import prescan
from skuflow_evaluator.domain.routing import ALL_BLANK, LOW_CONFIDENCE, decide
from skuflow_evaluator.domain.sampling import select_pages
from skuflow_evaluator.domain.scoring import page_dimensions, score_document

PROFILE = profile_for("v1")


def text_page(page: int, **changes) -> PageFeatures:
    values = dict(page=page, text_chars=600, ocr_reason=None, stored_rotated=False, picture_share=0.3,
                  column_alignment=0.95, scan_dpi=None, picture_edges=(400, 400))
    return PageFeatures(**(values | changes))


def scan_page(page: int, dpi: float = 150) -> PageFeatures:
    return text_page(page, text_chars=0, ocr_reason="no_text_layer", picture_share=1.0, column_alignment=0.0,
                     scan_dpi=dpi, picture_edges=())


def glances(count: int, blank: tuple[int, ...] = ()) -> list[PageGlance]:
    return [PageGlance(p, 0 if p in blank else 500, 0.0 if p in blank else 0.3) for p in range(1, count + 1)]


class Probe:
    """A ``measure`` that hands out prepared features and remembers what it was asked for."""

    def __init__(self, pages: dict[int, PageFeatures]) -> None:
        self.pages, self.asked = pages, []

    def __call__(self, numbers: list[int]) -> list[PageFeatures]:
        self.asked.append(list(numbers))
        return [self.pages[n] for n in numbers]


def test_blank_pages_and_penalties_come_from_the_profile_rules():
    rules = PrescanRules()
    found = prescan([PageGlance(1, 3, 0.0), PageGlance(2, 0, 0.9), PageGlance(3, 0, 0.8)], rules)
    assert found.blank_pages == [1] and not found.all_blank
    assert [p.rule for p in found.penalties] == ["ocr_rate_low"]
    assert found.total_penalty == rules.ocr_rate_penalty_weight
    text_only = prescan([PageGlance(1, 400, 0.0), PageGlance(2, 300, 0.0)], rules)
    assert [p.rule for p in text_only.penalties] == ["no_images"]


def test_an_all_blank_document_is_degraded_before_it_is_scored():
    probe = Probe({})
    report = evaluate(glances(3, blank=(1, 2, 3)), probe, PROFILE)
    assert (report.route, report.degrade_reason, report.c_doc) == ("HUMAN_ALL", ALL_BLANK, 0.0)
    assert probe.asked == [] and report.blank_pages == [1, 2, 3]


def test_short_documents_are_scored_on_every_page_and_long_ones_on_a_spread():
    assert select_pages(10, [3], full_below=40, size=20) == [1, 2, 4, 5, 6, 7, 8, 9, 10]
    spread = select_pages(500, [1, 500], full_below=40, size=20)
    assert len(spread) == 20 and spread[0] == 2 and spread[-1] == 499


def test_a_clean_born_digital_document_goes_auto():
    report = evaluate(glances(6), Probe({p: text_page(p) for p in range(1, 7)}), PROFILE)
    assert report.route == "AUTO" and report.c_doc >= PROFILE.classification.a_threshold
    assert report.degrade_reason is None and report.review_pages == {}
    assert report.route_reason.startswith(f"C_doc={report.c_doc:.2f}, A=0.80, B=0.40 → AUTO")


def test_a_scanned_document_goes_to_people_with_a_reason():
    scanned = [PageGlance(p, 0, 1.0) for p in range(1, 6)]
    report = evaluate(scanned, Probe({p: scan_page(p) for p in range(1, 6)}), PROFILE)
    assert report.route == "HUMAN_ALL" and report.degrade_reason == LOW_CONFIDENCE
    assert report.c_doc < PROFILE.classification.b_threshold
    assert report.prescan_penalties[0]["rule"] == "ocr_rate_low"


def test_hybrid_reviews_exactly_the_pages_under_pv():
    pages = {p: text_page(p) for p in range(1, 9)} | {4: scan_page(4)}
    report = evaluate(glances(8), Probe(pages), PROFILE)
    assert report.route == "HYBRID"
    assert list(report.review_pages) == [4] and "< PV 0.60" in report.review_pages[4]
    assert "page scores vary" in report.route_reason and "under PV=0.60: 4" in report.route_reason


def test_hybrid_scores_the_unsampled_pages_and_reuses_the_sampled_ones():
    pages = {p: text_page(p) for p in range(1, 61)} | {p: scan_page(p) for p in (1, 30, 31)}
    probe = Probe(pages)
    report = evaluate(glances(60), probe, PROFILE)
    sample, rest = probe.asked
    assert len(sample) == PROFILE.evaluation.sample_size and not set(sample) & set(rest)
    assert sorted(sample + rest) == list(range(1, 61)) and report.route == "HYBRID"
    assert set(report.review_pages) == {1, 30, 31} and len(report.page_scores) == 60


@pytest.mark.parametrize(("c_doc", "scores", "variance", "route"), [
    (0.39, {1: 0.9}, 0.0, "HUMAN_ALL"),
    (0.95, {1: 0.9, 2: 0.95}, 0.001, "AUTO"),
    (0.79, {1: 0.9}, 0.0, "HYBRID"),
    (0.95, {1: 0.9, 2: 0.5}, 0.0, "HYBRID"),
    (0.95, {1: 0.9, 2: 0.95}, 0.2, "HYBRID"),
])
def test_routing_compares_c_doc_pages_and_spread_with_the_thresholds(c_doc, scores, variance, route):
    decision = decide(c_doc, scores, variance, 0.03, ClassificationThresholds())
    assert decision.route == route
    assert (decision.degrade_reason is not None) == (route == "HUMAN_ALL")  # INV-11


def test_resolution_and_sideways_storage_lower_a_page_score():
    good, poor = page_dimensions(scan_page(1, dpi=300), 200), page_dimensions(scan_page(1, dpi=90), 200)
    assert good["text_readability"] > poor["text_readability"] and good["image_quality"] > poor["image_quality"]
    upright = score_document([text_page(1)], PROFILE.evaluation.dimension_weights, 200)
    sideways = score_document([text_page(1, stored_rotated=True)], PROFILE.evaluation.dimension_weights, 200)
    assert sideways.page_scores[1] < upright.page_scores[1]


def test_a_models_scores_are_blended_and_the_route_decided_again():
    report = evaluate(glances(6), Probe({p: text_page(p) for p in range(1, 7)}), PROFILE)
    doubtful = blend(report, {"text_readability": 0.0, "layout_quality": 0.0, "image_quality": 0.0,
                              "table_regularity": 0.0}, "qwen-vl-max", PROFILE)
    assert doubtful.route == "HYBRID" and doubtful.c_doc < report.c_doc
    assert doubtful.model_used == "deterministic+qwen-vl-max" and "blended with qwen-vl-max" in doubtful.route_reason
    share = PROFILE.evaluation.llm_share
    layout = report.dimension_scores["layout_quality"]
    assert doubtful.dimension_scores["layout_quality"] == round((1 - share) * layout, 4)
    assert doubtful.dimension_scores["structure_consistency"] == report.dimension_scores["structure_consistency"]
    confirmed = blend(report, {"text_readability": 1.0, "layout_quality": 1.0, "image_quality": 1.0}, "m", PROFILE)
    assert confirmed.route == "AUTO" and confirmed.c_doc >= report.c_doc

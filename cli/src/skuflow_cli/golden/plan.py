"""What the golden set holds: every document's language, style and pages, decided before anything is drawn.

Planning is cheap and separate from drawing so the feature mix of a whole set can be checked (and
printed) without rendering a PDF. Documents cycle through five content archetypes, eleven hard-case
mixes and four languages with co-prime periods, so 44 documents meet every hard case four times, in
different languages and archetypes. Within that frame a seeded random draws the pages.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skuflow_cli.golden.style import CatalogStyle, choose_style

LANGUAGES = ("zh", "zh", "en", "mixed")
HARD_CASE_MIXES: tuple[frozenset[str], ...] = (
    frozenset(),
    frozenset({"scanned"}),
    frozenset({"garbled_text"}),
    frozenset({"rotated"}),
    frozenset({"fragmented_image", "small_text"}),
    frozenset({"price_no_currency"}),
    frozenset({"sku_without_price", "fragmented_image"}),
    frozenset({"scanned_document"}),
    frozenset({"garbled_text", "rotated"}),
    frozenset({"small_text", "sku_without_price"}),
    frozenset({"price_no_currency", "scanned"}),
)
HARD_CASES = ("garbled_text", "scanned", "fragmented_image", "rotated", "small_text", "price_no_currency",
              "sku_without_price")
# Content units per archetype: the ones every such document has, then weighted draws.
REQUIRED = {"price_list": ("cross_table", "single_column"), "grid": ("grid", "grid"),
            "showcase": ("single_column", "two_columns"), "mixed": ("mixed", "table"),
            "dense": ("dense", "dense_table")}
MENUS: dict[str, tuple[tuple[str, int], ...]] = {
    "price_list": (("table", 4), ("cross_table", 2), ("single_column", 1), ("mixed", 1)),
    "grid": (("grid", 6), ("table", 1), ("mixed", 1)),
    "showcase": (("single_column", 3), ("two_columns", 3), ("mixed", 1)),
    "mixed": (("mixed", 3), ("single_column", 1), ("two_columns", 1), ("grid", 1), ("table", 1)),
    "dense": (("dense", 3), ("dense_table", 2), ("grid", 1)),
}
ARCHETYPES = tuple(REQUIRED)
PAGE_TYPES = {"cover": "D", "contents": "D", "blank": "D", "story": "D", "table": "A", "mixed": "B", "blocks": "C"}
TREATMENTS = ("scanned", "garbled_text", "rotated")
PHOTO_KINDS = ("blocks", "mixed")
PRICED_KINDS = ("table", "mixed", "blocks")


@dataclass(frozen=True)
class PagePlan:
    kind: str
    layout: str | None = None
    grid: int = 0
    section: str | None = None
    table_part: tuple[int, int] = (1, 1)
    features: frozenset[str] = frozenset()

    @property
    def page_type(self) -> str:
        return PAGE_TYPES[self.kind]

    @property
    def treatment(self) -> str | None:
        """What happens to the page after it is drawn: scanned, garbled, rotated, or nothing."""
        return next((t for t in TREATMENTS if t in self.features), None)

    def with_features(self, *features: str) -> PagePlan:
        return PagePlan(self.kind, self.layout, self.grid, self.section, self.table_part,
                        self.features | frozenset(features))


@dataclass(frozen=True)
class DocumentPlan:
    name: str
    language: str
    archetype: str
    style: CatalogStyle
    pages: tuple[PagePlan, ...]
    render_seed: str

    @property
    def features(self) -> list[str]:
        return sorted(set().union(*(p.features for p in self.pages)))

    @property
    def expected_route(self) -> str:
        return expected_route(self.pages)


def expected_route(pages: tuple[PagePlan, ...]) -> str:
    """HUMAN_ALL when more than half the pages have no usable text layer (scanned or garbled text);
    HYBRID when any page is scanned, garbled or rotated; AUTO for a clean born-digital document."""
    unreadable = sum(1 for p in pages if p.treatment in ("scanned", "garbled_text"))
    if unreadable * 2 > len(pages):
        return "HUMAN_ALL"
    if unreadable or any(p.treatment == "rotated" for p in pages):
        return "HYBRID"
    return "AUTO"


def plan_golden_set(seed: int, documents: int) -> list[DocumentPlan]:
    return [plan_document(seed, index) for index in range(documents)]


def plan_document(seed: int, index: int) -> DocumentPlan:
    rng = random.Random(f"{seed}:{index}:plan")
    language = LANGUAGES[(index + index // 11) % len(LANGUAGES)]
    archetype = ARCHETYPES[index % len(ARCHETYPES)]
    hard = HARD_CASE_MIXES[index % len(HARD_CASE_MIXES)]
    style = choose_style(rng, language, currency_free="price_no_currency" in hard)
    whole_scan = "scanned_document" in hard
    total = rng.randint(4, 6) if whole_scan else rng.randint(5, 11)
    front = _front_matter(rng, total)
    back = [PagePlan("blank", features=frozenset({"blank_page"}))] if total > 6 and rng.random() < 0.25 else []
    content = _content(rng, archetype, total - len(front) - len(back), style.sections)
    pages = _with_hard_cases(rng, [*front, *content, *back], hard)
    if style.header_footer:
        pages = [p if p.kind in ("cover", "blank") else p.with_features("repeated_logo") for p in pages]
    return DocumentPlan(f"g{index + 1:02d}_{language}_{archetype}", language, archetype, style, tuple(pages),
                        f"{seed}:{index}:render")


def _front_matter(rng: random.Random, total: int) -> list[PagePlan]:
    front = [PagePlan("cover", features=frozenset({"cover"}))] if rng.random() < 0.9 else []
    if total >= 7 and rng.random() < 0.6:
        front.append(PagePlan("contents", features=frozenset({"contents"})))
    if total >= 6 and rng.random() < 0.35:
        story = {"brand_story", "uncertain_page"} if rng.random() < 0.35 else {"brand_story"}
        front.append(PagePlan("story", features=frozenset(story)))
    return front


def _content(rng: random.Random, archetype: str, count: int, sections: tuple[str, ...]) -> list[PagePlan]:
    units = list(REQUIRED[archetype])
    names, weights = zip(*MENUS[archetype], strict=True)
    pages: list[PagePlan] = []
    while len(pages) < count:
        unit = units.pop(0) if units else rng.choices(names, weights)[0]
        pages += _unit(rng, unit, count - len(pages))
    per_section = -(-len(pages) // len(sections))
    return [PagePlan(p.kind, p.layout, p.grid, sections[i // per_section], p.table_part, p.features)
            for i, p in enumerate(pages)]


def _unit(rng: random.Random, unit: str, room: int) -> list[PagePlan]:
    """One content unit: usually a page, a table running over 2-3 pages when there is room."""
    if unit == "cross_table" and room >= 2:
        parts = rng.randint(2, min(3, room))
        header = "cross_page_table:repeated_header" if rng.random() < 0.5 else "cross_page_table:header_once"
        features = frozenset({"table", "L1", "cross_page_table", header})
        return [PagePlan("table", "L1", table_part=(k, parts), features=features) for k in range(1, parts + 1)]
    if unit in ("table", "cross_table"):
        thumbnails = {"table_thumbnails"} if rng.random() < 0.35 else set()
        return [PagePlan("table", "L1", features=frozenset({"table", "L1", *thumbnails}))]
    if unit == "dense_table":
        return [PagePlan("table", "L4", features=frozenset({"table", "L4"}))]
    if unit == "grid":
        grid = rng.choice((2, 3, 3, 4))
        return [PagePlan("blocks", "L2", grid, features=frozenset({f"L2:{grid}x{grid}"}))]
    if unit == "dense":
        return [PagePlan("blocks", "L4", features=frozenset({"L4"}))]
    if unit == "mixed":
        layout = rng.choice(("L1", "L3"))
        extras = {"sku_without_model"} if rng.random() < 0.6 else set()
        return [PagePlan("mixed", layout, features=frozenset({"mixed_page", layout, *extras}))]
    layout = "L1" if unit == "single_column" else "L3"
    extras = {f for f in ("shared_image_variants", "multi_image_sku") if rng.random() < 0.5}
    return [PagePlan("blocks", layout, features=frozenset({layout, *extras}))]


def _with_hard_cases(rng: random.Random, pages: list[PagePlan], hard: frozenset[str]) -> list[PagePlan]:
    """Put each hard case of the mix on suitable pages (at most one treatment per page)."""
    pages = list(pages)
    if "scanned_document" in hard:
        return [p.with_features("scanned") for p in pages]

    def mark(feature: str, kinds: tuple[str, ...], most: int, *, untreated: bool, keep_tables_whole: bool = False
             ) -> None:
        candidates = [i for i, p in enumerate(pages) if p.kind in kinds and not (untreated and p.treatment)
                      and not (keep_tables_whole and p.table_part[1] > 1)]
        for i in rng.sample(candidates, min(len(candidates), rng.randint(1, most))):
            pages[i] = pages[i].with_features(feature)

    if "rotated" in hard:
        mark("rotated", ("table", "blocks", "mixed"), 1, untreated=True, keep_tables_whole=True)
    for feature in ("scanned", "garbled_text"):
        if feature in hard:
            mark(feature, PRICED_KINDS, 2, untreated=True)
    if "fragmented_image" in hard:
        mark("fragmented_image", PHOTO_KINDS, 2, untreated=True)
    if "small_text" in hard:
        mark("small_text", PRICED_KINDS, 2, untreated=True)
    if "sku_without_price" in hard:
        mark("sku_without_price", PRICED_KINDS, 3, untreated=False)
    if "price_no_currency" in hard:
        pages = [p.with_features("price_no_currency") if p.kind in PRICED_KINDS else p for p in pages]
    return pages

"""The parsed-page intermediate representation (IR) the parser hands to every later stage.

Coordinates are PDF points with the origin at the page's top-left corner, rotation applied,
whichever backend produced them (GOLDEN_FORMAT, seed C12). The IR is stored by claim-check
(events carry its URI); issue #4 deepens it (lines, spans, tables, OCR confidences).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from skuflow_contracts.envelope import Contract

BBox = tuple[float, float, float, float]


def union(boxes: list[BBox]) -> BBox:
    """The smallest box holding every one of ``boxes`` (a non-empty list)."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


ParserBackend = Literal["pdfplumber", "pymupdf", "ocr"]
PageParseStatus = Literal["ok", "failed"]
MIN_SEARCH_SHORT_EDGE = 640


BlockType = Literal["paragraph", "heading", "list_item", "caption"]


class TextSpan(Contract):
    """A run of one font; ``char_boxes`` has one box per character of ``text`` (text layers only)."""

    bbox: BBox
    text: str
    font: str = ""
    size: float = 0.0
    bold: bool = False
    char_boxes: list[BBox] = Field(default_factory=list)


class TextLine(Contract):
    bbox: BBox
    text: str
    spans: list[TextSpan] = Field(default_factory=list)


class TextBlock(Contract):
    block_id: int
    bbox: BBox
    text: str
    lines: list[TextLine] = Field(default_factory=list)
    font_size: float = 0.0
    bold: bool = False
    confidence: float | None = Field(default=None, description="OCR recognition confidence; None for a text layer")
    block_type: BlockType = "paragraph"


class ImageRegion(Contract):
    image_id: str
    bbox: BBox
    width_px: int
    height_px: int
    content_hash: str
    uri: str | None = Field(default=None, description="claim-check URI of the extracted image")
    ext: str = "png"
    is_fragmented: bool = Field(default=False, description="rasterized from several tiles forming one picture")
    perceptual_hash: str | None = Field(default=None, description="64-bit dHash (hex) for near-duplicate search")
    quality_warning: str | None = None

    @property
    def short_edge(self) -> int:
        return min(self.width_px, self.height_px)

    @property
    def search_eligible(self) -> bool:
        """INV-03: only images with a short edge of at least 640 px feed image search."""
        return self.short_edge >= MIN_SEARCH_SHORT_EDGE


class TableCell(Contract):
    row: int
    col: int
    bbox: BBox
    text: str


class TableBlock(Contract):
    table_id: int
    bbox: BBox
    rows: list[list[str]]
    cells: list[TableCell] = Field(default_factory=list)
    header_rows: int = 0
    is_cross_page: bool = Field(default=False, description="hint: the table may continue on the next page")


class ParsedPage(Contract):
    page: int = Field(ge=1)
    width: float = Field(gt=0)
    height: float = Field(gt=0)
    rotation: int = 0
    parser_backend: ParserBackend
    text_blocks: list[TextBlock] = Field(default_factory=list)
    images: list[ImageRegion] = Field(default_factory=list)
    decorations: list[BBox] = Field(default_factory=list,
                                    description="boxes of images below the size floor: neither stored nor hashed")
    tables: list[TableBlock] = Field(default_factory=list, description="table structure from a table backend "
                                     "(seed-000 ParsedPageIR); none fills it: the extractor reads tables from words")
    rules: list[BBox] = Field(default_factory=list, description="horizontal rules drawn across the page (table row "
                              "borders, cell edges), of text-layer pages that are upright")
    column_rules: list[BBox] = Field(default_factory=list, description="vertical rules drawn on the page (cell "
                                     "borders between columns), of text-layer pages that are upright")
    reading_order: list[int] = Field(default_factory=list, description="block_ids in reading order")
    text_coverage: float = 0.0
    ocr_confidence: float | None = None
    status: PageParseStatus = "ok"
    failure_reason: str | None = None
    features: dict[str, float] = Field(default_factory=dict)
    screenshot_uri: str | None = Field(default=None, description="claim-check URI of a rendered page image, "
                                       "only for pages a person or a later step will look at")

    @property
    def raw_text(self) -> str:
        return "\n".join(block.text for block in self.text_blocks)

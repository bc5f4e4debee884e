"""Hand-built IR pages and classifications for the extractor tests (A4 portrait: 595 × 842 pt)."""

from skuflow_contracts.ir import ParsedPage, TextBlock, TextLine, TextSpan
from skuflow_contracts.profile import profile_for
from skuflow_contracts.results import PageClassification
from skuflow_extractor.domain.words import Line, page_lines

PROFILE = profile_for("v1")
HASH = "feedbeef" + "0" * 56
CHAR = 6.0  # points per character of the char-boxed lines
COLUMNS = (50, 140, 290, 430)


def spanned(x, y, text, size=10.0, height=12):
    """A text-layer line with one box per character (CHAR points wide), as PyMuPDF gives them."""
    boxes = [(x + CHAR * n, y, x + CHAR * (n + 1), y + height) for n in range(len(text))]
    return TextLine(bbox=(x, y, x + CHAR * len(text), y + height), text=text,
                    spans=[TextSpan(bbox=(x, y, x + CHAR * len(text), y + height), text=text, size=size,
                                    char_boxes=boxes)])


def spanned_rtl(right, y, text, size=10.0, height=12):
    """``spanned`` ending at ``right`` in a right-to-left script, as PyMuPDF gives it: its characters
    listed from the right."""
    line = spanned(right - CHAR * len(text), y, text, size, height)
    [span] = line.spans
    return line.model_copy(update={"spans": [span.model_copy(update={"char_boxes": span.char_boxes[::-1]})]})


def block(i, lines, block_type="paragraph"):
    x0, y0 = min(ln.bbox[0] for ln in lines), min(ln.bbox[1] for ln in lines)
    x1, y1 = max(ln.bbox[2] for ln in lines), max(ln.bbox[3] for ln in lines)
    return TextBlock(block_id=i, bbox=(x0, y0, x1, y1), text="\n".join(ln.text for ln in lines), lines=lines,
                     font_size=10, block_type=block_type)


def cells(i, y, texts, xs=COLUMNS):
    """A table row: one line per cell at the left edges ``xs``."""
    return block(i, [spanned(x, y, t) for x, t in zip(xs, texts, strict=False)])


def stacked(i, x, y, *texts, leading=14, block_type="paragraph"):
    """Lines stacked top to bottom at (x, y), ``leading`` points apart."""
    return block(i, [spanned(x, y + leading * n, t) for n, t in enumerate(texts)], block_type)


def table(first_id, top, rows, xs=COLUMNS, pitch=20):
    return [cells(first_id + n, top + pitch * n, texts, xs) for n, texts in enumerate(rows)]


HEADER = ["型号", "品名", "规格", "价格"]


def body_rows(first, count):
    return [[f"SF-{n:04d}", "玻璃杯", f"{n}00ml", f"¥{n}.50"] for n in range(first, first + count)]


def page(*blocks, number=3):
    return ParsedPage(page=number, width=595, height=842, parser_backend="pymupdf", text_blocks=list(blocks))


def classification(page_type, roles=None, needs_review=False, layout="L1"):
    return PageClassification(page_type=page_type, page_type_confidence=0.6 if needs_review else 0.9,
                              layout=layout, block_roles=roles or {}, needs_review=needs_review)


def lines_of(*blocks) -> list[Line]:
    return page_lines(page(*blocks), set())

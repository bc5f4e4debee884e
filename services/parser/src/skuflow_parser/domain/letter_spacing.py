"""Chinese set with wide letter-spacing: menus and price boards spread each name across its column
('魚　　肚　　飯　------　90'), so the gap between two characters of a name is wider than the gap
between two rows. The detector then joins characters down the rows instead of along them ('炸炸滷鮮',
'排排排排排') or leaves them one by one, and no name is read whole.

Such a reading is *loose*: many of its Chinese lines are a single character or stand on end. Its
characters are then gathered into rows (boxes of like height overlapping vertically), each row cut where
a gap is wider than ``ROW_GAP`` of its height, and every row holding a loose character is read again as
one line by the recognizer alone. The rows' reading replaces the lines it covers when it reads at least
as much Chinese, a character equal to its neighbour counting against its line (``orientation``), keeps
``KEEPS`` of everything, and does not itself run across columns: a page of true vertical text, read by
rows, sets characters of neighbouring names side by side, and names that end alike repeat them.
"""

from __future__ import annotations

from dataclasses import dataclass

from skuflow_parser.domain.corners import Bounds, Corners, bounds
from skuflow_parser.domain.ocr_text import same_row
from skuflow_parser.domain.orientation import (
    ACROSS_COLUMNS,
    KEEPS,
    read_weight,
    repeated_share,
    stands,
    wide_chars,
)

LOOSE_SHARE = 0.3  # of a reading's Chinese lines, the share that are single characters or stand on end
MIN_LOOSE = 6  # … and at least this many: a few stray characters (a logo, a stamp) are no layout
LIKE_HEIGHT = 1.4  # boxes on one row are of like height: neither taller than this times the other
ROW_GAP = 8.0  # a gap wider than this many row heights ends a row (another column of the page)
PAD = 0.15  # of a row's height, the page read around it


@dataclass(frozen=True)
class Piece:
    """A character of a Chinese line (or a whole line of anything else) and the line it came from."""

    box: Bounds
    text: str
    line: int
    loose: bool  # from a loose line: a single Chinese character or a line standing on end


def _loose(corners: Corners, text: str) -> bool:
    return bool(wide_chars(text)) and (len(text.strip()) == 1 or stands(corners))


def is_loose(lines: list[tuple[Corners, str]]) -> bool:
    """Whether a reading of Chinese came apart into single characters and lines standing on end."""
    chinese = [(corners, text) for corners, text in lines if wide_chars(text)]
    loose = sum(1 for corners, text in chinese if _loose(corners, text))
    return loose >= MIN_LOOSE and loose >= LOOSE_SHARE * len(chinese)


def pieces(lines: list[tuple[Corners, str, tuple[tuple[str, Corners], ...]]]) -> list[Piece]:
    """Each Chinese line cut into its words (the engine places each character), each other line whole
    (a column of prices joined down the page is read as one word, so its words do not place them)."""
    out = []
    for n, (corners, text, words) in enumerate(lines):
        loose = _loose(corners, text)
        if wide_chars(text) and words:
            out += [Piece(bounds(c), word, n, loose) for word, c in words if word.strip()]
        else:
            out.append(Piece(bounds(corners), text, n, loose))
    return out


def _on_row(row: Bounds, box: Bounds) -> bool:
    low, high = sorted((row[3] - row[1], box[3] - box[1]))
    return low > 0 and high <= LIKE_HEIGHT * low and same_row(row, box)


def rows(found: list[Piece]) -> list[list[Piece]]:
    """The pieces gathered into rows and each row cut at gaps wider than ``ROW_GAP`` of its height;
    only the rows with two pieces or more, one of them loose, each left to right."""
    gathered: list[tuple[Bounds, list[Piece]]] = []  # each row by the box of its first piece
    for piece in sorted(found, key=lambda p: (p.box[1] + p.box[3]) / 2):
        row = next((members for seed, members in gathered if _on_row(seed, piece.box)), None)
        if row is None:
            gathered.append((piece.box, [piece]))
        else:
            row.append(piece)
    out = []
    for seed, members in gathered:
        height = seed[3] - seed[1]
        segment: list[Piece] = []
        for piece in sorted(members, key=lambda p: p.box[0]):
            if segment and piece.box[0] - max(p.box[2] for p in segment) > ROW_GAP * height:
                out.append(segment)
                segment = []
            segment.append(piece)
        out.append(segment)
    return [segment for segment in out if len(segment) >= 2 and any(p.loose for p in segment)]


def span(segment: list[Piece]) -> Bounds:
    """The row's box, with ``PAD`` of its height around it (the recognizer reads a line best with
    a little of the page around its characters)."""
    x0, y0 = min(p.box[0] for p in segment), min(p.box[1] for p in segment)
    x1, y1 = max(p.box[2] for p in segment), max(p.box[3] for p in segment)
    pad = PAD * (y1 - y0)
    return x0 - pad, y0 - pad, x1 + pad, y1 + pad


def reads_across(before: list[tuple[Corners, str, float]], after: list[tuple[Corners, str, float]]) -> bool:
    """Whether the rows' reading (``after``) reads at least the Chinese of the page as detected
    (``before``), keeps ``KEEPS`` of all it read, and does not run across columns itself (a page of
    true vertical text, its rows' neighbouring characters repeating: ``orientation``)."""
    return (read_weight(after, chinese_only=True) >= max(read_weight(before, chinese_only=True), 0.0)
            and read_weight(after) >= KEEPS * read_weight(before)
            and repeated_share([(corners, text) for corners, text, _ in after]) < ACROSS_COLUMNS)

"""Drawing on one page in the displayed frame: measured text in an embedded CJK font, pictures, rules.

The font is embedded (and subset when the document is saved) like in most real catalogs, which is
also what lets a page be garbled later by taking its /ToUnicode away.
"""

from __future__ import annotations

import functools

import pymupdf

FONT_NAME = "catalog"
FONT = pymupdf.Font("china-s")
BLACK = (0.0, 0.0, 0.0)
GREY = (0.4, 0.4, 0.4)
MIN_TEXT_SIZE = 4.5
_BREAK_AFTER = " ，。、；：,.;:!?）)"


class Canvas:
    """A page to draw on; every coordinate is PDF points from the top-left of the page as displayed."""

    def __init__(self, page: pymupdf.Page) -> None:
        self.page = page
        font = page.insert_font(fontname=FONT_NAME, fontbuffer=FONT.buffer)
        # PyMuPDF caches glyph widths per document up to the highest code seen so far and recomputes all of
        # them whenever a higher one turns up; asking for the whole plane once is much cheaper.
        page.parent.get_char_widths(font, 0x10000)
        self._shape = page.new_shape()

    def close(self) -> None:
        """Write out what is pending and merge the page's content into one stream, as producers do."""
        self._flush()
        self.page.clean_contents()

    def _flush(self) -> None:
        """Text and lines are collected and written in one go (much faster than one stream per line);
        a picture flushes first so that what is drawn later still lies on top of it."""
        if self._shape.text_cont or self._shape.totalcont:
            self._shape.commit()
            self._shape = self.page.new_shape()

    @property
    def rect(self) -> pymupdf.Rect:
        return self.page.rect

    @staticmethod
    def width_of(text: str, size: float) -> float:
        return size * sum(_advance(char) for char in text)

    def text(self, x: float, baseline: float, text: str, size: float, color: tuple = BLACK) -> float:
        """Write one line; returns its width."""
        self._shape.insert_text((x, baseline), text, fontname=FONT_NAME, fontsize=size, color=color)
        return self.width_of(text, size)

    def fitted(self, x: float, baseline: float, text: str, size: float, width: float, color: tuple = BLACK) -> None:
        """Write one line, smaller if it would not fit ``width``: the truth needs every character printed."""
        self.text(x, baseline, text, fit(text, size, width), color)

    def lines(self, x: float, top: float, lines: list[str], size: float, width: float, leading: float = 1.4,
              color: tuple = BLACK) -> float:
        """Write lines downwards from ``top``; returns the y below the last one."""
        y = top
        for line in lines:
            self.fitted(x, y + size, line, size, width, color)
            y += size * leading
        return y

    def paragraph(self, rect: pymupdf.Rect, text: str, size: float, leading: float = 1.5,
                  color: tuple = BLACK) -> float:
        """Wrap ``text`` into ``rect`` (as much as fits); returns the y below the last line."""
        y = rect.y0
        for line in wrap(text, size, rect.width):
            if y + size > rect.y1:
                break
            self.text(rect.x0, y + size, line, size, color)
            y += size * leading
        return y

    def picture(self, rect: pymupdf.Rect, data: bytes) -> pymupdf.Rect:
        self._flush()
        self.page.insert_image(rect, stream=data, keep_proportion=False)
        return pymupdf.Rect(rect)

    def rule(self, start: tuple[float, float], end: tuple[float, float], width: float = 0.6,
             color: tuple = GREY) -> None:
        self._shape.draw_line(start, end)
        self._shape.finish(color=color, width=width)

    def box(self, rect: pymupdf.Rect, fill: tuple | None = None, color: tuple | None = None,
            width: float = 0.6) -> None:
        self._shape.draw_rect(rect)
        self._shape.finish(color=color, fill=fill, width=width)


@functools.cache
def _advance(char: str) -> float:
    """A character's width at size 1 (asking the font each time is slow, and the font never kerns)."""
    return FONT.text_length(char, fontsize=1)


def fit(text: str, size: float, width: float) -> float:
    """The largest size up to ``size`` at which ``text`` fits ``width`` (never below MIN_TEXT_SIZE)."""
    natural = Canvas.width_of(text, size)
    return size if natural <= width else max(MIN_TEXT_SIZE, size * width / natural)


def wrap(text: str, size: float, width: float) -> list[str]:
    """Greedy line breaking that works for Chinese (break anywhere) and English (break at spaces)."""
    lines: list[str] = []
    line = ""
    for token in _tokens(text):
        if line and Canvas.width_of(line + token, size) > width:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    if line:
        lines.append(line.rstrip())
    return lines


def _tokens(text: str) -> list[str]:
    """Words with their trailing space for Latin text, single characters for CJK."""
    tokens: list[str] = []
    for char in text:
        if tokens and char.isascii() and not char.isspace() and tokens[-1][-1:].isascii() \
                and not tokens[-1].endswith(tuple(_BREAK_AFTER)):
            tokens[-1] += char
        else:
            tokens.append(char)
    return tokens

"""Tesseract, for the scripts PP-OCR's models cannot read.

RapidOCR's bundled models read Chinese and Latin; a Russian price list comes out as Latin look-alikes
('Kpynbl' for 'Крупы'), a Persian one as Latin letters and stray figures, no code or name of it usable.
Tesseract (Debian's ``tesseract-ocr`` with its language packs, run as a program, so nothing is linked
into the parser) detects a page's script (``--psm 0``, with a second witness for Cyrillic) and reads
Cyrillic, Arabic-script (Persian), Korean, Thai and Greek pages, and Vietnamese ones, whose marks PP-OCR's
Latin model drops. It is asked only about pages whose first reading is not Chinese, and reads only pages it finds
written in a script it has a language pack for. Where the program or a pack is missing, pages are read as
before and that is logged once.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import statistics
import subprocess
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from io import BytesIO

import numpy as np
from PIL import Image

from skuflow_parser.backends import ocr_tape
from skuflow_parser.backends.ocr_engines import Line
from skuflow_parser.domain.corners import Corners, bounds, corners_of

log = logging.getLogger(__name__)


# a word with a digit and no letter: a code, a size or a price, whatever the script around it
FIGURES = re.compile(r"^\W*\d[\d\W_]*$")
# a word in Latin letters, figures and ASCII marks: a code ('HM-1FW-00') or a Latin word, as PP-OCR reads it
LATIN_WORDS = re.compile(r"^(?=.*[A-Za-z0-9])[!-~]+$")
# figures, or figures in dong: in thousands ('18k', '105K') or with the dong sign ('80.000đ/'), as Vietnamese menus
# print them (Tesseract read '80.OOOđ/' where PP-OCR read '80.000đ/')
DONG_FIGURES = re.compile(r"^\W*\d[\d\W_]*[kKđ₫]?\W*$")


@dataclass(frozen=True)
class Witness:
    """What PP-OCR's longest lines, read in a script (``_witnessed``), must come out as for the page to be
    taken as written in it: words of at least ``letters`` letters, at least ``WITNESS_WORDS`` of them in the
    script's letters only, and at least ``share`` of such words."""

    letters: int
    share: float
    marked: bool = False  # a word counts when one of its letters is the script's, not all of them (a language
    # told by its marks: Vietnamese prints Latin letters, most of its words carrying a mark no other language uses)
    shown: re.Pattern | None = None  # a letter PP-OCR's own reading of such a page holds (its look-alikes of the
    # script): a first reading without one is not asked about (``_shows``)


@dataclass(frozen=True)
class Script:
    """How Tesseract reads a script it detects: the language packs, the letters that spell it, and the
    share of a reading's letters that must be the script's for the reading to be kept.
    ``unspaced``: Tesseract's models part its words letter by letter or syllable by syllable ('ต า ร า ง',
    '아 유 타'), so letters closer than ``GLUED`` of their height are one word again. ``from_ppocr``: the
    words of PP-OCR's first reading that stand for Tesseract's (see ``with_figures_of``). ``witness``: how a
    page the detection does not name in the script is heard to be written in it (see ``_witnessed``).
    ``by_lines``: the page is read as PP-OCR's lines stacked in a strip (``stacked``), not by Tesseract's own
    layout analysis: on seven Vietnamese menu photos that read 83 of their 112 names whole, the whole page
    77, in less time (PP-OCR's detection finds a photo's lines; its Latin model only drops the marks).
    ``look_alikes``: the script's letters a Latin one looks like; a Latin page read in the script comes out in
    them, so the share is asked of its other letters too, against the Latin letters read."""

    languages: str
    letter: re.Pattern
    unspaced: bool = False
    share: float = 0.45
    from_ppocr: re.Pattern = FIGURES
    witness: Witness | None = None
    by_lines: bool = False
    look_alikes: frozenset[str] = frozenset()


@dataclass(frozen=True)
class OtherReading:
    """Tesseract's lines of a page in another script, and which of PP-OCR's words stand for its own."""

    lines: list[Line]
    from_ppocr: re.Pattern


# the letters only Vietnamese marks so: d with a stroke, o and u with a horn, and the tones under and above
# vowels (Latin Extended Additional); not the a with a breve Romanian shares, nor French's circumflexes
VIETNAMESE_MARKED = re.compile(r"[đĐơƠưƯĩĨũŨ\u1ea0-\u1ef9]")
# Greek letters, with their accented forms (Greek Extended). PP-OCR reads a Greek menu's words as Latin
# look-alikes with a Greek letter here and there ('Kλυθκια τηανιτ' for 'Κολοκυθάκια τηγανιτά'); its
# twin scanned at 150 dpi was called Latin by the detection, and a Greek menu prints its English beside the
# Greek ('Μελιτζανοσαλάτα | Charred eggplant spread'): half its words Greek, so a third is heard as Greek
GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
# what PP-OCR's models make of Hangul: Chinese characters (and kana), never Latin letters
CHINESE_LOOK_ALIKES = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# a script Tesseract's --psm 0 names → how it is read. Arabic script is read with the Persian pack and
# English: the script detection called Italian and Turkish menus Arabic, and the Persian pack alone reads
# Latin letters as Arabic ones (such pages then passed the share check: with English beside it they read
# 0.01 of their letters Arabic, the Persian price list 0.51, a list in English and Arabic 0.31). On that
# Persian list 11 of 21 names came out whole (13 with the Persian pack alone, 8 with Persian and Arabic,
# which writes Arabic yeh and kaf where Persian prints its own); an Arabic page comes out in Persian letter
# forms. A Hangul letter is a whole syllable, so beside Latin words a Korean page's share of
# Hangul letters is low (a Korean-English coffee list 0.16, two Korean price lists 0.33 and 0.69, as
# 150 dpi scans); Korean has no Latin look-alikes to guard against (an English list read with the Korean
# pack: 0.00), so a tenth keeps its reading. PP-OCR reads Hangul as Chinese look-alikes, never as Latin
# ones, so its Latin words on a Korean page are Latin: they stand for Tesseract's (Tesseract missed a walker
# catalogue's six white-on-grey model codes that PP-OCR read right); on Cyrillic, Arabic and Thai pages
# its Latin words are look-alikes of the script's letters and only its figures are kept.
# A Latin table read as Cyrillic: two chip makers' selection tables in blue print on small pictures ('CH557Q' read
# 'сн5вта') kept Tesseract's reading at 0.60 and 0.68 of their sure letters Cyrillic; of the letters no Latin one
# looks like, against the Latin letters read, 0.29 and 0.31, where the real set's Russian and Ukrainian scans read
# 0.62-1.00.
CYRILLIC_LOOK_ALIKES = frozenset("АВЕКМНОРСТХУаеорсухвкмнтіІјЈѕЅ")
LANGUAGES = {"Cyrillic": Script("rus+ukr+eng", re.compile(r"[\u0400-\u04ff]"), witness=Witness(letters=3, share=0.5),
                                look_alikes=CYRILLIC_LOOK_ALIKES),
             "Arabic": Script("fas+eng", re.compile(r"[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]")),
             "Korean": Script("kor+eng", re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]"), unspaced=True,
                              share=0.1, from_ppocr=LATIN_WORDS,
                              witness=Witness(letters=2, share=0.2, shown=CHINESE_LOOK_ALIKES)),
             "Thai": Script("tha+eng", re.compile(r"[\u0e00-\u0e7f]"), unspaced=True),
             "Greek": Script("ell+eng", GREEK, share=0.3, witness=Witness(letters=3, share=0.3, shown=GREEK)),
             "Vietnamese": Script("vie", VIETNAMESE_MARKED, share=0.05, from_ppocr=DONG_FIGURES,
                                  witness=Witness(letters=2, share=0.2, marked=True), by_lines=True)}
# of a word's height, measured on a Thai and a Korean price list rendered as 150 dpi scans: Thai letters
# of one word stand 0-0.14 apart and words 0.23-0.37; Hangul syllables of one word 0.12-0.2, but two
# Korean words 0.15 to 0.66, so a Korean word is now and then glued to the next (a space lost, not a
# word parted)
GLUED = 0.21
MIN_WORD_CONFIDENCE = 0.2  # a word read less surely is a picture's edge or a rule read as letters
# Tesseract's script detection is a weak witness on price lists (few words, many numbers): it said
# 'Cyrillic' of an English catalogue page, 'Latin' of a Russian road-sign list, and 'Cyrillic' with a
# confidence of 0.1 of a short Russian list. So naming the script at all asks for a reading, which is
# kept only when enough of its letters, of lines read this surely, are the script's (``Script.share``;
# for Cyrillic most of them: Russian pages 0.51-0.98, others 0.00-0.27 on the real set).
SURE_LINE = 0.6
TIMEOUT = 120  # seconds for one page
# Tesseract's OpenMP threads spin on a 2-core machine that onnxruntime also uses: one thread read the
# committed Russian and Swedish scans 4-9x faster (7.8 -> 1.9 s, 18.3 -> 2.0 s), word for word the same.
ONE_THREAD = {"OMP_THREAD_LIMIT": "1"}
SCRIPT = re.compile(r"^Script: (\S+)$", re.M)


@cache
def program() -> str | None:
    found = shutil.which("tesseract")
    if found is None:
        log.warning("tesseract is not installed: pages in Cyrillic are read by the Chinese and Latin models only")
    return found


@cache
def version() -> str | None:
    """The installed Tesseract's version ('5.3.0'), None when it is not installed: it decides what a
    Cyrillic scan reads, so the training corpus's parse cache is keyed by it."""
    found = program()
    if found is None:
        return None
    shown = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=TIMEOUT, check=False)
    first = (shown.stdout or shown.stderr).split("\n", 1)[0].split()
    return first[-1] if first else None


def _run(image: np.ndarray, *args: str) -> str:
    """Tesseract's answer for the image (from the OCR tape, where one is played)."""
    return ocr_tape.played("tesseract", image, list(args), lambda: _asked(image, *args))


def _asked(image: np.ndarray, *args: str) -> str:
    """Tesseract's answer for the image, fed as a PNG on standard input."""
    picture = Image.fromarray(image).convert("L")
    buffer = BytesIO()
    picture.save(buffer, format="PNG", compress_level=1)
    done = subprocess.run([program() or "tesseract", "stdin", "stdout", *args], input=buffer.getvalue(),
                          capture_output=True, timeout=TIMEOUT, check=False, env=os.environ | ONE_THREAD)
    return done.stdout.decode("utf-8", errors="replace")


@cache
def installed() -> frozenset[str]:
    """The language packs the installed Tesseract has (empty when it is not installed)."""
    found = program()
    if found is None:
        return frozenset()
    listed = subprocess.run([found, "--list-langs"], capture_output=True, text=True, timeout=TIMEOUT, check=False)
    return frozenset(line.strip() for line in listed.stdout.splitlines()[1:] if line.strip())


@cache
def _readable(script: str) -> bool:
    """Whether every pack the script is read with is installed (a missing one is logged once)."""
    missing = set(LANGUAGES[script].languages.split("+")) - installed()
    if missing:
        log.warning("tesseract has no %s pack: pages in %s script keep PP-OCR's reading", "+".join(sorted(missing)),
                    script)
    return not missing


def script_of(image: np.ndarray) -> str | None:
    """The script Tesseract sees on the page, when it has languages for it."""
    if program() is None:
        return None
    answer = _run(image, "--psm", "0")
    script = SCRIPT.search(answer)
    return script.group(1) if script is not None and script.group(1) in LANGUAGES and _readable(script.group(1)) \
        else None


def lines_of(tsv: str, unspaced: re.Pattern | None = None) -> list[Line]:
    """Tesseract's TSV words grouped into its lines, each word with its box and the line's confidence
    the mean of its words' (Tesseract says 0-100). ``unspaced``: the letters of a script whose words
    Tesseract parts letter by letter, glued again where they stand close."""
    grouped: dict[tuple[str, str, str], list[tuple[str, Corners, float]]] = {}
    for row in tsv.splitlines()[1:]:
        fields = row.split("\t")
        word = fields[11].strip() if len(fields) >= 12 and fields[0] == "5" else ""
        if not word or float(fields[10]) < 100 * MIN_WORD_CONFIDENCE:
            continue
        left, top, width, height = (int(v) for v in fields[6:10])
        grouped.setdefault((fields[2], fields[3], fields[4]), []).append(
            (word, corners_of((left, top, left + width, top + height)), float(fields[10]) / 100))
    lines = []
    for read in grouped.values():
        words = _glued(read, unspaced) if unspaced is not None else read
        corners = corners_of(bounds([point for _, corners, _ in words for point in corners]))
        lines.append(Line(corners, " ".join(w for w, _, _ in words), statistics.fmean(c for *_, c in read),
                          tuple((w, c) for w, c, _ in words)))
    return lines


def _glued(words: list[tuple[str, Corners, float]], letter: re.Pattern) -> list[tuple[str, Corners, float]]:
    """Neighbouring words joined into one where a letter of ``letter`` meets another across a gap of less
    than ``GLUED`` of their height."""
    out = [words[0]]
    for word, corners, confidence in words[1:]:
        last, last_corners, last_confidence = out[-1]
        before, after = bounds(last_corners), bounds(corners)
        height = max(before[3] - before[1], after[3] - after[1])
        if letter.match(last[-1]) and letter.match(word[0]) and after[0] - before[2] < GLUED * height:
            out[-1] = (last + word, corners_of(bounds([*last_corners, *corners])), min(last_confidence, confidence))
        else:
            out.append((word, corners, confidence))
    return out


SAME_WORD = 0.5  # of the smaller box that two readings' words share to be one printed word
HALF_SEEN = 0.3  # a PP-OCR word overlapping a Tesseract word this much was seen by Tesseract


def _shared(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The share of the smaller of two boxes that both cover."""
    width, height = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return width * height / smaller if smaller > 0 else 0.0


def with_figures_of(tesseract_lines: list[Line], ppocr_lines: list[Line], taken: re.Pattern = FIGURES) -> list[Line]:
    """Tesseract's reading with the figures PP-OCR read on the same image (``taken``: the PP-OCR words
    that count, by default figures): Tesseract is asked only for the script's letters, and PP-OCR reads
    digits better (on the real set's Cyrillic scans and their scanned twins, truth codes and prices found
    230 of 421 in Tesseract's text, 294 with PP-OCR's figures). A Tesseract word covering one such PP-OCR
    word takes its text; one Tesseract did not see at all is added as a line of its own."""
    figures = [(word, bounds(corners), corners, line.confidence) for line in ppocr_lines
               for word, corners in (line.words or ((line.text, line.corners),)) if taken.match(word)]
    seen: set[int] = set()
    boxes = []  # every Tesseract word's
    merged = []
    for line in tesseract_lines:
        words = []
        for word, corners in line.words:
            box = bounds(corners)
            boxes.append(box)
            covered = [n for n, (_, other, _, _) in enumerate(figures) if _shared(box, other) > SAME_WORD]
            seen.update(covered)
            words.append((figures[covered[0]][0] if len(covered) == 1 else word, corners))
        merged.append(Line(line.corners, " ".join(word for word, _ in words), line.confidence, tuple(words)))
    for n, (word, box, corners, confidence) in enumerate(figures):
        if n not in seen and not any(_shared(box, other) > HALF_SEEN for other in boxes):
            merged.append(Line(corners, word, confidence, ((word, corners),)))
    return merged


# Tesseract's script detection misses scripts on scans: on the scanned twins of the real set's Russian,
# Ukrainian and Uzbek price lists (100-150 dpi) it called 8 of 27 pages Latin, Fraktur or Arabic, and they
# kept PP-OCR's Latin look-alikes; it named no script on two Korean price lists' twins. So a page it names in
# no other script Tesseract reads, or whose reading in that script fails, is asked a second witness for each
# script with a ``Witness``, Cyrillic first: PP-OCR's longest lines, cut out and stacked (no figures, rules
# or pictures to mislead it), read in the script. It counts words, not letters: Latin capitals have Cyrillic
# look-alikes, and a raster brochure's strip came out 0.83 Cyrillic letters, in ones and twos ('о', 'З',
# 'та'), so a Cyrillic word has three letters or more; a Hangul letter is a syllable, and the real set's
# Latin and Russian pages read as Korean gave lone syllables ('바', '태') and at most one word of two ('티사'),
# so a Korean word has two. The Cyrillic witness heard 5 of those 8 pages, and none of the 64 pages of the real set's 43
# Latin-script scans and photos (docs/decisions.md, Tesseract for other scripts).
WITNESS_LINES = 12  # PP-OCR's lines in the strip: a second of Tesseract at most
WITNESS_LENGTH = 4  # a line in the strip is at least this many heights long
WITNESS_GAP = 6  # white pixels around each line in the strip
WITNESS_WORDS = 3  # words in the script the strip must read
# asked in this order; Greek before Vietnamese: read with the Vietnamese pack, the strip of a Greek menu's scanned
# twin came out in marked Latin letters and was heard as Vietnamese before the Greek witness was asked
WITNESSES = {name: read.witness for name, read in LANGUAGES.items() if read.witness is not None}


def _sure_letters(lines: list[Line]) -> list[str]:
    return [ch for line in lines if line.confidence >= SURE_LINE for ch in line.text if ch.isalpha()]


def _written_in(letters: list[str], read: Script) -> bool:
    own = [ch for ch in letters if read.letter.match(ch)]
    if not letters or len(own) < read.share * len(letters):
        return False
    if not read.look_alikes:
        return True
    telling = sum(1 for ch in own if ch not in read.look_alikes)
    latin = sum(1 for ch in letters if ch.isascii())
    return telling >= read.share * (telling + latin)


def _length(line: Line) -> float:
    """A line's length in its own heights: about how many letters it holds, whatever PP-OCR made of them."""
    left, top, right, bottom = bounds(line.corners)
    return (right - left) / max(bottom - top, 1)


def _ground(crop: np.ndarray) -> np.ndarray:
    """The colour a line is printed on (the median of its box's edge): the strip is filled with it around
    the line, as white between lines printed on a tinted board made Tesseract's threshold take the tint for ink."""
    edge = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    return np.median(edge, axis=0).astype(crop.dtype)


@dataclass(frozen=True)
class Strip:
    """Lines cut from a page and stacked, each on its own ground: the image Tesseract reads, and for each
    row the line it holds, where the row starts in the strip and where the line's box starts on the page."""

    image: np.ndarray
    rows: tuple[tuple[Line, int, int, int], ...]  # (line, row top, box left, box top)


def stacked(image: np.ndarray, lines: Sequence[Line]) -> Strip | None:
    """``lines`` cut from ``image`` by their boxes and stacked, ``WITNESS_GAP`` of their own ground around each."""
    cut = []
    for line in lines:
        left, top, right, bottom = (max(int(v), 0) for v in bounds(line.corners))
        crop = image[top:bottom + 1, left:right + 1]
        if crop.size:
            cut.append((line, crop, left, top))
    if not cut:
        return None
    width = max(crop.shape[1] for _, crop, _, _ in cut) + 2 * WITNESS_GAP
    rows, placed, height = [], [], 0
    for line, crop, left, top in cut:
        row = np.empty((crop.shape[0] + 2 * WITNESS_GAP, width, *crop.shape[2:]), dtype=image.dtype)
        row[:] = _ground(crop)
        row[WITNESS_GAP:WITNESS_GAP + crop.shape[0], WITNESS_GAP:WITNESS_GAP + crop.shape[1]] = crop
        rows.append(row)
        placed.append((line, height, left, top))
        height += row.shape[0]
    return Strip(np.concatenate(rows), tuple(placed))


def strip_of(image: np.ndarray, lines: Sequence[Line]) -> np.ndarray | None:
    """The ``WITNESS_LINES`` longest of ``lines`` (by PP-OCR's boxes: its models may read a Cyrillic line as
    nothing at all) not read as figures alone, cut from ``image`` and stacked, each on its own ground."""
    lettered = sorted((line for line in lines if _length(line) >= WITNESS_LENGTH and not FIGURES.match(line.text)),
                      key=_length, reverse=True)[:WITNESS_LINES]
    strip = stacked(image, lettered)
    return strip.image if strip is not None else None


def on_page(strip: Strip, read: Sequence[Line]) -> list[Line]:
    """Tesseract's reading of a strip put back on the page: each word moved from its row to its line's box,
    the words of one row one line, in the place and shape PP-OCR gave it."""
    tops = [top for _, top, _, _ in strip.rows]
    words: dict[int, list[tuple[str, Corners, float]]] = {}
    for line in read:
        for word, corners in line.words:
            left, top, right, bottom = bounds(corners)
            n = bisect_right(tops, (top + bottom) / 2) - 1
            _, row_top, box_left, box_top = strip.rows[n]
            dx, dy = box_left - WITNESS_GAP, box_top - row_top - WITNESS_GAP
            words.setdefault(n, []).append(
                (word, corners_of((left + dx, top + dy, right + dx, bottom + dy)), line.confidence))
    rows = [(n, sorted(row, key=lambda word: bounds(word[1])[0])) for n, row in sorted(words.items())]
    return [Line(strip.rows[n][0].corners, " ".join(w for w, _, _ in row), statistics.fmean(c for *_, c in row),
                 tuple((w, c) for w, c, _ in row)) for n, row in rows]


def _witnessed(strip: np.ndarray, script: str) -> bool:
    """Whether PP-OCR's longest lines (``strip_of``), read by Tesseract in ``script``, are words in it."""
    read, witness = LANGUAGES[script], WITNESSES[script]
    tsv = _run(strip, "-l", read.languages, "--psm", "6", "tsv")
    words = [word for line in lines_of(tsv, read.letter if read.unspaced else None)
             if line.confidence >= SURE_LINE for word in line.text.split()
             if sum(ch.isalpha() for ch in word) >= witness.letters]
    in_script = any if witness.marked else all
    written = sum(1 for word in words if in_script(read.letter.match(ch) for ch in word if ch.isalpha()))
    return written >= WITNESS_WORDS and written >= witness.share * len(words)


def _reading(script: str, image: np.ndarray, first: Sequence[Line]) -> OtherReading | None:
    """The page read in ``script``, kept when enough of its sure letters are the script's: the whole page, or
    for a script read ``by_lines``, PP-OCR's lines (``first``) stacked in a strip."""
    read = LANGUAGES[script]
    glue = read.letter if read.unspaced else None
    strip = stacked(image, first) if read.by_lines else None
    lines = on_page(strip, lines_of(_run(strip.image, "-l", read.languages, "--psm", "6", "tsv"), glue)) \
        if strip is not None else lines_of(_run(image, "-l", read.languages, "--psm", "3", "tsv"), glue)
    return OtherReading(lines, read.from_ppocr) if _written_in(_sure_letters(lines), read) else None


def _shows(first: Sequence[Line], script: str) -> bool:
    """Whether PP-OCR's first reading holds what it makes of the script's letters, where that is known
    (``Witness.shown``): a Korean page always reads with some Chinese characters, a Greek one with some Greek
    letters. Without them the witness is not asked (on the real set's 134 non-Chinese scans and photos, the
    Korean witness was asked 117 times and heard 1, the Greek 104 and heard none, each a Tesseract run of
    0.3-0.9 s)."""
    shown = WITNESSES[script].shown
    return shown is None or any(shown.search(line.text) for line in first)


def read_other_script(image: np.ndarray, first: Sequence[Line] = ()) -> OtherReading | None:
    """The page read by Tesseract, if it is written in a script Tesseract reads and PP-OCR does not
    (``first``: PP-OCR's lines, for the second witness). Tesseract failing (killed, too slow, a broken
    language pack) leaves the first reading: logged, not raised, so the page keeps the text it had."""
    try:
        script = script_of(image)
        if script is not None and (reading := _reading(script, image, first)) is not None:
            return reading
        strip = strip_of(image, first)
        for witnessed in WITNESSES if strip is not None else ():
            if script != witnessed and _readable(witnessed) and _shows(first, witnessed) and _witnessed(
                    strip, witnessed) and (reading := _reading(witnessed, image, first)) is not None:
                return reading
    except (OSError, subprocess.SubprocessError, ValueError):
        log.exception("tesseract failed; the page keeps its first reading")
    return None

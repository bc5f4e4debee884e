"""Pages in a script PP-OCR's models cannot read (Cyrillic, Persian, Greek …) are read by Tesseract; others are not."""

import logging
import re
import subprocess

import numpy as np
import pymupdf
import pytest
from pdf_samples import PAGE, scanned

from skuflow_parser.backends import tesseract
from skuflow_parser.backends.ocr_engines import Line
from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.backends.tesseract import lines_of, with_figures_of
from skuflow_parser.pages import parse_page

CYRILLIC_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # Debian's fonts-dejavu-core (make setup)
PRICE_LIST = ["Прайс-лист на продукцию", "Крупа гречневая ядрица 800 г        125,50 руб.",
              "Рис круглозерный 800 г        98,00 руб.", "Сахар кусковой 1000 г        110,00 руб."]


def _scan_of(lines: list[str], size: float, step: float = 26,
             ground: tuple[float, float, float] | None = None) -> bytes:
    """``lines`` printed in DejaVu Sans (``size`` pt, ``step`` pt apart, on ``ground`` if given) and scanned at
    150 dpi."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    if ground is not None:
        page.draw_rect(page.rect, color=None, fill=ground)
    page.insert_font(fontname="dejavu", fontfile=CYRILLIC_FONT)
    for n, line in enumerate(lines):
        page.insert_text((60, 120 + step * n), line, fontname="dejavu", fontsize=size)
    scan = pymupdf.open()
    scan.new_page(width=PAGE.width, height=PAGE.height).insert_image(
        PAGE, stream=page.get_pixmap(dpi=150).tobytes("jpeg", jpg_quality=80))
    return scan.tobytes()


def _russian_scan() -> bytes:
    return _scan_of(PRICE_LIST, 13, step=24)


PERSIAN_PRICE_LIST = ["لیست قیمت محصولات", "عدس درشت ممتاز 350000", "لوبیا قرمز ممتاز 420000", "نخود ممتاز 380000",
                      "برنج هاشمی اعلا 950000", "لپه باقالی ممتاز 320000", "ماش ممتاز 410000"]


def _persian_scan() -> bytes:
    """A Persian price list, shaped right to left (MuPDF's HTML layout) and scanned at 150 dpi."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_htmlbox(pymupdf.Rect(60, 80, 540, 700), "".join(
        f'<p style="font-family: sans-serif; font-size: 13pt">{row}</p>' for row in PERSIAN_PRICE_LIST))
    scan = pymupdf.open()
    scan.new_page(width=PAGE.width, height=PAGE.height).insert_image(
        PAGE, stream=page.get_pixmap(dpi=150).tobytes("jpeg", jpg_quality=80))
    return scan.tobytes()


def test_tesseract_words_are_grouped_into_its_lines_with_their_boxes_and_confidence():
    tsv = "\n".join([
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
        "4\t1\t1\t1\t1\t0\t10\t20\t200\t12\t-1\t",  # a line's own row, no word
        "5\t1\t1\t1\t1\t1\t10\t20\t60\t12\t96.0\tКрупа",
        "5\t1\t1\t1\t1\t2\t80\t21\t90\t11\t90.0\tгречневая",
        "5\t1\t1\t1\t1\t3\t175\t20\t5\t40\t3.0\t|",  # a rule read as a letter, hardly at all
        "5\t1\t2\t1\t1\t1\t300\t20\t50\t12\t94.0\t125,50"])
    first, second = lines_of(tsv)
    assert first.text == "Крупа гречневая" and round(first.confidence, 2) == 0.93
    assert first.corners == [[10, 20], [170, 20], [170, 32], [10, 32]]
    assert [word for word, _ in first.words] == ["Крупа", "гречневая"]
    assert second.text == "125,50" and second.words[0][1][0] == [300, 20]


def test_a_russian_price_list_scan_is_read_in_cyrillic():
    page = parse_page(open_document(_russian_scan()), 0, "f" * 64, ImageCache()).page
    text = "\n".join(block.text for block in page.text_blocks)
    assert page.parser_backend == "ocr"
    assert "гречневая" in text and "кусковой" in text and "125,50" in text


def test_a_persian_price_list_scan_is_read_in_its_own_script():
    page = parse_page(open_document(_persian_scan()), 0, "f" * 64, ImageCache()).page
    text = "\n".join(block.text for block in page.text_blocks)
    assert page.parser_backend == "ocr"
    assert "عدس درشت ممتاز" in text and "نخود ممتاز" in text and "ماش ممتاز" in text


@pytest.fixture
def packs_asked_again():
    """Which packs a script needs is asked once per process: asked afresh for a test that fakes them."""
    tesseract._readable.cache_clear()
    yield
    tesseract._readable.cache_clear()


def test_a_script_without_its_language_pack_keeps_the_first_reading_and_says_so(monkeypatch, packs_asked_again,
                                                                                 caplog):
    monkeypatch.setattr(tesseract, "installed", lambda: frozenset({"eng", "osd", "rus", "ukr"}))
    with caplog.at_level(logging.WARNING, logger=tesseract.__name__):
        page = parse_page(open_document(_persian_scan()), 0, "f" * 64, ImageCache()).page
    text = "".join(block.text for block in page.text_blocks)
    assert page.parser_backend == "ocr" and not re.search(r"[\u0600-\u06ff]", text)
    assert any("no fas pack" in record.getMessage() for record in caplog.records)


def test_letters_tesseract_parted_are_one_word_again_where_they_stand_close():
    """Thai is written without spaces inside a phrase and Tesseract parts it letter by letter: letters
    about a fifth of their height apart or closer are glued, a wider gap stays a space, a Latin word stays apart."""
    tsv = "\n".join([
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
        "5\t1\t1\t1\t1\t1\t10\t20\t15\t20\t90.0\tต",
        "5\t1\t1\t1\t1\t2\t27\t20\t10\t20\t80.0\tา",  # 2 px after: 0.1 of the height
        "5\t1\t1\t1\t1\t3\t39\t20\t15\t20\t90.0\tร",
        "5\t1\t1\t1\t1\t4\t62\t20\t15\t20\t90.0\tค",  # 8 px after: 0.4, a space
        "5\t1\t1\t1\t1\t5\t79\t20\t30\t20\t90.0\tKia"])
    thai = re.compile(r"[\u0e00-\u0e7f]")
    line, = lines_of(tsv, thai)
    assert line.text == "ตาร ค Kia" and round(line.confidence, 2) == 0.88
    assert [(word, corners[0][0], corners[1][0]) for word, corners in line.words] == [
        ("ตาร", 10, 54), ("ค", 62, 77), ("Kia", 79, 109)]
    assert lines_of(tsv)[0].text == "ต า ร ค Kia"  # a script Tesseract spaces rightly is left as read


def _answering(monkeypatch, script: str, *words: str) -> list[tuple[str, ...]]:
    """Tesseract answering that the page is in ``script`` and reading ``words``, one line, surely; the calls
    made, as their arguments."""
    rows = ["level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"]
    rows += [f"5\t1\t1\t1\t1\t{n}\t{60 * n}\t20\t50\t20\t95.0\t{word}" for n, word in enumerate(words, start=1)]
    answer = {True: f"Script: {script}\n", False: "\n".join(rows)}  # --psm 0 asks for the script
    calls: list[tuple[str, ...]] = []
    monkeypatch.setattr(tesseract, "_run", lambda _image, *args: calls.append(args) or answer["0" in args])
    monkeypatch.setattr(tesseract, "installed",
                        lambda: frozenset({"eng", "osd", "rus", "ukr", "fas", "kor", "tha", "vie", "ell"}))
    return calls


@pytest.mark.parametrize(("script", "words", "kept"), [
    ("Korean", ("[브라질]", "Brazil", "Cerrado", "Natural"), True),  # a syllable a letter: 3 of 23 letters
    ("Cyrillic", ("Крупа", "Brazil", "Cerrado", "Natural"), False),  # 5 of 25: Latin read as look-alikes
    ("Cyrillic", ("Крупа", "гречневая", "ядрица", "Brazil"), True)])  # 8 letters no Latin one looks like, 6 Latin
def test_a_reading_is_kept_when_enough_of_its_letters_are_the_script_s(monkeypatch, packs_asked_again, script,
                                                                        words, kept):
    _answering(monkeypatch, script, *words)
    assert (tesseract.read_other_script(np.zeros((40, 300, 3), dtype=np.uint8)) is not None) == kept


def test_a_russian_scan_the_script_detection_calls_latin_is_read_in_cyrillic_on_a_second_witness(monkeypatch):
    """The detection called 8 of 27 pages of Cyrillic price lists scanned as twins Latin, Fraktur or Arabic: a
    strip of PP-OCR's longest lines, read as Cyrillic, says otherwise."""
    monkeypatch.setattr(tesseract, "script_of", lambda _image: None)
    page = parse_page(open_document(_russian_scan()), 0, "f" * 64, ImageCache()).page
    text = "\n".join(block.text for block in page.text_blocks)
    assert "гречневая" in text and "кусковой" in text and "125,50" in text


@pytest.mark.parametrize(("words", "witnessed"), [
    (("руб", "Крупа", "руб", "SKU"), True),
    (("о", "З", "та", "Е", "Ф", "ке)"), False),  # Latin capitals and specks read as Cyrillic letters, not words
    (("Ultra", "Yogun", "Сатаяг", "Temizlik", "Огопіегі", "Makine", "рік"), False)])  # a Turkish page: 3 of 7
def test_the_second_witness_counts_words_in_the_script_not_letters(monkeypatch, packs_asked_again, words, witnessed):
    _answering(monkeypatch, "Latin", *words)
    image = np.full((40, 400, 3), 255, dtype=np.uint8)
    first = [_line(("Kpyna", 0), ("rpeчневая", 50))]
    assert (tesseract.read_other_script(image, first) is not None) == witnessed


@pytest.mark.parametrize(("words", "korean"), [
    (("도매가", "Premium", "부가세", "은행", "Brazil"), True),  # 3 Hangul words of 5: a Korean price list
    (("바", "Natural", "태", "Brazil", "Cerrado"), False)])  # lone syllables on a Latin page: not words
def test_a_page_the_detection_names_in_no_script_is_heard_in_korean_by_its_words(monkeypatch, packs_asked_again,
                                                                                  words, korean):
    """The detection named no script on two Korean price lists' scanned twins: the strip read in Korean says
    otherwise, counting words of two syllables or more (Latin and Russian pages read as Korean gave lone
    syllables)."""
    _answering(monkeypatch, "Latin", *words)
    image = np.full((40, 400, 3), 255, dtype=np.uint8)
    reading = tesseract.read_other_script(image, [_line(("互互丕", 0), ("Brazil", 50))])  # Hangul as PP-OCR reads it
    assert (reading is not None and reading.from_ppocr is tesseract.LATIN_WORDS) == korean


@pytest.mark.parametrize(("first", "asked"), [
    ("Premium Brazil Cerrado", {"rus+ukr+eng", "vie"}),  # a Latin reading: neither Korean nor Greek to ask about
    ("互互丕 Brazil Cerrado", {"rus+ukr+eng", "kor+eng", "vie"}),  # Chinese characters: Hangul as PP-OCR reads it
    ("Meλιτζανoσαλατα Charred", {"rus+ukr+eng", "vie", "ell+eng"})])  # Greek letters among Latin look-alikes
def test_a_witness_is_asked_only_about_a_reading_that_shows_its_script_as_pp_ocr_reads_it(monkeypatch,
                                                                                        packs_asked_again, first,
                                                                                        asked):
    calls = _answering(monkeypatch, "Latin", "Premium", "Brazil", "Cerrado", "Natural")
    image = np.full((40, 400, 3), 255, dtype=np.uint8)
    assert tesseract.read_other_script(image, [_line(*((w, 50 * n) for n, w in enumerate(first.split())))]) is None
    assert {args[1] for args in calls if args[0] == "-l"} == asked


VIETNAMESE_MENU = ["Trà Sữa Olong Đặc Biệt        18k", "Sữa Tươi Trân Châu Đường Đen        25k",
                   "Trà Đào Cam Sả        20k", "Bò nướng muối ớt        105k", "Cơm chiên dương châu        45k"]


def _vietnamese_photo() -> bytes:
    """A Vietnamese menu board printed on a pale blue ground, photographed at 150 dpi."""
    return _scan_of(VIETNAMESE_MENU, 14, ground=(0.72, 0.8, 0.93))


def test_a_vietnamese_menu_is_read_with_its_marks_and_its_prices_in_thousands():
    """PP-OCR's Latin model drops Vietnamese marks ('Trà Sa Olong Đc Bit' for 'Trà Sữa Olong Đặc Biệt'), so no
    name matches the menu; Tesseract's Vietnamese pack reads them, and PP-OCR's prices ('18k') stand."""
    page = parse_page(open_document(_vietnamese_photo()), 0, "f" * 64, ImageCache()).page
    text = "\n".join(block.text for block in page.text_blocks)
    assert "Sữa Tươi Trân Châu Đường Đen" in text and "Bò nướng muối ớt" in text
    assert "105k" in text and "18k" in text


@pytest.mark.parametrize(("words", "vietnamese"), [
    (("Trà", "Sữa", "Đặc", "Biệt", "Topping", "Olong"), True),  # 3 of 6 words carry a mark only Vietnamese uses
    (("Crème", "brûlée", "à", "la", "française", "Châteaux"), False),  # French marks: none of them
    (("Ultra", "Yoğun", "Çamaşır", "Temizlik", "ạ", "Makine"), False)])  # a lone letter is no word
def test_a_latin_page_is_heard_in_vietnamese_by_its_marked_words(monkeypatch, packs_asked_again, words, vietnamese):
    _answering(monkeypatch, "Latin", *words)
    image = np.full((40, 400, 3), 255, dtype=np.uint8)
    reading = tesseract.read_other_script(image, [_line(("Tra Sa", 0), ("Olong Đc Bit", 50))])
    assert (reading is not None and reading.from_ppocr is tesseract.DONG_FIGURES) == vietnamese


def _read_at(top: int, *words: tuple[str, float]) -> Line:
    """Tesseract's line of a strip: its words 40 px wide and 20 high, ``top`` down the strip."""
    placed = tuple((word, [[x, top], [x + 40, top], [x + 40, top + 20], [x, top + 20]]) for word, x in words)
    return Line(placed[0][1], " ".join(word for word, _ in words), 0.9, placed)


def test_a_strip_s_words_are_put_back_in_the_lines_they_were_cut_from():
    image = np.full((200, 400, 3), 255, dtype=np.uint8)
    upper = _line(("Trà", 100), ("Sữa", 150))  # y 10-30 on the page
    lower = Line([[20, 110], [60, 110], [60, 130], [20, 130]], "Bo", 0.9)
    strip = tesseract.stacked(image, [upper, lower])
    gap = tesseract.WITNESS_GAP
    second_row = 21 + 2 * gap  # the upper line's crop is 21 px high
    read = [_read_at(gap, ("Sữa", gap + 50), ("Trà", gap)), _read_at(second_row + gap, ("Bò", gap))]
    first, second = tesseract.on_page(strip, read)
    assert first.corners == upper.corners and first.text == "Trà Sữa"  # in reading order, where PP-OCR put it
    assert [corners[0] for _, corners in first.words] == [[100, 10], [150, 10]]
    assert second.text == "Bò" and second.words[0][1][0] == [20, 110]


def test_the_strip_fills_around_each_line_with_the_ground_it_is_printed_on():
    """White between lines printed on a tinted board made Tesseract's threshold take the tint for ink."""
    image = np.full((100, 400, 3), (180, 200, 235), dtype=np.uint8)
    strip = tesseract.strip_of(image, [_line(("Trà", 0), ("Sữa", 50))])
    assert (strip[0, 0] == (180, 200, 235)).all() and (strip[-1, -1] == (180, 200, 235)).all()


def test_the_strip_stacks_the_longest_lines_not_read_as_figures():
    image = np.zeros((100, 400, 3), dtype=np.uint8)
    words, figures, short = _line(("Kpyna", 0), ("rpeчневая", 50)), _line(("12", 0), ("98,00", 50)), _line(("Caxap", 0))
    strip = tesseract.strip_of(image, [short, words, figures])
    gap = tesseract.WITNESS_GAP
    assert strip.shape == (21 + 2 * gap, 91 + 2 * gap, 3)  # only the line of words: 91 px, 4.5 heights long
    assert tesseract.strip_of(image, [figures, short]) is None


def test_a_latin_scan_keeps_the_reading_of_the_default_models():
    page = parse_page(open_document(scanned()), 0, "f" * 64, ImageCache()).page
    text = "".join(block.text for block in page.text_blocks)
    assert "SF-0012" in text and not any("\u0400" <= ch <= "\u04ff" for ch in text)


@pytest.mark.parametrize("script", ["Arabic", "Korean", "Thai"])
def test_a_latin_scan_the_script_detection_misnames_keeps_its_latin_reading(monkeypatch, script):
    """The detection called Italian and Turkish menus Arabic: whatever script it names, a Latin page's
    reading in that script fails the share check (each is read with English beside it) and is dropped."""
    monkeypatch.setattr(tesseract, "script_of", lambda _image: script)
    page = parse_page(open_document(scanned()), 0, "f" * 64, ImageCache()).page
    text = "".join(block.text for block in page.text_blocks)
    assert "SF-0012" in text and not re.search(r"[\u0600-\u06ff\uac00-\ud7af\u0e00-\u0e7f]", text)


def test_a_latin_table_read_as_cyrillic_look_alikes_is_not_kept_and_a_russian_one_is():
    """A chip maker's blue part numbers came out of the Cyrillic reading as 'СН557Q', 'снёёвт': two thirds of the
    letters Cyrillic, nearly all of them letters a Latin capital looks like."""
    cyrillic = tesseract.LANGUAGES["Cyrillic"]
    latin_read_so = list("СН557QСН555LснёёвтРartNОFrеqМНzКВLQFРТуреСАDСТоuсhКеуLЕD")
    assert sum(1 for ch in latin_read_so if cyrillic.letter.match(ch)) >= cyrillic.share * len(latin_read_so)
    assert not tesseract._written_in(latin_read_so, cyrillic)
    assert tesseract._written_in(list("КрупагречневаяMaggiРисдлиннозерныйFairy"), cyrillic)


def test_tesseract_failing_leaves_the_first_reading(monkeypatch):
    def too_slow(*_args, **_kwargs):
        raise subprocess.TimeoutExpired("tesseract", tesseract.TIMEOUT)

    monkeypatch.setattr(tesseract.subprocess, "run", too_slow)
    page = parse_page(open_document(_russian_scan()), 0, "f" * 64, ImageCache()).page
    text = "".join(block.text for block in page.text_blocks)
    assert page.parser_backend == "ocr" and "125,50" in text  # PP-OCR's numbers, not nothing


def _line(*words: tuple[str, float]) -> Line:
    """A line of words, each 40 px wide starting at the given x, on one row."""
    placed = tuple((word, [[x, 10], [x + 40, 10], [x + 40, 30], [x, 30]]) for word, x in words)
    left, right = words[0][1], words[-1][1] + 40
    return Line([[left, 10], [right, 10], [right, 30], [left, 30]], " ".join(w for w, _ in words), 0.9, placed)


def test_tesseract_keeps_its_letters_and_takes_the_figures_pp_ocr_read():
    tesseract_reading = [_line(("Крупа", 0), ("б7О", 50), ("12", 100))]
    ppocr_reading = [_line(("Kpyna", 0), ("670", 50), ("12", 100), ("98,00", 300))]
    merged = with_figures_of(tesseract_reading, ppocr_reading)
    assert [line.text for line in merged] == ["Крупа 670 12", "98,00"]  # a figure Tesseract missed is added


def test_on_a_korean_page_pp_ocr_s_latin_words_stand_too_where_tesseract_missed_them():
    """PP-OCR reads Hangul as Chinese look-alikes, never as Latin ones: on a Korean page its codes are
    codes. On a Cyrillic page a Latin word of PP-OCR's is a look-alike and only its figures count."""
    tesseract_reading = [_line(("보행보조기", 0), ("72", 50))]
    ppocr_reading = [_line(("互互丕", 0), ("72", 50), ("HM-1FW-00", 300))]
    korean = with_figures_of(tesseract_reading, ppocr_reading, tesseract.LANGUAGES["Korean"].from_ppocr)
    assert [line.text for line in korean] == ["보행보조기 72", "HM-1FW-00"]
    cyrillic = with_figures_of(tesseract_reading, ppocr_reading, tesseract.LANGUAGES["Cyrillic"].from_ppocr)
    assert [line.text for line in cyrillic] == ["보행보조기 72"]


def test_on_a_vietnamese_page_pp_ocr_s_prices_in_dong_stand_for_tesseract_s():
    tesseract_reading = [_line(("Ốc", 0), ("80.OOOđ/", 50), ("Dĩa", 100))]
    ppocr_reading = [_line(("Oc", 0), ("80.000đ/", 50), ("Dia", 100), ("18k", 300))]
    vietnamese = with_figures_of(tesseract_reading, ppocr_reading, tesseract.LANGUAGES["Vietnamese"].from_ppocr)
    assert [line.text for line in vietnamese] == ["Ốc 80.000đ/ Dĩa", "18k"]


def test_a_tesseract_word_over_two_pp_ocr_figures_is_left_as_it_read():
    wide = Line([[0, 10], [100, 10], [100, 30], [0, 30]], "125,50", 0.9,
                (("125,50", [[0, 10], [100, 10], [100, 30], [0, 30]]),))
    merged = with_figures_of([wide], [_line(("125", 0), ("50", 50))])
    assert [line.text for line in merged] == ["125,50"]


GREEK_MENU = ["Μελιτζανοσαλάτα | Charred eggplant spread        5,50",
              "Κολοκυθάκια τηγανιτά | Fried zucchini        4,50",
              "Πατάτες τηγανιτές | French fries        3,50",
              "Κοντοσούβλι | Spit roasted pork        9,00"]


def test_a_greek_menu_is_read_in_greek_beside_its_english():
    """PP-OCR reads Greek as Latin look-alikes; Tesseract's Greek pack reads the names, English and prices kept
    (a taverna menu, each dish in Greek and English, scanned at 150 dpi)."""
    page = parse_page(open_document(_scan_of(GREEK_MENU, 13)), 0, "f" * 64, ImageCache()).page
    text = "\n".join(block.text for block in page.text_blocks)
    assert "Μελιτζανοσαλάτα" in text and "Κολοκυθάκια" in text and "Fried zucchini" in text
    assert "4,50" in text


@pytest.mark.parametrize(("words", "greek"), [
    (("Μελιτζανοσαλάτα", "Charred", "eggplant", "Κοντοσούβλι", "Spit", "Τζατζίκι"), True),  # half the words Greek
    (("Charred", "eggplant", "spread", "French", "fries", "ζ"), False)])  # a lone letter is no word
def test_a_latin_page_is_heard_in_greek_by_its_greek_words(monkeypatch, packs_asked_again, words, greek):
    _answering(monkeypatch, "Latin", *words)
    monkeypatch.setattr(tesseract, "installed", lambda: frozenset({"eng", "osd", "ell"}))
    image = np.full((40, 400, 3), 255, dtype=np.uint8)
    reading = tesseract.read_other_script(image, [_line(("Meλιτζανoσαλατα", 0), ("Charred", 50))])
    assert (reading is not None) == greek


def test_a_greek_page_is_heard_in_greek_before_the_vietnamese_witness_is_asked(monkeypatch, packs_asked_again):
    """Read with the Vietnamese pack, a Greek menu's strip came out in marked Latin letters: the Greek witness,
    asked first, claims the page."""
    calls = _answering(monkeypatch, "Latin", "Μελιτζανοσαλάτα", "Κοντοσούβλι", "Τζατζίκι", "Trà", "Sữa", "Đặc", "Biệt")
    image = np.full((40, 400, 3), 255, dtype=np.uint8)
    reading = tesseract.read_other_script(image, [_line(("Meλιτζανoσαλατα", 0), ("Tra Sa Đc", 50))])
    assert reading is not None and reading.from_ppocr is tesseract.FIGURES  # Greek's, not Vietnamese's in dong
    assert "vie" not in {args[1] for args in calls if args[0] == "-l"}

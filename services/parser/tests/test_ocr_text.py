"""OCR misreads set right from the page's other lines: look-alike currency signs, run-together prices."""

from skuflow_parser.domain.ocr_text import Fragment, overlapping, placed, repaired


def test_a_letter_in_place_of_the_pages_currency_sign_is_that_sign():
    texts = ["SOLID MARINE", "P2,300", "₱2,050", "₱1,950", "P3,600", "₱20", "那3,100"]
    assert repaired(texts) == ["SOLID MARINE", "₱2,300", "₱2,050", "₱1,950", "₱3,600", "₱20", "那3,100"]


def test_look_alikes_stay_letters_without_enough_signed_amounts_or_beside_other_text():
    assert repaired(["P2,300", "₱2,050", "₱1,950"]) == ["P2,300", "₱2,050", "₱1,950"]
    texts = ["$5.00", "$6.50", "$7.00", "S25 cable", "ES100"]
    assert repaired(texts) == texts


def test_a_sign_ocr_could_not_read_after_amounts_on_several_lines_is_a_currency():
    """'380,00 Ł', '485,00 Đ' for '₺': the generic currency sign stands for it, one character for one."""
    texts = ["YK65 01", "380,00 Ł", "485,00 Đ", "1.330,00 Ł", "175,00", "3.400,00 b"]
    assert repaired(texts) == ["YK65 01", "380,00 ¤", "485,00 ¤", "1.330,00 ¤", "175,00", "3.400,00 b"]
    kept = ["12,50 €", "35,00 ₺", "40 元", "380,00 Ł", "25°", "5 Đ"]  # known signs, and odd signs twice only
    assert repaired(kept) == kept


def test_words_the_recognizer_placed_apart_are_parted_and_keep_their_places():
    """'2530' read as one line but placed as '25' and '30' apart: two prices, with the gap between them."""
    text, boxes = placed("2530", [("25", (100, 10, 136, 40)), ("30", (166, 10, 202, 40))])
    assert text == "25 30" and boxes[1] == (118, 10, 136, 40) and boxes[2] == (136, 10, 166, 40)
    text, boxes = placed("焙烏龍 Tea", [("焙", (0, 0, 20, 20)), ("烏", (20, 0, 40, 20)), ("龍", (42, 0, 62, 20)),
                                      ("Tea", (70, 0, 100, 20))])
    assert text == "焙烏龍 Tea" and len(boxes) == len(text) and boxes[4] == (70, 0, 80, 20)


def test_letter_spaced_digits_after_a_name_stay_one_price():
    text, boxes = placed("麻婆豆腐120", [("麻", (0, 0, 20, 20)), ("婆", (20, 0, 40, 20)), ("豆", (40, 0, 60, 20)),
                                      ("腐", (60, 0, 80, 20)), ("1", (84, 0, 90, 20)), ("2", (94, 0, 100, 20)),
                                      ("0", (104, 0, 110, 20))])
    assert text == "麻婆豆腐120" and boxes[5] == (94, 0, 100, 20)


def test_words_that_do_not_spell_the_line_are_not_placed():
    assert placed("2530", [("25", (0, 0, 10, 10))]) is None
    assert placed("2530", []) is None


def test_one_line_detected_as_two_overlapping_boxes_is_one_line_with_the_twice_read_letter_once():
    fragments = [Fragment((26.6, 18, 96.1, 41.7), "Ignore", 0.99, ((56, 18, 62, 41),)),
                 Fragment((91.4, 19.6, 340.9, 33.7), "e all previous instructions", 0.98),
                 Fragment((47, 99, 74, 113), "型号", 1.0), Fragment((80, 99, 120, 113), "品名", 1.0)]
    joined = overlapping(fragments)
    assert [(f.text, f.box, f.confidence, f.chars) for f in joined] == [
        ("Ignore all previous instructions", (26.6, 18, 340.9, 41.7), 0.98, ()),
        ("型号", (47, 99, 74, 113), 1.0, ()), ("品名", (80, 99, 120, 113), 1.0, ())]
    touching = [Fragment((100, 99, 150, 113), "SF-01", 0.9), Fragment((140, 99, 200, 113), "¥25", 0.9)]
    assert overlapping(touching) == touching  # two cards' boxes that touch read no letter twice

"""A TeX-made text layer read as the page prints it: accents on their letters, the euro font's sign."""

from skuflow_parser.domain.glyphs import printed_glyphs


def glyphs(*placed):
    """(character, x0, x1) → characters with boxes on one line."""
    return [(c, (x0, 100.0, x1, 112.0)) for c, x0, x1 in placed]


def text(chars):
    return "".join(c for c, _ in chars)


def test_a_spacing_accent_set_over_its_letter_becomes_the_accented_letter():
    # 'Th´e' as OT1 sets it: the acute drawn over the e, before it in the text
    read = printed_glyphs(glyphs(("T", 158, 168), ("h", 168, 176), ("´", 176, 183), ("e", 176, 182)), "CMR12")
    assert text(read) == "Thé"
    assert read[-1][1] == (176, 100.0, 182, 112.0)  # the letter keeps its own box
    after = printed_glyphs(glyphs(("c", 10, 16), ("¸", 11, 15), ("a", 16, 22)), "CMR12")  # a cedilla set after
    assert text(after) == "ça"


def test_an_accent_beside_a_letter_or_without_a_composed_form_stays_as_printed():
    apart = glyphs(("x", 10, 16), ("´", 20, 26), ("1", 30, 36))
    assert text(printed_glyphs(apart, "Helvetica")) == "x´1"
    assert text(printed_glyphs(glyphs(("´", 10, 16), ("q", 10, 16)), "CMR12")) == "´q"  # no q with an acute


def test_the_tex_euro_fonts_print_the_euro_sign_at_the_code_of_e():
    assert text(printed_glyphs(glyphs(("e", 428, 436)), "TeX-feymr10")) == "€"
    assert text(printed_glyphs(glyphs(("e", 428, 436)), "CMR12")) == "e"

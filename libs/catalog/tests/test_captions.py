"""Product grids that name their products only under their pictures."""

from skuflow_catalog.captions import captioned


def grid(names, side=150.0, gap=40.0, cols=3, pack="Poche 150g"):
    pictures, lines = [], []
    for n, name in enumerate(names):
        x, y = 40 + (n % cols) * (side + 30), 100 + (n // cols) * (side + gap + 40)
        pictures.append((x, y, x + side, y + side))
        lines += [((x, y + side + 2, x + 60, y + side + 20), name), ((x, y + side + 24, x + 100, y + side + 40), pack)]
    return pictures, lines


def test_like_sized_pictures_each_with_a_short_line_below_are_named_by_it_in_reading_order():
    pictures, lines = grid(["Ananas", "Mangue", "Mojito", "Noix de coco"])
    assert [lines[c][1] for _, c in captioned(pictures, lines)] == ["Ananas", "Mangue", "Mojito", "Noix de coco"]


def test_a_brochures_captioned_photos_of_unequal_heights_are_a_product_grid():
    pictures, lines = grid(["LCS-CF2 粉料双斗", "LCS-CF 粉料无斗", "LCS-CF1 粉料有斗"])
    pictures[1] = (pictures[1][0], pictures[1][1] - 55, pictures[1][2], pictures[1][3])  # a third taller
    assert len(captioned(pictures, lines)) == 3


def test_one_or_two_captioned_figures_are_no_product_grid():
    pictures, lines = grid(["Our factory", "Our team"])
    assert captioned(pictures, lines) == []


def test_pictures_of_different_sizes_or_with_prose_under_them_are_no_grid():
    pictures, lines = grid(["Ananas", "Mangue", "Mojito"])
    pictures[1] = (pictures[1][0], pictures[1][1] + 75, pictures[1][2], pictures[1][3])  # half as tall
    assert captioned(pictures, lines) == []
    pictures, lines = grid(["Our sweets are made by hand in the Vosges since 1950 with love"] * 3,
                           pack="and the best sugar of the whole region, every day")
    assert captioned(pictures, lines) == []


def test_a_heading_under_a_whole_row_of_pictures_is_no_caption():
    pictures, _ = grid(["a", "b", "c"])
    heading = [((40, 252, 520, 270), "Bonbons durs")]
    assert captioned(pictures, heading) == []


def test_thumbnails_with_captions_are_no_product_grid():
    pictures, lines = grid(["Red", "Blue", "Green"], side=30.0)  # colour swatches with their names
    assert captioned(pictures, lines) == []

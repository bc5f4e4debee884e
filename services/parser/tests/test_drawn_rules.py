"""Rules a page draws: the row borders and cell edges the extractor splits tables at."""

from skuflow_parser.domain.drawn_rules import column_rules, horizontal_rules


def test_a_shading_boxs_edge_inside_a_box_of_the_same_colour_is_no_rule():
    """Word shades each line of a cell's text again in the cell's colour: only the cell's edges show."""
    grey, red = (0.46, 0.44, 0.44), (0.75, 0.0, 0.0)

    def box(fill, x0, y0, x1, y1, kind="f"):
        return {"type": kind, "fill": fill, "items": [("re", (x0, y0, x1, y1))]}

    drawings = [box(grey, 118, 74, 397, 97), box(grey, 121, 74, 394, 85.2), box(grey, 121, 86, 394, 97),
                box(red, 118, 97, 397, 108)]
    assert sorted({y for _, y, _, _ in horizontal_rules(drawings)}) == [74, 97, 108]
    outlined = [box(grey, 118, 74, 397, 97), box(grey, 121, 74, 394, 85.2, kind="fs")]
    assert 85.2 in {y for _, y, _, _ in horizontal_rules(outlined)}  # a drawn outline shows


def test_cell_borders_between_columns_are_column_rules():
    """Thin lines and thin boxes at least a short cell tall, and the sides of stroked boxes; not a
    tick, not a horizontal rule, not the sides of a shading box."""
    drawings = [{"type": "f", "items": [("re", (999.4, 145.0, 1000.2, 167.0))]},  # a border drawn as a thin box
                {"type": "s", "items": [("l", (937.7, 167.8), (937.7, 408.9))]},  # … as a line
                {"type": "s", "items": [("l", (500.0, 10.0), (500.0, 13.0))]},  # a tick
                {"type": "s", "items": [("l", (100.0, 50.0), (300.0, 50.0))]},  # a horizontal rule
                {"type": "fs", "items": [("re", (40.0, 60.0, 90.0, 80.0))]},  # a stroked cell
                {"type": "f", "items": [("re", (40.0, 90.0, 190.0, 110.0))]}]  # a shaded row
    assert column_rules(drawings) == [(40.0, 60.0, 40.0, 80.0), (90.0, 60.0, 90.0, 80.0),
                                      (937.7, 167.8, 937.7, 408.9), (999.8, 145.0, 999.8, 167.0)]

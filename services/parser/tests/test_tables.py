"""Table structure from pdfplumber's table finder fed with MuPDF's glyphs, asked only about pages that look tabular."""

import io

import pdfplumber
import pytest
from pdf_samples import born_digital, price_table
from pdfplumber.table import TableFinder

from skuflow_contracts.ir import ParsedPage
from skuflow_parser.backends.pdfplumber_backend import TEXT_ALIGNED, GlyphPage, cell_texts
from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.domain.tables import (
    column_rules,
    continues_overleaf,
    horizontal_rules,
    looks_tabular,
    reading_rotation,
)
from skuflow_parser.pages import parse_page
from skuflow_parser.pipeline import parse_and_store
from skuflow_platform.storage import LocalStorage

HASH = "ffff0000" * 8


def parse_with_tables(data: bytes):
    return parse_page(open_document(data), 0, HASH, ImageCache()).page


def test_a_price_table_comes_out_with_rows_cells_and_its_header():
    page = parse_with_tables(price_table().tobytes())
    [table] = page.tables
    assert table.header_rows == 1 and table.rows[0] == ["Model", "Name", "Size", "Price"]
    assert table.rows[1] == ["AB-100", "Steel mug 0", "300ml", "$4.50"] and len(table.rows) == 7
    assert {cell.text for cell in table.cells} >= {"AB-105", "$9.50"}
    assert not table.is_cross_page and page.features["table_count"] == 1.0


def test_a_table_running_to_the_bottom_of_the_page_may_continue_overleaf():
    page = parse_with_tables(price_table(rows=12, top=520).tobytes())
    assert page.tables and page.tables[0].is_cross_page
    assert continues_overleaf(800, 842) and not continues_overleaf(600, 842)


def test_pages_without_tabular_lines_never_reach_the_table_finder():
    page = parse_with_tables(born_digital().tobytes())
    assert page.tables == [] and page.features["table_count"] == 0.0
    assert not looks_tabular([(0, 0, 10, 10)])


@pytest.mark.parametrize("sample", [price_table, lambda: price_table(rows=12, top=520),
                                    lambda: price_table(chinese=True)])
def test_glyphs_from_mupdf_give_the_rows_and_cells_pdfplumber_reads_from_the_pdf_itself(sample):
    data = sample().tobytes()
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        [expected] = pdf.pages[0].find_tables(TEXT_ALIGNED)
        expected_cells, expected_rows = expected.cells, expected.extract()
    page = parse_with_tables(data)
    glyphs = GlyphPage(page.text_blocks, page.height)
    [table] = TableFinder(glyphs, TEXT_ALIGNED).tables
    assert table.extract() == expected_rows
    assert cell_texts(table, glyphs.chars) == expected_rows
    assert len(table.cells) == len(expected_cells)
    # base-14 fonts have no descriptor: pdfminer takes their descent from its AFM files, MuPDF from the
    # font it substitutes, so boxes may sit up to a point apart; embedded fonts agree to 0.01 pt
    assert all(a == pytest.approx(b, abs=1.1) for a, b in zip(table.cells, expected_cells, strict=True))


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def assert_cells_sit_on_their_lines(page: ParsedPage) -> None:
    """Each cell's box overlaps the box of the text line that holds its text (the same frame)."""
    lines = [line for block in page.text_blocks for line in block.lines]
    for cell in page.tables[0].cells:
        holders = [line for line in lines if cell.text in line.text]
        assert any(overlaps(cell.bbox, line.bbox) for line in holders), cell


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_table_on_a_rotated_page_reading_upright_comes_out_in_the_displayed_frame(rotation):
    upright = parse_with_tables(price_table().tobytes()).tables[0]
    page = parse_with_tables(price_table(rotation=rotation).tobytes())
    assert page.rotation == rotation and reading_rotation(page.text_blocks[0].lines) == 0
    [table] = page.tables
    assert table.rows == upright.rows and table.header_rows == 1
    assert table.bbox == pytest.approx(upright.bbox, abs=1)  # the same displayed layout on a turned page
    assert_cells_sit_on_their_lines(page)


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_table_turned_sideways_by_the_page_rotation_is_read_along_its_text(rotation):
    doc = price_table()
    doc[0].set_rotation(rotation)
    page = parse_with_tables(doc.tobytes())
    assert reading_rotation(page.text_blocks[0].lines) == rotation
    [table] = page.tables
    assert table.rows[0] == ["Model", "Name", "Size", "Price"] and table.rows[1][0] == "AB-100"
    assert_cells_sit_on_their_lines(page)
    if rotation == 90:  # rows run right to left across the landscape page, columns top to bottom
        model, price = (next(c for c in table.cells if c.text == text) for text in ("Model", "Price"))
        assert model.bbox[1] < price.bbox[1] and model.bbox[0] > table.cells[-1].bbox[0]


def test_the_whole_document_path_reads_tables_too(tmp_path):
    [stored] = parse_and_store(price_table().tobytes(), job_id="j", file_hash=HASH, storage=LocalStorage(tmp_path))
    assert stored.page.tables[0].header_rows == 1


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

"""Table structure from pdfplumber, asked only about pages that look tabular."""

from pdf_samples import born_digital, price_table

from skuflow_contracts.ir import TextLine
from skuflow_parser.backends.pdfplumber_backend import TableReader
from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.domain.tables import continues_overleaf, looks_tabular
from skuflow_parser.pages import parse_page
from skuflow_parser.pipeline import parse_and_store
from skuflow_platform.storage import LocalStorage

HASH = "ffff0000" * 8


def parse_with_tables(data: bytes):
    reader = TableReader(data)
    try:
        return parse_page(open_document(data), 0, HASH, ImageCache(), None, reader).page
    finally:
        reader.close()


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


def test_pages_without_tabular_lines_never_reach_pdfplumber():
    page = parse_with_tables(born_digital().tobytes())
    assert page.tables == [] and page.features["table_count"] == 0.0
    line = TextLine(bbox=(0, 0, 10, 10), text="x")
    assert not looks_tabular([line])


def test_the_whole_document_path_reads_tables_too(tmp_path):
    [stored] = parse_and_store(price_table().tobytes(), job_id="j", file_hash=HASH, storage=LocalStorage(tmp_path))
    assert stored.page.tables[0].header_rows == 1

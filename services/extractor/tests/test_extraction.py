"""SKU extraction rules: table rows, labelled blocks, fallback, validity and stable ids."""

from skuflow_contracts.ir import ParsedPage, TextBlock, TextLine
from skuflow_contracts.results import PageClassification
from skuflow_contracts.vocabulary import attribute_for_label, labelled_value, parse_price
from skuflow_extractor.domain.extraction import extract_page

HASH = "feedbeef" + "0" * 56


def line(box, text):
    return TextLine(bbox=box, text=text)


def page(*blocks):
    return ParsedPage(page=3, width=595, height=842, parser_backend="pymupdf", text_blocks=list(blocks))


def classification(page_type, roles=None):
    return PageClassification(page_type=page_type, page_type_confidence=0.9, layout="L1",
                              block_roles=roles or {})


def table_block(i, y, cells, xs=(50, 140, 290, 480)):
    lines = [line((x, y, x + 60, y + 12), cell) for x, cell in zip(xs, cells, strict=True)]
    return TextBlock(block_id=i, bbox=(50, y, 540, y + 12), text="\n".join(cells), lines=lines, font_size=10)


def test_a_table_row_becomes_one_sku_with_columns_mapped_from_the_header():
    blocks = [table_block(0, 100, ["型号", "品名", "规格", "价格"]),
              table_block(1, 126, ["SF-0002", "玻璃杯", "300ml", "¥8.00"]),
              table_block(2, 152, ["SF-0001", "保温杯", "500ml", "¥1,299"])]
    result = extract_page(page(*blocks), classification("A"), HASH)
    assert result.method == "table_rule"
    assert [s.sku_id for s in result.skus] == ["feedbeef_p03_001", "feedbeef_p03_002"]
    first = result.skus[0].attributes
    assert (first.model, first.product_name, first.size, first.price) == ("SF-0002", "玻璃杯", "300ml", "8.00")
    assert result.skus[1].attributes.price == "1299"
    assert all(s.validity == "valid" for s in result.skus)


def test_english_headers_map_to_the_same_attributes():
    blocks = [table_block(0, 100, ["Item No.", "Description", "Size", "Unit Price"]),
              table_block(1, 126, ["AB-120", "Steel mug", "12oz", "$4.50"])]
    [sku] = extract_page(page(*blocks), classification("A"), HASH).skus
    assert (sku.attributes.model, sku.attributes.product_name, sku.attributes.price) == ("AB-120", "Steel mug", "4.50")


def labelled(i, x, y, *texts):
    lines = [line((x, y + 14 * n, x + 120, y + 14 * n + 12), t) for n, t in enumerate(texts)]
    return TextBlock(block_id=i, bbox=(x, y, x + 120, y + 14 * len(texts)), text="\n".join(texts),
                     lines=lines, font_size=10)


def test_product_blocks_are_split_into_skus_in_reading_order():
    blocks = [labelled(0, 300, 300, "品名：陶瓷杯", "型号：SF-0011", "价格：¥20"),
              labelled(1, 40, 300, "品名：玻璃杯", "型号：SF-0010", "颜色：透明"),
              labelled(2, 40, 640, "型号：SF-0012", "材质：竹纤维")]
    result = extract_page(page(*blocks), classification("C"), HASH)
    assert result.method == "two_stage"
    assert [s.attributes.model for s in result.skus] == ["SF-0010", "SF-0011", "SF-0012"]
    assert result.skus[0].attributes.color == "透明" and result.skus[1].attributes.price == "20"


def test_invalid_skus_are_kept_but_marked_per_inv_06():
    blocks = [labelled(0, 40, 300, "型号：SF-0099")]
    [sku] = extract_page(page(*blocks), classification("C"), HASH).skus
    assert sku.validity == "invalid" and sku.attributes.model == "SF-0099"


def test_header_and_footer_blocks_are_not_products():
    blocks = [labelled(0, 40, 10, "型号：SF-0001", "价格：¥1"), labelled(1, 40, 300, "型号：SF-0002", "价格：¥2")]
    roles = {0: "header", 1: "product_block"}
    result = extract_page(page(*blocks), classification("C", roles), HASH)
    assert [s.attributes.model for s in result.skus] == ["SF-0002"]


def test_cover_pages_yield_nothing_and_unstructured_pages_fall_back():
    assert extract_page(page(labelled(0, 40, 300, "型号：X-100")), classification("D"), HASH).skus == []
    prose = TextBlock(block_id=0, bbox=(40, 300, 500, 312), text="新品 ZX-300 仅售 ¥59 欢迎选购",
                      lines=[line((40, 300, 500, 312), "新品 ZX-300 仅售 ¥59 欢迎选购")], font_size=10)
    no_table = extract_page(page(prose), classification("A"), HASH)
    assert no_table.method == "two_stage"
    fallback = extract_page(page(prose), classification("B", {0: "header"}), HASH)
    assert fallback.method == "single_stage" and fallback.skus[0].attributes.price == "59"
    nothing = extract_page(page(), classification("B"), HASH)
    assert (nothing.method, nothing.skus) == ("final_fallback", [])


def test_vocabulary_reads_labels_and_prices():
    assert labelled_value("型号：A-100") == ("model", "A-100")
    assert labelled_value("Price: $12.50") == ("price", "$12.50")
    assert labelled_value("just text") is None
    assert attribute_for_label("Unit Price") == "price" and attribute_for_label("规格") == "size"
    assert [parse_price(t) for t in ("¥12.50", "RMB 8", "35元", "12.5", "free")] == ["12.50", "8", "35", "12.5", None]

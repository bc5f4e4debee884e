"""Page type and layout rules on hand-built IR pages."""

from skuflow_classifier.domain.classification import classify_page, image_role
from skuflow_contracts.ir import ImageRegion, ParsedPage, TextBlock, TextLine


def block(i, box, *lines, size=10.0):
    return TextBlock(block_id=i, bbox=box, text="\n".join(lines), font_size=size,
                     lines=[TextLine(bbox=box, text=t) for t in lines])


def image(i, box, px=700):
    return ImageRegion(image_id=f"img_{i}", bbox=box, width_px=px, height_px=px, content_hash=str(i))


def page(blocks=(), images=()):
    return ParsedPage(page=1, width=595, height=842, parser_backend="pymupdf",
                      text_blocks=list(blocks), images=list(images))


def grid_page():
    blocks, images = [], []
    for row in range(2):
        for col in range(2):
            x, y = 40 + col * 265, 90 + row * 355
            images.append(image(len(images), (x, y, x + 220, y + 200)))
            blocks.append(block(len(blocks), (x, y + 208, x + 220, y + 260),
                                f"品名：杯子{len(blocks)}", f"型号：SF-{len(blocks):04d}", "价格：¥12.50"))
    return page(blocks, images)


def test_a_grid_of_pictured_products_is_type_c_layout_l2():
    result = classify_page(grid_page())
    assert (result.page_type, result.layout, result.needs_review) == ("C", "L2", False)
    assert set(result.block_roles.values()) == {"product_block"}
    assert set(result.image_roles.values()) == {"PRODUCT_MAIN"}
    assert "product_images" in result.reason


def test_a_price_table_is_type_a():
    header = block(0, (50, 100, 520, 112), "型号", "品名", "规格", "价格")
    rows = [block(i, (50, 110 + 26 * i, 520, 122 + 26 * i), f"SF-{i:04d}", "玻璃杯", "300ml", "¥8.00")
            for i in range(1, 9)]
    result = classify_page(page([header, *rows]))
    assert result.page_type == "A" and result.layout == "L1"
    assert result.block_roles[0] == "table_header" and result.block_roles[1] == "table_row"


def test_a_cover_without_codes_or_prices_is_type_d_and_a_blank_page_too():
    cover = classify_page(page([block(0, (60, 280, 400, 310), "2026 春季产品目录", size=28)]))
    assert (cover.page_type, cover.layout) == ("D", None)
    blank = classify_page(page())
    assert blank.page_type == "D" and blank.page_type_confidence >= 0.7 and not blank.needs_review


def test_a_low_confidence_page_is_flagged_for_review_not_skipped():
    lone_price = classify_page(page([block(0, (60, 300, 300, 320), "特价 ¥99 起")]))
    assert lone_price.page_type_confidence < 0.7 and lone_price.needs_review


def test_small_images_in_the_margins_are_logos_and_elsewhere_decorations():
    p = page()
    assert image_role(image(1, (30, 20, 90, 40), px=60), p) == "LOGO"
    assert image_role(image(2, (300, 400, 320, 420), px=20), p) == "DECORATION"
    assert image_role(image(3, (40, 90, 260, 290)), p) == "PRODUCT_MAIN"

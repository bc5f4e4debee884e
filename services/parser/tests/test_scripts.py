"""OCR text in one Chinese script: Simplified forms the model answers on a Traditional page are set back."""

from skuflow_parser.domain.scripts import in_one_script, written_in_traditional

TRADITIONAL_PAGE = ["188營站採購價目表", "品項", "價格", "飛鸿白色内衣", "國均藍襪", "倍潔雅抽取式衛生纸", "綠的藥皂"]
SIMPLIFIED_PAGE = ["产品价格表", "型号", "价格", "飞鸿白色内衣", "抽取式卫生纸", "绿的药皂", "說明"]


def test_a_traditional_page_has_its_simplified_forms_set_back():
    assert written_in_traditional(TRADITIONAL_PAGE)
    converted = in_one_script(TRADITIONAL_PAGE)
    assert converted[3] == "飛鴻白色內衣" and converted[5] == "倍潔雅抽取式衛生紙"
    assert converted[6] == "綠的藥皂"  # Taiwan's forms ('皂', not '皁')


def test_a_simplified_page_and_a_page_without_chinese_are_left_as_read():
    assert in_one_script(SIMPLIFIED_PAGE) == SIMPLIFIED_PAGE  # one Traditional form ('說') among many Simplified
    assert in_one_script(["SG 5.0RT", "285 €"]) == ["SG 5.0RT", "285 €"]

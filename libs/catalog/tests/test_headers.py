"""Header words and labels in the languages catalogs are printed in."""

import re

import pytest
from skuflow_catalog import prices
from skuflow_catalog.headers import attribute_for_label, header_role, is_currency, is_price_list_title, labelled_value


@pytest.mark.parametrize("label, role", [
    # zh, en, bilingual
    ("型号", "model"), ("货号", "model"), ("订货号", "model"), ("型号/Model", "model"), ("Item No.", "model"),
    ("Part No.", "model"), ("Cat. No.", "model"), ("SKU", "model"), ("US Item No.", "model"),
    ("Customer P/N", "model"),  # not the 'N' (№) of an index column
    ("Grundpreis in €", "price"), ("Nettoprijs", "price"), ("Enhetspris", "price"),  # compounds ending in 'price'
    # es, pt, fr, de, it, ru, hu, pl, tr, ja, ko, vi
    ("Código", "model"), ("Referencia", "model"), ("Référence", "model"), ("Art.-Nr.", "model"),
    ("Artikel", "model"), ("Codice articolo", "model"), ("Артикул", "model"), ("Cikkszám", "model"),
    ("Nr katalogowy", "model"), ("Ürün Kodu", "model"), ("品番", "model"), ("품번", "model"), ("Mã sản phẩm", "model"),
    ("品名", "product_name"), ("Description", "product_name"), ("Descripción", "product_name"),
    ("Bezeichnung", "product_name"), ("Наименование", "product_name"), ("Megnevezés", "product_name"),
    ("药品名称", "product_name"), ("产品名称及规格", "product_name"),
    ("单价（元）", "price"), ("Unit Price (USD)", "price"), ("Precio c/IVA", "price"), ("Preço", "price"),
    ("Prix HT", "price"), ("Einzelpreis", "price"), ("Цена, руб.", "price"), ("Nettó ár", "price"),
    ("Cena netto", "price"), ("Birim Fiyat", "price"), ("単価", "price"), ("단가", "price"), ("Đơn giá", "price"),
    ("Compro", "price"), ("Vendita", "price"), ("We buy", "price"), ("Ankauf", "price"), ("Покупка", "price"),
    ("Rate / Qty", "price"), ("MRP (Rs.)", "price"), ("Rate (₹)", "price"),  # Indian lists: the rate, not the quantity
    ("售價", "price"), ("批發價", "price"), ("金额", "price"), ("Ціна, грн", "price"), ("上代", "price"),
    ("KDV Dahil", "price"), ("FOB Price", "price"),
    ("FİYATI", "price"), ("TAKIM FİYATI", "price"), ("FIYATI", "price"),  # Turkish capitals: dotless or dotted
    ("Birim Fiyatı", "price"), ("BİRİM FİYATI", "price"),  # a unit's price, not the unit ('Birim')
    ("нал.", "price"), ("б/нал", "price"), ("безнал.", "price"),  # Russian lists' cash and transfer prices
    ("TİP", "model"), ("Tip", "model"),  # Turkish 'type': a motor's or a valve's designation
    ("型号规格", "model"), ("Modellnév", "model"),
    ("Názov", "product_name"), ("Název", "product_name"), ("Cena s DPH", "price"),  # Slovak, Czech
    ("Malzeme Kodu", "model"), ("Material No.", "model"), ("Materialnummer", "model"),  # SAP's article number,
    ("Malzeme", "material"), ("Hortum Ölçüsü", "size"),  # not the material it is made of
    ("HARGA\n(Rp)", "price"), ("Nama Barang", "product_name"), ("Kode", "model"),  # Indonesian and Malay
    ("规格", "size"), ("Size/尺寸", "size"), ("颜色 / Colour", "color"), ("材质", "material"), ("图片", "picture"),
    # columns that are not the product's identity
    ("封装", "package"), ("Package", "package"), ("Qty", "quantity"), ("序号", "index"), ("EAN", "barcode"),
    ("Hersteller", "brand"), ("备注", "remark"), ("현황", "stock"), ("구분", "category"),
    ("Махсулот номи", "product_name"), ("Нархи", "price"), ("Ўлчовлари", "size"), ("Mahsulot nomi", "product_name"),
])
def test_header_words_name_their_role_in_many_languages(label, role):
    assert header_role(label).role == role


def test_a_bare_currency_heads_a_price_column_with_less_certainty():
    assert [(m.role, m.score) for m in map(header_role, ["USD", "€", "(元)", "Ft"])] == [("price", 0.6)] * 4


def test_a_whole_header_in_the_plural_names_what_its_singular_does_but_a_heading_ending_in_one_does_not():
    assert [header_role(h).role for h in ["VALORES", "Precios", "Códigos", "Colores"]] == [
        "price", "price", "model", "color"]
    assert header_role("Moon Guard Products") is None  # a section heading, not the product-name column


def test_a_fee_lists_headers_name_the_code_and_the_price():
    assert [header_role(h).role for h in ["碼別", "費用", "總費用", "收费"]] == ["model", "price", "price", "price"]


def test_a_cell_of_only_a_currency_is_told_from_one_with_an_amount_or_a_word():
    assert [is_currency(t) for t in ["€", "RMB", "(元)", "R$", "Rp.", "(RM)", "€ 12", "Euro tax", ""]] == [
        True, True, True, True, True, True, False, False, False]


def test_every_currency_a_price_is_read_in_is_a_currency_cell_alone():
    codes = set(re.findall(r"(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])", f"{prices.BEFORE}|{prices.AFTER}"))
    assert len(codes) > 40 and [code for code in sorted(codes) if not is_currency(code)] == []
    assert all(is_currency(text) for text in ["AED", "Dhs.", "сум", "тг.", "KSh"])


def test_a_unit_of_measure_heads_a_measurement_not_a_price():
    assert header_role("Belső szélesség (mm)").role == "measure"
    assert header_role("Flash Memory（KB）").role == "measure"
    assert header_role("Weight (kg)").role == "weight"  # a known word wins over its unit
    assert header_role("Egységár (Ft/db)").role == "price"


def test_chinese_terms_match_at_the_start_or_end_of_a_header_only():
    assert header_role("含税单价").role == "price"
    assert header_role("商业健康保险创新药品目录") is None  # '品目' inside '药品目录' names nothing


@pytest.mark.parametrize("label", ["foo", "foo/bar", "功率", "", "Unit (USD)", "功率 与 效率 以及 其他 很多 说明 文字"])
def test_unknown_labels_name_no_attribute(label):
    assert attribute_for_label(label) is None


def test_labelled_values_need_a_known_label_and_a_colon():
    assert labelled_value("型号：A-100") == ("model", "A-100")
    assert labelled_value("Артикул: 12-34") == ("model", "12-34")
    assert labelled_value("Price: $12.50") == ("price", "$12.50")
    assert labelled_value(" 颜色 ： 透明 ") == ("color", "透明")
    assert labelled_value("功率：20W") is None
    assert labelled_value("图片：front.jpg") is None
    assert labelled_value("型号 A-100") is None


@pytest.mark.parametrize("title, expected", [
    ("PRICE LIST", True), ("Lista de precios 2024", True), ("价目表", True), ("Прайс-лист", True),
    ("Preisliste gültig ab 1.1.", True), ("Product catalogue", False), ("Unit price", False),
])
def test_price_list_titles_in_many_languages(title, expected):
    assert is_price_list_title(title) is expected


def test_letter_spaced_cjk_headers_are_read_as_one_word():
    spaced = ["型 号", "品　名", "单  价", "规 格"]
    assert [header_role(t).role for t in spaced] == ["model", "product_name", "price", "size"]


@pytest.mark.parametrize("header", ["€/Stk.", "元/个", "USD/pc", "руб./шт", "Preis €/Stk."])
def test_a_currency_per_unit_heads_a_price_column(header):
    assert header_role(header).role == "price"


@pytest.mark.parametrize("header, role", [("Stk.", "quantity"), ("Qty/pcs", "quantity"), ("kg/m", None),
                                          ("品項", "product_name"), ("品项", "product_name")])
def test_units_alone_are_no_price(header, role):
    found = header_role(header)
    assert (found.role if found else None) == role


@pytest.mark.parametrize("header", ["图号", "圖號", "№ чертежа", "Drawing No.", "Zeichnungs-Nr."])
def test_a_drawing_number_names_the_model(header):
    assert header_role(header).role == "model"


def test_a_currency_per_unit_with_a_backslash_and_a_tax_note_heads_a_price():
    assert header_role("руб\\шт с НДС").role == "price"
    assert header_role("шт/уп") is None  # a count per pack: no currency

"""Column roles decided from what the cells hold across rows, and from the header."""

from skuflow_extractor.domain.roles import assign_roles


def roles(headers, *columns):
    return [r.role for r in assign_roles(list(headers), [list(c) for c in columns])]


CODES = ["AD146A0", "AD142A0", "AD142A4", "AD145A2"]
PACKAGES = ["QFN32_4x4", "SOP16", "SOP16", "SOP16"]


def test_without_a_header_the_cells_name_code_name_and_price_columns():
    assert roles(["", "", ""], ["SF-0001", "SF-0002", "SF-0003"], ["玻璃杯", "保温杯", "马克杯"],
                 ["¥8.50", "¥9.00", "¥12.00"]) == ["model", "product_name", "price"]


def test_names_built_of_numbers_around_a_word_are_names():
    builds = ["4# - spouw - 3(1)3", "6(2)6 - spouw - #4(2)4", "10 - spouw - #6"]
    assert roles(["", ""], builds, ["€ 54,35", "€ 105,60", "€ 64,15"]) == ["product_name", "price"]
    assert roles(["", ""], ["12 x 40", "3(1)3", "#4"], ["€ 54,35", "€ 105,60", "€ 64,15"]) == [None, "price"]


def test_unheaded_unique_numbers_before_names_and_currency_prices_are_article_numbers():
    names = ["BIZCOCHUELO MAMA COCINA", "CACAO RUX COA X180G", "GRASA CRISTALINA X500", "TURRON ARCOR"]
    prices = ["$/Bulto 25.120,00", "$/Bulto 12.710,00", "$/Bulto 20.870,00", "$/Bulto 10.690,00"]
    assert roles(["", "", ""], ["1.134", "869", "2", "1.250"], names, prices) == ["model", "product_name", "price"]
    assert roles(["", "", ""], ["1", "2", "3", "4"], names, prices) == [None, "product_name", "price"]  # an index
    bare = ["25.120,00", "12.710,00", "20.870,00", "10.690,00"]  # no currency: the numbers may be prices
    assert roles(["", "", ""], ["1.134", "869", "2", "1.250"], names, bare)[0] != "model"


def test_unheaded_zero_padded_numbers_before_names_are_article_numbers_even_with_bare_prices():
    names = ["ACEITE DE OLIVA POMAN", "ACEITE DE PALTA EXTRA", "ACEITE DE UVA OLIVI", "ACETO BALSAMICO CASALTA",
             "CHIMICHURRI PAMPAGOURMET", "GLAZE CASALTA REDUCCION", "MANTECA DE COCO QUALICOCO",
             "SALSA DE OSTRAS HE SHUN", "SALSA DE SOJA AGIBO", "VINAGRE DE ARROZ CHI HOUSE"]
    prices = ["21000.000", "14000.000", "$8500.000", "3800.000", "14500.000"] * 2
    codes = ["0121", "0316", "3034", "0900", "0631", "3290", "3289", "0761", "1040", "Rubro 4030"]  # a footer
    assert roles(["", "", ""], codes, names, prices) == ["model", "product_name", "price"]  # word run into a cell
    unpadded = [c.lstrip("0") for c in codes]  # numbers of several widths: nothing says identifiers
    assert roles(["", "", ""], unpadded, names, prices)[0] != "model"


def test_grouped_numbers_under_a_header_naming_the_code_are_codes_not_prices():
    assert roles(["Código", "Descripcion", ""], ["1.130", "1.138", "1.249"], ["ACEITE", "SAL", "AZUCAR"],
                 ["40.350", "29.040", "58.030"]) == ["model", "product_name", "price"]


def test_a_package_column_is_never_the_model_even_where_its_header_says_so():
    assert roles(["型号", "封装"], CODES, PACKAGES) == ["model", "custom"]
    assert roles(["型号", ""], PACKAGES, CODES) == ["custom", "model"]  # the code-like, unique column wins


def test_a_running_number_is_a_code_only_under_a_header_naming_the_code():
    numbers = ["1", "2", "3", "4"]
    names = ["7 CM ELECTRIC SPARKLERS", "7 CM GREEN SPARKLERS", "10 CM RED SPARKLERS", "FLOWER POTS"]
    assert roles(["", ""], numbers, names)[0] is None
    coded = assign_roles(["Code", "Particulars"], [numbers, names])
    assert [r.role for r in coded] == ["model", "product_name"] and coded[0].named


def test_of_several_price_columns_the_leftmost_is_the_price_and_the_others_are_kept():
    assert roles(["Item No.", "Price", "Price after Discount"], ["A-100", "A-200"], ["24", "28"], ["12", "14"]) == [
        "model", "price", "price_extra"]


def test_plain_numbers_are_weak_price_evidence_beside_printed_prices():
    assert roles(["", "", "VK"], ["SMA SB 1300TL-10", "SMA SB 1600TL-10"], ["1300", "1600"],
                 ["865,58 €", "924,48 €"]) == ["model", None, "price"]


def test_a_header_giving_a_unit_of_measure_keeps_a_grouped_number_from_being_a_price():
    assert roles(["Típus", "Belső szélesség (mm)", "Egységár (Ft/db)"], ["LKE 120/120/100", "LKE 150/150/100"],
                 ["1 200", "1 500"], ["392 100", "461 600"]) == ["model", "custom", "price"]


def test_every_decision_records_its_scores_and_decimal_mark():
    [model, price] = assign_roles(["Artikel", "Grundpreis"], [["208432A", "208408A"], ["136,30", "1.060,00"]])
    assert model.scores["model"] > model.scores["price"] and price.decimal_mark == ","


def test_a_header_the_cells_flatly_deny_is_overruled():
    names = ["SOLID MARINE (GRADE AAA)", "COMPACT MARINE", "PLY BOARD", "FLUTED PANEL"]
    assert roles(["PRICE", "LIST"], names, ["2,300", "2,050", "1,950", "550"]) == ["product_name", "price"]
    breweries = ["Chorlton Brewing Co.", "Harviestoun", "Mikeller", "Beavertown"]
    beers = ["Hull Melon Lager", "Schiehallion", "American Dream", "8 Ball"]
    assert roles(["Style", "Name", "Take Out"], breweries, beers, ["3.00", "2.50", "4.50", "3.00"]) == [
        "custom", "product_name", "price"]


def test_without_codes_the_key_is_the_most_distinct_column_of_words_not_a_repeating_brand():
    names = ["Avena x 5KG", "Fecula de Maíz Glutal x 1 kg", "Fecula de Maíz Glutal x 10 kg", "Harina 000 x 1 Kilo",
             "Harina 0000 Pureza", "Harina Integral x 1Kg"]
    brands = ["PRIMERA CALIDAD", "Glutal", "Glutal", "Caserita", "Pureza", "Pureza"]
    prices = ["730,02", "71,55", "686,40", "40,52", "52,47", "65,25"]
    assert roles(["TIPO", "DESCRIPCION", "SIN IVA"], names, brands, prices) == ["product_name", "custom", "price"]


def test_without_codes_a_distinct_column_of_designations_is_the_model_not_a_repeating_kind():
    """pv partners' special price list: brand and type in one column, half of them code-like."""
    designations = ["Fronius SYMO 10.0-3-M", "Fronius SYMO 12.5-3-M", "Fronius SYMO ADVANCED 12.5-3-M",
                    "Fronius SYMO 15.0-3-M", "GoodWe GW10KN-ET PLUS 16A (G1)", "GoodWe GW50KS-MT", "GoodWe GW60KS-MT",
                    "Huawei SUN2000-12KTL-M2", "Huawei SUN2000-12KTL-M5", "Huawei SUN2000-15KTL-M2",
                    "KOSTAL PLENTICORE BI 5.5/13 G1", "KOSTAL PLENTICORE BI 10/26 G1", "KOSTAL PLENTICORE PLUS 3.0 G2",
                    "KOSTAL PIKO 17", "KOSTAL PIKO CI 30 G1", "KOSTAL Smart Energy Meter (KSEM) G2",
                    "SMA STP X12 (STP 12-50)"]
    kinds = ["String-Wechselrichter"] * 12 + ["Hybrid-Wechselrichter"] * 4 + ["Zubehör"]
    prices = [f"{n}99,00 €" for n in range(1, 18)]
    decided = assign_roles(["Wechselrichter & Zubehör", "", "Preis"], [designations, kinds, prices])
    assert [r.role for r in decided] == ["model", None, "price"] and decided[0].designation
    # sizes beside repeating names are no designations: the name stays the key
    sizes = ["50", "65", "80", "15/PN40", "20/PN40", "25/PN40"]
    names = ["Zawór zwrotny klapowy"] * 3 + ["Kurek kulowy kołnierzowy F3515"] * 3
    assert roles(["", "DN", "Cena PLN"], names, sizes, prices[:6])[0] == "product_name"


def test_a_column_of_measurements_is_a_size_not_the_name():
    capacities = ["0.5 TON", "0.5 TON", "1 TON", "2 TON"]
    kinds = ["SABİT", "MONORAY MANUEL ŞARYOLU", "SABİT", "ZİNCİRLİ MONORAY ŞARYOLU"]
    assert roles(["Kapasite", "Cinsi", "Fiyat TL"], capacities, kinds, ["1.750,00", "2.000,00", "2.250,00", "3.100,00"]
                 )[:3] == ["size", "product_name", "price"]


def test_a_column_of_clean_codes_beats_a_model_header_over_names_with_a_few_digits():
    names = ["GLA 250 4MATIC AMG Line", "EQA 250 Progressive", "CLE 200 Coupe", "S 450 4MATIC Long"]
    codes = ["24774712-KR3", "24370112-KR7", "23635012-KR4", "22315312-KR2"]
    assert roles(["", "Model"], codes, names) == ["model", "product_name"]
    assert roles(["", "Model"], ["W177", "H243", "H243", "C236"], names)[1] == "model"  # repeating labels


def test_beside_prices_printing_their_currency_a_column_of_bare_amounts_is_no_price():
    codes = ["ФМ219-2,0", "ФМ219-2,5", "ФМ273-2,0"]
    masses, prices = ["98,0", "121,0", "119,0"], ["6 800,00р.", "7 800,00р.", "8 600,00р."]
    headers = ["Обозначение", "масса m, Цена с НДС", "Цена с НДС"]  # the mass's header ran into the price's
    assert roles(headers, codes, masses, prices) == ["model", "custom", "price"]
    both = ["7 100,00р.", "8 200,00р.", "9 000,00р."]  # two prices in currency: both stay prices
    assert roles(headers, codes, both, prices) == ["model", "price", "price_extra"]


def test_a_line_total_right_of_the_unit_price_is_no_price_even_where_only_it_prints_the_currency():
    """A quotation: unit price, then quantity × unit price with 'EUR' before it. The total is not a
    second price (and does not make the unit prices read as a measurement)."""
    roles = assign_roles(["Artikel", "Menge", "E-Preis", "Preis"],
                         [["RMPS2000", "RSMW", "KLNRELA0101"], ["2,000", "1,000", "3,000"],
                          ["3971,20", "1250,00", "99,90"], ["EUR 7942,40", "EUR 1250,00", "EUR 299,70"]])
    assert [r.role for r in roles] == ["model", "custom", "price", "custom"]


def test_a_cartons_price_left_of_its_piece_price_stays_the_price():
    roles = assign_roles(["Codice", "Prezzo", "Pezzi", "Prezzo pezzo"],
                         [["413616", "415313", "413615"], ["33,00 €", "63,84 €", "25,20 €"], ["10", "24", "7"],
                          ["3,30 €", "2,66 €", "3,60 €"]])
    assert [r.role for r in roles][:2] == ["model", "price"] and roles[3].role == "price_extra"


def test_a_names_column_whose_cells_each_start_with_their_own_article_number_holds_the_codes():
    """'Cd_AR' and 'Descrizione' set so close they read as one column: the numbers are the codes."""
    roles = assign_roles(["Cd_AR Descrizione", "Prezzo"],
                         [["413616 AB BASE SENZA/GLUTINE", "415313 AB SCROC.CLASS. 28x18",
                           "413615 AB SCROC.CLASS.31cm"],
                          ["33,00 €", "63,85 €", "25,22 €"]])
    assert [r.role for r in roles] == ["model", "price"]
    same_number = assign_roles(["Descrizione", "Prezzo"], [["2 kg Mehl Typ 405", "2 kg Mehl Typ 550", "2 kg Zucker"],
                                                          ["3,00 €", "3,50 €", "2,20 €"]])
    assert [r.role for r in same_number] == ["product_name", "price"]


def test_an_order_number_column_is_the_model_beside_a_designation_column():
    """'Type SUN2000-3KTL-M1 | Art-Num 05855': the list orders by the article number."""
    roles = assign_roles(["Type", "Art-Num", "€/Stk."],
                         [["SUN2000-3KTL-M1", "SUN2000-4KTL-M1", "SUN2000-5KTL-M1"], ["05855", "05854", "05853"],
                          ["621,00", "650,00", "661,00"]])
    assert [r.role for r in roles] == ["custom", "model", "price"]
    alone = assign_roles(["Type", "€/Stk."], [["SUN2000-3KTL-M1", "SUN2000-4KTL-M1", "SUN2000-5KTL-M1"],
                                               ["621,00", "650,00", "661,00"]])
    assert [r.role for r in alone] == ["model", "price"]


def test_a_names_column_whose_cells_start_with_item_numbers_is_the_model_column():
    dishes = ["80. Mit süß-saurer Soße", "80a. Mit Erdnusssoße", "81. In rotem Curry", "83. Mit dunkler Soße"]
    assert roles(["", ""], dishes, ["16,90", "16,90", "16,90", "16,90"]) == ["model", "price"]


def test_a_second_column_of_amounts_filling_only_the_rows_the_price_leaves_empty_is_a_price_too():
    names = ["Soße", "Erdnusssoße", "rotem Curry", "gelbem Curry", "dunkler Soße", "Bohnen", "Pilzen", "Ente"]
    near = ["16,90"] * 6 + ["", ""]
    assert roles(["", "", ""], names, near, [""] * 6 + ["14,90", "14,90"]) == ["product_name", "price", "price_extra"]
    assert roles(["", "", ""], names, near, ["15,90"] + [""] * 5 + ["14,90", "14,90"])[2] is None  # both in a row


def test_plain_amounts_beside_a_price_column_and_close_to_its_amounts_are_price_tiers():
    """'20Kg | 5Kg | 1Kg' green-coffee prices: the first tiers print '13500' plainly, the last '13,600'.
    A quantity beside the price is no tier: its numbers stray far from the price's."""
    names = ["Cerrado Natural", "Cerrado Pulped", "Mogiana", "Yellow Bourbon", "Epoca"]
    tiers = roles(["품명", "20Kg", "5Kg", "1Kg"], names, ["13500", "14500", "14500", "17800", "17800"],
                  ["", "14500", "14500", "18100", "18100"], ["13,600", "14,500", "14,500", "18,300", "18,300"])
    assert tiers == ["product_name", "price", "price_extra", "price_extra"]
    counted = roles(["품명", "", "1Kg"], names, ["100", "250", "250", "12", "12"],
                    ["13,600", "14,500", "14,500", "18,300", "18,300"])
    assert counted == ["product_name", None, "price"]


def test_a_currency_printed_apart_lends_its_header_to_the_amounts_beside_it():
    """'VALORES C/100 UN' over 'R$ | 10,80': the header splits at the currency's own column; the
    amounts' half alone ('C/100 UN', per hundred units) would name a unit, not the price."""
    names = ["20 lts", "20 lts Reforçado", "40 lts", "40 lts Reforçado"]
    assert roles(["PRETO", "VALORES", "C/100 UN"], names, ["R$"] * 4, ["10,80", "19,00", "25,00", "44,60"]) == [
        "product_name", None, "price"]  # the currency's own column is no attribute


def test_a_column_of_currencies_alone_is_the_amounts_currency_not_a_name_or_a_custom_column():
    """A spreadsheet's accounting format sets 'Rp' at the cell's left edge, apart from its amount."""
    codes = ["NN-LLED-DHB-1-BEAT", "NN-LLED-TSN1", "NN-LLED-TSA1"]
    assert roles(["KODE BARANG", "", "MASTER DEALER", "", "HARGA TOKO"], codes, ["Rp"] * 3,
                 ["465.000,00", "480.000,00", "400.000,00"], ["Rp"] * 3, ["490.000,00", "525.000,00", "435.000,00"]
                 ) == ["model", None, "price", None, "price_extra"]


def test_one_multiple_in_every_row_is_a_bigger_packs_price_not_a_line_total():
    names = ["Lemon Pickle", "Chicken Pickle", "Dates", "Beef Pickle"]
    packs = roles(["Item", "Price/250g", "Price/500g"], names, ["Rs 60", "Rs 225", "Rs 200", "Rs 250"],
                  ["Rs 120", "Rs 450", "Rs 400", "Rs 500"])
    assert packs == ["product_name", "price", "price_extra"]
    totals = roles(["Item", "Price", "Total"], names, ["Rs 60", "Rs 225", "Rs 200", "Rs 250"],
                   ["Rs 120", "Rs 675", "Rs 400", "Rs 1000"])  # quantities 2, 3, 2, 4
    assert totals == ["product_name", "price", "custom"]  # headed: kept, not a price


def test_a_price_column_printing_for_a_few_rows_is_still_the_first_price():
    names = ["Tender Mango Pickle", "Lemon Pickle", "Garlic Pickle", "Jathikka Pickle", "Fish Pickle", "Dates"]
    sparse = ["", "", "Rs 50", "", "Rs 100", ""]
    full = ["Rs 130", "Rs 60", "Rs 125", "Rs 75", "Rs 225", "Rs 200"]
    assert roles(["Item", "Price/100g", "Price/1Kg"], names, sparse, full) == ["product_name", "price", "price_extra"]
    assert roles(["Item", "Remark", "Price/1Kg"], names, ["", "", "new", "", "", ""], full)[1:] == ["custom", "price"]


def test_captions_in_a_picture_column_name_the_rows_beside_them():
    """'Hình Ảnh' (picture) holds each block's caption; the next column counts bearings ('2 vòng')."""
    captions = ["Kim cương đen", "Kim cương đen", "Bánh PVC đỏ đô", "Bánh PVC đỏ đô"]
    assert roles(["Hình Ảnh", "Số vòng bi", "Xoay"], captions, ["2 vòng"] * 4,
                 ["11,000", "12,600", "32,800", "33,900"]) == ["product_name", "custom", "price"]

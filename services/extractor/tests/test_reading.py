"""The reading stages on hand-built pages: geometry, candidates, the decision's features, assembly, and
a reader artifact saved and loaded."""

import lightgbm
import numpy as np
import pytest
from extractor_pages import (
    HASH,
    HEADER,
    PROFILE,
    block,
    body_rows,
    cells,
    classification,
    page,
    spanned,
    stacked,
    table,
)

from skuflow_contracts.results import SkuRecord
from skuflow_extractor.domain.extraction import extract_page
from skuflow_extractor.reading.assembly import assemble, choose, page_confidence
from skuflow_extractor.reading.candidates import Candidate, candidates
from skuflow_extractor.reading.decisions import Calibration, Reader, ReaderMismatch, ReviewBar, load_reader
from skuflow_extractor.reading.features import FEATURES, features
from skuflow_extractor.reading.geometry import geometry
from skuflow_extractor.reading.pipeline import decision_inputs, read_page, review_reasons

PRICED = [["SF-0001", "玻璃杯", "100ml", "¥1.50"], ["SF-0002", "马克杯", "200ml", "¥2.50"],
          ["SF-0001", "玻璃杯", "100ml", "¥1.50"]]  # the first code printed again


def by_key(found: list[Candidate]) -> dict[tuple[str, str], Candidate]:
    return {(c.kind, c.key): c for c in found}


def test_cells_share_rows_by_height_and_columns_by_x():
    geo = geometry(page(*table(0, 100, [HEADER, *body_rows(1, 3)])))
    assert [len(row) for row in geo.rows] == [4, 4, 4, 4]
    first_code = next(c.index for c in geo.cells if c.text == "SF-0001")
    mates = {geo.cells[n].text for n in np.flatnonzero(geo.aligned[first_code])}
    assert mates == {"型号", "SF-0002", "SF-0003"}  # its column, not its row


def test_codes_their_leading_and_unbranded_forms_and_priced_names_are_candidates_with_their_row_price():
    geo = geometry(page(cells(0, 100, ["ACME TB-40/120", "Tube", "$3.50"], xs=(50, 200, 400)),
                        cells(1, 130, ["X-77 Tubing clamp", "$1.25"], xs=(50, 400)),
                        cells(2, 160, ["Cafe latte", "$4.00"], xs=(50, 400))))
    found = by_key(candidates(geo, []))
    assert found["code", "TB-40/120"].sources == {"unbranded"} and found["code", "TB-40/120"].price == "3.50"
    assert found["code", "X-77"].sources == {"leading"} and found["code", "X-77"].price == "1.25"
    assert found["name", "Cafe latte"].price == "4.00"
    assert ("code", "Tube") not in found


def test_codes_listed_in_one_cell_or_after_a_label_and_numbered_names_are_candidates_each():
    geo = geometry(page(cells(0, 100, ["AC7815QBGE, AC7815OBGE，AC7815MBGE"], xs=(50,)),
                        cells(1, 130, ["面向欧洲：UNE318-5928"], xs=(50,)),
                        cells(2, 160, ["4.韓式泡菜鍋", "$180"], xs=(50, 400)),
                        cells(3, 190, ["法式烤鮭魚便當 $170/盒 招牌+烤鮭魚"], xs=(50,))))
    found = by_key(candidates(geo, []))
    assert {key for (kind, key), c in found.items() if "listed" in c.sources} == {
        "AC7815QBGE", "AC7815OBGE", "AC7815MBGE"}
    assert found["code", "UNE318-5928"].sources == {"labelled"}
    assert found["code", "4"].sources == {"numbered"} and found["name", "韓式泡菜鍋"].price == "180"
    assert "before_price" in found["name", "法式烤鮭魚便當"].sources
    assert ("code", "1.5M") not in found


def test_an_item_number_a_space_or_a_dash_parts_from_its_name_is_a_candidate_of_its_own_source():
    geo = geometry(page(cells(0, 100, ["46 - Spinaci", "8,50 €"], xs=(50, 400)),
                        cells(1, 130, ["05-Lahmacun", "6,00 €"], xs=(50, 400)),
                        cells(2, 160, ["4.韓式泡菜鍋", "$180"], xs=(50, 400))))
    found = by_key(candidates(geo, []))
    assert found["code", "46"].sources == {"spaced_number"} and found["name", "Spinaci"].price == "8.50"
    assert "spaced_number" in found["code", "05"].sources and ("name", "Lahmacun") in found
    assert found["code", "4"].sources == {"numbered"}  # a dot is the numbered source's, not this one's


def test_each_name_of_a_line_printing_several_priced_products_is_a_candidate_with_its_own_price():
    geo = geometry(page(cells(0, 100, ["酸菜鱼块饭15元腊肠炒蛋饭16元"], xs=(50,)),
                        cells(1, 130, ["Latte $4 Mocha $5"], xs=(50,)),
                        cells(2, 160, ["红烧茄子饭15元"], xs=(50,)),
                        cells(3, 190, ["★ Борщ 150 руб. Щи 120 руб."], xs=(50,))))
    found = by_key(candidates(geo, []))
    assert found["name", "酸菜鱼块饭"].price == "15" and found["name", "腊肠炒蛋饭"].price == "16"
    assert found["name", "Борщ"].price == "150" and found["name", "Щи"].price == "120"  # any currency the catalog knows
    assert found["name", "Mocha"].sources == {"between_prices"} and found["name", "Mocha"].price == "5"
    assert "between_prices" in found["name", "Latte"].sources and found["name", "Latte"].price == "4"
    assert not any("between_prices" in c.sources for c in found.values() if c.key.startswith("红烧"))


def test_a_rule_readers_sku_is_one_candidate_with_the_cell_it_reads():
    body = page(*table(0, 100, [HEADER, *body_rows(1, 2)]))
    rules = extract_page(body, classification("A"), HASH, PROFILE)
    found = by_key(candidates(geometry(body), rules.skus))
    assert found["code", "SF-0001"].sources == {"engine", "cell"}
    assert found["code", "SF-0001"].engine is not None and found["code", "SF-0001"].price == "1.50"


def test_features_are_one_row_per_candidate_in_the_declared_order():
    body = page(*table(0, 100, [HEADER, *PRICED]))
    rules = extract_page(body, classification("A"), HASH, PROFILE)
    inputs = decision_inputs(body, classification("A"), rules)
    assert inputs.matrix.shape == (len(inputs.found), len(FEATURES))
    column = FEATURES.index("col_head_model")
    repeats = FEATURES.index("key_repeats")
    sf1 = [n for n, c in enumerate(inputs.found) if c.key == "SF-0001"]
    assert all(inputs.matrix[n, column] == 1.0 for n in sf1)  # headed 型号
    assert all(inputs.matrix[n, repeats] == 2 for n in sf1)  # printed twice
    at = {name: FEATURES.index(name) for name in ("col_cells_above", "col_cells_below", "col_head_other")}
    assert [tuple(inputs.matrix[n, [at["col_cells_above"], at["col_cells_below"]]]) for n in sf1] == [(1, 2), (3, 0)]
    sizes = [n for n, c in enumerate(inputs.found) if c.key.endswith("00ml")]
    assert len(sizes) == 3 and all(inputs.matrix[n, at["col_head_other"]] == 1.0 for n in sizes)  # headed 规格


def test_a_code_printed_twice_is_one_product_and_a_coded_rows_name_is_none():
    geo = geometry(page(*table(0, 100, [HEADER, *PRICED])))
    found = candidates(geo, [])
    names = [n for n, c in enumerate(found) if c.kind == "name"]
    probability = np.array([0.2 if n in names else 0.9 for n in range(len(found))])
    probability[names] = 0.95  # names as likely as codes: the coded row keeps its code
    chosen = choose(found, probability, 0.5, geo)
    assert sorted(found[n].key for n in chosen) == ["SF-0001", "SF-0002"]


def test_a_cell_gives_one_product_unless_it_lists_several_codes():
    geo = geometry(page(cells(0, 100, ["AC7815QBGE, AC7815OBGE, AC7815MBGE", "¥3"], xs=(50, 400)),
                        cells(1, 130, ["TB-40/120 Tube", "¥2"], xs=(50, 400))))
    found = candidates(geo, [])
    chosen = [found[n] for n in choose(found, np.full(len(found), 0.9), 0.5, geo)]
    listing, tube = (next(c.index for c in geo.cells if c.text.startswith(start)) for start in ("AC", "TB"))
    assert sorted(c.key for c in chosen if c.cell == listing) == ["AC7815MBGE", "AC7815OBGE", "AC7815QBGE"]
    assert len([c for c in chosen if c.cell == tube]) == 1  # 'TB-40/120 Tube' and 'TB-40/120': one product


def test_the_page_is_as_sure_as_its_least_likely_sku_and_its_likeliest_left_out_candidate():
    found = [Candidate("code", key, None, (0, 0, 1, 1)) for key in ("SF-1", "SF-2", "SF-3")]
    assert page_confidence(found, np.array([0.95, 0.9, 0.1]), [0, 1]) == 0.9
    assert page_confidence(found[:2], np.array([0.95, 0.4]), [0]) == 0.6
    assert page_confidence(found[:1], np.array([0.2]), []) == 0.8
    assert page_confidence([], np.zeros(0), []) == 1.0


def test_a_taken_key_printed_again_doubts_the_page_only_for_a_reader_that_doubts_repeats():
    geo = geometry(page(*table(0, 100, [HEADER, *PRICED])))  # SF-0001 printed twice
    found = candidates(geo, [])
    probability = np.array([0.97 if c.kind == "code" else 0.02 for c in found])
    assert sum(1 for c in found if c.key == "SF-0001") == 2  # both printings are candidates
    doubting = assemble(geo, found, probability, 0.5, HASH)
    trusting = assemble(geo, found, probability, 0.5, HASH, repeats_doubt=False)
    assert [s.attributes.model for s in doubting.skus] == [s.attributes.model for s in trusting.skus] == [
        "SF-0001", "SF-0002"]  # the same product, once, either way
    assert doubting.confidence == 0.03 and trusting.confidence == 0.97


def test_assembly_numbers_skus_in_reading_order_with_their_probability():
    geo = geometry(page(*table(0, 100, [HEADER, *PRICED])))
    found = candidates(geo, [])
    probability = np.array([0.9 if c.kind == "code" else 0.1 for c in found])
    reading = assemble(geo, found, probability, 0.5, HASH)
    assert [(s.sku_id, s.attributes.model, s.attributes.price, s.confidence) for s in reading.skus] == [
        ("feedbeef_p03_001", "SF-0001", "1.50", 0.9), ("feedbeef_p03_002", "SF-0002", "2.50", 0.9)]


def test_a_product_page_read_to_nothing_and_an_unsure_reading_are_flagged():
    empty = assemble(geometry(page()), [], np.zeros(0), 0.5, HASH)
    assert review_reasons(empty, 0.8, "A") == ["nothing_read"]
    assert review_reasons(empty, 0.8, "D") == []
    assert review_reasons(empty, 0.8, "D", scanned=True) == ["nothing_read"]  # a scan whose codes OCR lost
    assert review_reasons(empty, 0.8, "D", photos=2) == []  # a cover, a product's page of specs
    assert review_reasons(empty, 0.8, "D", photos=3) == ["nothing_read"]  # captioned photos, nothing read
    assert review_reasons(empty, 0.8, "D", rules_type="A") == ["nothing_read"]  # the judges disagree: a person looks
    assert review_reasons(empty, 0.8, "D", rules_type="D") == []
    geo = geometry(page(*table(0, 100, [HEADER, *PRICED])))
    found = candidates(geo, [])
    unsure = assemble(geo, found, np.full(len(found), 0.6), 0.5, HASH)
    assert review_reasons(unsure, 0.8, "A") == ["reader_confidence:0.40<0.80"]
    sure = assemble(geo, found, np.full(len(found), 0.95), 0.5, HASH)
    assert review_reasons(sure, 0.0, "A", sku_min_confidence=0.65) == []
    assert review_reasons(sure, 0.0, "A", sku_min_confidence=0.999) == [  # a strict merchant profile
        f"low_confidence_skus:{len(sure.skus)}"] and sure.skus


def small_reader(tmp_path) -> Reader:
    """A reader trained on a handful of rows: any artifact shape the package must load."""
    rng = np.random.default_rng(0)
    matrix = rng.random((200, len(FEATURES)))
    labels = (matrix[:, FEATURES.index("key_code_score")] > 0.5).astype(int)
    booster = lightgbm.train({"objective": "binary", "verbose": -1, "num_threads": 1, "deterministic": True,
                              "min_data_in_leaf": 5}, lightgbm.Dataset(matrix, label=labels), num_boost_round=5)
    return Reader("reader-test", booster, Calibration((0.0, 1.0), (0.0, 1.0)), 0.5, ReviewBar(0.9, 0.95))


def test_a_saved_reader_loads_with_its_thresholds_and_refuses_other_features(tmp_path):
    reader = small_reader(tmp_path)
    reader.save(tmp_path / "model", trained_on={"pages": 1})
    loaded = load_reader(tmp_path / "model")
    matrix = np.random.default_rng(1).random((7, len(FEATURES)))
    assert np.allclose(loaded.probabilities(matrix), reader.probabilities(matrix))
    assert (loaded.version, loaded.take, loaded.review_below) == ("reader-test", 0.5, ReviewBar(0.9, 0.95))
    assert (loaded.review_below.for_page(ocr=False), loaded.review_below.for_page(ocr=True)) == (0.9, 0.95)
    manifest = (tmp_path / "model" / "reader.json").read_text().replace('"key_chars"', '"key_length"')
    (tmp_path / "model" / "reader.json").write_text(manifest)
    with pytest.raises(ReaderMismatch, match="skuflow train"):
        load_reader(tmp_path / "model")


def test_read_page_names_its_reader_and_confidence(tmp_path):
    reader = small_reader(tmp_path)
    body = page(*table(0, 100, [HEADER, *body_rows(1, 3)]))
    read = read_page(body, classification("A"), HASH, PROFILE, reader=reader)
    assert read.reader_version == "reader-test" and 0.0 <= read.confidence <= 1.0
    assert all(isinstance(s, SkuRecord) for s in read.skus)


def test_a_calibration_maps_scores_through_its_points():
    calibration = Calibration((0.1, 0.5, 0.9), (0.0, 0.5, 1.0))
    assert np.allclose(calibration(np.array([0.0, 0.3, 0.9, 1.0])), [0.0, 0.25, 1.0, 1.0])


def test_lines_without_prices_are_worded_candidates_but_no_priced_rows_names():
    geo = geometry(page(stacked(0, 40, 100, "Welcome to our shop", "Fine cups and mugs")))
    assert [(c.key, c.sources) for c in candidates(geo, [])] == [("Welcome to our shop", {"text"}),
                                                                ("Fine cups and mugs", {"text"})]
    assert features(geo, [], classification("D"), None).shape == (0, len(FEATURES))


def test_a_heading_stands_out_of_its_column_by_size_and_by_a_row_without_price():
    heading = block(1, [spanned(50, 80, "主食", size=16.0, height=18)])
    dishes = table(2, 110, [["牛肉面", "¥25"], ["鸡丝饭", "¥22"], ["炸酱面", "¥18"]], xs=(50, 300))
    body = page(heading, *dishes)
    inputs = decision_inputs(body, classification("A"), extract_page(body, classification("A"), HASH, PROFILE))
    measures = {c.key: dict(zip(FEATURES, inputs.matrix[n], strict=True)) for n, c in enumerate(inputs.found)}
    assert measures["主食"]["col_same_size"] == 0.0 and measures["主食"]["col_rows_priced"] == 1.0
    assert measures["牛肉面"]["col_same_size"] == pytest.approx(2 / 3)  # the other dishes, not the heading
    assert measures["牛肉面"]["col_rows_priced"] == pytest.approx(2 / 3)
    assert measures["牛肉面"]["col_same_shape"] == 1.0  # CJK words all, the heading too


def test_a_page_the_rules_gave_up_on_is_told_from_a_page_read_without_them():
    """The bare twins the reader trains on (no rule reader ran) and a page whose rules ended in their final
    fallback both carry no rule reading; only the method says which, so the trees do not carry the twins'
    lesson (the cells alone read right) onto pages the rules could not read."""
    body = page(*table(0, 100, [["1200", "1350", "1500"], ["2400", "2600", "2900"]]))
    geo = geometry(body)
    found = candidates(geo, [])
    fallback = FEATURES.index("method_final_fallback")
    assert found and all(features(geo, found, classification("A"), "final_fallback")[:, fallback] == 1.0)
    assert not features(geo, found, classification("A"), None)[:, fallback].any()

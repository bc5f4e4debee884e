"""The reader adapted to a corrected page (issue 42): layouts known as alike, a lesson kept as bytes, and
what a person taught on one page changing the reading of another page of its layout."""

import io
from dataclasses import replace

import numpy as np
from extractor_pages import CHAR, HASH, HEADER, PROFILE, body_rows, cells, classification, page, stacked, table

from skuflow_contracts.ir import ImageRegion
from skuflow_extractor.domain.extraction import extract_page
from skuflow_extractor.reading import adaptation
from skuflow_extractor.reading.adaptation import Lesson, adapted, lesson, read_to_nothing, taught, taught_columns
from skuflow_extractor.reading.assembly import assemble
from skuflow_extractor.reading.candidates import TaughtColumn, candidates
from skuflow_extractor.reading.decisions import AfterCorrection, Calibration, ReviewBar, committed_reader, load_reader
from skuflow_extractor.reading.geometry import geometry
from skuflow_extractor.reading.labels import labels_of
from skuflow_extractor.reading.layouts import alike, canonical, layout_of
from skuflow_extractor.reading.pipeline import decision_inputs, read_page


def price_page(first_row: int, rows: int = 8):
    return page(*table(0, 100, [HEADER, *body_rows(first_row, rows)]))


def inputs_of(parsed):
    kind = classification("C")
    return decision_inputs(parsed, kind, extract_page(parsed, kind, HASH, PROFILE))


def test_pages_of_one_table_share_a_layout_and_other_columns_do_not():
    first, second = layout_of(geometry(price_page(1))), layout_of(geometry(price_page(20, rows=5)))
    other = layout_of(geometry(page(*[cells(n, 100 + 20 * n, ["A-1", "x", "y"], xs=(120, 330, 470))
                                      for n in range(6)])))
    assert first is not None and alike(first, second) and not alike(first, other)
    assert canonical(second, [first]) == first and canonical(other, [first]) == other
    prose = page(cells(0, 100, ["One line of prose about the company"], xs=(50,)))
    assert layout_of(geometry(prose)) is None and canonical(None, [first]) is None


def test_a_lesson_is_kept_as_bytes_and_read_back_the_same():
    column = TaughtColumn("code", 3, frozenset({"A-9"}))
    kept = lesson(inputs_of(price_page(1)), [{"model": "SF-0001"}, {"model": "SF-0002"}], (column,))
    back = Lesson.from_bytes(kept.to_bytes())
    assert np.allclose(back.matrix, kept.matrix.astype(np.float32)) and (back.labels == kept.labels).all()
    assert kept.labels.sum() == 2 and back.columns == (column,)  # the two products the person kept
    assert taught([kept, back]) == (column,) and back.page_type is None
    typed = Lesson.from_bytes(lesson(inputs_of(price_page(1)), [{"model": "SF-0001"}], (column,), "A").to_bytes())
    assert typed.page_type == "A" and adaptation.taught_type([back, typed]) == "A"  # the newest lesson that was typed
    stored = io.BytesIO()  # a lesson kept before columns said how many lines their keys took: one line each
    np.savez_compressed(stored, matrix=kept.matrix, labels=kept.labels, columns=np.array('[["code", 3, ["A-9"]]]'))
    assert Lesson.from_bytes(stored.getvalue()).columns == (column,)


def test_a_page_type_the_classifier_doubted_is_the_one_a_person_gave_its_layout_until_the_lesson_goes():
    doubted = classification("C", needs_review=True)
    typed = adaptation.typed_as(doubted, "A")
    assert (typed.page_type, typed.needs_review) == ("A", False)
    assert typed.reason == "the type a person gave a page of its layout"
    assert adaptation.typed_as(typed, None) == doubted  # the lesson reverted: the classifier's own verdict again
    retyped = adaptation.typed_as(typed, "B")  # a newer lesson: its type, the classifier's verdict kept
    assert retyped.page_type == "B" and retyped.detail["classifier"]["page_type"] == "C"
    sure = classification("C")
    assert adaptation.typed_as(sure, "A") == sure  # a type the classifier was sure of stands
    torn = classification("B").model_copy(update={  # a product page, not reviewed, its type given at 0.55
        "page_type_confidence": 0.55, "detail": {"thresholds": {"page_type_min_confidence": 0.7}}})
    assert (adaptation.typed_as(torn, "A").page_type, adaptation.typed_as(torn, "A").needs_review) == ("A", False)


LETTERS = ["HCC", "HTO", "SCL", "KMB", "PRV", "TXD", "BLQ", "WGN", "ZRF", "MDS", "CPT", "LNR"]


def lettered_page(first: int):
    """A list keyed by short letter codes ('HCC'), which no generator takes for a product's code."""
    return page(*[cells(n, 100 + 20 * n, [LETTERS[first + n], f"Widget {first + n}", f"{n + 1}.50"],
                        xs=(50, 200, 450)) for n in range(6)])


def test_the_columns_a_correction_shows_holding_the_keys_become_candidates_on_pages_alike():
    corrected, other = geometry(lettered_page(0)), geometry(lettered_page(6))
    assert not any(c.kind == "code" and c.key in LETTERS for c in candidates(other, []))
    columns = taught_columns(corrected, [{"model": LETTERS[n], "product_name": f"Widget {n}"} for n in range(6)])
    assert [(c.kind, c.shapes) for c in columns] == [("code", frozenset({"A"}))]
    found = {(c.kind, c.key): c.sources for c in candidates(other, [], columns)}
    assert all(found.get(("code", key)) == {"taught"} for key in LETTERS[6:])  # a source of their own
    assert not any(kind == "code" and key.startswith("Widget") for kind, key in found)  # another column


def test_a_taught_column_holds_one_cell_a_row_not_the_next_column_a_fortieth_over():
    column = TaughtColumn("code", 6, frozenset({"9"}))  # sizes printed at 90 pt of 595 (the sixth fortieth)
    sizes = page(*[cells(n, 100 + 20 * n, [str(200 + 10 * n), str(110 + 20 * n), f"Reducer {n}"],
                         xs=(90, 118, 300)) for n in range(6)])  # each size beside a dimension, a fortieth over
    taught_here = {c.key for c in candidates(geometry(sizes), [], (column,)) if "taught" in c.sources}
    assert taught_here == {str(200 + 10 * n) for n in range(6)}
    shifted = page(*[cells(n, 100 + 20 * n, [str(200 + 10 * n), f"Reducer {n}"], xs=(118 if n % 2 else 90, 300))
                     for n in range(6)])  # the sizes themselves start a fortieth apart from row to row
    taught_here = {c.key for c in candidates(geometry(shifted), [], (column,)) if "taught" in c.sources}
    assert taught_here == {str(200 + 10 * n) for n in range(6)}


def wrapped_page(first: int, rows: int = 5):
    """A tableware list whose narrow item column wraps each code onto a line of its own ('SBP' over '006')."""
    blocks = []
    for n in range(rows):
        y = 100 + 30 * n
        blocks += [cells(2 * n, y, ["SBP", f"Plate {first + n}", "125", f"{n + 1}.50"], xs=(50, 200, 380, 450)),
                   cells(2 * n + 1, y + 11, [f"{first + n:03d}"], xs=(50,))]
    return page(*blocks)


def test_a_code_wrapped_onto_the_line_under_it_is_taught_and_read_whole():
    corrected, other = geometry(wrapped_page(6)), geometry(wrapped_page(20))
    assert not any(c.norm.startswith("SBP0") for c in candidates(other, []))  # no generator joins the lines
    columns = taught_columns(corrected, [{"model": f"SBP{n:03d}"} for n in range(6, 11)])
    assert [(c.kind, c.left, c.shapes) for c in columns] == [("code", 3, frozenset({"A9"}))]
    taught_here = {c.norm for c in candidates(other, [], columns) if "taught" in c.sources}
    assert taught_here == {f"SBP{n:03d}" for n in range(20, 25)}  # not '006 SBP': the next row is no wrap


def card_names(first: int, cards: int) -> list[list[str]]:
    """Each card's name, over two or three lines."""
    return [["TAPA", f"CURVA {first + n}", 'PARA TUBO 2"'][:2 + n // 2 % 2] for n in range(cards)]


def card_page(first: int, cards: int):
    """Product cards two a row, each naming its product over lines of its own, its price under them."""
    blocks = []
    for n, name in enumerate(card_names(first, cards)):
        x, y = 50 + 250 * (n % 2), 100 + 90 * (n // 2)
        blocks += [stacked(2 * n, x, y, *name), cells(2 * n + 1, y + 60, [f"$ {first + n}.00"], xs=(x,))]
    return page(*blocks)


def test_a_name_a_card_stacks_over_lines_of_its_own_is_taught_and_read_whole():
    corrected, other = geometry(card_page(6, 4)), geometry(card_page(20, 6))
    assert not any(c.norm.startswith("TAPACURVA") for c in candidates(other, []))  # no generator joins the lines
    products = [{"product_name": " ".join(name)} for name in card_names(6, 4)]
    columns = taught_columns(corrected, products)
    assert {(c.kind, c.lines) for c in columns} == {("name", 3)}  # both cards' columns, names over up to 3 lines
    taught_here = {c.key for c in candidates(other, [], columns) if "taught" in c.sources}
    assert {" ".join(name) for name in card_names(20, 6)} <= taught_here
    assert not any("$" in key for key in taught_here)  # the price under a card is no line of its name
    assert Lesson.from_bytes(lesson(inputs_of(card_page(6, 4)), products, columns).to_bytes()).columns == columns


def test_a_taught_code_is_read_where_its_cell_prints_it_before_other_words():
    grits = page(*[cells(n, 100 + 20 * n, [f"01030100{n} #{120 + 30 * n}", "Lija", f"{n + 1}.50"], xs=(50, 200, 450))
                   for n in range(6)])
    columns = taught_columns(geometry(grits), [{"model": f"01030100{n}"} for n in range(3)])
    assert columns == (TaughtColumn("code", 3, frozenset({"9"})),)  # the keys stand first in their cells
    taught_here = {c.key for c in candidates(geometry(grits), [], columns) if "taught" in c.sources}
    assert taught_here == {f"01030100{n}" for n in range(6)}  # the code, without its grit


def drug_page(names: list[str]):
    """A drug list: each row a drug's name, its dosage form and its class code."""
    return page(*[cells(n, 100 + 20 * n, [name, "片剂", f"XA0{n}"], xs=(50, 250, 450)) for n, name in enumerate(names)])


def test_a_taught_name_column_reads_any_name_in_its_kinds_of_letters_a_code_column_only_its_shapes():
    corrected = geometry(drug_page(["复方硼砂", "糠甾醇", "克霉唑(栓)"]))
    columns = taught_columns(corrected, [{"product_name": name} for name in ("复方硼砂", "糠甾醇", "克霉唑(栓)")])
    assert columns == (TaughtColumn("name", 3, frozenset({"C", "C(C)"})),)
    other = geometry(drug_page(["维C银翘片(颗粒)", "小儿热速清颗粒(口服液、糖浆)", "Aspirin tablets", "玉屏风颗粒"]))
    taught_here = {c.key for c in candidates(other, [], columns) if "taught" in c.sources}
    assert taught_here == {"维C银翘片(颗粒)", "小儿热速清颗粒(口服液、糖浆)", "玉屏风颗粒"}  # not the Latin one
    codes = (TaughtColumn("code", 30, frozenset({"A9"})),)  # codes like 'XA0' only: not 'XA0-1'
    coded = geometry(page(cells(0, 100, ["维C银翘片", "XA0-1"], xs=(50, 450)),
                          cells(1, 120, ["玉屏风颗粒", "XB1"], xs=(50, 450))))
    assert {c.key for c in candidates(coded, [], codes) if "taught" in c.sources} == {"XB1"}


def test_a_key_a_list_marks_or_numbers_is_taught_and_read_without_its_mark():
    spices = page(*[cells(n, 100 + 20 * n, [mark, f"${n + 1}.00"], xs=(50, 450))
                    for n, mark in enumerate(["-AJONJOLÍ BLANCO", "-CANELA MOLIDA", "1. Pimienta gorda", "2. Anís"])])
    products = [{"product_name": name} for name in ("AJONJOLÍ BLANCO", "Pimienta gorda")]
    columns = taught_columns(geometry(spices), products)
    assert [c.kind for c in columns] == ["name"]
    taught_here = {c.key for c in candidates(geometry(spices), [], columns) if "taught" in c.sources}
    assert {"AJONJOLÍ BLANCO", "CANELA MOLIDA", "Pimienta gorda", "Anís"} <= taught_here


def centred_page(names: list[str]):
    """A price list whose names are centred in their column (around x = 150), their prices at the right."""
    return page(*[cells(n, 100 + 20 * n, [name, f"${n + 1}.00"], xs=(150 - CHAR * len(name) / 2, 450))
                  for n, name in enumerate(names)])


def test_a_column_of_centred_names_is_taught_where_they_are_centred_not_where_they_start():
    names = ["AJO", "CLAVO", "ORÉGANO"]  # starting at the page's 9th, 9th and 8th fortieth
    columns = taught_columns(geometry(centred_page(names)), [{"product_name": name} for name in names])
    assert columns == (TaughtColumn("name", 10, frozenset({"A"}), 1, centred=True),)
    longer = ["CANELA MOLIDA EN POLVO", "PIMIENTA GORDA DE TABASCO"]  # starting at the 5th
    taught_here = {c.key for c in candidates(geometry(centred_page(longer)), [], columns) if "taught" in c.sources}
    assert taught_here == set(longer)
    assert Lesson.from_bytes(lesson(inputs_of(centred_page(names)), [], columns).to_bytes()).columns == columns


def numbered_page(first: int, rows: int):
    """A parts list keyed by item numbers, one digit on the first page and two on the next."""
    return page(*[cells(n, 100 + 20 * n, [str(first + n), f"Rodamiento {first + n}", "PZA", f"{n + 1}.50"],
                        xs=(50, 120, 380, 450)) for n in range(rows)])


def test_a_lesson_teaches_the_column_its_keys_stand_in_not_their_length():
    reader = committed_reader()
    kind = classification("C")
    first = numbered_page(1, 7)
    products = [{"model": str(n)} for n in range(1, 8)]
    columns = taught_columns(geometry(first), products)
    page_inputs = decision_inputs(first, kind, extract_page(first, kind, HASH, PROFILE), taught=columns)
    nxt = numbered_page(10, 8)
    after = decision_inputs(nxt, kind, extract_page(nxt, kind, HASH, PROFILE), taught=columns)
    changed = adapted(reader, [lesson(page_inputs, products, columns)])
    probability = changed.probabilities(after.matrix)
    taken = {c.key for n, c in enumerate(after.found) if c.kind == "code" and probability[n] >= changed.take}
    assert taken == {str(n) for n in range(10, 18)}  # item numbers two digits long, in the taught column


def test_a_column_printing_fewer_of_the_same_keys_teaches_nothing():
    # item numbers 1-7, and a quantity column printing 1, 2 and 3: the keys are the item numbers
    parsed = page(*[cells(n, 100 + 20 * n, [str(1 + n), f"Rodamiento {1 + n}", str(n % 3 + 1), f"{n + 1}.50"],
                          xs=(50, 120, 380, 450)) for n in range(7)])
    columns = taught_columns(geometry(parsed), [{"model": str(n)} for n in range(1, 8)])
    assert [(c.kind, c.left) for c in columns] == [("code", 3)]  # the item numbers, at 50 of 595 pt (not 380)


def test_a_key_printed_again_in_a_column_of_figures_is_not_the_product():
    # a wholesale list: item numbers 1-7, and 'between 1 and 10 packs' printing 1 in every row beside them
    parsed = page(*[cells(n, 100 + 20 * n, [str(1 + n), f"Aceite {1 + n}", "1", "10", f"{n + 1}.50"],
                          xs=(50, 120, 380, 410, 450)) for n in range(7)])
    geo = geometry(parsed)
    found = candidates(geo, [], (TaughtColumn("code", 3, frozenset({"9"})), TaughtColumn("code", 25, frozenset({"9"}))))
    labels = labels_of(found, [{"model": str(n)} for n in range(1, 8)], geo)
    right = {(c.key, round(c.bbox[0])) for n, c in enumerate(found) if labels[n]}
    assert right == {(str(n), 50) for n in range(1, 8)}  # item 1 where the items stand, not the quantity
    assert sum(1 for c in found if c.key == "1" and round(c.bbox[0]) == 380) == 7  # read, and labelled wrong


def scanned(parsed):
    return parsed.model_copy(update={"parser_backend": "ocr"})


def test_a_scan_whose_keys_ocr_spelled_right_is_held_to_the_text_layers_review_bar():
    reader = committed_reader()
    assert reader.review_below.ocr > reader.review_below.text_layer  # scans have a higher bar of their own
    products = [{"model": f"SF-{n:04d}"} for n in range(1, 9)]
    spelled = lesson(inputs_of(scanned(price_page(1))), products)
    misspelled = lesson(inputs_of(scanned(price_page(1))), [*products, {"model": "SF-0O09"}])  # OCR's 'O' for '0'
    text = lesson(inputs_of(price_page(1)), products)
    assert (spelled.ocr_spelled, misspelled.ocr_spelled, text.ocr_spelled) == (True, False, None)
    assert Lesson.from_bytes(spelled.to_bytes()).ocr_spelled is True
    assert Lesson.from_bytes(text.to_bytes()).ocr_spelled is None
    bars = reader.after_correction.review_below  # the bars chosen for adapted readings
    assert bars is not None and bars.ocr > bars.text_layer
    trusting = adapted(reader, [spelled, text]).review_below
    assert trusting.ocr == trusting.text_layer == bars.text_layer
    assert adapted(reader, [spelled, misspelled]).review_below == bars  # one scan misread: doubt stays
    assert adapted(reader, [text]).review_below == bars  # a text layer says nothing about OCR


TEE, ELBOW = "Trójnik kołnierzowy", "Kolano dwukołnierzowe"


def fittings_page(groups: list[tuple[str, list[str]]], pictures: tuple[tuple[int, int], ...] = ()):
    """A fittings price list: each name printed once over its sizes, each size on a row of its own (20 pt apart) with
    its price; ``pictures``: the rows a picture in the names' column spans (first, last)."""
    blocks = []
    for name, prices in groups:
        for k, price in enumerate(prices):
            row = len(blocks)
            texts, xs = [f"{50 + 10 * k}/50", price], (300, 450)
            blocks.append(cells(row, 100 + 20 * row, [name, *texts] if k == 0 else texts, (50, *xs) if k == 0 else xs))
    images = [ImageRegion(image_id=f"img_{n}", bbox=(45, 95 + 20 * first, 200, 95 + 20 * (last + 1)), width_px=300,
                          height_px=300, content_hash=f"{n:064x}") for n, (first, last) in enumerate(pictures)]
    return page(*blocks).model_copy(update={"images": images})


def read_with(geo, columns, names=(TEE, ELBOW)):
    """The page's SKUs (name, price) where a reader takes exactly the taught cells printing ``names``."""
    found = candidates(geo, [], columns)
    taken = np.array([0.9 if "taught" in c.sources and c.key in names else 0.0 for c in found])
    reading = assemble(geo, found, taken, 0.5, HASH, taught=columns)
    return [(s.attributes.product_name, s.attributes.price) for s in reading.skus]


def test_a_name_a_person_gave_each_of_its_priced_rows_reads_as_one_product_a_row_on_pages_alike():
    corrected = geometry(fittings_page([(TEE, ["129,38", "170,61"]), (ELBOW, ["83,17"])]))
    per_row = [{"product_name": TEE}, {"product_name": TEE}, {"product_name": ELBOW}]
    [column] = taught_columns(corrected, per_row)
    assert column.kind == "name" and column.variants and not column.pictured  # no picture under its names
    assert not any(c.variants for c in taught_columns(corrected, [{"product_name": TEE}, {"product_name": ELBOW}]))
    assert Lesson.from_bytes(lesson(inputs_of(fittings_page([])), [], (column,)).to_bytes()).columns == (column,)
    other = geometry(fittings_page([(TEE, ["195,49", "219,66", "243,12"]), (ELBOW, ["130,80", "154,97"])]))
    assert read_with(other, (column,)) == [(TEE, "195.49"), (TEE, "219.66"), (TEE, "243.12"),
                                           (ELBOW, "130.80"), (ELBOW, "154.97")]
    assert read_with(other, (replace(column, variants=False),)) == [(TEE, "195.49"), (ELBOW, "130.80")]


def test_a_variant_row_beside_another_products_picture_is_not_the_name_above_it_where_the_person_said_so():
    # the tee's picture spans its first two rows; the next picture, no name over it, is another product's
    pictured = geometry(fittings_page([(TEE, ["195,49", "219,66", "243,12", "250,00"])], pictures=((0, 1), (2, 3))))
    [ended] = taught_columns(pictured, [{"product_name": TEE}] * 2 + [{"product_name": "Zasuwa"}] * 2)
    assert ended.variants and ended.pictured
    [going_on] = taught_columns(pictured, [{"product_name": TEE}] * 4)  # the person's tee went on past the picture
    assert going_on.variants and not going_on.pictured
    assert Lesson.from_bytes(lesson(inputs_of(fittings_page([])), [], (ended,)).to_bytes()).columns == (ended,)
    assert read_with(pictured, (ended,)) == [(TEE, "195.49"), (TEE, "219.66")]
    assert read_with(pictured, (going_on,)) == [(TEE, "195.49"), (TEE, "219.66"), (TEE, "243.12"), (TEE, "250.00")]
    column = TaughtColumn("name", 3, frozenset({"A"}), variants=True)
    # a name wrapped onto a line of its own, between its sizes' rows, goes on over the rows under it
    wrapped = page(cells(0, 100, ["Trójnik", "50/50", "195,49"], xs=(50, 300, 450)),
                   cells(1, 113, ["kołnierzowy"]), cells(2, 120, ["80/50", "219,66"], xs=(300, 450)),
                   cells(3, 140, ["100/50", "243,12"], xs=(300, 450)))
    assert read_with(geometry(wrapped), (column,), ("Trójnik",)) == [("Trójnik", "195.49"), ("Trójnik", "219.66"),
                                                                    ("Trójnik", "243.12")]


def test_what_a_person_taught_on_one_page_changes_the_reading_of_the_next():
    reader = committed_reader()
    corrected, nxt = inputs_of(price_page(1)), inputs_of(price_page(20))
    codes = np.array([c.kind == "code" and c.key.startswith("SF-") for c in nxt.found])
    before = reader.probabilities(nxt.matrix)[codes]
    assert (before >= reader.take).all()  # the committed reader takes the codes as products
    # The person says the codes are no products on this catalog (their names are): the other page follows.
    taught = lesson(corrected, [{"model": None, "product_name": c.key} for c in corrected.found if c.kind == "name"])
    assert taught.labels.any()
    changed = adapted(reader, [taught])
    after = changed.probabilities(nxt.matrix)[codes]
    assert (after < reader.take).all() and changed.version.startswith(reader.version + "+")
    assert adapted(reader, []) is reader and adapted(reader, [Lesson(taught.matrix, taught.labels * 0)]) is reader
    kept_before = Lesson(taught.matrix[:, :-1], taught.labels)  # measured by the features of an older reader
    assert adapted(reader, [kept_before]) is reader


def test_a_page_read_short_of_the_products_a_priced_row_its_correction_showed_goes_to_a_person():
    corrected = inputs_of(price_page(1))
    codes = [{"model": c.key} for c in corrected.found if c.kind == "code" and c.key.startswith("SF-")]
    taught = lesson(corrected, codes)
    assert taught.priced_share == 1.0 and Lesson.from_bytes(taught.to_bytes()).priced_share == 1.0  # 8 of 8 rows
    assert lesson(corrected, codes[:4]).priced_share == 0.5
    assert lesson(inputs_of(page(cells(0, 100, ["SF-0001"]))), [{"model": "SF-0001"}]).priced_share is None
    reader = committed_reader()
    assert adapted(reader, [taught, lesson(corrected, codes[:4])]).taught_share == 0.5  # the fewest it showed
    kind = classification("A")
    read = price_page(20)  # its 8 priced rows read as 8 products
    full = read_page(read, kind, HASH, PROFILE, reader=replace(reader, taught_share=1.0))
    assert len(full.skus) == 8 and not any(r.startswith("fewer_products") for r in full.review_reasons)
    short = read_page(read, kind, HASH, PROFILE, reader=replace(reader, taught_share=1.5)).review_reasons
    assert "fewer_products_than_taught:1.00<1.50" in short  # a correction that showed 1.5 products a priced row
    assert not any(r.startswith("fewer_products") for r in read_page(read, kind, HASH, PROFILE).review_reasons)


def test_an_adapted_reader_reads_its_scores_with_the_calibration_and_take_learned_for_corrections(tmp_path):
    corrected = inputs_of(price_page(1))
    codes = [{"model": c.key} for c in corrected.found if c.kind == "code" and c.key.startswith("SF-")]
    taught = lesson(corrected, codes)
    after = AfterCorrection(Calibration((-2.0, 0.0, 2.0), (0.05, 0.7, 0.99)), 0.45, ReviewBar(0.2, 0.7))
    reader = replace(committed_reader(), after_correction=after)
    changed = adapted(reader, [taught])
    assert (changed.calibration, changed.take, changed.after_correction) == (after.calibration, 0.45, None)
    assert changed.review_below == ReviewBar(0.2, 0.7)  # the bars chosen for corrections, not the global ones
    unbarred = replace(reader, after_correction=replace(after, review_below=None))  # trained before they were
    assert adapted(unbarred, [taught]).review_below == reader.review_below
    assert reader.repeats_doubt and not changed.repeats_doubt  # the person read the layout's repeated keys
    plain = replace(reader, after_correction=None)  # a reader trained before corrections were calibrated
    assert (adapted(plain, [taught]).calibration, adapted(plain, [taught]).take) == (plain.calibration, plain.take)
    reader.save(tmp_path / "with", {})
    plain.save(tmp_path / "without", {})
    assert load_reader(tmp_path / "with").after_correction == after
    assert load_reader(tmp_path / "without").after_correction is None


def test_a_correction_that_leaves_a_page_read_to_nothing_is_doubted_on_that_page():
    assert read_to_nothing([12, 8], [12, 0]) == [False, True]
    assert read_to_nothing([12, 8], [3, 1]) == [False, False] and read_to_nothing([0, 8], [0, 9]) == [False, False]
    assert read_to_nothing([], []) == []

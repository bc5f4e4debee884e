"""Training the reader on a small labelled corpus: labels from the truth, calibration, held-out batches,
the artifact `skuflow train` writes and the extractor loads, and the corrections export."""

import importlib.metadata
import json
import shutil
from dataclasses import replace
from pathlib import Path

import lightgbm
import numpy as np
import pymupdf
import pytest
import sqlalchemy as sa

from skuflow_classifier.domain.page_types import committed_page_types, load_page_types
from skuflow_cli.main import main as skuflow
from skuflow_cli.training import corpus
from skuflow_cli.training.corpus import PageCache, labelled_documents, parsing_code
from skuflow_cli.training.corrections import export
from skuflow_cli.training.crossval import (
    NO_BAR,
    TAKE_GRID,
    TAKE_MIN_PRECISION,
    UNFLAGGED_PRECISION,
    HeldOut,
    choose_review,
    choose_take,
    judge,
    sku_weighted_mean,
    tally,
)
from skuflow_cli.training.fit import PARAMS, averaged, isotonic, train
from skuflow_cli.training.samples import page_samples
from skuflow_collab.service import definition as collab
from skuflow_contracts.results import PageResult, SkuRecord
from skuflow_extractor.reading.adaptation import ADAPTATION_PARAMS, ADAPTATION_ROUNDS
from skuflow_extractor.reading.candidates import Candidate
from skuflow_extractor.reading.decisions import Calibration, load_reader
from skuflow_extractor.reading.labels import label, truth_keys
from skuflow_platform.db import migrate
from skuflow_platform.storage import LocalStorage

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "generated"


def test_a_candidate_is_right_when_its_key_is_a_truth_key_of_its_kind():
    models, names = truth_keys([{"model": "TB 40/120", "product_name": "Tube"},
                                 {"model": None, "product_name": "Café latte"}])
    assert (models, names) == ({"TB40/120"}, {"CAFÉLATTE"})
    assert label(Candidate("code", "tb 40/120", None, (0, 0, 1, 1)), models, names) == 1
    assert label(Candidate("name", "Tube", None, (0, 0, 1, 1)), models, names) == 0  # keyed by its code
    assert label(Candidate("name", "CAFÉ LATTE", None, (0, 0, 1, 1)), models, names) == 1


def test_the_parse_cache_is_read_again_for_the_parsing_code_not_for_the_parser_service():
    names = {"/".join(path.parts[-2:]) for path in parsing_code()}
    assert {"skuflow_parser/pages.py", "skuflow_parser/pipeline.py", "backends/ocr_backend.py"} <= names
    assert not names & {"skuflow_parser/service.py", "skuflow_parser/workers.py", "skuflow_parser/__main__.py"}


def test_the_parse_cache_is_read_again_when_a_parsing_library_moves(tmp_path, monkeypatch):
    installed = PageCache(tmp_path).fingerprint
    named = corpus.parsing_libraries()
    assert "onnxruntime==" + importlib.metadata.version("onnxruntime") in named
    assert any(name.startswith("pymupdf==") for name in named)
    monkeypatch.setattr(corpus, "parsing_libraries", lambda: [*named[:-1], "tesseract==9.9.9"])
    assert PageCache(tmp_path).fingerprint != installed


def test_the_parse_cache_is_read_again_when_a_tesseract_language_pack_comes_or_goes(tmp_path, monkeypatch):
    installed = PageCache(tmp_path).fingerprint
    monkeypatch.setattr(corpus.tesseract, "installed", lambda: frozenset({"eng", "osd"}))
    assert PageCache(tmp_path).fingerprint != installed


def test_a_worker_files_its_pages_under_the_fingerprint_the_run_started_with(tmp_path, monkeypatch):
    """A worker runs the code the run started with: an edit to the parser made meanwhile (which changes
    the fingerprint read from disk) must not file the old code's pages under the new code's name."""
    pdf = tmp_path / "one.pdf"
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "AB-510 hinge 12.50")
    pdf.write_bytes(document.tobytes())
    started = PageCache(tmp_path).fingerprint
    monkeypatch.setattr(corpus, "parsing_libraries", lambda: ["pymupdf==0.0.0"])  # the code moved meanwhile
    assert corpus._cached_pages(tmp_path, started, tmp_path / "tape", pdf) == ("one", 1)
    assert [path.name.split("-")[-1] for path in (tmp_path / "ir").iterdir()] == [f"{started}.json.gz"]


def test_pages_read_without_the_ocr_tape_are_cached_apart(tmp_path):
    """This machine's own OCR may read a scan otherwise than the tape: its pages must not stand in for the
    tape's (or the reverse) in the next run's cache."""
    pdf = tmp_path / "one.pdf"
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "AB-510 hinge 12.50")
    pdf.write_bytes(document.tobytes())
    PageCache(tmp_path, tape=None).pages(pdf)
    PageCache(tmp_path, tape=tmp_path / "tape").pages(pdf)
    assert sorted(path.name.endswith("-live.json.gz") for path in (tmp_path / "ir").iterdir()) == [False, True]


def _scanned_price_list() -> bytes:
    page = pymupdf.open()
    page.new_page().insert_text((72, 72), "AB-510 hinge 12.50", fontsize=14)
    scan = pymupdf.open()
    scan.new_page().insert_image(scan[0].rect, stream=page[0].get_pixmap(dpi=150).tobytes("png"))
    return scan.tobytes()


def test_pruning_the_ocr_tape_deletes_only_the_recordings_no_page_asks_for(tmp_path, capsys):
    """A parser change to what the engines are given (a strip filled otherwise) leaves old answers that no
    call asks for: they go, the answers the corpus's scans are read with stay and are not asked again."""
    real, golden, tape = tmp_path / "real", tmp_path / "golden", tmp_path / "tape"
    real.mkdir()
    (real / "sources.json").write_text("[]")
    golden.mkdir()
    (golden / "scan.pdf").write_bytes(_scanned_price_list())
    (golden / "scan.truth.json").write_text(json.dumps({"pages": [{"page": 1, "skus": []}]}))
    PageCache(tmp_path / "cache", tape=tape).pages(golden / "scan.pdf")  # the tape records the scan's answers
    asked = sorted(tape.glob("*/*.json.gz"))
    stale = tape / "00" / f"{'0' * 64}.json.gz"
    stale.parent.mkdir(exist_ok=True)
    stale.write_bytes(asked[0].read_bytes())
    assert skuflow(["train", "--prune-tape", "--real", str(real), "--golden", str(golden),
                    "--ocr-tape", str(tape), "--jobs", "1"]) == 0
    assert sorted(tape.glob("*/*.json.gz")) == asked and not stale.exists()
    assert "1 recordings no page asks for deleted" in capsys.readouterr().out
    (real / "sources.json").write_text(json.dumps([{"name": "gone", "committed": False, "batch": 1,
                                                    "split": "tune"}]))
    assert skuflow(["train", "--prune-tape", "--real", str(real), "--golden", str(golden),
                    "--ocr-tape", str(tape)]) == 2  # a document not rebuilt here would lose its answers


def test_isotonic_calibration_is_monotone_and_matches_the_rate_of_right_answers():
    rng = np.random.default_rng(3)
    scores = rng.random(5000)
    labels = (rng.random(5000) < scores ** 2).astype(int)  # right with probability score²
    calibration = isotonic(scores, labels)
    assert list(calibration.probabilities) == sorted(calibration.probabilities)
    assert abs(calibration(np.array([0.5]))[0] - 0.25) < 0.08 and abs(calibration(np.array([0.9]))[0] - 0.81) < 0.08


def test_the_reader_is_its_seeds_models_averaged_into_one_that_saves_loads_and_trains_on():
    rng = np.random.default_rng(5)
    matrix = rng.random((800, 4))
    labels = (matrix[:, 0] + 0.3 * rng.random(800) > 0.6).astype(int)
    seeds = [lightgbm.train({**PARAMS, "seed": seed}, lightgbm.Dataset(matrix, label=labels, params={"verbose": -1}),
                            num_boost_round=20) for seed in (1, 2, 3)]
    merged = lightgbm.Booster(model_str=averaged(seeds).model_to_string())
    mean = np.mean([b.predict(matrix, raw_score=True) for b in seeds], axis=0)
    assert merged.num_trees() == 60
    assert np.allclose(merged.predict(matrix, raw_score=True), mean, atol=1e-12)
    assert not np.allclose(seeds[0].predict(matrix, raw_score=True), mean, atol=1e-3)  # the draws differ
    more = lightgbm.train(ADAPTATION_PARAMS, lightgbm.Dataset(matrix[:50], label=labels[:50], params={"verbose": -1}),
                          num_boost_round=ADAPTATION_ROUNDS, init_model=merged)  # as a correction adapts it
    assert more.num_trees() == 60 + ADAPTATION_ROUNDS
    weights = np.ones(len(labels))
    assert train(matrix, labels, weights).model_to_string() == train(matrix, labels, weights).model_to_string()


def test_each_page_of_a_labelled_document_becomes_candidates_with_the_truths_verdict(tmp_path):
    [document] = [d for d in labelled_documents(GOLDEN, "golden") if d.name.endswith("g01_zh_price_list")]
    both = page_samples(document, PageCache(tmp_path))
    samples, bare = [s for s in both if not s.bare], [s for s in both if s.bare]
    assert [s.page for s in samples] == [s.page for s in bare] == [p["page"] for p in document.scored_pages]
    assert not any("engine" in c.sources for twin in bare for c in twin.found)  # read as if no rule had fired
    assert any("engine" in c.sources for s in samples for c in s.found)
    first = next(s for s in samples if s.truth["skus"])
    assert first.matrix.shape[0] == len(first.found) == len(first.labels)
    models, _ = truth_keys(first.truth["skus"])
    found = {c.norm for c, right in zip(first.found, first.labels, strict=True) if right}
    assert found == models & {c.norm for c in first.found} and found  # every truth key found is labelled right


def test_a_held_out_page_is_flagged_as_the_pipeline_flags_it_by_its_reading_and_by_the_classifiers_doubt(tmp_path):
    [document] = [d for d in labelled_documents(GOLDEN, "golden") if d.name.endswith("g01_zh_price_list")]
    page = next(s for s in page_samples(document, PageCache(tmp_path)) if not s.bare and s.truth["skus"])
    sure = HeldOut(replace(page, classification=page.classification.model_copy(update={"needs_review": False})),
                   page.labels.astype(float))  # the reader sure of exactly the truth's products
    assert not judge(sure, Calibration((), ()), 0.5, NO_BAR).flagged
    doubted = replace(sure, sample=replace(sure.sample, classification=sure.sample.classification.model_copy(
        update={"needs_review": True})))
    assert judge(doubted, Calibration((), ()), 0.5, NO_BAR).predicted["needs_review"]  # as the binder flags it


def test_the_review_bar_is_chosen_on_the_pages_nothing_else_flags(tmp_path):
    [document] = [d for d in labelled_documents(GOLDEN, "golden") if d.name.endswith("g01_zh_price_list")]
    page = next(s for s in page_samples(document, PageCache(tmp_path)) if not s.bare and s.truth["skus"])
    page = replace(page, classification=page.classification.model_copy(update={"needs_review": False}))
    doubted = replace(page, classification=page.classification.model_copy(update={"needs_review": True}))
    sure, fair = HeldOut(page, page.labels * 0.95), HeldOut(page, page.labels * 0.8)  # right, at 0.95 and 0.8
    wrong = HeldOut(doubted, (1 - page.labels) * 0.9)  # every wrong candidate at 0.9, flagged by the classifier
    assert judge(wrong, Calibration((), ()), 0.5, NO_BAR).flagged
    # its wrong SKUs would hold the bar at 0.95; flagged anyway, it is no page the bar decides
    assert choose_review([sure, fair, wrong], Calibration((), ()), 0.5).text_layer == 0.8


def test_the_held_out_figure_that_counts_weighs_each_batch_by_its_products(tmp_path):
    [document] = [d for d in labelled_documents(GOLDEN, "golden") if d.name.endswith("g01_zh_price_list")]
    page = next(s for s in page_samples(document, PageCache(tmp_path)) if not s.bare and s.truth["skus"])
    right = judge(HeldOut(replace(page, batch="1"), page.labels * 0.9), Calibration((), ()), 0.5, NO_BAR)
    nothing = judge(HeldOut(replace(page, batch="2"), page.labels * 0.0), Calibration((), ()), 0.5, NO_BAR)
    # two batches of one page each, the same products: F1 1.0 and 0.0 (None) weigh alike, as micro F1 does not
    assert sku_weighted_mean([right, nothing]) == {"precision": 0.5, "recall": 0.5, "f1": 0.5}


def test_the_take_keeps_sku_precision_at_its_floor_where_a_lower_one_reads_better_by_f1(tmp_path):
    [document] = [d for d in labelled_documents(GOLDEN, "golden") if d.name.endswith("g01_zh_price_list")]
    page = next(s for s in page_samples(document, PageCache(tmp_path)) if not s.bare and s.truth["skus"])
    products = np.flatnonzero(page.labels)
    scores = np.where(page.labels == 1, 0.1, 0.22)  # every wrong candidate just over the lowest take
    scores[products[:2]], scores[products[2:10]] = 0.9, 0.22  # two products sure, eight as unsure as the wrong
    held, flat = [HeldOut(replace(page, batch="1"), scores)], Calibration((), ())
    low, high = (sku_weighted_mean([judge(h, flat, t, NO_BAR) for h in held]) for t in (0.2, 0.5))
    assert low["f1"] > high["f1"] and low["precision"] < TAKE_MIN_PRECISION <= high["precision"]
    assert choose_take(held, flat) == 0.5  # of the takes that keep precision, the one nearest the middle


def small_corpus(root: Path) -> Path:
    """Three golden documents as a real set of three batches, and one more as the golden set."""
    real, golden = root / "real", root / "golden"
    (real / "committed").mkdir(parents=True)
    golden.mkdir()
    names = ["g01_zh_price_list", "g03_en_showcase", "g07_en_grid", "g02_zh_grid"]
    sources = []
    for batch, name in enumerate(names[:3], start=1):
        for suffix in (".pdf", ".truth.json"):
            shutil.copy(GOLDEN / f"{name}{suffix}", real / "committed" / f"{name}{suffix}")
        sources.append({"name": name, "batch": batch, "split": "tune", "committed": True,
                        "kind": "image-only" if batch == 3 else "born-digital"})
    (real / "sources.json").write_text(json.dumps(sources))
    for suffix in (".pdf", ".truth.json"):
        shutil.copy(GOLDEN / f"{names[3]}{suffix}", golden / f"{names[3]}{suffix}")
    return root


def test_skuflow_train_writes_a_reader_and_its_held_out_report_and_cross_validation_agrees(tmp_path, capsys):
    corpus = small_corpus(tmp_path)
    sets = ["--real", str(corpus / "real"), "--golden", str(corpus / "golden"),
            "--ocr-tape", str(REPO / "tests" / "ocr-tape")]  # the committed tape, wherever the test runs
    common = [*sets, "--cache", str(tmp_path / "cache")]
    assert skuflow(["train", *common, "--jobs", "2", "--out", str(tmp_path / "model"),
                    "--report", str(tmp_path / "cv.json")]) == 0
    assert "parsing 4 documents in 2 processes" in capsys.readouterr().err
    reader = load_reader(tmp_path / "model")
    report = json.loads((tmp_path / "cv.json").read_text())
    assert reader.version.startswith("reader-") and set(report["batches"]) == {"1", "2", "3"}
    assert (reader.take, {"text_layer": reader.review_below.text_layer, "ocr": reader.review_below.ocr}) == (
        report["take"], report["review_below"])
    assert "| SKU-weighted mean |" in (tmp_path / "cv.md").read_text()
    after = report["after_correction"]  # chosen on the batches' repeated layouts, each corrected held out
    assert after["documents"] >= 1 and reader.after_correction.take == after["take"]
    bars = reader.after_correction.review_below  # the adapted readings' own review bars, in the report too
    assert after["review_below"] == {"text_layer": bars.text_layer, "ocr": bars.ocr}
    assert "Adapted to a person's correction" in (tmp_path / "cv.md").read_text()
    nested = report["unflagged_bars_chosen_without_the_batch"]
    assert set(nested["batches"]) == {"1", "2", "3"}  # each batch under the bars chosen without it
    assert sum(b["pages"] for b in nested["batches"].values()) == nested["pages"]
    assert "| batch | bars (text layer, OCR) |" in (tmp_path / "cv.md").read_text()
    kinds = report["by_source_kind"]
    assert set(kinds) == {"born-digital", "image-only"} and kinds["image-only"]["pages"] == sum(
        b["pages"] for n, b in report["batches"].items() if n == "3")
    manifest = json.loads((tmp_path / "model" / "reader.json").read_text())["trained_on"]
    assert manifest["documents"] == 4 and set(manifest["batches"]) == {"1", "2", "3", "golden"}
    page_types = load_page_types(tmp_path / "model")  # the reader learned from pages typed by this model's kin
    assert manifest["page_types"] == page_types.version
    assert report["page_types"]["pages"] == sum(b["pages"] for b in report["batches"].values())  # real, held out
    assert "Page types held out by batch" in (tmp_path / "cv.md").read_text()
    assert skuflow(["train", *sets, "--cache", str(tmp_path / "serial"), "--jobs", "1",
                    "--out", str(tmp_path / "again"), "--report", str(tmp_path / "cv2.json")]) == 0
    assert load_reader(tmp_path / "again").version == reader.version  # deterministic, parsed in processes or not
    assert load_page_types(tmp_path / "again").version == page_types.version
    assert skuflow(["eval", "--cross-validate", "batch", *common, "--out", str(tmp_path / "cv3.json")]) == 0
    assert json.loads((tmp_path / "cv3.json").read_text())["overall"] == report["overall"]


def test_corrections_are_exported_as_labelled_pages_the_trainer_reads(database_url, tmp_path):
    migrate(database_url, collab.schema, collab.versions_dir)
    storage = LocalStorage(tmp_path / "storage")
    doc = pymupdf.open()
    for n in range(3):
        doc.new_page().insert_text((72, 72), f"page {n + 1}")
    storage.put("jobs/job-x/source.pdf", doc.tobytes())
    reviewed = PageResult(page=2, status="HUMAN_COMPLETED", page_type="A", layout="L1", needs_review=False,
                          parser_backend="pymupdf", extraction_method="table_rule", skus=[
                              SkuRecord(sku_id="s1", validity="valid", attributes={"model": "AB-1", "price": "3.00"},
                                        source_bbox=(0, 0, 1, 1), confidence=1.0)])
    engine = sa.create_engine(database_url)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM collab.human_tasks WHERE job_id = 'job-x'"))
        conn.execute(sa.text(
            "INSERT INTO collab.human_tasks (task_id, job_id, merchant_id, page, task_type, priority, status,"
            " reason, reviewed, completed_at) VALUES ('t-x', 'job-x', 'm-x', 2, 'SKU_REVIEW', 2, 'COMPLETED', 'r',"
            " CAST(:r AS jsonb), now())"), {"r": reviewed.model_dump_json()})
    engine.dispose()
    [pdf] = export(database_url, storage, tmp_path / "out", merchant="m-x", operator="ops-anna")
    assert pymupdf.open(pdf)[0].get_text().strip() == "page 2"
    [document] = labelled_documents(tmp_path / "out", "corrections")
    assert document.truth["pages"][0]["skus"][0]["model"] == "AB-1" and document.truth["pages"][0]["original_page"] == 2
    assert export(database_url, storage, tmp_path / "none", merchant="someone-else", operator="ops-anna") == []
    with engine.connect() as conn:  # who shared which merchant's pages is on record
        [audit] = conn.execute(sa.text("SELECT from_status, to_status, detail FROM collab.state_transitions"
                                       " WHERE entity = 'corrections' AND entity_id = 'm-x/job-x'"
                                       " ORDER BY id DESC LIMIT 1")).all()
    engine.dispose()
    assert (audit.from_status, audit.to_status, audit.detail["operator"], audit.detail["pages"]) == (
        "merchant", "global_training", "ops-anna", [2])


@pytest.mark.parametrize("jobs", ["0", "-2", "two"])
def test_train_refuses_a_number_of_processes_that_is_not_one_or_more(jobs, capsys):
    with pytest.raises(SystemExit) as refused:
        skuflow(["train", "--jobs", jobs])
    assert refused.value.code == 2 and "--jobs wants a number of processes" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["train"], ["eval", "--cross-validate", "batch", "--out", "cv.json"],
                                     ["eval", "--adaptation", "--out", "a.json"]])
def test_the_corpus_commands_away_from_the_repository_root_refuse_rather_than_start_a_tape_there(
        command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert skuflow(command) == 2
    assert "no OCR tape at tests/ocr-tape here" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # no tape, cache or report begun


def test_eval_without_a_set_or_with_an_unknown_split_is_refused():
    assert skuflow(["eval", "--out", "x.json"]) == 2
    with pytest.raises(SystemExit):
        skuflow(["eval", "--cross-validate", "fold", "--out", "x.json"])


def test_the_adaptation_simulation_corrects_the_first_page_of_a_repeated_layout_and_reads_the_rest(tmp_path):
    from dataclasses import replace

    from skuflow_cli.training.adaptation import after_correction, cases, outcome, relearn, report, table
    from skuflow_extractor.reading.decisions import committed_reader

    [document] = [d for d in labelled_documents(GOLDEN, "golden") if d.name.endswith("g01_zh_price_list")]
    samples = [replace(s, batch="1") for s in page_samples(document, PageCache(tmp_path))]  # as if a real batch
    [case] = cases(samples)
    assert not case.corrected.bare and case.corrected.page < min(s.page for s in case.rest)
    assert len(case.rest) >= 2 and all(s.truth["skus"] and not s.bare for s in case.rest)
    relearned = relearn(case, committed_reader())
    assert [h.sample.page for h in relearned.after] == [s.page for s in case.rest]
    after = after_correction([relearned])  # the adapted scores' calibration, chosen on the pages read again
    assert after is not None and after.take in TAKE_GRID and after_correction([]) is None
    freed = [j for j in (judge(h, after.calibration, after.take, after.review_below, relearned.repeats_doubt)
                         for h in relearned.after) if not j.flagged]
    precision = tally(freed).metrics()["sku"]["precision"]
    assert precision is None or precision >= UNFLAGGED_PRECISION  # the pages its bars leave to no one hold the goal
    share = relearned.after[0].taught_share  # the corrected page's products a priced row, on every page read again
    assert share and all(h.taught_share == share for h in relearned.after)
    short = replace(relearned, after=[replace(h, taught_share=10 * share) for h in relearned.after])
    assert all(judge(h, after.calibration, after.take, after.review_below, False).flagged for h in short.after)
    assert after_correction([short]).review_below == after.review_below  # bars answer for precision, not the check
    calibrated = after.calibration(np.concatenate([h.scores for h in relearned.after]))
    right = np.concatenate([h.sample.labels for h in relearned.after])
    assert abs(calibrated.mean() - right.mean()) < 0.05  # as often right as it says
    delivered = outcome(relearned, None)  # without the other batches' corrections, the reader's own calibration
    result = report([delivered])
    assert result["pages_read_again"] == len(case.rest) and result["after"]["f1"] is not None
    assert sum(result["still_flagged"].values()) == sum(1 for j in delivered.after if j.flagged)
    assert "before the correction" in table(result) and "Pages still flagged after the correction" in table(result)


def test_the_committed_reader_learned_from_pages_typed_as_the_committed_classifier_types_them():
    from skuflow_extractor.reading.decisions import MODEL_DIR

    trained_on = json.loads((MODEL_DIR / "reader.json").read_text())["trained_on"]
    assert trained_on["page_types"] == committed_page_types().version  # trained together by `skuflow train`

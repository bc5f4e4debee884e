"""A page's trace bundle end to end in one process, on the real Postgres: a page of a catalog parsed,
then classified, read and bound by the services' own handlers (each writes its record to the shared
store), assembled and redacted as the gateway exports it, and read again offline by ``skuflow replay``:
no difference; a recorded field altered, exactly that difference; a page changed since, a bad bundle.
A page read again with what a person's correction of another page taught replays as recorded too, from
the lessons its extraction record carries."""

import json
import uuid
from pathlib import Path

import pytest

from skuflow_binder.service import definition as binder
from skuflow_binder.service import subscriptions as binder_handlers
from skuflow_classifier.service import definition as classifier
from skuflow_classifier.service import subscriptions as classifier_handlers
from skuflow_cli.main import main
from skuflow_cli.replay import Difference, replay
from skuflow_contracts.codec import envelope_for
from skuflow_contracts.events import PageClassified, PageExtracted, PageParsed, PageReviewed
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.redaction import MASK
from skuflow_contracts.results import PageResult
from skuflow_contracts.topics import PAGE_CLASSIFIED, PAGE_EXTRACTED, PAGE_PARSED, PAGE_REVIEWED
from skuflow_contracts.traces import ClassificationTrace, ExtractionTrace, PageTraceBundle, trace_key
from skuflow_extractor.service import definition as extractor
from skuflow_extractor.service import subscriptions as extractor_handlers
from skuflow_gateway.api.traces import stored_records
from skuflow_gateway.domain.traces import assemble, exported
from skuflow_parser.pipeline import parse_and_store
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.storage import SCHEME, LocalStorage, sha256_hex
from tests.e2e.adaptation_catalog import item_catalog, item_number, truth

CATALOG = Path(__file__).parents[1] / "golden" / "handmade" / "hm02_zh_kitchen.pdf"
PAGE = 2  # five priced products beside their photos


async def handle(service, definition, topic, payload, job_id) -> None:
    _, envelope = envelope_for(payload, job_id=job_id, merchant_id="m-trace", producer="test")
    async with service.db.transaction() as conn:
        await service.handlers[topic.name](envelope, UnitOfWork(conn, envelope, definition.tables, definition.name))


def record(storage, job_id, model, page=PAGE):
    return model.model_validate_json(storage.get(SCHEME + trace_key(job_id, page, model.model_fields["stage"].default)))


def extracted_as_recorded(classified: PageClassified, storage, job_id) -> PageExtracted:
    """The extractor's event for the page, made from the record it wrote (the event it sent carries the same)."""
    read = record(storage, job_id, ExtractionTrace, classified.page)
    return classified.advance(
        PageExtracted, classification=classified.classification, extraction_method=read.extraction.method,
        skus=read.extraction.skus, review_reasons=read.extraction.review_reasons, layout=read.layout,
        reader_version=read.extraction.reader_version, reading_confidence=read.extraction.confidence,
        reading=read.reading, adapted_from=read.adapted_from)


async def classify_and_read(services, pdf: bytes, job_id: str, pages: int) -> dict[int, PageClassified]:
    """Each page of ``pdf`` parsed, classified and read by the services' handlers."""
    classifying, reading = services
    classified = {}
    for stored in parse_and_store(pdf, job_id=job_id, file_hash=sha256_hex(pdf), storage=classifying.storage):
        number = stored.page.page
        parsed = PageParsed(page=number, total_pages=pages, file_hash=sha256_hex(pdf), route="AUTO",
                            config_version="v1", ir_uri=stored.ir_uri, parser_backend=stored.page.parser_backend)
        await handle(classifying, classifier, PAGE_PARSED, parsed, job_id)
        classified[number] = parsed.advance(PageClassified, classification=record(
            classifying.storage, job_id, ClassificationTrace, number).classification)
        await handle(reading, extractor, PAGE_CLASSIFIED, classified[number], job_id)
    return classified


@pytest.fixture(scope="module")
async def processed(service_of, tmp_path_factory):
    """(store, job_id): a page of the catalog read through classifier, extractor and binder."""
    root = tmp_path_factory.mktemp("shared-store")
    job_id = f"trace-{uuid.uuid4().hex[:8]}"
    async with (service_of(classifier, classifier_handlers, root) as classifying,
                service_of(extractor, extractor_handlers, root) as reading,
                service_of(binder, binder_handlers, root) as binding):
        classified = await classify_and_read((classifying, reading), CATALOG.read_bytes(), job_id, 3)
        await handle(binding, binder, PAGE_EXTRACTED, extracted_as_recorded(classified[PAGE], reading.storage, job_id),
                     job_id)
    return LocalStorage(root), job_id


@pytest.fixture(scope="module")
async def adapted(service_of, tmp_path_factory):
    """(store, job_id): page 2 of a three-page price list read again with what a person's correction of
    page 1 taught (the committed reader takes the name every row repeats; the correction, the item
    numbers), then bound."""
    root = tmp_path_factory.mktemp("adapted-store")
    job_id = f"trace-{uuid.uuid4().hex[:8]}"
    pdf = item_catalog(root / "glass.pdf", range(1, 4)).read_bytes()
    async with (service_of(classifier, classifier_handlers, root) as classifying,
                service_of(extractor, extractor_handlers, root) as reading,
                service_of(binder, binder_handlers, root) as binding):
        classified = await classify_and_read((classifying, reading), pdf, job_id, 3)
        first = extracted_as_recorded(classified[1], reading.storage, job_id)
        template = first.skus[0]
        kept = [template.model_copy(update={"sku_id": f"{template.sku_id[:-3]}{n:03d}", "attributes":
                                            template.attributes.model_copy(update={
                                                "model": product["model"], "product_name": product["product_name"]})})
                for n, product in enumerate(truth(1), start=1)]
        result = PageResult(page=1, status="HUMAN_COMPLETED", page_type="A", layout="L1", needs_review=False,
                            parser_backend="pymupdf", extraction_method=first.extraction_method, skus=kept)
        await handle(reading, extractor, PAGE_REVIEWED, first.advance(PageReviewed, task_id=f"task-{job_id}-1",
                                                                      result=result, revision=2), job_id)
        await handle(binding, binder, PAGE_EXTRACTED, extracted_as_recorded(classified[2], reading.storage, job_id),
                     job_id)
    return LocalStorage(root), job_id


def export(processed, tmp_path, alter=None, page=PAGE) -> Path:
    storage, job_id = processed
    bundle = exported(assemble(job_id, page, stored_records(storage, job_id, page)))
    if alter:
        alter(bundle)
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle, ensure_ascii=False))
    return path


def test_the_exported_bundle_says_what_every_stage_saw_and_decided_with_prices_masked(processed, tmp_path):
    bundle = json.loads(export(processed, tmp_path).read_text())
    assert bundle["redacted"] and bundle["notes"] == []
    inputs = bundle["classification"]["inputs"]
    assert inputs["ir_uri"].startswith("local://jobs/") and len(inputs["ir_sha256"]) == 64
    assert inputs["image_hashes"] and all(uri.startswith("local://jobs/") for uri in inputs["image_uris"])
    assert bundle["classification"]["classification"]["detail"]  # features, scores, reason
    reader = bundle["extraction"]["reader"]
    skus = bundle["extraction"]["extraction"]["skus"]
    assert len(skus) == 5 and sum(c["taken"] for c in reader["candidates"]) == len(skus)
    assert all(0 <= c["probability"] <= 1 for c in reader["candidates"])
    assert {sku["attributes"]["price"] for sku in skus} <= {MASK, None} and any(s["attributes"]["price"] for s in skus)
    bindings = bundle["binding"]["result"]["bindings"]
    assert {b["sku_id"] for b in bindings} <= {s["sku_id"] for s in skus} and any(b["image_id"] for b in bindings)
    assert all(bundle[stage]["timing"]["elapsed_ms"] > 0 for stage in ("classification", "extraction", "binding"))


def test_a_replayed_bundle_reads_the_page_as_recorded(processed, tmp_path, capsys):
    storage, _ = processed
    assert main(["replay", str(export(processed, tmp_path)), "--storage", str(storage.root)]) == 0
    assert "no difference" in capsys.readouterr().out


def test_an_unredacted_bundle_compares_the_prices_too(processed):
    storage, job_id = processed
    bundle = assemble(job_id, PAGE, stored_records(storage, job_id, PAGE))
    page = ParsedPage.model_validate_json(storage.get(bundle.classification.inputs.ir_uri))
    comparison = replay(bundle, page)
    assert comparison.differences() == []
    assert any(sku["attributes"]["price"] not in (None, MASK) for sku in comparison.replayed["extraction"]["skus"])


def test_a_recorded_field_altered_is_exactly_the_difference_replay_reports(processed, tmp_path, capsys):
    storage, _ = processed
    altered = {}

    def alter(bundle):
        sku = bundle["extraction"]["extraction"]["skus"][1]
        altered.update(sku_id=sku["sku_id"], confidence=sku["confidence"])
        sku["confidence"] = 0.123

    path = export(processed, tmp_path, alter)
    bundle = PageTraceBundle.model_validate_json(path.read_bytes())
    page = ParsedPage.model_validate_json(storage.get(bundle.classification.inputs.ir_uri))
    path_of = f"extraction.skus[{altered['sku_id']}].confidence"
    assert replay(bundle, page).differences() == [Difference(path_of, 0.123, altered["confidence"])]
    assert main(["replay", str(path), "--storage", str(storage.root)]) == 1
    out = capsys.readouterr().out
    assert f"{path_of}: recorded 0.123, replayed {altered['confidence']}" in out and "1 difference(s)" in out


def test_a_page_changed_since_or_a_bundle_without_its_binding_is_refused(processed, tmp_path, capsys):
    storage, _ = processed
    path = export(processed, tmp_path, lambda bundle: bundle["classification"]["inputs"].update(ir_sha256="0" * 64))
    assert main(["replay", str(path), "--storage", str(storage.root)]) == 2
    assert "SHA-256 differs" in capsys.readouterr().err
    path = export(processed, tmp_path, lambda bundle: bundle.update(binding=None))
    assert main(["replay", str(path), "--storage", str(storage.root)]) == 2
    assert "has no binding record" in capsys.readouterr().err


def test_a_page_read_with_a_lesson_replays_as_recorded_from_the_lessons_it_carries(adapted, tmp_path, capsys):
    storage, _ = adapted
    path = export(adapted, tmp_path, page=2)
    bundle = PageTraceBundle.model_validate_json(path.read_bytes())
    read = bundle.extraction
    assert read.reading == 1 and read.adapted_from.page == 1 and read.lessons  # read again with the lesson
    assert [sku.attributes.model for sku in read.extraction.skus] == [item_number(2, n) for n in range(8)]
    assert main(["replay", str(path), "--storage", str(storage.root)]) == 0
    assert "no difference" in capsys.readouterr().out

"""``skuflow replay BUNDLE``: a page read again offline from its trace bundle, and what differs.

The page is classified, read and bound in this process by the services' own cores, with what the
bundle recorded beyond the page (the profile, the previous page's table header, the lessons an
adapted reader learnt from, the images the job had seen), and compared with what the stages
recorded: the classification, the SKUs and their fields and confidences, the bindings.

The page's IR is read from the claim-check storage the services share (``--storage``, by default
SKUFLOW_STORAGE_ROOT) at the key the bundle names, and must have the SHA-256 it recorded: an exported
bundle names the page instead of carrying its text, which would carry every price the redaction
masks. No language model is asked (seed-001b's --mock-llm): a stage the model decided (its record
shows model calls) is taken as recorded and the stages after it are run on it; any other stage is run
on the no-model path, as the services run it without a model. A redacted bundle is compared redacted:
the replay's reading is masked by the same whitelist first.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.redaction import redact
from skuflow_contracts.traces import ExtractionOutcome, PageTraceBundle
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.storage import LocalStorage, StorageError, sha256_hex

ABSENT = "(absent)"
IDENTITIES = ("sku_id", "image_id")  # list items known by these are compared by them, not by position


class BadBundle(ValueError):
    """Not a page trace bundle this replay can read again."""


@dataclass(frozen=True)
class Difference:
    path: str
    recorded: object
    replayed: object

    def __str__(self) -> str:
        return f"{self.path}: recorded {_shown(self.recorded)}, replayed {_shown(self.replayed)}"


def _shown(value: object) -> str:
    return ABSENT if value is ABSENT else json.dumps(value, ensure_ascii=False)


def differences(recorded: object, replayed: object, path: str = "") -> list[Difference]:
    """Where two JSON values differ, field by field; SKUs, images and bindings by their ids."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        return [found for key in dict.fromkeys([*recorded, *replayed])
                for found in differences(recorded.get(key, ABSENT), replayed.get(key, ABSENT),
                                         f"{path}.{key}" if path else key)]
    if isinstance(recorded, list) and isinstance(replayed, list):
        identity = _identity(recorded, replayed)
        if identity is not None:
            return [found for key in dict.fromkeys(item[identity] for item in [*recorded, *replayed])
                    for found in differences(_by(recorded, identity, key), _by(replayed, identity, key),
                                             f"{path}[{key}]")]
        if len(recorded) == len(replayed):
            return [found for n, (a, b) in enumerate(zip(recorded, replayed, strict=True))
                    for found in differences(a, b, f"{path}[{n}]")]
    return [] if recorded == replayed else [Difference(path, recorded, replayed)]


def _identity(*lists: list) -> str | None:
    """The id field every item of the lists has, once per list; None: compare by position."""
    items = [item for items in lists for item in items]
    for field in IDENTITIES:
        if items and all(isinstance(item, dict) and field in item for item in items) and all(
                len({item[field] for item in items_}) == len(items_) for items_ in lists):
            return field
    return None


def _by(items: list[dict], identity: str, key: object) -> object:
    return next((item for item in items if item[identity] == key), ABSENT)


def load_bundle(path: Path) -> PageTraceBundle:
    try:
        bundle = PageTraceBundle.model_validate_json(path.read_bytes())
    except OSError as exc:
        raise BadBundle(f"cannot read {path}: {exc.strerror}") from None
    except ValidationError as exc:
        raise BadBundle(f"{path} is not a page trace bundle: {exc.errors()[0]['msg']} at "
                        f"{'.'.join(map(str, exc.errors()[0]['loc'])) or 'the top'}") from None
    missing = [stage for stage in ("classification", "extraction", "binding") if getattr(bundle, stage) is None]
    if missing:
        raise BadBundle(f"{path} has no {' and no '.join(missing)} record: the page had not been read through "
                        "when the bundle was taken, so there is nothing to compare")
    return bundle


def page_of(bundle: PageTraceBundle, storage: LocalStorage) -> ParsedPage:
    """The page as the stages read it, from storage, checked against the hash they recorded."""
    inputs = bundle.classification.inputs
    try:
        ir = storage.get(inputs.ir_uri)
    except StorageError:
        raise BadBundle(f"the page's IR {inputs.ir_uri} is not in the storage at {storage.root} (the job's files "
                        "deleted, or another storage: --storage)") from None
    if sha256_hex(ir) != inputs.ir_sha256:
        raise BadBundle(f"the IR at {inputs.ir_uri} is not the one the bundle recorded (SHA-256 differs)")
    return ParsedPage.model_validate_json(ir)


@dataclass(frozen=True)
class Comparison:
    """What the stages recorded and what the replay read, side by side (redacted alike if the bundle is)."""

    recorded: dict
    replayed: dict

    def differences(self) -> list[Difference]:
        return differences(self.recorded, self.replayed)


def replay(bundle: PageTraceBundle, page: ParsedPage) -> Comparison:
    from skuflow_binder.domain.dedup import SeenImages
    from skuflow_binder.domain.page import bind_page
    from skuflow_classifier.domain.page_types import classify
    from skuflow_extractor.domain.tables import TableHeader
    from skuflow_extractor.lessons import adapted_to
    from skuflow_extractor.reading.adaptation import typed_as
    from skuflow_extractor.reading.pipeline import read_page

    classified, read, bound = bundle.classification, bundle.extraction, bundle.binding
    profile = classified.profile
    classification = classified.classification if classified.model.calls else classify(page, profile)
    reader, columns, page_type = adapted_to(tuple(base64.b64decode(lesson) for lesson in read.lessons)) \
        if read.lessons else (None, (), None)
    typed = typed_as(classification, page_type)  # the layout's type, where a person gave it and the classifier doubted
    if read.model.calls:
        outcome = read.extraction
    else:
        header = TableHeader.from_json(read.previous_table) if read.previous_table else None
        extraction = read_page(page, typed, classified.file_hash, profile, header, reader, taught=columns)
        outcome = ExtractionOutcome(method=extraction.method, fallback_reason=extraction.fallback_reason,
                                    review_reasons=extraction.review_reasons,
                                    reader_version=extraction.reader_version, confidence=extraction.confidence,
                                    skus=extraction.skus)
    result = bound.result
    if not bound.model.calls:
        result = bind_page(page, typed, outcome.skus, outcome.method, profile,
                           SeenImages(set(bound.seen_images), set(bound.seen_perceptual)), outcome.fallback_reason,
                           [*outcome.review_reasons, *filter(None, [read.evaluation_review])])
        result = result.model_copy(update={"reader_version": outcome.reader_version,
                                           "reading_confidence": outcome.confidence})
    recorded = _view(classified.classification.model_dump(mode="json"), read.extraction.model_dump(mode="json"),
                     bound.result.model_dump(mode="json"))
    replayed = _view(classification.model_dump(mode="json"), outcome.model_dump(mode="json"),
                     result.model_dump(mode="json"))
    return Comparison(recorded, redact(replayed) if bundle.redacted else replayed)


def _view(classification: dict, extraction: dict, result: dict) -> dict:
    """The bound page without its SKUs: they are the extraction's, compared once."""
    return {"classification": classification, "extraction": extraction,
            "binding": {key: value for key, value in result.items() if key != "skus"}}


def run_replay(args: argparse.Namespace) -> int:
    try:
        bundle = load_bundle(args.bundle)
        page = page_of(bundle, LocalStorage(args.storage or PlatformSettings().storage_root))
    except BadBundle as exc:
        print(f"skuflow replay: {exc}", file=sys.stderr)
        return 2
    comparison = replay(bundle, page)
    found = comparison.differences()
    skus = comparison.replayed["extraction"]["skus"]
    print(f"page {bundle.page} of job {bundle.job_id}: reader {bundle.extraction.extraction.reader_version}, "
          f"profile {bundle.classification.config_version}{', redacted' if bundle.redacted else ''}")
    for note in bundle.notes:
        print(f"  note: {note}")
    for difference in found:
        print(f"  {difference}")
    print(f"{len(found)} difference(s)" if found else
          f"no difference: page type {comparison.replayed['classification']['page_type']}, {len(skus)} SKUs, "
          f"{len(comparison.replayed['binding']['bindings'])} bindings as recorded")
    return 1 if found else 0


def add_replay_command(sub: argparse._SubParsersAction) -> None:
    command = sub.add_parser("replay", help="read a page again offline from its trace bundle and show what differs "
                             "(exit 0 identical, 1 different, 2 bad bundle)")
    command.add_argument("bundle", type=Path, help="a page trace bundle (GET /api/v1/jobs/{id}/pages/{n}/trace)")
    command.add_argument("--storage", type=Path, default=None,
                         help="the services' storage root holding the page's IR (default SKUFLOW_STORAGE_ROOT)")
    command.set_defaults(run=run_replay)

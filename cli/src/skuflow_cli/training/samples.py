"""Each labelled page read up to the learned decision, with the truth's verdict on every candidate.

A candidate is right when its key is a key of the page's truth (GOLDEN_FORMAT §3: the model where the
truth has one, else the name; NFKC, upper case, no spaces): a code candidate against the truth's
models, a name candidate against the names of products printed without a code. Uncertain pages
teach nothing and are left out.

Each page is also read a second time as if no rule reader had fired (``bare``): the rules are one
generator, tuned on these very pages, and on a catalog unlike any before they read little. The bare
twin teaches the decision to read from the cells alone; it is trained on, never scored.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, replace

import numpy as np

from skuflow_classifier.domain.page_types import PageTypeModel, classify
from skuflow_cli.training.corpus import Document, PageCache
from skuflow_cli.training.page_types import PageTypes
from skuflow_contracts.profile import profile_for
from skuflow_contracts.results import PageClassification, SkuRecord
from skuflow_extractor.domain.extraction import extract_page, needs_previous_page
from skuflow_extractor.reading.candidates import Candidate
from skuflow_extractor.reading.geometry import Geometry, geometry
from skuflow_extractor.reading.labels import labels_of
from skuflow_extractor.reading.pipeline import decision_inputs
from skuflow_platform.storage import sha256_hex

CONFIG_VERSION = "v1"


@dataclass
class PageSample:
    document: str
    batch: str
    page: int
    truth: dict
    page_type: str | None
    geo: Geometry
    found: list[Candidate]
    matrix: np.ndarray
    labels: np.ndarray
    engine: list[SkuRecord]  # the rule readers' SKUs: the reading before the learned decision
    file_hash: str
    bare: bool = False  # read as if no rule reader had fired (a training twin)
    kind: str = "born-digital"  # the document's source kind
    classification: PageClassification | None = None  # how the page was classified (to read it again)
    method: str | None = None  # the rule readers' method


def page_samples(document: Document, cache: PageCache, page_types: PageTypeModel | None = None) -> list[PageSample]:
    """The document's scored pages, read in order (a page may continue the previous page's table), typed
    by ``page_types`` (else by the committed model)."""
    profile = profile_for(CONFIG_VERSION)
    file_hash = sha256_hex(document.pdf.read_bytes())
    truths = {p["page"]: p for p in document.scored_pages}
    samples, previous = [], None
    for page in cache.pages(document.pdf):
        classification = classify(page, profile, page_types)
        geo = geometry(page)
        continued = previous if previous and needs_previous_page(
            page, classification, profile, geo.upright.lines) else None
        rules = extract_page(page, classification, file_hash, profile, continued, geo.upright)
        previous = rules.table
        truth = truths.get(page.page)
        if truth is None or page.status == "failed":
            continue
        for bare in (False, True):
            reading = replace(rules, skus=[], method=None) if bare else rules
            inputs = decision_inputs(page, classification, reading, geo)
            labels = labels_of(inputs.found, truth.get("skus", []), geo)
            samples.append(PageSample(document.name, document.batch, page.page, truth, classification.page_type,
                                      inputs.geo, inputs.found, inputs.matrix, labels, reading.skus, file_hash,
                                      bare, document.kind, classification, reading.method))
    return samples


def corpus_samples(documents: list[Document], cache: PageCache, page_types: PageTypes,
                   progress=sys.stderr) -> list[PageSample]:
    """Every document's pages, each typed by the model that never saw its batch, with a line of progress
    per document."""
    samples: list[PageSample] = []
    started = time.perf_counter()
    for n, document in enumerate(documents, start=1):
        samples += page_samples(document, cache, page_types.for_batch(document.batch))
        print(f"\r[{n}/{len(documents)}] {document.name[:50]:<50} {time.perf_counter() - started:6.0f} s",
              end="", file=progress, flush=True)
    print(file=progress)
    return samples

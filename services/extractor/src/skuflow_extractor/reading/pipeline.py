"""How a page's products are read: four stages, each one module, each feeding the next.

    geometry    the page as cells, rows and columns           reading/geometry.py
    candidates  every reading worth deciding on                 reading/candidates.py  (the rule readers
                                                                in ``domain/`` are one of its generators)
    decisions   how likely each candidate is a product         reading/decisions.py + features.py
    assembly    the SKUs, their confidence, the page's          reading/assembly.py

Without a trained reader (before the first ``skuflow train``) the rule readers' reading stands.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import PageClassification
from skuflow_contracts.traces import ReaderCandidate, ReaderStages
from skuflow_extractor.domain.extraction import Extraction, extract_page
from skuflow_extractor.domain.tables import TableHeader
from skuflow_extractor.reading.assembly import PageReading, assemble
from skuflow_extractor.reading.candidates import Candidate, TaughtColumn, candidates, priced_rows
from skuflow_extractor.reading.decisions import Reader, committed_reader
from skuflow_extractor.reading.features import features
from skuflow_extractor.reading.geometry import Geometry, geometry
from skuflow_platform.tracing import attributes, stage

STAGES = ("geometry", "candidates", "decisions", "assembly")
PRODUCT_PAGES = ("A", "B", "C")
SEVERAL_PRODUCTS = 3  # product photos that make a page a grid of products (a cover or a page of specs shows one or two)


@dataclass(frozen=True)
class DecisionInputs:
    """What the learned decision is asked about a page: its geometry, candidates and their features."""

    geo: Geometry
    found: list[Candidate]
    matrix: np.ndarray


def decision_inputs(page: ParsedPage, classification: PageClassification, rules: Extraction,
                    geo: Geometry | None = None, taught: tuple[TaughtColumn, ...] = ()) -> DecisionInputs:
    geo = geo or geometry(page)
    found = candidates(geo, rules.skus, taught)
    return DecisionInputs(geo, found, features(geo, found, classification, rules.method))


def product_photos(classification: PageClassification) -> int:
    return sum(1 for role in classification.image_roles.values() if role == "PRODUCT_MAIN")


def rules_page_type(classification: PageClassification) -> str | None:
    """The classifier's rules' own type of the page, where the learned type overrode it."""
    return classification.detail.get("rule_page_type")


TAUGHT_COVERAGE = 0.8  # a re-read page reading fewer products a priced row than this share of its lesson's is doubted


def review_reasons(reading: PageReading, review_below: float, page_type: str | None,
                   sku_min_confidence: float = 0.0, *, scanned: bool = False, photos: int = 0,
                   rules_type: str | None = None, taught_share: float | None = None,
                   geo: Geometry | None = None) -> list[str]:
    """Why a person should look: a reading the reader is not sure enough of; a page read to nothing
    that is a product page (by the classifier's type or by its rules', ``rules_type``: a datasheet's front
    page with its selection table, which the learned type calls prose, is not left empty on one judge's
    word), a scan, or shows several product photos (never left silently empty: OCR that misreads every
    code leaves a scan looking like a page without products, and a grid of captioned photos can pass for
    a page without any); SKUs under the merchant profile's own bar; or, read by a reader adapted to a
    correction, fewer products for the rows of the page (``geo``) printing a price than the corrected page's
    ``taught_share`` (products a priced row) shows, by more than ``TAUGHT_COVERAGE`` allows: a lesson that reads
    part of a page and nothing else doubtful, which would otherwise leave review missing the rest."""
    if not reading.skus and (page_type in PRODUCT_PAGES or rules_type in PRODUCT_PAGES or scanned
                             or photos >= SEVERAL_PRODUCTS):
        return ["nothing_read"]
    reasons = []
    if reading.confidence < review_below:
        reasons.append(f"reader_confidence:{reading.confidence:.2f}<{review_below:.2f}")
    if weak := sum(1 for sku in reading.skus if sku.confidence < sku_min_confidence):
        reasons.append(f"low_confidence_skus:{weak}")
    priced = priced_rows(geo) if taught_share and geo is not None else 0
    if priced and (share := len(reading.skus) / priced) < TAUGHT_COVERAGE * taught_share:
        reasons.append(f"fewer_products_than_taught:{share:.2f}<{taught_share:.2f}")
    return reasons


def read_page(page: ParsedPage, classification: PageClassification, file_hash: str, profile: ThresholdProfile,
              previous_table: TableHeader | None = None, reader: Reader | None = None,
              geo: Geometry | None = None, taught: tuple[TaughtColumn, ...] = ()) -> Extraction:
    """The page's SKUs: the rule readers' candidates and the cells', decided by the learned reader.
    ``geo``: the page's geometry when the caller has it already (the extractor names the page's layout
    from it before it chooses the reader); ``taught``: the columns a correction of a page of its layout
    showed holding the keys (read with the reader adapted to that correction)."""
    return read_page_staged(page, classification, file_hash, profile, previous_table, reader, geo, taught)[0]


def read_page_staged(page: ParsedPage, classification: PageClassification, file_hash: str,
                     profile: ThresholdProfile, previous_table: TableHeader | None = None, reader: Reader | None = None,
                     geo: Geometry | None = None, taught: tuple[TaughtColumn, ...] = ()
                     ) -> tuple[Extraction, ReaderStages | None]:
    """``read_page`` and what its stages weighed, for the page's trace (None: the rules' reading stood)."""
    geo = geo or geometry(page)
    with stage("rules") as span:
        rules = extract_page(page, classification, file_hash, profile, previous_table, geo.upright)
        span.set_attributes(attributes(method=rules.method, skus=len(rules.skus)))
    reader = reader or committed_reader()
    if reader is None or page.status == "failed":
        return rules, None
    with stage("candidates") as span:
        inputs = decision_inputs(page, classification, rules, geo, taught)
        span.set_attribute("skuflow.candidates", len(inputs.found))
    with stage("decisions", reader_version=reader.version):
        probability = reader.probabilities(inputs.matrix)
    with stage("assembly") as span:
        reading = assemble(inputs.geo, inputs.found, probability, reader.take, file_hash, reader.repeats_doubt,
                           taught)
        span.set_attributes(attributes(skus=len(reading.skus), confidence=reading.confidence))
    method = rules.method if rules.method not in (None, "final_fallback") else "single_stage"
    scanned = page.parser_backend == "ocr"
    bar = reader.review_below.for_page(scanned)
    reasons = review_reasons(reading, bar, classification.page_type, profile.extraction.sku_min_confidence,
                             scanned=scanned, photos=product_photos(classification),
                             rules_type=rules_page_type(classification), taught_share=reader.taught_share,
                             geo=inputs.geo)
    taken = set(reading.chosen)
    stages = ReaderStages(
        reader_version=reader.version, cells=len(inputs.geo.cells), rows=len(inputs.geo.rows),
        rules_method=rules.method, rules_skus=len(rules.skus), take=reader.take, review_below=bar,
        candidates=[ReaderCandidate(kind=c.kind, key=c.key, cell=c.cell, sources=sorted(c.sources), price=c.price,
                                    probability=round(float(probability[n]), 4), taken=n in taken)
                    for n, c in enumerate(inputs.found)])
    return replace(rules, method=method if reading.skus else rules.method, skus=reading.skus,
                   review_reasons=reasons, confidence=reading.confidence, reader_version=reader.version), stages

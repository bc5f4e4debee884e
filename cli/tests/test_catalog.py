"""The sample catalog: for a seed, the same catalog as it always gave (the e2e tests, the demo and the
benchmarks read it), and its pages drawn without a Python call per pixel, which made 60 pages take
minutes (timed in docs/history.md, not here)."""

import hashlib
import json
import sys
from pathlib import Path

import pymupdf
import pytest

from skuflow_cli.catalog import generate_catalog, truth_document

# what a reader meets in the PDF, and the truth document, as written before the speed-up
RECORDED = {(4, 7): ("2072dc6f23952fc22c32ecdaa913eb0e1c5111208f9807dcc57c7d743ddbed23",
                     "6da655dc9adcb1d7d6e98862cc4ce6bafeac5a1d1f3eebca60bdcec46deac162"),
            (5, 11): ("2d39c0fa0e1e88d81f4219d5e8a7f7cbb07930c370bdca15b87badac249f34f5",
                      "2c0b2c4665aa6b1ebd3f789b6366b443ffa964de2cbb360035e5e9be6e914f73")}


def content(pdf: Path) -> str:
    """A digest of each page's spans (text, font, size, box), images (box, pixels) and drawing: not of
    the bytes, which hold a file id drawn afresh at each save and the content streams' layout."""
    digest = hashlib.sha256()
    with pymupdf.open(pdf) as doc:
        for page in doc:
            spans = [(span["text"], span["font"], round(span["size"], 2), [round(v, 2) for v in span["bbox"]])
                     for block in page.get_text("dict")["blocks"] if block["type"] == 0
                     for line in block["lines"] for span in line["spans"]]
            images = [([round(v, 2) for v in image["bbox"]], image["digest"].hex())
                      for image in page.get_image_info(hashes=True)]
            digest.update(json.dumps([spans, images], ensure_ascii=False).encode())
            digest.update(page.get_pixmap(dpi=50).samples)
    return digest.hexdigest()


@pytest.mark.parametrize("pages, seed", sorted(RECORDED))
def test_a_seed_gives_the_same_catalog_and_truth_as_before(tmp_path, pages, seed):
    pdf = tmp_path / "c.pdf"
    truth = truth_document(generate_catalog(pdf, pages=pages, seed=seed))
    assert (content(pdf), hashlib.sha256(json.dumps(truth).encode()).hexdigest()) == RECORDED[pages, seed]


def test_a_grid_page_is_painted_without_a_python_call_per_pixel(tmp_path):
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        generate_catalog(tmp_path / "c.pdf", pages=2)  # a cover and a grid page of four pictures
    finally:
        sys.setprofile(None)
    assert calls < 100_000  # one 720×660 picture alone has 1.4 million samples

"""Writes a golden set: NAME.pdf and NAME.truth.json per planned document (GOLDEN_FORMAT §2).

The same seed gives byte-identical files: every random choice comes from seeded generators, the PDF
metadata dates are fixed and no new file ID is minted.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf

from skuflow_cli.golden import front_matter, hard_cases, layouts, pictures
from skuflow_cli.golden.blocks import Photographer
from skuflow_cli.golden.canvas import Canvas
from skuflow_cli.golden.context import Assets, PageContext, furnish, plain_area
from skuflow_cli.golden.plan import DocumentPlan, PagePlan, plan_golden_set
from skuflow_cli.golden.products import ProductLine
from skuflow_cli.golden.truth import DocumentTruth, PageTruth, bbox

DEFAULT_SEED = 20261122
DEFAULT_DOCUMENTS = 44
FIXED_DATE = "D:20261122000000Z"
PRODUCER = "skuflow golden-set generator"

BUILDERS: dict[tuple[str, str | None], Callable[[PageContext], None]] = {
    ("cover", None): front_matter.cover, ("contents", None): front_matter.contents,
    ("blank", None): front_matter.blank, ("story", None): front_matter.story,
    ("table", "L1"): layouts.table_page, ("table", "L4"): layouts.table_page,
    ("mixed", "L1"): layouts.mixed_page, ("mixed", "L3"): layouts.mixed_page,
    ("blocks", "L1"): layouts.single_column, ("blocks", "L2"): layouts.grid,
    ("blocks", "L3"): layouts.two_columns, ("blocks", "L4"): layouts.dense,
}


def generate_golden_set(out_dir: Path, *, seed: int, documents: int = DEFAULT_DOCUMENTS) -> list[Path]:
    """Write ``documents`` PDFs with their truth files into ``out_dir``; returns the PDF paths."""
    return [write_document(plan, out_dir)[0] for plan in plan_golden_set(seed, documents)]


def write_document(plan: DocumentPlan, out_dir: Path) -> tuple[Path, DocumentTruth]:
    out_dir.mkdir(parents=True, exist_ok=True)
    pdf = out_dir / f"{plan.name}.pdf"
    truth = render(plan, pdf)
    pdf.with_suffix(".truth.json").write_text(json.dumps(truth.as_json(), ensure_ascii=False, indent=1) + "\n",
                                              encoding="utf-8")
    return pdf, truth


def render(plan: DocumentPlan, path: Path) -> DocumentTruth:
    """Draw every page, then apply the hard-case treatments, then save deterministically."""
    rng = random.Random(plan.render_seed)
    style = plan.style
    assets = Assets(logo=pictures.logo(style.brand[1].split()[0], style.accent),
                    ornament=pictures.ornament(style.accent))
    products, photos = ProductLine(rng, style), Photographer(rng)
    doc = pymupdf.open()
    pages = []
    for number, page_plan in enumerate(plan.pages, start=1):
        width, height = style.page_size
        if page_plan.treatment == "rotated":
            width, height = height, width
        canvas = Canvas(doc.new_page(width=width, height=height))
        features = page_plan.features
        truth = PageTruth(number, page_plan.page_type, page_plan.layout, uncertain="uncertain_page" in features,
                          features=set(features))
        area = furnish(canvas, style, assets, number) if "repeated_logo" in features else plain_area(canvas)
        BUILDERS[page_plan.kind, page_plan.layout](PageContext(canvas, page_plan, plan, truth, products, photos,
                                                               assets, rng, area))
        canvas.close()
        pages.append(truth)
    _treat(doc, plan.pages, pages, rng)
    doc.set_metadata({"title": style.title, "author": style.brand[1], "creator": PRODUCER, "producer": PRODUCER,
                      "creationDate": FIXED_DATE, "modDate": FIXED_DATE})
    doc.save(path, garbage=4, deflate=True, no_new_id=True)
    doc.close()
    return DocumentTruth(plan.language, plan.expected_route, pages)


def _treat(doc: pymupdf.Document, plans: tuple[PagePlan, ...], truths: list[PageTruth], rng: random.Random) -> None:
    """Rotations and scans work on the drawn pages; garbling comes after font subsetting, which it must
    not disturb (it points a page at a copy of the subset font)."""
    for index, page_plan in enumerate(plans):
        if page_plan.treatment == "rotated":
            hard_cases.rotate(doc, index)
        elif page_plan.treatment == "scanned":
            skew = hard_cases.scan(doc, index, rng)
            page_rect = doc[index].rect
            for sku in truths[index].skus:
                if sku.image_bbox:
                    sku.image_bbox = bbox((pymupdf.Rect(sku.image_bbox) * skew) & page_rect)
    doc.subset_fonts()
    for index, page_plan in enumerate(plans):
        if page_plan.treatment == "garbled_text":
            hard_cases.garble(doc, index)


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, required=True, help="directory for NAME.pdf and NAME.truth.json")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--documents", type=int, default=DEFAULT_DOCUMENTS)
    parser.set_defaults(run=run_generate)


def run_generate(args: argparse.Namespace) -> int:
    """Generate the set, printing one line per document and the totals."""
    started = time.perf_counter()
    pages = skus = 0
    for plan in plan_golden_set(args.seed, args.documents):
        pdf, truth = write_document(plan, args.out)
        count = sum(len(p.skus) for p in truth.pages)
        pages, skus = pages + len(truth.pages), skus + count
        print(f"{pdf.name:<28} {len(truth.pages):>2} pages {count:>4} SKUs  {truth.expected_route:<9} "
              f"{truth.language:<5} {' '.join(truth.features)}")
    size = sum(p.stat().st_size for p in args.out.iterdir() if p.is_file())
    print(f"total: {args.documents} documents, {pages} pages, {skus} SKUs, {size / 1e6:.1f} MB, "
          f"{time.perf_counter() - started:.0f} s")
    return 0


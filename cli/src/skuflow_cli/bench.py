"""``make bench``: every performance figure of skuflow, each next to its baseline from the same run.

Figures, not assertions. Printed as a table and as ``BENCH {json}`` lines:
- in-process: bare PyMuPDF (baseline), the parser stage, the whole pipeline (50-page catalog; the median
  of three rounds timed back to back), and the
  learned reader's share of a page's reading (its stages beside the rule readers alone);
- the evaluator's time per document (50 and 500 pages, AUTO and HYBRID) next to parsing the same;
- OCR: a generated A4 scan at 150 dpi, and the committed real scans (first pages: per page, per A4 of area,
  and the peak memory of the worker process that read them; per A4 again with the int8 detector);
- through the running services: the same catalog upload-to-completed, then 1, 4 and 16 concurrent
  10-page documents with p50/p95 page latency from ``page.parsed`` to ``page.bound`` (the events'
  ``occurred_at``), the peak RSS of every service process, and the 16 documents again with a second
  replica of parser and extractor in their consumer groups (timed once both replicas have read pages).
The in-process figures come first, on a machine without the services (``make bench`` starts them
afterwards): the pipeline parses in a worker beside the reading, and idle services would share its cores.
The share of CPU time the host stole meanwhile comes last: figures taken under steal read low.
Where the services spend their CPU is ``python -m skuflow_cli.profile`` (docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pymupdf

from skuflow_classifier.domain.page_types import classify
from skuflow_cli.catalog import generate_catalog
from skuflow_cli.evaluation.golden import GoldenDocument
from skuflow_cli.evaluation.runner import run_via_services
from skuflow_cli.pipeline import extract_file
from skuflow_cli.supervisor import SERVICES, Supervisor
from skuflow_cli.supervisor import main as services
from skuflow_contracts.profile import profile_for
from skuflow_contracts.topics import PAGE_BOUND, PAGE_PARSED
from skuflow_evaluator.probe import evaluate_file
from skuflow_extractor.domain.extraction import extract_page
from skuflow_extractor.reading.decisions import committed_reader
from skuflow_extractor.reading.pipeline import read_page
from skuflow_parser.backends import ocr_backend
from skuflow_parser.backends.ocr_engines import DetModel, OcrTuning
from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.pages import ParserConfig, parse_page
from skuflow_parser.pipeline import parse_and_store
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.storage import LocalStorage, sha256_hex
from skuflow_platform.topic_reader import end_offsets, read_since

TIMING_ROUNDS = 3  # in-process timings: the machine's load moves a single one by up to 30 %


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    note: str = ""


def _timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def bare_pymupdf(pdf: Path) -> None:
    """Baseline: what PyMuPDF alone needs to read every page's text dict and image bytes."""
    with pymupdf.open(pdf) as doc:
        for page in doc:
            page.get_text("dict")
            for xref, *_ in page.get_images(full=True):
                doc.extract_image(xref)


def in_process_figures(pdf: Path, pages: int, scratch: Path) -> list[Figure]:
    """Bare PyMuPDF, the parser and the whole pipeline timed back to back in each of ``TIMING_ROUNDS`` rounds;
    each figure is its median, each ratio the median of the rounds' own ratios."""
    bare_pymupdf(pdf)  # untimed: the first figure would otherwise pay for a cold file cache and MuPDF's first use
    data = pdf.read_bytes()
    rounds = []
    for n in range(TIMING_ROUNDS):
        base = pages / _timed(lambda: bare_pymupdf(pdf))
        parser = pages / _timed(lambda: parse_and_store(data, job_id="bench", file_hash=sha256_hex(data),
                                                        storage=LocalStorage(scratch / "parser")))
        whole = pages / _timed(lambda n=n: extract_file(pdf, scratch / f"out{n}"))
        rounds.append((base, parser, whole))
    base, parser, whole = (statistics.median(r[i] for r in rounds) for i in range(3))
    to_parser, to_whole = (statistics.median(r[i] / r[0] for r in rounds) for i in (1, 2))
    return [Figure("pymupdf_bare_pages_per_s", base, "pages/s", f"baseline (median of {TIMING_ROUNDS} rounds)"),
            Figure("parser_pages_per_s", parser, "pages/s", f"{to_parser:.2f}x of bare PyMuPDF"),
            Figure("extract_in_process_pages_per_s", whole, "pages/s", f"{to_whole:.2f}x of bare PyMuPDF"),
            ]


def reader_figures(pdf: Path, pages: int, scratch: Path, pipeline_rate: float) -> list[Figure]:
    """What the learned reader adds to reading a page: the whole reading (geometry, candidates,
    decision, assembly) less the rule readers alone (its candidate generator), on parsed pages, and
    its share of the in-process pipeline's time per page."""
    data = pdf.read_bytes()
    file_hash, profile = sha256_hex(data), profile_for("v1")
    parsed = [stored.page for stored in parse_and_store(data, job_id="bench-reader", file_hash=file_hash,
                                                        storage=LocalStorage(scratch / "reader"))]
    classified = [(page, classify(page, profile)) for page in parsed]
    reader = committed_reader()
    if reader is None:
        return []
    read_page(*classified[0], file_hash, profile, reader=reader)  # untimed: the model's first use
    rules = _timed(lambda: [extract_page(page, c, file_hash, profile) for page, c in classified])
    whole = _timed(lambda: [read_page(page, c, file_hash, profile, reader=reader) for page, c in classified])
    learned = max(whole - rules, 0.0) / pages
    return [Figure("reader_ms_per_page", 1000 * learned, "ms",
                   f"{learned * pipeline_rate:.0%} of the in-process pipeline's time; rule readers "
                   f"{1000 * rules / pages:.1f} ms ({reader.version})")]


def scanned_copy(pdf: Path, out: Path, pages: int, dpi: int = 150) -> Path:
    """The first ``pages`` pages rendered to JPEG and put back as image-only pages (a scan)."""
    scan = pymupdf.open()
    with pymupdf.open(pdf) as source:
        for page in list(source)[:pages]:
            image = page.get_pixmap(dpi=dpi).tobytes("jpeg", jpg_quality=80)
            scan.new_page(width=page.rect.width, height=page.rect.height).insert_image(page.rect, stream=image)
    scan.save(out)
    return out


def ocr_figures(pdf: Path, scratch: Path, pages: int = 2) -> list[Figure]:
    scan = scanned_copy(pdf, scratch / "scan.pdf", pages)
    ocr_backend.warm_up()
    doc = open_document(scan.read_bytes())
    cache = ImageCache()
    parsed = []
    seconds = _timed(lambda: parsed.extend(parse_page(doc, i, "0" * 64, cache) for i in range(pages))) / pages
    backends = ", ".join(sorted({p.page.parser_backend for p in parsed}))
    return [Figure("ocr_seconds_per_scanned_page", seconds, "s", f"A4 at 150 dpi, backend {backends}")]


A4_AREA = 595 * 842  # points²
REAL_SCANS = Path(__file__).resolve().parents[3] / "tests" / "real" / "committed"


def _read_scans(paths: list[str], det_model: DetModel, queue: multiprocessing.Queue) -> None:
    """Child process (a parser worker's life): load the OCR models, then read the first page of each scan
    (a page costs 10-20 s: one each keeps `make bench` within its five minutes) with the ``det_model``
    detector; reports seconds, pages, their area in A4 pages and the child's peak resident memory."""
    config = ParserConfig(ocr=OcrTuning(det_model=det_model))
    ocr_backend.warm_up(config.ocr)
    cache, seconds, pages, area = ImageCache(), 0.0, 0, 0.0
    for path in paths:
        doc = open_document(Path(path).read_bytes())
        seconds += _timed(lambda doc=doc: parse_page(doc, 0, "0" * 64, cache, config))
        pages, area = pages + 1, area + doc[0].rect.width * doc[0].rect.height / A4_AREA
    queue.put((seconds, pages, area, _memory_mib("VmHWM")))


def real_scan_figures(directory: Path = REAL_SCANS) -> list[Figure]:
    """OCR on the committed real scans (image-only documents of the real set), in a fresh process: time
    per page and per A4 of page area, and the worker's peak memory; then the time per A4 again with the
    detector in 8-bit integers (``SKUFLOW_OCR_DET_MODEL=int8``), in a process of its own."""
    sources = json.loads((directory.parent / "sources.json").read_text(encoding="utf-8"))
    paths = [str(directory / f"{s['name']}.pdf") for s in sources
             if s["committed"] and s["kind"] != "born-digital" and (directory / f"{s['name']}.pdf").is_file()]
    seconds, pages, area, peak = _in_child(_read_scans, paths, "float")
    int8_seconds, *_ = _in_child(_read_scans, paths, "int8")
    return [Figure("ocr_seconds_per_real_scan_page", seconds / max(pages, 1), "s",
                   f"the first page of each of {len(paths)} committed real scans"),
            Figure("ocr_seconds_per_a4_of_real_scans", seconds / max(area, 1e-9), "s",
                   f"the same pages are {area:.1f} A4 pages of area"),
            Figure("ocr_seconds_per_a4_of_real_scans_int8_detector", int8_seconds / max(area, 1e-9), "s",
                   f"{int8_seconds / max(seconds, 1e-9):.2f}x of the float detector's"),
            Figure("ocr_worker_peak_rss", peak, "MiB", "VmHWM of the process that read them")]


def repeated(pdf: Path, out: Path, times: int, scanned: Path | None = None) -> Path:
    """``pdf`` bound ``times`` times into one document, a scanned page first if given (that makes it HYBRID)."""
    whole = pymupdf.open()
    if scanned is not None:
        with pymupdf.open(scanned) as scan:
            whole.insert_pdf(scan, from_page=0, to_page=0)
    with pymupdf.open(pdf) as source:
        for _ in range(times):
            whole.insert_pdf(source)
    whole.save(out)
    return out


def evaluator_figures(pdf: Path, scratch: Path) -> list[Figure]:
    """The evaluator's time per document (prescan, sampling, scoring; HYBRID also scores every page)
    next to the parser's time for the same document. The 500-page documents are the 50-page catalog
    ten times over, so parsing them is timed as ten parses of the 50 pages (plus the scanned page)."""
    scan = scanned_copy(pdf, scratch / "scan1.pdf", 1)
    evaluate_file(str(pdf), profile_for("v1"))  # untimed: the evaluator's first use
    parse = {name: _timed(lambda document=document, name=name: parse_and_store(
        document.read_bytes(), job_id=f"bench-{name}", file_hash=sha256_hex(document.read_bytes()),
        storage=LocalStorage(scratch / name))) for name, document in (("50p", pdf), ("scan", scan))}
    figures = []
    for name, document, parsing in (("50p", pdf, parse["50p"]),
                                    ("500p", repeated(pdf, scratch / "500.pdf", 10), 10 * parse["50p"]),
                                    ("500p_hybrid", repeated(pdf, scratch / "500h.pdf", 10, scan),
                                     10 * parse["50p"] + parse["scan"])):
        started = time.perf_counter()
        report = evaluate_file(str(document), profile_for("v1"))
        seconds = time.perf_counter() - started
        figures += [Figure(f"evaluator_{name}_seconds", seconds, "s",
                           f"{report.route}, {len(report.sampling.pages)} pages sampled, "
                           f"{len(report.page_scores)} scored; {seconds / parsing:.3f}x of parsing it"),
                    Figure(f"parser_{name}_seconds", parsing, "s", "the same document parsed in-process")]
    return figures


def _memory_mib(field: str) -> float:
    return next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
                if line.startswith(f"{field}:")) / 1024


def _in_child(target: Callable, *args: object) -> object:
    """``target(*args, queue)`` run in a freshly spawned process (a worker's own memory, no parent's
    pages), and what it put on the queue."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=target, args=(*args, queue))
    child.start()
    answer = queue.get()
    child.join()
    return answer


def _parse_reporting_rss(pdf: str, every: int, queue: multiprocessing.Queue) -> None:
    """Child process: parse the document, reporting resident memory every ``every`` pages. The peak is
    the child's own high-water mark (VmHWM): ``ru_maxrss`` keeps the bench parent's peak across the
    fork and exec that spawn the child, which made the figure 1.3 GB against samples of 0.5 GB."""
    doc = open_document(Path(pdf).read_bytes())
    cache = ImageCache()
    samples = []
    for index in range(doc.page_count):
        parse_page(doc, index, "0" * 64, cache)
        if (index + 1) % every == 0:
            samples.append(_memory_mib("VmRSS"))
    queue.put((samples, _memory_mib("VmHWM")))


def parser_rss_figures(pdf: Path, scratch: Path, copies: int = 6) -> list[Figure]:
    """The 50-page catalog six times over: a 300-page document, parsed in a child process."""
    big = scratch / "big.pdf"
    with pymupdf.open() as joined, pymupdf.open(pdf) as source:
        for _ in range(copies):
            joined.insert_pdf(source)
        joined.save(big)
    samples, peak = _in_child(_parse_reporting_rss, str(big), 50)
    return [Figure("parser_worker_peak_rss_300_pages", peak, "MiB",
                   "RSS every 50 pages: " + ", ".join(f"{s:.0f}" for s in samples))]


def _documents(directory: Path, count: int, pages: int) -> list[GoldenDocument]:
    documents = []
    for index in range(count):
        pdf = directory / f"doc-{count}-{index}.pdf"
        generate_catalog(pdf, pages=pages, seed=1000 * count + index)
        documents.append(GoldenDocument(pdf.stem, pdf, {"pages": []}))
    return documents


def _latencies(bootstrap: str, parsed_since: dict, bound_since: dict, job_ids: set[str], pages: int) -> list[float]:
    """Seconds from each page's page.parsed to its page.bound, read back from the topics."""
    def stamps(since: dict) -> dict[tuple[str, int], datetime]:
        records = asyncio.run(read_since(bootstrap, since, expect=pages, timeout=30))
        events = [json.loads(r.value) for r in records]
        return {(e["job_id"], e["payload"]["page"]): datetime.fromisoformat(e["occurred_at"])
                for e in events if e["job_id"] in job_ids}

    parsed, bound = stamps(parsed_since), stamps(bound_since)
    return [(bound[key] - parsed[key]).total_seconds() for key in parsed if key in bound]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def concurrent_figures(scratch: Path, gateway: str, concurrent: int, name: str, note: str) -> list[Figure]:
    """``concurrent`` 10-page documents in flight: pages/s and p50/p95 page latency."""
    settings = PlatformSettings()
    documents = _documents(scratch, concurrent, pages=10)
    parsed_since = asyncio.run(end_offsets(settings.kafka_bootstrap, PAGE_PARSED.name))
    bound_since = asyncio.run(end_offsets(settings.kafka_bootstrap, PAGE_BOUND.name))
    started = time.perf_counter()
    outcomes = asyncio.run(run_via_services(documents, gateway=gateway, secret=settings.jwt_secret,
                                            concurrency=concurrent))
    wall = time.perf_counter() - started
    failed = [o.error for o in outcomes if o.error]
    if failed:
        raise RuntimeError(f"{len(failed)} bench document(s) failed: {failed[0]}")
    job_ids = {o.result["job"]["job_id"] for o in outcomes}
    latencies = _latencies(settings.kafka_bootstrap, parsed_since, bound_since, job_ids, 10 * concurrent)
    return [Figure(f"{name}_pages_per_s", 10 * concurrent / wall, "pages/s", note),
            Figure(f"{name}_page_latency_p50", statistics.median(latencies), "s", "page.parsed -> page.bound"),
            Figure(f"{name}_page_latency_p95", _percentile(latencies, 0.95), "s", "page.parsed -> page.bound")]


def _warm(scratch: Path, gateway: str, documents: int) -> None:
    """Untimed: a service just started loads its models on its first page. Several short documents
    reach every replica (a job's pages stay in one partition, so one document warms one replica)."""
    directory = scratch / f"warm-{documents}"
    directory.mkdir(exist_ok=True)
    asyncio.run(run_via_services(_documents(directory, documents, pages=2), gateway=gateway,
                                 secret=PlatformSettings().jwt_secret, concurrency=documents))


def service_figures(pdf: Path, pages: int, scratch: Path, gateway: str, local_rate: float) -> list[Figure]:
    settings = PlatformSettings()
    _warm(scratch, gateway, 1)
    single = GoldenDocument(pdf.stem, pdf, {"pages": []})
    seconds = _timed(lambda: asyncio.run(run_via_services([single], gateway=gateway, secret=settings.jwt_secret)))
    rate = pages / seconds
    figures = [Figure("kafka_pipeline_pages_per_s", rate, "pages/s",
                      f"{rate / local_rate:.2f}x of in-process (upload to job completed)")]
    for concurrent in (1, 4, 16):
        figures += concurrent_figures(scratch, gateway, concurrent, f"kafka_{concurrent}doc",
                                      f"{concurrent} x 10-page documents in flight")
    return figures + rss_figures()


SCALED = ("parser", "extractor")
REPLICA_PORT_OFFSET = 100


def replica_figures(scratch: Path, gateway: str, one_replica: float) -> list[Figure]:
    """16 documents in flight again with a second replica of parser and extractor in their consumer
    groups (started here, on offset ports, stopped after), beside the figure of one replica."""
    second = Supervisor(Path(".run") / "replicas", env={}, port_offset=REPLICA_PORT_OFFSET)
    for name in SCALED:
        second.start(name)
    try:
        second.wait_ready(list(SCALED))
        time.sleep(5)  # both groups rebalance onto two members
        _warm(scratch, gateway, 8)
        figures = concurrent_figures(scratch, gateway, 16, "kafka_16doc_2replicas",
                                     f"second parser and extractor; one replica: {one_replica:.2f} pages/s")
    finally:
        for name in SCALED:
            second.stop(name)
    figures[0] = dataclasses.replace(figures[0], note=f"{figures[0].note} ({figures[0].value / one_replica:.2f}x)")
    return figures


def rss_figures() -> list[Figure]:
    """Peak resident memory (VmHWM) of each running service process."""
    supervisor = Supervisor(Path(".run") / "services", env={})
    figures = []
    for name in SERVICES:
        pid = supervisor.pid(name)
        if pid is None:
            continue
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
        figures.append(Figure(f"peak_rss_{name}", peak_kb / 1024, "MiB", "VmHWM of the service process"))
    return figures


def cpu_times() -> list[int]:
    """The machine's CPU time counters: /proc/stat's first line, user to steal."""
    return [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]


def stolen_share(before: list[int], after: list[int]) -> float:
    """The share of the machine's CPU time between two readings that the host took (steal): a virtual
    machine's figures read low under it, whatever the code does."""
    spent = [later - earlier for earlier, later in zip(before, after, strict=True)]
    return spent[7] / max(sum(spent), 1)


def _progress(step: str) -> None:
    print(f"bench: {step}…", file=sys.stderr, flush=True)


def running_services() -> list[str]:
    supervisor = Supervisor(Path(".run") / "services", env={})
    return [name for name in SERVICES if supervisor.pid(name)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skuflow_cli.bench")
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--gateway", default=None, help="running gateway URL; omit to skip the service figures")
    parser.add_argument("--start-services", action="store_true",
                        help="start the services for the service figures (left running), after the in-process "
                             "figures: the pipeline uses both cores, which idle services would share")
    args = parser.parse_args(argv)
    started = cpu_times()
    with tempfile.TemporaryDirectory(prefix="skuflow-bench-") as tmp:
        scratch = Path(tmp)
        pdf = scratch / "catalog.pdf"
        generate_catalog(pdf, pages=args.pages, seed=50)
        _progress(f"in-process pipeline on a {args.pages}-page catalog")
        figures = in_process_figures(pdf, args.pages, scratch)
        if running := running_services():  # their consumers poll even when idle
            figures[-1] = dataclasses.replace(figures[-1], note=f"{figures[-1].note}; timed with {len(running)} "
                                                                f"services running")
        local_rate = figures[-1].value  # the whole in-process pipeline
        _progress("the learned reader's share of reading a page")
        figures += reader_figures(pdf, args.pages, scratch, local_rate)
        _progress("the evaluator on 50- and 500-page catalogs")
        figures += evaluator_figures(pdf, scratch)
        _progress("OCR of scanned pages")
        figures += ocr_figures(pdf, scratch)
        _progress("OCR of the committed real scans, in a fresh worker process")
        figures += real_scan_figures()
        _progress("parser worker memory over 300 pages")
        figures += parser_rss_figures(pdf, scratch)
        if args.gateway and args.start_services:
            _progress("starting the services")
            services(["up"])
        if args.gateway:
            _progress(f"the Kafka pipeline through {args.gateway}")
            figures += service_figures(pdf, args.pages, scratch, args.gateway, local_rate)
            _progress("16 documents again with two replicas of parser and extractor")
            one_replica = next(f.value for f in figures if f.name == "kafka_16doc_pages_per_s")
            figures += replica_figures(scratch, args.gateway, one_replica)
    figures.append(Figure("host_cpu_stolen", 100 * stolen_share(started, cpu_times()), "%",
                          "of the machine's CPU time the host took meanwhile (/proc/stat steal)"))
    print(f"\n{'figure':<36} {'value':>10}  {'unit':<8} note")
    for figure in figures:
        print(f"{figure.name:<36} {figure.value:>10.2f}  {figure.unit:<8} {figure.note}")
    for figure in figures:
        print("BENCH " + json.dumps({"name": figure.name, "value": round(figure.value, 3), "unit": figure.unit,
                                     "note": figure.note}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

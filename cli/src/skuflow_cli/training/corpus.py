"""The labelled corpus: real catalogs by batch, the golden set and annotators' corrections, each
document with its truth, and its pages as the parser reads them (kept in ``.cache/reader`` by the
PDF's hash and the parser's code, since OCR'd pages take seconds each)."""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import skuflow_contracts.ir
import skuflow_parser
from skuflow_contracts.ir import ParsedPage
from skuflow_parser.backends import ocr_tape, tesseract
from skuflow_parser.domain.document import UnreadableDocument
from skuflow_parser.pipeline import parse_and_store
from skuflow_platform.storage import LocalStorage, sha256_hex

GOLDEN = "golden"  # the batch of the generated and handmade golden documents
CORRECTIONS = "corrections"  # the batch of pages annotators corrected


@dataclass(frozen=True)
class Document:
    name: str
    pdf: Path
    truth: dict
    batch: str  # "1".."16" for the real set, GOLDEN, CORRECTIONS
    split: str
    kind: str = "born-digital"  # the source kind: born-digital, image-only or phone-scan

    @property
    def scored_pages(self) -> list[dict]:
        return [page for page in self.truth["pages"] if not page.get("uncertain")]


def real_documents(real: Path) -> tuple[list[Document], list[str]]:
    """The real set's documents whose PDF is here, and the names of those whose PDF is not (external
    ones are rebuilt by ``tests/real/build.py``)."""
    found, missing = [], []
    for source in json.loads((real / "sources.json").read_text(encoding="utf-8")):
        folder = real / ("committed" if source["committed"] else "external")
        pdf = folder / f"{source['name']}.pdf"
        if not pdf.is_file():
            missing.append(source["name"])
            continue
        truth = json.loads((folder / f"{source['name']}.truth.json").read_text(encoding="utf-8"))
        found.append(Document(source["name"], pdf, truth, str(source["batch"]), source["split"],
                              source.get("kind", "born-digital")))
    return found, missing


def labelled_documents(directory: Path, batch: str) -> list[Document]:
    """Every ``NAME.pdf`` beside its ``NAME.truth.json`` below ``directory`` (golden set, corrections)."""
    documents = []
    for pdf in sorted(directory.rglob("*.pdf")):
        truth_path = pdf.with_name(pdf.stem + ".truth.json")
        if truth_path.is_file():
            truth = json.loads(truth_path.read_text(encoding="utf-8"))
            documents.append(Document(f"{batch}/{pdf.relative_to(directory).with_suffix('')}", pdf, truth, batch,
                                      truth.get("split", batch), truth.get("source_kind") or "born-digital"))
    return documents


PARSER_SERVICE_ONLY = frozenset({"__main__.py", "service.py", "tables.py", "workers.py", "migrations"})


def parsing_code() -> list[Path]:
    """The parser's modules that decide how a page reads: all of it but its Kafka service (handlers,
    tables, worker pool, migrations), whose edits do not change a parsed page."""
    root = Path(skuflow_parser.__file__).parent
    return [path for path in sorted(root.rglob("*.py")) if path.relative_to(root).parts[0] not in PARSER_SERVICE_ONLY]


# the libraries whose versions change what a page reads (a new onnxruntime or PyMuPDF moves OCR words
# and text runs), pinned in constraints.txt; Tesseract comes from Debian
PARSING_LIBRARIES = ("pymupdf", "rapidocr", "onnxruntime", "opencv-python-headless", "numpy", "pillow", "opencc")


def parsing_libraries() -> list[str]:
    """The versions of the parsing libraries and of the Tesseract program, as ``name==version``, and
    Tesseract's language packs (a scan in a script without its pack reads otherwise)."""
    return [*(f"{name}=={importlib.metadata.version(name)}" for name in PARSING_LIBRARIES),
            f"tesseract=={tesseract.version()}", f"tessdata=={'+'.join(sorted(tesseract.installed()))}"]


def _parser_fingerprint() -> str:
    """The parsing code, the IR's shape and the parsing libraries' versions: a change to any of them
    reads the pages again."""
    digest = hashlib.sha256()
    for path in [*parsing_code(), Path(skuflow_contracts.ir.__file__)]:
        digest.update(path.read_bytes())
    digest.update("\n".join(parsing_libraries()).encode())
    return digest.hexdigest()[:12]


class PageCache:
    """Parsed pages by document, read once per parser version, OCR answered by ``tape`` (None: by the
    engines themselves, cached apart)."""

    def __init__(self, root: Path, fingerprint: str | None = None, tape: Path | None = None):
        self.root, self.tape = root, tape
        self.fingerprint = fingerprint or _parser_fingerprint()

    def _path(self, file_hash: str) -> Path:
        return self.root / "ir" / f"{file_hash}-{self.fingerprint}{'' if self.tape else '-live'}.json.gz"

    def warm(self, pdfs: list[Path], jobs: int) -> None:
        """Parse the PDFs not read yet, each once, in ``jobs`` processes (largest first, so no worker is
        left with the longest at the end), one line of progress per document: after a parser change every
        corpus page is read again, tens of minutes on one core."""
        unread = sorted({pdf.resolve() for pdf in pdfs if not self._path(sha256_hex(pdf.read_bytes())).is_file()},
                        key=lambda pdf: -pdf.stat().st_size)
        if not unread:
            return
        started, progress = time.perf_counter(), sys.stderr
        held = ocr_tape.recordings(self.tape) if self.tape else 0
        print(f"parsing {len(unread)} documents in {jobs} processes", file=progress, flush=True)
        with ocr_tape.playing(self.tape), ProcessPoolExecutor(max_workers=jobs) as pool:
            reading = [pool.submit(_cached_pages, self.root, self.fingerprint, self.tape, pdf) for pdf in unread]
            for n, done in enumerate(as_completed(reading), 1):
                name, pages = done.result()
                print(f"\r[{n}/{len(unread)}] {name[:50]:<50} {pages:3d} pages {time.perf_counter() - started:6.0f} s",
                      end="", file=progress, flush=True)
        print(file=progress)
        if self.tape:
            print(f"OCR tape {self.tape}: {ocr_tape.recordings(self.tape) - held} answers recorded, {held} held "
                  "before (a recorded answer is replayed)", file=progress, flush=True)

    def pages(self, pdf: Path) -> list[ParsedPage]:
        data = pdf.read_bytes()
        file_hash = sha256_hex(data)
        cached = self._path(file_hash)
        if cached.is_file():
            return [ParsedPage.model_validate(p) for p in json.loads(gzip.decompress(cached.read_bytes()))]
        with ocr_tape.playing(self.tape):
            pages = list(_parse(data, file_hash))
        cached.parent.mkdir(parents=True, exist_ok=True)
        body = json.dumps([p.model_dump(mode="json") for p in pages], ensure_ascii=False).encode()
        tmp = cached.with_suffix(".tmp")
        tmp.write_bytes(gzip.compress(body))
        tmp.replace(cached)
        return pages


def stale_recordings(pdfs: list[Path], tape: Path, jobs: int) -> list[Path]:
    """The recordings of ``tape`` that no engine call asks for when ``pdfs`` are parsed afresh: a parser change
    to what the engines are given (a strip filled otherwise, a witness added) leaves its old answers behind."""
    with tempfile.TemporaryDirectory(prefix="skuflow-tape-") as scratch:
        heard = Path(scratch) / "heard"
        heard.touch()
        with ocr_tape.hearing(heard):
            PageCache(Path(scratch), tape=tape).warm(pdfs, jobs)
        return ocr_tape.unheard(tape, set(heard.read_text(encoding="ascii").split()))


def _cached_pages(root: Path, fingerprint: str, tape: Path | None, pdf: Path) -> tuple[str, int]:
    """In a worker process: read the PDF into the cache below ``root``, under the fingerprint of the code
    the run started with (the worker runs that code: an edit made while it runs must not name its pages)."""
    return pdf.stem, len(PageCache(root, fingerprint, tape).pages(pdf))


def _parse(data: bytes, file_hash: str) -> Iterator[ParsedPage]:
    with tempfile.TemporaryDirectory(prefix="skuflow-corpus-") as scratch:
        try:
            for stored in parse_and_store(data, job_id=f"corpus-{file_hash[:12]}", file_hash=file_hash,
                                          storage=LocalStorage(Path(scratch))):
                yield stored.page
        except UnreadableDocument:
            return

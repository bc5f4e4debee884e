"""Hostile and broken PDFs, built as bytes: what an attacker or a broken exporter uploads.

Each builder returns a whole file. ``mutations`` derives damaged variants of a valid catalog
(truncations, byte flips, spliced garbage) reproducibly from a seed.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Iterator

import pymupdf


def _pdf(objects: list[bytes], *, root: int = 1, xref: bool = True) -> bytes:
    """Assemble numbered objects into a file with a correct xref table (or none)."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    if xref:
        start = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
        out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
        out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, root, start)
    return bytes(out)


def _stream(dictionary: bytes, data: bytes) -> bytes:
    return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def _page_objects(contents: bytes = b"BT /F1 12 Tf 72 720 Td (SKU-001 19.90) Tj ET") -> list[bytes]:
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        _stream(b"", contents),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]


def deep_nesting(depth: int = 200_000) -> bytes:
    """Arrays nested ``depth`` deep in the page dictionary: a recursive reader overflows its stack."""
    objects = _page_objects()
    objects[2] = objects[2][:-2] + b" /Junk " + b"[" * depth + b"]" * depth + b" >>"
    return _pdf(objects)


def page_tree_loop() -> bytes:
    """A Pages node that lists itself as its own kid."""
    objects = _page_objects()
    objects[1] = b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>"
    return _pdf(objects)


def decompression_bomb(megabytes: int = 512) -> bytes:
    """A content stream that inflates from ~0.5 MB to ``megabytes`` of spaces."""
    packed = zlib.compressobj(9)
    chunk = b" " * (1024 * 1024)
    data = b"".join(packed.compress(chunk) for _ in range(megabytes)) + packed.flush()
    objects = _page_objects()
    objects[3] = _stream(b"/Filter /FlateDecode", data)
    return _pdf(objects)


def huge_image() -> bytes:
    """An image that declares 100,000 × 100,000 pixels of RGB (30 GB) from a tiny stream."""
    objects = _page_objects(b"q 612 0 0 792 0 0 cm /Im1 Do Q")
    objects[2] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
                  b" /Resources << /XObject << /Im1 6 0 R >> >> >>")
    objects.append(_stream(b"/Type /XObject /Subtype /Image /Width 100000 /Height 100000 /ColorSpace /DeviceRGB"
                           b" /BitsPerComponent 8 /Filter /FlateDecode", zlib.compress(b"\x00" * 100_000)))
    return _pdf(objects)


def many_pages(count: int = 5000) -> bytes:
    doc = pymupdf.open()
    for _ in range(count):
        doc.new_page(width=200, height=200)
    return doc.tobytes()


def javascript_launch() -> bytes:
    objects = _page_objects()
    objects[0] = (b"<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /Launch /F (cmd.exe) >>"
                  b" /Names << /JavaScript << /Names [(x) << /S /JavaScript /JS (app.alert(1)) >>] >> >> >>")
    return _pdf(objects)


def polyglot() -> bytes:
    """A ZIP archive with a PDF appended: both readers accept it."""
    return b"PK\x03\x04" + b"\x00" * 26 + b"%PDF-1.7 appended\n" + _pdf(_page_objects())[9:]


def no_xref() -> bytes:
    return _pdf(_page_objects(), xref=False)


def dangling_references() -> bytes:
    objects = _page_objects()
    objects[1] = b"<< /Type /Pages /Kids [3 0 R 99 0 R 100 0 R] /Count 3 >>"
    return _pdf(objects)


def valid_catalog() -> bytes:
    """A small real-looking price list page to mutate."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 80
    page.insert_text((60, y), "Item No.      Description            Price", fontsize=11)
    for n in range(1, 13):
        y += 22
        page.insert_text((60, y), f"AB-{1000 + n}      Stainless cup {n * 50} ml      {n * 3}.90", fontsize=11)
    return doc.tobytes()


def truncated(data: bytes, share: float) -> bytes:
    return data[: max(16, int(len(data) * share))]


HOSTILE: dict[str, Callable[[], bytes]] = {
    "deep_nesting": deep_nesting, "page_tree_loop": page_tree_loop,
    "decompression_bomb": decompression_bomb, "huge_image": huge_image, "many_pages": many_pages,
    "javascript_launch": javascript_launch, "polyglot": polyglot, "no_xref": no_xref,
    "dangling_references": dangling_references,
    "truncated_catalog": lambda: truncated(valid_catalog(), 0.6),
}


def mutations(seed: int, count: int) -> Iterator[tuple[str, bytes]]:
    """Damaged variants of a valid catalog: truncations, byte flips, garbage spliced in, chunks swapped."""
    rng = random.Random(seed)
    base = valid_catalog()
    for n in range(count):
        data = bytearray(base)
        kind = rng.choice(["truncate", "flip", "splice", "swap"])
        if kind == "truncate":
            data = data[: rng.randrange(16, len(data))]
        elif kind == "flip":
            for _ in range(rng.randint(1, 40)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif kind == "splice":
            at = rng.randrange(len(data))
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 2000)))
        else:
            a, b = sorted(rng.sample(range(len(data)), 2))
            data = data[:a] + data[b:] + data[a:b]
        yield f"mutation-{n:04d}-{kind}", bytes(data)

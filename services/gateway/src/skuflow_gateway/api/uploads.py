"""Receiving an upload: the multipart body is streamed to storage under a hard size cap.

Nothing is read before the caller is authenticated and the declared size is checked (the route
does both first), and no more than the limit's ``max_bytes`` of the file are ever written: a 3 GB body from
anyone costs at most the cap in disk, and an unauthenticated one costs nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import BinaryIO

from fastapi import Request
from python_multipart.multipart import MultipartParser, parse_options_header

from skuflow_gateway.domain.jobs import UploadLimits, UploadRejected

HEAD_BYTES = 2048  # enough for the %PDF- header check


@dataclass
class ReceivedFile:
    filename: str = ""
    size: int = 0
    head: bytes = b""
    digest: hashlib._Hash = field(default_factory=hashlib.sha256)
    found: bool = False

    @property
    def sha256(self) -> str:
        return self.digest.hexdigest()


@dataclass
class _Part:
    headers: dict[bytes, bytes] = field(default_factory=dict)
    name: bytes = b""
    value: bytes = b""


class _FileCollector:
    """Multipart callbacks: the first part named ``field`` goes to ``sink``; others are skipped."""

    def __init__(self, field_name: str, sink: BinaryIO, limits: UploadLimits) -> None:
        self.field_name, self.sink, self.limits = field_name.encode(), sink, limits
        self.received = ReceivedFile()
        self.part = _Part()
        self.taking = False

    def callbacks(self) -> dict:
        return {"on_part_begin": self._begin, "on_header_field": self._header_name,
                "on_header_value": self._header_value, "on_header_end": self._header_end,
                "on_headers_finished": self._headers_done, "on_part_data": self._data,
                "on_part_end": self._end}

    def _begin(self) -> None:
        self.part = _Part()

    def _header_name(self, data: bytes, start: int, end: int) -> None:
        self.part.name += data[start:end]

    def _header_value(self, data: bytes, start: int, end: int) -> None:
        self.part.value += data[start:end]

    def _header_end(self) -> None:
        self.part.headers[self.part.name.lower()] = self.part.value
        self.part.name, self.part.value = b"", b""

    def _headers_done(self) -> None:
        _, options = parse_options_header(self.part.headers.get(b"content-disposition", b""))
        self.taking = options.get(b"name") == self.field_name and not self.received.found
        if self.taking:
            self.received.filename = options.get(b"filename", b"").decode("utf-8", "replace")

    def _data(self, data: bytes, start: int, end: int) -> None:
        if not self.taking:
            return
        chunk = data[start:end]
        received = self.received
        received.size += len(chunk)
        if received.size > self.limits.max_bytes:
            raise self.limits.too_large()
        if len(received.head) < HEAD_BYTES:
            received.head += chunk[:HEAD_BYTES - len(received.head)]
        received.digest.update(chunk)
        self.sink.write(chunk)

    def _end(self) -> None:
        if self.taking:
            self.received.found, self.taking = True, False


async def receive_file(request: Request, sink: BinaryIO, *, field_name: str, limits: UploadLimits) -> ReceivedFile:
    """Stream the multipart body into ``sink``; raises UploadRejected (413, 400) as soon as it can."""
    content_type, options = parse_options_header(request.headers.get("content-type", ""))
    if content_type != b"multipart/form-data" or not options.get(b"boundary"):
        raise UploadRejected(400, f"send the PDF as multipart/form-data in a field named '{field_name}'")
    collector = _FileCollector(field_name, sink, limits)
    parser = MultipartParser(options[b"boundary"], collector.callbacks())
    async for chunk in request.stream():
        parser.write(chunk)
    parser.finalize()
    if not collector.received.found:
        raise UploadRejected(400, f"no file in a form field named '{field_name}'")
    return collector.received

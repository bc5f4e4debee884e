"""Claim-check storage: large blobs live here, events carry ``local://`` URIs and hashes.

URIs are relative to the storage root so every service (or container) can mount the shared
directory wherever it likes.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import BinaryIO

SCHEME = "local://"


class StorageError(ValueError):
    """A URI that is malformed, escapes the storage root or names nothing stored."""


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class LocalStorage:
    def __init__(self, root: Path) -> None:
        self.root = Path(root).resolve()
        self.root.mkdir(parents=True, exist_ok=True)

    def put(self, key: str, data: bytes) -> str:
        """Write atomically (temp file + rename) so a reader never sees half a blob."""
        target = self._resolve(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
        return SCHEME + key

    @contextlib.contextmanager
    def writer(self, key: str) -> Iterator[BinaryIO]:
        """Stream a blob in; it appears under ``key`` only if the block ends without an error."""
        target = self._resolve(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as handle:
                yield handle
            os.replace(tmp, target)
        except BaseException:
            os.unlink(tmp)
            raise

    def get(self, uri: str) -> bytes:
        path = self.path(uri)
        if not path.is_file():
            raise StorageError(f"nothing stored at {uri}")
        return path.read_bytes()

    def path(self, uri: str) -> Path:
        if not uri.startswith(SCHEME):
            raise StorageError(f"not a storage URI: {uri!r}")
        return self._resolve(uri[len(SCHEME):])

    def remove_tree(self, key: str) -> int:
        """Delete everything stored under ``key`` (a job's directory); returns how many files went.
        Nothing stored there is not an error: a deletion may be repeated."""
        target = self._resolve(key)
        if not target.is_dir():
            return 0
        files = sum(1 for path in target.rglob("*") if path.is_file())
        shutil.rmtree(target)
        return files

    def used_ratio(self) -> float:
        """How full the disk holding the store is (0–1)."""
        usage = shutil.disk_usage(self.root)
        return usage.used / usage.total

    def _resolve(self, key: str) -> Path:
        parts = PurePosixPath(key).parts
        if not parts or key.startswith("/") or ".." in parts:
            raise StorageError(f"storage key {key!r} is not a relative path inside the store")
        return self.root.joinpath(*parts)

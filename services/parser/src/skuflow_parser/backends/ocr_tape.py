"""Recorded OCR: what the engines answered for an image, kept so that the training corpus reads the same
on every machine.

The networks behind OCR (onnxruntime's kernels for PP-OCR, Tesseract's LSTM) compute with the CPU's
vector instructions, so another CPU can place a word a hair elsewhere or read a letter otherwise, and a
reader trained on one machine's parse was not rebuilt on the next (docs/reader.md, Reproducing). With a
tape (``SKUFLOW_OCR_TAPE``, a directory; ``skuflow train``, ``skuflow eval --cross-validate`` and
``--adaptation`` use the committed one), each engine call's answer is looked up by the image and the
call: replayed where it was recorded, recorded where it was not. Everything the parser does with the
answers still runs. The services never use a tape.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import numpy as np

TAPE_ENV = "SKUFLOW_OCR_TAPE"
HEARD_ENV = "SKUFLOW_OCR_TAPE_HEARD"  # a file each played call's key is added to (``hearing``)
T = TypeVar("T")


def tape() -> Path | None:
    """The tape this process reads with (worker processes inherit it), or None."""
    where = os.environ.get(TAPE_ENV)
    return Path(where) if where else None


@contextlib.contextmanager
def playing(directory: Path | None) -> Iterator[None]:
    """Engine calls made meanwhile (here and in processes started meanwhile) go through the tape in
    ``directory``; None: through none."""
    before = os.environ.pop(TAPE_ENV, None)
    if directory is not None:
        os.environ[TAPE_ENV] = str(directory.resolve())
    try:
        yield
    finally:
        os.environ.pop(TAPE_ENV, None)
        if before is not None:
            os.environ[TAPE_ENV] = before


@contextlib.contextmanager
def hearing(log: Path) -> Iterator[None]:
    """The key of every call played meanwhile (here and in processes started meanwhile) is added to ``log``, a
    line each: what a parse asks of the tape, so that the answers no call asks for any more can go."""
    os.environ[HEARD_ENV] = str(log.resolve())
    try:
        yield
    finally:
        os.environ.pop(HEARD_ENV, None)


def call_key(call: str, image: np.ndarray, arguments: object) -> str:
    """The call, its arguments and every pixel of its image: what the engine's answer depends on."""
    digest = hashlib.sha256(json.dumps([call, image.shape, str(image.dtype), arguments]).encode())
    digest.update(np.ascontiguousarray(image).tobytes())
    return digest.hexdigest()


def played(call: str, image: np.ndarray, arguments: object, live: Callable[[], T],
           to_json: Callable[[T], object] = lambda answer: answer,
           from_json: Callable[[object], T] = lambda data: data) -> T:
    """``live()``'s answer, from the tape where it holds this call, else asked and recorded (without a
    tape: asked). A recording is written whole or not at all, so parallel readers never see half of one."""
    directory = tape()
    if directory is None:
        return live()
    key = call_key(call, image, arguments)
    if heard := os.environ.get(HEARD_ENV):
        with open(heard, "a", encoding="ascii") as log:  # one short line, appended whole by each process
            log.write(key + "\n")
    path = _recording(directory, key)
    if path.is_file():
        return from_json(json.loads(gzip.decompress(path.read_bytes())))
    answer = live()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_bytes(gzip.compress(json.dumps(to_json(answer), ensure_ascii=False).encode(), mtime=0))
    partial.replace(path)
    return answer


RECORDING = ".json.gz"


def _recording(directory: Path, key: str) -> Path:
    """Where the answer to the call ``key`` is recorded: below a folder of its first two hex digits."""
    return directory / key[:2] / f"{key}{RECORDING}"


def _held(directory: Path) -> list[Path]:
    return sorted(directory.glob(f"*/*{RECORDING}")) if directory.is_dir() else []


def recordings(directory: Path) -> int:
    """How many answers the tape holds (to tell how many a run recorded)."""
    return len(_held(directory))


def unheard(directory: Path, heard: set[str]) -> list[Path]:
    """The tape's recordings of calls whose keys are not in ``heard`` (see ``hearing``)."""
    return [path for path in _held(directory) if path.name.removesuffix(RECORDING) not in heard]

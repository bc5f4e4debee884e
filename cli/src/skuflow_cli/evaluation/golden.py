"""Finding the documents of a golden set: every ``NAME.pdf`` next to its ``NAME.truth.json``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


class GoldenSetError(ValueError):
    """A golden directory that cannot be evaluated (missing, empty, unpaired or unreadable files)."""


@dataclass(frozen=True)
class GoldenDocument:
    name: str
    pdf: Path
    truth: dict


def load_golden_set(directory: Path) -> list[GoldenDocument]:
    if not directory.is_dir():
        raise GoldenSetError(f"{directory} is not a directory")
    documents = []
    for pdf in sorted(directory.rglob("*.pdf")):
        truth_path = pdf.with_name(pdf.stem + ".truth.json")
        if not truth_path.is_file():
            raise GoldenSetError(f"{pdf} has no truth file {truth_path.name}")
        try:
            truth = json.loads(truth_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise GoldenSetError(f"{truth_path} is not valid JSON: {exc}") from exc
        if not isinstance(truth.get("pages"), list):
            raise GoldenSetError(f"{truth_path} has no 'pages' list")
        documents.append(GoldenDocument(str(pdf.relative_to(directory).with_suffix("")), pdf, truth))
    if not documents:
        raise GoldenSetError(f"{directory} holds no PDF with a truth file")
    return documents

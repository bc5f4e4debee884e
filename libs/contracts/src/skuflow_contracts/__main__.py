"""``python -m skuflow_contracts export-schemas --out DIR``: JSON schemas of the events and of the HTTP
import's body, and an AsyncAPI document."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from faststream.kafka import KafkaBroker
from faststream.specification import AsyncAPI

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.imports import ImportedPage
from skuflow_contracts.registry import EVENTS

IMPORT_SCHEMA = "http-import.schema.json"  # committed in schemas/ for receivers


def asyncapi_document() -> dict:
    """Describe every topic and its envelope with FastStream's AsyncAPI generator."""
    broker = KafkaBroker()
    for spec in EVENTS:
        broker.publisher(
            spec.topic.name,
            title=spec.event_type,
            description=f"{spec.event_type} v{spec.schema_version}; key = job_id",
            schema=EventEnvelope[spec.payload],  # type: ignore[name-defined]
        )
    return json.loads(AsyncAPI(broker, title="skuflow events", version="1").to_specification().to_json())


def export(out: Path) -> list[Path]:
    documents = {f"{spec.topic.name}.schema.json": EventEnvelope[spec.payload].model_json_schema()  # type: ignore[name-defined]
                 for spec in EVENTS}
    documents[IMPORT_SCHEMA] = ImportedPage.model_json_schema()
    documents["asyncapi.json"] = asyncapi_document()
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, document in documents.items():
        path = out / name
        path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m skuflow_contracts")
    sub = parser.add_subparsers(dest="command", required=True)
    exporter = sub.add_parser("export-schemas", help="write JSON schemas and asyncapi.json")
    exporter.add_argument("--out", type=Path, default=Path("schemas"))
    args = parser.parse_args(argv)
    for path in export(args.out):
        print(path)


if __name__ == "__main__":
    main()

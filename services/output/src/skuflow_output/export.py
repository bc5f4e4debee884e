"""Write result.json and its images to a directory (used by the output service and the CLI)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from skuflow_contracts.results import ResultDocument


def write_result(document: ResultDocument, read_blob: Callable[[str], bytes], out_dir: Path) -> Path:
    """Export every non-duplicate image under ``images/`` and point each record's path at it."""
    images_dir = out_dir / "images"
    images_dir.mkdir(parents=True, exist_ok=True)
    pages = []
    for page in document.pages:
        images = []
        for image in page.images:
            if image.source_uri and not image.is_duplicate:
                name = f"{image.image_id}{Path(image.source_uri).suffix or '.png'}"
                (images_dir / name).write_bytes(read_blob(image.source_uri))
                image = image.model_copy(update={"path": f"images/{name}"})
            images.append(image)
        pages.append(page.model_copy(update={"images": images}))
    exported = document.model_copy(update={"pages": pages})
    target = out_dir / "result.json"
    tmp = target.with_suffix(".json.tmp")
    # no storage URIs and no links: the gateway signs links when it serves the file
    tmp.write_text(json.dumps(exported.model_dump(mode="json", exclude={"image_links": True, "pages": {"__all__": {
        "images": {"__all__": {"source_uri"}}}}}), ensure_ascii=False, indent=2))
    tmp.replace(target)
    return target

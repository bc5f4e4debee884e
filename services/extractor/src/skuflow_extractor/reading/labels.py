"""What a page's truth says of each candidate: right when its key is one of the page's product keys
(GOLDEN_FORMAT §3: the model where the product has one, else the name; NFKC, upper case, no spaces).

One meaning for the labelled corpus that trains the reader and for a page a person corrected while its
job runs (``adaptation``): a correction is a labelled page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from skuflow_extractor.reading.candidates import Candidate, normalize


def truth_keys(skus: Iterable[Mapping]) -> tuple[set[str], set[str]]:
    """The products' keys: codes, and the names of products printed without one."""
    skus = list(skus)
    models = {normalize(s["model"]) for s in skus if s.get("model")}
    names = {normalize(s["product_name"]) for s in skus if not s.get("model") and s.get("product_name")}
    return models, names


def label(candidate: Candidate, models: set[str], names: set[str]) -> int:
    return int(candidate.norm in (models if candidate.kind == "code" else names))


def labels_of(found: list[Candidate], skus: Iterable[Mapping]) -> np.ndarray:
    models, names = truth_keys(skus)
    return np.array([label(c, models, names) for c in found], dtype=np.int8)

"""What a page's truth says of each candidate: right when its key is one of the page's product keys
(GOLDEN_FORMAT §3: the model where the product has one, else the name; NFKC, upper case, no spaces),
printed where the page's products are.

One meaning for the labelled corpus that trains the reader and for a page a person corrected while its
job runs (``adaptation``): a correction is a labelled page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from skuflow_extractor.reading.candidates import Candidate, normalize
from skuflow_extractor.reading.geometry import Geometry


def truth_keys(skus: Iterable[Mapping]) -> tuple[set[str], set[str]]:
    """The products' keys: codes, and the names of products printed without one."""
    skus = list(skus)
    models = {normalize(s["model"]) for s in skus if s.get("model")}
    names = {normalize(s["product_name"]) for s in skus if not s.get("model") and s.get("product_name")}
    return models, names


def label(candidate: Candidate, models: set[str], names: set[str]) -> int:
    return int(candidate.norm in (models if candidate.kind == "code" else names))


def labels_of(found: list[Candidate], skus: Iterable[Mapping], geo: Geometry) -> np.ndarray:
    models, names = truth_keys(skus)
    labels = np.array([label(c, models, names) for c in found], dtype=np.int8)
    labels[printed_aside(found, labels, geo)] = 0
    return labels


def printed_aside(found: list[Candidate], labels: np.ndarray, geo: Geometry) -> list[int]:
    """The candidates whose key is a product's but that stand in a column printing no other product's key,
    while the key is printed again among other products' keys: a code repeated in a caption or a header
    beside its table, a quantity '1' beside the product numbered 1. The product is where the page's keys
    stand; such a printing is a figure that reads the same. Two tables side by side both printing a key
    are two columns of keys, and a name repeated down its own column (a product in several sizes) is
    that column's key: those printings stay the product's."""
    printed = [n for n, c in enumerate(found) if labels[n] and c.cell is not None]
    key = {n: (found[n].kind, found[n].norm) for n in printed}
    cell = {n: found[n].cell for n in printed}
    keys_by_column = {n: {key[m] for m in printed if cell[m] == cell[n] or geo.aligned[cell[n], cell[m]]}
                      for n in printed}
    among_keys = {key[n] for n in printed if len(keys_by_column[n]) > 1}
    return [n for n in printed if len(keys_by_column[n]) == 1 and key[n] in among_keys]

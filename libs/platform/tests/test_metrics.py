"""The platform's metric helpers: a label read from data stays bounded, and a page revision refused
for an older one counts as an INV-07 refusal while a repeat of the same revision does not."""

from prometheus_client import REGISTRY

from skuflow_contracts.revisions import machine_revision, review_revision
from skuflow_platform.metrics import CappedLabel, count_outranked


def inv_07() -> float:
    return REGISTRY.get_sample_value("invariant_violation_total", {"invariant_id": "INV-07"}) or 0.0


def test_a_capped_label_keeps_its_first_values_and_reads_later_ones_as_other():
    category = CappedLabel(2)
    assert [category(v) for v in ("shoes", "lamps", "shoes", "sofas", "lamps", "rugs")] == [
        "shoes", "lamps", "shoes", "other", "lamps", "other"]


def test_an_outranked_revision_counts_as_an_inv_07_refusal_and_a_repeat_does_not():
    before = inv_07()
    count_outranked(machine_revision(0, reading=1), review_revision(0, 0))  # a re-read after the review
    count_outranked(machine_revision(0), machine_revision(1))  # a reading of a generation a reprocess replaced
    count_outranked(machine_revision(0, reading=1), machine_revision(0, reading=1))  # the same reading again
    assert inv_07() == before + 2

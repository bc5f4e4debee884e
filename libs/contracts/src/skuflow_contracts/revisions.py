"""A page's revisions (seed-001a INV-07): each newer reading of a page outranks the one before, and
its SKUs supersede the earlier ones downstream.

A page is read by the machine once per *generation* of its job (0 at upload; a full reprocess with
a new config version starts the next), and people may then review it, again after each revert. One
number orders them all: the machine's reading of generation g is revision ``1000·g + 1`` and its
reviews follow it (``+ 1``, ``+ 2`` after a revert, …), so a review of an earlier generation never
outranks a later reading, and the delivery keys (merchant/job/r{revision}/sku) stay unique.
"""

from __future__ import annotations

GENERATION_STRIDE = 1000  # room for 998 reviews of one reading


def machine_revision(generation: int) -> int:
    return GENERATION_STRIDE * generation + 1


def review_revision(generation: int, rework: int) -> int:
    """The first review of a reading is one above it; each revert and redo adds one."""
    return machine_revision(generation) + 1 + rework


def is_review(revision: int) -> bool:
    return revision % GENERATION_STRIDE != 1

"""A page's revisions (seed-001a INV-07): each newer reading of a page outranks the one before, and
its SKUs supersede the earlier ones downstream.

A page is read by the machine once per *generation* of its job (0 at upload; a full reprocess with
a new config version starts the next), read again within the generation when a person corrects a page
of the same layout (the *reading*: 0 first, each re-read adds one), and people may then review it, again
after each revert. One number orders them all: the machine's reading r of generation g is revision
``1000·g + 100·r + 1`` and its reviews follow it (``+ 1``, ``+ 2`` after a revert, …), so a review of
an earlier generation never outranks a later reading, and the delivery keys
(merchant/job/r{revision}/sku) stay unique. Within a generation a person's review outranks every
machine reading, whatever their numbers: a learned re-read never overwrites a reviewed page.
"""

from __future__ import annotations

GENERATION_STRIDE = 1000  # room for 10 readings of a page in a generation
READING_STRIDE = 100  # room for 98 reviews of one reading
MAX_READING = GENERATION_STRIDE // READING_STRIDE - 1


def machine_revision(generation: int, reading: int = 0) -> int:
    if not 0 <= reading <= MAX_READING:
        raise ValueError(f"reading {reading} is outside 0..{MAX_READING}")
    return GENERATION_STRIDE * generation + READING_STRIDE * reading + 1


def review_revision(generation: int, rework: int, reading: int = 0) -> int:
    """The first review of a reading is one above it; each revert and redo adds one."""
    return machine_revision(generation, reading) + 1 + rework


def is_review(revision: int) -> bool:
    return revision % READING_STRIDE != 1


def generation_of(revision: int) -> int:
    return revision // GENERATION_STRIDE


def outranks(new: int, old: int) -> bool:
    """Whether revision ``new`` replaces ``old``: a later generation always; within one, a review
    outranks every machine reading, and otherwise the higher number (a later reading, a later review)."""
    if generation_of(new) != generation_of(old):
        return generation_of(new) > generation_of(old)
    if is_review(new) != is_review(old):
        return is_review(new)
    return new > old

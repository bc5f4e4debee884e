"""A state machine as one table of moves, (status, trigger) → status, checked where it is declared.

Services keep their entities' lifecycles (job, page, SKU, image) as data, so what may happen to an
entity can be read in one place and tested move by move; nothing sets a status except through
``Machine.fire``. ``ANY`` as the from-status stands for every status that is not final.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

ANY = "*"


class Refused(Exception):
    """The entity cannot make this move from its status."""

    def __init__(self, entity: str, status: str | None, trigger: str) -> None:
        super().__init__(f"a {status or 'new'} {entity} cannot '{trigger}'")
        self.entity, self.status, self.trigger = entity, status, trigger


@dataclass(frozen=True)
class Machine:
    entity: str
    states: tuple[str, ...]
    final: frozenset[str]
    moves: Mapping[tuple[str | None, str], str]

    def __post_init__(self) -> None:
        known = set(self.states) | {None, ANY}
        bad = [(f, t, to) for (f, t), to in self.moves.items() if f not in known or to not in self.states]
        if bad or not self.final <= set(self.states):
            raise ValueError(f"{self.entity} machine names unknown states: {bad or sorted(self.final)}")

    def fire(self, status: str | None, trigger: str) -> str:
        """The status after ``trigger``; Refused when the table has no such move."""
        to = self.moves.get((status, trigger))
        if to is None and status is not None and status not in self.final:
            to = self.moves.get((ANY, trigger))
        if to is None:
            raise Refused(self.entity, status, trigger)
        return to

    def path(self, status: str | None, triggers: list[str]) -> list[tuple[str | None, str, str]]:
        """Each (from, trigger, to) of firing ``triggers`` in turn; Refused if any move is refused,
        so a caller writes all of the moves or none."""
        moves = []
        for trigger in triggers:
            after = self.fire(status, trigger)
            moves.append((status, trigger, after))
            status = after
        return moves

    def sources(self, trigger: str) -> list[str]:
        """Every status ``trigger`` may fire from, for moving many entities in one statement."""
        return [status for status in self.states if self.can(status, trigger)]

    def can(self, status: str | None, trigger: str) -> bool:
        try:
            self.fire(status, trigger)
        except Refused:
            return False
        return True

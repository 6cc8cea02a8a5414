"""Classic's decisions as a search judges them: one per turn, from the mover's view.

A classic turn is one decision (the card, where it goes, where the next card comes from) and
the players take turns, the first player first; what the mover knew is the record cut down to
their seat (:func:`lcn.games.classic.sampler.infoset_from_record`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import Point
from .sampler import InfoSet, infoset_from_record

if TYPE_CHECKING:
    from ...model import GameRecord
    from ...variants.classic import ClassicVariant


class ClassicJudge:
    """The :class:`lcn.games.Judge` of a classic card set."""

    def __init__(self, variant: ClassicVariant) -> None:
        self.variant = variant

    def points(self, record: GameRecord) -> list[Point]:
        return [Point(index + 1, 0, index % 2, turn.text) for index, turn in enumerate(record.turns)]

    def view(self, record: GameRecord, point: Point | None) -> tuple[InfoSet, int | None]:
        config = self.variant.config_for(record)[0]
        if point is None:
            turns = len(record.turns)
            return infoset_from_record(record, turns % 2, config=config, turns=turns), None
        infoset = infoset_from_record(record, point.seat, config=config, turns=point.turn - 1)
        # A draw named by its card (``/d=R7``) is the plain draw on a full state.
        return infoset, infoset.tables.move(point.played.split("=", 1)[0])


def judge(variant: ClassicVariant) -> ClassicJudge:
    return ClassicJudge(variant)

"""Classic's decisions as a search judges them: one per turn, from the mover's view.

A classic turn is one decision (the card, where it goes, where the next card comes from) and
the players take turns, the first player first; what the mover knew is the record cut down to
their seat (:func:`lcn.games.classic.sampler.infoset_from_record`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import OpenCards, Point
from .core import ClassicCore
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


    def open_view(self, record: GameRecord, point: Point) -> tuple[OpenCards, int]:
        """The position before ``point`` with every card known: the record's whole deal
        (``Hand1``, ``Hand2`` and ``Deck``, the draw pile from the top down) played up to it."""
        config = self.variant.config_for(record)[0]
        tags = record.tags
        missing = [tag for tag in ("Hand1", "Hand2", "Deck") if not tags.get(tag)]
        if missing:
            raise ValueError(f"the open-cards view needs the whole deal; the record has no "
                             f"{' or '.join(missing)} tag")
        hands = [str(tags["Hand1"]).split(), str(tags["Hand2"]).split()]
        deck = str(tags["Deck"]).split()
        if len(hands[0]) + len(hands[1]) + len(deck) != config.total_cards:
            raise ValueError(f"the open-cards view needs the whole deal; the Hand1, Hand2 and "
                             f"Deck tags give {len(hands[0]) + len(hands[1]) + len(deck)} of the "
                             f"{config.total_cards} cards")
        core = ClassicCore.deal(config, hands, deck)
        tables = core.tables
        for turn in record.turns[:point.turn - 1]:
            if core.step(tables.move(turn.text.split("=", 1)[0])):
                raise ValueError(f"turn {turn.text} does not follow from the deal")
        seen = infoset_from_record(record, point.seat, config=config, turns=point.turn - 1)
        return OpenCards(point.seat, core, seen.reason), tables.move(point.played.split("=", 1)[0])


def judge(variant: ClassicVariant) -> ClassicJudge:
    return ClassicJudge(variant)

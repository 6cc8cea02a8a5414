"""Rivals' decisions as a search judges them: the words a player chose, from what they saw.

A Rivals turn is several words, written by several players: the calls of an auction, each
by the player whose call it is, then the winner's placements and return to the box, then the
uncover that ends the turn. Each word a player chose is a decision: the opening bid or the
uncover instead (whether to open an auction at all), every call, every placement, the return,
and the winner's uncover (to place no more). The card the uncover brings is chance, not
chosen; and a word that was the only legal one (an uncover with nothing in the display, a
pass without the gold to raise, the uncover after a return) is no decision and is not judged.

Every seat knows the same (:mod:`lcn.games.rivals.sampler`: everything but the order of the
cards not yet uncovered), so what the decider knew is the record cut down to the table's view
and replayed up to the word. The uncover is the search's one move :data:`UNCOVER` on every
deal; its word names the card the record says came (the turn's own uncover, or the piles'
next card when the record gives them), which names the decision and plays no part in it.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from .. import OpenCards, Point
from .core import CARD_IDS, MORE, NAMES, PLACE, TO_BOX, turn_words
from .sampler import UNCOVER, InfoSet, infoset_from_record, turn_starts

if TYPE_CHECKING:
    from ...model import GameRecord
    from ...variants.rivals import RivalsVariant

#: Card names in any letter case, as the tags and the uncovers may write them.
_FOLDED = {name.casefold(): card for name, card in CARD_IDS.items()}


def _uncovered(word: str) -> int | None:
    """The card of an uncover word (``up:R7``, ``up:R7>box``), or None for another word."""
    key, colon, card = word.partition(":")
    if not colon or key.casefold() != "up":
        return None
    return _FOLDED.get(card.casefold().removesuffix(">box"))


def _next_card(record: GameRecord, infoset: InfoSet) -> int:
    """The card the piles' tags say comes next, when the record gives that pile; else -1
    (the uncover's word then names the first card that may come)."""
    tag = record.tags.get(f"Pile{infoset.pile + 1}")
    if tag is None or not infoset.unseen:
        return -1
    cards = str(tag).split()
    place = infoset.sizes[infoset.pile] - infoset.left
    card = _FOLDED.get(cards[place].casefold(), -1) if 0 <= place < len(cards) else -1
    return card if card in infoset.unseen else -1


class RivalsJudge:
    """The :class:`lcn.games.Judge` of Lost Cities: Rivals."""

    def __init__(self, variant: RivalsVariant) -> None:
        self.variant = variant

    def points(self, record: GameRecord) -> list[Point]:
        found: list[Point] = []
        for index, (turn, start) in enumerate(zip(record.turns, turn_starts(record, 0), strict=False)):
            core = start.dealt(list(start.unseen))
            for place, word in enumerate(turn_words(turn.text)):
                if core.is_over():
                    break
                seat = core.actor()
                if len(core.legal_moves()) > 1:
                    found.append(Point(index + 1, place, seat, word))
                move = core.move(word)
                if move == UNCOVER or core.step(move):
                    break  # the turn's end (a broken word is the validator's to report)
        return found

    def view(self, record: GameRecord, point: Point | None) -> tuple[InfoSet, int | None]:
        if point is None:
            turns = len(record.turns)
            written = turn_words(record.turns[-1].text) if turns else []
            if written and _uncovered(written[-1]) is None:
                # The last turn is being written: the position within it.
                infoset = infoset_from_record(record, 0, turns=turns - 1, words=len(written))
            else:
                infoset = infoset_from_record(record, 0)
            infoset = dataclasses.replace(infoset, seat=infoset.to_move(),
                                          shown=_next_card(record, infoset))
            return infoset, None
        infoset = infoset_from_record(record, point.seat, turns=point.turn - 1, words=point.word)
        if infoset.to_move() != point.seat:
            raise ValueError(f"word {point.word + 1} of turn {point.turn} is not seat {point.seat + 1}'s")
        written = turn_words(record.turns[point.turn - 1].text)
        shown = _uncovered(written[-1]) if written else None
        if shown is None or shown not in infoset.unseen:
            shown = _next_card(record, infoset)
        move = infoset.tables.move(point.played)
        if move < PLACE or move >= TO_BOX:
            move = UNCOVER
        elif MORE <= move < MORE + len(NAMES) and move - MORE < infoset.last:
            # A card placed out of card order: the same cards as in order, which is all the
            # core lists; every placement is offered here, so that the one made is judged.
            infoset = dataclasses.replace(infoset, last=-1)
        return dataclasses.replace(infoset, shown=shown), move


    def open_view(self, record: GameRecord, point: Point) -> tuple[OpenCards, int]:
        """The position before ``point`` with every card known: the piles' order from the
        record's ``Pile`` tags, which must give every pile."""
        infoset, move = self.view(record, point)
        assert move is not None
        order: list[int] = []
        for index in range(infoset.pile, len(infoset.sizes)):
            tag = record.tags.get(f"Pile{index + 1}")
            if tag is None:
                raise ValueError(f"the open-cards view needs the order of the piles; the record has "
                                 f"no Pile{index + 1} tag")
            cards = [_FOLDED.get(name.casefold(), -1) for name in str(tag).split()]
            order.extend(cards[infoset.sizes[index] - infoset.left:] if index == infoset.pile else cards)
        if sorted(order) != sorted(infoset.unseen):
            raise ValueError("the Pile tags do not give the cards still to come in this position")
        return OpenCards(point.seat, infoset.dealt(order[::-1]), infoset.reason), move


def judge(variant: RivalsVariant) -> RivalsJudge:
    return RivalsJudge(variant)


__all__ = ["RivalsJudge", "judge"]

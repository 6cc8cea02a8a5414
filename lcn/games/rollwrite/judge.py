"""Roll & Write's decisions as a search judges them: each word a player chooses on a roll.

A turn is a roll, which is chance, then each player's choice in the record's word order, the
roller first; a choice that accelerates (``Ada:R6>R>Y+``) is several words, each a decision
of its own (``Ada:R6>``, ``R>``, ``Y+``: :func:`~lcn.games.rollwrite.core.pieces`), as the
core plays them. So a decision is one of those words, numbered within its turn as the core
reads the turn: the roll is word 0 and the words chosen after it count on from 1 (the
``bridge:``, ``exhausted:`` and ``end`` the rules decide by themselves are no decisions).

Nothing is hidden between players but the dice to come (``sampler``): what the chooser knew
is the public position just before the word, the turn's roll included. The one thing a
record may not say is the sheet's layout, which the players saw printed from the start. So
a decision is judged on the layout as the *whole* record shows it: the ``Sheet`` tag (and
a layout the engine is given), and every box some player fills in the game, whose marks
tell what it carries (RW-LAYOUT-CONSISTENT). A box the record never fills is judged as a
plain box, with neither arrow nor artefact: the search does not credit a move with points
that the printed sheet may not give, and a word it suggests is one a record may write there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...model import GameRecord
from ...variants.rollwrite import BoxKind
from .. import Point
from .core import RollWriteCore, Rule, decode, layout_of, parse_roll, pieces, sheet_for
from .sampler import InfoSet

if TYPE_CHECKING:
    from ...variants.rollwrite import RollWriteVariant

#: A roll as written, in any order and letter case: a turn's first word once it is rolled.
_ROLL = re.compile(r"[ROYGBP]{3}[0-9]{3}", re.IGNORECASE)
#: The words of a turn that the rules write by themselves.
_KEYWORDS = frozenset({"bridge", "exhausted"})


def _rolled(text: str) -> bool:
    words = text.split()
    return bool(words) and _ROLL.fullmatch(words[0]) is not None


class RollWriteJudge:
    """The :class:`lcn.games.Judge` of Roll & Write (any number of players, any layout)."""

    def __init__(self, variant: RollWriteVariant) -> None:
        self.variant = variant

    def _start(self, record: GameRecord) -> RollWriteCore:
        """The record's game at its start on the layout the whole record shows (the module's
        doc says why), the boxes it never fills plain; the rolls its turns write known."""
        turns = record.turns
        if turns and not _rolled(turns[-1].text):
            turns = turns[:-1]  # the last turn's roll still being written
        shown = RollWriteCore.from_record(GameRecord(tags=record.tags, turns=list(turns)), self.variant)
        for turn in turns:
            shown.play_turn(turn.text)
        layout = {colour: [BoxKind(bool(box.arrow), bool(box.artefact)) for box in boxes]
                  for colour, boxes in layout_of(shown).items()}
        return RollWriteCore(shown.players, sheet_for(layout), [decode(code) for code in shown.rolls],
                             shown.tokens)

    def _walk(self, record: GameRecord, core: RollWriteCore) -> Iterator[tuple[Point, int]]:
        """Each decision of the record with the move written, ``core`` (the record's start)
        played up to just before it; once done, ``core`` is the position after the record."""
        for number, turn in enumerate(record.turns, 1):
            if not _rolled(turn.text):
                if number < len(record.turns):
                    raise ValueError(f"turn {number} does not start with its roll")
                return
            words = turn.text.split()
            roll = parse_roll(words[0])
            if core.needs_roll():
                core.set_roll(roll)
            elif core.roll != roll:
                raise ValueError(f"`{words[0]}` is not the roll of turn {number}")
            index = 0
            for word in words[1:]:
                who, colon, body = word.partition(":")
                if who.lower() in _KEYWORDS or word.lower() == "end":
                    continue
                if not colon:
                    raise ValueError(f"turn {number}: `{word}` is not a choice")
                for at, piece in enumerate(pieces(body)):
                    spelt = f"{who}:{piece}" if at == 0 else piece
                    index += 1
                    move = core.move(spelt)
                    yield Point(number, index, core.player, spelt), move
                    code = core.step(move)
                    if code:
                        raise ValueError(f"turn {number}: `{spelt}` breaks {Rule(code).rule_id}")

    def points(self, record: GameRecord) -> list[Point]:
        return [point for point, _ in self._walk(record, self._start(record))]

    def view(self, record: GameRecord, point: Point | None) -> tuple[InfoSet, int | None]:
        core = self._start(record)
        walk = self._walk(record, core)
        if point is not None:
            for found, move in walk:
                if (found.turn, found.word) == (point.turn, point.word):
                    if found.seat != point.seat:
                        raise ValueError(f"seat {point.seat + 1} does not write word {point.word} "
                                         f"of turn {point.turn}")
                    return InfoSet.of_state(core, point.seat), _decision(core, move)
            raise ValueError(f"turn {point.turn} has no decision {point.word}")
        for _ in walk:
            pass
        if core.is_over():
            raise ValueError("the game is over: there is no move to judge")
        if core.needs_roll():
            raise ValueError(f"the next word is the roll of turn {core.turn + 1}: the dice decide it, "
                             "not a player")
        return InfoSet.of_state(core, core.player), None


def _decision(core: RollWriteCore, move: int) -> int:
    """The move a search judges for the word written: the same decision in its fully marked
    word (a layout given makes marks optional, ``R3`` for ``R3+``), which is the one the core
    lists."""
    legal = core.legal_moves()
    if move in legal:
        return move
    after = core.copy()
    if after.step(move):
        raise ValueError(f"`{core.word(move)}` is not legal here")
    key = after.key()
    for other in legal:
        line = core.copy()
        if not line.step(other) and line.key() == key:
            return other
    raise ValueError(f"`{core.word(move)}` is no decision the core lists")  # pragma: no cover


def judge(variant: RollWriteVariant) -> RollWriteJudge:
    return RollWriteJudge(variant)

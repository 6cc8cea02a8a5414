"""What one player knows of a Roll & Write game, and a roller of the dice to come.

A search decides for a player who cannot see the future: it plays its decisions on full
states whose unknown parts are drawn consistently with what that player knows (the
"determinisations" of a search over information sets). In Roll & Write nothing is hidden
between players: every sheet is public, and so is every roll made
(``docs/hidden-information.md``); what nobody knows is the dice still to be rolled. So an
information set is the public position itself, and :meth:`InfoSet.sample` gives it every
roll to come, each drawn as the six dice fall: three colour dice uniform over the six
colours, three number dice uniform over 0-9, all independent (RW-SETUP-DICE). Rolls to come
do not depend on anything played, so no sampled roll can contradict the past, and each
sample is one full future of the game's dice, as likely as the dice make it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...model import GameRecord
from ...variants.rollwrite import RollWriteVariant
from .core import MAX_TURNS, THROWS, RollWriteCore, decode, replay


@dataclass(frozen=True, slots=True)
class InfoSet:
    """One player's knowledge: the public position (sheets, bridges, layout as known, the
    rolls made, the current roll when it has been rolled), with no roll to come."""

    #: The player whose knowledge this is (0-based seat).
    seat: int
    #: The position, cut to the rolls made; never handed out (samples are copies).
    state: RollWriteCore

    @classmethod
    def of_state(cls, state: RollWriteCore, seat: int, *, rolled: bool = True) -> InfoSet:
        """What ``seat`` knows at a full state: all of it but the rolls to come.

        The current turn's roll is known once it is rolled; at the start of a turn,
        ``rolled=False`` says that it is not rolled yet (the state may know it, as a
        replayed record knows the roll of its next turn), and a sample rolls it too.
        """
        if not 0 <= seat < state.players:
            raise ValueError(f"seat {seat}: the game has seats 0-{state.players - 1}")
        if not rolled and (state.step_in_turn or state.pending):
            raise ValueError("a choice of this turn is written: its roll is made")
        public = state.copy()
        made = state.turn + (1 if rolled and state.roll is not None else 0)
        public.rolls = state.rolls[:made]
        if not rolled:
            public.roll = public.pool = None
        return cls(seat, public)

    @property
    def turn(self) -> int:
        """Turns completed."""
        return self.state.turn

    def rolls_to_come(self) -> int:
        """How many rolls a sample draws: enough for the longest game (``MAX_TURNS``)."""
        return MAX_TURNS - len(self.state.rolls)

    def sample(self, rng: random.Random) -> RollWriteCore:
        """A full state: this position with every roll to come drawn from the dice."""
        state = self.state.copy()
        rand = rng.random
        state.rolls = self.state.rolls + [int(rand() * THROWS)
                                          for _ in range(MAX_TURNS - len(self.state.rolls))]
        if state.roll is None and not state.over:
            state.roll = state.pool = decode(state.rolls[state.turn])
        return state


def sample(infoset: InfoSet, rng: random.Random) -> RollWriteCore:
    """A full state consistent with ``infoset``: the rolls to come drawn as the dice fall."""
    return infoset.sample(rng)


def infoset_from_record(record: GameRecord, seat: int, *, turns: int | None = None,
                        variant: RollWriteVariant | None = None) -> InfoSet:
    """What ``seat`` knows after the record's first ``turns`` turns (all by default), before
    the next roll.

    Raises ValueError, saying why, when the players are not 2-5, the seat is not one of
    them, or a turn breaks a rule.
    """
    return InfoSet.of_state(replay(record, turns, variant), seat, rolled=False)


__all__ = ["InfoSet", "infoset_from_record", "sample"]

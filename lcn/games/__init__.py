"""One package per game: its rules written once, as a fast state and step.

Each game's package (``classic``, ``rivals``, ``rollwrite``) holds the one core that the
quick verdict of validation, a search and the rule-based players play on, so that a search
plays on exactly the rules that judge a record. What a search needs of a core, and of a
player's information set, is the same for every game: the two protocols below. A position
is a *full* state (every card or die known); a player who sees only part of it reasons over
full states dealt by :meth:`InformationSet.sample`, consistent with what that player saw.

Moves are small integers, each the next *word* a player writes (a classic turn ``R5/d``; a
bid or a placement of a Rivals turn; a choice of a Roll & Write turn), so that a search
stores and compares them cheaply and still speaks LCN (:meth:`GameCore.word`).
``docs/games.md`` tells how a game's package is laid out and how a new game plugs in.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Protocol, TypeVar, runtime_checkable

Core = TypeVar("Core", bound="GameCore")


@runtime_checkable
class GameCore(Protocol):
    """A full position of a game and the step of its rules."""

    def copy(self: Core) -> Core:
        """An independent copy (a search plays its lines on copies)."""
        ...

    def key(self) -> Hashable:
        """Everything the position is, as a hashable value (equal positions, equal keys)."""
        ...

    def is_over(self) -> bool:
        """Whether the rules have ended the game."""
        ...

    def to_move(self) -> int:
        """The seat (0-based) of the player who writes the next word."""
        ...

    def legal_moves(self) -> list[int]:
        """Every legal move of that player, each once."""
        ...

    def check(self, move: int) -> int:
        """0 when ``move`` is legal, else the rule code it breaks first; nothing changes."""
        ...

    def step(self, move: int) -> int:
        """Play ``move``: 0 when done, else the rule code broken and the position unchanged."""
        ...

    def score(self) -> tuple[int, ...]:
        """Each seat's points as the position stands (final once the game is over)."""
        ...

    def word(self, move: int) -> str:
        """The LCN word of a move."""
        ...

    def move(self, word: str) -> int:
        """The move of an LCN word (ValueError, or MoveSyntaxError, when it is none)."""
        ...

    def random_move(self, rng: random.Random) -> int:
        """A move drawn uniformly from :meth:`legal_moves`."""
        ...

    def playout(self, rng: random.Random) -> int:
        """Play uniformly random legal moves to the end; the moves played."""
        ...


@runtime_checkable
class InformationSet(Protocol):
    """What one seat knows at a position, and a dealer of what it does not know."""

    @property
    def seat(self) -> int:
        """The seat whose knowledge this is."""
        ...

    def sample(self, rng: random.Random) -> GameCore:
        """A full position consistent with this knowledge, each consistent one as likely as
        the game's own shuffle or dice make it."""
        ...


__all__ = ["GameCore", "InformationSet"]

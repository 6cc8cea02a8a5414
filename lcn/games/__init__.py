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

import importlib
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from ..model import GameRecord, Turn
    from ..variants.base import Variant

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


@dataclass(frozen=True, slots=True)
class Listing:
    """What may come next in a record, as its game's core lists it (``lcn.legal_moves``).

    ``partial`` says that the last turn given is being written (an auction's calls so far,
    a roll and some choices): the moves are the words that may follow within it. ``seat``
    is who writes the next word (None once the game is over), ``players`` the names of the
    seats; each move is its text, then the key and parameters of its label in
    ``lcn.moves.LABELS``.
    """

    players: Sequence[str]
    seat: int | None
    over: bool
    partial: bool = False
    moves: Sequence[tuple[str, str, dict[str, Any]]] = field(default_factory=tuple)


class MoveLister(Protocol):
    """Lists a record's legal continuations on its game's core (``Variant.move_lister``)."""

    def list_moves(self, record: GameRecord, turns: Sequence[Turn]) -> Listing | None:
        """What may come after ``turns`` (the record's first turns, the last perhaps being
        written), or None when the core does not take them as a valid record would be taken:
        the engine then lists the moves, or says what is wrong."""
        ...


def record_words(turns: Sequence[Turn], *, numbered: bool = False) -> list[str]:
    """The words of turns as a quick verdict reads a movetext (``Variant.express_check``):
    each turn's move number as read, then its words; glyphs and comments say nothing of the
    rules (the reader judges them). ``numbered`` gives a turn made without its number (a
    record built in code, whose turns are known apart without one) the number it stands
    for, which validation does not check where none is written."""
    words: list[str] = []
    for index, turn in enumerate(turns):
        if turn.number is not None:
            words.append(f"{turn.number}{'.' * turn.number_dots}")
        elif numbered:
            words.append(f"{index + 1}.")
        words += turn.text.split()
    return words


@dataclass(frozen=True, slots=True)
class Point:
    """A decision of a record: the turn it is in (1-based, as diagnostics count turns), the
    word of that turn it is (0-based: a classic turn is one word; a Rivals bid or a Roll &
    Write choice is one word of its turn), the seat that made it and the word written."""

    turn: int
    word: int
    seat: int
    played: str


class Judge(Protocol):
    """What a search needs of a game to judge a record's decisions (``Variant.judge``)."""

    def points(self, record: GameRecord) -> list[Point]:
        """Every decision of a valid record, in order (chance, such as an uncovered card or
        a roll, is not a decision). Cheap: the information sets are made one by one."""
        ...

    def view(self, record: GameRecord, point: Point | None) -> tuple[InformationSet, int | None]:
        """What ``point.seat`` knew just before ``point``, and the search's move of the word
        played there; with ``point`` None, the position after the whole record, whose player
        to move is the information set's seat (and no move). ValueError, saying why, when the
        record does not give that seat's view (a hand it never wrote)."""
        ...

    # A judge may also offer ``open_view(record, point)``: the position before ``point`` with
    # every card known (:class:`OpenCards`) and the move played, for a record that gives the
    # whole deal (ValueError, saying why, for one that does not).


@dataclass(frozen=True, slots=True)
class OpenCards:
    """The *open-cards view* of a position: every card known, as an information set.

    An analysis "with every card known" asks what was best given the whole deal, which is not
    what a player could know; it is labelled as such wherever it is shown. Every sample is the
    true position itself, so the search's only chance left is in the playouts' own play.
    ``explain`` is the seat's own information set's one-line reasons, when it has them.
    """

    seat: int
    core: GameCore
    explain: Any = None

    def sample(self, rng: random.Random) -> GameCore:
        return self.core.copy()

    def reason(self, best: int, played: int) -> Any:
        return None if self.explain is None else self.explain(best, played)


#: The game package of each built-in variant, by the variant's class: a subclass (another
#: engine's rules) is not served, and keeps its engine's path.
_PACKAGES = {"lcn.variants.classic.ClassicVariant": "lcn.games.classic",
             "lcn.variants.rivals.RivalsVariant": "lcn.games.rivals",
             "lcn.variants.rollwrite.RollWriteVariant": "lcn.games.rollwrite"}
#: Each maker (``verdict.lister``, ``judge.judge``) once imported: an import statement costs
#: more than listing a position's moves.
_MAKERS: dict[str, Any] = {}


def _built_in(variant: Variant[Any, Any], module: str, name: str) -> Any:
    """What the built-in game's ``module`` makes for ``variant`` by its function ``name``, or
    None for a variant that is not a built-in game's."""
    kind = type(variant)
    package = _PACKAGES.get(f"{kind.__module__}.{kind.__qualname__}")
    if package is None:
        return None
    path = f"{package}.{module}"
    make = _MAKERS.get(path)
    if make is None:
        make = _MAKERS[path] = getattr(importlib.import_module(path), name)
    return make(variant)


def built_in_lister(variant: Variant[Any, Any]) -> MoveLister | None:
    """The lister of a built-in game's variant on its core, or None for any other variant."""
    lister: MoveLister | None = _built_in(variant, "verdict", "lister")
    return lister


def built_in_judge(variant: Variant[Any, Any]) -> Judge | None:
    """The judge of a built-in game's variant, or None for any other variant."""
    judge: Judge | None = _built_in(variant, "judge", "judge")
    return judge


__all__ = ["GameCore", "InformationSet", "Judge", "Listing", "MoveLister", "OpenCards", "Point",
           "built_in_judge", "built_in_lister", "record_words"]

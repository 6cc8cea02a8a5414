"""The record model: what a game file says, before any rule is applied.

The model keeps everything a writer needs to give the file back without loss: tag order and
unknown tags, every comment (before the first turn too), glyphs in the order written, the
termination. Rules live in the variants; this module knows nothing about any game.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from itertools import count
from operator import itemgetter
from typing import Any, Protocol, TypeVar, overload

from .diagnostics import Diagnostic
from .messages import msg

_part_start = itemgetter(0)
_T = TypeVar("_T")

#: Suffix glyphs and the numeric annotation they stand for (as in PGN).
SUFFIX_GLYPHS: dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


@dataclass(slots=True)
class Turn:
    """One turn as written: the move text, its place, glyphs and comments after it.

    ``text`` is the turn as it appears (several words joined by one space for variants whose
    turns span several words); ``number`` is the move number written before it, if any, with
    ``number_dots`` the count of dots (1 for ``3.``, 3 for ``3...``).
    """

    text: str
    line: int = 0
    column: int = 0
    number: int | None = None
    number_dots: int = 0
    glyphs: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    #: Where each word of a multi-word turn starts: (offset in ``text``, line, column).
    parts: list[tuple[int, int, int]] = field(default_factory=list)
    #: Where the move number stands (line, column), when the reader saw one: a wrong
    #: number is pointed at there, not at the turn after it.
    number_at: tuple[int, int] | None = field(default=None, compare=False)
    #: How many characters the move number takes there (``03.`` is three, ``12...`` five):
    #: what its value and dots alone do not say.
    number_width: int = field(default=0, compare=False)

    def position_of(self, offset: int) -> tuple[int, int]:
        """Line and column of a character offset inside ``text`` (for precise carets)."""
        # Parts are in text order: a binary search keeps a turn of many words linear to
        # report on (one problem per word would otherwise cost words x words).
        index = bisect_right(self.parts, offset, key=_part_start)
        if index:
            start, part_line, part_column = self.parts[index - 1]
            return part_line, part_column + (offset - start)
        return self.line, self.column + offset


class Tags(MutableMapping[str, str]):
    """Ordered tag pairs: a mutable mapping that keeps the order tags were written in.

    Names are unique, unknown tags are kept, and a value cannot hold a line break (the
    writer could not give it back). Every dict method works (``keys``, ``values``,
    ``items``, ``update``, ``pop``, ``setdefault``...); two ``Tags`` are equal when they
    hold the same pairs in the same order (the writer's output would differ otherwise).

        >>> tags = Tags({"Player1": "Ada"})
        >>> tags.update(Player2="Bo", Event="Club night")
        >>> list(tags)
        ['Player1', 'Player2', 'Event']
        >>> tags.pop("Event")
        'Club night'
        >>> dict(tags)
        {'Player1': 'Ada', 'Player2': 'Bo'}
    """

    __slots__ = ("_items", "lines")

    def __init__(self, items: Mapping[str, str] | None = None) -> None:
        self._items: dict[str, str] = dict(items or {})
        #: The line each tag was read from (absent for tags set by a program).
        self.lines: dict[str, int] = {}
        for name, value in self._items.items():
            if "\n" in value or "\r" in value:
                raise ValueError(msg("tag {name!r}: a tag value cannot contain a line break", name=name))

    def __getitem__(self, name: str) -> str:
        return self._items[name]

    def __setitem__(self, name: str, value: str) -> None:
        if "\n" in value or "\r" in value:
            raise ValueError(msg("tag {name!r}: a tag value cannot contain a line break", name=name))
        self._items[name] = value

    def __delitem__(self, name: str) -> None:
        del self._items[name]
        self.lines.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tags):
            return list(self._items.items()) == list(other._items.items())
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dict

    def __repr__(self) -> str:
        return f"Tags({self._items!r})"

    @property
    def mapping(self) -> dict[str, str]:
        """The tags as a plain dict, for reading on hot paths (change them through Tags)."""
        return self._items

    def add_read(self, name: str, value: str, line: int) -> bool:
        """Add a tag read from ``line`` (a value already checked), unless the name is taken.

        The reader's path for the usual tag line; False leaves the duplicate to report.
        """
        if name in self._items:
            return False
        self._items[name] = value
        self.lines[name] = line
        return True

    def read_section(self, pairs: list[tuple[str, str]], line: int) -> bool:
        """Take a whole tag section read from ``line`` on, a tag a line (values already
        checked), into tags still empty; False, and nothing taken, when a name is repeated
        (the reader then reads the lines one at a time and reports the duplicate)."""
        items = dict(pairs)
        if len(items) != len(pairs) or self._items:
            return False
        self._items = items
        self.lines = dict(zip(items, count(line)))
        return True

    @overload
    def get(self, name: str, /) -> str | None: ...
    @overload
    def get(self, name: str, /, default: str | _T) -> str | _T: ...

    def get(self, name: str, /, default: object = None) -> object:
        # dict.get at once: the reader and the validator ask on every game.
        return self._items.get(name, default)

    def popitem(self) -> tuple[str, str]:
        """Remove and return the last tag, as ``dict.popitem`` does."""
        name, value = self._items.popitem()
        self.lines.pop(name, None)
        return name, value

    def clear(self) -> None:
        self._items.clear()
        self.lines.clear()

    def copy(self) -> Tags:
        """A copy with the same tags, order and line numbers."""
        other = Tags(self._items)
        other.lines = dict(self.lines)
        return other


class DeferredMovetext(Protocol):
    """Movetext lines kept as read, to be made into turns only if someone asks for them."""

    #: The variant the record's tags name (the reader found it to decide to keep them).
    variant: Any

    def words(self) -> list[str]:
        """Every word of the movetext, in order, the termination last (not to be changed)."""

    def expand(self, record: GameRecord) -> None:
        """Make the record's turns (and the reader's diagnostics about them) from the lines."""


#: The fields of a record that its deferred movetext makes when asked for.
_DEFERRED_FIELDS = frozenset(("turns", "intro_comments", "closing_comments"))


class _Deferrable:
    """Lets a record keep its movetext unread until its turns are asked for.

    The validator's express check (``lcn.validate``) decides most games from their words
    alone, and building a :class:`Turn` for every word would cost more than the check.
    A record read that way has no ``turns`` slot set, only ``_movetext``; the first use
    of ``turns`` reads the lines as the reader would have, so nothing else ever sees the
    difference.
    """

    __slots__ = ("_movetext",)

    def __getattr__(self, name: str) -> Any:
        # Only reached for an attribute that is not set: ``turns`` of a deferred record, and
        # its comments when the lines kept hold some.
        if name in _DEFERRED_FIELDS and self.deferred is not None:
            self.expand()
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def deferred(self) -> DeferredMovetext | None:
        """The movetext lines not yet made into turns, or None once they are."""
        try:
            return self._movetext
        except AttributeError:
            return None

    def defer(self, movetext: DeferredMovetext) -> None:
        """Keep the movetext unread: ``turns`` stays unset until it is asked for."""
        self._movetext = movetext
        del self.turns

    def expand(self) -> None:
        """Read the deferred movetext into turns now (a no-op when there is none)."""
        movetext = self.deferred
        if movetext is not None:
            del self._movetext
            self.turns: list[Turn] = []  # type: ignore[misc]  # a slot of GameRecord
            movetext.expand(self)  # type: ignore[arg-type]


@dataclass(slots=True, repr=False)
class GameRecord(_Deferrable):
    """One game of a file: tags, comments before the first turn, turns, termination.

    ``diagnostics`` holds what the reader found (syntax and encoding); the validator adds
    the rule checks to its own report and leaves the record as read.

    ``str(game)`` is the game's canonical LCN (what :func:`lcn.write_game` writes), as
    ``str`` of a python-chess game is its PGN; ``repr`` is one short line.

        >>> from lcn import read_game
        >>> game = read_game('[Player1 "Ada"]\\n[Player2 "Bo"]\\n\\nr5/d xb2/D *\\n')
        >>> print(game, end="")
        [Player1 "Ada"]
        [Player2 "Bo"]
        <BLANKLINE>
        1. R5/d xB2/d *
        >>> game
        <GameRecord classic: Ada vs Bo, 2 turns, *, line 1>
    """

    tags: Tags = field(default_factory=Tags)
    intro_comments: list[str] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    termination: str | None = None
    closing_comments: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Line of the first line of the game in its file, and where the termination stands.
    line: int = 1
    termination_line: int | None = None
    termination_column: int | None = None
    movetext_line: int | None = None

    def __str__(self) -> str:
        from .writer import write_game  # the writer builds on this module

        return write_game(self)

    def __repr__(self) -> str:
        players = " vs ".join(self.players()) or "no players"
        # A deferred record is not read into turns just to be shown.
        turns = "turns not read yet" if self.deferred is not None else f"{len(self.turns)} turns"
        return (f"<GameRecord {self.variant_name}: {players}, {turns}, "
                f"{self.termination or 'no termination'}, line {self.line}>")

    @property
    def variant_name(self) -> str:
        return (self.tags.get("Variant") or "classic").strip().lower()

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    def players(self) -> list[str]:
        """Player names in seat order from ``Player1``..``Player5`` (stops at the first gap)."""
        names: list[str] = []
        for seat in range(1, 6):
            name = self.tags.get(f"Player{seat}")
            if name is None:
                break
            names.append(name)
        return names

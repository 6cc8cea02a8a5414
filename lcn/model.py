"""The record model: what a game file says, before any rule is applied.

The model keeps everything a writer needs to give the file back without loss: tag order and
unknown tags, every comment (before the first turn too), glyphs in the order written, the
termination. Rules live in the variants; this module knows nothing about any game.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import itemgetter

from .diagnostics import Diagnostic

_part_start = itemgetter(0)

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

    def position_of(self, offset: int) -> tuple[int, int]:
        """Line and column of a character offset inside ``text`` (for precise carets)."""
        # Parts are in text order: a binary search keeps a turn of many words linear to
        # report on (one problem per word would otherwise cost words x words).
        index = bisect_right(self.parts, offset, key=_part_start)
        if index:
            start, part_line, part_column = self.parts[index - 1]
            return part_line, part_column + (offset - start)
        return self.line, self.column + offset


class Tags:
    """Ordered tag pairs: order is kept, names are unique, unknown tags are kept."""

    __slots__ = ("_items", "lines")

    def __init__(self, items: dict[str, str] | None = None) -> None:
        self._items: dict[str, str] = dict(items or {})
        #: The line each tag was read from (absent for tags set by a program).
        self.lines: dict[str, int] = {}

    def __getitem__(self, name: str) -> str:
        return self._items[name]

    def __setitem__(self, name: str, value: str) -> None:
        if "\n" in value or "\r" in value:
            raise ValueError(f"tag {name!r}: a tag value cannot contain a line break")
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
        return isinstance(other, Tags) and list(self._items.items()) == list(other._items.items())

    def __repr__(self) -> str:
        return f"Tags({self._items!r})"

    def get(self, name: str, default: str | None = None) -> str | None:
        return self._items.get(name, default)

    def items(self) -> list[tuple[str, str]]:
        return list(self._items.items())

    def copy(self) -> Tags:
        other = Tags(self._items)
        other.lines = dict(self.lines)
        return other


@dataclass(slots=True)
class GameRecord:
    """One game of a file: tags, comments before the first turn, turns, termination.

    ``diagnostics`` holds what the reader found (syntax and encoding); the validator adds
    the rule checks to its own report and leaves the record as read.
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

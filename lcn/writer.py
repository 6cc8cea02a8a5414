"""The LCN writer: the canonical form of a record.

Canonical means one spelling for each thing, so that ``lcn fmt --check`` can compare files
and writing is idempotent: tags in their order, one per line, values escaped; a blank line;
the movetext with canonical move tokens (through the variant), move numbers where the
variant puts them, suffix glyphs attached, comments in braces, wrapped at 80 columns; the
termination; a blank line between games. Nothing of the record is dropped: unknown tags,
every comment and glyph are written back.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import IO

from .model import SUFFIX_GLYPHS, GameRecord
from .variants import MoveSyntaxError, find_variant

WIDTH = 80


def escape_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> tuple[str, bool]:
    """A comment token, and whether it must end its line (a ``;`` comment)."""
    if "}" in text:
        return "; " + text.replace("\n", " "), True
    return "{" + text + "}", False


class _Lines:
    """Joins tokens with single spaces into lines of at most WIDTH columns."""

    def __init__(self, width: int = WIDTH) -> None:
        self.width = width
        self.lines: list[str] = []
        self.current = ""

    def add(self, token: str, *, hard_break_after: bool = False, new_line: bool = False) -> None:
        if new_line and self.current:
            self.break_line()
        if "\n" in token:
            first, *rest = token.split("\n")
            self.add(first)
            for part in rest:
                self.lines.append(self.current)
                self.current = part
        elif not self.current:
            self.current = token
        elif len(self.current) + 1 + len(token) > self.width and not token.startswith("["):
            # A line that starts with `[` reads as a tag line, so such a token stays on the
            # line before, however long it gets.
            self.lines.append(self.current)
            self.current = token
        else:
            self.current += " " + token
        if hard_break_after:
            self.break_line()

    def break_line(self) -> None:
        if self.current:
            self.lines.append(self.current)
            self.current = ""

    def text(self) -> str:
        self.break_line()
        return "\n".join(self.lines)


def write_game(record: GameRecord, *, width: int = WIDTH) -> str:
    """The canonical text of one game, ending with a newline (also ``str(record)``).

    Tags in their order, then the turns numbered and wrapped at ``width`` characters:

        >>> from lcn import read_game
        >>> print(write_game(read_game('[Player1 "Ada"]\\n[Player2 "Bo"]\\n\\nr5/d {good} xb2/D *')), end="")
        [Player1 "Ada"]
        [Player2 "Bo"]
        <BLANKLINE>
        1. R5/d {good} xB2/d *
    """
    parts: list[str] = [f'[{name} "{escape_tag(value)}"]' for name, value in record.tags.items()]
    variant = find_variant(record.variant_name)
    state = None
    if variant is not None:
        try:
            state, _ = variant.setup(record)
        except Exception:
            state = None
    numbered = variant is not None and variant.turn_unit == "numbered"
    out = _Lines(width)
    for text in record.intro_comments:
        token, hard = _comment(text)
        out.add(token, hard_break_after=hard)
    for index, turn in enumerate(record.turns):
        if variant is not None and state is not None:
            number, plain = variant.move_number(state, index)
        else:
            number, plain = (index + 1, True) if numbered else (index // 2 + 1, index % 2 == 0)
        text = turn.text
        if variant is not None and state is not None:
            with contextlib.suppress(MoveSyntaxError):
                text = variant.format_move(variant.parse_move(state, text))
        glyphs = list(turn.glyphs)
        suffix = ""
        if glyphs and glyphs[0] in SUFFIX_GLYPHS:
            suffix = glyphs.pop(0)
        token = text + suffix
        if plain:
            if numbered:
                out.add(f"{number}.", new_line=True)
                out.add(token)
            else:
                out.add(f"{number}. {token}")
        elif token.startswith("[") and not out.current:
            # After a `;` comment the line is new: the number keeps `[` from starting it.
            out.add(f"{number}... {token}")
        else:
            out.add(token)
        for glyph in glyphs:
            out.add(glyph if glyph.startswith("$") else f"${SUFFIX_GLYPHS[glyph]}")
        for comment in turn.comments:
            token_text, hard = _comment(comment)
            out.add(token_text, hard_break_after=hard)
    out.add(record.termination or "*", new_line=numbered)
    for text in record.closing_comments:
        token, hard = _comment(text)
        out.add(token, hard_break_after=hard)
    movetext = out.text()
    head = "\n".join(parts)
    return (head + "\n\n" if head else "") + movetext + "\n"


def write_games(records: Iterable[GameRecord], stream: IO[str] | None = None) -> str | None:
    """Write games separated by blank lines, to a stream or as one string."""
    chunks = (write_game(r) for r in records)
    if stream is None:
        return "\n".join(chunks)
    first = True
    for chunk in chunks:
        if not first:
            stream.write("\n")
        stream.write(chunk)
        first = False
    return None

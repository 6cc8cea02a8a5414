"""The LCN reader: a lenient, streaming reader that reports every problem with its place.

Files are read line by line, so a file of any size streams in constant memory; a game is
only built once its lines are read. Problems never stop the reader: each becomes a
diagnostic on the game it belongs to, and the next game starts clean (``strict=True``
raises on the first error instead).

Lines are lexed with one compiled regular expression; a game's movetext is grouped into
turns by the turn unit its variant declares (one word per turn, or a numbered turn spanning
several words), which is the only thing the reader needs to know about a variant.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import unicodedata
import warnings
import weakref
from collections import deque
from collections.abc import Callable, Iterator
from itertools import count, islice, repeat
from typing import IO, TYPE_CHECKING, Any, Protocol

from .diagnostics import Diagnostic, LCNError, Severity
from .messages import msg
from .model import SUFFIX_GLYPHS, GameRecord, Tags, Turn

if TYPE_CHECKING:
    from .variants import Variant

class BinaryStream(Protocol):
    """Any object that reads bytes as a binary file does (a pipe's reader, for one)."""

    def read(self, size: int = -1, /) -> bytes: ...
    def readline(self, limit: int = -1, /) -> bytes: ...


Source = str | bytes | os.PathLike[str] | IO[bytes] | IO[str] | BinaryStream

#: Longest line read as text; a longer one is reported and skipped (bounded memory).
MAX_LINE = 1 << 20
#: Longest comment kept; the rest is reported and dropped.
MAX_COMMENT = 1 << 20
#: Most turns kept in one game (hostile files with no termination stay bounded).
MAX_TURNS = 100_000
#: Bytes read at a time from a binary source. A block is split into its lines at once, so
#: the lines of a block are what the reader holds beyond one game: 16 KiB reads as fast as
#: 64 KiB and holds a quarter of the memory.
_BLOCK = 1 << 14
#: Most digits of a move number (longer ones are reported, not converted).
MAX_NUMBER_DIGITS = 9
#: Longest text of one turn of several words (the rest is reported and skipped).
MAX_TURN_TEXT = 1 << 16
#: Most characters of movetext a record keeps unread for the express check; past it the
#: game is read into turns as usual (fewer characters than this cannot hold MAX_TURNS turns,
#: so the reader's own limits still apply to every game).
MAX_DEFERRED = 2 * MAX_TURNS

_TOKEN = re.compile(r"[ \t\f\v\r]*(?:([^\s{};]+)|(\{)|(;)|(\}+))")
# The value is written as an unrolled loop (runs of plain characters between escapes):
# the same strings as ``(?:[^"\\]|\\.)*``, several times faster on the long deal tags.
_TAG = re.compile(r'\[[ \t]*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)[ \t]+"([^"\\]*(?:\\.[^"\\]*)*)"[ \t]*\][ \t]*$')
#: The usual tag lines of a section, one match a line (``_read_section``): each as ``_TAG``
#: takes it at its first column, in a text without a backslash. The text starts with a line
#: break, so that every match starts with ``\n[``, a literal the regex engine scans for as
#: fast as a string, and no `[` inside a line that does not match is taken for a tag.
_TAG_LINES = re.compile(r'\n\[[ \t]*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)[ \t]+"([^"\\\n]*)"'
                        r'[ \t]*\][ \t]*(?=\n|\Z)')
_TAG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+#=:-]*")
# Digits are ASCII only, as the grammar says (`\d` would take other scripts' digits too).
_RESULT = re.compile(r"-?[0-9]+(?::-?[0-9]+)+")
_NUMBER = re.compile(r"([0-9]+)(\.+)")
_ESCAPE = re.compile(r"\\(.)")
#: First characters of the words that are not a plain turn (numbers, results, glyphs, `*`).
_PLAIN_START = frozenset("0123456789-$*")
#: Starts of a line that may not be movetext of the game being read (a blank line, a tag
#: line, possibly indented); such lines take the reader's general path.
_NOT_MOVETEXT_START = frozenset(("", " ", "\t", "["))
#: The characters of the lines kept for the express check: printable ASCII and the tab.
#: Deleting them from the line's bytes leaves nothing when every character is one of them:
#: one table look-up a byte, several times faster than ``str.isprintable`` (which looks
#: every character up in the Unicode database).
_PLAIN_BYTES = bytes(range(0x20, 0x7F)) + b"\t"
#: The comments of a line kept for the express check: a brace comment closed on the line,
#: and a ``;`` comment to its end, found from the left as the lexer finds them. A brace
#: comment holding a `{` is not found (the `{` left makes the line read as usual), so that
#: no `{` is scanned past twice.
_LINE_COMMENT = re.compile(r"\{[^{}]*\}|;.*")
#: A word that may end a game (``*``, ``57:12``, ``9.*``): it starts with a digit, ``-`` or
#: ``*`` and holds a ``:`` or ``*`` (see ``_Builder.keep``).
_MAY_END = re.compile(r"(?<!\S)(?:\*|[-0-9][^\s:*]*[:*])")
#: Fewest lines the reader takes as a block before a game's last line (fewer are taken a
#: line at a time).
_BLOCK_LINES = 2
#: The comments of lines kept together (``_Builder.keep_block``): those of
#: ``_LINE_COMMENT`` on each line, none across a line break. They are taken out in two
#: passes, the brace comments first: the same words as one pass of
#: ``\{[^{}\n]*\}|;[^\n]*`` from the left (a `;` inside a brace comment goes with it, and
#: a brace comment after a `;` goes with the `;` comment's line). A pattern that starts
#: with one character is searched for as fast as a string; one that starts with either of
#: two tries every position, at twice the cost of both passes.
_BLOCK_BRACES = re.compile(r"\{[^{}\n]*\}")
_BLOCK_SEMICOLON = re.compile(r";[^\n]*")
#: ``_MAY_END`` past the first word of a text (``_may_end``): a word after white space. A
#: pattern that starts with one set of characters (white space) is searched for by the
#: regex engine's quick scan for its first character, where the lookbehind of
#: ``_MAY_END`` tries the whole pattern at every character; from a blank it looks at most
#: to the end of the word after it.
_MAY_END_AFTER_SPACE = re.compile(r"\s[-0-9*][^\s:*]*[:*]|\s\*")
#: The start of a line, past a block's first, that is no movetext of the game being read:
#: blanks only, or a tag line (``[``) perhaps indented (see ``_Lines.block``).
_BLOCK_END = re.compile(r"\n[ \t]*(?:\[|$)", re.MULTILINE)


def _may_end(text: str) -> bool:
    """Whether a word of ``text`` may end a game, as ``_MAY_END.search(text)`` says: its
    first word, or one after white space (``_MAY_END_AFTER_SPACE``)."""
    return _MAY_END.match(text) is not None or _MAY_END_AFTER_SPACE.search(text) is not None


def _blank(match: re.Match[str]) -> str:
    """A comment as spaces: the words around it keep their columns."""
    return " " * (match.end() - match.start())

RESULT_PATTERN = _RESULT


def _diag(code: str, message: str, line: int, column: int | None = None, *, rule: str,
          severity: Severity = Severity.ERROR, length: int = 1) -> Diagnostic:
    return Diagnostic(code=code, message=message, severity=severity, line=line, column=column,
                      rule=rule, length=length)


class _Lines:
    """Numbered text lines from any source, reporting encoding and line-ending problems."""

    def __init__(self, source: Source, first_line: int = 1) -> None:
        self.pending: list[Diagnostic] = []
        #: Number of the source's first line: a part of a file keeps the file's numbers.
        self.first_line = first_line
        self._close: IO[bytes] | None = None
        self._crlf_reported = False
        #: The lines of the block being read, when it was split at once (else None): the
        #: reader may take several of them in one step (:meth:`block`, :meth:`take`).
        self.buffer: list[str] | None = None
        #: The number of the buffer's first line, and the index of the next line to give.
        self.buffer_first = 0
        self._numbered: Iterator[tuple[int, str]] = iter(())
        self._string: str | None = None
        if isinstance(source, str):
            self._string = source
            self._text: io.StringIO | None = None
            self._binary: IO[bytes] | None = None
        elif isinstance(source, bytes):
            self._text, self._binary = None, io.BytesIO(source)
        elif isinstance(source, os.PathLike):
            self._text = None
            self._binary = self._close = open(source, "rb")  # noqa: SIM115 - closed in __iter__
        elif isinstance(source, io.TextIOBase):
            self._text, self._binary = source, None  # type: ignore[assignment]
        else:
            self._text, self._binary = None, source  # type: ignore[assignment]

    def __iter__(self) -> Iterator[tuple[int, str]]:
        try:
            if self._string is not None:
                yield from self._iter_string(self._string)
            elif self._text is not None:
                yield from self._text_lines(self._text.readline, self.first_line - 1)
            else:
                yield from self._iter_binary()
        finally:
            if self._close is not None:
                self._close.close()

    def _ending(self, number: int, line: str) -> str:
        if line.endswith("\r"):
            line = line[:-1]
            if not self._crlf_reported:
                self._crlf_reported = True
                self.pending.append(_diag(
                    "crlf", msg("Windows line ending (CR LF); read as LF, and `lcn fmt` writes LF"),
                    number, len(line) + 1, rule="LCN-ENCODING", severity=Severity.WARNING))
        return line

    def section(self, number: int) -> list[str] | None:
        """The lines from line ``number`` (the one just given) to the first empty line or
        the end of the buffer, whichever comes first; None when lines are not read a block
        at a time here. :meth:`take` skips the lines taken from it."""
        buffer = self.buffer
        if buffer is None:
            return None
        at = number - self.buffer_first
        # Nearly always a tag section or a movetext ends at an empty line: one search in C
        # finds it.
        try:
            end = buffer.index("", at + 1)
        except ValueError:
            end = len(buffer)
        return buffer[at:end]

    def block(self, number: int) -> list[str] | None:
        """The lines of :meth:`section` up to the first line that is no movetext of the game
        being read (blank, white space only, or a tag line, perhaps indented)."""
        block = self.section(number)
        if block is None:
            return None
        # Then a line of blanks only, or a tag line perhaps indented, is found in one
        # search over their text too (indented lines of movetext are common by hand).
        text = "\n".join(block)
        found = _BLOCK_END.search(text)
        if found is None:
            return block
        return block[:text.count("\n", 0, found.start()) + 1]

    def take(self, lines: int) -> None:
        """Skip the next ``lines`` lines of the buffer (the reader has taken them)."""
        deque(islice(self._numbered, lines), maxlen=0)

    def _buffered(self, lines: list[str], first: int) -> Iterator[tuple[int, str]]:
        """The lines of a block split at once, numbered from ``first``; the reader may skip
        some with :meth:`take` (it advances the same iterator, so no step is added for
        each line given)."""
        self.buffer, self.buffer_first = lines, first
        self._numbered = numbered = zip(count(first), lines)
        yield from numbered
        self.buffer = None

    def _iter_string(self, text: str) -> Iterator[tuple[int, str]]:
        """The lines of a str, a block of whole lines at a time, as :meth:`_iter_binary`
        reads bytes: a block with a carriage return, a byte order mark or an overlong line
        goes through the line-by-line reader."""
        number = self.first_line - 1
        pos, size = 0, len(text)
        while pos < size:
            end = text.rfind("\n", pos, pos + _BLOCK) + 1
            if end == 0:
                end = text.find("\n", pos) + 1 or size
            chunk = text[pos:end]
            pos = end
            if "\r" in chunk or len(chunk) > MAX_LINE or (number == 0 and chunk.startswith("\ufeff")):
                for number, line in self._text_lines(io.StringIO(chunk).readline, number):  # noqa: B020
                    yield number, line
                continue
            lines = chunk.split("\n")
            if chunk.endswith("\n"):
                lines.pop()  # the empty string after the last newline
            yield from self._buffered(lines, number + 1)
            number += len(lines)

    def _text_lines(self, readline: Callable[[int], str], number: int) -> Iterator[tuple[int, str]]:
        """Line by line, after line ``number``: a byte order mark and overlong lines reported."""
        while True:
            line = readline(MAX_LINE + 1)
            if not line:
                return
            number += 1
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]
                self.pending.append(_diag("bom", msg("byte order mark at the start of the file; ignored"),
                                          1, 1, rule="LCN-ENCODING", severity=Severity.WARNING))
            if len(line) > MAX_LINE and not line.endswith("\n"):
                self._too_long(number)
                while True:
                    rest = readline(MAX_LINE)
                    if not rest or rest.endswith("\n"):
                        break
                yield number, ""
                continue
            if line[-1:] == "\n":  # readline leaves at most one
                line = line[:-1]
            yield number, self._ending(number, line) if line[-1:] == "\r" else line

    def _too_long(self, number: int) -> None:
        self.pending.append(_diag(
            "line-too-long", msg("line longer than {limit} characters; its content is skipped",
                                 limit=MAX_LINE),
            number, MAX_LINE + 1, rule="LCN-FILE"))

    def _iter_binary(self) -> Iterator[tuple[int, str]]:
        """The lines of a binary source, read a block at a time.

        A block of whole lines that is UTF-8 without a carriage return or a byte order mark
        (nearly every block of nearly every file) is decoded and split at once; any other
        block goes through the line-by-line reader below, which says what is wrong where.
        From a line longer than ``MAX_LINE`` on, the file is read line by line, in bounded
        memory.
        """
        assert self._binary is not None
        source = self._binary
        number = self.first_line - 1
        read = getattr(source, "read", None)
        if read is None:  # a stream that only reads lines
            yield from self._binary_lines(source.readline, number)
            return
        rest = b""
        while True:
            block = read(_BLOCK)
            if not block:
                break
            data = rest + block if rest else block
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                rest = data
                if len(rest) > MAX_LINE:
                    yield from self._binary_lines(_Joined(rest, source).readline, number)
                    return
                continue
            chunk, rest = data[:cut], data[cut:]
            if b"\r" not in chunk and len(chunk) <= MAX_LINE \
                    and not (number == 0 and chunk.startswith(b"\xef\xbb\xbf")):
                try:
                    lines = chunk.decode("utf-8").split("\n")
                except UnicodeDecodeError:
                    pass
                else:
                    lines.pop()  # the empty string after the last newline
                    # As ``_buffered`` does, without a generator between (one step less
                    # for every line).
                    self.buffer, self.buffer_first = lines, number + 1
                    self._numbered = numbered = zip(count(number + 1), lines)
                    yield from numbered
                    self.buffer = None
                    number += len(lines)
                    continue
            for number, line in self._binary_lines(io.BytesIO(chunk).readline, number):  # noqa: B020
                yield number, line
        if rest:
            yield from self._binary_lines(io.BytesIO(rest).readline, number)

    def _binary_lines(self, readline: Callable[[int], bytes], number: int) -> Iterator[tuple[int, str]]:
        """Line by line, after line ``number``: encoding problems and overlong lines reported."""
        while True:
            raw = readline(MAX_LINE + 1)
            if not raw:
                return
            number += 1
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
                self.pending.append(_diag("bom", msg("byte order mark at the start of the file; ignored"),
                                          1, 1, rule="LCN-ENCODING", severity=Severity.WARNING))
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                self._too_long(number)
                while True:
                    rest = readline(MAX_LINE)
                    if not rest or rest.endswith(b"\n"):
                        break
                yield number, ""
                continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
                self.pending.append(_diag(
                    "encoding",
                    msg("invalid UTF-8 byte 0x{byte:02x}: LCN files are UTF-8 (convert with e.g. "
                        "`iconv -f latin1 -t utf-8`)", byte=raw[exc.start]),
                    number, column, rule="LCN-ENCODING"))
                line = raw.decode("utf-8", "replace")
            if line[-1:] == "\n":  # readline leaves at most one
                line = line[:-1]
            yield number, self._ending(number, line) if line[-1:] == "\r" else line


class _Joined:
    """Bytes already read, then the rest of a stream, as one stream to read lines from."""

    def __init__(self, head: bytes, tail: IO[bytes]) -> None:
        self.head = io.BytesIO(head)
        self.tail = tail

    def readline(self, limit: int = -1) -> bytes:
        line = self.head.readline(limit)
        if line.endswith(b"\n") or (limit >= 0 and len(line) >= limit):
            return line
        return line + self.tail.readline(limit - len(line) if limit >= 0 else -1)

    def read(self, size: int = -1) -> bytes:
        data = self.head.read(size)
        if size < 0:
            return data + self.tail.read()
        return data if len(data) == size else data + self.tail.read(size - len(data))


def _find_variant(name: str) -> Variant[Any, Any] | None:
    """The registry's ``find_variant``, imported on first use (the variants import the
    reader's model); every game asks, so the import is not repeated each time."""
    global _find_variant
    from .variants import find_variant

    _find_variant = find_variant
    return find_variant(name)


class _DeferredLines:
    """The plain movetext lines of a game, kept as read (see ``Reader(express=True)``)."""

    __slots__ = ("comments", "lines", "numbered", "split", "variant")

    def __init__(self, variant: Variant[Any, Any]) -> None:
        #: Whether a line kept holds a comment; then the record's comments, as read before
        #: it was kept, wait here until the lines are read (``GameRecord.defer``).
        self.comments: tuple[list[str], list[str]] | None = None
        self.lines: list[tuple[int, int, str]] = []  # (line number, start, text)
        #: The game's variant, as the Variant tag names it.
        self.variant = variant
        self.numbered = variant.turn_unit == "numbered"
        #: The words of the lines: they are printable ASCII, where a space is the only
        #: white space, so split() finds the words the lexer finds.
        self.split: list[str] = []

    def words(self) -> list[str]:
        return self.split

    def expand(self, record: GameRecord) -> None:
        """Lex the lines into the record's turns, as the reader would have done at once.

        Lexing is line by line and these lines hold no comment, so lexing them later
        gives the same turns and diagnostics, in the same order (nothing was added to
        the record after them: a diagnostic while lines are kept expands them first).
        """
        if self.comments is not None:
            record.intro_comments, record.closing_comments = self.comments
            self.comments = None
        builder = _Builder(record.line, record)
        builder.numbered = self.numbered
        builder.deferred = self
        builder.undefer()
        builder.finish()


class _Builder:
    """Builds one GameRecord from lexed tokens, grouping words into turns."""

    def __init__(self, line: int, game: GameRecord | None = None) -> None:
        self.game = GameRecord(line=line) if game is None else game
        self.numbered = False
        self.turn: Turn | None = None
        #: The move number waiting for its turn: value, dots, line, column and width.
        self.pending_number: tuple[int, int, int, int, int] | None = None
        self.overflow = False
        self.long_turn: Turn | None = None
        #: Plain movetext lines kept unread for the express check, while that lasts.
        self.deferred: _DeferredLines | None = None
        self.deferred_size = 0

    def start_movetext(self, express: bool = False) -> None:
        variant = _find_variant(self.game.variant_name)
        self.numbered = variant is not None and variant.turn_unit == "numbered"
        if express and variant is not None and variant.express:
            self.deferred = _DeferredLines(variant)

    def keep(self, line: str, number: int, start: int) -> bool:
        """Keep a movetext line unread from ``start``, noting the termination if it ends it.

        A line is kept when it is printable ASCII (tabs allowed) and every comment on it
        ends on it; its words are what the lexer finds (comments blanked, then split at
        white space). The reader's loop needs to know only whether the game has ended; a
        line where a termination could stand anywhere but as its last word, or with a
        comment after it, is not kept (it is read as usual, after the lines kept before it).
        """
        size = self.deferred_size + len(line)
        if size > MAX_DEFERRED or not line.isascii() or line.encode().translate(None, _PLAIN_BYTES):
            return False
        text = line[start:] if start else line
        commented = True
        if "{" in text:
            blanked = _LINE_COMMENT.sub(" ", text)
            # Blanked to their length where a termination may stand (its column is kept).
            text = _LINE_COMMENT.sub(_blank, text) if ":" in blanked or "*" in blanked else blanked
            if "{" in text or "}" in text:
                return False  # a comment left open, or a `}` without its `{`
        elif ";" in text:
            # A `;` comment and no brace comment: the words are those before it, at their
            # columns.
            text = text.partition(";")[0]
            if "}" in text:
                return False  # a `}` without its `{`
        elif "}" in text:
            return False  # a `}` without its `{`
        else:
            commented = False
        if ":" in text or "*" in text:
            stripped = text.rstrip()
            at = max(stripped.rfind(" "), stripped.rfind("\t")) + 1
            last = stripped[at:]
            if last == "*" or _RESULT.fullmatch(last):
                if _may_end(stripped[:at]):
                    return False  # another word before it may end the game
                if commented and len(line.rstrip()) != start + len(stripped):
                    return False  # a comment after the termination belongs to the game's end
                game = self.game
                game.termination = last
                game.termination_line, game.termination_column = number, start + at + 1
            elif _may_end(stripped):
                # A `:` inside a word that starts with a letter (Rivals' `up:R4`, Roll &
                # Write's `Ada:R3`) cannot end the game; one that may is read as usual.
                return False
        deferred = self.deferred
        assert deferred is not None
        if commented and deferred.comments is None:
            deferred.comments = ([], [])
        deferred.lines.append((number, start, line))
        deferred.split += text.split()
        self.deferred_size = size
        return True

    def keep_block(self, block: list[str], number: int) -> bool:
        """Keep movetext lines from line ``number`` on, all of them or none (False).

        What :meth:`keep` does to each line, in a few steps over their text at once: they
        are kept when every one of them would be and none may end the game (the last line
        of a game's movetext, where its termination stands, is left to :meth:`keep`); on
        False the reader takes them one at a time, which says what stops where.
        """
        flat = "".join(block)
        size = self.deferred_size + len(flat)
        if size > MAX_DEFERRED or not flat.isascii() or flat.encode().translate(None, _PLAIN_BYTES):
            return False
        text = "\n".join(block)
        commented = "{" in text or ";" in text or "}" in text
        if commented:
            if "{" in text:
                text = _BLOCK_BRACES.sub(" ", text)
            if ";" in text:
                text = _BLOCK_SEMICOLON.sub(" ", text)
            if "{" in text or "}" in text:
                return False  # a comment left open, or a `}` without its `{`
        if (":" in text or "*" in text) and _may_end(text):
            return False  # a word that may end the game
        deferred = self.deferred
        assert deferred is not None
        if commented and deferred.comments is None:
            deferred.comments = ([], [])
        deferred.lines += zip(range(number, number + len(block)), repeat(0), block, strict=False)
        deferred.split += text.split()
        self.deferred_size = size
        return True

    def undefer(self) -> None:
        """Lex the lines kept so far, and read the rest of the game as usual."""
        deferred = self.deferred
        if deferred is not None:
            self.deferred = None
            termination = self.game.termination
            self.game.termination = None
            for number, start, line in deferred.lines:
                _LEXER._lex(self, line, number, start)
            assert self.game.termination == termination

    def diag(self, d: Diagnostic) -> None:
        if self.deferred is not None:
            self.undefer()  # the turns' own diagnostics come first, as when read at once
        self.game.diagnostics.append(d)

    def _new_turn(self, text: str, line: int, column: int) -> Turn | None:
        turns = self.game.turns
        if len(turns) >= MAX_TURNS:
            if not self.overflow:
                self.overflow = True
                self.diag(_diag("game-too-long", msg("more than {limit} turns in one game; the "
                                                     "rest is skipped",
                                                     limit=MAX_TURNS), line, column, rule="LCN-FILE"))
            return None
        pending = self.pending_number
        if pending is None:
            turn = Turn(text, line, column)
        else:
            turn = Turn(text, line, column, pending[0], pending[1], number_at=(pending[2], pending[3]),
                        number_width=pending[4])
            self.pending_number = None
        turns.append(turn)
        return turn

    def number(self, value: int, dots: int, line: int, column: int, width: int) -> None:
        if self.pending_number is not None:
            self.diag(_diag("move-number", msg("two move numbers in a row"), line, column,
                            rule="LCN-MOVE-NUMBER"))
        self.pending_number = (value, dots, line, column, width)
        if self.numbered:
            self.turn = self._new_turn("", line, column)

    def word(self, text: str, line: int, column: int) -> None:
        if self.numbered:
            turn = self.turn
            if turn is None:
                self.diag(_diag("move-number", msg("a turn must start with its move number (`N.`)"),
                                line, column, rule="LCN-MOVE-NUMBER", length=len(text)))
                turn = self.turn = self._new_turn("", line, column)
                if turn is None:
                    return
            if turn.text:
                if len(turn.text) + len(text) >= MAX_TURN_TEXT:
                    # Each word copies the text so far: a bound keeps a hostile turn of a
                    # million words from taking hours.
                    if self.long_turn is not turn:
                        self.long_turn = turn
                        self.diag(_diag("turn-too-long", msg("turn longer than {limit} "
                                                             "characters; the rest of it is skipped",
                                                             limit=MAX_TURN_TEXT),
                                                         line, column, rule="LCN-FILE",
                                        length=len(text)))
                    return
                turn.parts.append((len(turn.text) + 1, line, column))
                turn.text += " " + text
            else:
                turn.text, turn.line, turn.column = text, line, column
                turn.parts.append((0, line, column))
        else:
            self.turn = self._new_turn(text, line, column)

    def glyph(self, glyph: str, line: int, column: int) -> None:
        target = self.turn
        if target is None:
            self.diag(_diag("glyph", msg("glyph {glyph!r} before any turn", glyph=glyph), line, column,
                            rule="LCN-GLYPH", length=len(glyph)))
            return
        target.glyphs.append(glyph)

    def comment(self, text: str) -> None:
        if self.game.termination is not None:
            self.game.closing_comments.append(text)
        elif self.turn is None:
            self.game.intro_comments.append(text)
        else:
            self.turn.comments.append(text)

    def finish(self) -> GameRecord:
        deferred = self.deferred
        if deferred is not None:
            game = self.game
            game.defer(deferred)  # checked later; pending numbers are found then
            if deferred.comments is not None:
                # The comments read so far wait for the kept lines' comments, which come
                # between them: both lists are made again when the lines are read.
                deferred.comments = (game.intro_comments, game.closing_comments)
                del game.intro_comments, game.closing_comments
            self.deferred = None
            return game
        if self.pending_number is not None and not self.numbered:
            value, _dots, line, column, _width = self.pending_number
            self.diag(_diag("move-number", msg("move number {value}. is not followed by a turn", value=value),
                            line, column, rule="LCN-MOVE-NUMBER"))
        return self.game


def _usual_tag(builder: _Builder, line: str, number: int) -> bool:
    """Take the usual tag line (at the first column, no escape, no carriage return, a new
    name) as it is; False leaves any other line to :func:`_parse_tag`."""
    if line[:1] != "[" or "\\" in line or "\r" in line:
        return False
    match = _TAG.match(line)
    return match is not None and builder.game.tags.add_read(match[1], match[2], number)


def _read_section(builder: _Builder, section: list[str], number: int) -> bool:
    """Take a new game's whole tag section at once when every line of it is a usual tag
    line (as :func:`_usual_tag` takes one) and no name is repeated; False leaves the lines
    to be read one at a time, which says what is wrong where.

    One search over the section's text, instead of a step of the reader's loop and a match
    for each line: a game's tags are most of its lines.
    """
    text = "\n" + "\n".join(section)
    if "\\" in text:
        return False
    pairs = _TAG_LINES.findall(text)
    return len(pairs) == len(section) and builder.game.tags.read_section(pairs, number)


def _parse_tag(builder: _Builder, line: str, number: int) -> None:
    # A tag line that starts at its first column matches as it is (the pattern allows the
    # trailing blanks); any other line is stripped first.
    match = _TAG.match(line) if line[:1] == "[" else None
    if match is not None:
        stripped, offset = line, 0
    else:
        stripped = line.strip()
        match = _TAG.match(stripped)
        offset = len(line) - len(line.lstrip())
    tags = builder.game.tags
    if match:
        name, raw = match.groups()
        value = raw
        if "\\" in raw:
            bad = next((m for m in _ESCAPE.finditer(raw) if m.group(1) not in '"\\'), None)
            if bad is not None:
                builder.diag(_diag("tag-syntax", msg('unknown escape `\\{escape}` in tag value: only '
                                                     '\\" and \\\\ are escapes', escape=bad.group(1)), number,
                                   offset + match.start(2) + bad.start() + 1, rule="LCN-TAG"))
            value = _ESCAPE.sub(lambda m: m.group(1), raw)
        if "\r" in value:
            builder.diag(_diag("tag-syntax", msg("carriage return inside the value of tag {name}: a "
                                                 "tag value is one line; the tag is skipped",
                                                 name=name), number,
                               offset + match.start(2) + raw.index("\r") + 1, rule="LCN-TAG"))
            return
        if name in tags:
            builder.diag(_diag("duplicate-tag", msg("tag {name} appears twice; the first value is "
                                                    "kept", name=name),
                               number, offset + 2, rule="LCN-TAG", length=len(name)))
            return
        tags[name] = value
        tags.lines[name] = number
        return
    # Say precisely what is wrong with the tag line.
    body = stripped[1:]
    name_match = _TAG_NAME.match(body.lstrip())
    lead = len(body) - len(body.lstrip())
    if name_match is None:
        builder.diag(_diag("tag-syntax", msg("expected a tag name after `[` (letters, digits, `_`)"),
                           number, offset + 2 + lead, rule="LCN-TAG"))
        return
    rest_at = lead + name_match.end()
    rest = body[rest_at:]
    quote = rest.find('"')
    if quote < 0 or rest[:quote].strip():
        builder.diag(_diag("tag-syntax", msg('expected `"` to open the value of tag {name}',
                                             name=name_match.group(0)),
                           number, offset + 2 + rest_at + len(rest) - len(rest.lstrip()),
                           rule="LCN-TAG"))
        return
    i = quote + 1
    while i < len(rest):
        if rest[i] == "\\":
            i += 2
            continue
        if rest[i] == '"':
            break
        i += 1
    else:
        builder.diag(_diag("unterminated-string", msg('unterminated string in tag {name}: expected '
                                                      'a closing `"`',
                                                      name=name_match.group(0)),
                                                  number, offset + 2 + rest_at + quote,
                           rule="LCN-TAG"))
        return
    builder.diag(_diag("tag-syntax", msg("expected `]` to close the tag line after its value"),
                       number, offset + 2 + rest_at + i + 1, rule="LCN-TAG"))


class Reader:
    """Streams games from one source. Iterate it, or use :func:`read_games`.

    ``first_line`` numbers the source's first line, for a source that is a part of a file
    cut between two games (``lcn.parallel`` validates such parts in several processes).
    """

    #: Stop at the first blank line after a game's termination (``read_game`` on a stream
    #: that cannot seek back to the start of the next game).
    _until_blank = False

    def __init__(self, source: Source, *, strict: bool = False, first_line: int = 1,
                 express: bool = False) -> None:
        self.source = source
        self.strict = strict
        self.first_line = first_line
        #: Keep the plain movetext of games whose variant has an express check unread
        #: (``GameRecord.deferred``), for the validator; their turns are read when asked for.
        self.express = express and not strict
        #: Diagnostics about the file rather than a game (an empty file).
        self.file_diagnostics: list[Diagnostic] = []

    def __iter__(self) -> Iterator[GameRecord]:
        for game in self._games():
            if self.strict:
                for d in game.diagnostics:
                    if d.is_error:
                        raise LCNError(d)
            yield game

    def _games(self) -> Iterator[GameRecord]:
        lines = _Lines(self.source, self.first_line)
        pending = lines.pending
        builder: _Builder | None = None
        state = "between"  # between | tags | movetext | after
        comment: list[str] | None = None
        comment_at = (0, 0)
        comment_size = 0
        last_line = 0
        seen_any = False
        express = self.express
        #: Lines before this one are not taken as a block again (one that was refused).
        whole_from = 0

        def flush_pending() -> None:
            if pending and builder is not None:
                for d in pending:
                    builder.diag(d)
                pending.clear()

        for number, line in lines:
            last_line = number
            # In the tags and movetext states there is a builder (no assert on this path).
            if state == "tags" and not pending and _usual_tag(builder, line, number):  # type: ignore[arg-type]
                continue  # the next tag line of a tag section (as below, without the rest)
            if (state == "movetext" and comment is None and not pending
                    and builder.deferred is not None  # type: ignore[union-attr]
                    and (line[:1] not in _NOT_MOVETEXT_START
                         or line.lstrip(" \t")[:1] not in _NOT_MOVETEXT_START)):
                assert builder is not None
                if number >= whole_from and (block := lines.block(number)) is not None:
                    whole_from = number + len(block)  # else taken a line at a time below
                    # The game's movetext lines up to its last one taken in one step, then
                    # the last one, where the termination stands, as below.
                    last = len(block) - 1
                    if last >= _BLOCK_LINES and builder.keep_block(block[:last], number):
                        game = builder.game
                        if game.movetext_line is None:
                            game.movetext_line = number
                        if builder.keep(block[last], number + last, 0):
                            lines.take(last)
                            last_line = number + last
                            if game.termination is not None:
                                state = "after"
                        else:
                            lines.take(last - 1)
                            last_line = number + last - 1
                        continue
                if builder.keep(line, number, 0):
                    # A movetext line kept unread for the express check: what the lexer
                    # below does with it (``_lex``), without the steps that cannot apply.
                    game = builder.game
                    if game.movetext_line is None:
                        game.movetext_line = number
                    if game.termination is not None:
                        state = "after"
                    continue
            if comment is not None:
                assert builder is not None
                end = line.find("}")
                if end < 0:
                    comment_size += len(line) + 1
                    if comment_size <= MAX_COMMENT:
                        comment.append(line)
                    elif comment_size - len(line) - 1 <= MAX_COMMENT:
                        builder.diag(_diag(
                            "comment-too-long", msg("comment longer than {limit} characters: "
                                                    "the rest of it, from this line to its `}}`, is "
                                                    "dropped", limit=MAX_COMMENT), number, 1,
                            rule="LCN-COMMENT"))
                    continue
                comment.append(line[:end])
                builder.comment("\n".join(comment).strip())
                comment = None
                flush_pending()
                start = end + 1
            else:
                start = 0
                head = line.lstrip()
                if not head:
                    if state == "after" and self._until_blank:
                        break  # read_game on a stream that cannot seek: the game is read
                    if state == "tags":
                        state = "movetext"
                        assert builder is not None
                        builder.start_movetext(express)
                    if pending:
                        flush_pending()
                    continue
                if head[0] == "[":
                    if builder is not None and state == "movetext" and builder.game.termination is None:
                        builder.diag(_diag(
                            "missing-termination",
                            msg("game has no termination (the final scores or `*`) before the next "
                                "tag section"), number, 1, rule="LCN-TERMINATION"))
                    if builder is not None and state != "tags":
                        yield builder.finish()
                        builder = None
                    new = builder is None
                    if builder is None:
                        builder = _Builder(number)
                        seen_any = True
                    state = "tags"
                    if pending:
                        flush_pending()
                    if new and line[:1] == "[" and (section := lines.section(number)) is not None \
                            and len(section) > 1 and _read_section(builder, section, number):
                        # The whole tag section of a new game in one step, and the
                        # empty line after it when the buffer holds it (what the branch
                        # of a blank line below does with it).
                        taken = len(section)
                        if number - lines.buffer_first + taken < len(lines.buffer or ()):
                            state = "movetext"
                            builder.start_movetext(express)
                            taken += 1
                        lines.take(taken - 1)
                        last_line = number + taken - 1
                        continue
                    if not _usual_tag(builder, line, number):
                        _parse_tag(builder, line, number)
                    continue
                if head[0] == "%" and line[0] == "%" and state in ("between", "after"):
                    continue  # escape line, as in PGN
                if state == "between":
                    builder = _Builder(number)
                    seen_any = True
                    builder.start_movetext(express)
                    state = "movetext"
                    builder.diag(_diag("no-tags", msg("game without a tag section; the classic "
                                                      "variant is assumed"),
                                                  number, len(line) - len(head) + 1,
                                       rule="LCN-FILE", severity=Severity.WARNING))
                elif state == "tags":
                    assert builder is not None
                    builder.diag(_diag("missing-blank-line", msg("expected a blank line between the "
                                                                 "tag section and the movetext"),
                                                             number, 1, rule="LCN-FILE",
                                       severity=Severity.WARNING))
                    state = "movetext"
                    builder.start_movetext(express)
                elif state == "after":
                    assert builder is not None
                    if not (head.startswith("{") or head.startswith(";")):
                        # New movetext after a finished game: a new game without tags.
                        yield builder.finish()
                        builder = _Builder(number)
                        builder.start_movetext(express)
                        state = "movetext"
                        builder.diag(_diag("no-tags", msg("game without a tag section; the classic "
                                                          "variant is assumed"),
                                                      number, len(line) - len(head) + 1,
                                           rule="LCN-FILE", severity=Severity.WARNING))
            assert builder is not None
            if pending:
                flush_pending()
            if builder.game.movetext_line is None:
                builder.game.movetext_line = number
            comment_state = self._lex(builder, line, number, start)
            if comment_state is not None:
                comment, comment_at = [comment_state[0]], comment_state[1]
                comment_size = len(comment_state[0])
            if builder.game.termination is not None:
                state = "after"

        if comment is not None and builder is not None:
            builder.diag(_diag("unterminated-comment", msg("comment opened here is never closed: "
                                                           "expected `}}`"),
                                                       comment_at[0], comment_at[1], rule="LCN-COMMENT"))
            builder.comment("\n".join(comment).strip())
        if builder is not None:
            flush_pending()
            if builder.game.termination is None:
                # The lines kept for the express check are read first: their errors decide
                # the wording below, as when the game is read at once.
                builder.undefer()
            if builder.game.termination is None and not builder.game.has_errors:
                builder.diag(_diag("missing-termination", msg("game has no termination: expected the "
                                                              "final scores or `*` at the end of the "
                                                              "movetext"),
                                   last_line, None, rule="LCN-TERMINATION"))
            elif builder.game.termination is None:
                builder.diag(_diag("missing-termination", msg("game has no termination (the final "
                                                              "scores or `*`)"),
                                                          last_line, None, rule="LCN-TERMINATION"))
            yield builder.finish()
        if not seen_any:
            d = _diag("empty-file", msg("no game found: the input is empty or holds only blank lines"),
                      max(last_line, 1), None, rule="LCN-FILE")
            self.file_diagnostics.extend(pending)
            self.file_diagnostics.append(d)
            if self.strict:
                raise LCNError(d)

    def _lex(self, builder: _Builder, line: str, number: int,
             pos: int) -> tuple[str, tuple[int, int]] | None:
        """Lex one movetext line from ``pos``; return an open comment's start if one is left open."""
        game = builder.game
        plain = line.isprintable() and line.isascii() and "{" not in line and ";" not in line \
            and "}" not in line
        if builder.deferred is not None and game.termination is None:
            if builder.keep(line, number, pos):
                return None
            if plain or builder.deferred.lines or not _only_comment(line, pos):
                builder.undefer()
            # else: a comment before the first turn, read as usual while nothing is kept
        if plain:
            # The common line: words separated by spaces and nothing else, so a plain split
            # finds the same words at the same columns as the lexer below, several times faster.
            column = pos + 1
            word_of = builder.word
            new_turn = None if builder.numbered else builder._new_turn  # a turn per word
            for word in line[pos:].split(" "):
                if word:
                    if game.termination is not None:
                        builder.diag(_diag("after-termination", msg("`{word}` after the termination "
                                                                    "`{termination}`: the game ended "
                                                                    "there",
                                                                    word=word, termination=game.termination),
                                                                number,
                                           column, rule="LCN-TERMINATION", length=len(word)))
                    elif word[-1] == "." and (digits := word.rstrip(".")).isdigit() \
                            and len(digits) <= MAX_NUMBER_DIGITS and digits.isascii():
                        builder.number(int(digits), len(word) - len(digits), number, column, len(word))
                    elif word[0] in _PLAIN_START or word[-1] in "!?":
                        self._word(builder, word, number, column)
                    elif new_turn is not None:
                        builder.turn = new_turn(word, number, column)
                    else:
                        word_of(word, number, column)
                column += len(word) + 1
            return None
        match = _TOKEN.match
        length = len(line)
        while pos < length:
            m = match(line, pos)
            if m is None:
                # Only trailing white space is left, or a character that Unicode counts as
                # white space but LCN does not (a no-break space): report it, and read on
                # as if it were a space, so no word after it is lost.
                at = length - len(line[pos:].lstrip(" \t\f\v\r"))
                if at >= length:
                    break
                char = line[at]
                end = at + 1  # a run of the same character is one problem, underlined whole
                while end < length and line[end] == char:
                    end += 1
                builder.diag(_diag(
                    "bad-space", msg("U+{code:04X} ({name}) in the movetext: words are separated by "
                                     "spaces, tabs and line breaks only",
                                     code=ord(char), name=unicodedata.name(char, msg("a control character"))),
                    number, at + 1, rule="LCN-ENCODING", length=end - at))
                pos = end
                continue
            pos = m.end()
            word = m.group(1)
            if word is not None:
                column = m.start(1) + 1
                if game.termination is not None:
                    builder.diag(_diag("after-termination", msg("`{word}` after the termination "
                                                                "`{termination}`: the game ended "
                                                                "there",
                                                                word=word, termination=game.termination),
                                                            number, column,
                                       rule="LCN-TERMINATION", length=len(word)))
                    continue
                self._word(builder, word, number, column)
                continue
            if m.group(2) is not None:
                start = m.start(2)
                end = line.find("}", pos)
                if end < 0:
                    return line[pos:], (number, start + 1)
                builder.comment(line[pos:end].strip())
                pos = end + 1
                continue
            if m.group(3) is not None:
                builder.comment(line[pos:].strip())
                break
            # A run of them is one problem, underlined whole.
            builder.diag(_diag("comment-syntax", msg("`}}` without an opening `{{`"), number, m.start(4) + 1,
                               rule="LCN-COMMENT", length=m.end(4) - m.start(4)))
        return None

    def _word(self, builder: _Builder, word: str, number: int, column: int) -> None:
        first = word[0]
        if first == "*" and word == "*":
            self._terminate(builder, word, number, column)
            return
        if first == "$":
            digits = word[1:]
            if 0 < len(digits) <= 3 and digits.isascii() and digits.isdigit() and int(digits) <= 255:
                builder.glyph(word, number, column)
            else:
                builder.diag(_diag("glyph", msg("bad numeric annotation `{word}`: expected "
                                                "`$0`..`$255`", word=word),
                                   number, column, rule="LCN-GLYPH", length=len(word)))
            return
        if first.isdigit() or first == "-":
            if _RESULT.fullmatch(word):
                self._terminate(builder, word, number, column)
                return
            # The numbers are taken from a position in the word, which is cut once at the
            # end: cutting it at each number copied the rest of it each time, n² on
            # `1.1.1.…` over a whole line.
            start = 0
            m = _NUMBER.match(word)
            while m:
                size = m.end() - start
                if len(m.group(1)) > MAX_NUMBER_DIGITS:
                    builder.diag(_diag("move-number", msg("move number with {digits} digits: "
                                                          "expected at most {limit}",
                                                          digits=len(m.group(1)),
                                                      limit=MAX_NUMBER_DIGITS), number, column,
                                       rule="LCN-MOVE-NUMBER", length=size))
                else:
                    builder.number(int(m.group(1)), len(m.group(2)), number, column, size)
                start = m.end()
                column += size
                if start == len(word):
                    return
                # What follows a number is read as a word of its own (`9.*` as `9. *`), so
                # that the writer's `N. text` reads back the same (a loop, not recursion:
                # `1.1.1.…` may fill a whole line).
                if (start == len(word) - 1 and word[start] == "*") \
                        or _RESULT.fullmatch(word, start):
                    self._terminate(builder, word[start:], number, column)
                    return
                if word[start] == "$":
                    self._word(builder, word[start:], number, column)
                    return
                m = _NUMBER.match(word, start)
            word = word[start:]
        if word[-1] in "!?":
            cut = len(word.rstrip("!?"))
            glyph = word[cut:]
            word = word[:cut]
            if word:
                builder.word(word, number, column)
            if glyph in SUFFIX_GLYPHS:
                builder.glyph(glyph, number, column + cut)
            else:
                builder.diag(_diag("glyph", msg("unknown glyph `{glyph}`: expected one of ! ? !! ?? "
                                                "!? ?! or $N",
                                                glyph=glyph), number, column + cut, rule="LCN-GLYPH",
                                   length=len(glyph)))
            return
        builder.word(word, number, column)

    def _terminate(self, builder: _Builder, word: str, number: int, column: int) -> None:
        game = builder.game
        game.termination = word
        game.termination_line, game.termination_column = number, column
        builder.turn = None if builder.numbered else builder.turn


def _only_comment(line: str, pos: int) -> bool:
    """Whether a line from ``pos`` holds one comment and nothing else (no word, no glyph)."""
    text = line[pos:].strip()
    if text[:1] == ";":
        return True
    if text[:1] != "{":
        return False
    end = text.find("}")
    return end < 0 or end == len(text) - 1


def read_games(source: Source, *, strict: bool = False) -> Iterator[GameRecord]:
    """Stream the games of a file, path, file object, bytes or string, one at a time.

        >>> games = list(read_games('[Player1 "Ada"]\\n[Player2 "Bo"]\\n\\nYw/d *\\n'))
        >>> games[0].turns[0].text
        'Yw/d'
    """
    return iter(Reader(source, strict=strict))


def read_game(source: Source, *, strict: bool = False) -> GameRecord | None:
    """One game from a source, or None when it holds no more games.

    A str is the text of the games itself (a Path is a file to read): ``read_game("x.lcn")``
    warns, since that reads the name as a game. From a path, bytes or a str this is the
    first game. From an open file, text or binary, it is the next game, and the file is
    left just after it, so that a loop reads every game, as python-chess's ``read_game``
    does with PGN:

        >>> import io
        >>> handle = io.BytesIO(b'[Player1 "Ada"]\\n\\nR5/d *\\n\\n[Player1 "Bo"]\\n\\nB2/d *\\n')
        >>> while (game := read_game(handle)) is not None:
        ...     print(game.tags["Player1"], game.turns[0].text)
        Ada R5/d
        Bo B2/d

    A file that can seek is read line by line and set back to the start of the line that
    begins the next game, so each game is what :func:`read_games` gives. From a stream that
    cannot seek (a pipe), a game ends at the first blank line after its termination, as games
    are written; a next game that follows with no blank line in between loses its first line
    there: use :func:`read_games` on such a stream. Line numbers in diagnostics go on from
    game to game as the file numbers its lines, as long as nothing else moves the file in
    between.
    """
    if isinstance(source, str):
        _warn_if_path(source)
    if isinstance(source, (str, bytes, os.PathLike)):
        return next(iter(Reader(source, strict=strict)), None)
    lines = _HandleLines.of(source)
    first_line = lines.resumed_line()
    reader = Reader(lines.source, strict=strict, first_line=first_line)
    reader._until_blank = not lines.seekable
    games = iter(reader)
    try:
        return next(games, None)
    finally:
        lines.give_back(reader._until_blank)
        lines.remember(first_line)


#: Where :func:`read_game` left each open file: the file's position (None when it cannot
#: tell) and the number of the line that comes next there. A loop of ``read_game(handle)``
#: thus numbers lines as the file does, not from each game's start; a file moved by someone
#: else in between (its position is not the one left) is counted from where it stands.
_LEFT_AT: weakref.WeakKeyDictionary[Any, tuple[int | None, int]] = weakref.WeakKeyDictionary()


#: What makes a str look like a file name rather than a game: one word ending in a file
#: name's suffix (``games.lcn``, ``log.txt.gz``); a move never ends so.
_PATH_LIKE = re.compile(r"[^\s\[\]{};*]+\.[A-Za-z][A-Za-z0-9]{0,4}")


def _warn_if_path(text: str) -> None:
    """Warn when the text given as a game looks like a file name (a common mistake): one
    word with a file name's suffix, or the name of a file or folder that is there."""
    name = text.strip()
    if not name or len(name) > 4096 or any(c.isspace() for c in name) or _RESULT.fullmatch(name):
        return
    if _PATH_LIKE.fullmatch(name) or os.path.exists(name):
        warnings.warn(
            msg("read_game({name!r}): a str is read as the text of a game, and this one looks like a "
                "file name; to read the file, pass a Path: read_game(Path({name!r}))", name=name),
            UserWarning, stacklevel=3)


class _HandleLines:
    """An open file read a line at a time for :func:`read_game`, to be set back after a game.

    The reader reads a line too far (the first line of the next game tells it that a game
    has ended): this remembers where that line began, to seek back to it. A text file's
    position is an opaque number from ``tell()``, taken before each line; a binary file's
    is counted in bytes from one ``tell()``.
    """

    def __init__(self, handle: Any, text: bool) -> None:
        #: Any file-like object: seek and tell are used when it has them.
        self.handle: Any = handle
        self.text = text
        self.last_start: int | None = None
        self.at_end = False
        self.start = 0
        try:
            self.seekable = bool(self.handle.seekable())
            if self.seekable:
                self.start = self.handle.tell()
        except (AttributeError, OSError, ValueError):
            self.seekable = False  # no seek, or tell() refused (a file iterated with next())
        self.position = self.start
        #: Lines read, and whether the last one read is set back (the next game's first).
        self.read = 0
        self.given_back = False
        self.source: Source = _TextLineSource(self) if text else _BinaryLineSource(self)  # type: ignore[assignment]

    @classmethod
    def of(cls, handle: IO[bytes] | IO[str] | BinaryStream) -> _HandleLines:
        if isinstance(handle, io.TextIOBase):
            return cls(handle, True)
        if not isinstance(handle, (io.RawIOBase, io.BufferedIOBase)) and hasattr(handle, "read"):
            return cls(handle, isinstance(handle.read(0), str))
        return cls(handle, False)

    def readline(self, limit: int = -1) -> bytes | str:
        if self.seekable and self.text:
            self.last_start = self.handle.tell()
        else:
            self.last_start = self.position
        line: bytes | str = self.handle.readline(limit)
        if line:
            self.read += 1
        if not line:
            self.at_end = True
        elif not self.text:
            self.position += len(line)
        return line

    def give_back(self, until_blank: bool) -> None:
        """Set the file back to the start of the line read past the game."""
        if self.seekable and not self.at_end and not until_blank and self.last_start is not None:
            self.handle.seek(self.last_start)
            self.given_back = True

    def _tell(self) -> int | None:
        if not self.seekable:
            return None
        try:
            return int(self.handle.tell())
        except (OSError, ValueError):
            return None

    def resumed_line(self) -> int:
        """The number of the file's line at which this read starts: 1, or where the last
        :func:`read_game` on the same file left it."""
        try:
            left = _LEFT_AT.get(self.handle)
        except TypeError:  # a file object that cannot be weakly referenced
            return 1
        if left is None or left[0] != self._tell():
            return 1
        return left[1]

    def remember(self, first_line: int) -> None:
        """Note where this read left the file, for the next one to go on counting."""
        with contextlib.suppress(TypeError):  # a file object that cannot be weakly referenced
            _LEFT_AT[self.handle] = (self._tell(), first_line + self.read - self.given_back)


class _TextLineSource(io.TextIOBase):
    """A text file's lines through :class:`_HandleLines` (a text source to ``_Lines``)."""

    def __init__(self, lines: _HandleLines) -> None:
        self._lines = lines

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        return self._lines.readline(-1 if size is None else size)  # type: ignore[return-value]


class _BinaryLineSource:
    """A binary file's lines through :class:`_HandleLines`: it only reads lines, so
    ``_Lines`` never reads a block past the game."""

    def __init__(self, lines: _HandleLines) -> None:
        self._lines = lines

    def readline(self, limit: int = -1) -> bytes:
        return self._lines.readline(limit)  # type: ignore[return-value]


def read_headers(source: Source) -> Iterator[tuple[Tags, int]]:
    """Stream only the tag sections: (tags, line of the game). Movetext is skipped unlexed.

    This is the fast path for indexing and filtering big files: only brace comments are
    tracked in the movetext, so a ``[`` inside a comment does not start a game.
    """
    items: dict[str, str] | None = None  # the tags of the game being read, and their lines
    lines: dict[str, int] = {}
    game_line = 0
    in_comment = False
    in_tags = False
    for number, line in _Lines(source):
        if in_comment:
            if "}" in line:
                in_comment = _comment_left_open(line, True)
            continue
        first = line[:1]
        if first == "[" or (first.isspace() and line.lstrip()[:1] == "["):
            if not in_tags:
                if items is not None:
                    yield _tags(items, lines), game_line
                items, lines, game_line = {}, {}, number
                in_tags = True
            assert items is not None  # set by the first tag line of the section
            match = _TAG.match(line) if first == "[" else None
            if match is not None and "\\" not in line and "\r" not in line:
                # The usual tag line, taken as it is; the first of two values is kept.
                name, value = match.groups()
                if name not in items:
                    items[name] = value
                    lines[name] = number
            else:  # anything else as the reader takes it (problems are the reader's to tell)
                one = _Builder(number)
                _parse_tag(one, line, number)
                for name in one.game.tags:
                    if name not in items:
                        items[name] = one.game.tags[name]
                        lines[name] = number
            continue
        in_tags = False
        if "{" in line:
            in_comment = _comment_left_open(line, False)
    if items is not None:
        yield _tags(items, lines), game_line


def _tags(items: dict[str, str], lines: dict[str, int]) -> Tags:
    tags = Tags(items)
    tags.lines = lines
    return tags


def _comment_left_open(line: str, in_comment: bool) -> bool:
    """Whether a brace comment is still open at the end of a movetext line.

    Scanned as the lexer does: inside a brace comment only ``}`` counts, and outside one a
    ``;`` comments out the rest of the line, braces included (``} R5/d ; {`` closes).
    """
    at = 0
    while True:
        if in_comment:
            end = line.find("}", at)
            if end < 0:
                return True
            in_comment, at = False, end + 1
        else:
            start = line.find("{", at)
            semicolon = line.find(";", at)
            if start < 0 or 0 <= semicolon < start:
                return False
            in_comment, at = True, start + 1


#: Lexes lines kept unread (its methods only use the builder they are given).
_LEXER = Reader("")

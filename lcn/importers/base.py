"""What every log format plugs into: the Importer interface and the values it returns.

An importer is one module per format. It answers three questions: does this text look like
my format (``detect``, a confidence), what games does it hold (``read``), and, when the
format can be written, what is the text of these games (``write_record``). Everything else
(choosing a format, validating the games under the official rules, placing each rule
problem at its line in the source) is done once, by the registry in ``lcn.importers``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..diagnostics import Diagnostic, Severity
from ..messages import join, msg
from ..model import GameRecord

#: A place in the source: line, column (both 1-based) and the width of the span.
Span = tuple[int, int, int]


@dataclass(slots=True)
class TurnSource:
    """Where the two halves of a turn (placing a card, drawing) stand in the source."""

    place: Span | None = None
    draw: Span | None = None


@dataclass(slots=True)
class SourceMap:
    """Where the parts of one converted game come from, so rule problems point at the source.

    A record built by an importer has no LCN text of its own; a problem the validator finds
    in its 14th turn is shown at the line of the log that produced that turn.
    """

    turns: list[TurnSource] = field(default_factory=list)
    termination: Span | None = None
    #: Whether the record's line and its tags' lines are lines of the source (a log read
    #: line by line) or mean nothing there (a JSON document, a binary string).
    tag_lines: bool = True


@dataclass
class Conversion:
    """What an importer read: the games, what it could not carry over, and their sources.

    ``sources[i]`` is the source map of ``records[i]``, or None when the record was read
    from LCN text and its own lines are the source's lines.
    """

    records: list[GameRecord]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: list[SourceMap | None] = field(default_factory=list)
    #: The format the input turned out to be in, when reading told it apart from a kin
    #: (OpenSpiel's earlier builds); None: the importer's own name.
    format: str | None = None


#: One game as an importer gives it: the record, where its turns come from, and what the
#: importer says of it (its diagnostics, each with ``extra["game"]``).
GameRead = tuple[GameRecord, SourceMap | None, list[Diagnostic]]


@dataclass
class GameStream:
    """What an importer read, the games given one at a time (:meth:`Importer.read_each`).

    Every problem of the input was found before the first game is given (an input that
    cannot be converted converts nothing); ``diagnostics`` are those of no one game.
    """

    games: Iterator[GameRead]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    format: str | None = None

    @classmethod
    def of(cls, conversion: Conversion) -> GameStream:
        """The games of a whole conversion, as a stream."""
        own: dict[object, list[Diagnostic]] = {}
        general: list[Diagnostic] = []
        for d in conversion.diagnostics:
            (own.setdefault(d.extra["game"], []) if "game" in d.extra else general).append(d)
        records, sources = conversion.records, conversion.sources

        def games() -> Iterator[GameRead]:
            for index, record in enumerate(records, 1):
                source = sources[index - 1] if index <= len(sources) else None
                yield record, source, own.get(index, [])
        return cls(games(), general, conversion.format)


class ImportError_(ValueError):
    """The input cannot be converted: every problem found is in ``diagnostics``.

    The name ends in ``_`` so that it never shadows the built-in ``ImportError``; it is a
    ValueError because the input, not the program, is at fault.
    """

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = (),
                 format: str | None = None) -> None:
        self.diagnostics = list(diagnostics)
        self.format = format
        self.message = message
        super().__init__(message)


class DetectionError(ImportError_):
    """No registered format recognises the input (or two recognise it equally well).

    ``tried`` lists every format with the confidence it gave, best first.
    """

    def __init__(self, message: str, tried: list[tuple[str, float]]) -> None:
        super().__init__(message)
        self.tried = tried


class UnknownFormatError(ImportError_):
    """A format name that no importer (or no writer) is registered under."""


class InputTooComplex(ImportError_):
    """An input past a bound the importers keep on its structure (an e-mail of thousands of
    nested parts): refused before the work it would take, like an input too large."""


class ExportError(ValueError):
    """A game that cannot be written in a format (the format needs what the record lacks)."""


def shown(text: str, limit: int = 60) -> str:
    """Input quoted in a message, cut short: a damaged line may be a megabyte long."""
    return text if len(text) <= limit else text[:limit] + "…"


def syntax_error(format: str, problems: list[Diagnostic]) -> ImportError_:
    """The exception for input that cannot be converted, its message naming the first problems."""
    shown: list[str] = []
    for d in problems[:3]:
        if d.line and d.column:
            shown.append(msg("line {line}, column {column}: {message}", line=d.line,
                             column=d.column, message=d.message))
        elif d.line:
            shown.append(msg("line {line}: {message}", line=d.line, message=d.message))
        else:
            shown.append(d.message)
    more = msg(" (and {count} more)", count=len(problems) - 3) if len(problems) > 3 else ""
    return ImportError_(msg("cannot read the input as {format}: {problems}{more}", format=format,
                            problems=join(shown, "; "), more=more), problems, format)


def note(code: str, message: str, severity: Severity = Severity.WARNING, *,
         line: int | None = None, column: int | None = None, length: int = 1,
         game: int | None = None, rule: str | None = None) -> Diagnostic:
    """A diagnostic of an importer (``game`` is the 1-based game it concerns)."""
    extra: dict[str, Any] = {} if game is None else {"game": game}
    return Diagnostic(code, message, severity, line, column if line is not None else None, None,
                      rule, max(length, 1), extra)


class Importer(ABC):
    """A log format: detection, conversion to LCN records, and (optionally) writing."""

    #: Short name used by ``lcn convert --from/--to`` and the site's import form.
    name: ClassVar[str]
    #: A human title for menus.
    title: ClassVar[str]
    #: Whether games can be written in this format (``write_record`` is implemented).
    writes: ClassVar[bool] = False
    #: Whether the text of several games is :meth:`join` of each one's (so games can be
    #: written one at a time, as they are read); False where they make one document.
    streams: ClassVar[bool] = True
    #: Whether :meth:`detect` is given the whole input rather than its head (the first
    #: :data:`lcn.importers.DETECTION_HEAD` characters, cut back to a line end). Detection sees
    #: every upload, of any format and any shape: on the head its cost is bounded whatever the
    #: input, and a few hundred lines tell the formats apart. A format that can only be
    #: recognised whole sets it, and says why.
    detects_whole: ClassVar[bool] = False

    @abstractmethod
    def detect(self, text: str) -> float:
        """How sure the importer is that ``text`` is in its format: 0 (no) to 1 (certain).

        Detection must be cheap and must never raise: it sees every input, of any format.
        ``text`` is the input's head unless :attr:`detects_whole` is set; reading decides
        the rest.
        """

    @abstractmethod
    def read(self, text: str) -> Conversion:
        """Convert the text, or raise ImportError_ listing every problem with its line."""

    def read_detected(self, text: str) -> Conversion:
        """Convert text whose format was detected rather than named (``read`` by default).

        A format with kin that detection does not tell apart (the card namings of
        OpenSpiel's builds) works out which of them the text is in here, and refuses when it
        cannot tell; named, the format reads its own kind only.
        """
        return self.read(text)

    def games_past(self, text: str, limit: int) -> bool | None:
        """Whether the text holds more than ``limit`` games, told without reading them all,
        or None when only reading tells (the games read are then counted, before any is
        validated).

        A format whose inputs can hold thousands of tiny games (LCN: a line each) counts them
        as it streams, so that a body past the limit is refused before it is built whole.
        """
        return None

    def read_each(self, text: str, detected: bool = False) -> GameStream:
        """The games of the text one at a time, for a caller that needs each only once
        (``lcn convert``), or ImportError_ as :meth:`read` (``detected``: as
        :meth:`read_detected`).

        By default the text is read whole; a format whose inputs hold thousands of long games
        builds each when it is asked for, so that they are not all in memory at once.
        """
        return GameStream.of(self.read_detected(text) if detected else self.read(text))

    def write_record(self, record: GameRecord) -> str:
        """The text of one game in this format; ExportError when the game cannot be written."""
        raise ExportError(msg("games cannot be written as {name}", name=self.name))

    def join(self, chunks: list[str]) -> str:
        """The text of several games, from the text of each (one after another by default)."""
        return "".join(chunk if chunk.endswith("\n") else chunk + "\n" for chunk in chunks)

    def write(self, records: Sequence[GameRecord]) -> tuple[str, list[Diagnostic]]:
        """The text of the games that can be written, and an error for each that cannot."""
        chunks: list[str] = []
        problems: list[Diagnostic] = []
        for index, record in enumerate(records, 1):
            written = self.write_one(record, index)
            if isinstance(written, str):
                chunks.append(written)
            else:
                problems.append(written)
        return self.join(chunks), problems

    def write_one(self, record: GameRecord, index: int) -> str | Diagnostic:
        """The text of game ``index`` (1-based), or the error that says why it cannot be
        written."""
        try:
            return self.write_record(record)
        except ExportError as exc:
            return note("export-failed", msg("game {index} cannot be written as {name}: {error}",
                                             index=index, name=self.name,
                                             error=exc.args[0] if exc.args else str(exc)),
                        Severity.ERROR, game=index)

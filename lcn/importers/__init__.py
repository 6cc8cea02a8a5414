"""Importing game logs: one registry of formats for ``lcn convert`` and the site's import form.

Each format is one module with an :class:`Importer`: it recognises its input, converts it
to classic LCN records and says what it could not carry over. This module picks the format
(or detects it), validates every imported game under the official rules and places each
problem at its line in the source. Third-party formats register through the entry point
group ``lcn.importers`` (an entry point names an Importer instance or class)::

    [project.entry-points."lcn.importers"]
    bga = "lcn_bga:IMPORTER"

The public API:

* :func:`formats` — ``[(name, title), ...]`` of the formats that can be read;
* :func:`import_text` — ``ImportResult(records, format, diagnostics, reports)``; raises
  :class:`ImportError_` (a ValueError) when the input cannot be converted, and its
  subclass :class:`DetectionError` when no format recognises it;
* :func:`output_formats` and :func:`export_records` — writing games in a format.

>>> result = import_text("Ada plays the red 7\\nAda draws from the draw pile\\n")
>>> result.format, result.valid
('text', True)
>>> print(result.records[0].turns[0].text)
R7/d
"""

from __future__ import annotations

import dataclasses
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import IO, Any, TypeVar

from ..diagnostics import Diagnostic, Severity
from ..messages import Message, msg
from ..model import GameRecord
from ..validate import GameReport, MatchChecks, validate_games, validate_record
from .base import (
    Conversion,
    DetectionError,
    ExportError,
    GameStream,
    Importer,
    ImportError_,
    InputTooComplex,
    SourceMap,
    Span,
    TurnSource,
    UnknownFormatError,
    note,
)

#: The smallest confidence that counts as recognising an input.
THRESHOLD = 0.3

#: The largest input the importers read, in bytes (or characters, for text): 4 MiB, hundreds
#: of times a long match. Every importer runs in time linear in its input, but holds the whole
#: of it and its words in memory; the limit keeps that memory bounded (a few hundred MB) on
#: endless or hostile input. :func:`read_limited` stops reading a stream as soon as it passes.
MAX_INPUT = 4 * 1024 * 1024

#: How much of an input detection looks at, in characters: 64 KiB, several hundred lines of
#: any log, more than any importer's own window of lines (400 at most) needs, and one line
#: of a hostile input costs no more than this. See :func:`head`.
DETECTION_HEAD = 64 * 1024

#: The built-in formats and their modules, in the order detection lists them.
BUILTIN = {"lcn": "lcn_text", "json": "json_form", "openspiel": "openspiel",
           "metapyziks": "metapyziks", "brdgme": "brdgme", "text": "narrated",
           "openspiel-b1": "openspiel"}

_REGISTRY: dict[str, Importer] = {}
_LOADED = False
_LOAD_LOCK = threading.Lock()


def register_importer(importer: Importer) -> None:
    """Make a format available under its ``name`` (a built-in name cannot be taken)."""
    if importer.name in _REGISTRY and importer.name in BUILTIN:
        raise ValueError(f"the format name {importer.name!r} is taken by a built-in format")
    _REGISTRY[importer.name] = importer


def _load() -> None:
    """Fill the registry once; the flag is set only when it is full.

    A server answers its first requests from several threads at once: had the flag been set
    before the formats were registered, a second thread would have seen an empty registry and
    refused a valid input as "not in any format known here".
    """
    global _LOADED
    if _LOADED:
        return
    with _LOAD_LOCK:
        if not _LOADED:
            _fill()
            _LOADED = True


def _fill() -> None:
    import importlib

    for name, module_name in BUILTIN.items():
        module = importlib.import_module(f"lcn.importers.{module_name}")
        # A module may hold kindred formats (IMPORTERS), each registered under its name.
        for importer in getattr(module, "IMPORTERS", (module.IMPORTER,)):
            if importer.name == name:
                register_importer(importer)
    try:
        entry_points = metadata.entry_points(group="lcn.importers")
    except Exception:  # a broken installation must not break the built-in formats
        entry_points = ()  # type: ignore[assignment]
    for entry in entry_points:
        try:
            loaded = entry.load()
            importer = loaded() if isinstance(loaded, type) else loaded
            if not isinstance(importer, Importer):
                raise TypeError(f"{entry.value} is not an lcn.importers.Importer")
            register_importer(importer)
        except Exception as exc:
            warnings.warn(f"lcn.importers entry point {entry.name!r} cannot be loaded: {exc}",
                          RuntimeWarning, stacklevel=2)


def get_importer(name: str) -> Importer:
    """The importer registered under ``name``; UnknownFormatError lists the known ones."""
    _load()
    importer = _REGISTRY.get(name)
    if importer is None:
        known = ", ".join(_REGISTRY)
        raise UnknownFormatError(msg("unknown format {name!r}: the formats are {known}", name=name,
                                     known=known))
    return importer


def formats() -> list[tuple[str, str]]:
    """The formats that can be read, as ``(name, title)``, built-in ones first.

    The titles are messages, said in a reader's language where the catalog has them (a
    format from another package keeps its own wording).
    """
    _load()
    return [(importer.name, Message(importer.title)) for importer in _REGISTRY.values()]


def output_formats() -> list[tuple[str, str]]:
    """The formats games can be written in, as ``(name, title)``."""
    _load()
    return [(importer.name, Message(importer.title)) for importer in _REGISTRY.values()
            if importer.writes]


@dataclass
class ImportResult:
    """The games of an input, the format they were read as, and every diagnostic.

    ``diagnostics`` holds what the importer could not carry over (warnings, notes) and
    what the official rules say about each game (``extra["game"]`` is the game's 1-based
    index); lines and columns are those of the input. ``reports[i]`` is the validation
    report of ``records[i]``.
    """

    records: list[GameRecord]
    format: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    reports: list[GameReport] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """Whether every game is valid under the official rules and nothing failed."""
        return not any(d.is_error for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary for programs (the site's import form answers with it)."""
        return {
            "format": self.format,
            "valid": self.valid,
            "games": [report.to_json() for report in self.reports],
            "diagnostics": [dict(d.to_json(), game=d.extra.get("game")) for d in self.diagnostics],
        }


class InputTooLarge(ImportError_):
    """An input larger than :data:`MAX_INPUT`: refused before the importers see it."""

    def __init__(self, limit: int = MAX_INPUT) -> None:
        self.limit = limit
        super().__init__(msg("the input is larger than {size}, the most the importers read: split "
                             "it into several files", size=_size(limit)))


class TooManyGames(ImportError_):
    """An input of more games than the caller takes (:func:`import_text`'s ``most_games``),
    found before any game is validated."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(msg("the input holds more than {limit} games, the most that can be "
                             "imported at once: split it", limit=limit))


def _size(count: int) -> str:
    if count % 1024**2 == 0:
        return msg("{count} MiB", count=count // 1024**2)
    return msg("{count} bytes", count=count)


def read_limited(stream: IO[bytes], limit: int = MAX_INPUT) -> bytes:
    """All of a binary stream, or InputTooLarge as soon as it passes ``limit`` bytes.

    Reads in pieces, so an endless stream (``/dev/zero``, a pipe that never closes after
    sending too much) costs at most ``limit`` bytes of memory and stops there.
    """
    pieces: list[bytes] = []
    size = 0
    while True:
        piece = stream.read(min(1 << 16, limit + 1 - size))
        if not piece:
            return b"".join(pieces)
        size += len(piece)
        if size > limit:
            raise InputTooLarge(limit)
        pieces.append(piece)


def decode(data: str | bytes) -> str:
    """The text of an input: UTF-8, with a byte order mark dropped and line ends unified."""
    if isinstance(data, bytes):
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            start = data.rfind(b"\n", 0, exc.start) + 1
            column = len(data[start:exc.start].decode("utf-8", "replace")) + 1
            problem = note("encoding", msg("invalid UTF-8 byte 0x{byte:02x}: logs are read as UTF-8 "
                                           "(convert with e.g. `iconv -f latin1 -t utf-8`)",
                                           byte=data[exc.start]),
                           Severity.ERROR, line=line, column=column)
            raise ImportError_(msg("line {line}, column {column}: {message}", line=line,
                                   column=column, message=problem.message), [problem]) from None
    else:
        text = data.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def head(text: str, size: int = DETECTION_HEAD) -> str:
    """The part of ``text`` detection looks at: its first ``size`` characters, cut back to
    the end of a line when one is there, so that no importer sees half a last line.

    Detection runs on every upload, before the format is known; on the whole of a 2 MiB
    line of trailing commas the narrated format's parser alone took 4 s. The import still
    reads everything.
    """
    if len(text) <= size:
        return text
    end = text.rfind("\n", 0, size)
    return text[:end + 1] if end > 0 else text[:size]


def detect(text: str) -> list[tuple[str, float]]:
    """Every format's confidence that ``text`` is in it, best first.

    Each format sees the :func:`head` of the text, or the whole of it if it
    :attr:`~Importer.detects_whole`.
    """
    _load()
    scores = []
    start = head(text)
    for importer in _REGISTRY.values():
        try:
            score = float(importer.detect(text if importer.detects_whole else start))
        except Exception:  # a faulty plugin must not stop detection
            score = 0.0
        scores.append((importer.name, max(0.0, min(1.0, score))))
    return sorted(scores, key=lambda item: -item[1])


def other_format(data: str | bytes) -> tuple[str, float] | None:
    """The format other than LCN that the start of an input reads as for certain (its name
    and confidence), or None.

    ``lcn validate`` asks this of a file none of whose games is valid: another program's log
    read as LCN gives hundreds of errors that say nothing of what it is, where a word saying
    which log it is and that ``lcn convert`` reads it is all the user needs.
    """
    if isinstance(data, bytes):
        data = data[:DETECTION_HEAD].decode("utf-8", "replace")
    tried = detect(head(data.removeprefix("\ufeff").replace("\r\n", "\n")))
    name, score = tried[0]
    if name == "lcn" or score < THRESHOLD:
        return None
    return name, score


def _choose(text: str) -> tuple[Importer, list[tuple[str, float]] | None]:
    """The format of an input, and, when detection was unsure, every confidence (best first).

    An input no format recognises for certain (a damaged file, most often) is read as the
    most likely format all the same, so that its error says where the input goes wrong
    (line and column) instead of only that no format fits; :func:`import_text` adds a note
    naming the other candidates. Only an input that no format recognises at all, or two
    recognise equally well, gets a DetectionError straight away.
    """
    tried = detect(text)
    best, score = tried[0] if tried else ("", 0.0)
    listing = ", ".join(f"{name} ({value:.2f})" for name, value in tried)
    if not text.strip():
        raise DetectionError(msg("the input is empty: there is no game to import"), tried)
    if score <= 0.0:
        start = len(text) - len(text.lstrip())
        line = text.count("\n", 0, start) + 1
        column = start - (text.rfind("\n", 0, start) + 1) + 1
        message = msg("the input is not in any format known here (tried {listing}); name its "
                      "format if it is one of them, to see what is wrong", listing=listing)
        error = DetectionError(message, tried)
        error.diagnostics = [note("unknown-format", message, Severity.ERROR, line=line,
                                  column=column)]
        raise error
    rivals = [name for name, value in tried if value == score and name != best]
    if rivals:
        raise DetectionError(msg("the input could be {best} or {rivals} (tried {listing}); name "
                                 "its format", best=best, rivals=" or ".join(rivals),
                                 listing=listing), tried)
    return _REGISTRY[best], (tried if score < THRESHOLD else None)


def _unsure(importer: Importer, tried: list[tuple[str, float]],
            exc: ImportError_ | None) -> DetectionError:
    """The error of an input detection was unsure of: the most likely format's own problems."""
    others = [f"{name} ({value:.2f})" for name, value in tried[1:] if value > 0]
    nothing = [name for name, value in tried[1:] if value <= 0]
    score = tried[0][1]
    candidates: str = (msg("; the other candidates are {others}", others=", ".join(others)) if others
                       else msg("; no other format recognises anything in it"))
    if nothing:
        candidates = msg("{candidates} ({nothing} recognise nothing)", candidates=candidates,
                         nothing=", ".join(nothing)) if others else \
            msg("{candidates} ({nothing})", candidates=candidates, nothing=", ".join(nothing))
    if exc is None:
        message = msg("the input is not in any format known here for certain: it reads as "
                      "{name} (confidence {score:.2f}, below {threshold}){candidates}. Name the "
                      "format (`--from {name}`) to import it as such", name=importer.name,
                      score=score, threshold=THRESHOLD, candidates=candidates)
        error = DetectionError(message, tried)
        error.diagnostics = [note("unknown-format", message, Severity.ERROR, line=1, column=1)]
        error.format = importer.name
        return error
    message = msg("the input is not in any format known here for certain (tried {tried}); read "
                  "as {name}, the most likely, it fails: {reason}",
                  tried=", ".join(f"{n} ({v:.2f})" for n, v in tried), name=importer.name,
                  reason=exc.message)
    error = DetectionError(message, tried)
    error.format = importer.name
    error.diagnostics = [*exc.diagnostics, note(
        "detection", msg("the format was not recognised for certain: these are the problems of "
                         "{name}, the most likely format (confidence {score:.2f}){candidates}. If "
                         "the input is in another format, name it with `--from`",
                         name=importer.name, score=score, candidates=candidates), Severity.INFO)]
    return error


def _placed(d: Diagnostic, record: GameRecord, source: SourceMap | None, game: int) -> Diagnostic:
    """A validation diagnostic of an imported game, moved to the place in the source."""
    extra = dict(d.extra, game=game)
    if source is None:
        return dataclasses.replace(d, extra=extra)
    span: Span | None = None
    if d.turn is not None and 1 <= d.turn <= len(source.turns):
        halves: TurnSource = source.turns[d.turn - 1]
        text = record.turns[d.turn - 1].text
        slash = text.find("/")
        # Imported turns have no line of their own, so the column is the offset in the turn.
        offset = d.column or 0
        on_draw = halves.draw is not None and 0 <= slash <= offset
        span = halves.draw if on_draw else halves.place or halves.draw
    elif d.turn is None and (d.code.startswith("result") or d.code == "game-unfinished"):
        span = source.termination
    elif d.turn is None and d.line and source.tag_lines:
        return dataclasses.replace(d, extra=extra)  # a tag problem, on the tag's source line
    if span is None:
        return dataclasses.replace(d, line=None, column=None, extra=extra)
    return dataclasses.replace(d, line=span[0], column=span[1], length=span[2], extra=extra)


_Read = TypeVar("_Read")


def _read(data: str | bytes, fmt: str | None,
          reading: Callable[[Importer, str, bool], _Read]) -> tuple[Importer, _Read]:
    """The importer of an input and what ``reading(importer, text, detected)`` gives: the
    limits, the detection and its doubts, as :func:`import_text` documents them."""
    if len(data) > MAX_INPUT:
        raise InputTooLarge(MAX_INPUT)
    text = decode(data)
    if fmt is not None:
        importer = get_importer(fmt)
        return importer, reading(importer, text, False)
    importer, unsure = _choose(text)
    try:
        read = reading(importer, text, True)
    except TooManyGames:
        raise
    except ImportError_ as exc:
        if unsure is None:
            raise
        raise _unsure(importer, unsure, exc) from None
    if unsure is not None:
        raise _unsure(importer, unsure, None)
    return importer, read


def import_text(data: str | bytes, fmt: str | None = None, *,
                most_games: int | None = None) -> ImportResult:
    """Read the games of a log in format ``fmt`` (detected when None) and validate them.

    Raises ImportError_ when the input cannot be converted (every problem with its line is
    in ``diagnostics``), and its subclass InputTooLarge for an input over :data:`MAX_INPUT`;
    problems of the games themselves (a rule broken, a result that does not add up) are in
    the result, and ``valid`` is False.

    ``most_games``: TooManyGames for an input of more games, raised before any game is
    validated (validating keeps a report for each, gigabytes for a body of a few hundred
    kilobytes of one-line games). The count is taken in the same detection and read as the
    import, so that a site that limits uploads does not detect and read each one twice.
    """
    def reading(importer: Importer, text: str, detected: bool) -> Conversion:
        if most_games is not None and importer.games_past(text, most_games):
            raise TooManyGames(most_games)
        conversion = importer.read_detected(text) if detected else importer.read(text)
        if most_games is not None and len(conversion.records) > most_games:
            raise TooManyGames(most_games)
        return conversion

    importer, conversion = _read(data, fmt, reading)
    records = conversion.records
    sources = list(conversion.sources) + [None] * (len(records) - len(conversion.sources))
    # By game, in one pass (a pass over them all for each game was quadratic).
    diagnostics: list[Diagnostic] = []
    own: dict[object, list[Diagnostic]] = {}
    for d in conversion.diagnostics:
        (own.setdefault(d.extra["game"], []) if "game" in d.extra else diagnostics).append(d)
    reports = list(validate_games(records))
    for index, (record, report) in enumerate(zip(records, reports, strict=True), 1):
        diagnostics.extend(own.get(index, []))
        placed = [_placed(d, record, sources[index - 1], index) for d in report.diagnostics]
        report.diagnostics[:] = placed
        diagnostics.extend(placed)
    return ImportResult(records, conversion.format or importer.name, diagnostics, reports)


@dataclass
class ImportedGame:
    """One game of :func:`import_each`: its record, its validation report, and every
    diagnostic of it (the importer's, then the validator's, placed in the source)."""

    record: GameRecord
    report: GameReport
    diagnostics: list[Diagnostic]


@dataclass
class ImportStream:
    """The games of an input, validated one at a time as they are taken from ``games``."""

    format: str
    #: The diagnostics of no one game.
    diagnostics: list[Diagnostic]
    games: Iterator[ImportedGame]


def import_each(data: str | bytes, fmt: str | None = None) -> ImportStream:
    """:func:`import_text` for a caller that needs each game once, in order (``lcn
    convert``): the same games, reports and diagnostics, but a game is built and validated
    only when it is taken, so that a file of thousands of long games is never all in memory.

    Every problem that stops the conversion is raised here, before any game is given.
    """
    importer, stream = _read(data, fmt, lambda importer, text, detected:
                             importer.read_each(text, detected))

    def games(stream: GameStream) -> Iterator[ImportedGame]:
        matches = MatchChecks()
        for index, (record, source, own) in enumerate(stream.games, 1):
            report = validate_record(record, index)
            matches.add(report)
            placed = [_placed(d, record, source, index) for d in report.diagnostics]
            report.diagnostics[:] = placed
            yield ImportedGame(record, report, [*own, *placed])
    return ImportStream(stream.format or importer.name, list(stream.diagnostics), games(stream))


@dataclass
class ExportResult:
    """The text of the games written, and an error for each game that could not be."""

    text: str
    format: str
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


def export_records(records: Sequence[GameRecord], fmt: str) -> ExportResult:
    """Write games in an output format (see :func:`output_formats`)."""
    importer = get_importer(fmt)
    if not importer.writes:
        names = ", ".join(name for name, _ in output_formats())
        raise UnknownFormatError(msg("games cannot be written as {format}: the output formats are "
                                     "{names}", format=fmt, names=names))
    text, problems = importer.write(records)
    return ExportResult(text, importer.name, problems)


__all__ = [
    "DETECTION_HEAD",
    "MAX_INPUT",
    "Conversion",
    "DetectionError",
    "ExportError",
    "ExportResult",
    "ImportError_",
    "ImportResult",
    "ImportStream",
    "ImportedGame",
    "Importer",
    "InputTooComplex",
    "InputTooLarge",
    "SourceMap",
    "TooManyGames",
    "TurnSource",
    "UnknownFormatError",
    "detect",
    "export_records",
    "formats",
    "get_importer",
    "head",
    "import_each",
    "import_text",
    "other_format",
    "output_formats",
    "read_limited",
    "register_importer",
]

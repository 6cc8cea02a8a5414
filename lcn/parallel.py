"""Validation in several processes, with the same reports, in the same order, as one.

The file is cut into parts between games, each part is read and validated by a worker
process, and the reports come back in file order; what spans games (the game numbers, the
one Windows line ending warning per file, the checks of matches) is done here, in order,
exactly as :class:`lcn.ValidationRun` does it. A cut is made only where the reader is
between two games in a state that does not depend on what came before: at a tag line
after an empty line, once the game before it has its termination and no comment is open.
A worker checks the second half of that condition on its part; a part whose end it does
not hold for is validated again together with the next part.

Reports travel without the record's turns, the final state and the score's ``details``
(``turn_count`` keeps the number of turns, ``players`` the same names, the score its
totals and breakdown): everything ``lcn validate`` says about a game is kept, and what
only a replay or a score sheet needs is left behind, since sending it would cost about as
much as validating the game did. A file with no place to cut for many parts (one enormous
line, a comment left open over many games) is read on from the last cut in this process,
as :class:`lcn.ValidationRun` would, so memory and time stay bounded whatever the input.
"""

from __future__ import annotations

import io
import multiprocessing
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import IO, Any

from .diagnostics import Diagnostic, Severity
from .model import GameRecord, Tags
from .reader import Reader, _Joined
from .validate import GameReport, MatchChecks, validate_record
from .variants import Score, find_variant

#: Most bytes per part: large enough that sending a part costs little next to validating
#: it, small enough that memory stays bounded. Smaller inputs are cut finer, so that every
#: worker has several parts (and none waits long for the last one).
PART_SIZE = 1 << 20
SMALLEST_PART = 1 << 14
PARTS_PER_JOB = 8
#: Parts sent ahead of the one being reported, per worker (bounds memory on huge files).
AHEAD = 3
#: Most bytes held while looking for a place to cut, in parts; past it, the rest of the
#: file is read on in this process.
LONGEST_UNCUT = 16
#: Where a part may start: an empty line, then a tag line at the first column.
_CUTS = (b"\n\n[", b"\n\r\n[")


@dataclass
class _Part:
    """A piece of the source cut between games: its bytes and the number of its first line.

    ``tail`` is the rest of the stream when the part runs to the end of the file without
    being read into memory first.
    """

    data: bytes
    first_line: int
    #: Offset of the byte after the part in the source.
    end: int
    last: bool = False
    tail: IO[bytes] | None = None

    def joined(self, following: _Part) -> _Part:
        return _Part(self.data + following.data, self.first_line, following.end, following.last,
                     following.tail)


@dataclass
class _PartResult:
    """What a worker sends back for one part."""

    reports: list[_Packed]
    file_diagnostics: list[Diagnostic]
    #: Whether the part ends the way a cut needs (its last game terminated, no comment open).
    clean_end: bool


_DIAGNOSTIC_FIELDS = [f.name for f in fields(Diagnostic)]
_RECORD_FIELDS = [f.name for f in fields(GameRecord) if f.name not in ("tags", "turns", "diagnostics")]
_SEVERITIES = {severity.value: severity for severity in Severity}
#: A report as plain values: pickling the dataclasses themselves costs more than
#: validating the game did.
_Packed = tuple[Any, ...]


def _pack_diagnostics(diagnostics: list[Diagnostic]) -> list[list[Any]]:
    packed = []
    for d in diagnostics:
        values = [getattr(d, name) for name in _DIAGNOSTIC_FIELDS]
        values[_DIAGNOSTIC_FIELDS.index("severity")] = d.severity.value
        packed.append(values)
    return packed


def _unpack_diagnostics(packed: list[list[Any]]) -> list[Diagnostic]:
    at = _DIAGNOSTIC_FIELDS.index("severity")
    out = []
    for values in packed:
        values[at] = _SEVERITIES[values[at]]
        out.append(Diagnostic(*values))
    return out


def _pack(report: GameReport) -> _Packed:
    """A report as plain values, without what only a replay needs (the turns, the state)."""
    variant = report.variant
    record = report.record
    state = report.state
    if variant is None or state is None or variant.players(record, None) == variant.players(record, state):
        state = None  # the names do not need it
    score = report.score
    return (
        record.tags.items(), dict(record.tags.lines), _pack_diagnostics(record.diagnostics),
        [getattr(record, name) for name in _RECORD_FIELDS],
        variant.name if variant is not None else None, _pack_diagnostics(report.diagnostics), state,
        (score.totals, score.breakdown, []) if score is not None else None,
        report.over, report.complete, report.extra, report.turn_count,
    )


def _unpack(packed: _Packed, index: int) -> GameReport:
    (tags, lines, record_diagnostics, record_values, name, diagnostics, state, score, over, complete,
     extra, turn_count) = packed
    record = GameRecord(tags=Tags(dict(tags)), diagnostics=_unpack_diagnostics(record_diagnostics),
                        **dict(zip(_RECORD_FIELDS, record_values, strict=True)))
    record.tags.lines = lines
    return GameReport(index, record, find_variant(name) if name is not None else None,
                      _unpack_diagnostics(diagnostics), state,
                      Score(*score) if score is not None else None, over, complete,
                      extra=extra, turn_count=turn_count)


def _validate_part(part: _Part) -> _PartResult:
    """Read and validate one part (in a worker)."""
    reader = Reader(part.data, first_line=part.first_line)
    reports = []
    last = None
    for index, record in enumerate(reader, 1):
        reports.append(_pack(validate_record(record, index)))
        last = record
    clean = last is not None and last.termination is not None and not any(
        d.code == "unterminated-comment" for d in last.diagnostics)
    return _PartResult(reports, list(reader.file_diagnostics), clean)


class _Cutter:
    """Cuts a binary stream into parts at places where a game starts after an empty line."""

    def __init__(self, handle: IO[bytes], part_size: int) -> None:
        self.handle = handle
        self.part_size = part_size
        self.line = 1
        self.offset = 0
        #: Bytes read but not yet given out in a part.
        self.rest = b""
        self.empty = True
        self.done = False

    def __iter__(self) -> Iterator[_Part]:
        return self

    def __next__(self) -> _Part:
        while not self.done:
            rest = self.rest
            if len(rest) > LONGEST_UNCUT * self.part_size:
                return self.remainder(b"")
            block = self.handle.read(self.part_size)
            data = rest + block if rest else block
            if not block:
                self.done = True
                if data or self.empty:  # an empty file is a part too: the reader says it is empty
                    self.rest = b""
                    return _Part(data, self.line, self.offset + len(data), last=True)
                break
            self.empty = False
            cut = max(data.rfind(sep) for sep in _CUTS)
            if cut <= 0:
                self.rest = data  # no place to cut yet: read on
                continue
            cut = data.index(b"[", cut)
            piece, self.rest = data[:cut], data[cut:]
            first_line = self.line
            self.offset += len(piece)
            self.line += piece.count(b"\n")
            return _Part(piece, first_line, self.offset)
        raise StopIteration

    def remainder(self, head: bytes, first_line: int | None = None) -> _Part:
        """The last part: ``head``, what is read but not given out, and the rest of the stream
        unread, to be read on as it streams."""
        self.done = True
        data, self.rest = head + self.rest, b""
        return _Part(data, self.line if first_line is None else first_line, self.offset + len(data),
                     last=True, tail=self.handle)


class ParallelRun:
    """Validates a file (a path or bytes) with ``jobs`` processes; iterate for the reports.

    The reports and ``file_diagnostics`` are those of :class:`lcn.ValidationRun` on the same
    source, in the same order, except that each report's record has no turns, the report no
    final state and its score no details (see the module's docstring).
    """

    def __init__(self, source: Path | bytes, jobs: int, *, part_size: int | None = None) -> None:
        self.source = source
        self.jobs = max(1, jobs)
        if part_size is None:
            size = source.stat().st_size if isinstance(source, Path) else len(source)
            part_size = min(PART_SIZE, max(SMALLEST_PART, size // (self.jobs * PARTS_PER_JOB)))
        self.part_size = part_size
        self.file_diagnostics: list[Diagnostic] = []
        self._position = 0
        self._tail: IO[bytes] | None = None

    @property
    def position(self) -> int:
        """Bytes of the source whose reports have been given out, or are being given out."""
        return self._tail.tell() if self._tail is not None else self._position

    def __iter__(self) -> Iterator[GameReport]:
        handle: IO[bytes] = (self.source.open("rb") if isinstance(self.source, Path)
                             else io.BytesIO(self.source))
        try:
            yield from self._run(handle)
        finally:
            handle.close()

    def _results(self, handle: IO[bytes]) -> Iterator[_PartResult]:
        """Part results in file order; a part with an unclean end is redone with the next."""
        context = multiprocessing.get_context()
        parts = _Cutter(handle, self.part_size)
        with context.Pool(self.jobs) as pool:
            window: deque[tuple[_Part, Any]] = deque()

            def fill() -> None:
                while len(window) < self.jobs * AHEAD:
                    part = next(parts, None)
                    if part is None:
                        return
                    job = pool.apply_async(_validate_part, (part,)) if part.tail is None else None
                    window.append((part, job))

            fill()
            while window:
                part, pending = window.popleft()
                result = pending.get() if pending is not None else None
                while (result is None or not result.clean_end) and not part.last:
                    if len(part.data) > LONGEST_UNCUT * self.part_size:
                        # Still no place to cut (a comment left open over many games): read on
                        # from here in this process, streaming, rather than hold it all.
                        ahead = b"".join(queued.data for queued, _ in window)
                        window.clear()
                        part = parts.remainder(part.data + ahead, part.first_line)
                        break
                    fill()  # a part that cannot end here: validate it again with the next one
                    if not window:
                        break
                    following, _ = window.popleft()
                    part = part.joined(following)
                    result = None if part.tail is not None else _validate_part(part)
                if part.tail is not None:
                    self._tail = part.tail
                    yield self._read_on(part)
                    return
                assert result is not None
                fill()
                self._position = part.end
                yield result

    @staticmethod
    def _read_on(part: _Part) -> _PartResult:
        """The rest of the file from a part, read here as it streams (the uncuttable case)."""
        assert part.tail is not None
        reader = Reader(_Joined(part.data, part.tail), first_line=part.first_line)  # type: ignore[arg-type]
        result = _PartResult([], reader.file_diagnostics, True)
        result.reports = (_pack(validate_record(record, index))  # type: ignore[assignment]
                          for index, record in enumerate(reader, 1))
        return result

    def _run(self, handle: IO[bytes]) -> Iterator[GameReport]:
        index = 0
        crlf_seen = False
        matches = MatchChecks()
        found_game = False
        for result in self._results(handle):
            for packed in result.reports:
                found_game = True
                index += 1
                report = _unpack(packed, index)
                crlf = [d for d in report.diagnostics if d.code == "crlf"]
                if crlf:
                    if crlf_seen:  # the file's first Windows line ending is the one reported
                        report.diagnostics[:] = [d for d in report.diagnostics if d.code != "crlf"]
                        report.record.diagnostics[:] = [d for d in report.record.diagnostics
                                                        if d.code != "crlf"]
                    crlf_seen = True
                matches.add(report)
                yield report
            if not found_game:
                self.file_diagnostics.extend(result.file_diagnostics)

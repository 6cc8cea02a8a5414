"""Validation in several processes, with the same reports, in the same order, as one.

The file is cut into parts between games, and the parts are validated by ``jobs`` processes:
this one and ``jobs - 1`` workers. The reports come back in file order; what spans games
(the game numbers, the one Windows line ending warning per file, the checks of matches) is
done here, in order, exactly as :class:`lcn.ValidationRun` does it.

A cut is made only where the reader is between two games in a state that does not depend on
what came before: at a tag line after an empty line, once the game before it has its
termination and no comment is open. The first half is found here with small reads around
the place a part should end; the second is checked by whoever validates the part, and a part
whose end does not hold it is validated again together with the next part.

Why it is built this way: on two cores every process competes for both, so what this
process does per game (and what crossing between processes costs) is taken from the
validation itself. So no part's bytes travel: each worker opens the file and reads its own
range (memory given as bytes is inherited by the workers, or sent once to each). This
process validates parts itself whenever the next reports are not back yet, so ``--jobs 2``
is this process and one worker, and neither waits for the other. Every game, validated
here or in a worker, is kept as a few plain values (line, variant, players, turns, end,
totals; its diagnostics and tags only when it has diagnostics or belongs to a match) until
it is given out as a :class:`SentReport`, which has what ``lcn validate`` prints and no
more: no turns, no final state, no score sheet. Sending those cost more than validating the
game did, and keeping whole reports until the parts before them are given out costs the
garbage collector about as much.

A file with no place to cut for many parts (one enormous line, a comment left open over
many games) is read on from the last cut in this process, streaming, as
:class:`lcn.ValidationRun` would, so memory and time stay bounded whatever the input; so is
a source that cannot be read by range (a pipe given by name).

The workers may be another machine's: :class:`FileRuns` takes any pool with the
:class:`Workers` interface, such as a Dask cluster's (:mod:`lcn.cluster`, ``lcn validate
--dask``). For a scheduler of another kind (Spark, Ray, a batch queue), the pieces are
public: :func:`cut_points` (the ranges of a file), :func:`validate_range` (one range,
anywhere) and :func:`merge_ranges` (the reports of the file from the results, in order).
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from concurrent.futures import Future

from .diagnostics import Diagnostic, Severity
from .model import GameRecord, Tags
from .reader import Reader
from .validate import GameReport, MatchChecks, validate_record
from .variants import Variant, find_variant

#: Most bytes per part (memory stays bounded); smaller inputs are cut finer, so that every
#: process has several parts. Parts and their results cross between processes through
#: threads of this process that wait for the interpreter lock (up to the switch interval,
#: 5 ms, while this process validates): a part's result is kept under a pipe's buffer
#: (64 KB, about 40 bytes a game), so that a worker never waits for it to be read.
PART_SIZE = 1 << 19
PARTS_PER_JOB = 8
#: Parts shrink as the end nears (a part is at most the rest over ``jobs * SHRINK``), so
#: that the processes finish close together, down to this size.
SMALLEST_PART = 1 << 14
SHRINK = 4
#: Parts given to each worker and not done yet: enough that it never waits for this
#: process to hand out the next one (which it does between two of its own parts).
AHEAD = 4
#: Most parts whose reports wait here to be given out, per process (bounds memory when
#: the reader of the reports is slow).
WAITING = 6
#: Most bytes held while looking for a place to cut, in parts; past it, the rest of the
#: file is read on in this process.
LONGEST_UNCUT = 16
#: Where a part may start: an empty line, then a tag line at the first column.
_CUTS = (b"\n\n[", b"\n\r\n[")
#: Bytes read at a time while looking for a place to cut, or counting lines.
_BLOCK = 1 << 16
_COUNT_BLOCK = 1 << 20


class FileChanged(OSError):
    """A file that changed while it was being read by range: written to, or replaced under
    its name. Its parts would be of two versions, cut where one had games and read from the
    other, and the reports of no version: they are not to be trusted. ``filename`` is the
    file; reading it again gives reports of what it is now."""


def file_changed(path: Path | str) -> FileChanged:
    return FileChanged(None, "changed while it was read", os.fspath(path))


#: What says a file is the one a part was cut from: inode, size, modification and change
#: times. Any write changes the change time (and so does setting the modification time
#: back); a replacement under the name has another inode. The device is left out: a
#: worker of a cluster sees a shared file system under a device number of its own.
_Identity = tuple[int, int, int, int]


def _identity(info: os.stat_result) -> _Identity:
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


class _Source:
    """The bytes of a file (read by range, never whole) or of memory.

    This process uses one to find the cuts and to read its own parts; each worker makes one
    of its own from the same path or bytes, so the parts never cross between processes.
    A file's :attr:`identity` is taken when it is opened: the parts read by every process
    are of one version of the file only if it is the same after the last one is read
    (:meth:`check`), and the same where each worker read its parts.
    """

    def __init__(self, source: Path | str | bytes) -> None:
        self._data: bytes | None = None
        self._fd: int | None = None
        self._path: Path | str | None = None
        #: The file's identity when it was opened (None for bytes).
        self.identity: _Identity | None = None
        self._device = 0
        #: Whether parts can be read by range (not so for a pipe given by name).
        self.ranged = True
        if isinstance(source, bytes):
            self._data = source
            self.size = len(source)
            return
        self._fd = os.open(source, os.O_RDONLY)
        self._path = source
        info = os.fstat(self._fd)
        self.size = info.st_size
        self.ranged = stat.S_ISREG(info.st_mode)
        self.identity = _identity(info)
        self._device = info.st_dev

    def current(self) -> _Identity | None:
        """The identity of the file open now (None for bytes)."""
        if self._fd is None:
            return None
        return _identity(os.fstat(self._fd))

    def check(self, *, by_name: bool = False) -> None:
        """Raise :class:`FileChanged` if the file open was written to since it was opened,
        or, ``by_name``, if its name is now another file's (where the workers, which open
        it by name, may have read another version). Not for a pipe: read as it streams,
        by one process."""
        if self._fd is None or not self.ranged:
            return
        assert self._path is not None
        if self.current() != self.identity:
            raise file_changed(self._path)
        if by_name:
            try:
                info = os.stat(self._path)
            except OSError:
                raise file_changed(self._path) from None
            if _identity(info) != self.identity or info.st_dev != self._device:
                raise file_changed(self._path)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def read(self, start: int, end: int | None) -> bytes:
        """The bytes from ``start`` to ``end`` (to the end of the source for None)."""
        if self._data is not None:
            return self._data[start:end]
        assert self._fd is not None
        chunks = []
        at = start
        while end is None or at < end:
            chunk = os.pread(self._fd, _COUNT_BLOCK if end is None else min(end - at, _COUNT_BLOCK), at)
            if not chunk:
                break
            chunks.append(chunk)
            at += len(chunk)
        return b"".join(chunks)

    def stream(self, start: int) -> IO[bytes]:
        """The source from ``start`` on, to read as it streams (the uncuttable rest)."""
        if self._data is not None:
            stream: IO[bytes] = io.BytesIO(self._data)
        else:
            assert self._fd is not None
            stream = os.fdopen(os.dup(self._fd), "rb")
        if start:  # never for a pipe, which is read on from its start
            stream.seek(start)
        return stream

    def count_lines(self, start: int, end: int) -> int:
        """Line breaks between two offsets: the number of a part's first line, without
        sending the part anywhere."""
        if self._data is not None:
            return self._data.count(b"\n", start, end)
        return sum(self.read(at, min(at + _COUNT_BLOCK, end)).count(b"\n")
                   for at in range(start, end, _COUNT_BLOCK))

    def find_cut(self, start: int, limit: int) -> int | None:
        """The first place a part may start at or after ``start`` and before ``limit``
        (the offset of its ``[``), or None; read a block at a time."""
        at = max(start - 3, 0)  # a separator may begin just before ``start``
        while at < min(limit, self.size):
            block = self.read(at, at + _BLOCK + 3)  # blocks overlap by a separator's length
            cuts = []
            for sep in _CUTS:
                found = block.find(sep, max(start - at - len(sep) + 1, 0))
                if found >= 0:
                    cuts.append(at + found + len(sep) - 1)
            if cuts:
                return min(cuts) if min(cuts) < limit else None
            at += _BLOCK
        return None


@dataclass
class _Part:
    """A range of the source cut between games, and the number of its first line.

    ``end`` is None for the rest of a source that has no place to cut for too long: it is
    read on in this process, streaming.
    """

    start: int
    end: int | None
    first_line: int
    last: bool = False

    def joined(self, following: _Part) -> _Part:
        return _Part(self.start, following.end, self.first_line, following.last)


class _Cutter:
    """Cuts a source into parts at places where a game starts after an empty line.

    It reads only around the place each part should end (and counts the line breaks of
    each part, for the numbers of the next one's lines). Parts are ``part_size`` bytes,
    fewer near the end of the source (see ``SHRINK``).
    """

    def __init__(self, source: _Source, part_size: int, jobs: int = 1) -> None:
        self.source = source
        self.part_size = part_size
        self.jobs = jobs
        self.start = 0
        self.line = 1
        self.done = False

    def __iter__(self) -> Iterator[_Part]:
        return self

    def __next__(self) -> _Part:
        if self.done:
            raise StopIteration
        start, size = self.start, self.source.size
        if not self.source.ranged:
            self.done = True
            return _Part(start, None, self.line, last=True)
        part_size = min(self.part_size, max(SMALLEST_PART, (size - start) // (self.jobs * SHRINK)))
        if start + part_size >= size:  # an empty file is a part too: the reader says so
            self.done = True
            return _Part(start, size, self.line, last=True)
        limit = start + LONGEST_UNCUT * self.part_size
        cut = self.source.find_cut(start + part_size, limit)
        if cut is None:
            self.done = True
            if limit >= size:
                return _Part(start, size, self.line, last=True)
            return _Part(start, None, self.line, last=True)  # nowhere to cut: read on
        part = _Part(start, cut, self.line)
        self.line += self.source.count_lines(start, cut)
        self.start = cut
        return part


#: A diagnostic as plain values: pickling the dataclass costs more than the values.
_PackedDiagnostic = tuple[Any, ...]
#: A game as sent by a worker: line, variant name, players, turns, over, complete, totals;
#: then, for a game with diagnostics or of a match: diagnostics, tags, tag lines, extra.
_Packed = tuple[Any, ...]
_SEVERITIES = {severity.value: severity for severity in Severity}


def _pack_diagnostics(diagnostics: list[Diagnostic]) -> list[_PackedDiagnostic]:
    return [(d.code, d.message, d.severity.value, d.line, d.column, d.turn, d.rule, d.length, d.extra,
             d.hint) for d in diagnostics]


def _unpack_diagnostics(packed: list[_PackedDiagnostic]) -> list[Diagnostic]:
    return [Diagnostic(code, message, _SEVERITIES[severity], line, column, turn, rule, length, extra,
                       hint)
            for code, message, severity, line, column, turn, rule, length, extra, hint in packed]


def _pack(report: GameReport) -> _Packed:
    """What the first process needs of a report, as plain values.

    Only what is known without the final state and the score sheet is read (``totals``,
    not ``score``): some reports make those on demand, by validating the game again.
    """
    record = report.record
    variant = report.variant
    # A variant is found by its name: the record names it. Its own string is the same for
    # every game, and so pickled once per part.
    name = variant.name if variant is not None else record.variant_name
    head = (record.line, name, report.players, report.turn_count, report.over, report.complete,
            report.totals)
    tags = record.tags
    match = "Match" in tags
    if not report.diagnostics and not match and not report.extra:
        return head
    # The tags travel only with a game of a match: the checks that span games read them.
    return (*head, _pack_diagnostics(report.diagnostics), tags.items() if match else None,
            dict(tags.lines) if match else None, report.extra)


def _clean_end(last: GameRecord | None) -> bool:
    """Whether a part may end after this game: it has its termination, no comment is open."""
    return last is not None and last.termination is not None and not any(
        d.code == "unterminated-comment" for d in last.diagnostics)


def _reader(data: bytes | IO[bytes], first_line: int) -> Reader:
    """The reader of a part: express, as :class:`lcn.ValidationRun`'s (plain games are
    decided from their words, and their reports read neither the state nor the score)."""
    return Reader(data, first_line=first_line, express=True)


@dataclass
class _Outcome:
    """A part's games (packed), its file diagnostics, and whether it ends clean."""

    games: list[_Packed | int]
    file_diagnostics: list[Diagnostic]
    clean_end: bool


def _packed_games(reader: Reader, count_plain: bool, last: list[GameRecord]) -> Iterator[_Packed | int]:
    """The games of a reader, validated and packed; ``last`` gets the last record read.

    With ``count_plain``, a run of plain games (valid, without a diagnostic, not of a
    match) is sent as their number alone: a caller that prints only problems needs no more
    of them, and most games of a big file are such.
    """
    plain = 0
    for index, record in enumerate(reader, 1):
        report = validate_record(record, index)
        last[:] = [record]
        if count_plain and not report.diagnostics and "Match" not in record.tags:
            plain += 1
            continue
        if plain:
            yield plain
            plain = 0
        yield _pack(report)
    if plain:
        yield plain


def _validate(source: _Source, start: int, end: int | None, first_line: int,
              count_plain: bool = False) -> _Outcome:
    """Read and validate one part, in a worker or here.

    The games are packed here too: a part's whole reports, kept until the parts before it
    are given out, would cost the garbage collector more than validating them did.
    """
    reader = _reader(source.read(start, end), first_line)
    last: list[GameRecord] = []
    games = list(_packed_games(reader, count_plain, last))
    return _Outcome(games, reader.file_diagnostics, _clean_end(last[0] if last else None))


#: The source a worker process was started with (bytes, or a path), if any.
_worker_source: _Source | None = None
#: The file a worker process read a part of last, kept open for the next part of it.
_worker_file: tuple[Path, _Source] | None = None
#: What a worker sends back for a part: its games, file diagnostics and whether it ends clean.
_SentOutcome = tuple[list[_Packed | int], list[_PackedDiagnostic], bool]
#: What a worker sends back for a range of a file: the same, and the identity of the file
#: it read the range from, taken after reading it (None for bytes).
_SentPart = tuple[list[_Packed | int], list[_PackedDiagnostic], bool, _Identity | None]


def _start_worker(source: Path | bytes | None) -> None:
    global _worker_source
    # Ctrl-C reaches every process of the terminal's group: the first process alone answers
    # it, and stops the workers (a worker interrupted would only print a traceback).
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_source = _Source(source) if source is not None else None


def _worker_source_for(path: Path | None) -> _Source:
    """The source of a part: the worker's own, or the file named (one pool serves a
    command's every file; the last file read stays open for its next part)."""
    global _worker_file
    if path is None:
        assert _worker_source is not None
        return _worker_source
    if _worker_file is None or _worker_file[0] != path:
        if _worker_file is not None:
            _worker_file[1].close()
            _worker_file = None
        _worker_file = (path, _Source(path))
    return _worker_file[1]


def _validate_sent(path: Path | None, start: int, end: int, first_line: int, count_plain: bool
                   ) -> _SentPart:
    """Validate one part in a worker: what :func:`_validate` finds, as plain values, and the
    identity of the file it was read from (compared with the first process's)."""
    source = _worker_source_for(path)
    outcome = _validate(source, start, end, first_line, count_plain)
    return (outcome.games, _pack_diagnostics(outcome.file_diagnostics), outcome.clean_end,
            source.current())


def _validate_whole(path: Path | str, count_plain: bool) -> _Outcome:
    """Validate a whole small file as one part (as :class:`ParallelRun` does a file smaller
    than a part)."""
    source = _Source(path)
    try:
        outcome = _validate(source, 0, source.size, 1, count_plain)
        source.check()  # written to while it was read: a mixture of two versions
        return outcome
    finally:
        source.close()


def _validate_files(paths: Sequence[Path | str], count_plain: bool) -> list[_SentOutcome | OSError]:
    """Validate a group of small files in a worker, each whole; a file that cannot be read
    gives its error, reported at its place by the first process."""
    sent: list[_SentOutcome | OSError] = []
    for path in paths:
        try:
            outcome = _validate_whole(path, count_plain)
        except OSError as exc:
            sent.append(exc)
            continue
        sent.append((outcome.games, _pack_diagnostics(outcome.file_diagnostics), outcome.clean_end))
    return sent



class SentRecord:
    """The part of a game's record that a worker sends back: where it starts, its variant
    and, for a game of a match only, its tags (the checks that span games read them)."""

    __slots__ = ("line", "tags", "variant_name")

    def __init__(self, line: int, variant_name: str, tags: Tags) -> None:
        self.line = line
        self.variant_name = variant_name
        self.tags = tags


class SentReport:
    """A game validated by :class:`ParallelRun`: what :class:`lcn.GameReport` says about it
    for ``lcn validate``, without the turns, the final state and the score sheet.

    It has the report's ``index``, ``variant``, ``diagnostics``, ``players``, ``totals``,
    ``over``, ``complete``, ``turn_count``, ``extra``, ``valid`` and ``to_json()``, and a
    ``record`` with ``line``, ``variant_name`` and ``tags`` (see :class:`SentRecord`).
    """

    __slots__ = ("complete", "diagnostics", "extra", "index", "over", "players", "record", "totals",
                 "turn_count", "variant")

    def __init__(self, index: int, record: SentRecord, variant: Variant[Any, Any] | None,
                 diagnostics: list[Diagnostic], players: list[str], totals: list[int] | None,
                 over: bool, complete: bool, turn_count: int, extra: dict[str, Any]) -> None:
        self.index = index
        self.record = record
        self.variant = variant
        self.diagnostics = diagnostics
        self.players = players
        self.totals = totals
        self.over = over
        self.complete = complete
        self.turn_count = turn_count
        self.extra = extra

    # The same definitions as a whole report's, so that both print alike.
    if TYPE_CHECKING:  # what they are for this class (they read only the fields above)
        @property
        def valid(self) -> bool: ...
        def to_json(self) -> dict[str, Any]: ...
    else:
        valid = GameReport.valid
        to_json = GameReport.to_json


class Pending(Protocol):
    """A part's or a group's result to come (a ``concurrent.futures.Future``, or a
    cluster's future wrapped to look like one)."""

    def done(self) -> bool: ...

    def result(self) -> Any: ...


class Workers(Protocol):
    """What :class:`FileRuns` and :class:`ParallelRun` ask of the workers they hand parts to:
    the processes of this machine (``--jobs``), or a cluster's (``--dask``, see
    :mod:`lcn.cluster`).

    ``submit`` gives back what :func:`_validate_sent` gives for a part, ``submit_files``
    what :func:`_validate_files` gives for a group of small files. A pending result that
    fails with ``BrokenProcessPool`` means the workers are gone: the rest is validated in
    this process, with the same reports.
    """

    #: Parts or groups the workers validate at once (sizes the parts and the window).
    count: int
    #: Whether the workers were stopped (at the end, or found gone).
    stopped: bool
    #: Whether this process validates parts too while the next reports are not back. True
    #: for processes of this machine, which share its cores; false for a cluster, where this
    #: process only hands out parts and prints (its core stays free for that).
    here_too: bool

    def submit(self, start: int, end: int, first_line: int, count_plain: bool,
               path: Path | None = None) -> Pending: ...

    def submit_files(self, paths: list[Path], count_plain: bool) -> Pending: ...

    def stop(self) -> None: ...


def _broken_pool() -> type[BaseException]:
    """``BrokenProcessPool``, the failure of a pending result whose workers are gone (the
    class a cluster's pool raises too). Imported when an exception is matched against it:
    ``concurrent.futures`` and ``multiprocessing`` take longer to import than a small
    file takes to validate, and the workers of ``--jobs`` are forked without them."""
    from concurrent.futures.process import BrokenProcessPool

    return BrokenProcessPool


def _pool(count: int, source: Path | bytes | None) -> Workers:
    """``count`` worker processes of this machine: forked (:class:`_Workers`) where a fork
    is safe, else a ``concurrent.futures`` process pool (:class:`_Executor`)."""
    if _fork_safe():
        return _Workers(count, source)
    return _Executor(count, source)


def _fork_safe() -> bool:
    """Whether workers may be forked from this process now: where a fork is the usual way,
    and while no other thread runs (a lock another thread holds at the fork stays held in
    the child for ever; a server or a Dask client has such threads)."""
    return _FORK and threading.active_count() == 1


#: Whether the workers are forked from this process: on systems where a fork is the usual
#: way (not macOS, whose system libraries may not survive one; not Windows, without it).
_FORK = hasattr(os, "fork") and sys.platform != "darwin"
_HEADER = 8


class _Task:
    """A task given to a forked worker, and its result once it is back (see :class:`Pending`)."""

    __slots__ = ("_child", "_done", "_error", "_value")

    def __init__(self, child: _Child) -> None:
        self._child = child
        self._done = False
        self._value: Any = None
        self._error: BaseException | None = None

    def done(self) -> bool:
        if not self._done:
            self._child.receive(block=False)
        return self._done

    def result(self) -> Any:
        while not self._done:
            self._child.receive(block=True)
        if self._error is not None:
            raise self._error
        return self._value


def _preload() -> None:
    """Load the classic variant before workers are forked, and nothing else.

    The other built-in variants and the plugins' entry points are loaded where a game asks
    for them: in this process and a worker at once, rather than in this process alone while
    the worker waits to be started (the other engines and the scan of the entry points cost
    tens of milliseconds, a large share of a command over many small classic files).
    ``pickle``, which carries the work to the workers and back, is imported here too rather
    than by every command: one job does not need it.
    """
    import pickle  # noqa: F401 - inherited by the workers

    find_variant("classic")


def _wait(readable: int, writable: int | None = None) -> None:
    """Wait until ``readable`` has something to read or ``writable`` room to write.

    ``poll`` rather than ``select``: a process with more than 1,024 files open (a caller
    of the library may have them) has descriptors ``select`` cannot watch."""
    import select  # a run of one job has no worker to wait for

    poller = select.poll()
    poller.register(readable, select.POLLIN)
    if writable is not None:
        poller.register(writable, select.POLLOUT)
    poller.poll()


class _Child:
    """One forked worker: the pipe its tasks go down, the pipe its results come up."""

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid = pid
        self.tasks = tasks
        self.results = results
        self.waiting: deque[_Task] = deque()
        self.received = bytearray()
        self.gone = False
        os.set_blocking(tasks, False)
        os.set_blocking(results, False)

    def send(self, name: str, args: tuple[Any, ...]) -> _Task:
        if self.gone:
            raise _broken_pool()("a worker process is gone")
        import pickle  # only a run with workers needs it (see ``_preload``)

        body = pickle.dumps((name, args), pickle.HIGHEST_PROTOCOL)
        data = memoryview(len(body).to_bytes(_HEADER, "little") + body)
        task = _Task(self)
        self.waiting.append(task)
        while data:
            try:
                data = data[os.write(self.tasks, data):]
            except BlockingIOError:
                # Its pipe is full: read what it sends meanwhile, so that neither waits
                # for the other for ever.
                _wait(self.results, self.tasks)
                self.receive(block=False)
            except OSError:  # BrokenPipeError: it died
                self._lost()
                raise _broken_pool()("a worker process terminated abruptly") from None
        return task

    def receive(self, block: bool) -> None:
        """Read what the worker has sent (waiting for something when ``block``), and give
        each whole result to its task, in order."""
        if self.gone:
            self._lost()
            return
        while True:
            try:
                chunk = os.read(self.results, 1 << 16)
            except BlockingIOError:
                if not block:
                    break
                _wait(self.results)
                continue
            if not chunk:  # it died (killed, out of memory)
                self._lost()
                return
            self.received += chunk
            block = False  # something came: take it, and whatever else is there
            while len(self.received) >= _HEADER:
                size = int.from_bytes(self.received[:_HEADER], "little")
                if len(self.received) < _HEADER + size:
                    break
                import pickle

                ok, value = pickle.loads(self.received[_HEADER:_HEADER + size])
                del self.received[:_HEADER + size]
                task = self.waiting.popleft()
                task._done = True
                if ok:
                    task._value = value
                else:
                    task._error = value

    def _lost(self) -> None:
        self.gone = True
        error = _broken_pool()("a worker process terminated abruptly")
        while self.waiting:
            task = self.waiting.popleft()
            task._done, task._error = True, error

    def stop(self) -> None:
        # Imported here: the enums of every signal cost a run of one job a millisecond.
        import signal

        for fd in (self.tasks, self.results):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _serve(tasks: int, results: int, source: Path | bytes | None) -> None:
    """A forked worker: run the tasks that come down ``tasks``, send each result up
    ``results``, until the first process closes its end."""
    import pickle

    _start_worker(source)
    incoming = os.fdopen(tasks, "rb")
    while True:
        header = incoming.read(_HEADER)
        if len(header) < _HEADER:
            return
        name, args = pickle.loads(incoming.read(int.from_bytes(header, "little")))
        try:
            task = _validate_sent if name == "part" else _validate_files
            answer: tuple[bool, Any] = (True, task(*args))
        except BaseException as exc:  # sent back, raised where the result is asked for
            answer = (False, exc)
        try:
            body = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception:  # an exception that cannot be pickled: its words at least
            body = pickle.dumps((False, RuntimeError(repr(answer[1]))), pickle.HIGHEST_PROTOCOL)
        data = memoryview(len(body).to_bytes(_HEADER, "little") + body)
        while data:
            data = data[os.write(results, data):]


class _Workers:
    """Worker processes forked from this one, after its imports: nothing to import or
    start again, and nothing to send but each task's few values and its result.

    Why not ``concurrent.futures``: its pool hands tasks and results over through threads
    of this process, which wait for the interpreter lock while this process validates
    (up to the switch interval each time), and its modules take longer to import than a
    small file takes to validate. Here a task is written down a pipe and its result read
    from another when this process asks for it, between two parts of its own; a worker
    that dies closes its pipe, which fails its tasks with ``BrokenProcessPool`` as the
    ``concurrent.futures`` pool does. Used where a fork is safe (:func:`_pool`).
    """

    #: Pools started by this process (tests count them: one per command).
    started = 0
    here_too = True

    def __init__(self, count: int, source: Path | bytes | None) -> None:
        self.count = count
        self.stopped = False
        self.children: list[_Child] = []
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
            with contextlib.suppress(Exception):
                stream.flush()
        for _ in range(count):
            task_read, task_write = os.pipe()
            result_read, result_write = os.pipe()
            pid = os.fork()
            if pid == 0:  # the worker
                status = 0
                try:
                    os.close(task_write)
                    os.close(result_read)
                    for sibling in self.children:
                        os.close(sibling.tasks)
                        os.close(sibling.results)
                    _serve(task_read, result_write, source)
                except BaseException:
                    status = 1
                finally:
                    os._exit(status)  # never this process's exit handlers or buffers
            os.close(task_read)
            os.close(result_write)
            self.children.append(_Child(pid, task_write, result_read))
        _Workers.started += 1

    def _next(self) -> _Child:
        """The worker with the fewest tasks not done."""
        return min(self.children, key=lambda child: len(child.waiting))

    def submit(self, start: int, end: int, first_line: int, count_plain: bool,
               path: Path | None = None) -> _Task:
        """A part of ``path`` (None: of the source the pool was started with)."""
        return self._next().send("part", (path, start, end, first_line, count_plain))

    def submit_files(self, paths: list[Path], count_plain: bool) -> _Task:
        """A group of small files, each validated whole (their names go as text: a path
        object takes longer to pickle and to make again than its file takes to validate)."""
        return self._next().send("files", ([os.fspath(path) for path in paths], count_plain))

    def stop(self) -> None:
        """Stop at once: the tasks not done are dropped and the workers killed."""
        if self.stopped:
            return
        self.stopped = True
        for child in self.children:
            child.stop()


class _Executor:
    """The worker processes, each reading the source by range.

    A process pool of ``concurrent.futures`` rather than ``multiprocessing.Pool``: when a
    worker dies abruptly, its futures fail (``BrokenProcessPool``) instead of waiting for
    ever, and stopping never waits on a queue lock a dead worker held.
    """

    here_too = True

    def __init__(self, count: int, source: Path | bytes | None) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self._before = {child.pid for child in multiprocessing.active_children()}
        self.count = count
        #: Whether the pool was stopped (at the end, or found broken).
        self.stopped = False
        self._executor = ProcessPoolExecutor(count, multiprocessing.get_context(), _start_worker,
                                             (source if isinstance(source, bytes) else None,))
        _Workers.started += 1

    def submit(self, start: int, end: int, first_line: int, count_plain: bool,
               path: Path | None = None) -> Future[Any]:
        """A part of ``path`` (None: of the source the pool was started with)."""
        return self._executor.submit(_validate_sent, path, start, end, first_line, count_plain)

    def submit_files(self, paths: list[Path], count_plain: bool) -> Future[Any]:
        """A group of small files, each validated whole."""
        return self._executor.submit(_validate_files, paths, count_plain)

    def stop(self) -> None:
        """Stop at once: the parts still queued are dropped and the workers killed."""
        import multiprocessing

        self.stopped = True
        self._executor.shutdown(wait=False, cancel_futures=True)
        for child in multiprocessing.active_children():
            if child.pid not in self._before:
                child.kill()
                child.join()
                # The pool's own thread joins its workers too. When it reaps one first, this
                # join returns before the exit code is known, and the process would still be
                # counted as alive: wait until it is known.
                deadline = time.monotonic() + 10
                while child.exitcode is None and time.monotonic() < deadline:
                    time.sleep(0.001)
        # The executor's managing thread notices the dead workers and ends; left running, it
        # may still be closing their pipes while the interpreter exits, which prints a
        # "Bad file descriptor" traceback after a successful run. It is waited for (bounded:
        # the standard library gives no public way to wait for it without waiting on queues
        # a killed worker may have left locked).
        manager = getattr(self._executor, "_executor_manager_thread", None)
        if isinstance(manager, threading.Thread):
            manager.join(timeout=5)


def _give_up(pool: Workers, window: deque[list[Any]]) -> None:
    """A worker died (killed, out of memory), and its part with it: the workers are stopped
    and every part waiting in the window is validated in this process instead, with the
    same reports."""
    pool.stop()
    for entry in window:
        entry[1] = None


class ParallelRun:
    """Validates a file (a path or bytes) with ``jobs`` processes; iterate for the reports.

    The reports and ``file_diagnostics`` are those of :class:`lcn.ValidationRun` on the same
    source, in the same order, as :class:`SentReport` objects (see the module's docstring).
    """

    def __init__(self, source: Path | bytes, jobs: int, *, part_size: int | None = None,
                 report_plain: bool = True, matches: MatchChecks | None = None,
                 pool: Workers | None = None) -> None:
        self.source = source
        #: The workers of a whole command (:class:`FileRuns`), shared by its files; without
        #: it, a pool of ``jobs - 1`` workers is started for this source and stopped after.
        self._shared = pool
        #: The checks of matches, carried over from the sources before when given.
        self.matches = matches if matches is not None else MatchChecks()
        self.jobs = max(1, jobs)
        #: Whether plain games (valid, without a diagnostic, not of a match) are given out;
        #: when not, they are only counted in ``unreported`` (for callers that print only
        #: problems, such as ``lcn validate -q``): they never cross between processes.
        self.report_plain = report_plain
        self.unreported = 0
        #: Called with the number of games done so far after each run of games counted and
        #: not given out (a progress display has nothing else to go by then).
        self.on_counted: Callable[[int], None] | None = None
        #: The size of the source, for a progress display (None: not looked at).
        self.size: int | None = None
        #: Whether the source was read already (a small file of :class:`FileRuns`, read
        #: whole), and if so, why it could not be (raised when the run is iterated) or None.
        self.read_already = False
        self.error: OSError | None = None
        if part_size is None:
            self.size = size = source.stat().st_size if isinstance(source, Path) else len(source)
            part_size = min(PART_SIZE, max(SMALLEST_PART, size // (self.jobs * PARTS_PER_JOB)))
        #: The largest part (the first ones); the last ones are smaller.
        self.part_size = part_size
        self.file_diagnostics: list[Diagnostic] = []
        self._position = 0
        self._tail: IO[bytes] | None = None

    @property
    def position(self) -> int:
        """Bytes of the source whose reports have been given out, or are being given out."""
        if self._tail is not None and not self._tail.closed and self._tail.seekable():
            return self._tail.tell()
        return self._position

    def __iter__(self) -> Iterator[SentReport]:
        source = _Source(self.source)
        try:
            yield from self._run(source)
            # Every part was read, here or by a worker that opened the file by its name:
            # the reports are of one version only if the file is still that version.
            source.check(by_name=True)
        finally:
            source.close()

    def _results(self, source: _Source) -> Iterator[tuple[_Part, _Outcome]]:
        """Parts and their reports in file order; a part with an unclean end is validated
        again with the next."""
        cutter = _Cutter(source, self.part_size, self.jobs)
        workers = self.jobs - 1 if source.ranged else 0
        pool: Workers | None = None
        owned = self._shared is None
        if not owned:
            assert self._shared is not None
            pool = self._shared if workers and not self._shared.stopped else None
            workers = pool.count if pool is not None else 0
        elif workers:
            # The variants are loaded on first use, by imports that take longer than
            # validating hundreds of games: the classic one, which nearly every file uses,
            # is loaded before the workers are forked, so that they inherit it rather than
            # each loading it again (see ``_preload``).
            _preload()
            pool = _pool(workers, self.source)
        here_too = pool.here_too if pool is not None else True
        #: Parts in file order, each with its worker's pending result or its outcome here.
        window: deque[list[Any]] = deque()
        try:
            while True:
                if pool is not None and not self._hand_out(window, cutter, pool, workers):
                    _give_up(pool, window)
                    pool = None
                if not window:
                    part = next(cutter, None)
                    if part is None:
                        return
                    window.append([part, None, None])
                head = window[0]
                if here_too and head[1] is not None and head[2] is None and not head[1].done() \
                        and len(window) < WAITING * self.jobs:
                    # The next reports are not back: validate a part here meanwhile.
                    part = next(cutter, None)
                    if part is not None:
                        done = None if part.end is None else self._here(source, part)
                        window.append([part, None, done])
                        continue
                window.popleft()
                part, pending, outcome = head
                if outcome is None and part.end is not None:
                    sent = None
                    if pending is not None:
                        try:
                            sent = pending.result()
                        except _broken_pool():
                            assert pool is not None
                            _give_up(pool, window)
                            pool = None
                    if sent is not None:
                        games, file_diagnostics, clean, identity = sent
                        if identity is not None and source.identity is not None \
                                and tuple(identity) != source.identity:
                            # The worker read another version of the file than was cut.
                            assert isinstance(self.source, Path)
                            raise file_changed(self.source)
                        outcome = _Outcome(games, _unpack_diagnostics(file_diagnostics), clean)
                    else:
                        outcome = self._here(source, part)
                while outcome is not None and not outcome.clean_end and not part.last:
                    # A part that cannot end here: validate it again with the next one.
                    part = part.joined(window.popleft()[0] if window else next(cutter))
                    if part.end is not None and part.end - part.start > LONGEST_UNCUT * self.part_size:
                        part.end = None  # still nowhere to cut: read on from here, streaming
                    outcome = None if part.end is None else self._here(source, part)
                if part.end is None:
                    if pool is not None and owned:
                        pool.stop()
                    pool = None  # a shared pool's parts of this file still queued are dropped
                    self._tail = source.stream(part.start)
                    yield part, self._read_on(self._tail, part)
                    return
                assert outcome is not None and part.end is not None
                self._position = part.end
                yield part, outcome
        finally:
            if pool is not None and owned:
                pool.stop()
            if self._tail is not None:
                self._tail.close()

    def _hand_out(self, window: deque[list[Any]], cutter: _Cutter, pool: Workers,
                  workers: int) -> bool:
        """Give the workers parts until each has ``AHEAD`` waiting (and the window is not full).

        False when the pool is found broken (a worker died): the part is then in the window
        without a worker's result, to be validated here.
        """
        busy = sum(1 for _, pending, _ in window if pending is not None and not pending.done())
        while busy < AHEAD * workers and len(window) < WAITING * self.jobs:
            if window and window[-1][0].last:
                return True
            part = next(cutter, None)
            if part is None:
                return True
            if part.end is None:  # the rest, read on here: never sent
                window.append([part, None, None])
                return True
            try:
                pending = pool.submit(part.start, part.end, part.first_line, not self.report_plain,
                                      self.source if isinstance(self.source, Path) else None)
            except _broken_pool():
                window.append([part, None, None])
                return False
            window.append([part, pending, None])
            busy += 1
        return True

    def _here(self, source: _Source, part: _Part) -> _Outcome:
        assert part.end is not None
        return _validate(source, part.start, part.end, part.first_line, not self.report_plain)

    def _read_on(self, stream: IO[bytes], part: _Part) -> _Outcome:
        """The rest of the file from a part, read here as it streams (the uncuttable case)."""
        reader = _reader(stream, part.first_line)
        result = _Outcome([], reader.file_diagnostics, True)
        result.games = _packed_games(reader, not self.report_plain, [])  # type: ignore[assignment]
        return result

    def _run(self, source: _Source) -> Iterator[SentReport]:
        index = 0
        crlf_seen = False
        matches = self.matches
        variants: dict[str, Variant[Any, Any] | None] = {}
        for _part, outcome in self._results(source):
            for packed in outcome.games:
                if isinstance(packed, int):  # a run of plain games, counted only
                    index += packed
                    self.unreported += packed
                    if self.on_counted is not None:
                        self.on_counted(index)
                    continue
                index += 1
                if len(packed) == 7:  # a game without diagnostics, not of a match
                    line, name, players, turn_count, over, complete, totals = packed
                    variant = variants[name] if name in variants else variants.setdefault(
                        name, find_variant(name))
                    report = SentReport(index, SentRecord(line, name, Tags()), variant, [], players,
                                        totals, over, complete, turn_count, {})
                else:
                    line, name, players, turn_count, over, complete, totals, diagnostics, tags, lines, \
                        extra = packed
                    variant = variants[name] if name in variants else variants.setdefault(
                        name, find_variant(name))
                    record = SentRecord(line, name, Tags(dict(tags) if tags else None))
                    if lines:
                        record.tags.lines = lines
                    report = SentReport(index, record, variant, _unpack_diagnostics(diagnostics),
                                        players, totals, over, complete, turn_count, extra)
                    if any(d.code == "crlf" for d in report.diagnostics):
                        if crlf_seen:  # the file's first Windows line ending is the one reported
                            report.diagnostics[:] = [d for d in report.diagnostics if d.code != "crlf"]
                        crlf_seen = True
                matches.add(report)  # type: ignore[arg-type]
                yield report
            if not index:  # no game yet: the reader's word on the file (empty) stands
                self.file_diagnostics.extend(outcome.file_diagnostics)


#: A file at most this big is validated whole, in a group of small files, rather than cut.
SMALL_FILE = 1 << 16
#: Most bytes and files in a group of small files (a group's reports stay under a pipe's
#: buffer; groups shrink near the end of a run of small files, as parts do). A group is
#: a few dozen milliseconds of work: each hand-off carries enough to pay for itself, and
#: the groups given to a worker and not done yet stay few (``GROUPS_AHEAD``), so that
#: none is left waiting for it while this process has nothing more to do.
GROUP_SIZE = 1 << 16
GROUP_FILES = 256
#: The smallest group, near the end of a run (a few files): the processes finish within
#: about the time of such a group of each other. Smaller than the smallest part, which is
#: read by range: a group is only a few names to send.
GROUP_SMALLEST = 1 << 12
#: Groups given to each worker and not done yet: one to do next while this process hands
#: out another between two groups of its own (which are as small).
GROUPS_AHEAD = 2
#: Most groups whose reports wait here to be given out, per process: small groups, small
#: reports; this process validates groups itself rather than wait while there are any.
GROUPS_WAITING = 16


class _WholeFile(ParallelRun):
    """A small file validated whole, by a worker or here: its reports are given out as
    :class:`ParallelRun` gives out those of a file of one part."""

    def __init__(self, path: Path, jobs: int, outcome: _Outcome | OSError, *,
                 report_plain: bool, matches: MatchChecks, size: int | None = None) -> None:
        super().__init__(path, jobs, part_size=SMALLEST_PART, report_plain=report_plain,
                         matches=matches)
        self._outcome = outcome
        self.size = size
        self.read_already = True
        self.error = outcome if isinstance(outcome, OSError) else None

    def __iter__(self) -> Iterator[SentReport]:
        return self._run(None)  # type: ignore[arg-type]

    def _results(self, source: _Source) -> Iterator[tuple[_Part, _Outcome]]:
        if isinstance(self._outcome, OSError):
            raise self._outcome
        # The size it had when it was looked at (only the progress line reads it): a small
        # file is read whole, and not looked at again.
        self._position = self.size if self.size is not None else 0
        yield _Part(0, None, 1, last=True), self._outcome


class FileRuns:
    """Validates many files with ``jobs`` processes and one pool of workers for them all;
    iterate for one run per file, in the order given, each to be iterated in turn.

    Each run is a :class:`ParallelRun` (its reports, ``file_diagnostics``, ``unreported``,
    ``position``), and gives out what ``ParallelRun`` would give for its file alone: the
    checks of matches go on from one file to the next, as ``matches`` does across runs.
    A file bigger than ``SMALL_FILE`` is cut into parts, as ``ParallelRun`` does; a run of
    consecutive small files is put into groups, each validated whole by a worker or by this
    process (whichever is free first), so that a corpus of many small files costs no more
    than the validation of its games. The pool is started only when there is more than one
    group or part to share out, and stopped at the end.

    The sizes of small files are taken as their groups are made, a few hundred kilobytes
    ahead of them: the workers start on the first groups while this process looks at the
    rest, rather than wait for the sizes of every file (thousands of ``stat`` calls).

    A source given as None is left to the caller (standard input): its place gets None.
    A file that cannot be read gives a run that raises the ``OSError`` when iterated.
    """

    def __init__(self, sources: Sequence[Path | str | None], jobs: int, *, report_plain: bool = True,
                 matches: MatchChecks | None = None, pool: Workers | None = None) -> None:
        """``sources``: paths (as :class:`~pathlib.Path` or text) or None. ``pool``:
        workers to hand the parts and groups to (a cluster's, see :mod:`lcn.cluster`)
        instead of ``jobs - 1`` processes started here; ``jobs`` is then its ``count`` and
        this process, and the pool is stopped with the runs."""
        self.sources = sources
        self.jobs = max(1, jobs) if pool is None else pool.count + 1
        self.report_plain = report_plain
        self.matches = matches if matches is not None else MatchChecks()
        self._pool: Workers | None = pool

    def _workers(self) -> Workers | None:
        """The command's pool, started on first use (None with one job, or once broken)."""
        if self.jobs < 2:
            return None
        if self._pool is None:
            _preload()
            self._pool = _pool(self.jobs - 1, None)
        return None if self._pool.stopped else self._pool

    def __iter__(self) -> Iterator[ParallelRun | None]:
        try:
            yield from self._runs()
        finally:
            self.close()

    def close(self) -> None:
        """Stop the pool (at the end; or for a caller that stops early)."""
        if self._pool is not None:
            self._pool.stop()

    @staticmethod
    def _small(source: Path) -> int | None:
        """The size of a small regular file, else None (a file that cannot be looked at is
        small: reading it gives the error, at its place)."""
        try:
            info = os.stat(source)
        except (OSError, ValueError):  # ValueError: a name with a NUL byte, as Path.stat
            return 0
        if not stat.S_ISREG(info.st_mode) or info.st_size > SMALL_FILE:
            return None
        return info.st_size

    def _runs(self) -> Iterator[ParallelRun | None]:
        sources = self.sources
        index = 0
        while index < len(sources):
            given = sources[index]
            if given is None:
                yield None
                index += 1
                continue
            source = Path(given)
            size = self._small(source)
            if size is None:
                run: ParallelRun
                try:
                    run = ParallelRun(source, self.jobs, report_plain=self.report_plain,
                                      matches=self.matches, pool=self._workers())
                except OSError as exc:  # gone since it was looked at: said at its place
                    run = _WholeFile(source, self.jobs, exc, report_plain=self.report_plain,
                                     matches=self.matches)
                yield run
                index += 1
                continue
            small = _SmallFiles(sources, index, source, size, self.jobs)
            yield from self._small_files(small)
            index = small.end


    def _small_files(self, small: _SmallFiles) -> Iterator[ParallelRun]:
        count_plain = not self.report_plain
        #: Groups in order, each with its worker's pending result or its outcomes here, and
        #: its files' sizes.
        window: deque[list[Any]] = deque()
        # The pool is started once there is a second group to share out, before the sizes
        # of the files after the first group are taken.
        pool = self._workers() if small.shared() else None
        following = iter(small)
        workers = pool.count if pool is not None else 0
        here_too = pool.here_too if pool is not None else True
        while True:
            if pool is not None and not pool.stopped:
                busy = sum(1 for _, pending, _, _ in window if pending is not None and not pending.done())
                while busy < GROUPS_AHEAD * workers and len(window) < GROUPS_WAITING * self.jobs:
                    item = next(following, None)
                    if item is None:
                        break
                    try:
                        window.append([item[0], pool.submit_files(item[0], count_plain), None, item[1]])
                    except _broken_pool():  # a worker died: what it held is validated here
                        _give_up(pool, window)
                        window.append([item[0], None, None, item[1]])
                        break
                    busy += 1
            if not window:
                item = next(following, None)
                if item is None:
                    return
                window.append([item[0], None, None, item[1]])
            head = window[0]
            if here_too and head[1] is not None and head[2] is None and not head[1].done() \
                    and len(window) < GROUPS_WAITING * self.jobs:
                item = next(following, None)
                if item is not None:  # the next reports are not back: validate a group here
                    window.append([item[0], None, self._here(item[0], count_plain), item[1]])
                    continue
            window.popleft()
            group, pending, outcomes, sizes = head
            if outcomes is None and pending is not None:
                try:
                    outcomes = [sent if isinstance(sent, OSError) else
                                _Outcome(sent[0], _unpack_diagnostics(sent[1]), sent[2])
                                for sent in pending.result()]
                except _broken_pool():  # a worker died: the rest is validated here
                    assert pool is not None
                    _give_up(pool, window)
            if outcomes is None:
                outcomes = self._here(group, count_plain)
            for path, size, outcome in zip(group, sizes, outcomes, strict=True):
                yield _WholeFile(path, self.jobs, outcome, report_plain=self.report_plain,
                                 matches=self.matches, size=size)

    @staticmethod
    def _here(group: list[Path], count_plain: bool) -> list[_Outcome | OSError]:
        outcomes: list[_Outcome | OSError] = []
        for path in group:
            try:
                outcomes.append(_validate_whole(path, count_plain))
            except OSError as exc:
                outcomes.append(exc)
        return outcomes


class _SmallFiles:
    """A run of consecutive small files, from ``start`` (already looked at) to the first
    source that is not a small file: iterate for its groups, each with its files' sizes.

    Groups are about ``GROUP_SIZE`` bytes (at most ``GROUP_FILES`` files), smaller near the
    end of the run, as parts are (see ``SHRINK``). The files' sizes are taken as the groups
    are made, ``GROUP_SIZE * jobs * SHRINK`` bytes ahead of the group being made: beyond
    that many bytes left, a group is full-sized, so the groups are those that the sizes of
    every file, taken first, would give. ``end`` is where the run ends, once it is done.
    """

    def __init__(self, sources: Sequence[Path | str | None], start: int, first: Path,
                 size: int, jobs: int) -> None:
        self.sources = sources
        self.jobs = jobs
        #: Files looked at and not yet put in a group, with their sizes, and their bytes.
        self.ahead: deque[tuple[Path, int]] = deque([(first, size)])
        self.ahead_bytes = size
        #: The next source to look at, or the end of the run once it is found.
        self.end = start + 1
        self.ended = False
        #: The groups, when made before they are asked for (see :meth:`shared`).
        self._made: list[tuple[list[Path], list[int]]] | None = None

    def _take(self) -> None:
        """Look at the next source: a small file joins the files ahead, else the run ends."""
        sources = self.sources
        given = sources[self.end] if self.end < len(sources) else None
        source = Path(given) if given is not None else None
        size = FileRuns._small(source) if source is not None else None
        if source is None or size is None:
            self.ended = True
            return
        self.ahead.append((source, size))
        self.ahead_bytes += size
        self.end += 1

    def shared(self) -> bool:
        """Whether the run is worth sharing out: more than one group, and more bytes than the
        smallest part (a worker takes longer to start than a few small files take to
        validate). Only as many sizes are taken as that needs: a group is cut at
        ``GROUP_SIZE`` bytes or ``GROUP_FILES`` files at the latest, so a file beyond those
        says there is another group (the workers are then started before the rest of the
        files are looked at)."""
        ahead = self.ahead
        while not self.ended and (self.ahead_bytes <= SMALLEST_PART or (
                len(ahead) <= GROUP_FILES and self.ahead_bytes - ahead[-1][1] < GROUP_SIZE)):
            self._take()
        if not self.ended:
            return True
        total = self.ahead_bytes
        self._made = list(self._make())  # every size is known: the groups are made now
        return len(self._made) > 1 and total > SMALLEST_PART

    def __iter__(self) -> Iterator[tuple[list[Path], list[int]]]:
        if self._made is not None:
            return iter(self._made)
        return self._make()

    def _make(self) -> Iterator[tuple[list[Path], list[int]]]:
        ahead = self.ahead
        horizon = GROUP_SIZE * self.jobs * SHRINK
        group: list[Path] = []
        sizes: list[int] = []
        size = 0
        while True:
            # Enough sizes ahead of the next file to know the size of its group.
            while not self.ended and (not ahead or self.ahead_bytes - ahead[0][1] < horizon):
                self._take()
            if not ahead:
                break
            path, file_size = ahead.popleft()
            self.ahead_bytes -= file_size
            group.append(path)
            sizes.append(file_size)
            size += file_size
            # The bytes of the run after this file: all of them once the run's end is found,
            # else more than enough for a full-sized group.
            target = min(GROUP_SIZE, max(GROUP_SMALLEST, self.ahead_bytes // (self.jobs * SHRINK)))
            if size >= target or len(group) >= GROUP_FILES:
                yield group, sizes
                group, sizes, size = [], [], 0
        if group:
            yield group, sizes


# The pieces of a run, public: for a scheduler of another kind (Spark, Ray, a batch queue),
# which hands ranges to its own workers and gives the results back here, in order.


@dataclass(frozen=True)
class Range:
    """A range of a file's bytes cut between games, and the number of its first line.

    ``end`` is None for the rest of a file that has no place to cut for a long way (one
    enormous line, a comment left open over many games): it is read to the end of the file.
    """

    start: int
    end: int | None
    first_line: int


@dataclass
class RangeResult:
    """What :func:`validate_range` found in a range, as plain values (small, and cheap to
    pickle: a worker of any scheduler sends it back as it is).

    ``games`` holds each game in a packed form, or the number of a run of plain games
    when they were counted only (``report_plain=False``); ``clean_end`` says whether the
    range ends where the reader is between two games. :func:`merge_ranges` reads them.
    """

    range: Range
    games: list[Any]
    file_diagnostics: list[Any]
    clean_end: bool


def cut_points(source: Path | str | bytes, *, part_size: int = PART_SIZE) -> list[Range]:
    """The ranges a file (a path, or its bytes) is cut into for validation, in file order.

    A cut is made only between games, where a game's tags start after an empty line and the
    game before is over: each range can be validated on its own, anywhere. Ranges are about
    ``part_size`` bytes, smaller near the end of the file; a file smaller than that is one
    range. Only the bytes around each cut are read, and the line breaks are counted for
    each range's first line (a fast pass, with no validation).

    >>> text = b'[Player1 "A"]\\n\\n1. R5/d xB2/d *\\n\\n' * 3
    >>> for part in cut_points(text, part_size=20):
    ...     print(part)
    Range(start=0, end=32, first_line=1)
    Range(start=32, end=64, first_line=5)
    Range(start=64, end=96, first_line=9)
    """
    data = Path(source) if isinstance(source, str) else source
    reader = _Source(data)
    try:
        if not reader.ranged:
            return [Range(0, None, 1)]
        return [Range(part.start, part.end, part.first_line)
                for part in _Cutter(reader, max(part_size, 1), 1)]
    finally:
        reader.close()


def validate_range(source: Path | str | bytes, part: Range, *, report_plain: bool = True) -> RangeResult:
    """Validate the games of one range of a file, wherever the range is sent.

    ``source`` is the file's path, read here by range (the path must name the same file
    here as where it was cut: a shared file system), or the bytes of the range itself, read
    where the file is and sent along. With ``report_plain=False`` the valid games without
    any diagnostic (not of a match) are only counted, which makes the result much smaller.
    """
    end: int | None
    if isinstance(source, bytes):
        reader = _Source(source)
        start, end = 0, len(source)
    else:
        reader = _Source(Path(source))
        start, end = part.start, part.end  # None: to the end, however far (a pipe's too)
    try:
        outcome = _validate(reader, start, end, part.first_line, not report_plain)
    finally:
        reader.close()
    return RangeResult(part, outcome.games, _pack_diagnostics(outcome.file_diagnostics), outcome.clean_end)


class _MergedRun(ParallelRun):
    """The reports of a file from the results of its ranges (see :func:`merge_ranges`)."""

    def __init__(self, source: Path | bytes, results: Iterable[RangeResult], *, report_plain: bool,
                 matches: MatchChecks | None) -> None:
        super().__init__(source, 1, part_size=SMALLEST_PART, report_plain=report_plain, matches=matches)
        self._given = results

    def _results(self, source: _Source) -> Iterator[tuple[_Part, _Outcome]]:
        given = iter(self._given)
        at, count = 0, 0
        for result in given:
            part = self._part(result, at, count == 0, source.size)
            count += 1
            outcome = _Outcome(result.games, _unpack_diagnostics(result.file_diagnostics), result.clean_end)
            while not outcome.clean_end and not part.last:
                # The range cannot end there (a game goes on): validated again with the next.
                following = next(given, None)
                assert part.end is not None
                if following is None:
                    raise ValueError(_MISSING.format(start=part.end))
                part = part.joined(self._part(following, part.end, False, source.size))
                outcome = self._here(source, part)
            assert part.end is not None
            at = self._position = part.end
            yield part, outcome
        if at < source.size or not count:
            raise ValueError(_MISSING.format(start=at))

    @staticmethod
    def _part(result: RangeResult, at: int, first: bool, size: int) -> _Part:
        given = result.range
        if given.start != at or (first and given.first_line != 1):
            raise ValueError(_OUT_OF_ORDER.format(start=given.start, end=given.end, expected=at))
        end = given.end if given.end is not None else size
        return _Part(given.start, end, given.first_line, last=end >= size)


#: The messages of :func:`merge_ranges` for results that do not cover the file in order.
_OUT_OF_ORDER = ("the result of the range {start}-{end} is not the next one: the next range "
                 "starts at byte {expected} (give the results in the order of cut_points)")
_MISSING = "no result for the range at byte {start}: every range of cut_points needs its result"


def merge_ranges(source: Path | str | bytes, results: Iterable[RangeResult], *,
                 report_plain: bool = True, matches: MatchChecks | None = None) -> ParallelRun:
    """The reports of a whole file from the results of its ranges, given in file order.

    Iterate the run for the reports (:class:`SentReport`), then read its
    ``file_diagnostics`` and ``unreported`` (the games only counted): exactly what
    :class:`lcn.ValidationRun` gives over the whole file, with the games numbered across
    ranges, the one Windows line ending warning per file, and the checks of matches that
    span ranges (and files, when ``matches`` is carried from one file's run to the next).
    A range whose end falls inside a game (a cut that did not hold) is validated again here
    together with the next, so ``source`` (the file's path or whole bytes) must be readable
    here too. Results that are missing or out of order raise ``ValueError``.
    """
    data = Path(source) if isinstance(source, str) else source
    return _MergedRun(data, results, report_plain=report_plain, matches=matches)


# -- analyses: ``lcn analyse`` over a corpus ------------------------------------------------------
#
# A game's analysis is minutes of search and a few kilobytes of answer: the games are the
# tasks, sent as their canonical text (what the store of analyses is keyed by) and answered
# in plain values that any pool can carry back, a Dask worker's too.

#: The outcome of one game's analysis: ``("analysis", stored)`` with a
#: :class:`lcn.analysis_cache.Stored`, ``("invalid", packed diagnostics)`` for a record that
#: breaks a rule, ``("refused", message)`` for a game that cannot be judged.
AnalysisOutcome = tuple[Any, ...]
#: Called with the game's number, the decisions judged and the decisions to judge.
AnalysisProgress = Callable[[int, int, int], None]

#: Where a worker process of :class:`AnalysisProcesses` says how far its game has got.
_analysis_queue: Any = None


def _start_analysis_worker(queue: Any) -> None:
    global _analysis_queue
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as _start_worker: the first process answers
    _analysis_queue = queue


def analyse_text(text: str, seed: int | None, seconds: float | None, playouts: int | None, *,
                 game: int = 0, jobs: int = 1, progress: AnalysisProgress | None = None,
                 open_cards: bool = False) -> AnalysisOutcome:
    """The analysis of the game whose canonical text is ``text``, as an outcome of plain
    values (:data:`AnalysisOutcome`): it is run in worker processes and on Dask workers,
    and an exception would not carry its diagnostics back (``InvalidRecord`` loses them
    when pickled). ``progress(game, done, total)`` after each decision; in a worker of
    :class:`AnalysisProcesses`, the reports go to that pool's queue."""
    from .analysis import NotAnalysable, analyse
    from .analysis_cache import Stored
    from .moves import InvalidRecord

    queue = _analysis_queue

    def told(done: int, total: int) -> None:
        if progress is not None:
            progress(game, done, total)
        elif queue is not None:
            with contextlib.suppress(Exception):  # a report lost is a progress line late
                queue.put_nowait((game, done, total))

    try:
        result = analyse(text, seed=seed, seconds=seconds, playouts=playouts, jobs=jobs,
                         progress=told if progress is not None or queue is not None else None,
                         open_cards=open_cards)
    except InvalidRecord as exc:
        return ("invalid", _pack_diagnostics(exc.diagnostics))
    except NotAnalysable as exc:
        return ("refused", exc.args[0] if exc.args else str(exc))
    return ("analysis", Stored.of(result))


class AnalysisProcesses(_Executor):
    """Worker processes that analyse whole games (``lcn analyse --jobs`` over several
    games), each game one task; :attr:`progress` is the queue of their decisions' reports,
    ``(game, done, total)``. Stopped as :class:`_Executor` is stopped."""

    def __init__(self, count: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context()
        self._before = {child.pid for child in multiprocessing.active_children()}
        self.count = count
        self.stopped = False
        self.progress = context.Queue()
        self._executor = ProcessPoolExecutor(count, context, _start_analysis_worker, (self.progress,))

    def submit_analysis(self, game: int, text: str, seed: int | None, seconds: float | None,
                        playouts: int | None, open_cards: bool = False) -> Future[AnalysisOutcome]:
        return self._executor.submit(analyse_text, text, seed, seconds, playouts, game=game,
                                     open_cards=open_cards)

    def reports(self) -> list[tuple[int, int, int]]:
        """The progress reports sent since the last call."""
        import queue

        got: list[tuple[int, int, int]] = []
        with contextlib.suppress(queue.Empty, OSError, ValueError):
            while True:
                got.append(self.progress.get_nowait())
        return got

    def stop(self) -> None:
        super().stop()
        self.progress.cancel_join_thread()
        self.progress.close()

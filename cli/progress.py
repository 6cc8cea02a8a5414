"""A progress line for long inputs: on standard error, and only when it is a terminal.

Short inputs never show it (it appears once a file has taken ``DELAY`` seconds), output
redirected to a file or a pipe never holds it, and it is erased before anything else is
printed, so the diagnostics read the same with or without it.
"""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TextIO

from lcn import Diagnostic, GameReport, ValidationRun
from lcn.parallel import ParallelRun, SentReport
from lcn.validate import MatchChecks

from .io import StdinStream

#: Seconds before the line first appears: a short input is done before that.
DELAY = 0.5
#: Seconds between two redraws.
INTERVAL = 0.1
WIDTH = 24


class Progress:
    """Shows how far the validation of one input has got: bytes read and games done."""

    def __init__(self, name: str, size: int | None, *, stream: TextIO | None = None,
                 enabled: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.name = name
        self.size = size
        self.start = time.monotonic()
        self.next_draw = self.start + DELAY
        self.shown = False

    def update(self, position: int, games: int) -> None:
        """Redraw if it is time to; cheap enough to call after every game."""
        if not self.enabled:
            return
        now = time.monotonic()
        if now < self.next_draw:
            return
        self.next_draw = now + INTERVAL
        self.stream.write("\r" + self.line(position, games, now - self.start) + "\x1b[K")
        self.stream.flush()
        self.shown = True

    def line(self, position: int, games: int, elapsed: float) -> str:
        """The text of the progress line."""
        megabytes = position / 1e6
        rate = f"{megabytes / elapsed:,.1f} MB/s" if elapsed > 0 else ""
        if self.size:
            done = min(position / self.size, 1.0)
            bar = "#" * int(done * WIDTH)
            return (f"{self.name}: [{bar:<{WIDTH}}] {done:4.0%} {megabytes:,.0f}/{self.size / 1e6:,.0f} MB, "
                    f"{games:,} games, {rate}")
        return f"{self.name}: {megabytes:,.0f} MB, {games:,} games, {rate}"

    def clear(self) -> None:
        """Erase the line (before other output, and at the end)."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
            self.next_draw = time.monotonic() + INTERVAL


class TrackedRun:
    """The validation of one source, in one process or several, with how far it has read.

    With several processes the reports are :class:`lcn.parallel.SentReport` objects: they
    have all that ``lcn validate`` prints, not the turns or the final state.
    """

    def __init__(self, source: bytes | Path | StdinStream, jobs: int = 1, *,
                 only_problems: bool = False, matches: MatchChecks | None = None,
                 run: ParallelRun | None = None) -> None:
        """``run``: the source's run of a :class:`lcn.parallel.FileRuns` over many files."""
        #: The size of the source; None for standard input, whose end is not known before.
        self.size: int | None = run.size if run is not None else None
        if isinstance(source, Path) and self.size is None:
            self.size = source.stat().st_size
        elif isinstance(source, bytes):
            self.size = len(source)
        self._handle: IO[bytes] | StdinStream | None = None
        self._parallel: ParallelRun | None = None
        self._only_problems = only_problems
        self._counted = 0
        #: Called with the games done so far while games are counted and not given out,
        #: so that a progress display keeps moving over a long run of valid games.
        self.on_counted: Callable[[int], None] | None = None
        self._run: Iterable[GameReport | SentReport]
        if run is not None:
            self._parallel = run
            self._run = run
        elif jobs > 1 and not isinstance(source, StdinStream):
            # A caller that prints only problems lets valid games without any diagnostic be
            # counted where they are validated, rather than sent back one by one.
            self._parallel = ParallelRun(source, jobs, report_plain=not only_problems,
                                         matches=matches)
            self._run = self._parallel
        else:
            # Standard input is read in this one process whatever the jobs, as a named pipe
            # is: its parts cannot be read by range.
            if isinstance(source, Path):
                self._handle = source.open("rb")
            elif isinstance(source, bytes):
                self._handle = io.BytesIO(source)
            else:
                self._handle = source
            self._sequential = ValidationRun(self._handle, matches=matches)
            self._run = self._sequential

    def __iter__(self) -> Iterator[GameReport | SentReport]:
        try:
            if self._parallel is None and self._only_problems:
                # As with several processes: the plain games are counted, not given out.
                for report in self._run:
                    if report.diagnostics or "Match" in report.record.tags:
                        yield report
                    else:
                        self._counted += 1
                        if not self._counted & 63 and self.on_counted is not None:
                            self.on_counted(report.index)
            else:
                if self._parallel is not None:
                    self._parallel.on_counted = self.on_counted
                yield from self._run
        finally:
            if self._handle is not None:
                self._handle.close()

    @property
    def position(self) -> int:
        """Bytes of the source read so far (the games reported lie before it)."""
        if self._parallel is not None:
            return self._parallel.position
        assert self._handle is not None
        if isinstance(self._handle, StdinStream):
            return self._handle.tell()
        return self._handle.tell() if not self._handle.closed else (self.size or 0)

    @property
    def unreported(self) -> int:
        """Games validated and found valid without any diagnostic that were not given out
        (``only_problems``); they count in the summary."""
        return self._parallel.unreported if self._parallel is not None else self._counted

    @property
    def file_diagnostics(self) -> list[Diagnostic]:
        if self._parallel is not None:
            return self._parallel.file_diagnostics
        return self._sequential.file_diagnostics

"""Input and output helpers shared by the commands: sources, ``-``, source lines, carets."""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import shutil
import sys
import tempfile
from collections import deque
from collections.abc import Iterable
from itertools import islice
from pathlib import Path
from typing import IO, BinaryIO

import click

from lcn import Diagnostic


class InputError(click.ClickException):
    """A file that cannot be read: exit status 2, like a usage error."""

    exit_code = 2


#: The type of every file argument: a path, or '-' for standard input. Being a path is
#: what lets the shell complete file names (``_LCN_COMPLETE=bash_source lcn``, see the
#: README); readability is checked when the file is opened, with the command's own message.
INPUT_PATH = click.Path(allow_dash=True, path_type=str)
#: The files a directory argument stands for, unless --glob says otherwise.
DEFAULT_GLOB = "*.lcn"


def expand_inputs(names: Iterable[str], pattern: str = DEFAULT_GLOB) -> list[str]:
    """The files to read: each directory replaced by its files matching ``pattern``.

    A directory is searched at every depth, as ruff, black and pytest do, skipping hidden
    files and folders (``.git``, ``.venv``), in sorted order, so that the output is the same
    on every machine. A directory with no such file is an input error: nothing would be
    checked, which is not a success.
    """
    files: list[str] = []
    for name in names:
        path = Path(name)
        if name == "-" or not path.is_dir():
            files.append(name)
            continue
        found = sorted(
            (match for match in path.rglob(pattern)
             if match.is_file() and not any(part.startswith(".")
                                            for part in match.relative_to(path).parts)),
            key=lambda match: match.relative_to(path).parts)
        if not found:
            raise InputError(f"no file matching '{pattern}' in the directory '{name}' "
                             "(--glob chooses another pattern)")
        files.extend(str(match) for match in found)
    return files


def jobs_option_value(jobs: int) -> int:
    """``--jobs``: 0 is one process per core this process may run on."""
    if jobs:
        return jobs
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on this system (macOS, Windows)
        return max(1, os.cpu_count() or 1)


#: The most recent bytes of standard input kept by :class:`StdinStream`, for the carets.
KEPT_INPUT = 8 << 20
#: Bytes asked of standard input at a time.
STDIN_BLOCK = 1 << 16


def open_source(name: str) -> Path:
    """A source the reader can stream, and read again: a path, or a copy of stdin (``-``).

    Commands that read their input twice (``fmt`` compares its text with the canonical one;
    the carets come from a second pass) take standard input through a temporary file
    (:func:`_spooled_stdin`) rather than in memory: a pipe of any size takes bounded memory.
    """
    if name == "-":
        return _spooled_stdin()
    path = Path(name)
    if path.is_dir():
        raise InputError(f"cannot read '{name}': it is a directory")
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        raise InputError(f"cannot read '{name}': {exc.strerror or exc}") from exc
    return path


def open_input(name: str) -> Path | StdinStream:
    """A source read once, in order: a path, or standard input as it comes (``-``).

    ``lcn validate -`` at the end of a pipe prints each game's verdict as soon as the game
    has come through, not when the pipe ends, and holds no more of it than
    :class:`StdinStream` keeps.
    """
    if name == "-":
        return StdinStream(_stdin())
    return open_source(name)


def _stdin() -> IO[bytes]:
    if sys.stdin is None:  # started with standard input closed
        raise InputError("cannot read standard input: it is closed")
    return sys.stdin.buffer


#: The copies of standard input made by this process, open until it ends.
_SPOOLS: list[IO[bytes]] = []
#: Where the system lists this process's open files by descriptor (Linux).
_DESCRIPTORS = Path("/proc/self/fd")


def _spooled_stdin() -> Path:
    """A copy of standard input in a file. Where the system lists open files by descriptor,
    the copy has no name, so it is gone with the process however the process ends (killed
    too), and is opened again through its descriptor; elsewhere it is named and removed at
    exit."""
    stdin = _stdin()
    unnamed = _DESCRIPTORS.is_dir()
    if unnamed:
        spool: IO[bytes] = tempfile.TemporaryFile(prefix="lcn-stdin-", suffix=".lcn")  # noqa: SIM115
    else:
        spool = tempfile.NamedTemporaryFile(prefix="lcn-stdin-", suffix=".lcn")  # noqa: SIM115
        atexit.register(spool.close)  # which removes it
    _SPOOLS.append(spool)
    try:
        shutil.copyfileobj(stdin, spool, 1 << 20)
        spool.flush()
    except OSError as exc:
        raise InputError(f"cannot read standard input: {exc.strerror or exc}") from exc
    return _DESCRIPTORS / str(spool.fileno()) if unnamed else Path(spool.name)


class StdinStream:
    """Standard input read as it comes, keeping its last ``keep`` bytes to show lines from.

    A pipe cannot be read twice and may not end for hours (a generator of games piped into
    ``lcn validate -``). The reader takes its bytes as they arrive (``read`` gives what is
    there, without waiting for a full block); the lines a game's diagnostics name are that
    game's own, read a moment before, so the most recent bytes are enough to show them
    with carets (:meth:`get`, as :class:`SourceLines` does for files). A line that has
    gone is shown without its text.
    """

    def __init__(self, stream: IO[bytes], keep: int = KEPT_INPUT, block: int = STDIN_BLOCK) -> None:
        self._read = getattr(stream, "read1", stream.read)
        self._keep = keep
        self._block = block
        #: The bytes kept, in order, each block with the number of the line it starts in.
        #: A block grows until it holds ``block`` bytes, however small the pieces a
        #: writer flushes (a line at a time): the overhead of a block stays a small share.
        self._blocks: deque[tuple[int, bytearray]] = deque()
        self._kept = 0
        self._line = 1  # the line the next bytes start in
        self._first_whole = True  # whether the first block kept starts a line
        self._count = 0
        #: Bytes come from standard input but not yet given out (``readline`` reads ahead).
        self._pending = b""

    def _fetch(self) -> bytes:
        try:
            return self._read(self._block)
        except OSError as exc:
            raise InputError(f"cannot read standard input: {exc.strerror or exc}") from exc

    def _given(self, data: bytes) -> bytes:
        """Keep the bytes given out (to the reader), in order."""
        if data:
            self._count += len(data)
            if self._blocks and len(self._blocks[-1][1]) < self._block:
                self._blocks[-1][1].extend(data)
            else:
                self._blocks.append((self._line, bytearray(data)))
            self._line += data.count(b"\n")
            self._kept += len(data)
            while self._kept - len(self._blocks[0][1]) >= self._keep:
                _, gone = self._blocks.popleft()
                self._kept -= len(gone)
                self._first_whole = gone.endswith(b"\n")
        return data

    def read(self, size: int = -1) -> bytes:
        """What has come, up to ``size`` bytes, without waiting for more (all, for -1)."""
        if size is None or size < 0:
            return b"".join(iter(lambda: self.read(self._block), b""))
        if not size:
            return b""
        data = self._pending or self._fetch()
        data, self._pending = data[:size], data[size:]
        return self._given(data)

    def readline(self, limit: int = -1) -> bytes:
        """A line, up to ``limit`` bytes (the reader reads an overlong line so, in pieces)."""
        data = self._pending
        while True:
            end = data.find(b"\n") + 1
            if end or (0 <= limit <= len(data)):
                break
            more = self._fetch()
            if not more:
                end = len(data)
                break
            data += more
        if not end or (limit >= 0 and end > limit):
            end = min(len(data), limit) if limit >= 0 else len(data)
        data, self._pending = data[:end], data[end:]
        return self._given(data)

    def tell(self) -> int:
        """Bytes read so far."""
        return self._count

    def get(self, wanted: Iterable[int]) -> dict[int, str]:
        """The text of the lines wanted that are still kept (their first 2000 bytes)."""
        want = set(wanted)
        found: dict[int, str] = {}
        if not want or not self._blocks:
            return found
        low, high = min(want), max(want)
        # The block the first line wanted starts in: the last one starting before that line
        # (a block that starts in the line itself may hold only its end).
        index = len(self._blocks) - 1
        while index > 0 and self._blocks[index][0] >= low:
            index -= 1
        line = self._blocks[index][0]
        whole = self._first_whole if index == 0 else self._blocks[index - 1][1].endswith(b"\n")
        data = b"".join(block for _, block in islice(self._blocks, index, None))
        at = 0
        if not whole:  # the start of this block's first line is gone: begin at the next one
            at = data.find(b"\n") + 1
            if not at:
                return found
            line += 1
        while line <= high:
            end = data.find(b"\n", at)
            if end < 0 and at == len(data):
                break  # nothing after the last newline: no line there
            if line in want:
                piece = data[at:end if end >= 0 else len(data)][:2000]
                text = piece.decode("utf-8", "replace").rstrip("\r")
                found[line] = text.lstrip("\ufeff") if line == 1 else text
            if end < 0:
                break
            at = end + 1
            line += 1
        return found

    def close(self) -> None:
        """Drop the bytes kept; standard input itself stays open."""
        self._blocks.clear()
        self._kept = 0


def source_lines(source: bytes | Path, wanted: Iterable[int]) -> dict[int, str]:
    """The text of some lines of a source (for carets), read in one streaming pass."""
    want = set(wanted)
    found: dict[int, str] = {}
    if not want:
        return found
    last = max(want)
    handle = source.open("rb") if isinstance(source, Path) else io.BytesIO(source)
    try:
        # Only the first 2000 bytes of a line are kept: a line of any length streams past.
        number = 0
        while number < last:
            raw = handle.readline(2000)
            if not raw:
                break
            number += 1
            if number in want:
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                found[number] = text.lstrip("\ufeff") if number == 1 else text
            while not raw.endswith(b"\n"):
                raw = handle.readline(1 << 16)
                if not raw:
                    break
    finally:
        handle.close()
    return found


class SourceLines:
    """The lines of one source for carets, read forward in one pass over a whole run.

    ``source_lines`` reads from the start each time: called once per game of a big file it
    is quadratic. Games come in file order, so the lines a game's diagnostics name are at or
    after those of the games before it (the last lines asked for are kept, for a line two
    games share); a line further back is found by a fresh read.
    """

    def __init__(self, source: bytes | Path) -> None:
        self.source = source
        self._handle: BinaryIO | None = None
        self._number = 0
        self._recent: dict[int, str] = {}

    def get(self, wanted: Iterable[int]) -> dict[int, str]:
        want = set(wanted)
        found = {number: self._recent[number] for number in want if number in self._recent}
        missing = want - set(found)
        if missing and min(missing) <= self._number:
            found.update(source_lines(self.source, missing))
        elif missing:
            if self._handle is None:
                self._handle = self.source.open("rb") if isinstance(self.source, Path) \
                    else io.BytesIO(self.source)
            last = max(missing)
            while self._number < last:
                raw = self._handle.readline(2000)
                if not raw:
                    break
                self._number += 1
                if self._number in missing:
                    text = raw.decode("utf-8", "replace").rstrip("\r\n")
                    found[self._number] = text.lstrip("\ufeff") if self._number == 1 else text
                while not raw.endswith(b"\n"):
                    raw = self._handle.readline(1 << 16)
                    if not raw:
                        break
        if found:
            self._recent = found
        return found

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def render_diagnostic(d: Diagnostic, filename: str, lines: dict[int, str], color: bool) -> str:
    """A compiler-style diagnostic with the source line and a caret under the bad span."""
    head = d.format(filename)
    if color:
        tint = {"error": "red", "warning": "yellow"}.get(d.severity.value, "cyan")
        head = head.replace(f"{d.severity.value}[{d.code}]",
                            click.style(f"{d.severity.value}[{d.code}]", fg=tint, bold=True), 1)
    if d.line is None or d.line not in lines:
        return head
    text = lines[d.line].replace("\t", " ")
    gutter = f"{d.line:>5} | "
    out = [head, gutter + text]
    if d.column is not None:
        # The line shown may be cut short (source_lines keeps 2000 characters): a caret past
        # its end would only print a screenful of spaces.
        if d.column > len(text) + 1:
            return "\n".join(out)
        width = max(1, min(d.length, max(1, len(text) - d.column + 1)))
        caret = " " * (d.column - 1) + "^" * width
        out.append(" " * (len(gutter) - 2) + "| " + (click.style(caret, fg="red") if color else caret))
    return "\n".join(out)


class AtomicFile:
    """A new file written beside ``path`` that replaces it only on :meth:`commit`.

    Until then the original is untouched; :meth:`discard` (safe after a commit) removes the
    new file, so a crash or an error never leaves a half-written file in its place.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        directory = path.parent if str(path.parent) else Path(".")
        fd, self.temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        self.handle: BinaryIO = os.fdopen(fd, "wb")
        self.committed = False

    def commit(self) -> None:
        self.handle.flush()
        os.fsync(self.handle.fileno())
        self.handle.close()
        with contextlib.suppress(OSError):
            os.chmod(self.temp, self.path.stat().st_mode & 0o7777)
        os.replace(self.temp, self.path)
        self.committed = True

    def discard(self) -> None:
        if not self.committed:
            self.handle.close()
            with contextlib.suppress(OSError):
                os.unlink(self.temp)


def write_atomically(path: Path, text: str) -> None:
    """Replace a file's content so that a crash leaves either the old or the new file."""
    directory = path.parent if str(path.parent) else Path(".")
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            os.chmod(temp, path.stat().st_mode & 0o7777)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise

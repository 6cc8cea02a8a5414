"""Input and output helpers shared by the commands: sources, ``-``, source lines, carets."""

from __future__ import annotations

import atexit
import contextlib
import errno
import fnmatch
import io
import os
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import IO, Any, BinaryIO, TypeVar

import click

from lcn import Diagnostic
from lcn.messages import language_from_environment, msg, translate
from lcn.parallel import FileChanged

T = TypeVar("T")


class InputError(click.ClickException):
    """A file that cannot be read: exit status 2, like a usage error.

    The message may quote a file's name or its content: it is kept printable."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        # Said in the command's language (LANG) as it is made: it is only ever printed.
        super().__init__(printable(say(message)))


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
        if os.name == "posix" and "/" not in pattern and "**" not in pattern:
            found = _matching_files(str(path), lambda name: fnmatch.fnmatchcase(name, pattern))
        else:
            found = [str(match) for match in sorted(
                (match for match in path.rglob(pattern)
                 if match.is_file() and not any(part.startswith(".")
                                                for part in match.relative_to(path).parts)),
                key=lambda match: match.relative_to(path).parts)]
        if not found:
            raise InputError(msg("no file matching '{pattern}' in the directory '{name}' (--glob "
                                 "chooses another pattern)", pattern=pattern, name=name))
        files.extend(found)
    return files


def _matching_files(root: str, match: Callable[[str], object]) -> list[str]:
    """The files under ``root`` whose name ``match`` takes, as ``Path.rglob`` and
    ``is_file`` find them (case-sensitive names, no hidden file or folder, folders linked
    to not entered), in the order of their parts.

    Written with ``os.scandir`` rather than ``rglob``: a directory entry says whether it is
    a file or a folder without a ``stat`` of its own, and no path object is made for the
    names that do not match; over thousands of files, ``rglob`` took longer than the
    command's own start-up.
    """
    # Paths are written as pathlib writes them under its own form of ``root``, whose
    # files in the current folder are named without "./".
    prefix = "" if root == "." else root if root.endswith("/") else root + "/"
    found: list[tuple[str, ...]] = []
    folders: list[tuple[str, ...]] = [()]
    while folders:
        parts = folders.pop()
        try:
            with os.scandir(prefix + "/".join(parts) if parts else root) as listing:
                entries = list(listing)
        except OSError:  # as rglob: a folder that cannot be listed has nothing to give
            continue
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append((*parts, name))
                elif match(name) and entry.is_file():
                    found.append((*parts, name))
            except OSError:
                continue
    found.sort()
    return [prefix + "/".join(parts) for parts in found]


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
        raise InputError(msg("cannot read '{name}': it is a directory", name=name))
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        raise InputError(msg("cannot read '{name}': {reason}",
                             name=name, reason=exc.strerror or exc)) from exc
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
        raise InputError(msg("cannot read standard input: it is closed"))
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
    import shutil  # only for standard input: not paid by a command over files
    import tempfile

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
        raise InputError(msg("cannot read standard input: {reason}", reason=exc.strerror or exc)) from exc
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
            raise InputError(msg("cannot read standard input: {reason}", reason=exc.strerror or exc)) from exc

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
    try:
        handle = source.open("rb") if isinstance(source, Path) else io.BytesIO(source)
    except OSError:  # the lines are shown when they can be read: the diagnostics stand alone
        return found
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
    except OSError:
        pass  # a file that fails midway: the lines read before the failure
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
        """The text of the lines wanted that can be read (a file failing midway gives
        those before the failure: the diagnostics are shown without the others)."""
        want = set(wanted)
        found = {number: self._recent[number] for number in want if number in self._recent}
        missing = want - set(found)
        if missing and min(missing) <= self._number:
            found.update(source_lines(self.source, missing))
        elif missing:
            try:
                self._read_forward(missing, found)
            except OSError:
                self.close()
                self._number = 1 << 62  # whatever comes next is asked of source_lines
        if found:
            self._recent = found
        return found

    def _read_forward(self, missing: set[int], found: dict[int, str]) -> None:
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

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# The patterns below are written where they are used and compiled on first use (re keeps
# them): their classes of characters over the whole of Unicode take longer to compile (about
# 1.5 ms for the three) than a small file takes to validate, and ``lcn validate -q`` over
# valid games prints none of its input. Written out in full, the audit of every pattern
# (tests/test_linear_cost.py) reads them where they are.


def printable(text: str, *, lines: bool = False) -> str:
    """Text from a record made safe to print: each control character is shown as its escape
    (``\\x1b``, ``\\u202e``), so a game file cannot drive the terminal (colours, cursor,
    title, clipboard) or hide what it holds. ``lines`` keeps line feeds (a rendered
    board); otherwise they are escaped too. JSON output is not passed through this: its
    own escapes keep the values exact (:func:`json_text`).

    The characters escaped: C0 and C1 controls (escape sequences: colours, cursor moves,
    window titles, ``\\x9b`` is an escape on its own), DEL, the bidirectional overrides and
    isolates that reorder what is shown, line and paragraph separators, and lone surrogates
    (which cannot even be encoded); tab never, line feed unless ``lines``."""
    if lines:
        return re.sub("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e"
                      "\u2066-\u2069\ud800-\udfff]", _escaped, text)
    return re.sub("[\\n\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e"
                  "\u2066-\u2069\ud800-\udfff]", _escaped, text)


def json_text(text: str) -> str:
    """JSON text with the characters a terminal would obey written as ``\\uXXXX`` escapes:
    the same JSON values, exactly (they can only stand inside strings). The characters:
    those that json.dumps(ensure_ascii=False) writes as they are, but a terminal reads as
    controls (C1 controls and the others :func:`printable` escapes; C0 controls are escaped
    already)."""
    return re.sub("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]",
                  lambda m: f"\\u{ord(m.group()):04x}", text)


def say(text: str) -> str:
    """A message of the library or of the command in the language ``LANG`` (and the other
    variables gettext reads) names; English when it names none with a catalog."""
    return translate(text, language_from_environment())


def render_diagnostic(d: Diagnostic, filename: str, lines: dict[int, str], color: bool) -> str:
    """A compiler-style diagnostic with the source line and a caret under the bad span.

    What comes from the input (the message's quotes of it, the source line) is printed
    through :func:`printable`; the caret stays under the span, escapes counted.
    """
    head = printable(d.format(filename, language_from_environment()))
    if color:
        tint = {"error": "red", "warning": "yellow"}.get(d.severity.value, "cyan")
        head = head.replace(f"{d.severity.value}[{d.code}]",
                            click.style(f"{d.severity.value}[{d.code}]", fg=tint, bold=True), 1)
    if d.line is None or d.line not in lines:
        return head
    text = lines[d.line].replace("\t", " ")
    gutter = f"{d.line:>5} | "
    out = [head, gutter + printable(text)]
    if d.column is not None:
        # The line shown may be cut short (source_lines keeps 2000 characters): a caret past
        # its end would only print a screenful of spaces.
        if d.column > len(text) + 1:
            return "\n".join(out)
        width = max(1, min(d.length, max(1, len(text) - d.column + 1)))
        start = d.column - 1
        caret = " " * len(printable(text[:start])) + "^" * max(1, len(printable(text[start:start + width])))
        out.append(" " * (len(gutter) - 2) + "| " + (click.style(caret, fg="red") if color else caret))
    return "\n".join(out)


class AtomicFile:
    """A new file written beside ``path`` that replaces it only on :meth:`commit`.

    Until then the original is untouched, and the new file has no name: it is made with
    ``O_TMPFILE`` where the system has it, so a crash, an error or a kill (even ``kill -9``)
    never leaves a half-written file behind. :meth:`commit` gives it a name for the moment of
    the ``rename`` that puts it in place, which is atomic. Where ``O_TMPFILE`` is missing the
    new file is named from the start and removed by :meth:`discard` or at exit.

    A symbolic link is written through: the file it points to is replaced and the link
    stays. A file with several hard links is refused (:class:`OutputError`): replacing it
    would split it from its other names, and rewriting it in place could not be atomic.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        #: The file replaced: the target of a symbolic link, not the link.
        self.target = Path(os.path.realpath(path))
        try:
            self.original: os.stat_result | None = self.target.stat()
        except FileNotFoundError:
            self.original = None
        if self.original is not None and self.original.st_nlink > 1:
            raise OutputError(
                msg("cannot write '{path}': it has {links} hard links, which replacing it would "
                    "split (write to another file and copy it over, as `cp` does, to keep them)",
                    path=path, links=self.original.st_nlink))
        self.directory = self.target.parent
        self.temp: str | None = None
        fd = _unnamed_file(self.directory)
        if fd is None:
            import tempfile  # only for a file written: not paid by lcn validate

            fd, self.temp = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".tmp",
                                             dir=self.directory)
            atexit.register(self.discard)
        self.handle: BinaryIO = os.fdopen(fd, "wb")
        self.committed = False

    def commit(self) -> None:
        """Put the new file in place of the old one, with the old one's mode and owner."""
        self.handle.flush()
        fd = self.handle.fileno()
        if self.original is not None:
            os.fchmod(fd, self.original.st_mode & 0o7777)
            with contextlib.suppress(OSError):  # only the owner or root may change it
                os.fchown(fd, self.original.st_uid, self.original.st_gid)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fd, 0o666 & ~umask)
        os.fsync(fd)
        if self.temp is None:
            self.temp = _link_unnamed(fd, self.directory, self.target.name)
        try:
            os.replace(self.temp, self.target)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)
            raise
        self.committed = True
        self.handle.close()
        with contextlib.suppress(OSError):  # the rename itself made durable
            directory = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)

    def discard(self) -> None:
        if not self.committed:
            with contextlib.suppress(OSError):  # what could not be written is dropped
                self.handle.close()
            if self.temp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(self.temp)
                self.temp = None


class OutputError(InputError):
    """A file that cannot be written: exit status 2, as for a file that cannot be read."""


class StdoutFailed(OSError):
    """A write to standard output that failed (a full disk, ``/dev/full``, an I/O error).

    Its own class so that the entry point tells it from any other ``OSError``: only this
    one is "the output cannot be written" (exit status 2); a closed pipe keeps its errno
    (EPIPE), which click answers as it always has.
    """


class _WatchedStdout(io.FileIO):
    """Standard output's descriptor, whose failed writes raise :class:`StdoutFailed`."""

    def write(self, data: Any) -> int:  # any buffer, as FileIO.write takes
        try:
            return super().write(data)
        except OSError as exc:
            if exc.errno == errno.EPIPE or isinstance(exc, StdoutFailed):
                raise
            raise StdoutFailed(exc.errno, exc.strerror) from None


def watch_stdout() -> None:
    """Put standard output on :class:`_WatchedStdout`, with the same encoding and buffering.

    Wherever the output is written (click, ``sys.stdout.write``, the final flush), a
    failure is then known for what it is, without a ``try`` around every ``echo``.
    """
    stdout = sys.stdout
    if not isinstance(stdout, io.TextIOWrapper) \
            or not isinstance(stdout.buffer, (io.BufferedWriter, io.FileIO)):
        return  # replaced already (a test's runner): left as it is
    try:
        fd = stdout.fileno()
        stdout.flush()
    except (OSError, ValueError):
        return
    raw = _WatchedStdout(fd, "wb", closefd=False)
    # Unbuffered (python -u, PYTHONUNBUFFERED) stays so: its text goes straight to the descriptor.
    buffer: BinaryIO = raw if isinstance(stdout.buffer, io.FileIO) else io.BufferedWriter(raw)
    sys.stdout = io.TextIOWrapper(buffer, encoding=stdout.encoding, errors=stdout.errors,
                                  line_buffering=stdout.line_buffering,
                                  write_through=stdout.write_through)


def abandon_stdout() -> None:
    """Point standard output at the null device once it has failed: what is still buffered
    goes nowhere when the interpreter flushes it at exit, rather than failing again with an
    "Exception ignored" report."""
    with contextlib.suppress(OSError, ValueError):
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)


def _unnamed_file(directory: Path) -> int | None:
    """A new file without a name in ``directory`` (``O_TMPFILE``), or None where the system
    or the file system does not make one."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not _DESCRIPTORS.is_dir():
        return None
    try:
        return os.open(directory, flag | os.O_WRONLY, 0o600)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
            return None  # this file system has no unnamed files
        raise


def _link_unnamed(fd: int, directory: Path, name: str) -> str:
    """Give the unnamed file ``fd`` a fresh name in ``directory`` (for the rename)."""
    # linkat(AT_SYMLINK_FOLLOW) through the descriptor's entry: os.link takes that path only
    # when given a directory descriptor (plain link() would link the entry itself).
    import secrets  # only for a file written: not paid by lcn validate

    descriptors = os.open(_DESCRIPTORS, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(100):
            temp = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
            try:
                os.link(str(fd), temp, src_dir_fd=descriptors, follow_symlinks=True)
            except FileExistsError:
                continue
            return temp
    finally:
        os.close(descriptors)
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(directory))


def reading(items: Iterable[T], name: str) -> Iterator[T]:
    """The items of ``items`` (games read from a file), a failure to read the file midway
    (an I/O error, a file that went away) turned into an :class:`InputError` that names it.

    Only the reading is covered: an error in what the caller does with an item (writing it
    out) is raised where it happens, not blamed on the input.
    """
    iterator = iter(items)
    while True:
        try:
            item = next(iterator)
        except StopIteration:
            return
        except InputError:
            raise
        except FileChanged as exc:
            raise ChangedWhileRead(name) from exc
        except OSError as exc:
            raise InputError(msg("cannot read '{name}': {reason}",
                                 name=name, reason=exc.strerror or exc)) from exc
        yield item


class ChangedWhileRead(InputError):
    """A file written to or replaced while several processes read it by range: what was
    reported of it is of no one version, and its totals are not to be given."""

    def __init__(self, name: str) -> None:
        super().__init__(msg("{name} changed while it was read; run again", name=name))


def write_atomically(path: Path, text: str) -> None:
    """Replace a file's content so that a crash leaves either the old or the new file
    (:class:`AtomicFile`: nothing else, a link written through, hard links refused)."""
    replacement = AtomicFile(path)
    try:
        replacement.handle.write(text.encode("utf-8"))
        replacement.commit()
    finally:
        replacement.discard()

"""The importers' input is bounded: ``lcn convert`` refuses an endless input while reading it.

Memory is bounded with ``RLIMIT_AS`` on the child process: had it read the whole of
``/dev/zero`` (or of an endless pipe) it would fail with a MemoryError under the limit
instead of stopping with its clear error and exit status 2.
"""

from __future__ import annotations

import io
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from lcn.importers import MAX_INPUT, InputTooLarge, import_text, read_limited

ROOT = Path(__file__).resolve().parent.parent
#: Address space for the command: Python, Click and the library, and MAX_INPUT a few times.
MEMORY = 1024**3


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _convert(*args: str, stdin: int | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "lcn_cli.main", "convert", *args], cwd=ROOT,
                            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_limit)


class Endless(io.RawIOBase):
    """A stream of zeros without end that counts what was taken from it."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        size = len(buffer)
        buffer[:size] = bytes(size)
        self.given += size
        return size


def test_read_limited_stops_at_the_limit() -> None:
    stream = Endless()
    with pytest.raises(InputTooLarge, match="larger than 4 MiB"):
        read_limited(stream)  # type: ignore[arg-type]
    assert MAX_INPUT < stream.given <= MAX_INPUT + 1


def test_read_limited_reads_an_input_up_to_the_limit() -> None:
    data = b"Ada plays the red 7\n" * 1000
    assert read_limited(io.BytesIO(data)) == data
    assert read_limited(io.BytesIO(bytes(MAX_INPUT))) == bytes(MAX_INPUT)
    with pytest.raises(InputTooLarge):
        read_limited(io.BytesIO(bytes(MAX_INPUT + 1)))


def test_import_text_refuses_a_larger_input() -> None:
    with pytest.raises(InputTooLarge):
        import_text("Ada plays the red 7\n" * (MAX_INPUT // 20 + 1))


def test_convert_dev_zero() -> None:
    process = _convert("/dev/zero")
    out, err = process.communicate(timeout=600)
    assert process.returncode == 2, err
    assert b"'/dev/zero' is too large" in err and b"4 MiB" in err and b"Traceback" not in err
    assert out == b""


def test_convert_an_endless_pipe() -> None:
    process = _convert("-", stdin=subprocess.PIPE)
    assert process.stdin is not None

    def feed() -> None:
        chunk = b"Ada plays the red 7\n" * 4096
        try:
            while True:
                process.stdin.write(chunk)  # type: ignore[union-attr]
        except (BrokenPipeError, ValueError, OSError):
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    err = process.stderr.read()  # type: ignore[union-attr]
    process.wait(timeout=600)
    writer.join(timeout=60)
    assert process.returncode == 2, err
    assert b"'<stdin>' is too large" in err and b"Traceback" not in err

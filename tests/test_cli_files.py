"""The ``lcn`` command against failing files: a read error midway, a read-only directory, a
full disk, a kill during ``fmt --write``, symbolic and hard links. Each is a clear message
and exit status 2, never a traceback, and the file is left whole.

The file systems are real: small ``tmpfs`` mounts (read-only, or too small for the new
file) where this process may mount them (as root), skipped elsewhere.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from lcn_cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
FULL_DEAL = (ROOT / "samples" / "classic" / "full-deal.lcn").read_text(encoding="utf-8")
#: The same games, not in canonical form (indented tags): ``fmt --write`` rewrites them.
UNFORMATTED = FULL_DEAL.replace("\n[", "\n  [")
LCN = [sys.executable, "-m", "lcn_cli.main"]


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def lcn(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*LCN, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


class _FailsAt(io.RawIOBase):
    """A file that reads as the real one up to ``limit`` bytes, then fails with EIO (a disk
    or a network file system failing midway)."""

    def __init__(self, path: str, limit: int) -> None:
        self._file = io.FileIO(os.open(path, os.O_RDONLY), "rb")
        self._limit = limit

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        return self._file.tell()

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        position = self._file.tell()
        if position >= self._limit:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        view = memoryview(buffer)[:self._limit - position]
        return self._file.readinto(view) or 0

    def close(self) -> None:
        self._file.close()
        super().close()


def raw_bytes(path: Path) -> bytes:
    """The bytes of a file, read past the patched ``open``."""
    with io.FileIO(os.open(path, os.O_RDONLY), "rb") as handle:
        return handle.readall()


@pytest.fixture
def failing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A file of 400 games whose reading fails with EIO two thirds of the way through,
    however it is opened (the reader, the second pass of ``fmt``, the carets)."""
    path = tmp_path / "games.lcn"
    path.write_text("\n".join([FULL_DEAL] * 400), encoding="utf-8")
    limit = path.stat().st_size * 2 // 3
    real_open = builtins.open

    def fake_open(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(file, (str, os.PathLike)) and os.fspath(file) == str(path) and "r" in mode:
            raw = _FailsAt(str(path), limit)
            return io.BufferedReader(raw) if "b" in mode else io.TextIOWrapper(io.BufferedReader(raw))
        return real_open(file, mode, *args, **kwargs)

    real_pread = os.pread

    def fake_pread(fd: int, size: int, offset: int) -> bytes:  # --jobs: parts read by range
        if offset + size > limit and os.readlink(f"/proc/self/fd/{fd}") == str(path):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real_pread(fd, size, offset)

    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(io, "open", fake_open)
    monkeypatch.setattr(os, "pread", fake_pread)  # in the worker processes too (forked)
    yield path


@pytest.mark.parametrize("command", [
    ["validate"], ["validate", "-q"], ["validate", "--jobs", "2"], ["score"],
    ["score", "--format", "json"], ["show", "--game", "390"],
    ["fmt"], ["fmt", "--check"], ["fmt", "--write"], ["deal"]])
def test_a_read_error_midway_is_an_input_error(failing: Path, command: list[str]) -> None:
    before = raw_bytes(failing)
    result = run(*command, str(failing))
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert f"cannot read '{failing}': Input/output error" in result.output
    assert "Traceback" not in result.output
    assert raw_bytes(failing) == before
    assert sorted(p.name for p in failing.parent.iterdir()) == ["games.lcn"]


def test_validate_reports_the_games_read_before_the_error(failing: Path) -> None:
    result = run("validate", str(failing))
    assert result.exit_code == 2
    done = result.output.count(": valid")
    assert 100 < done < 400
    assert f"{done} games: {done} valid, 0 invalid" in result.output


@pytest.mark.parametrize("command", [
    ["validate"], ["validate", "--format", "json"], ["score"], ["show"], ["fmt"], ["fmt", "--check"],
    ["deal"]])
def test_an_unreadable_file_in_a_real_process(command: list[str]) -> None:
    """/proc/self/mem opens, and its first read fails with EIO (its start is not mapped)."""
    process = lcn(*command, "/proc/self/mem")
    assert process.returncode == 2, process.stderr
    assert "cannot read '/proc/self/mem': Input/output error" in process.stderr
    assert "Traceback" not in process.stderr


@contextlib.contextmanager
def tmpfs(directory: Path, options: str) -> Iterator[Path]:
    """A real tmpfs mounted on ``directory`` (skips the test where mounting is not allowed)."""
    directory.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(directory)],
                             capture_output=True)
    if mounted.returncode:
        pytest.skip("cannot mount a tmpfs here: " + mounted.stderr.decode(errors="replace"))
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=True)


def test_fmt_write_in_a_read_only_directory(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro", "size=1m") as directory:
        game = directory / "game.lcn"
        game.write_text(UNFORMATTED, encoding="utf-8")
        subprocess.run(["mount", "-o", "remount,ro", str(directory)], check=True)
        process = lcn("fmt", "--write", str(game))
        assert process.returncode == 2, process.stderr
        assert process.stderr == f"lcn: cannot write '{game}': Read-only file system\n"
        assert game.read_text(encoding="utf-8") == UNFORMATTED
        out = directory / "out.lcn"
        process = lcn("deal", "-o", str(out), str(ROOT / "samples" / "classic" / "full-deal.lcn"))
        assert process.returncode == 2, process.stderr
        assert "Traceback" not in process.stderr and "Read-only file system" in process.stderr


def test_fmt_write_on_a_full_disk(tmp_path: Path) -> None:
    text = "\n".join([UNFORMATTED] * 20)
    with tmpfs(tmp_path / "small", "size=64k") as directory:
        game = directory / "game.lcn"
        game.write_text(text, encoding="utf-8")
        # The disk made full.
        with (directory / "fill").open("wb", buffering=0) as fill, contextlib.suppress(OSError):
            for _ in range(64):
                fill.write(b"\0" * 1024)
        process = lcn("fmt", "--write", str(game))
        assert process.returncode == 2, process.stderr
        assert process.stderr == f"lcn: cannot write '{game}': No space left on device\n"
        assert game.read_text(encoding="utf-8") == text
        assert sorted(p.name for p in directory.iterdir()) == ["fill", "game.lcn"]
        (directory / "fill").unlink()
        process = lcn("fmt", "--write", str(game))
        assert process.returncode == 0, process.stderr
        assert lcn("fmt", "--check", str(game)).returncode == 0


def _writing(pid: int, directory: Path) -> bool:
    """Whether the process holds a file of ``directory`` open for writing."""
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                flags = int(Path(f"/proc/{pid}/fdinfo/{fd}").read_text().split("flags:")[1].split()[0], 8)
                if target.startswith(f"{directory}/") and flags & os.O_WRONLY:
                    return True
    return False


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(), reason="needs /proc")
def test_a_kill_during_fmt_write_leaves_nothing_behind(tmp_path: Path) -> None:
    """Killed (SIGKILL) while it writes the new file, ``fmt --write`` leaves the old file and
    nothing else: the new file has no name until it replaces the old one."""
    game = tmp_path / "games.lcn"
    text = "\n".join([UNFORMATTED] * 3000)
    game.write_text(text, encoding="utf-8")
    for _ in range(3):
        process = subprocess.Popen([*LCN, "fmt", "--write", str(game)], stderr=subprocess.PIPE)
        for _ in range(20000):  # bounded: the process starts writing long before it ends
            if _writing(process.pid, tmp_path) or process.poll() is not None:
                break
            time.sleep(0.002)
        assert process.poll() is None, "the process ended before it was seen writing"
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert process.stderr is not None
        process.stderr.close()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["games.lcn"]
        assert game.read_text(encoding="utf-8") == text


def test_fmt_write_through_a_symbolic_link(tmp_path: Path) -> None:
    real = tmp_path / "real.lcn"
    real.write_text(UNFORMATTED, encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.lcn"
    link.symlink_to("real.lcn")
    result = run("fmt", "--write", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == "real.lcn"
    assert real.read_text(encoding="utf-8") == FULL_DEAL
    assert real.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.lcn", "real.lcn"]


def test_fmt_write_keeps_hard_links_whole(tmp_path: Path) -> None:
    first = tmp_path / "a.lcn"
    first.write_text(UNFORMATTED, encoding="utf-8")
    second = tmp_path / "b.lcn"
    os.link(first, second)
    result = run("fmt", "--write", str(second))
    assert result.exit_code == 2
    assert f"cannot write '{second}': it has 2 hard links" in result.output
    assert "Traceback" not in result.output
    assert first.stat().st_ino == second.stat().st_ino
    assert second.read_text(encoding="utf-8") == UNFORMATTED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.lcn", "b.lcn"]

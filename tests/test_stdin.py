"""Standard input (``-``): read as it comes by ``validate``, ``score`` and ``show``, through a
temporary file by the commands that read their input twice, and in bounded memory always."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lcn_cli.io import StdinStream, source_lines

ROOT = Path(__file__).resolve().parent.parent
FULL_DEAL = (ROOT / "samples" / "classic" / "full-deal.lcn").read_text(encoding="utf-8")
INVALID = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. R7/d B4/G\n3. R4/d *\n'


class Trickle(io.RawIOBase):
    """A pipe that gives its bytes in pieces of the sizes given, whatever is asked."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        self.data = data
        self.at = 0
        self.sizes = sizes or [1]
        self.turn = 0

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        step = self.sizes[self.turn % len(self.sizes)]
        self.turn += 1
        piece = self.data[self.at:self.at + min(step, size if size >= 0 else step)]
        self.at += len(piece)
        return piece


lines_text = st.lists(st.text(st.sampled_from("ab R5/d\r\u00e9\ufeff"), max_size=60), min_size=1,
                      max_size=40)


@settings(max_examples=200, deadline=None)
@given(lines=lines_text, sizes=st.lists(st.integers(1, 50), max_size=6),
       asks=st.lists(st.tuples(st.booleans(), st.integers(-1, 70)), min_size=1, max_size=4),
       keep=st.integers(1, 400), block=st.integers(1, 90), final_newline=st.booleans())
def test_kept_lines_are_those_of_a_fresh_read(lines: list[str], sizes: list[int],
                                              asks: list[tuple[bool, int]], keep: int, block: int,
                                              final_newline: bool) -> None:
    """Read by blocks and by lines (as the reader reads an overlong line), with lines asked
    for along the way: the lines kept are those of a fresh read of the same bytes."""
    data = "\n".join(lines).encode("utf-8") + (b"\n" if final_newline else b"")
    stream = StdinStream(Trickle(data, sizes), keep=keep, block=block)  # type: ignore[arg-type]
    read = b""
    turn = 0
    while True:
        by_line, size = asks[turn % len(asks)]
        size = size or 1  # nothing asked is nothing given: no way to tell the end
        piece = stream.readline(size) if by_line else stream.read(max(size, 1))
        if by_line and size >= 0:
            assert len(piece) <= size
        if by_line and piece and not piece.endswith(b"\n"):
            # cut at the limit, or the end of the input
            assert len(piece) == size or read + piece == data
        assert b"\n" not in piece[:-1] or not by_line
        turn += 1
        if not piece:
            break
        read += piece
        assert stream.tell() == len(read)
        # Asked along the way, as a game's diagnostics are: the whole lines read so far.
        whole = read.count(b"\n")
        if whole:
            _check(stream, read, range(max(1, whole - 3), whole + 1), keep)
    assert read == data
    _check(stream, data, range(1, data.count(b"\n") + 2), keep)


def test_what_is_kept_of_a_trickle_stays_near_its_bound() -> None:
    """A writer that flushes a line at a time gives tiny pieces: they are kept in blocks
    of their own size, so that keeping 256 kB does not cost many times that."""
    import tracemalloc

    keep = 256 << 10
    line = b"1. R5/d xB2/d 2. R7/B B4/d 3. R8/d Y5/d 4. G3/d xY5/d\n"
    data = line * (4 * keep // len(line))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        stream = StdinStream(Trickle(data, [len(line)]), keep=keep)  # type: ignore[arg-type]
        while stream.read(1 << 14):
            pass
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert stream.tell() == len(data)
    assert keep <= held < 2 * keep
    last = data.count(b"\n")
    assert stream.get([last]) == {last: line.decode().rstrip("\n")}


def _check(stream: StdinStream, data: bytes, wanted: range, keep: int) -> None:
    found = stream.get(wanted)
    expected = source_lines(data, wanted)
    assert found == {number: expected[number] for number in found}
    # Every line that starts within the last ``keep`` bytes read is still there.
    starts = [0] + [at + 1 for at, byte in enumerate(data) if byte == 0x0A]
    for number in wanted:
        if number in expected and starts[number - 1] >= len(data) - keep:
            assert number in found, number


def _lcn(*args: str, stdin: bytes) -> tuple[int, str, str, int]:
    """Run the command in a process of its own: its exit status, output and peak memory (kB)."""
    code = ("import resource, subprocess, sys\n"
            "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
            "sys.stderr.buffer.write(done.stderr)\n"
            "sys.stdout.buffer.write(done.stdout)\n"
            "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
            "sys.stderr.write(f'\\npeak {peak}\\n')\n"
            "sys.exit(done.returncode)\n")
    # The measuring parent passes its standard input on, this test's pipe, without reading it:
    # a child's peak counts the parent's memory at the fork.
    process = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "lcn_cli.main", *args],
                             input=stdin, capture_output=True, timeout=600, check=False)
    err = process.stderr.decode()
    peak = int(err.rsplit("peak ", 1)[1])
    return process.returncode, process.stdout.decode(), err.rsplit("\npeak ", 1)[0], peak


def test_validate_reads_a_pipe_as_it_comes() -> None:
    """The verdict on a game is printed while the pipe is still open, carets included."""
    process = subprocess.Popen([sys.executable, "-m", "lcn_cli.main", "validate", "-"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(INVALID.encode() + b"\n" + FULL_DEAL.encode() + b"\n[Player1 \"Cy\"]\n")
        process.stdin.flush()
        received = b""
        verdict_one = "<stdin>: game 1 (classic: Ada vs Bo, line 1): 2 errors"
        verdict_two = "\n<stdin>: game 2 "
        while verdict_two.encode() not in received:
            # Waiting at most a minute: a run that holds its verdicts until the pipe closes
            # never gets here, and fails. (Read from the descriptor itself: a buffered
            # reader could hold lines that select() does not see.)
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready, f"no verdict while the pipe is open; so far: {received!r}"
            piece = os.read(process.stdout.fileno(), 1 << 16)
            assert piece, "the output ended early"
            received += piece
        seen = received.decode().splitlines()
        assert verdict_one in seen
        at = seen.index("<stdin>:5:4: error[not-ascending] R4 cannot follow R7 in Ada's red "
                        "expedition: each card must be higher than the one before [turn 5] "
                        "(C-PLACE-ASCENDING)")
        assert seen[at + 1:at + 3] == ["    5 | 3. R4/d *", "      |    ^^"]
        process.stdin.write(b"[Player2 \"Di\"]\n\n1. R5/d xB2/d *\n")
        process.stdin.close()
        rest = process.stdout.read().decode().splitlines()
        assert process.wait(timeout=60) == 1
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert rest[-2].startswith("<stdin>: game 3 (classic: Cy vs Di, line ")
    assert rest[-1] == "3 games: 2 valid, 1 invalid"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_validate_and_score_of_standard_input_match_those_of_the_file(tmp_path: Path, jobs: str) -> None:
    text = (INVALID + "\n" + FULL_DEAL).encode()
    path = tmp_path / "games.lcn"
    path.write_bytes(text)
    for command in (["validate", "--jobs", jobs], ["validate", "--format", "json", "--jobs", jobs],
                    ["score"], ["show", "--game", "2", "--turn", "5"]):
        from_file = subprocess.run([sys.executable, "-m", "lcn_cli.main", *command, str(path)],
                                   capture_output=True, timeout=120, check=False)
        piped = subprocess.run([sys.executable, "-m", "lcn_cli.main", *command, "-"], input=text,
                               capture_output=True, timeout=120, check=False)
        assert piped.returncode == from_file.returncode, command
        assert piped.stdout.replace(b"<stdin>", str(path).encode()) == from_file.stdout, command


def test_a_spooled_standard_input_is_removed_at_exit(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    unformatted = b'[Player1 "Ada"]\n[Player2 "Bo"]\n\nr5/D   xb2/d *\n'
    done = subprocess.run([sys.executable, "-m", "lcn_cli.main", "fmt", "-"], input=unformatted,
                          capture_output=True, timeout=60, env=env, check=False)
    assert done.returncode == 0 and done.stdout.endswith(b"\n\n1. R5/d xB2/d *\n")
    assert list(tmp_path.iterdir()) == []


# -- memory ----------------------------------------------------------------------------------
#: Bytes piped in: far more than what the commands keep of standard input.
PIPED = 24 << 20


def _many_games() -> bytes:
    game = FULL_DEAL.encode()
    return b"\n".join([game] * (PIPED // len(game) + 1))


@pytest.mark.slow
def test_a_long_pipe_takes_bounded_memory() -> None:
    """Validating or formatting 24 MB from a pipe takes about as much memory as one
    game does: the input is never held whole (``validate`` keeps its last 8 MB for the
    carets at most)."""
    many = _many_games()
    games = many.count(b"[Player1 ")
    for command, bound in ((["validate", "-q", "-"], 12 << 10), (["fmt", "--check", "-"], 4 << 10)):
        status, out, err, small = _lcn(*command, stdin=FULL_DEAL.encode())
        assert status == 0, err
        status, out, err, large = _lcn(*command, stdin=many)
        assert status == 0, err
        if command[0] == "validate":
            assert out.splitlines()[-1] == f"{games} games: {games} valid, 0 invalid"
        assert large - small < bound, (command, small, large)


def test_a_tracked_run_of_standard_input_reads_it_in_one_process() -> None:
    from lcn_cli.progress import Progress, TrackedRun

    import lcn

    data = (INVALID + "\n" + FULL_DEAL).encode() * 3
    run = TrackedRun(StdinStream(io.BytesIO(data)), jobs=2)
    assert run.size is None  # the end of a pipe is not known before it comes
    reports = list(run)
    assert [r.to_json() for r in reports] == [r.to_json() for r in lcn.ValidationRun(data)]
    assert run.position == len(data)
    line = Progress("<stdin>", run.size, enabled=False).line(run.position, len(reports), 2.0)
    assert line == f"<stdin>: {len(data) / 1e6:,.0f} MB, 6 games, {len(data) / 2e6:,.1f} MB/s"


@pytest.mark.parametrize("command", [["validate"], ["score"], ["fmt"], ["show"], ["deal"]])
def test_a_closed_standard_input_is_an_input_error(command: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "lcn_cli.main", *command, "-"], capture_output=True,
                          stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0), timeout=60,
                          check=False)
    assert done.returncode == 2
    assert b"cannot read standard input: it is closed" in done.stderr
    assert b"Traceback" not in done.stderr


class Failing(io.RawIOBase):
    """A pipe that gives some bytes, then fails as a device can (EIO)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        if not self.data:
            raise OSError(5, "Input/output error")
        piece, self.data = self.data[:size], self.data[size:]
        return piece


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_score_of_standard_input_failing_midway_scores_what_came(monkeypatch: pytest.MonkeyPatch,
                                                                fmt: str) -> None:
    import json

    from click.testing import CliRunner
    from lcn_cli import io as cli_io
    from lcn_cli.main import cli

    monkeypatch.setattr(cli_io, "_stdin", lambda: Failing((INVALID + "\n" + FULL_DEAL + "\n").encode()))
    result = CliRunner().invoke(cli, ["score", "--format", fmt, "-"])
    assert result.exit_code == 2, result.output
    assert "lcn: cannot read standard input: Input/output error" in result.stderr
    if fmt == "json":
        assert [g["players"] for g in json.loads(result.stdout)["games"]] == [["Ada", "Bo"]]
    else:
        assert result.stdout.startswith("<stdin>: game 1 (classic: Ada vs Bo, line 1)\n")


def test_a_line_longer_than_the_reader_takes_reads_the_same_from_a_pipe(tmp_path: Path) -> None:
    path = tmp_path / "long.lcn"
    path.write_bytes(INVALID.encode() + b"\n[Player1 \"Ada\"]\n" + b"x" * (2 << 20) + b"\n\n"
                     + FULL_DEAL.encode())
    for command in (["validate"], ["score"], ["show", "--game", "3"], ["fmt"]):
        from_file = subprocess.run([sys.executable, "-m", "lcn_cli.main", *command, str(path)],
                                   capture_output=True, timeout=120, check=False)
        with path.open("rb") as stdin:
            piped = subprocess.run([sys.executable, "-m", "lcn_cli.main", *command, "-"],
                                   stdin=stdin, capture_output=True, timeout=120, check=False)
        assert b"Traceback" not in piped.stderr, piped.stderr[-2000:]
        assert piped.returncode == from_file.returncode, command
        assert piped.stdout.replace(b"<stdin>", str(path).encode()) == from_file.stdout, command
        assert piped.stderr.replace(b"<stdin>", str(path).encode()) == from_file.stderr, command


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to watch the process")
def test_a_killed_fmt_leaves_no_copy_of_standard_input(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "lcn_cli.main", "fmt", "-"],
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert process.stdin is not None
    try:
        process.stdin.write(FULL_DEAL.encode() * 100)  # the copy is being made: the pipe is open
        process.stdin.flush()
        # Until the process has its copy open (a descriptor on a file of the folder).
        descriptors = Path(f"/proc/{process.pid}/fd")
        deadline = time.monotonic() + 60
        while not any(_target(fd).startswith(str(tmp_path)) for fd in descriptors.iterdir()):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        process.terminate()
        assert process.wait(timeout=60) != 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdin.close()
    assert list(tmp_path.iterdir()) == []


def _target(descriptor: Path) -> str:
    try:
        return os.readlink(descriptor)
    except OSError:  # closed meanwhile
        return ""


def test_without_descriptors_as_files_the_copy_is_named_and_removed_at_exit(tmp_path: Path) -> None:
    code = ("import pathlib, sys\n"
            "from lcn_cli import io\n"
            "io._DESCRIPTORS = pathlib.Path(sys.argv[1])\n"
            "from lcn_cli.main import cli\n"
            "cli(['fmt', '-'])\n")
    unformatted = b'[Player1 "Ada"]\n[Player2 "Bo"]\n\nr5/D   xb2/d *\n'
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "none")], input=unformatted,
                          capture_output=True, timeout=60, env={**os.environ, "TMPDIR": str(tmp_path)},
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith(b"\n\n1. R5/d xB2/d *\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_standard_input_failing_midway_reports_what_came(monkeypatch: pytest.MonkeyPatch,
                                                         fmt: str) -> None:
    import json

    from click.testing import CliRunner
    from lcn_cli import io as cli_io
    from lcn_cli.main import cli

    # The second game was still coming (a comment may follow its end) when reading failed:
    # only the first is reported.
    came = (INVALID + "\n" + FULL_DEAL + "\n").encode()
    monkeypatch.setattr(cli_io, "_stdin", lambda: Failing(came))
    result = CliRunner().invoke(cli, ["validate", "--format", fmt, "-"])
    assert result.exit_code == 2, result.output
    assert "lcn: cannot read standard input: Input/output error" in result.stderr
    if fmt == "json":
        data = json.loads(result.stdout)
        assert [g["valid"] for g in data["games"]] == [False]
        assert data["summary"] == {"games": 1, "valid": 0, "invalid": 1}
    else:
        assert result.stdout.splitlines()[-1] == "<stdin>: game 1 (classic: Ada vs Bo, line 1): 2 errors"

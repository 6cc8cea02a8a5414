"""The command line when the world around it fails: an output that cannot be written, a
Ctrl-C in the middle of a parallel run, a file rewritten while several processes read it.

Each ends with one line on standard error that says what happened and an exit status that
is not "the game is invalid" (1): never a traceback, never totals that belong to no version
of the file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

from lcn import parallel

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "classic"
FULL_DEAL = SAMPLES / "full-deal.lcn"
UNFINISHED = SAMPLES / "unfinished.lcn"


def _lcn(*args: str) -> list[str]:
    return [sys.executable, "-c", "from lcn_cli.main import main; main()", *args]


def _env(unbuffered: bool = False) -> dict[str, str]:
    """The command's environment: English, and standard output buffered (as it is by
    default, so that a failure can wait for the flush at exit) unless ``unbuffered``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8", "LANGUAGE": ""}
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


#: Every command that writes to standard output, in each of its output forms.
WRITERS = [
    ["validate", str(FULL_DEAL)],
    ["validate", "--format", "json", str(FULL_DEAL)],
    ["validate", "--format", "jsonl", str(FULL_DEAL)],
    ["validate", "-j2", str(FULL_DEAL)],
    ["score", str(FULL_DEAL)],
    ["score", "--format", "json", str(FULL_DEAL)],
    ["fmt", str(FULL_DEAL)],
    ["show", str(FULL_DEAL)],
    ["show", "--format", "json", str(FULL_DEAL)],
    ["deal", str(FULL_DEAL)],
    ["convert", "--to", "json", str(FULL_DEAL)],
    ["moves", str(UNFINISHED)],
    ["moves", "--format", "json", str(UNFINISHED)],
    ["--help"],
    ["--version"],
    ["validate", "--help"],
]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("command", WRITERS, ids=lambda command: " ".join(
    Path(arg).name if "/" in arg else arg for arg in command))
@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
def test_a_full_output_is_said_in_one_line(command: list[str], unbuffered: bool,
                                           tmp_path: Path) -> None:
    """Standard output on a full device: exit 2 and one line that says so, whether the write
    fails as it is made or when the output is flushed at the end."""
    with open("/dev/full", "wb") as full:
        result = subprocess.run(_lcn(*command), stdout=full, stderr=subprocess.PIPE,
                                cwd=tmp_path, env=_env(unbuffered), timeout=120, check=False)
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert result.returncode == 2, err
    lines = [line for line in err.splitlines() if line.strip()]
    # A command may report what it found on standard error before it fails to write (deal
    # and convert say how many games they wrote): the failure is the last line, and alone.
    assert lines and lines[-1] == "lcn: cannot write the output: No space left on device", err
    assert sum("cannot write the output" in line for line in lines) == 1, err


def test_db_status_to_a_full_output(tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        result = subprocess.run(_lcn("db", "status", "--data-dir", str(tmp_path / "data")),
                                stdout=full, stderr=subprocess.PIPE, cwd=tmp_path, env=_env(),
                                timeout=120, check=False)
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2 and err == "lcn: cannot write the output: No space left on device\n", err


def test_a_closed_pipe_ends_quietly_as_before(tmp_path: Path) -> None:
    """``lcn validate big | head -1``: the reader of the output went away. That is no error
    to report (as with any Unix filter): no word on standard error, and the status click
    gives a broken pipe (1), as before."""
    text = FULL_DEAL.read_text(encoding="utf-8")
    big = tmp_path / "big.lcn"
    big.write_text("\n".join([text] * 1500), encoding="utf-8")  # far more than a pipe holds
    process = subprocess.Popen(_lcn("validate", str(big)), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=tmp_path, env=_env())
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    process.wait(timeout=120)
    assert first.startswith(str(big).encode()), first
    assert err == b"", err
    assert process.returncode == 1


# A file rewritten while several processes read it.


def _two_versions(tmp_path: Path) -> tuple[Path, bytes, bytes]:
    """A file big enough to be cut into parts (over ``SMALL_FILE``), and another version of
    it with other games, of the same size: a mixture of the two is valid games throughout."""
    from test_many_files import _games

    old = "\n".join(_games(240, 5)).encode()
    new = "\n".join(_games(400, 6)).encode()[:len(old)]
    new = new[:new.rindex(b"\n\n[")]  # whole games only: the new version is valid too
    path = tmp_path / "games.lcn"
    path.write_bytes(old)
    assert len(old) > parallel.SMALL_FILE * 2
    return path, old, new


def _rewrite_after_the_first_cut(monkeypatch: pytest.MonkeyPatch, path: Path, new: bytes,
                                 how: str) -> list[int]:
    """Rewrite ``path`` once the first part of it has been cut (and before the next one is):
    in place, or replaced by another file under its name, as an editor or a download does."""
    cut = parallel._Cutter.__next__
    calls = [0]

    def rewriting(self: parallel._Cutter) -> parallel._Part:
        part = cut(self)
        calls[0] += 1
        if calls[0] == 1:
            if how == "in place":
                with path.open("r+b") as handle:
                    handle.write(new)
                    handle.truncate()
            else:
                fresh = path.with_name("fresh.lcn")
                fresh.write_bytes(new)
                os.replace(fresh, path)
        return part

    monkeypatch.setattr(parallel._Cutter, "__next__", rewriting)
    return calls


def _validate(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["validate", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl"])
@pytest.mark.parametrize("how", ["in place", "replaced"])
def test_a_file_rewritten_during_jobs_is_said_to_have_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str, fmt: str) -> None:
    path, _old, new = _two_versions(tmp_path)
    calls = _rewrite_after_the_first_cut(monkeypatch, path, new, how)
    status, out, err = _validate("-j2", "--format", fmt, str(path))
    assert calls[0] > 1, "the file was not cut into parts"
    assert status == 2, (status, out[-500:], err)
    assert err == f"lcn: {path} changed while it was read; run again\n", err
    assert " games: " not in out and '"valid":' not in out.rpartition('"summary"')[2], out[-500:]


def test_a_file_left_alone_during_jobs_is_not_said_to_have_changed(tmp_path: Path) -> None:
    path, _old, _new = _two_versions(tmp_path)
    status, out, err = _validate("-j2", str(path))
    assert (status, err) == (0, ""), err
    assert out.endswith(" games: 240 valid, 0 invalid\n") or out.endswith("240 games: 240 valid, 0 invalid\n")


@pytest.mark.cluster
@pytest.mark.parametrize("how", ["in place", "replaced"])
def test_a_file_rewritten_during_dask_is_said_to_have_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """The same on a local Dask cluster, whose workers open the file by its name."""
    pytest.importorskip("distributed")
    from lcn import cluster

    monkeypatch.setattr(cluster, "LOCAL_WORKERS", 2)
    path, _old, new = _two_versions(tmp_path)
    calls = _rewrite_after_the_first_cut(monkeypatch, path, new, how)
    status, out, err = _validate("--dask", "local", str(path))
    assert calls[0] > 1, "the file was not cut into parts"
    assert status == 2, (status, out[-500:], err)
    assert err == f"lcn: {path} changed while it was read; run again\n", err
    assert " games: " not in out, out[-500:]


# Ctrl-C in the middle of a run with workers.


def _group(pgid: int) -> list[str]:
    """The processes of a process group still running (not those that ended and wait to be
    reaped by whoever adopted them), as "pid command"."""
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            left.append(f"{entry.name} {command[:120]}")
    return left


def _interrupted(tmp_path: Path, *options: str) -> None:
    """Start ``lcn validate`` on a file whose verdicts fill a pipe, in its own process group
    (a terminal's foreground group, as Ctrl-C sees it), wait for its first verdict, and
    interrupt the whole group as Ctrl-C does."""
    text = FULL_DEAL.read_text(encoding="utf-8")
    big = tmp_path / "big.lcn"
    # Far more verdicts than the pipe holds: the run cannot end before it is interrupted,
    # whatever the speed of the machine, while nothing reads them.
    big.write_text("\n".join([text] * 6000), encoding="utf-8")
    process = subprocess.Popen(_lcn("validate", *options, str(big)), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=tmp_path, env=_env(),
                               start_new_session=True)
    assert process.stdout is not None
    try:
        first = process.stdout.readline()  # the workers are at work
        assert first.startswith(str(big).encode()), first
        os.killpg(process.pid, signal.SIGINT)
        _out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    said = err.decode("utf-8", "replace")
    assert "Traceback" not in said and "Exception ignored" not in said, said
    assert process.returncode == 130, said
    assert said == "lcn: interrupted\n", said
    deadline = time.monotonic() + 30
    while _group(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)  # the workers are told to stop before the command ends
    assert not _group(process.pid), _group(process.pid)


def test_ctrl_c_during_jobs_stops_every_process_in_one_line(tmp_path: Path) -> None:
    _interrupted(tmp_path, "-j2")


@pytest.mark.cluster
def test_ctrl_c_during_dask_local_stops_the_cluster_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    _interrupted(tmp_path, "--dask", "local")

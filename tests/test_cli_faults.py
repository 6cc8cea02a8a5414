"""The command line when the world around it fails: an output that cannot be written, a
Ctrl-C in the middle of a parallel run, a file rewritten while several processes read it.

Each ends with one line on standard error that says what happened and an exit status that
is not "the game is invalid" (1): never a traceback, never totals that belong to no version
of the file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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

"""What the command prints from a record is shown, never obeyed: escape sequences, other
control characters and bidirectional overrides in names, tags, comments and source lines
are printed as escapes (``\\x1b``), while the JSON output keeps every value exact."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from lcn_cli.io import printable
from lcn_cli.main import cli

#: Controls a terminal obeys (C0 but tab and line feed, DEL, C1) and the bidi overrides.
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

HOSTILE = ('[Event "ev\x1b[31mRED"]\n[Match "m\x1b]0;title\x07"]\n[Game "1"]\n'
           '[Player1 "Ada\x1b[2J"]\n[Player2 "Bo\x9b31m\u202e"]\n\n'
           '{c\x1b[5m} 1. R5/d {x\x1b[1m} xB2/d Q\x1b[31m/d *\n')


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.lcn"
    path.write_text(HOSTILE, encoding="utf-8")
    return path


def run(*args: str) -> Result:
    # color=True: click would otherwise drop some escape sequences itself, as it does on a
    # pipe; on a terminal it keeps them all.
    return CliRunner().invoke(cli, list(args), color=True)


@pytest.mark.parametrize("command", [
    ["validate"], ["validate", "-q"], ["score"], ["show", "--turn", "2"], ["show"],
    ["fmt", "--check"], ["deal"]])
def test_no_control_character_reaches_the_terminal(hostile: Path, command: list[str]) -> None:
    result = run(*command, str(hostile))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert not CONTROLS.findall(result.output), result.output


def test_the_hostile_text_is_shown_escaped(hostile: Path) -> None:
    output = run("validate", str(hostile)).output
    assert "(classic: Ada\\x1b[2J vs Bo\\x9b31m\\u202e, line 1)" in output
    assert "{c\\x1b[5m} 1. R5/d {x\\x1b[1m} xB2/d Q\\x1b[31m/d *" in output
    score = run("score", str(hostile)).output
    assert 'match "m\\x1b]0;title\\x07" after game 1' in score
    assert "Ada\\x1b[2J's expeditions" in run("show", "--turn", "2", str(hostile)).output


def test_the_caret_stays_under_the_span(hostile: Path) -> None:
    lines = run("validate", str(hostile)).output.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("    7 | "))
    shown, caret = lines[at], lines[at + 1]
    assert shown[caret.index("^")] == "Q"


@pytest.mark.parametrize("command", [["validate"], ["score"], ["show", "--turn", "2"]])
def test_json_keeps_the_values_exact(hostile: Path, command: list[str]) -> None:
    result = run(*command, "--format", "json", str(hostile))
    assert not CONTROLS.findall(result.output)
    data = json.loads(result.output)
    players = data["players"] if command[0] == "show" else data["games"][0]["players"]
    assert players == ["Ada\x1b[2J", "Bo\x9b31m\u202e"]


def test_printable_escapes_each_control() -> None:
    assert printable("a\x1bb\x9bc\u202ed\ud800e\nf\tg") == "a\\x1bb\\x9bc\\u202ed\\ud800e\\x0af\tg"
    assert printable("board\nline", lines=True) == "board\nline"
    assert printable("Café 東京") == "Café 東京"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_on_a_real_terminal(hostile: Path) -> None:
    """On a terminal (a pseudo-terminal here) only the command's own colours are escapes."""
    leader, follower = pty.openpty()
    # --no-progress: on a loaded machine the progress line (the command's own \r and erase
    # sequences) may appear; what is checked here is what comes from the file.
    process = subprocess.Popen([sys.executable, "-m", "lcn_cli.main", "validate", "--no-progress",
                                str(hostile)],
                               stdout=follower, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the other side is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(timeout=120) == 1
    output = b"".join(chunks).decode("utf-8")
    assert "\x1b[" in output  # the colours of a terminal
    own = re.sub(r"\x1b\[[0-9;]*m", "", output).replace("\r\n", "\n")
    assert not CONTROLS.findall(own), own
    assert "Ada\\x1b[2J vs Bo\\x9b31m\\u202e" in own

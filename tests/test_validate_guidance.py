"""What ``lcn validate`` says beyond the diagnostics: that the rules stopped being checked at a
turn it could not read, and that a file is another program's log for ``lcn convert``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from lcn_cli.main import cli

import lcn

REAL = Path(__file__).resolve().parent / "data" / "real"
SAMPLES = Path(__file__).resolve().parent.parent / "samples"
#: Logs as the programs print them, one of each kind that detection knows for certain.
LOGS = [REAL / "brdgme" / "web-1.mick.web.txt", REAL / "openspiel" / "cc-00d6632-1.actions.txt",
        REAL / "openspiel" / "cc-00d6632-1.history.txt", REAL / "brdg.me" / "match-1.public.txt"]
BROKEN = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d B2/d\n2. R6/d %% \n3. Y3/d Y2/d *\n'


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def test_an_unreadable_turn_says_the_rules_stop_there(tmp_path: Path) -> None:
    path = tmp_path / "broken.lcn"
    path.write_text(BROKEN)
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert result.output.splitlines()[-1].endswith(
        ": 1 error; no rule checked from turn 4 on, which cannot be read")
    game, = json.loads(run("validate", "--format", "json", str(path)).output)["games"]
    assert game["unchecked_from"] == 4 and game["scores"] is None
    # On several processes, as on one.
    many = tmp_path / "many.lcn"
    many.write_text("\n".join([BROKEN] * 3000))
    lines = [line for line in run("validate", "-j", "2", str(many)).output.splitlines()
             if ": game " in line]
    assert len(lines) == 3000 and all(line.endswith("which cannot be read") for line in lines)
    # A record whose every turn was read says nothing of the kind.
    assert "no rule checked" not in run("validate", str(SAMPLES / "classic" / "full-deal.lcn")).output


@pytest.mark.parametrize("log", LOGS, ids=lambda path: path.name)
def test_another_programs_log_is_named_and_sent_to_lcn_convert(log: Path) -> None:
    result = run("validate", str(log))
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if ": error[" in line]
    assert len(errors) == 1, result.output[:2000]  # not one error per line of the log
    assert "error[other-format] this is not LCN: it reads as " in errors[0]
    assert f"`lcn convert {log}` turns it into LCN" in errors[0]
    assert lcn.importers.other_format(log.read_bytes()) is not None
    document = json.loads(run("validate", "--format", "json", str(log)).output)
    codes = [d["code"] for entry in document["files"] for d in entry["diagnostics"]]
    assert codes == ["other-format"]
    assert not any(game["diagnostics"] for game in document["games"])


def test_an_lcn_file_with_errors_is_not_taken_for_a_log(tmp_path: Path) -> None:
    for path in sorted(SAMPLES.rglob("*.lcn")):
        damaged = tmp_path / path.name
        damaged.write_text(path.read_text().replace("/d", "/q", 3))
        assert lcn.importers.other_format(damaged.read_bytes()) is None, path
        assert "other-format" not in run("validate", str(damaged)).output

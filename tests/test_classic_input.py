"""Classic records written by hand: the Game tag's number, the seats, a match split over
files, and where a wrong move number is pointed at (in every game)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from lcn_cli.main import cli

import lcn
from lcn.validate import ValidationRun

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
MATCH = (SAMPLES / "classic" / "match.lcn").read_text(encoding="utf-8")


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def game_of_match(number: str) -> str:
    return (f'[Match "M"]\n[Game "{number}"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
            "1. R5/d xB2/d *\n")


NOT_NUMBERS = ["²", "①", "¹", "２", "٢", "𝟐", "2x", "", "1" * 5000]


@pytest.mark.parametrize("number", NOT_NUMBERS, ids=[ascii(n)[:12] for n in NOT_NUMBERS])
def test_a_game_number_is_ascii_digits(tmp_path: Path, number: str) -> None:
    text = game_of_match(number)
    (report,) = lcn.validate(text)
    (warning,) = report.diagnostics
    assert (warning.code, warning.line, warning.rule) == ("tag-value", 2, "C-MATCH-THREE")
    assert "is not a game number: expected 1, 2 or 3 in ASCII digits" in warning.message
    assert report.extra["match"]["game"] == 1  # taken as the game expected, not as a number
    path = tmp_path / "game.lcn"
    path.write_text(text, encoding="utf-8")
    for command in (["validate"], ["validate", "--jobs", "2"], ["score"], ["score", "--format", "json"]):
        result = run(*command, str(path))
        assert result.exit_code == 0, (command, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_an_ascii_game_number_is_read() -> None:
    (report,) = lcn.validate(game_of_match(" 2 "))
    assert [d.code for d in report.diagnostics] == ["match-order"]
    assert report.extra["match"]["game"] == 2


@pytest.mark.parametrize("seat", ["3", "5", "6", "9", "10", "123456789012345678901234567890"])
def test_classic_has_two_seats(seat: str) -> None:
    text = f'[Player1 "Ada"]\n[Player2 "Bo"]\n[Player{seat} "Cy"]\n\n1. R5/d xB2/d *\n'
    for express in (True, False):
        (report,) = ValidationRun(text, express=express)
        (error,) = report.diagnostics
        assert (error.code, error.line, error.rule) == ("player-count", 3, "C-SETUP-PLAYERS")
        assert f"Player{seat} is given" in error.message


def test_a_tag_like_a_seat_is_not_one() -> None:
    (report,) = lcn.validate('[Player1 "Ada"]\n[Player2 "Bo"]\n[Player01 "Cy"]\n\n1. R5/d xB2/d *\n')
    assert report.valid and not report.diagnostics


@pytest.fixture
def match_files(tmp_path: Path) -> list[str]:
    games = MATCH.split("\n[Event")
    assert len(games) == 3
    names = []
    for index, text in enumerate(games, 1):
        path = tmp_path / f"game{index}.lcn"
        path.write_text(text if index == 1 else "[Event" + text, encoding="utf-8")
        names.append(str(path))
    return names


def _match_totals(result: Result) -> list[dict[str, object]]:
    return [game["match"] for game in json.loads(result.output)["games"]]


def test_a_match_over_several_files_keeps_its_totals(match_files: list[str], tmp_path: Path) -> None:
    whole = tmp_path / "match.lcn"
    whole.write_text(MATCH, encoding="utf-8")
    expected = _match_totals(run("score", "--format", "json", str(whole)))
    assert [m["totals"] for m in expected][-1] == {"Hana": 80, "Ivo": 82}
    assert _match_totals(run("score", "--format", "json", *match_files)) == expected
    text = run("score", *match_files).output
    assert 'match "Hana vs Ivo" after game 3: Hana 80, Ivo 82' in text
    for jobs in ("1", "2"):
        result = run("validate", "--jobs", jobs, "--format", "json", *match_files)
        assert result.exit_code == 0, result.output
        assert all(not game["diagnostics"] for game in json.loads(result.output)["games"])


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_match_over_files_out_of_order_is_warned(match_files: list[str], jobs: str) -> None:
    first, second, third = match_files
    result = run("validate", "--jobs", jobs, second, first, third)
    assert result.exit_code == 0
    assert "game 2 where game 1 was expected" in result.output
    assert "game 1 where game 2 was expected" in result.output
    assert "Ivo leads the match 32 to 24 and should begin game 2" in result.output


def _numbered(path: Path, line: int, old: str, new: str) -> str:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[line - 1].startswith(old)
    lines[line - 1] = new + lines[line - 1][len(old):]
    return "\n".join(lines)


@pytest.mark.parametrize(("text", "line", "column", "number"), [
    ('[Player1 "A"]\n[Player2 "B"]\n\n1. R5/d xB2/d 3. R7/d B4/d *\n', 4, 15, "3."),
    ('[Player1 "A"]\n[Player2 "B"]\n\n1. R5/d xB2/d\n 12. R7/d B4/d *\n', 5, 2, "12."),
    (_numbered(SAMPLES / "rivals" / "two-players.lcn", 20, "6. up:G9", "9. up:G9"), 20, 1, "9."),
    (_numbered(SAMPLES / "rollwrite" / "two-players.lcn", 12, "3. ", "7. "), 12, 1, "7."),
])
def test_a_wrong_move_number_is_pointed_at(text: str, line: int, column: int, number: str) -> None:
    for express in (True, False):
        (report,) = ValidationRun(text, express=express)
        (error,) = [d for d in report.diagnostics if d.code == "move-number"]
        assert (error.line, error.column, error.length) == (line, column, len(number))
        assert text.split("\n")[line - 1][column - 1:column - 1 + error.length] == number


def test_a_number_in_other_digits_is_not_a_move_number() -> None:
    (report,) = lcn.validate('[Player1 "A"]\n[Player2 "B"]\n\n1. R5/d xB2/d ². R7/d *\n')
    assert [d.code for d in report.diagnostics] == ["move-syntax"]

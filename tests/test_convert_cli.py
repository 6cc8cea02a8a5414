"""``lcn convert``: formats in and out, standard streams, files, and the exit status."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

from lcn import read_games, write_game, write_games
from lcn.importers import export_records, import_text
from lcn.variants.classic_play import random_game, strip_deal

DATA = Path(__file__).resolve().parent / "data" / "imports"


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["convert", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.lcn"
    path.write_text(write_games([random_game(1), random_game(2)]) or "", encoding="utf-8")
    return path


def test_a_narrated_log_becomes_lcn() -> None:
    code, out, err = run(str(DATA / "narrated-en.txt"))
    assert code == 0, err
    (record,) = list(read_games(out))
    assert [t.text for t in record.turns][:3] == ["Rw/d", "xG5/d", "R3/G"]
    assert "1 game read as text" in err


@pytest.mark.parametrize("target", ["json", "metapyziks", "text", "lcn"])
def test_every_output_format_reads_back_to_the_same_games(games: Path, target: str) -> None:
    code, out, err = run("--to", target, str(games))
    assert code == 0, err
    back = import_text(out, target).records
    originals = list(read_games(games))
    if target == "metapyziks":
        assert [[t.text for t in r.turns] for r in back] == [[t.text for t in g.turns] for g in originals]
    else:
        assert [write_game(r) for r in back] == [write_game(g) for g in originals]
    if target == "json":
        assert json.loads(out)["format"] == "lcn-json"


def test_standard_input_and_an_output_file(tmp_path: Path) -> None:
    text = export_records([random_game(3)], "metapyziks").text
    out_path = tmp_path / "out.lcn"
    code, out, _ = run("-", "-o", str(out_path), stdin=text)
    assert code == 0 and out == ""
    (record,) = list(read_games(out_path))
    assert record.tags["Player1"] == "Player 1" and len(record.turns) == len(random_game(3).turns)


def test_several_files_of_several_formats_in_one_run(tmp_path: Path) -> None:
    first = tmp_path / "a.txt"
    first.write_bytes((DATA / "narrated-de.txt").read_bytes())
    second = tmp_path / "b.mp"
    second.write_text(export_records([random_game(4), random_game(5)], "metapyziks").text)
    code, out, err = run(str(first), str(second), "--to", "json")
    assert code == 0, err
    assert len(json.loads(out)["games"]) == 3
    assert "read as text" in err and "2 games read as metapyziks" in err


def test_forcing_the_input_format(tmp_path: Path) -> None:
    path = tmp_path / "commands.txt"
    path.write_text("Mick: play R5\nMick: draw\nSteve: discard gx\nSteve: draw\n")
    code, out, _ = run("--from", "brdgme", str(path))
    assert code == 0
    assert "1. R5/d xGw/d *" in out
    code, _, err = run("--from", "openspiel", str(path))
    assert code == 1 and "`Mick:` is not an action string" in err


def test_a_game_that_breaks_the_rules_is_written_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "log.txt"
    path.write_text("Ada plays the red 7\nAda draws a card\nBo plays the red 5\nBo draws a card\n"
                    "Ada plays the red 6\nAda takes from the blue discard pile\n")
    code, out, err = run(str(path))
    assert code == 1
    assert "R6/B" in out
    assert f"{path}:5:5: error[not-ascending]" in err
    assert f"{path}:6:5: error[draw-empty-pile]" in err
    assert "    6 | Ada takes from the blue discard pile" in err
    assert "1 game read as text, 1 with errors" in err


def test_an_input_that_cannot_be_converted_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "log.txt"
    path.write_text("Ada plays the red 7\nAda draws a card\nBo waves\n")
    out_path = tmp_path / "out.lcn"
    code, out, err = run(str(path), "-o", str(out_path))
    assert code == 1 and out == "" and not out_path.exists()
    assert f"{path}:3:1: error[narrated-syntax]" in err
    assert "    3 | Bo waves" in err and "^^^^^^^^" in err
    assert "cannot be read as text (1 problem); nothing converted" in err


def test_an_input_of_no_known_format_lists_the_formats_tried(tmp_path: Path) -> None:
    code, _, err = run(str(DATA / "bga-envelope.json"))
    assert code == 1
    assert "not in any format known here" in err and "brdgme" in err and "metapyziks" in err


def test_a_game_the_output_format_cannot_hold(games: Path, tmp_path: Path) -> None:
    stripped = tmp_path / "stripped.lcn"
    stripped.write_text(write_game(strip_deal(random_game(6))), encoding="utf-8")
    code, out, err = run("--to", "metapyziks", str(games), str(stripped))
    assert code == 1
    assert len(out.split()) == 2
    assert "game 3 cannot be written as metapyziks: the game string needs the whole deal" in err


def test_warnings_and_notes_can_be_silenced(tmp_path: Path) -> None:
    path = tmp_path / "history.txt"
    deal = "Deal:bx0 Deal:g5 Deal:b3 Deal:g6 Deal:b4 Deal:g7 Deal:b5 Deal:g8 Deal:b6 Deal:g9 " \
           "Deal:b7 Deal:g10 Deal:b8 Deal:gx0 Deal:b9 Deal:gx1 play:bx0"
    path.write_text(deal)
    code, _, err = run(str(path))
    assert code == 0 and "not-carried" in err and "middle of a turn" in err
    code, _, err = run("-q", str(path))
    assert code == 0 and err == ""


@pytest.mark.parametrize("args, message", [
    (["missing.txt"], "cannot read 'missing.txt'"),
    (["--from", "bga", "x"], "Invalid value for '--from'"),
    (["--to", "openspiel", "x"], "Invalid value for '--to'"),
    ([], "Missing argument"),
])
def test_usage_and_file_errors_exit_with_2(args: list[str], message: str) -> None:
    code, _, err = run(*args)
    assert code == 2 and message in err


def test_a_directory_is_a_file_error(tmp_path: Path) -> None:
    code, _, err = run(str(tmp_path))
    assert code == 2 and "it is a directory" in err


def test_an_unwritable_output_is_a_file_error(games: Path, tmp_path: Path) -> None:
    code, _, err = run(str(games), "-o", str(tmp_path / "no" / "such" / "dir" / "out.lcn"))
    assert code == 2 and "cannot write" in err

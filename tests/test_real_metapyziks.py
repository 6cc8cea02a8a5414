"""Metapyziks runner output: console lines, --output files and game strings, imported and checked.

The runner needs .NET, which the test machines do not have; the fixtures in
tests/data/real/metapyziks/ were made by scripts/real/metapyziks_runner.py, a line-for-line
re-implementation of the runner's game, bot, encoder and printer (see the README there).
Each game must import as the runner's own state dump says it went.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

from lcn.importers import ImportError_, ImportResult, import_text
from lcn.importers.houserules import scores_without_bonus
from lcn.variants.classic import CLASSIC_5, CLASSIC_6, parse_move

DATA = Path(__file__).resolve().parent / "data" / "real" / "metapyziks"
RUNS = ["single", "three-games", "disqualified"]
LETTERS = {"Red": "R", "Green": "G", "Blue": "B", "White": "W", "Yellow": "Y", "Purple": "P"}
NUMBERS = {"Wager": "w", "Two": "2", "Three": "3", "Four": "4", "Five": "5", "Six": "6",
           "Seven": "7", "Eight": "8", "Nine": "9", "Ten": "10"}


def card(name: str) -> str:
    colour, value = name.split()
    return LETTERS[colour] + NUMBERS[value]


def dumps(stem: str) -> list[dict[str, Any]]:
    return json.loads((DATA / f"{stem}.state.json").read_text())


def imported(name: str) -> ImportResult:
    result = import_text((DATA / name).read_bytes())
    assert result.format == "metapyziks"
    assert not [d for d in result.diagnostics if d.is_error], [d.format() for d in result.diagnostics]
    return result


def check_game(result: ImportResult, index: int, state: dict[str, Any]) -> None:
    """One imported game against the runner's dump of it."""
    record, report = result.records[index], result.reports[index]
    first = state["first"]
    seats = (first, 3 - first)  # LCN's Player1 moves first
    assert record.tags["Player1"] == f"Player {seats[0]}"
    assert record.tags["Hand1"].split() == [card(c) for c in state["hands"][str(seats[0])]]
    assert record.tags["Hand2"].split() == [card(c) for c in state["hands"][str(seats[1])]]
    assert record.tags["Deck"].split() == [card(c) for c in state["draw_order"]]
    six = record.tags.get("Expeditions") == "6"
    assert six == ("Purple" in state["discarded"])
    config = CLASSIC_6 if six else CLASSIC_5
    assert len(record.turns) == len(state["actions"])
    for turn, action in zip(record.turns, state["actions"], strict=True):
        move = parse_move(turn.text, config)
        assert move.card == card(action["played"]) and move.discard == action["discarded"]
        assert move.draw == ("d" if action["drawn"] is None else card(action["drawn"])[0])
    table = report.state
    for runner_player, seat in ((seats[0], 0), (seats[1], 1)):
        for colour, cards in state["expeditions"][str(runner_player)].items():
            assert table.expeditions[seat][LETTERS[colour]] == [card(c) for c in cards]
        hand = {c: n for c, n in table.known[seat].items() if n}
        expected: dict[str, int] = {}
        for c in state["final_hands"][str(runner_player)]:
            expected[card(c)] = expected.get(card(c), 0) + 1
        assert hand == expected
    for colour, pile in state["discarded"].items():
        assert table.piles[LETTERS[colour]] == [card(c) for c in pile]
    runner_scores = state["scores_without_bonus"]
    assert scores_without_bonus(table) == [runner_scores[str(seats[0])], runner_scores[str(seats[1])]]
    if state["disqualified"]:
        assert record.termination == "*"
        assert any(d.code == "disqualified" for d in result.diagnostics)
    else:
        assert record.termination == f"{report.score.totals[0]}:{report.score.totals[1]}"


@pytest.mark.parametrize("form", ["console.txt", "output.json"])
@pytest.mark.parametrize("run", RUNS)
def test_every_game_of_every_run_imports_as_the_runner_played_it(run: str, form: str) -> None:
    result = imported(f"{run}.{form}")
    states = dumps(run)
    assert len(result.records) == len(states)
    for index, state in enumerate(states):
        check_game(result, index, state)
    assert result.valid


@pytest.mark.parametrize("run", RUNS)
def test_the_console_and_the_output_file_hold_the_same_games(run: str) -> None:
    console = imported(f"{run}.console.txt").records
    output = imported(f"{run}.output.json").records
    assert [r.turns for r in console] == [r.turns for r in output]
    assert [dict(r.tags.items()) for r in console] == [dict(r.tags.items()) for r in output]


@pytest.mark.parametrize("name", ["six-colours.gamestring.txt", "six-colours.link.txt"])
def test_a_six_colour_game_string_and_its_viewer_link(name: str) -> None:
    result = imported(name)
    check_game(result, 0, dumps("six-colours")[0])
    assert result.records[0].tags["Expeditions"] == "6"


def test_the_console_escapes_plus_as_the_runner_does() -> None:
    """System.Text.Json writes `+` as \\u002B: the strings hold it escaped, not raw."""
    text = (DATA / "three-games.console.txt").read_text()
    assert "\\u002B" in text and "+" not in text


# -- damaged copies ---------------------------------------------------------------------------
def _replays(text: str) -> list[str]:
    return re.findall(r'"Replay":"([^"]*)"', text)


def _version_changed(text: str) -> str:
    """The text with the version byte of its first game string set to 4."""
    escaped = _replays(text)[0] if '"Replay"' in text else text.strip().rsplit("#", 1)[-1]
    raw = bytearray(base64.b64decode(escaped.replace("\\u002B", "+")))
    raw[0] = 4
    new = base64.b64encode(bytes(raw)).decode().replace("+", "\\u002B" if '"Replay"' in text else "+")
    return text.replace(escaped, new, 1)


def _damaged() -> dict[str, tuple[str, str]]:
    console = (DATA / "single.console.txt").read_text()
    three = (DATA / "three-games.console.txt").read_text()
    output = (DATA / "three-games.output.json").read_text()
    single_lines = console.split("\n")
    points = next(i for i, line in enumerate(single_lines) if line.endswith(" Points"))
    edited_points = list(single_lines)
    edited_points[points] = edited_points[points].replace(" Points", "1 Points")
    stats = three.replace("  Wins: ", "  Wins: 1", 1)
    winner = three.replace('"Winner":"Player', '"Winner":"Player9', 1)
    return {
        "console cut": ("c.txt", console[:len(console) * 3 // 5]),
        "console cut in a summary": ("c.txt", three[:three.index('"Replay"') + 40]),
        "console points edited": ("c.txt", "\n".join(edited_points)),
        "console stats edited": ("c.txt", stats),
        "console winner edited": ("c.txt", winner),
        "console version": ("c.txt", _version_changed(three)),
        "output cut": ("o.json", output[:len(output) // 2]),
        "output version": ("o.json", _version_changed(output)),
        "output score edited": ("o.json", re.sub(r'"Player1Score":(-?\d+)',
                                                 lambda m: f'"Player1Score":{int(m[1]) + 1}',
                                                 output, count=1)),
        "string version": ("g.txt", _version_changed(
            (DATA / "six-colours.gamestring.txt").read_text())),
        "link version": ("l.txt", _version_changed((DATA / "six-colours.link.txt").read_text())),
        "string cut": ("g.txt", (DATA / "six-colours.gamestring.txt").read_text()[:200]),
    }


@pytest.mark.parametrize("what", list(_damaged()))
def test_damaged_copies_are_refused_at_their_place(what: str, tmp_path: Path) -> None:
    name, text = _damaged()[what]
    path = tmp_path / name
    path.write_text(text)
    result = CliRunner().invoke(cli, ["convert", str(path)])
    assert result.exit_code == 1, result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: error\[metapyziks", result.stderr), \
        result.stderr


def test_a_damaged_game_string_gets_the_game_string_error_and_the_candidates() -> None:
    """A version byte changed: no format recognises the string for certain, so the error is
    that of the most likely format, with its place, and a note names the others."""
    text = _version_changed((DATA / "six-colours.gamestring.txt").read_text())
    with pytest.raises(ImportError_) as caught:
        import_text(text)
    error, note = caught.value.diagnostics
    assert error.code == "metapyziks-damaged" and (error.line, error.column) == (1, 1)
    assert "version 4 game strings are not supported" in error.message
    assert note.code == "detection" and "metapyziks" in note.message and "openspiel" in note.message


def test_output_of_endless_runs_is_the_game_lines_alone() -> None:
    """``--endless`` prints `Game:`/`End:` lines only, until it is stopped."""
    lines = (DATA / "three-games.console.txt").read_text().split("\n")
    endless = "\n".join(line for line in lines if line.startswith(("Game: ", "End: "))) + "\n"
    assert len(imported("three-games.console.txt").records) == 3
    assert len(import_text(endless).records) == 3

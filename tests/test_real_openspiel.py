"""Real OpenSpiel logs: what the fork's lost_cities builds printed, imported and checked.

The fixtures in tests/data/real/openspiel/ were written by the programs themselves (see the
README there): three builds of the C++ game and the Python game, each game in every form
the programs print, with a JSON dump of what the program held. Each importable form must
give exactly the program's game; the program's own ToString() of its final state is the
reference for the hands, expeditions and discard piles, its Returns() for the scores.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

from lcn.importers import ImportError_, ImportResult, import_text
from lcn.importers.openspiel import card_lcn, card_number
from lcn.model import GameRecord

DATA = Path(__file__).resolve().parent / "data" / "real" / "openspiel"
#: Each build, and the naming of its action strings.
BUILDS = {"cc-5a7f424": "b1", "cc-8e49ca9": "b1", "cc-00d6632": "b2", "py-71a6dc2": "b1"}
GAMES = sorted(p.name.removesuffix(".state.json") for p in DATA.glob("*.state.json"))
COMPLETE = [g for g in GAMES if not g.endswith("partial")]
FORMS = ("actions", "history", "serialized")


def dump(game: str) -> dict[str, Any]:
    return json.loads((DATA / f"{game}.state.json").read_text())


def naming(game: str) -> str:
    return BUILDS[game.rsplit("-", 1)[0]]


def lcn_card(name: str, build_naming: str) -> str:
    number = card_number(name, build_naming)
    assert number is not None, name
    return card_lcn(number)


def carried(record: GameRecord) -> tuple[list[tuple[str, str]], list[str], str | None]:
    keep = ("Expeditions", "Hand1", "Hand2", "Deck", "Result")
    return ([(n, v) for n, v in record.tags.items() if n in keep], [t.text for t in record.turns],
            record.termination)


def program_state(game: str) -> dict[str, Any]:
    """Hands, expeditions and discard piles as the program's ToString() printed them."""
    text = (DATA / f"{game}.tostring.txt").read_text()
    hands: list[Counter[str]] = [Counter(), Counter()]
    expeditions: dict[tuple[int, str], list[str]] = {}
    piles: dict[str, list[str]] = {}
    for line in text.splitlines():
        if match := re.fullmatch(r"P([01]) hand:(.*)", line):
            hands[int(match[1])] = Counter(lcn_card(c, naming(game)) for c in match[2].split())
        elif match := re.fullmatch(r"P([01]) ([bgprwy])-exp:(.*)", line):
            expeditions[int(match[1]), match[2].upper()] = [
                lcn_card(c, naming(game)) for c in match[3].split()]
        elif match := re.fullmatch(r"([bgprwy])-discard:(.*)", line):
            piles[match[1].upper()] = [lcn_card(c, naming(game)) for c in match[2].split()]
    return {"hands": hands, "expeditions": expeditions, "piles": piles}


def imported(game: str, form: str, fmt: str | None = None) -> ImportResult:
    result = import_text((DATA / f"{game}.{form}.txt").read_bytes(), fmt)
    assert result.valid, [d.format() for d in result.diagnostics if d.is_error]
    return result


# -- every form of every game ----------------------------------------------------------------
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("game", COMPLETE)
def test_every_complete_game_imports_as_the_program_played_it(game: str, form: str) -> None:
    result = imported(game, form)
    (record,) = result.records
    state = dump(game)
    history = state["history"]
    # The deal: the first 16 chance outcomes, one card at a time, player 0 first.
    assert record.tags["Hand1"].split() == [card_lcn(c) for c in history[:16:2]]
    assert record.tags["Hand2"].split() == [card_lcn(c) for c in history[1:16:2]]
    # The draw pile: the chance outcomes after each deck draw (144), in order.
    assert record.tags["Deck"].split() == [card_lcn(c) for c in deck_draws(history)]
    assert len(record.turns) == state["turns"]
    # The final table, as the program printed it, and its scores.
    report = result.reports[0]
    table = report.state
    printed = program_state(game)
    for player in (0, 1):
        assert Counter({c: n for c, n in table.known[player].items() if n}) == printed["hands"][player]
        for colour in "BGPRWY":
            assert table.expeditions[player][colour] == printed["expeditions"].get((player, colour), [])
    for colour in "BGPRWY":
        assert table.piles[colour] == printed["piles"].get(colour, [])
    totals = report.score.totals
    assert [totals[0] - totals[1], totals[1] - totals[0]] == state["returns"]
    if state.get("scores") is not None:  # the Python game's own per-player scores
        assert totals == state["scores"]
    assert result.format == ("openspiel-b1" if form == "actions" and naming(game) == "b1"
                             else "openspiel")


def deck_draws(history: list[int]) -> list[int]:
    """The chance outcomes that follow a draw from the deck, read by OpenSpiel's phases.

    After the deal, a turn is a play or discard, a draw (144: the deck, 145-150: a pile),
    and, after 144, the chance outcome: the card drawn.
    """
    draws, phase = [], "move"
    for action in history[16:]:
        if phase == "chance":
            draws.append(action)
            phase = "move"
        elif phase == "move":
            phase = "draw"
        else:
            phase = "chance" if action == 144 else "move"
    return draws


@pytest.mark.parametrize("game", COMPLETE)
def test_the_forms_of_a_game_import_alike(game: str) -> None:
    records = [carried(imported(game, form).records[0]) for form in FORMS]
    assert records[0] == records[1] == records[2]


@pytest.mark.parametrize("seed", ["1", "2"])
def test_the_same_game_named_by_each_build_imports_alike(seed: str) -> None:
    """The builds play the same seeded game; their namings differ, their games must not."""
    records = {build: carried(imported(f"{build}-{seed}", "actions").records[0])
               for build in BUILDS}
    first = records["cc-00d6632"]
    assert records["cc-5a7f424"] == first and records["cc-8e49ca9"] == first
    # The earlier builds' strings really name the numbers one lower.
    earlier = (DATA / f"cc-5a7f424-{seed}.actions.txt").read_text()
    later = (DATA / f"cc-00d6632-{seed}.actions.txt").read_text()
    assert re.search(r":[bgprwy]1\n", earlier) and not re.search(r":[bgprwy]10\n", earlier)
    assert re.search(r":[bgprwy]10\n", later) and not re.search(r":[bgprwy]1\n", later)


@pytest.mark.parametrize("build", BUILDS)
def test_several_serializations_in_one_file_are_several_games(build: str) -> None:
    result = imported(f"{build}-two-games", "serialized")
    assert [carried(r) for r in result.records] == [
        carried(imported(f"{build}-{seed}", "serialized").records[0]) for seed in ("1", "2")]
    second = (DATA / f"{build}-two-games.serialized.txt").read_text().split("\n")
    header = [n for n, line in enumerate(second, 1) if line.startswith("# Automatically")][1]
    assert result.records[1].line > header


# -- partial histories: the naming cannot be told ------------------------------------------
@pytest.mark.parametrize("build", BUILDS)
def test_a_partial_history_without_a_1_or_10_is_refused_until_the_build_is_named(build: str) -> None:
    """Such a history used to import silently with every number card one off."""
    game = f"{build}-partial"
    text = (DATA / f"{game}.actions.txt").read_bytes()
    with pytest.raises(ImportError_) as caught:
        import_text(text)
    (problem,) = caught.value.diagnostics
    assert problem.code == "openspiel-naming" and problem.line == 1 and problem.column == 1
    assert "--from openspiel-b1" in problem.message and "--from openspiel`" in problem.message
    # Named, it imports as the program played it: the numbers say the same.
    chosen = "openspiel-b1" if naming(game) == "b1" else "openspiel"
    assert carried(imported(game, "actions", chosen).records[0]) == \
        carried(imported(game, "history").records[0])
    assert carried(imported(game, "serialized").records[0]) == \
        carried(imported(game, "history").records[0])
    record = imported(game, "history").records[0]
    assert record.termination == "*" and len(record.turns) == dump(game)["turns"] == 10


def test_the_wrong_build_named_is_refused_with_the_right_choice() -> None:
    error = _refused(DATA / "cc-5a7f424-1.actions.txt", "openspiel")
    assert "read this history with `--from openspiel-b1`" in str(error)
    error = _refused(DATA / "cc-00d6632-1.actions.txt", "openspiel-b1")
    assert "read this history with `--from openspiel`" in str(error)


def _refused(path: Path, fmt: str | None = None) -> ImportError_:
    with pytest.raises(ImportError_) as caught:
        import_text(path.read_bytes(), fmt)
    assert caught.value.diagnostics and all(d.line for d in caught.value.diagnostics if d.is_error)
    return caught.value


@pytest.mark.parametrize("form", ["tostring", "observation"])
def test_snapshots_are_refused_with_what_to_save_instead(form: str) -> None:
    error = _refused(DATA / f"cc-00d6632-1.{form}.txt")
    (problem,) = error.diagnostics
    assert problem.code == "openspiel-snapshot" and problem.line == 1
    assert "SerializeGameAndState" in problem.message


# -- damaged copies ---------------------------------------------------------------------------
def _cut_inside(text: str, token: str, keep: int) -> str:
    """The text cut inside the first ``token`` line after its middle, keeping ``keep`` characters."""
    at = text.index(f"\n{token}\n", len(text) // 2) + 1
    return text[:at + keep]


def _damaged(game: str) -> dict[str, tuple[str, str]]:
    """Damaged copies of a game's files: name -> (file name, text)."""
    actions = (DATA / f"{game}.actions.txt").read_text()
    serialized = (DATA / f"{game}.serialized.txt").read_text()
    history = (DATA / f"{game}.history.txt").read_text()
    lines = actions.split("\n")
    play = next(i for i, line in enumerate(lines) if i > 40 and line.startswith("play:"))
    edited = list(lines)
    edited[play] = "play:" + ("bx0" if lines[play] != "play:bx0" else "gx0")
    python = serialized.split("\n")[7].startswith("history=")
    damaged = {
        "actions cut": ("a.txt", _cut_inside(actions, "draw:deck", 7)),
        "actions edited": ("a.txt", "\n".join(edited)),
        "serialized version": ("s.txt", serialized.replace("Version: 1", "Version: 2")),
        "serialized game": ("s.txt", serialized.replace("lost_cities(", "lost_citiez(", 1)),
        "history cut": ("h.txt", history[:history.index(" 144,", len(history) // 2) + 3]),
    }
    if python:
        damaged["serialized cut"] = ("s.txt", serialized[:serialized.index(",0:144,") + 4])
        damaged["serialized edited"] = ("s.txt", serialized.replace("move_number=", "move_number=1"))
    else:
        damaged["serialized cut"] = ("s.txt", _cut_inside(serialized, "144", 2))
        body = serialized.split("\n")
        body[40] = "7" if body[40] != "7" else "8"
        damaged["serialized edited"] = ("s.txt", "\n".join(body))
    return damaged


@pytest.mark.parametrize("game", ["cc-5a7f424-1", "cc-8e49ca9-3", "cc-00d6632-2", "py-71a6dc2-1"])
def test_damaged_copies_are_refused_at_their_place(game: str, tmp_path: Path) -> None:
    for what, (name, text) in _damaged(game).items():
        path = tmp_path / name
        path.write_text(text)
        result = CliRunner().invoke(cli, ["convert", str(path)])
        assert result.exit_code == 1, (what, result.stderr)
        assert result.exception is None or isinstance(result.exception, SystemExit), what
        assert "Traceback" not in result.stderr, what
        assert re.search(rf"{re.escape(str(path))}:\d+:\d+: error\[", result.stderr), \
            (what, result.stderr)


def test_a_history_cut_at_a_line_end_is_the_shorter_game_it_holds() -> None:
    """Nothing in a history tells a cut at a line end from a game saved early: it imports
    as an unfinished game (``*``), never as a finished one."""
    text = (DATA / "cc-00d6632-1.serialized.txt").read_text()
    cut = text[:text.index("\n", len(text) // 2) + 1]
    record = import_text(cut).records[0]
    assert record.termination == "*" and "Deck" not in record.tags


# -- the programs themselves (only where the wheel and the fork's Python game are at hand) ----
def test_the_python_game_replays_the_fixture_when_at_hand() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    try:
        import lost_cities  # noqa: F401  (the fork's python/games/lost_cities.py on the path)
    except ImportError:
        pytest.skip("the fork's Python game is not on the path")
    state = pyspiel.load_game("python_lost_cities").new_initial_state()
    for action in dump("py-71a6dc2-1")["history"]:
        state.apply_action(action)
    assert pyspiel.serialize_game_and_state(state.get_game(), state) == \
        (DATA / "py-71a6dc2-1.serialized.txt").read_text()


def test_the_build_is_chosen_with_from_on_the_command_line() -> None:
    path = str(DATA / "cc-5a7f424-partial.actions.txt")
    refused = CliRunner().invoke(cli, ["convert", path])
    assert refused.exit_code == 1 and f"{path}:1:1: error[openspiel-naming]" in refused.stderr
    assert "Traceback" not in refused.stderr
    chosen = CliRunner().invoke(cli, ["convert", "--from", "openspiel-b1", path])
    assert chosen.exit_code == 0, chosen.stderr
    assert chosen.stdout == CliRunner().invoke(
        cli, ["convert", str(DATA / "cc-5a7f424-partial.history.txt")]).stdout

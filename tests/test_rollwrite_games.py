"""Whole Roll & Write games: seeded random games round-trip and validate, a corrupted box is
caught at its turn, the rulebook's 425-point sheet scores 425, the samples are valid and
canonical, and the ``lcn`` commands handle Roll & Write records (and bad ones) like any other."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

from lcn import read_game, validate_record, write_game
from lcn.model import GameRecord, Turn
from lcn.variants.rollwrite import (
    COLOURS,
    VARIANT,
    RollWriteVariant,
    Sheet,
    format_layout,
    parse_layout,
    score_sheet,
)
from lcn.variants.rollwrite_play import random_game, random_layout

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "rollwrite"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_round_trip_and_validate(players: int) -> None:
    for seed in range(25):
        record = random_game(seed, players=players, annotate=seed % 2 == 0,
                             sheet_tag=seed % 3 == 0)
        text = write_game(record)
        again = read_game(text)
        assert again is not None
        assert write_game(again) == text, f"seed {seed}: write → read → write changed the text"
        report = validate_record(again)
        assert report.valid, (seed, [d.format() for d in report.diagnostics][:3])
        assert report.over and report.complete
        assert report.score is not None
        assert again.termination == ":".join(map(str, report.score.totals))
        state = report.state
        assert all(s.exhausted for s in state.sheets) or all(
            state.bridges[c] is not None for c in state.bridges)


def test_random_games_are_the_same_for_the_same_seed() -> None:
    assert write_game(random_game(7, players=3)) == write_game(random_game(7, players=3))
    assert write_game(random_game(7, players=3)) != write_game(random_game(8, players=3))


def test_annotations_and_the_sheet_tag_do_not_change_the_game() -> None:
    for seed in range(10):
        plain = random_game(seed, players=3, annotate=False)
        marked = random_game(seed, players=3, annotate=True, sheet_tag=True)
        assert plain.termination == marked.termination
        assert any("bridge:" in t.text for t in marked.turns)
        assert marked.turns[-1].text.endswith(" end")
        assert not any("bridge:" in t.text or " end" in t.text for t in plain.turns)
        assert "Sheet" in marked.tags and "Sheet" not in plain.tags


def test_a_layout_given_as_an_option_checks_the_marks() -> None:
    rng = random.Random(3)
    layout = random_layout(rng)
    record = random_game(3, players=2, layout=layout)
    assert validate_record(record, variant=RollWriteVariant(layout=layout)).valid
    # On a sheet without any arrow or artefact, the first mark is an error.
    plain = parse_layout(" ".join(f"{c}:........." for c in COLOURS))
    report = validate_record(record, variant=RollWriteVariant(layout=plain))
    first = next(d for d in report.diagnostics if d.is_error)
    assert first.code in ("no-arrow", "no-artefact")
    marked = next(i for i, t in enumerate(record.turns, 1) if re.search(r":[^ ]*[+>]", t.text))
    assert first.turn == marked


def _fills(record: GameRecord) -> list[tuple[int, int, str, int]]:
    """(turn, word index, colour, box) of every first box filled by a plain write."""
    report = validate_record(record, keep_snapshots=True)
    assert report.snapshots is not None
    fills = []
    for turn, snap in enumerate(report.snapshots[1:], 1):
        for index, choice in enumerate(snap["choices"]):
            if choice["kind"] == "write" and choice["boxes"] and not choice["boxes"][0]["top"]:
                box = choice["boxes"][0]
                fills.append((turn, index + 1, box["colour"], box["box"]))
    return fills


@pytest.mark.parametrize("seed", range(12))
def test_a_box_that_gives_an_artefact_to_one_player_and_not_another_is_caught_at_its_turn(
        seed: int) -> None:
    record = random_game(seed, players=3)
    seen: dict[tuple[str, int], int] = {}
    target = None
    for turn, word, colour, box in _fills(record):
        if (colour, box) in seen and seen[(colour, box)] < turn:
            target = (turn, word)
            break
        seen.setdefault((colour, box), turn)
    assert target is not None
    turn, word = target
    words = record.turns[turn - 1].text.split(" ")
    who, _, choice = words[word].partition(":")
    head = re.match(r"[A-Z]\d+", choice)
    assert head is not None
    rest = choice[head.end():]
    # Flip the first box's artefact mark: add `+` where there was none, or take it away.
    flipped = rest[1:] if rest.startswith("+") else "+" + rest
    words[word] = f"{who}:{head.group()}{flipped}"
    turns = [Turn(t.text) for t in record.turns]
    turns[turn - 1] = Turn(" ".join(words))
    bad = GameRecord(tags=record.tags, turns=turns, termination="*")
    report = validate_record(bad)
    errors = [d for d in report.diagnostics if d.is_error]
    assert errors and errors[0].code == "layout-mismatch" and errors[0].turn == turn
    assert errors[0].rule == "RW-LAYOUT-CONSISTENT"


def test_the_rulebooks_completed_sheet_scores_425() -> None:
    sheet = Sheet()
    sheet.numbers["R"] = [2, 3, 3, 5, 7, 7, 8, 10]
    sheet.circle["R"] = "X"
    sheet.numbers["Y"] = [1, 2, 4, 4, 5, 6, 6]
    sheet.circle["Y"] = "-"
    sheet.numbers["G"] = [1, 1, 3, 4, 5, 7, 8, 9]
    sheet.circle["G"] = "-"
    sheet.numbers["B"] = [1, 2, 2, 3, 4, 6, 7, 9, 9]
    sheet.circle["B"] = "X"
    sheet.numbers["P"] = [5]
    sheet.circle["P"] = "-"
    sheet.artefacts = 8
    sheet.dice = 7
    result = score_sheet(sheet, bridges_won=4)
    assert result.expeditions == {"R": 70, "O": 0, "Y": 30, "G": 35, "B": 100, "P": -20}
    assert (result.artefacts, result.dice, result.bridges) == (70, 60, 80)
    assert result.total == 425


def test_scores_add_up_and_snapshots_are_json() -> None:
    record = random_game(11, players=4)
    report = validate_record(record, keep_snapshots=True)
    assert report.score is not None and report.snapshots is not None
    for seat, total in enumerate(report.score.totals):
        assert total == sum(report.score.breakdown[seat].values())
    for snap in report.snapshots:
        assert json.loads(json.dumps(snap)) == snap
        assert len(snap["sheets"]) == 4
        for sheet in snap["sheets"]:
            assert sheet["total"] == sum(sheet["points"].values())
    last = report.snapshots[-1]
    assert last["over"] and last["next_player"] is None
    assert last["roll"] is not None and len(last["choices"]) == 4
    assert {c["player"] for c in last["choices"]} == {0, 1, 2, 3}
    assert set(last["layout"]) == set(COLOURS) and all(len(v) == 9 for v in last["layout"].values())
    first = report.snapshots[0]
    assert first["roll"] is None and first["choices"] == [] and first["turn"] == 0


def test_copy_state_is_independent() -> None:
    record = random_game(5, players=2)
    state, _ = VARIANT.setup(record)
    for turn in record.turns[:10]:
        VARIANT.apply(state, VARIANT.parse_move(state, turn.text))
    copy = VARIANT.copy_state(state)
    before = VARIANT.snapshot(state)
    for turn in record.turns[10:20]:
        VARIANT.apply(copy, VARIANT.parse_move(copy, turn.text))
    assert VARIANT.snapshot(state) == before
    assert VARIANT.snapshot(copy) != before


def test_render_text_draws_every_sheet() -> None:
    report = next(iter([validate_record(read_game(SAMPLES / "annotated.lcn"))]))
    text = VARIANT.render_text(report.state, report.players)
    assert text.startswith("After turn 37: game over")
    assert "Layout (record): R:" in text
    for name in report.players:
        assert f"\n{name}" in text
    assert text.count("bridge ") == 2 and text.count("circle ") == 2
    assert "total 190" in text and "total 280" in text


def test_layout_round_trips() -> None:
    layout = random_layout(random.Random(1))
    assert parse_layout(format_layout(layout)) == layout


# -- samples and the command line ------------------------------------------------------------

def test_the_samples_cover_two_three_and_five_players_and_an_annotated_game() -> None:
    counts = set()
    annotated = False
    for path in sorted(SAMPLES.glob("*.lcn")):
        record = read_game(path)
        assert record is not None and record.variant_name == "rollwrite"
        report = validate_record(record)
        assert report.valid and report.over, (path.name, [d.format() for d in report.diagnostics])
        counts.add(len(report.players))
        annotated |= sum(len(t.comments) for t in record.turns) >= 5
        assert path.read_text(encoding="utf-8") == write_game(record), f"{path.name} not canonical"
    assert {2, 3, 5} <= counts and annotated


def test_lcn_validate_and_fmt_check_accept_the_samples() -> None:
    files = [str(p) for p in sorted(SAMPLES.glob("*.lcn"))]
    assert len(files) >= 4
    runner = CliRunner()
    result = runner.invoke(cli, ["validate", *files])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["fmt", "--check", *files])
    assert result.exit_code == 0, result.output


def test_lcn_score_json_gives_scores_in_seat_order() -> None:
    path = SAMPLES / "annotated.lcn"
    result = CliRunner().invoke(cli, ["score", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout)["games"][0]
    assert game["players"] == ["Milo", "Ada"] and game["scores"] == [190, 280]
    assert game["variant"] == "rollwrite" and game["over"] is True
    assert list(game["expeditions"][0]) == ["R", "O", "Y", "G", "B", "P", "art", "dice", "bonus"]
    assert game["details"][0]["expeditions"][2]["circle"] == "X"  # Milo's yellow: -100
    assert game["expeditions"][0]["Y"] == -100


def test_lcn_validate_json() -> None:
    result = CliRunner().invoke(cli, ["validate", "--format", "json",
                                      str(SAMPLES / "five-players.lcn")])
    assert result.exit_code == 0, result.output
    games = json.loads(result.stdout)["games"]
    assert games[0]["valid"] and games[0]["variant"] == "rollwrite"
    assert len(games[0]["scores"]) == 5


def test_lcn_show_json_and_text() -> None:
    path = str(SAMPLES / "annotated.lcn")
    result = CliRunner().invoke(cli, ["show", "--format", "json", "--turn", "15", path])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["turn"] == 15 and data["players"] == ["Milo", "Ada"]
    assert data["bridges"]["R"] == {"turn": 15, "players": [0]}
    assert data["roll"] == {"colours": ["O", "G", "G"], "numbers": [0, 2, 5]}
    assert [c["choice"] for c in data["choices"]] == ["O2>R", "-"]
    assert data["sheets"][0]["bridges"]["R"] == "won"
    assert data["sheets"][1]["bridges"]["R"] == "struck"
    text = CliRunner().invoke(cli, ["show", "--turn", "15", path])
    assert text.exit_code == 0
    assert "Roll of Milo: OGG025; Milo O2>R, Ada refuses" in text.stdout


def test_lcn_fmt_writes_canonical_rollwrite(tmp_path: Path) -> None:
    path = tmp_path / "game.lcn"
    path.write_text('[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
                    "1. ogr703   ada:r3+>g\n  BO:o7 2.bbr111 bo:b1 p1:R1 *\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["fmt", "--write", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8").endswith(
        "\n1. ROG037 Ada:R3+>G Bo:O7\n2. RBB111 Bo:B1 Ada:R1\n*\n")


@pytest.mark.parametrize("body", [
    "1. ROG307 Ada:R3 Bo:O7 Cy:-",
    "1. ROG3070 Ada:R3 Bo:O7",
    "1. ROG307 Ada:R3>>G Bo:O7",
    "1. ROG307 Ada:Q3 Bo:O7",
    "1. ROG307 Ada:R3 Bo:O7 bridge:X",
    "1. ROG307 Ada:R3 Bo:O7 end end",
    "1. ROG307 Ada:R3 Bo:O7 exhausted:Cy",
    "1. ROG307",
    "1. Ada:R3 Bo:O7",
    "ROG307 Ada:R3 Bo:O7",
    "1. ROG307 Ada:R3^+ Bo:O7",
    "1. ROG307 Ada:R0+ Bo:O7",
])
def test_bad_rollwrite_input_gives_diagnostics_not_a_traceback(body: str) -> None:
    text = f'[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n{body} *\n'
    result = CliRunner().invoke(cli, ["validate", "-"], input=text)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "error[" in result.output


def test_a_bad_sheet_tag_is_reported_on_its_line() -> None:
    text = ('[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Sheet "R:..>"]\n\n'
            "1. RRR111 Ada:R1 Bo:R1 *\n")
    result = CliRunner().invoke(cli, ["validate", "-"], input=text)
    assert result.exit_code == 1
    assert "<stdin>:4:1: error[bad-layout] Sheet: `R:..>`: 3 boxes" in result.output


def _corrupt(record: GameRecord, turn: int, text: str) -> list:
    turns = [Turn(t.text) for t in record.turns]
    turns[turn - 1] = Turn(text)
    report = validate_record(GameRecord(tags=record.tags, turns=turns, termination="*"))
    return [d for d in report.diagnostics if d.is_error]


@pytest.mark.parametrize("seed", range(10))
def test_single_corruptions_are_caught_at_their_turn(seed: int) -> None:
    record = random_game(seed, players=2 + seed % 4)
    rng = random.Random(seed)
    turn = rng.randrange(1, len(record.turns) + 1)
    words = record.turns[turn - 1].text.split(" ")
    # A player's choice left out.
    seat_word = rng.randrange(1, len(record.players()) + 1)
    dropped = " ".join(w for i, w in enumerate(words) if i != seat_word)
    errors = _corrupt(record, turn, dropped)
    assert errors and errors[0].turn == turn and errors[0].rule == "RW-TURN-ORDER"
    assert "choice-missing" in {d.code for d in errors if d.turn == turn}
    # The roller's choice moved to the end: out of order.
    players = len(record.players())
    moved = " ".join([words[0], *words[2:players + 1], words[1], *words[players + 1:]])
    errors = _corrupt(record, turn, moved)
    assert errors and errors[0].turn == turn and errors[0].code == "turn-order"
    # A roll that lacks the colour the roller used.
    roller = words[1].partition(":")[2]
    if roller != "-":
        colour = roller[0]
        other = next(c for c in COLOURS if c != colour)
        roll = words[0][:3].replace(colour, other) + words[0][3:]
        errors = _corrupt(record, turn, " ".join([roll, *words[1:]]))
        assert errors and errors[0].turn == turn
        assert errors[0].code == "not-rolled" and errors[0].rule == "RW-TURN-ROLLER-DICE"

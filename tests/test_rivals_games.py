"""Whole Rivals games: seeded random games round-trip and validate, the samples are valid and
canonical, and the ``lcn`` commands handle Rivals records (and bad ones) like any other."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

from lcn import read_game, validate_record, write_game
from lcn.variants.rivals import COLOURS, TOTAL_GOLD, VARIANT
from lcn.variants.rivals_play import random_game, strip_piles

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "rivals"
SEEDS = range(100)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_round_trip_and_validate(players: int) -> None:
    for seed in SEEDS:
        record = random_game(seed, players=players, annotate=seed % 2 == 0)
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
        assert sum(state.gold) + state.supply <= TOTAL_GOLD  # coins are only lost at the end
        assert state.uncovered == 80


def test_games_without_the_piles_validate_the_same() -> None:
    for seed in range(30):
        record = random_game(seed, players=2 + seed % 3)
        full = validate_record(record)
        bare = validate_record(strip_piles(record))
        assert bare.valid, (seed, [d.format() for d in bare.diagnostics][:3])
        assert bare.over and bare.score is not None and full.score is not None
        assert bare.score.totals == full.score.totals


def test_annotations_do_not_change_the_game() -> None:
    for seed in range(10):
        plain = random_game(seed, players=3, annotate=False)
        marked = random_game(seed, players=3, annotate=True)
        assert plain.termination == marked.termination
        assert any(">box" in t.text for t in marked.turns)
        assert sum("share:" in t.text for t in marked.turns) == 3
        assert not any(">box" in t.text or "share:" in t.text for t in plain.turns)


def _uncovered(text: str) -> str:
    word = next(w for w in text.split() if w.startswith("up:"))
    return word[3:].removesuffix(">box")


def test_a_card_uncovered_twice_is_caught_without_the_piles() -> None:
    bare = strip_piles(random_game(4, players=2))
    singles = [i for i, t in enumerate(bare.turns) if _uncovered(t.text)[1:] in ("6", "7", "8", "9", "10")]
    first, later = singles[0], singles[1]
    card = _uncovered(bare.turns[first].text)
    words = bare.turns[later].text.split()
    words = [f"up:{card}" if w.startswith("up:") else w for w in words]
    bare.turns[later].text = " ".join(words)
    report = validate_record(bare)
    found = [(d.code, d.rule, d.turn) for d in report.diagnostics if d.is_error]
    assert found[0] == ("card-exhausted", "V-SETUP-CARDS", later + 1)


def test_scores_add_up_and_snapshots_are_json() -> None:
    record = random_game(21, players=4)
    report = validate_record(record, keep_snapshots=True, keep_running=True)
    assert report.score is not None and report.snapshots is not None and report.running is not None
    for total, parts in zip(report.score.totals, report.score.breakdown, strict=True):
        assert total == sum(parts.values())
        assert list(parts) == [*COLOURS, "gold"]
    assert len(report.snapshots) == len(record.turns) + 1
    json.dumps(report.snapshots)
    assert report.running[-1] == report.score.totals
    final = report.snapshots[-1]
    assert final["over"] and final["next_player"] is None and final["cards_left"] == 0


def test_copy_state_is_independent() -> None:
    record = random_game(5, players=3)
    state, _ = VARIANT.setup(record)
    moves = [VARIANT.parse_move(state, t.text) for t in record.turns]
    for move in moves[:30]:
        VARIANT.apply(state, move)
    copy = VARIANT.copy_state(state)
    before = VARIANT.snapshot(copy)
    for move in moves[30:40]:
        VARIANT.apply(state, move)
    assert VARIANT.snapshot(copy) == before
    for move in moves[30:40]:
        VARIANT.apply(copy, move)
    assert VARIANT.snapshot(copy) == VARIANT.snapshot(state)


def test_render_text_shows_the_table() -> None:
    record = read_game(SAMPLES / "rulebook-auction.lcn")
    assert record is not None
    report = validate_record(record)
    text = VARIANT.render_text(report.state, report.players)
    assert "Sabrina to play" in text and "Display: W2 Y7" in text and "Supply: 7 gold" in text
    assert "Dominic won for 5, placed R4 R4, returned Gw, uncovered Y7" in text


# -- the samples --------------------------------------------------------------------------


def sample_files() -> list[Path]:
    return sorted(SAMPLES.glob("*.lcn"))


def test_the_samples_cover_two_three_and_four_players_and_the_rulebook() -> None:
    complete: dict[int, list[str]] = {}
    annotated = []
    for path in sample_files():
        record = read_game(path)
        assert record is not None and record.variant_name == "rivals"
        report = validate_record(record)
        assert report.valid, (path.name, [d.format() for d in report.diagnostics])
        if report.over:
            complete.setdefault(len(report.players), []).append(path.name)
            assert record.termination == record.tags.get("Result")
        if any(t.comments for t in record.turns):
            annotated.append(path.name)
    assert set(complete) == {2, 3, 4}
    assert sum(len(v) for v in complete.values()) >= 4
    assert any(name in annotated for names in complete.values() for name in names)
    names = {p.name for p in sample_files()}
    assert {"rulebook-auction.lcn", "rulebook-scoring.lcn"} <= names


def test_lcn_validate_and_fmt_check_accept_the_samples() -> None:
    runner = CliRunner()
    files = [str(p) for p in sample_files()]
    result = runner.invoke(cli, ["validate", *files])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["fmt", "--check", *files])
    assert result.exit_code == 0, result.output


# -- the commands -------------------------------------------------------------------------


def test_lcn_score_json_gives_scores_in_seat_order() -> None:
    path = SAMPLES / "four-players.lcn"
    result = CliRunner().invoke(cli, ["score", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    game = json.loads(result.output)["games"][0]
    record = read_game(path)
    assert record is not None and record.termination is not None
    assert game["scores"] == [int(s) for s in record.termination.split(":")]
    assert game["players"] == ["Ada", "Mary Ann", "Bo", "Cy"]
    assert game["variant"] == "rivals" and game["over"] is True
    for total, parts in zip(game["scores"], game["expeditions"], strict=True):
        assert total == sum(parts.values())


def test_lcn_validate_json() -> None:
    path = SAMPLES / "three-players.lcn"
    result = CliRunner().invoke(cli, ["validate", "--format", "json", str(path)])
    assert result.exit_code == 0, result.output
    game = json.loads(result.output)["games"][0]
    assert game["valid"] and game["variant"] == "rivals" and game["over"]
    assert len(game["scores"]) == 3 and game["turns"] == 80


def test_lcn_show_json_and_text() -> None:
    path = SAMPLES / "rulebook-auction.lcn"
    runner = CliRunner()
    result = runner.invoke(cli, ["show", "--format", "json", "--turn", "6", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["variant"] == "rivals" and data["turn"] == 6
    assert data["players"] == ["Sabrina", "Jonas", "Daniela", "Dominic"]
    assert sorted(data["display"]) == ["Gw", "R4", "R4", "W2"]
    assert data["auction"]["winner"] == 3 and data["gold"] == [9, 9, 9, 7]
    result = runner.invoke(cli, ["show", str(path)])
    assert result.exit_code == 0, result.output
    assert "Display: W2 Y7" in result.output


def test_lcn_fmt_writes_canonical_rivals() -> None:
    text = ('[Variant "rivals"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Wagers1 "Rw Bw"]\n'
            '[Wagers2 "Gw Yw"]\n\n1.   UP:r5\n2. bo1    ADA- Place:r5 up:r6>BOX *\n')
    result = CliRunner().invoke(cli, ["fmt", "-"], input=text)
    assert result.exit_code == 0, result.output
    assert result.output.endswith("1. up:R5\n2. Bo1 Ada- place:R5 up:R6>box\n*\n")


@pytest.mark.parametrize("body", [
    "1. up:R5 2. Bo1 Ada- place:R9 up:R6 *",
    "1. Ada1 Bo- up:R5 *",
    "1. up:R5 2. Zed1 up:R6 *",
    "1. up:R5 2. Bo1 Ada- place:R5,, up:R6 3. 4. up *",
    "1. up:R5 2. Bo1 Ada- place:R5 up:R6 18:18",
    "up:R5 { unclosed",
    "1. up:R5 2. Bo1 Ada- place:R5 up:R6 share:9 rest:x *",
])
def test_bad_rivals_input_gives_diagnostics_not_a_traceback(body: str) -> None:
    text = ('[Variant "rivals"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Wagers1 "Rw Bw"]\n'
            f'[Wagers2 "Gw Yw"]\n\n{body}\n')
    runner = CliRunner()
    for args in (["validate", "-"], ["score", "-"], ["validate", "--format", "json", "-"]):
        result = runner.invoke(cli, args, input=text)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output
        assert "Traceback" not in result.output
        assert result.exit_code == 1, result.output
    result = runner.invoke(cli, ["validate", "-"], input=text)
    assert "<stdin>:" in result.output and "error[" in result.output


def test_bad_setups_give_diagnostics_on_their_tag_lines() -> None:
    text = ('[Variant "rivals"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Wagers1 "Rw Rw"]\n'
            '[Wagers2 "Gw Yw"]\n[PileSizes "20 20 x 20"]\n\n1. up:R5 *\n')
    report = validate_record(read_game(text))  # type: ignore[arg-type]
    places = {(d.code, d.line) for d in report.diagnostics}
    assert ("start-wagers", 4) in places and ("tag-value", 6) in places

"""The search that judges moves from what the player knew: lcn.search, lcn.best_move, lcn.analyse.

Every suggestion must be a legal move of the record, found from the mover's view alone (the
same with the whole deal as with the mover's own record of the game), repeatable from a seed
and a count of playouts; a plainly bad move must be marked, and the engine's own choice not.
"""

from __future__ import annotations

import json
import math
import random
from itertools import compress
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

import lcn
from lcn.analysis import (
    MIN_MARK_SAMPLES,
    NotAnalysable,
    analyse,
    best_move,
    mark_of,
    move_accuracy,
    unsettled,
    win_drop,
)
from lcn.games.classic.core import ClassicCore
from lcn.games.classic.sampler import Table, infoset_from_record
from lcn.model import GameRecord
from lcn.moves import InvalidRecord
from lcn.search import TURN_CAP, margin, playout, search
from lcn.variants import classic_play
from lcn.variants.classic import CLASSIC_5


def unfinished(record: GameRecord, turns: int) -> GameRecord:
    """The record's first ``turns`` turns, as a game still being played."""
    tags = {key: value for key, value in record.tags.items() if key != "Result"}
    return lcn.read_game(lcn.write_game(GameRecord(tags=tags, turns=record.turns[:turns],
                                                   termination="*")))


def dealt(record: GameRecord) -> ClassicCore:
    return ClassicCore.deal(CLASSIC_5, [record.tags["Hand1"].split(), record.tags["Hand2"].split()],
                            record.tags["Deck"].split())


def test_a_table_knows_what_each_seat_saw_as_the_record_tells_it() -> None:
    checked = 0
    for seed in range(4):
        record = classic_play.random_game(seed)
        core = dealt(record)
        table = Table(core)
        for index, turn in enumerate([*record.turns, None]):
            for seat in (0, 1):
                assert table.infoset(seat) == infoset_from_record(record, seat, turns=index)
                checked += 1
            if turn is not None:
                table.play(core.move(turn.text.split("=")[0]))
    assert checked > 300


def test_a_table_refuses_an_illegal_move() -> None:
    core = ClassicCore.shuffled(CLASSIC_5, random.Random(1))
    table = Table(core)
    absent = next(card for card in range(core.tables.kinds) if not core.hands[0][card])
    with pytest.raises(ValueError, match=r"C-HAND-CARD|C-CARD-UNIQUE"):
        table.play(core.tables.encode(absent, True, 0))


def test_the_search_judges_every_legal_move_and_is_repeatable() -> None:
    record = classic_play.random_game(11)
    infoset = infoset_from_record(record, 0, turns=10)
    first = search(infoset, seed=5, seconds=None, playouts=600)
    again = search(infoset, seed=5, seconds=None, playouts=600)
    assert first.candidates == again.candidates
    legal = set(infoset.sample(random.Random(0)).legal_moves())
    assert {c.move for c in first.candidates} == legal
    assert first.playouts == 600
    # The best is judged on at least as many deals as any other, and is the best of those
    # judged on as many.
    most = max(c.samples for c in first.candidates)
    assert first.best.samples == most


def test_a_kept_move_is_judged_to_the_end() -> None:
    record = classic_play.random_game(12)
    infoset = infoset_from_record(record, 1, turns=9)
    moves = infoset.sample(random.Random(0)).legal_moves()
    worst = search(infoset, seed=1, seconds=None, playouts=400).candidates[-1].move
    kept = search(infoset, seed=1, seconds=None, playouts=400, keep=(worst,))
    assert kept.judged(worst).samples >= kept.best.samples - 1
    with pytest.raises(ValueError, match="not legal"):
        search(infoset, seed=1, seconds=None, playouts=10, keep=(max(moves) + 1,))


def test_a_playout_stops_at_its_cap() -> None:
    core = ClassicCore.shuffled(CLASSIC_5, random.Random(3))
    turns = core.turn
    playout(core, random.Random(0), cap=5)
    assert core.turn - turns == 5
    playout(core, random.Random(0), cap=TURN_CAP)
    assert core.is_over()
    assert margin((10, 4), 0) == 6 and margin((10, 4, 12), 0) == -2


def test_best_move_is_a_move_lcn_legal_moves_offers() -> None:
    for seed in range(3):
        record = classic_play.random_game(20 + seed)
        for turns in (0, 7, 30):
            game = unfinished(record, turns)
            best = best_move(game, seed=seed, playouts=300)
            position = lcn.legal_moves(game)
            assert best.lcn in {move.lcn for move in position.moves}
            assert best.seat == position.seat and best.player == position.player
            assert best.turn == turns + 1
            assert {c.lcn for c in best.runners_up} < {move.lcn for move in position.moves}


def test_best_move_judges_from_the_movers_view_alone() -> None:
    record = classic_play.random_game(31)
    for turns in (6, 13):
        whole = unfinished(record, turns)
        seat = turns % 2
        view = classic_play.strip_deal(whole, keep=seat)
        assert "Deck" not in view.tags
        one = best_move(whole, seed=9, playouts=400)
        other = best_move(view, seed=9, playouts=400)
        assert (one.lcn, one.value, one.runners_up) == (other.lcn, other.value, other.runners_up)


def test_records_that_cannot_be_judged_are_refused() -> None:
    record = classic_play.random_game(40)
    with pytest.raises(NotAnalysable, match="over"):
        best_move(record, seed=1, playouts=10)
    broken = lcn.read_game('[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. R4/d *\n')
    with pytest.raises(InvalidRecord) as caught:
        best_move(broken, seed=1, playouts=10)
    assert caught.value.diagnostics[0].rule == "C-PLACE-ASCENDING"
    with pytest.raises(NotAnalysable, match="view"):  # no hand of the player to move
        best_move(lcn.read_game('[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d *\n'), seed=1, playouts=10)
    for budget in ({"seconds": 0.0}, {"seconds": 1e6}, {"playouts": 0}):
        with pytest.raises(ValueError, match=r"seconds|playouts"):
            best_move(unfinished(record, 3), **budget)  # type: ignore[arg-type]


def test_marks_need_the_loss_to_clear_its_noise() -> None:
    assert win_drop(0.0) == 0.0 and 9.9 < win_drop(8.0) < 10.0 < win_drop(8.1)
    assert mark_of(20.0, 1.0) == "blunder"
    assert mark_of(12.0, 2.0) == "mistake"  # 12 - 1.645 * 2 = 8.7 points sure
    assert mark_of(20.0, 12.0) is None
    assert mark_of(6.0, 0.0) == "inaccuracy"
    assert mark_of(3.0, 0.0) is None
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(50.0) < move_accuracy(10.0) < 100.0
    assert move_accuracy(1000.0) == 0.0


def test_a_loss_near_a_marks_threshold_is_measured_again() -> None:
    # Far from every threshold, with deals enough: settled.
    assert not unsettled(0.0, 0.5, 200)
    assert not unsettled(40.0, 1.0, 200)
    assert not unsettled(10.0, 0.5, 200)  # a mistake whose bound is far from 10 and 15 points
    # A bound within its own noise of a threshold, or too few deals: measured again.
    assert unsettled(9.0, 1.0, 200)  # bound 7.4 points (9.2 %): a mistake (10 %) within its noise
    assert unsettled(10.0, 3.0, 200)
    assert unsettled(40.0, 1.0, MIN_MARK_SAMPLES - 1)
    assert unsettled(40.0, math.inf, 200)


def test_an_unsettled_loss_meets_more_deals_than_a_settled_one() -> None:
    record = classic_play.random_game(20_000)
    judged = analyse(record, seed=1, playouts=400, turns=range(1, 21)).decisions
    # The duel's share of 400 playouts is 40 deals of three moves (the one played and the
    # search's two best others); settling adds up to three times as many.
    counts = [d.samples for d in judged]
    assert set(counts) <= {40, 80, 120, 160}, counts
    assert max(counts) > 40, counts
    # A measure stops early only once its mark is settled.
    for decision in judged:
        if decision.samples < 160:
            assert not unsettled(decision.loss, decision.loss_error, decision.samples), decision


def _cut_after(record: GameRecord, index: int, word: str) -> GameRecord:
    """The record's first ``index`` turns and then ``word``, as a game still being played."""
    text = lcn.write_game(GameRecord(tags={k: v for k, v in record.tags.items() if k != "Result"},
                                     turns=record.turns[:index], termination="*"))
    number = f" {index // 2 + 1}." if index % 2 == 0 else ""
    return lcn.read_game(f"{text.rstrip().removesuffix('*').rstrip()}{number} {word} *\n")


def _bad_turns(record: GameRecord) -> list[tuple[GameRecord, int, str]]:
    """Turns of the record replaced by a plain mistake, each with the record cut after it: a
    10 that fits the mover's own started expedition thrown on its discard pile in the last
    turns (earlier, taking it back later may cost only a turn), and a wager opening an
    expedition with four cards or fewer left to draw."""
    core = dealt(record)
    tables = core.tables
    found = []
    for index, turn in enumerate(record.turns):
        player = core.player
        hand = core.hands[player]
        for card in compress(range(tables.kinds), hand[:tables.kinds]):
            cell = player * tables.colours + tables.colour_of[card]
            rank = tables.rank_of[card]
            if tables.value_of[card] == 10 and core.exp[cell] and rank > core.top[cell] \
                    and len(core.pile) <= 2:
                found.append((_cut_after(record, index, tables.words[tables.encode(card, True, 0)]),
                              index + 1, tables.words[tables.encode(card, True, 0)]))
                break
            if rank == 0 and not core.exp[cell] and len(core.pile) <= 4 \
                    and sum(hand[card + 1:card + tables.ranks]) <= 1:
                found.append((_cut_after(record, index, tables.words[tables.encode(card, False, 0)]),
                              index + 1, tables.words[tables.encode(card, False, 0)]))
                break
        core.step(core.move(turn.text.split("=")[0]))
    return found


def test_a_plainly_bad_move_is_marked_and_the_engines_own_choice_is_not() -> None:
    tens: list[Any] = []
    wagers: list[Any] = []
    for seed in range(300):
        for bad in _bad_turns(classic_play.random_game(seed)):
            (wagers if "w" in bad[2] else tens).append(bad)
        if len(tens) >= 2 and len(wagers) >= 2:
            break
    for game, turn, word in tens[:2] + wagers[:2]:
        assert lcn.validate_record(game).valid
        decision, = analyse(game, seed=2, playouts=4000, turns=[turn]).decisions
        assert decision.played == word
        assert decision.mark in ("mistake", "blunder"), decision
        if "w" in word:
            assert decision.reason is not None and "too late to pay back its 20" in decision.reason
        else:
            assert decision.reason is not None and decision.reason.startswith("throws away the ")
            assert decision.reason.said_in("de").startswith("wirft die ")  # type: ignore[attr-defined]
        # The move the engine prefers, played instead, is not marked.
        choice = best_move(unfinished(game, turn - 1), seed=3, playouts=4000).lcn
        replaced = _cut_after(game, turn - 1, choice)
        judged, = analyse(replaced, seed=4, playouts=4000, turns=[turn]).decisions
        assert judged.mark is None, judged


def test_an_analysis_judges_every_decision_and_gives_each_player_an_accuracy() -> None:
    record = classic_play.random_game(50)
    seen: list[tuple[int, int]] = []
    result = analyse(record, seed=1, playouts=40, progress=lambda done, total: seen.append((done, total)))
    assert [d.turn for d in result.decisions] == list(range(1, len(record.turns) + 1))
    assert [d.played for d in result.decisions] == [t.text for t in record.turns]
    assert seen[-1] == (len(record.turns), len(record.turns))
    assert set(result.accuracy) == set(result.players)
    assert all(0 <= value <= 100 for value in result.accuracy.values())
    for decision in result.decisions:
        assert decision.loss >= 0 and decision.win_drop >= 0
        if decision.played.split("=")[0] == decision.best:
            assert decision.loss == 0 and decision.mark is None
    data = result.to_json()
    assert set(data["decisions"][0]) >= {"turn", "player", "played", "best", "loss", "mark"}
    again = analyse(record, seed=1, playouts=40, turns=[5, 9])
    assert [d.to_json() for d in again.decisions] == [data["decisions"][4], data["decisions"][8]]


# -- the command ---------------------------------------------------------------------------------

def test_lcn_analyse_prints_marks_and_json_with_the_fixed_keys(tmp_path: Path) -> None:
    record = classic_play.random_game(60)
    path = tmp_path / "game.lcn"
    path.write_text(lcn.write_game(record) + "\n" + lcn.write_game(classic_play.random_game(61)))
    runner = CliRunner()
    done = runner.invoke(cli, ["analyse", str(path), "--game", "1", "--seed", "3", "--playouts", "60",
                               "--format", "json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    game, = data["games"]
    assert set(game) >= {"decisions", "accuracy"}
    assert set(game["accuracy"]) == {record.tags["Player1"], record.tags["Player2"]}
    assert len(game["decisions"]) == len(record.turns)
    first = game["decisions"][0]
    assert set(first) >= {"turn", "player", "played", "best", "loss", "mark"}
    assert first["turn"] == 1 and first["player"] == record.tags["Player1"]
    library = analyse(record, seed=3, playouts=60).to_json()
    assert game["decisions"] == library["decisions"]
    parallel = runner.invoke(cli, ["analyse", str(path), "--game", "1", "--seed", "3", "--playouts", "60",
                                   "--format", "json", "--jobs", "2"])
    assert parallel.exit_code == 0, parallel.output
    assert json.loads(parallel.output) == data
    both = runner.invoke(cli, ["analyse", str(path), "--seed", "3", "--playouts", "20"])
    assert both.exit_code == 0, both.output
    assert both.output.count("accuracy") == 2


def test_lcn_analyse_refuses_invalid_records_and_bad_budgets(tmp_path: Path) -> None:
    path = tmp_path / "bad.lcn"
    path.write_text('[Player1 "Ada"]\n[Player2 "Bo"]\n[Hand1 "R2 R3 R4 R5 R6 R7 R8 R9"]\n\n'
                    '1. R5/d xB2/d 2. R4/d *\n')
    runner = CliRunner()
    done = runner.invoke(cli, ["analyse", str(path), "--playouts", "10"])
    assert done.exit_code == 1
    assert "C-PLACE-ASCENDING" in done.output
    for option in (["--seconds", "0"], ["--seconds", "61"], ["--playouts", "0"]):
        refused = runner.invoke(cli, ["analyse", str(path), *option])
        assert refused.exit_code == 2, option
    missing = runner.invoke(cli, ["analyse", str(path), "--game", "3"])
    assert missing.exit_code == 2 and "no game 3" in missing.output


def test_the_strength_bench_plays_mirrored_deals(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import engine as bench_engine

    assert bench_engine.main(["--deals", "3", "--players", "never-open,heuristic,engine@30",
                              "--jobs", "1", "--first", "7"]) == 0
    rows = {line.split("|")[1].strip(): line.split("|")[3].strip()
            for line in capsys.readouterr().out.splitlines() if (line.startswith("| ") and "@" in line)
            or line.startswith("| heuristic") or line.startswith("| never-open")}
    assert rows["heuristic"] == "+0.0 ± 0.0"  # the same player on both sides of mirrored deals
    # Never opening scores 0, so its margin is minus what the rule-based player scores.
    scores = []
    for deal in range(7, 10):
        for seat in (0, 1):
            margin_, _, _ = bench_engine.game(deal, "never-open", seat)
            scores.append(margin_)
    assert rows["never-open"].startswith(f"{sum(scores) / 6:+.1f}")
    assert "engine@30" in rows


def test_a_game_without_a_judge_says_its_moves_cannot_be_judged_yet(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny Trek (``tests/tinygame.py``), registered for this test, has no judge."""
    from tinygame import TinyVariant

    import lcn.variants as variants

    monkeypatch.setattr(variants, "_REGISTRY", dict(variants._REGISTRY))
    monkeypatch.setattr(variants, "_GIVEN", set(variants._GIVEN))
    variants.register_variant(TinyVariant())
    cut = lcn.read_game('[Variant "tinytrek"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n'
                        '[Deck "A1 B2 A3 B4 A5 B1 A2 B3 A4 B5"]\n\nA1 A3 B2 *\n')
    assert lcn.validate_record(cut).valid and not lcn.legal_moves(cut).over
    with pytest.raises(NotAnalysable, match="cannot judge moves yet"):
        best_move(cut, seed=1, playouts=10)
    with pytest.raises(NotAnalysable, match="cannot judge moves yet"):
        analyse(cut, seed=1, playouts=10)


def test_each_players_analysis_of_the_whole_deal_is_that_of_their_own_view() -> None:
    record = classic_play.random_game(70)
    whole = analyse(record, seed=5, playouts=60)
    assert whole.unjudged == ()
    for seat in (0, 1):
        view = classic_play.strip_deal(record, keep=seat)
        own = analyse(view, seed=5, playouts=60)
        assert own.unjudged == tuple(d.turn for d in whole.decisions if d.seat != seat)
        def judged(decisions: Any) -> list[dict[str, Any]]:
            # The view names the cards its seat drew (``B6/d=B8``): the same decision.
            return [{**d.to_json(), "played": d.played.split("=")[0]} for d in decisions]

        assert judged(own.decisions) == judged(d for d in whole.decisions if d.seat == seat)
    public = classic_play.strip_deal(record, keep=None)
    with pytest.raises(NotAnalysable, match="no hand"):
        analyse(public, seed=5, playouts=10)


def test_a_number_card_before_the_wagers_in_hand_is_told_as_such() -> None:
    sample = Path(__file__).resolve().parent.parent / "samples" / "classic" / "full-deal.lcn"
    record = lcn.read_game(sample.read_text(encoding="utf-8"))
    # Pia opens red with R2 holding both red wagers: they can no longer be played.
    decision, = analyse(record, seed=1, playouts=1500, turns=[1]).decisions
    assert (decision.played, decision.mark) == ("R2/d", "blunder")
    assert decision.reason == "shuts out the 2 red wager cards in your hand"


def test_an_analysis_of_too_many_decisions_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import lcn.analysis

    record = classic_play.random_game(71)
    monkeypatch.setattr(lcn.analysis, "MAX_DECISIONS", 10)
    with pytest.raises(NotAnalysable, match="at most 10"):
        analyse(record, seed=1, playouts=10)
    assert len(analyse(record, seed=1, playouts=10, turns=range(1, 11)).decisions) == 10


def test_check_refuses_what_analyse_refuses_without_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    import lcn.analysis
    from lcn.moves import InvalidRecord

    samples = Path(__file__).resolve().parent.parent / "samples" / "classic"
    full = (samples / "full-deal.lcn").read_text(encoding="utf-8")
    lcn.analysis.check(full)  # a game analyse judges: no refusal
    lcn.analysis.check((samples / "one-player-view.lcn").read_text(encoding="utf-8"))
    with pytest.raises(NotAnalysable, match="no hand of a player is given"):
        lcn.analysis.check((samples / "public-only.lcn").read_text(encoding="utf-8"))
    with pytest.raises(InvalidRecord):
        lcn.analysis.check('[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d R5/d *\n')
    monkeypatch.setattr(lcn.analysis, "search", None)  # no search is started: it would fail
    monkeypatch.setattr(lcn.analysis, "MAX_DECISIONS", 10)
    with pytest.raises(NotAnalysable, match="at most 10"):
        lcn.analysis.check(full)

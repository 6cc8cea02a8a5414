"""The open-cards view of an analysis: every decision judged with the whole deal known (classic's
hands and draw pile, Rivals' piles), labelled as such everywhere, and refused where the record
does not give the deal or the game hides no cards (Roll & Write)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

import lcn
from lcn.analysis import NotAnalysable, analyse
from lcn.analysis_cache import Budget, cache_key, canonical_text
from lcn.games import OpenCards
from lcn.games.classic.core import ClassicCore
from lcn.games.rivals.core import RivalsCore, turn_words
from lcn.variants.classic import CLASSIC_5

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
FULL = SAMPLES / "classic" / "full-deal.lcn"


def _record() -> lcn.GameRecord:
    record = lcn.read_game(FULL.read_text(encoding="utf-8"))
    assert record is not None
    return record


def test_an_open_view_is_the_true_position_in_every_sample() -> None:
    record = _record()
    judge = lcn.find_variant(record.variant_name).judge()  # type: ignore[union-attr]
    assert judge is not None
    tags = record.tags
    truth = ClassicCore.deal(CLASSIC_5, [tags["Hand1"].split(), tags["Hand2"].split()], tags["Deck"].split())
    for point in judge.points(record)[:12]:
        view, move = judge.open_view(record, point)  # type: ignore[attr-defined]
        assert isinstance(view, OpenCards) and view.seat == point.seat
        rng = random.Random(point.turn)
        assert view.sample(rng).key() == view.sample(rng).key() == truth.key()
        assert move in truth.legal_moves()
        assert truth.step(move) == 0


def test_an_open_cards_analysis_judges_both_seats_and_says_which_view_it_is() -> None:
    record = _record()
    seen = analyse(record, seed=3, playouts=60, turns=range(1, 7))
    opened = analyse(record, seed=3, playouts=60, turns=range(1, 7), open_cards=True)
    assert [d.turn for d in opened.decisions] == list(range(1, 7))
    assert {d.player for d in opened.decisions} == set(opened.players)
    assert opened.open_cards and not seen.open_cards
    assert opened.to_json()["view"] == "open cards" and seen.to_json()["view"] == "players"
    # The same on two processes.
    assert analyse(record, seed=3, playouts=60, turns=range(1, 7), open_cards=True, jobs=2) == opened


def test_the_open_view_is_refused_without_the_whole_deal_or_for_other_games() -> None:
    view = lcn.read_game((SAMPLES / "classic" / "one-player-view.lcn").read_text(encoding="utf-8"))
    assert view is not None
    with pytest.raises(NotAnalysable, match="needs the whole deal"):
        analyse(view, playouts=20, open_cards=True)
    rivals = lcn.read_game((SAMPLES / "rivals" / "rulebook-auction.lcn").read_text(encoding="utf-8"))
    assert rivals is not None and "Pile1" not in rivals.tags
    with pytest.raises(NotAnalysable, match="needs the order of the piles"):
        analyse(rivals, playouts=20, open_cards=True)
    sheets = lcn.read_game((SAMPLES / "rollwrite" / "two-players.lcn").read_text(encoding="utf-8"))
    assert sheets is not None
    with pytest.raises(NotAnalysable, match="not offered for this game"):
        analyse(sheets, playouts=20, open_cards=True)


@pytest.mark.parametrize("name", ["two-players", "three-players", "four-players"])
def test_a_rivals_open_view_is_the_table_with_the_piles_order_of_the_record(name: str) -> None:
    record = lcn.read_game((SAMPLES / "rivals" / f"{name}.lcn").read_text(encoding="utf-8"))
    assert record is not None
    judge = lcn.find_variant(record.variant_name).judge()  # type: ignore[union-attr]
    assert judge is not None
    points = judge.points(record)
    truth = RivalsCore.from_record(record)
    words = [(index + 1, place, word) for index, turn in enumerate(record.turns)
             for place, word in enumerate(turn_words(turn.text))]
    at = 0
    for point in points:
        while words[at][:2] != (point.turn, point.word):
            assert truth.step(truth.move(words[at][2])) == 0
            at += 1
        view, _ = judge.open_view(record, point)  # type: ignore[attr-defined]
        assert view.sample(random.Random(at)).key() == truth.key()
    assert len(points) > 100
    opened = analyse(record, seed=1, playouts=30, turns=[1, 2], open_cards=True)
    assert opened.decisions and opened.open_cards


def test_lcn_analyse_open_cards_is_labelled_and_stored_apart(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["analyse", "--playouts", "40", "--seed", "1", "--cache", str(tmp_path)]
    text = runner.invoke(cli, [*args, "--open-cards", str(FULL)])
    assert text.exit_code == 0, text.output
    assert text.output.splitlines()[0].endswith(
        "(open cards: judged with every card known, which no player knew)")
    shown = runner.invoke(cli, [*args, "--open-cards", "--format", "json", str(FULL)])
    game, = json.loads(shown.output)["games"]
    assert game["view"] == "open cards"
    game, = json.loads(runner.invoke(cli, [*args, "--format", "json", str(FULL)]).output)["games"]
    assert game["view"] == "players"  # not the open analysis served from the store
    canonical = canonical_text(_record())
    assert cache_key(canonical, Budget.of(seed=1, seconds=None, playouts=40)) != \
        cache_key(canonical, Budget.of(seed=1, seconds=None, playouts=40, open_cards=True))
    refused = runner.invoke(cli, [*args, "--open-cards", str(SAMPLES / "classic" / "one-player-view.lcn")])
    assert refused.exit_code == 2 and "needs the whole deal" in refused.output

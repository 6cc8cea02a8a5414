"""Property tests over whole classic games from the seeded random player.

Every game it plays is legal, so each must validate, come back unchanged from a write, a
read and a second write, and score what an independent sum of its columns says. Hypothesis
picks the seeds and decorates the games with comments and glyphs; a fixed range of seeds
runs too, so a failure is always reproducible from a seed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lcn
from lcn.model import GameRecord
from lcn.validate import validate_games, validate_record
from lcn.variants.classic import (
    CLASSIC_5,
    CLASSIC_6,
    ClassicMove,
    ClassicState,
    ClassicVariant,
    card_value,
    parse_move,
)
from lcn.variants.classic_play import random_game, strip_deal

ROOT = Path(__file__).resolve().parent.parent

SEEDS = range(200)


def columns(game: GameRecord) -> list[dict[str, list[str]]]:
    """Each player's columns, replayed from the turns alone (no engine involved)."""
    config = CLASSIC_6 if game.tags.get("Expeditions") == "6" else CLASSIC_5
    out: list[dict[str, list[str]]] = [{c: [] for c in config.colours} for _ in range(2)]
    for index, turn in enumerate(game.turns):
        move = parse_move(turn.text, config)
        if not move.discard:
            out[index % 2][move.card[0]].append(move.card)
    return out


def rulebook_points(cards: list[str]) -> int:
    """The rulebook's computation of one column, written out again independently."""
    if not cards:
        return 0
    wagers = sum(1 for c in cards if c.endswith("w"))
    total = sum(card_value(c) for c in cards)
    return (total - 20) * (wagers + 1) + (20 if len(cards) >= 8 else 0)


def check_game(game: GameRecord) -> None:
    text = lcn.write_game(game)
    again = lcn.read_game(text)
    assert again is not None
    assert lcn.write_game(again) == text
    report = validate_record(again)
    assert report.valid, [d.format() for d in report.diagnostics]
    assert report.over and report.score is not None
    for seat, player_columns in enumerate(columns(again)):
        expected = {colour: rulebook_points(cards) for colour, cards in player_columns.items()}
        assert report.score.breakdown[seat] == expected
        assert report.score.totals[seat] == sum(expected.values())
        for detail in report.score.details[seat]:
            assert detail["points"] == expected[detail["colour"]]
    assert again.termination == ":".join(map(str, report.score.totals)) == again.tags["Result"]


def test_seeded_games_validate_round_trip_and_score() -> None:
    for seed in SEEDS:
        check_game(random_game(seed))
    for seed in SEEDS[:40]:
        check_game(random_game(seed, expeditions=6))
        check_game(random_game(seed, reveal_draws=True))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), six=st.booleans(),
       skill=st.floats(0.0, 1.0, allow_nan=False))
def test_random_games_validate_round_trip_and_score(seed: int, six: bool, skill: float) -> None:
    check_game(random_game(seed, expeditions=6 if six else 5, skill=skill))


COMMENT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="{}\r"),
                  max_size=40).map(str.strip)
GLYPH = st.sampled_from(["!", "?", "!!", "??", "!?", "?!", "$0", "$14", "$255"])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_annotated_games_round_trip(seed: int, data: st.DataObject) -> None:
    game = random_game(seed)
    game.intro_comments = data.draw(st.lists(COMMENT, max_size=2))
    for turn in game.turns:
        turn.comments = data.draw(st.lists(COMMENT, max_size=2))
        turn.glyphs = data.draw(st.lists(GLYPH, max_size=2))
    text = lcn.write_game(game)
    again = lcn.read_game(text)
    assert again is not None and not again.diagnostics, [d.format() for d in again.diagnostics]
    assert again.intro_comments == game.intro_comments
    assert [t.comments for t in again.turns] == [t.comments for t in game.turns]
    assert lcn.write_game(again) == text
    assert validate_record(again).valid


def test_a_match_file_of_random_games() -> None:
    games = []
    totals = {"Ada": 0, "Bo": 0}
    first = ("Ada", "Bo")
    for number, seed in enumerate((301, 302, 303), 1):
        game = random_game(seed, names=first)
        game.tags["Match"] = "Ada vs Bo"
        game.tags["Game"] = str(number)
        scores = validate_record(game).score.totals
        totals[first[0]] += scores[0]
        totals[first[1]] += scores[1]
        first = ("Bo", "Ada") if totals["Bo"] > totals["Ada"] else ("Ada", "Bo")
        games.append(game)
    text = lcn.write_games(games)
    reports = list(validate_games(lcn.read_games(text)))
    assert all(r.valid and not r.diagnostics for r in reports)
    assert reports[-1].extra["match"]["totals"] == totals


def test_the_samples_are_valid_and_their_results_computed() -> None:
    samples = sorted((ROOT / "samples" / "classic").glob("*.lcn"))
    names = {s.name for s in samples}
    assert {"match.lcn", "six-expeditions.lcn", "annotated.lcn", "full-deal.lcn",
            "public-only.lcn", "one-player-view.lcn", "unfinished.lcn"} <= names
    kinds = set()
    for sample in samples:
        run = lcn.ValidationRun(sample)
        reports = list(run)
        assert reports and not run.file_diagnostics
        for report in reports:
            assert report.valid, (sample.name, [d.format() for d in report.diagnostics])
            tags = report.record.tags
            if report.over:
                assert report.record.termination == ":".join(map(str, report.score.totals))
            else:
                assert report.record.termination == "*"
                kinds.add("unfinished")
            if all(t in tags for t in ("Hand1", "Hand2", "Deck")):
                kinds.add("full deal")
            if not any(t in tags for t in ("Hand1", "Hand2", "Deck")):
                kinds.add("public")
            if ("Hand1" in tags) != ("Hand2" in tags) and "Deck" not in tags:
                kinds.add("one player's view")
            if tags.get("Expeditions") == "6":
                kinds.add("six expeditions")
            if "Match" in tags:
                kinds.add("match")
            commented = sum(bool(t.comments) for t in report.record.turns)
            if commented >= 10 and sum(bool(t.glyphs) for t in report.record.turns) >= 4:
                kinds.add("annotated")
    assert kinds == {"unfinished", "full deal", "public", "one player's view", "six expeditions",
                     "match", "annotated"}
    match = list(lcn.read_games(ROOT / "samples" / "classic" / "match.lcn"))
    assert [g.tags["Game"] for g in match] == ["1", "2", "3"]


def test_legal_moves_are_exactly_the_moves_the_rules_accept() -> None:
    """At sampled turns of random games, in every view: each move the engine lists applies
    without a problem, each other move of the game's cards breaks a rule, and the move
    played is listed."""
    variant = ClassicVariant()
    rng = random.Random(5)
    for seed in (1, 2, 3):
        full = random_game(seed)
        for view in (full, strip_deal(full), strip_deal(full, 0), strip_deal(full, 1)):
            state, _ = variant.setup(view)
            every = [ClassicMove(discard, card, draw) for card in sorted(set(CLASSIC_5.all_cards()))
                     for discard in (False, True) for draw in ("d", *CLASSIC_5.colours)]
            sampled = set(rng.sample(range(len(view.turns)), 8))
            for index, turn in enumerate(view.turns):
                move = parse_move(turn.text, CLASSIC_5)
                legal = variant.legal_moves(state)
                assert move._replace(drawn=None) in legal
                if index in sampled:
                    for candidate in every:
                        problems = variant.apply(variant.copy_state(state), candidate)
                        assert (candidate in legal) == (not problems), (seed, index, candidate)
                variant.apply(state, move)
            assert variant.legal_moves(state) == []


def test_validation_without_the_deal_takes_no_pass_over_the_cards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal-less check is linear (docs/hidden-information.md §8): each turn does a
    constant number of lookups, and the pass over the whole card set that deduces hidden
    cards (``unseen``) runs only for snapshots, never per turn of a plain validation."""
    calls: list[int] = []

    def counted(self: ClassicState) -> dict[str, int]:
        calls.append(self.turn)
        return original(self)

    original = ClassicState.unseen
    monkeypatch.setattr(ClassicState, "unseen", counted)
    for seed in range(20):
        full = random_game(seed)
        for view in (strip_deal(full), strip_deal(full, 0), strip_deal(full, 1)):
            assert validate_record(view).valid
    assert calls == []
    report = validate_record(strip_deal(random_game(0)), keep_snapshots=True)
    assert report.snapshots is not None and len(calls) >= len(report.snapshots)

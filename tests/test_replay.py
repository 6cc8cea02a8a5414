"""lcn.replay: the data every replay page and the API show, checked against the validator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import lcn
from lcn.replay import replay, replay_game, replay_text, summarize_text

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "samples").rglob("*.lcn"))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_sample_replays_to_the_validators_scores(path: Path) -> None:
    games = replay_text(path.read_text(encoding="utf-8"))
    reports = list(lcn.validate(path))
    assert len(games) == len(reports) >= 1
    for data, report in zip(games, reports, strict=True):
        assert data["valid"] == report.valid
        assert data["applied"] == len(data["positions"]) - 1 == len(data["running"]) - 1
        if report.complete:
            assert data["applied"] == len(report.record.turns)
            assert data["running"][-1] == report.score.totals
            assert data["scores"]["totals"] == report.score.totals
        # Each position's own scores agree with the running totals.
        for position, totals in zip(data["positions"], data["running"], strict=True):
            assert position["scores"] == totals
        json.dumps(data)  # JSON-ready as it is


def test_turns_carry_numbers_seats_glyphs_and_comments() -> None:
    text = ('[Player1 "Ada"]\n[Player2 "Bo"]\n\n{Before.} 1. R5/d! {Good.} R4/d?? 2. R6/d *\n')
    data = replay_text(text)[0]
    assert data["intro_comments"] == ["Before."]
    first, second, third = data["turns"]
    assert (first["index"], first["number"], first["numbered"], first["player"]) == (1, 1, True, 0)
    assert (second["number"], second["numbered"], second["player"]) == (1, False, 1)
    assert third["number"] == 2 and third["player"] == 0
    assert first["glyphs"] == ["!"] and first["comments"] == ["Good."]
    assert second["glyphs"] == ["??"]
    assert (first["line"], first["column"]) == (4, 14)
    assert data["termination"] == "*" and data["over"] is False
    assert data["tags"] == [["Player1", "Ada"], ["Player2", "Bo"]]


def test_a_rule_broken_is_reported_and_the_replay_goes_on() -> None:
    # B2 is discarded by Bo, so Ada cannot hold it on turn 3: an error, applied anyway.
    text = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. B2/d R4/d *\n'
    data = replay_text(text)[0]
    assert not data["valid"]
    assert any(d["turn"] == 3 for d in data["diagnostics"])
    assert data["applied"] == 4


def test_an_unreadable_turn_stops_the_replay_there() -> None:
    text = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d Q9/d 2. R6/d *\n'
    data = replay_text(text)[0]
    assert not data["valid"] and not data["complete"]
    assert data["applied"] == 1
    assert len(data["turns"]) == 3
    assert data["scores"] is None


def test_unknown_variant_has_no_positions() -> None:
    data = replay_text('[Variant "chess"]\n[Player1 "A"]\n[Player2 "B"]\n\ne4 *\n')[0]
    assert data["known_variant"] is False
    assert data["positions"] == [] and data["applied"] == 0
    assert data["diagnostics"][0]["code"] == "unknown-variant"


def test_replay_of_one_record_equals_the_files_first_game() -> None:
    path = next(p for p in SAMPLES if p.name == "rulebook-scoring.lcn" and p.parent.name == "classic")
    record = lcn.read_game(path)
    assert record is not None
    assert replay(record) == replay_text(path)[0]


def test_match_totals_run_across_the_games_of_a_file() -> None:
    path = Path(__file__).resolve().parent.parent / "samples" / "classic" / "match.lcn"
    games = replay_text(path)
    assert len(games) >= 2
    totals: dict[str, int] = {}
    for data in games:
        assert data["match"] is not None
        for name, points in zip(data["players"], data["scores"]["totals"], strict=True):
            totals[name] = totals.get(name, 0) + points
        assert data["match"]["totals"] == totals


def test_one_game_of_a_file_replays_as_in_the_whole_file() -> None:
    text = (Path(__file__).resolve().parent.parent / "samples" / "classic" / "match.lcn").read_text()
    games = replay_text(text)
    for index, data in enumerate(games, 1):
        assert replay_game(text, index) == data
    assert replay_game(text, len(games) + 1) is None


def test_summaries_list_a_files_games_without_positions() -> None:
    text = (Path(__file__).resolve().parent.parent / "samples" / "classic" / "match.lcn").read_text()
    games = replay_text(text)
    summaries = summarize_text(text)
    assert [s["index"] for s in summaries] == [g["index"] for g in games]
    for summary, data in zip(summaries, games, strict=True):
        assert summary["players"] == data["players"] and summary["line"] == data["line"]
        assert summary["valid"] == data["valid"] and summary["turns"] == len(data["turns"])
        assert summary["termination"] == data["termination"] and summary["match"] == data["match"]
        assert "positions" not in summary

"""The Rivals notation: turn grammar, player tokens, canonical form, diagnostics with their
place, and the rulebook's two examples written in LCN."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lcn import read_game, validate_record, write_game
from lcn.reader import RESULT_PATTERN
from lcn.validate import GameReport
from lcn.variants import MoveSyntaxError
from lcn.variants.rivals import VARIANT, format_move, parse_move, player_tokens
from lcn.variants.rivals_play import random_game

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples" / "rivals"
HEAD = ('[Variant "rivals"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Wagers1 "Rw Bw"]\n'
        '[Wagers2 "Gw Yw"]\n\n')


def check(text: str) -> GameReport:
    record = read_game(text)
    assert record is not None
    return validate_record(record, keep_snapshots=True)


def errors(report: GameReport) -> list[tuple[str, str | None, int | None, int | None, int | None]]:
    """(code, rule, line, column, turn) of every error."""
    return [(d.code, d.rule, d.line, d.column, d.turn) for d in report.diagnostics if d.is_error]


# -- parsing and writing ------------------------------------------------------------------


@pytest.mark.parametrize("text, canonical", [
    ("up:r7", "up:R7"),
    ("UP:gW>BOX", "up:Gw>box"),
    ("ada1 BO- Place:r4,R4 Box:gw Up:y7", "Ada1 Bo- place:R4,R4 box:Gw up:Y7"),
    ("P11 P2- up:R5", "Ada1 Bo- up:R5"),
    ("P1- P23 up:R5", "Ada- Bo3 up:R5"),
    ("Ada01 Bo- up:R5", "Ada1 Bo- up:R5"),
    ("up:W9 Share:3 REST:0", "up:W9 share:3 rest:0"),
])
def test_turns_are_read_leniently_and_written_canonically(text: str, canonical: str) -> None:
    assert format_move(parse_move(text, ["Ada", "Bo"])) == canonical


def test_player_tokens() -> None:
    assert player_tokens(["Sabrina", "Jonas", "Daniela", "Dominic"]) == [
        "Sabrina", "Jonas", "Daniela", "Dominic"]
    assert player_tokens(["Mary Ann", "Jean-Luc", "O'Neil"]) == ["MaryAnn", "JeanLuc", "ONeil"]
    assert player_tokens(["Player 1", "Player 2"]) == ["P1", "P2"]
    assert player_tokens(["P", "7", "Zoë", "R2D2"]) == ["P1", "P2", "Zoë", "P4"]
    assert player_tokens(["Ada", "ADA", "Bo"]) == ["P1", "P2", "Bo"]


def test_names_with_spaces_play_through_their_token() -> None:
    text = ('[Variant "rivals"]\n[Player1 "Mary Ann"]\n[Player2 "Player 2"]\n'
            '[Wagers1 "Rw Bw"]\n[Wagers2 "Gw Yw"]\n\n1. up:R5 2. P21 maryann2 P2- place:R5 up:R6 *\n')
    report = check(text)
    assert report.valid, [d.format() for d in report.diagnostics]
    record = read_game(text)
    assert record is not None
    assert "2. P21 MaryAnn2 P2- place:R5 up:R6" in write_game(record)


def test_written_words_never_look_like_numbers_terminations_or_comments() -> None:
    for seed in range(6):
        record = random_game(seed, players=2 + seed % 3)
        for turn in record.turns:
            for word in turn.text.split():
                assert word != "*" and not RESULT_PATTERN.fullmatch(word), word
                assert not re.match(r"\d+\.", word), word
                assert not set(word) & set("{};"), word


def test_a_turn_may_span_lines_and_keeps_its_comments_and_glyphs() -> None:
    text = HEAD + "1. up:R5 {first}\n2. Bo1\n   Ada- place:R5 up:R6!? {a bargain} *\n"
    report = check(text)
    assert report.valid
    record = read_game(text)
    assert record is not None
    assert write_game(record).endswith("1. up:R5 {first}\n2. Bo1 Ada- place:R5 up:R6!? {a bargain}\n*\n")


# -- diagnostics with their place ---------------------------------------------------------


def test_an_error_on_the_second_line_of_a_turn_points_there() -> None:
    text = HEAD + "1. up:R5\n2. Bo1 Ada-\n   place:R5 up:R11 *\n"
    assert errors(check(text)) == [("bad-card", "V-SETUP-CARDS", 9, 16, 2)]


def test_a_rule_error_points_at_the_card_inside_a_list() -> None:
    text = HEAD + "1. up:R5\n2. up:R4\n3. Ada1 Bo- place:R5,R4 up:R6 *\n"
    assert errors(check(text)) == [("not-ascending", "V-PLACE-ASCENDING", 9, 22, 3)]


def test_a_bid_error_points_at_the_bid() -> None:
    text = HEAD + "1. up:R5\n2. Bo3 Ada2 Bo- place:R5 up:R6 *\n"
    assert errors(check(text)) == [("bid-not-higher", "V-AUCTION-RAISE", 8, 8, 2)]


@pytest.mark.parametrize("turn, code, rule, column", [
    ("take:R5 up:R6", "move-syntax", "LCN-RIVALS-TURN", 4),
    ("up:R6 Bo1", "move-syntax", "LCN-RIVALS-TURN", 10),
    ("Bo1 Ada- up:R6 place:R5", "move-syntax", "LCN-RIVALS-TURN", 19),
    ("Bo1 Ada- place:R5 place:R6 up:R7", "move-syntax", "LCN-RIVALS-TURN", 22),
    ("up:R6 share:x", "move-syntax", "LCN-RIVALS-TURN", 16),
    ("share:1 up:R6", "move-syntax", "LCN-RIVALS-TURN", 4),
    ("up:R6>discard", "move-syntax", "LCN-RIVALS-TURN", 9),
    ("Bo1x Ada- up:R6", "move-syntax", "LCN-RIVALS-TURN", 4),
    ("Eve1 Ada- up:R6", "unknown-player", "LCN-RIVALS-PLAYER", 4),
    ("P31 Ada- up:R6", "unknown-player", "LCN-RIVALS-PLAYER", 4),
    ("3 Ada- up:R6", "unknown-player", "LCN-RIVALS-PLAYER", 4),
    ("Bo1 Ada- place:R5,,R6 up:R7", "bad-card", "V-SETUP-CARDS", 22),
    ("Bo1 Ada- place:R5 up:", "bad-card", "V-SETUP-CARDS", 25),
    ("Bo1 Ada-", "no-uncover", "V-AUCTION-UNCOVER", 12),
])
def test_syntax_errors_say_where_and_what(turn: str, code: str, rule: str, column: int) -> None:
    report = check(HEAD + f"1. up:R5\n2. {turn} *\n")
    found = errors(report)
    assert found == [(code, rule, 8, column, 2)], [d.format() for d in report.diagnostics]
    assert report.diagnostics[0].message


def test_a_missing_move_number_and_an_empty_turn_are_reported() -> None:
    report = check(HEAD + "up:R5 2. up:R6 3. 4. up:R7 *\n")
    codes = [(d.code, d.rule) for d in report.diagnostics if d.is_error]
    assert ("move-number", "LCN-MOVE-NUMBER") in codes
    assert ("move-syntax", "LCN-MOVE") in codes


def test_after_an_unreadable_turn_later_turns_are_still_read() -> None:
    report = check(HEAD + "1. up:R5\n2. Bo1 Ada- bogus:1 up:R6\n3. up:Q1 *\n")
    assert [(code, turn) for code, _, _, _, turn in errors(report)] == [
        ("move-syntax", 2), ("bad-card", 3)]
    assert not report.complete


WORDS = st.sampled_from([
    "up:R5", "up:R5>box", "up:Gw", "up:", "up:Z9", "Ada1", "Ada-", "Bo2", "Bo-", "P13", "P2-",
    "Eve1", "place:R5", "place:R5,G5", "place:", "box:G5", "box:R5", "share:1", "share:", "rest:0",
    "rest:x", "-", "3", "x:", ":", ">box", "Ada0", "Bo99", "up:R10", "place:Rw,Rw", "up:Y7",
])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(WORDS, max_size=8), max_size=12))
def test_any_turns_give_diagnostics_never_an_exception(turns: list[list[str]]) -> None:
    body = " ".join(f"{n}. {' '.join(words)}" for n, words in enumerate(turns, 1))
    text = HEAD + body + " *\n"
    report = check(text)
    for d in report.diagnostics:
        assert d.code and d.message and d.rule
        if d.turn is not None:
            assert d.line is not None and d.column is not None
    record = read_game(text)
    assert record is not None
    rewritten = write_game(record)
    again = read_game(rewritten)
    assert again is not None and write_game(again) == rewritten


# -- the rulebook's examples --------------------------------------------------------------


def _spec_block(title: str) -> str:
    spec = (ROOT / "docs" / "spec-rivals.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```\n(\[Event .*?)```", spec, re.S)
    return next(block for block in blocks if f'[Event "{title}"]' in block)


@pytest.mark.parametrize("source", ["spec", "sample"])
def test_rulebook_auction_example(source: str) -> None:
    text = (_spec_block("Rulebook auction example") if source == "spec"
            else (SAMPLES / "rulebook-auction.lcn").read_text(encoding="utf-8"))
    report = check(text)
    assert report.valid, [d.format() for d in report.diagnostics]
    assert report.players == ["Sabrina", "Jonas", "Daniela", "Dominic"]
    assert report.snapshots is not None
    before, after = report.snapshots[-2], report.snapshots[-1]
    assert before["next_player"] == 0  # Sabrina starts the auction
    assert sorted(before["display"]) == sorted(["W2", "Gw", "R4", "R4"])
    auction = after["auction"]
    assert [(b["player"], b["bid"]) for b in auction["bids"]] == [
        (0, 1), (1, None), (2, 2), (3, 3), (0, 4), (2, None), (3, 5), (0, None)]
    assert (auction["winner"], auction["price"]) == (3, 5)
    assert auction["placed"] == ["R4", "R4"] and auction["boxed"] == "Gw"
    assert after["expeditions"][3]["R"] == ["Rw", "R4", "R4"]
    assert after["gold"][3] == before["gold"][3] - 5 == 2
    assert after["supply"] == before["supply"] + 5 == 7
    assert after["box"] == ["Gw"] and after["display"] == ["W2", "Y7"]
    assert after["next_player"] == 0  # Sabrina, after Dominic, plays next


@pytest.mark.parametrize("source", ["spec", "sample"])
def test_rulebook_scoring_example(source: str) -> None:
    text = (_spec_block("Rulebook scoring example") if source == "spec"
            else (SAMPLES / "rulebook-scoring.lcn").read_text(encoding="utf-8"))
    report = check(text)
    assert report.valid, [d.format() for d in report.diagnostics]
    assert report.score is not None
    ada = report.score.breakdown[0]
    # Green 8 + 8, white 5 x 2, red 6 x 3 + 8, yellow 0, blue 4 x 5.
    assert ada == {"Y": 0, "B": 20, "W": 10, "G": 16, "R": 26, "gold": 10}
    assert sum(points for part, points in ada.items() if part != "gold") == 72
    steps = {e["colour"]: (e["footprints"], e["multiplier"], e["bonus"])
             for e in report.score.details[0]["expeditions"]}
    assert steps == {"Y": (0, 1, 0), "B": (4, 5, 0), "W": (5, 2, 0), "G": (8, 1, 8),
                     "R": (6, 3, 8)}
    assert report.score.totals[0] == 82


def test_spec_examples_are_the_samples_without_comments() -> None:
    for name, title in (("rulebook-auction", "Rulebook auction example"),
                        ("rulebook-scoring", "Rulebook scoring example")):
        sample = read_game(SAMPLES / f"{name}.lcn")
        spec = read_game(_spec_block(title))
        assert sample is not None and spec is not None
        assert [t.text for t in sample.turns] == [t.text for t in spec.turns]
        assert all(sample.tags.get(k) == v for k, v in spec.tags.items())


def test_parse_move_raises_only_move_syntax_errors() -> None:
    state, _ = VARIANT.setup(read_game(HEAD + "*\n"))  # type: ignore[arg-type]
    for text in ["", " ", "up", "up:R5 up:R6", "Ada1", "box:R5 up:R6", "Ada1 Bo- box:R5 box:R6 up:R7"]:
        with pytest.raises(MoveSyntaxError) as info:
            VARIANT.parse_move(state, text)
        assert info.value.message and info.value.rule

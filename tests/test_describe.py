"""Turns told in words (lcn.describe): each variant tells its own, in English and German."""

from __future__ import annotations

from pathlib import Path

import pytest

import lcn
from lcn.describe import TurnStory, card_name, describe_record, describe_text
from lcn.replay import replay_text
from lcn.variants import Variant, find_variant

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
CLASSIC = '[Player1 "Pia"]\n[Player2 "Sami"]\n\n1. R9/d xB2/d 2. Y3/B Rw/d *\n'


def test_classic_turns_name_the_card_and_the_pile() -> None:
    told = describe_text(CLASSIC)
    assert [str(t.line) for t in told.values()] == [
        "Pia places the red 9 and draws from the draw pile",
        "Sami discards the blue 2 and draws from the draw pile",
        "Pia places the yellow 3 and takes the blue 2 from the blue discard pile",
        "Sami places a red wager card and draws from the draw pile",
    ]
    assert told[2].marks == {"player": 1, "placed": "B2", "discarded": True, "from": "d",
                             "taken": None}
    assert told[3].marks["from"] == "B" and told[3].marks["taken"] == "B2"
    assert told[1].line.said_in("de") == "Pia legt Rot 9 an und zieht vom Nachziehstapel"
    assert told[2].line.said_in("de") == "Sami wirft Blau 2 ab und zieht vom Nachziehstapel"


def test_rivals_turns_name_the_winner_the_price_and_the_cards() -> None:
    told = describe_text(SAMPLES / "rivals" / "three-players.lcn")
    assert str(told[1].line) == "Lena uncovers the red 10"
    assert str(told[3].line) == ("Jun wins the auction for 3 gold, places a yellow wager card, "
                                 "uncovers the blue 2")
    assert told[3].marks["winner"] == 2 and told[3].marks["price"] == 3
    assert told[3].marks["placed"] == ["Yw"]
    assert told[3].line.said_in("de") == ("Jun gewinnt die Versteigerung für 3 Gold, legt eine "
                                          "Wettkarte Gelb an, deckt Blau 2 auf")


@pytest.mark.parametrize("path", sorted((SAMPLES / "rivals").glob("*.lcn")), ids=lambda p: p.stem)
def test_the_auction_told_is_the_one_the_engine_ran(path: Path) -> None:
    """Winner, price and cards as the position after the turn has them, on every sample."""
    replay = replay_text(path.read_text(encoding="utf-8"))[0]
    told = describe_text(path)
    auctions = 0
    for number, story in told.items():
        auction = replay["positions"][number]["auction"]
        if story.marks["auction"]:
            auctions += 1
            assert (auction["winner"], auction["price"], auction["placed"]) == \
                (story.marks["winner"], story.marks["price"], story.marks["placed"]), number
    assert auctions > 0


def test_roll_and_write_turns_tell_every_players_choice() -> None:
    told = describe_text(SAMPLES / "rollwrite" / "three-players.lcn")
    assert str(told[3].line) == ("Gus writes orange 2, shades an artefact; Ivo writes purple 4, "
                                 "accelerates purple; Tove writes purple 7, declines the "
                                 "acceleration")
    assert told[2].line.said_in("de") == ("Tove schreibt Orange 1, schraffiert ein Artefakt; "
                                          "Gus kreuzt den Kreis von Gelb an; Ivo kreuzt den "
                                          "Kreis von Gelb an")
    assert told[3].marks["choices"][1] == {"seat": 0, "kind": "write", "colour": "P",
                                           "value": 4, "accelerated": ["P"], "artefacts": 0}


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*/*.lcn")), ids=lambda p: p.stem)
def test_every_turn_of_every_sample_is_told_in_both_languages(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for index, record in enumerate(lcn.Reader(text), 1):
        report = lcn.validate_record(record, keep_running=True)
        applied = len(report.running or [1]) - 1
        told = describe_text(text, index)
        assert sorted(told)[:applied] == list(range(1, applied + 1))
        for number, story in told.items():
            english, german = str(story.line), story.line.said_in("de")
            assert english and german and english != german, (path.name, number)
            assert "{" not in english + german
            assert isinstance(story.marks.get("player"), int | None)


def test_a_window_of_turns_is_told_alone() -> None:
    record = lcn.read_game(CLASSIC)
    assert record is not None
    assert sorted(describe_record(record, range(2, 4))) == [2, 3]
    assert describe_text(CLASSIC, game=2) == {}


def test_the_telling_stops_at_a_turn_that_cannot_be_read() -> None:
    told = describe_text('[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d Q9/d 2. R6/d *\n')
    assert list(told) == [1]


def test_a_variant_that_tells_nothing_more_says_who_played_what() -> None:
    """The base class's telling: a new variant is told without a change to lcn.describe."""
    variant = find_variant("classic")
    assert variant is not None
    record = lcn.read_game(CLASSIC)
    assert record is not None
    state, _ = variant.setup(record)
    move = variant.parse_move(state, "R9/d")
    story = Variant.describe_move(variant, state, move, ["Pia", "Sami"])
    assert isinstance(story, TurnStory)
    assert str(story.line) == "Pia plays R9/d" and story.marks == {"player": 0}
    assert story.line.said_in("de") == "Pia spielt R9/d"


def test_cards_have_their_full_names() -> None:
    assert [str(card_name(c)) for c in ("R5", "Gw", "P10")] == ["red 5", "green wager", "purple 10"]
    assert card_name("Y7").said_in("de") == "Gelb 7"

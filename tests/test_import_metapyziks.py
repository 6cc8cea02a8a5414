"""Metapyziks game strings (version 3): read to the byte layout of GameString.cs, written back."""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lcn import validate_record, write_game
from lcn.importers import ImportError_, export_records, houserules, import_text
from lcn.importers.metapyziks import CODES, decode
from lcn.model import GameRecord, Tags, Turn
from lcn.variants.classic import CLASSIC_5, CLASSIC_6, ClassicConfig, parse_cards
from lcn.variants.classic_play import random_game

#: The tags a game string carries; the rest (names, event, date) it has no room for.
CARRIED = ("Expeditions", "Hand1", "Hand2", "Deck", "Result")


def card_byte(card: str) -> int:
    return CODES[card[0]] << 4 | (0 if card[1] == "w" else int(card[1:]))


def cards(items: list[str]) -> bytes:
    return bytes([len(items)] + [card_byte(c) for c in items])


def game_string(deck: list[str], hand1: list[str], hand2: list[str], actions: list[int], *,
                colours: int = 5, winner: int = 0, disqualified: int = 0, first: int = 1,
                scores: tuple[int, int] = (0, 0), discards: tuple[str, ...] = (),
                version: int = 3) -> str:
    """A game string laid out byte by byte as GameString.Encode writes it."""
    data = bytes([version, colours, winner, disqualified])
    if disqualified:
        data += struct.pack("<ii", *scores)
    data += bytes([first]) + cards(deck) + cards(list(discards)) + cards([]) + cards(hand1)
    data += cards([]) + cards(hand2) + struct.pack("<i", len(actions)) + bytes(actions)
    return base64.b64encode(data).decode()


def deal(config: ClassicConfig = CLASSIC_5) -> tuple[list[str], list[str], list[str]]:
    """A fixed deal: hands in a chosen order, the rest of the deck in colour order."""
    hand1 = ["Rw", "R2", "Rw", "G5", "B3", "W4", "Y6", "R9"]
    hand2 = ["G2", "G3", "Gw", "B8", "W9", "Y2", "Y3", "Bw"]
    rest = config.all_cards()
    for card in hand1 + hand2:
        rest.remove(card)
    return rest, hand1, hand2


def carried(record: GameRecord) -> tuple[list[tuple[str, str]], list[str], str | None]:
    return ([(n, v) for n, v in record.tags.items() if n in CARRIED],
            [t.text for t in record.turns], record.termination)


# -- reading to the specification --------------------------------------------------------
def test_a_string_written_to_the_layout_reads_as_its_game() -> None:
    deck, hand1, hand2 = deal()
    # P1 plays hand[1] (R2) and draws the deck's LAST card; P2 discards hand[3] (B8), draws;
    # P1 discards hand[0] (Rw) and takes the blue pile (B8).
    actions = [0x01, 0x08 | 3, 0x08 | 0 | 3 << 4]
    text = game_string(deck, hand1, hand2, actions)
    result = import_text(text)
    assert result.format == "metapyziks" and result.valid, [d.format() for d in result.diagnostics]
    record = result.records[0]
    assert record.tags["Player1"] == "Player 1" and record.tags["Player2"] == "Player 2"
    assert record.tags["Hand1"] == " ".join(hand1) and record.tags["Hand2"] == " ".join(hand2)
    assert record.tags["Deck"].split() == list(reversed(deck))  # drawn from the end
    assert [t.text for t in record.turns] == ["R2/d", "xB8/d", "xRw/B"]
    assert record.termination == "*" and "Expeditions" not in record.tags


def test_hand_indexes_follow_the_runner_list_rules() -> None:
    """The played card leaves the hand as its FIRST equal card; the drawn one goes last."""
    deck, hand1, hand2 = deal()
    drawn = deck[-1]
    # P1 names index 2 (the second Rw): the runner removes the first Rw, so the hand becomes
    # R2 Rw G5 B3 W4 Y6 R9 <drawn>. P1's next action names index 7: the card just drawn.
    actions = [0x02, 0x08 | 0, 0x08 | 7]
    record = import_text(game_string(deck, hand1, hand2, actions)).records[0]
    assert [t.text for t in record.turns] == ["Rw/d", "xG2/d", f"x{drawn}/d"]


def test_player_two_moving_first_becomes_lcn_player1() -> None:
    deck, hand1, hand2 = deal()
    result = import_text(game_string(deck, hand1, hand2, [0x08 | 2], first=2))
    record = result.records[0]
    assert record.tags["Player1"] == "Player 2" and record.tags["Hand1"] == " ".join(hand2)
    assert [t.text for t in record.turns] == ["xGw/d"]
    assert any(d.code == "seats-swapped" for d in result.diagnostics)


def test_six_colours() -> None:
    deck, hand1, hand2 = deal(CLASSIC_6)
    record = import_text(game_string(deck, hand1, hand2, [0x00], colours=6)).records[0]
    assert record.tags["Expeditions"] == "6" and len(record.tags["Deck"].split()) == 56


def test_disqualification_ends_the_record_and_keeps_the_scores_in_a_note() -> None:
    deck, hand1, hand2 = deal()
    text = game_string(deck, hand1, hand2, [0x01], disqualified=2, winner=1, scores=(-18, 0))
    result = import_text(text)
    assert result.records[0].termination == "*"
    (note,) = [d for d in result.diagnostics if d.code == "disqualified"]
    assert "Player 2 was disqualified after 1 actions" in note.message and "-18" in note.message


def test_viewer_links_runner_json_and_several_strings() -> None:
    a, b = random_game(31), random_game(32)
    strings = export_records([a, b], "metapyziks").text.split()
    link = f"  https://metapyziks.github.io/lost-cities/#{strings[0]}\n\n{strings[1]}\n"
    assert [carried(r) for r in import_text(link).records] == [carried(a), carried(b)]
    runner = json.dumps({"Summaries": [{"Config": {}, "Replay": s}
                                       for s in strings], "Results": None}, indent=2)
    assert [carried(r) for r in import_text(runner).records] == [carried(a), carried(b)]


# -- both ways ---------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=100_000), six=st.booleans())
def test_lcn_to_metapyziks_to_lcn_is_unchanged(seed: int, six: bool) -> None:
    game = random_game(seed, expeditions=6 if six else 5)
    text = export_records([game], "metapyziks").text
    result = import_text(text, "metapyziks")
    assert result.valid
    assert carried(result.records[0]) == carried(game)
    # The string decodes to the fresh deal the game started from.
    fields = decode(text.strip())
    config = CLASSIC_6 if six else CLASSIC_5
    assert fields.version == 3 and fields.first == 1 and fields.colours == len(config.colours)
    assert fields.deck == list(reversed(parse_cards(game.tags["Deck"], config)))
    assert len(fields.actions) == len(game.turns)


def test_an_unfinished_game_goes_both_ways() -> None:
    game = random_game(8)
    game.turns = game.turns[:17]
    game.termination = "*"
    game.tags["Result"] = "*"
    result = import_text(export_records([game], "metapyziks").text)
    assert carried(result.records[0]) == carried(game)
    assert any(d.code == "unfinished" for d in result.diagnostics)


def test_written_strings_name_the_official_winner_and_the_runner_winner_is_a_house_rule() -> None:
    seed = next((s for s in range(2000) if _flips(s)), None)
    assert seed is not None, "no game where the 8-card bonus changes the winner"
    game = random_game(seed)
    official = houserules.winner(validate_record(game).score.totals)
    text = export_records([game], "metapyziks").text.strip()
    assert decode(text).winner == official + 1
    again = import_text(text).records[0]
    assert "HouseRules" not in again.tags and carried(again) == carried(game)
    # The runner itself scores without the bonus and names the other player.
    raw = bytearray(base64.b64decode(text))
    raw[2] = (1 - official) + 1
    result = import_text(base64.b64encode(bytes(raw)).decode())
    record = result.records[0]
    assert record.tags["HouseRules"] == houserules.NO_BONUS
    assert record.termination == game.termination  # the official result stays
    (note,) = [d for d in result.diagnostics if d.code == "house-rule"]
    assert note.rule == "C-SCORE-BONUS" and "without the 8-card bonus" in note.message
    assert result.valid


def test_a_winner_no_rule_explains_is_reported() -> None:
    game = random_game(5)
    text = export_records([game], "metapyziks").text.strip()
    raw = bytearray(base64.b64decode(text))
    official = houserules.winner(validate_record(game).score.totals)
    raw[2] = 0 if official is not None else 1
    result = import_text(base64.b64encode(bytes(raw)).decode())
    assert any(d.code == "winner-mismatch" for d in result.diagnostics)
    assert "HouseRules" not in result.records[0].tags


def _flips(seed: int) -> bool:
    report = validate_record(random_game(seed))
    return houserules.winner(report.score.totals) != houserules.winner(
        houserules.scores_without_bonus(report.state))


def test_games_that_cannot_be_written_say_why() -> None:
    no_deal = GameRecord(tags=Tags({"Player1": "A", "Player2": "B"}), turns=[Turn("R5/d")])
    broken = random_game(4)
    broken.turns[2] = Turn("Q5/d")
    rivals = GameRecord(tags=Tags({"Variant": "rivals"}))
    result = export_records([no_deal, broken, rivals], "metapyziks")
    messages = [d.message for d in result.diagnostics]
    assert result.text == "" and len(messages) == 3
    assert "needs the whole deal" in messages[0] and "no Hand1 or Hand2 or Deck tag" in messages[0]
    assert "breaks the rules (turn 3)" in messages[1]
    assert "a rivals game" in messages[2]


# -- damaged strings ----------------------------------------------------------------------
def _damaged(text: str) -> ImportError_:
    with pytest.raises(ImportError_) as caught:
        import_text(text, "metapyziks")
    assert caught.value.diagnostics
    return caught.value


@pytest.mark.parametrize("make, message", [
    (lambda d, h1, h2: game_string(d, h1, h2, [], version=2), "version 2 game strings"),
    (lambda d, h1, h2: game_string(d, h1, h2, [], colours=7), "a game of 7 colours"),
    (lambda d, h1, h2: game_string(d, h1, h2, [], first=0), "the player to move first is 0"),
    (lambda d, h1, h2: game_string(d, h1, h2, [], winner=3), "the winner is 3"),
    (lambda d, h1, h2: game_string(d[1:], h1, h2, [], discards=(d[0],)), "already on the table"),
    (lambda d, h1, h2: game_string(d[:-1], h1, h2, []), "a fresh deal has 8, 8 and 44"),
    (lambda d, h1, h2: game_string([h1[1], *d[1:]], h1, h2, []), "R2 too often"),
    (lambda d, h1, h2: game_string(d, h1, h2, [0x08 | 2 << 4]), "draws from the green discard pile, "
                                                                 "which is empty"),
    (lambda d, h1, h2: game_string(d, h1, h2, [0x08 | 6 << 4]), "draws from discard pile 6"),
    (lambda d, h1, h2: game_string(d, h1, h2, [0x08] * 45), "action 45 comes after the last card"),
])
def test_damaged_strings_are_refused_with_the_reason(
        make: Callable[[list[str], list[str], list[str]], str], message: str) -> None:
    deck, hand1, hand2 = deal()
    error = _damaged(make(deck, hand1, hand2))
    assert message in str(error), str(error)
    assert error.diagnostics[0].line == 1


def test_truncated_and_non_base64_strings_name_the_place() -> None:
    deck, hand1, hand2 = deal()
    whole = game_string(deck, hand1, hand2, [0x00, 0x08])
    raw = base64.b64decode(whole)
    cut = base64.b64encode(raw[:30]).decode()
    error = _damaged(f"\n{whole}\n{cut}\n")
    (problem,) = error.diagnostics
    assert problem.line == 3 and "in the middle of the deck" in problem.message
    error = _damaged("AwUAAAE$$$notbase64")
    assert "not base64" in str(error)
    bad_card = bytearray(raw)
    bad_card[6] = 0x71  # the second card of the deck: colour 7
    error = _damaged(base64.b64encode(bytes(bad_card)).decode())
    assert "byte 0x71 in the deck" in str(error)
    assert error.diagnostics[0].column == 6 * 4 // 3 + 1


def test_extra_bytes_after_the_actions_are_reported_not_lost_silently() -> None:
    deck, hand1, hand2 = deal()
    raw = base64.b64decode(game_string(deck, hand1, hand2, [0x00])) + b"\x00\x01"
    result = import_text(base64.b64encode(raw).decode())
    assert any(d.code == "not-carried" and "2 bytes" in d.message for d in result.diagnostics)


def test_the_full_lcn_text_survives_except_what_the_string_cannot_hold() -> None:
    game = random_game(12)
    back = import_text(export_records([game], "metapyziks").text).records[0]
    for name in ("Event", "Site", "Date"):
        del game.tags[name]
    game.tags["Player1"], game.tags["Player2"] = "Player 1", "Player 2"
    assert write_game(back) == write_game(game)

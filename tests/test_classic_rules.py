"""Every rule of ``seeds/classic.md``, each with a legal and an illegal case.

Each test names the rule it checks with ``@legal`` or ``@illegal``; the last test reads the
digest and fails if one of its rule IDs lacks either kind of case. An illegal case checks the
diagnostic's code, the rule it cites and the turn it points at; a legal case checks that the
record validates (and, where the rule is about what happens, that it happens).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner
from lcn_cli.main import cli

import lcn
from lcn.diagnostics import Severity
from lcn.model import GameRecord
from lcn.validate import GameReport, validate_games, validate_record
from lcn.variants.classic import CLASSIC_5, CLASSIC_6, ClassicConfig, score_expedition
from lcn.variants.classic_play import random_game

ROOT = Path(__file__).resolve().parent.parent
DIGEST = ROOT / "seeds" / "classic.md"

LEGAL: dict[str, list[str]] = {}
ILLEGAL: dict[str, list[str]] = {}


def legal(*rules: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Marks a test as a legal case of the rules (the coverage test counts it)."""
    def mark(test: Callable[..., None]) -> Callable[..., None]:
        for rule in rules:
            LEGAL.setdefault(rule, []).append(test.__name__)
        return test
    return mark


def illegal(*rules: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Marks a test as an illegal case of the rules (the coverage test counts it)."""
    def mark(test: Callable[..., None]) -> Callable[..., None]:
        for rule in rules:
            ILLEGAL.setdefault(rule, []).append(test.__name__)
        return test
    return mark


# -- helpers -------------------------------------------------------------------------------
def deal(hand1: str, hand2: str, top: str = "", config: ClassicConfig = CLASSIC_5) -> dict[str, str]:
    """Deal tags: two hands, and a draw pile starting with ``top`` (the rest in card order)."""
    rest = Counter(config.all_cards()) - Counter(hand1.split() + hand2.split() + top.split())
    deck = top.split() + [card for card in config.all_cards() if rest[card] and not rest.subtract([card])]
    return {"Hand1": hand1, "Hand2": hand2, "Deck": " ".join(deck)}


def record(movetext: str, tags: dict[str, str] | None = None, termination: str = "*") -> str:
    """The text of a game between Ada and Bo."""
    head = {"Player1": "Ada", "Player2": "Bo", **(tags or {})}
    lines = [f'[{name} "{value}"]' for name, value in head.items()]
    return "\n".join(lines) + f"\n\n{movetext} {termination}\n"


def check(text: str) -> GameReport:
    game = lcn.read_game(text)
    assert game is not None
    return validate_record(game)


def errors(report: GameReport) -> list[tuple[str, str | None, int | None]]:
    """(code, rule, turn) of every error, in order."""
    return [(d.code, d.rule, d.turn) for d in report.diagnostics if d.is_error]


def warnings(report: GameReport) -> list[tuple[str, str | None]]:
    return [(d.code, d.rule) for d in report.diagnostics if d.severity is Severity.WARNING]


def valid(text: str) -> GameReport:
    report = check(text)
    assert report.valid, [d.format() for d in report.diagnostics]
    return report


#: Ada's and Bo's hands for most full-deal cases.
HANDS = deal("R3 R5 R7 Rw Y4 Y9 B2 Gw", "R9 W2 W5 W8 Ww G3 G6 B10", top="Y2 Y3 Y5 Y6")


# -- cards and setup -------------------------------------------------------------------------
@legal("C-SETUP-CARDS")
def test_every_card_of_the_game_can_be_named() -> None:
    names = [f"{colour}{value}" for colour in CLASSIC_5.colours for value in range(2, 11)]
    names += [colour + "w" for colour in CLASSIC_5.colours]
    report = valid(record(" ".join(f"x{card}/d" for card in names[:44])))
    assert report.state.piles["R"] == ["R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9"]
    report = valid(record(" ".join(f"x{card}/d" for card in names[44:])))
    assert report.state.piles["R"] == ["R10", "Rw"] and report.state.piles["Y"] == ["Yw"]


@illegal("C-SETUP-CARDS")
def test_cards_not_in_the_game() -> None:
    for card, column in (("R11", 4), ("Q5", 4), ("R1", 4), ("R0", 4), ("P5", 4), ("R05", 4)):
        report = check(record(f"1. {card}/d"))
        assert errors(report) == [("bad-card", "C-SETUP-CARDS", 1)], card
        assert report.diagnostics[0].column == column and report.diagnostics[0].line == 4
    assert errors(check(record("1. R5/d xB11/d"))) == [("bad-card", "C-SETUP-CARDS", 2)]


@legal("C-SETUP-SIXTH")
def test_six_expeditions_add_purple_and_a_longer_draw_pile() -> None:
    game = random_game(3, expeditions=6)
    report = valid(lcn.write_game(game))
    assert report.over and report.state.config == CLASSIC_6
    draws = sum(t.text.endswith("/d") for t in game.turns)
    assert draws == 56 == CLASSIC_6.pile_size and CLASSIC_6.total_cards == 72
    assert set(report.score.breakdown[0]) == set("YBWGRP")
    valid(record("1. xP5/d P6/P", {"Expeditions": "6"}))


@illegal("C-SETUP-SIXTH")
def test_expeditions_must_be_five_or_six() -> None:
    report = check(record("1. R5/d", {"Expeditions": "7"}))
    assert errors(report) == [("tag-value", "C-SETUP-SIXTH", None)]
    assert report.diagnostics[0].line == 3
    # Five expeditions are then assumed: purple is not in the game.
    assert ("bad-card", "C-SETUP-CARDS", 1) in errors(check(record("1. P5/d", {"Expeditions": "7"})))
    # A six-expedition deal in a five-expedition record.
    six = deal("P2 P3 P4 P5 P6 P7 P8 P9", "R2 R3 R4 R5 R6 R7 R8 R9", config=CLASSIC_6)
    assert ("deal-invalid", "C-SETUP-DEAL", None) in errors(check(record("1. P2/d", six)))


@legal("C-SETUP-PLAYERS")
def test_two_named_players() -> None:
    report = valid(record("1. R5/d"))
    assert report.players == ["Ada", "Bo"] and not report.diagnostics


@illegal("C-SETUP-PLAYERS")
def test_a_third_player_or_a_missing_name() -> None:
    report = check(record("1. R5/d", {"Player3": "Cy"}))
    assert errors(report) == [("player-count", "C-SETUP-PLAYERS", None)]
    nameless = check('[Player1 "Ada"]\n\n1. R5/d *\n')
    assert nameless.valid and warnings(nameless) == [("missing-tag", "C-SETUP-PLAYERS")]
    assert nameless.players == ["Ada", "Player 2"]


@legal("C-SETUP-DEAL")
def test_a_complete_deal_and_a_partial_one() -> None:
    valid(record("1. R3/d R9/d", HANDS))
    valid(record("1. R3/d R9/d", {"Hand1": HANDS["Hand1"]}))
    valid(record("1. R3/d R9/d", {"Deck": HANDS["Deck"]}))


@illegal("C-SETUP-DEAL")
def test_hands_and_draw_piles_of_the_wrong_size() -> None:
    short = dict(HANDS, Hand1="R3 R5 R7 Rw Y4 Y9 B2")
    assert errors(check(record("1. R3/d", short)))[0] == ("deal-invalid", "C-SETUP-DEAL", None)
    long_deck = dict(HANDS, Deck=HANDS["Deck"] + " Y2")
    assert ("deal-invalid", "C-SETUP-DEAL", None) in errors(check(record("1. R3/d", long_deck)))
    bad = dict(HANDS, Hand2="R9 W2 W5 W8 Ww G3 G6 B11")
    report = check(record("1. R3/d", bad))
    assert ("deal-invalid", "C-SETUP-DEAL", None) in errors(report)
    assert any("B11" in d.message for d in report.diagnostics)


@legal("C-CARD-UNIQUE")
def test_three_wagers_of_a_colour() -> None:
    valid(record("1. Rw/d Gw/d 2. Rw/d xGw/d 3. Rw/d xGw/d"))
    valid(record("1. xR5/d W2/R 2. Y3/d R5/d"))  # the same R5 changes places


@illegal("C-CARD-UNIQUE")
def test_a_card_in_two_places() -> None:
    twice = dict(HANDS, Hand2="R3 W2 W5 W8 Ww G3 G6 B10")
    assert ("deal-invalid", "C-CARD-UNIQUE", None) in errors(check(record("1. R5/d", twice)))
    assert errors(check(record("1. R5/d R5/d"))) == [("card-elsewhere", "C-CARD-UNIQUE", 2)]
    report = check(record("1. Rw/d Rw/d 2. xRw/d xRw/d"))
    assert errors(report) == [("card-elsewhere", "C-CARD-UNIQUE", 4)]
    assert "all 3 red wager cards" in report.diagnostics[0].message
    # A card in the other hand, known from the deal.
    report = check(record("1. R3/d G6/d 2. R5/d R7/d", HANDS))
    assert errors(report) == [("card-elsewhere", "C-CARD-UNIQUE", 4)]
    assert "in Ada's hand" in report.diagnostics[0].message


# -- turns -----------------------------------------------------------------------------------
@legal("C-TURN-ORDER")
def test_player1_begins_and_the_players_alternate() -> None:
    report = valid(record("1. R3/d R9/d 2. R5/d 2... W2/d 3. Y4/d? W5/d", HANDS))
    assert report.state.expeditions[0]["R"] == ["R3", "R5"]
    assert report.state.expeditions[1]["R"] == ["R9"]
    assert report.state.expeditions[0]["Y"] == ["Y4"] and report.state.expeditions[1]["W"] == ["W2", "W5"]


@illegal("C-TURN-ORDER")
def test_a_turn_by_the_wrong_player() -> None:
    # Bo's card written as the first turn: with the deal known it is in the other hand.
    report = check(record("1. R9/d R3/d", HANDS))
    assert errors(report)[0] == ("card-elsewhere", "C-CARD-UNIQUE", 1)
    assert "in Bo's hand" in report.diagnostics[0].message
    # Move numbers that give the second turn to Player1.
    report = check(record("1. R3/d 2. R9/d", HANDS))
    assert errors(report) == [("move-number", "LCN-MOVE-NUMBER", 2)]


@legal("C-TURN-PLACE-THEN-DRAW")
def test_a_turn_places_then_draws() -> None:
    report = valid(record("1. xR3/d R9/R", HANDS))
    # Ada's R3 went onto the red pile, then she drew Y2; Bo placed R9, then took R3.
    assert report.state.known[0].get("Y2") == 1 and report.state.known[1].get("R3") == 1
    assert report.state.piles["R"] == [] and report.state.expeditions[1]["R"] == ["R9"]


@illegal("C-TURN-PLACE-THEN-DRAW")
def test_a_turn_without_its_placement_or_its_draw() -> None:
    for text, code, column in (("R3", "move-syntax", 6), ("xR3", "move-syntax", 7),
                               ("R3/", "bad-draw", 6), ("/d", "move-syntax", 4),
                               ("x/d", "move-syntax", 5)):
        report = check(record(f"1. {text}"))
        assert errors(report) == [(code, "C-TURN-PLACE-THEN-DRAW", 1)], text
        assert report.diagnostics[0].column == column, text
    assert "places a card but draws none" in check(record("1. R3")).diagnostics[0].message
    assert "without placing a card" in check(record("1. /d")).diagnostics[0].message
    # Not even a card: the notation's own rule.
    assert errors(check(record("1. Hello"))) == [("move-syntax", "LCN-MOVE", 1)]


@legal("C-HAND-CARD")
def test_a_card_from_the_known_hand() -> None:
    valid(record("1. R3/d R9/d 2. R5/d W2/d 3. Y2/d W5/d", HANDS))  # Y2 was drawn at turn 1


@illegal("C-HAND-CARD")
def test_a_card_not_in_the_known_hand() -> None:
    report = check(record("1. R4/d", {"Hand1": HANDS["Hand1"]}))
    assert errors(report) == [("not-in-hand", "C-HAND-CARD", 1)]
    assert report.diagnostics[0].message == (
        "R4 is not in Ada's hand (the hand is Y4 Y9 B2 Gw Rw R3 R5 R7)")
    # A card still in the draw pile, by the Deck tag: Ada draws Y2 only at turn 1.
    report = check(record("1. Y3/d", HANDS))
    assert errors(report) == [("not-in-hand", "C-HAND-CARD", 1)]
    assert "Deck" in report.diagnostics[0].message


#: Ada's hand is known, Bo's is not, and nobody draws blind from the draw pile: Bo reveals
#: his eight starting cards (B2..B9) while taking Ada's discards (Y2..Y9).
EXCHANGE = " ".join(f"x{y}/d B{b}/Y" for y, b in zip(
    ["Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9"], range(2, 10), strict=True))


@legal("C-HAND-COUNT")
def test_unknown_cards_within_the_hand() -> None:
    tags = {"Hand1": "Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9"}
    report = valid(record(EXCHANGE + " xR2/d xY2/R", tags))
    assert report.state.unknown[1] == 0
    assert report.state.knowledge(1)["known"] == ["Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "R2"]


@illegal("C-HAND-COUNT")
def test_a_ninth_unknown_card() -> None:
    tags = {"Hand1": "Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9"}
    report = check(record(EXCHANGE + " xR2/d B10/R", tags))
    assert errors(report) == [("too-many-unknown", "C-HAND-COUNT", 18)]
    assert "8 starting cards" in report.diagnostics[0].message


# -- placing ---------------------------------------------------------------------------------
@legal("C-PLACE-OWN-COLUMN")
def test_a_card_goes_to_the_end_of_its_own_column() -> None:
    # Bo's R9 does not stop Ada's lower red cards: each player has their own columns.
    report = valid(record("1. R3/d R9/d 2. R5/d W2/d", HANDS))
    assert report.state.expeditions[0]["R"] == ["R3", "R5"]
    assert report.state.expeditions[1]["R"] == ["R9"]
    assert report.score.breakdown[0]["R"] == 8 - 20 and report.score.breakdown[1]["R"] == 9 - 20


@illegal("C-PLACE-OWN-COLUMN")
def test_a_column_cannot_be_chosen() -> None:
    # The column is the card's colour: there is no way to write another one.
    for text in ("R3B/d", "R3>B/d", "R3:W/d"):
        report = check(record(f"1. {text}", HANDS))
        assert [(e[0], e[2]) for e in errors(report)] == [("bad-card", 1)], text


@legal("C-PLACE-ASCENDING")
def test_ascending_with_gaps() -> None:
    report = valid(record("1. R3/d R9/d 2. R7/d W2/d", HANDS))
    assert report.state.expeditions[0]["R"] == ["R3", "R7"]


@illegal("C-PLACE-ASCENDING")
def test_a_lower_card_after_a_higher_one() -> None:
    report = check(record("1. R7/d R9/d 2. R5/d W2/d", HANDS))
    assert errors(report) == [("not-ascending", "C-PLACE-ASCENDING", 3)]
    assert report.diagnostics[0].message.startswith("R5 cannot follow R7 in Ada's red expedition")
    assert (report.diagnostics[0].line, report.diagnostics[0].column) == (7, 17)


@legal("C-PLACE-WAGER-FIRST")
def test_wagers_then_numbers() -> None:
    report = valid(record("1. Rw/d Gw/d 2. Rw/d xGw/d 3. R2/d W2/d"))
    assert report.state.expeditions[0]["R"] == ["Rw", "Rw", "R2"]


@illegal("C-PLACE-WAGER-FIRST")
def test_a_wager_after_a_number_card() -> None:
    report = check(record("1. R3/d R9/d 2. Rw/d W2/d", HANDS))
    assert errors(report) == [("wager-after-number", "C-PLACE-WAGER-FIRST", 3)]


@legal("C-DISCARD-COLOUR")
def test_a_discard_goes_to_its_colour_s_pile() -> None:
    report = valid(record("1. xY4/d xB10/d 2. xY9/d", HANDS))
    assert report.state.piles["Y"] == ["Y4", "Y9"] and report.state.piles["B"] == ["B10"]
    # Any card may be discarded, even one that could be placed.
    valid(record("1. xR3/d R9/d 2. R5/d", HANDS))


@illegal("C-DISCARD-COLOUR")
def test_a_discard_is_on_no_other_pile() -> None:
    report = check(record("1. xR3/d W2/B", HANDS))
    assert errors(report) == [("draw-empty-pile", "C-DRAW-PILE", 2)]


# -- drawing ---------------------------------------------------------------------------------
@legal("C-DRAW-SOURCE")
def test_draw_pile_or_a_discard_pile() -> None:
    report = valid(record("1. xR3/d R9/R 2. xY4/d xW2/Y", HANDS))
    assert report.state.cards_left == 44 - 2
    valid(record("1. xP5/d P6/P", {"Expeditions": "6"}))


@illegal("C-DRAW-SOURCE")
def test_unknown_draws() -> None:
    for text, column in (("R3/q", 6), ("R3/P", 7), ("R3/dd", 6), ("R3/GG", 6), ("R3/d=", 9)):
        report = check(record(f"1. {text}"))
        assert [(e[0], e[2]) for e in errors(report)] == [("bad-draw" if text != "R3/d=" else
                                                            "move-syntax", 1)], text
        assert report.diagnostics[0].column == column, text
    assert errors(check(record("1. R3/q")))[0][1] == "C-DRAW-SOURCE"


@legal("C-DRAW-PILE")
def test_a_discard_pile_s_top_card() -> None:
    report = valid(record("1. xR3/d xR9/d 2. R5/R", HANDS))
    assert report.state.known[0].get("R9") == 1 and report.state.piles["R"] == ["R3"]


@illegal("C-DRAW-PILE")
def test_an_empty_discard_pile() -> None:
    report = check(record("1. R3/G", HANDS))
    assert errors(report) == [("draw-empty-pile", "C-DRAW-PILE", 1)]
    assert "green discard pile: it is empty" in report.diagnostics[0].message


@legal("C-DRAW-NOT-JUST-DISCARDED")
def test_an_earlier_discard_may_be_taken_back() -> None:
    report = valid(record("1. xR3/d W2/d 2. R5/R", HANDS))
    assert report.state.known[0].get("R3") == 1


@illegal("C-DRAW-NOT-JUST-DISCARDED")
def test_the_card_just_discarded() -> None:
    report = check(record("1. xR3/R", HANDS))
    assert errors(report) == [("draw-just-discarded", "C-DRAW-NOT-JUST-DISCARDED", 1)]
    # Also when the pile held cards before.
    report = check(record("1. xR3/d xR9/R", HANDS))
    assert errors(report) == [("draw-just-discarded", "C-DRAW-NOT-JUST-DISCARDED", 2)]


@legal("C-DRAW-DECK")
def test_the_draw_pile_gives_its_top_card() -> None:
    report = valid(record("1. R3/d=Y2 R9/d=Y3 2. Y2/d", HANDS))
    assert report.state.known[1].get("Y3") == 1
    # Without the Deck tag a written draw only needs to be a card that can be there.
    valid(record("1. R3/d=Y2 R9/d", {"Hand1": HANDS["Hand1"]}))


@illegal("C-DRAW-DECK")
def test_a_written_draw_that_is_not_the_top_card() -> None:
    report = check(record("1. R3/d=Y3", HANDS))
    assert errors(report) == [("draw-mismatch", "C-DRAW-DECK", 1)]
    assert report.diagnostics[0].column == 9 and "top card is Y2" in report.diagnostics[0].message
    # Without the Deck tag: a card known elsewhere cannot come from the draw pile.
    report = check(record("1. R3/d=R3", {"Hand1": HANDS["Hand1"]}))
    assert errors(report) == [("card-elsewhere", "C-CARD-UNIQUE", 1)]


# -- the end ---------------------------------------------------------------------------------
def finished(seed: int = 11, expeditions: int = 5) -> GameRecord:
    return random_game(seed, expeditions=expeditions)


@legal("C-END-LAST-DRAW")
def test_the_game_ends_with_the_last_draw() -> None:
    game = finished()
    report = valid(lcn.write_game(game))
    assert report.over and report.state.cards_left == 0
    # Draws from discard piles do not count: games last more than 44 turns.
    longer = next(g for g in map(finished, range(40)) if len(g.turns) > 44)
    assert valid(lcn.write_game(longer)).over


@illegal("C-END-LAST-DRAW")
def test_a_turn_after_the_last_draw() -> None:
    game = finished()
    game.turns.append(lcn.Turn("xY2/d"))
    game.termination = "*"
    del game.tags["Result"]
    report = check(lcn.write_game(game))
    turn = len(game.turns)
    assert errors(report) == [("after-game-end", "C-END-LAST-DRAW", turn)]
    assert "44th draw" in report.diagnostics[0].message


@legal("C-END-COUNT-PILE")
def test_the_draw_pile_is_counted_from_the_record() -> None:
    text = record("1. xR3/d R9/R 2. xR5/d", HANDS)
    game = lcn.read_game(text)
    assert game is not None
    report = validate_record(game, keep_snapshots=True)
    assert report.valid and report.snapshots is not None
    assert [s["draw_pile"] for s in report.snapshots] == [44, 43, 43, 42]
    shown = CliRunner().invoke(cli, ["show", "-", "--turn", "2"], input=text)
    assert shown.exit_code == 0 and "draw pile: 43 cards" in shown.output


@illegal("C-END-COUNT-PILE")
def test_counting_does_not_end_the_game() -> None:
    # Scores for a game whose draw pile still holds cards: the count says how many.
    report = check(record("1. R3/d R9/d", HANDS, termination="-17:-11"))
    assert errors(report) == [("game-unfinished", "C-END-RESULT", None)]
    assert "42 cards left in the draw pile" in report.diagnostics[0].message


@legal("C-END-RESULT")
def test_the_result_is_the_computed_scores() -> None:
    game = finished()
    report = valid(lcn.write_game(game))
    assert game.termination == ":".join(map(str, report.score.totals))
    # A record that stops early ends with `*`.
    game.turns = game.turns[:30]
    game.termination = "*"
    game.tags["Result"] = "*"
    assert not valid(lcn.write_game(game)).over


@illegal("C-END-RESULT")
def test_wrong_or_early_scores() -> None:
    game = finished()
    totals = validate_record(game).score.totals
    wrong = f"{totals[0] + 1}:{totals[1]}"
    game.termination = wrong
    del game.tags["Result"]
    report = check(lcn.write_game(game))
    assert errors(report) == [("result-mismatch", "C-END-RESULT", None)]
    assert f"the final scores are {totals[0]}:{totals[1]}, not {wrong}" in report.diagnostics[0].message
    game.turns = game.turns[:-1]
    report = check(lcn.write_game(game))
    assert errors(report) == [("game-unfinished", "C-END-RESULT", None)]


@legal("C-END-WINNER")
def test_equal_scores_are_a_draw() -> None:
    tie = next(g for g in map(finished, range(2000)) if len(set(g.termination.split(":"))) == 1)
    report = valid(lcn.write_game(tie))
    assert report.score.totals[0] == report.score.totals[1]


@illegal("C-END-WINNER")
def test_a_record_gives_scores_not_a_winner() -> None:
    for termination in ("1-0", "0-1", "1/2-1/2"):
        report = check(record("1. R3/d", HANDS, termination=termination))
        assert not report.valid, termination
        assert report.record.termination is None


# -- scoring ---------------------------------------------------------------------------------
def refused(score: Callable[[list[str]], int], seeds: range = range(30), *,
            empty_columns: bool = False) -> int:
    """Gives finished games the result that ``score`` (a column scorer leaving a rule out)
    computes; each such result that differs from the true one must be refused. Returns how
    many were tried. ``empty_columns`` gives the scorer the colours with no card too."""
    tried = 0
    for seed in seeds:
        game = finished(seed)
        report = validate_record(game)
        wrong = [sum(score(cards) for cards in report.state.expeditions[p].values()
                     if cards or empty_columns)
                 for p in range(2)]
        if wrong == report.score.totals:
            continue
        game.termination = ":".join(map(str, wrong))
        del game.tags["Result"]
        assert errors(check(lcn.write_game(game))) == [("result-mismatch", "C-END-RESULT", None)]
        tried += 1
    return tried


def _parts(cards: list[str]) -> tuple[int, int, int]:
    """Sum, wagers and length of a column."""
    return (sum(0 if c[1] == "w" else int(c[1:]) for c in cards), sum(c[1] == "w" for c in cards),
            len(cards))


@legal("C-SCORE-SUM")
def test_number_cards_add_up() -> None:
    column = score_expedition("Y", ["Y2", "Y3", "Y8", "Y10"])
    assert (column.total, column.points) == (23, 3)


@illegal("C-SCORE-SUM")
def test_a_wrong_sum_is_refused() -> None:
    def wagers_counted(cards: list[str]) -> int:  # a wager counted as a 1
        total, wagers, length = _parts(cards)
        return (total + wagers - 20) * (1 + wagers) + (20 if length >= 8 else 0)
    assert refused(wagers_counted) > 5
    assert score_expedition("Y", ["Yw", "Y2"]).total == 2


@legal("C-SCORE-COST")
def test_the_cost_of_an_expedition() -> None:
    assert score_expedition("R", ["R10", "R10"][:1]).points == -10
    assert score_expedition("R", ["R2", "R3", "R4", "R5", "R6"]).points == 0
    assert score_expedition("W", ["Ww"]).cost == 20


@illegal("C-SCORE-COST")
def test_a_score_without_the_cost_is_wrong() -> None:
    def no_cost(cards: list[str]) -> int:
        total, wagers, length = _parts(cards)
        return total * (1 + wagers) + (20 if length >= 8 else 0)
    assert refused(no_cost) == 30
    assert check(record("1. R3/d R9/d", HANDS)).score.totals == [3 - 20, 9 - 20]


@legal("C-SCORE-UNSTARTED")
def test_unstarted_colours_score_nothing() -> None:
    report = check(record("1. xR3/d R9/d", HANDS))
    assert report.score.breakdown[0] == dict.fromkeys("YBWGR", 0)
    assert score_expedition("B", []).points == 0 and not score_expedition("B", []).started


@illegal("C-SCORE-UNSTARTED")
def test_cards_in_hand_or_on_a_pile_do_not_start_a_column() -> None:
    report = check(record("1. xR3/d R9/R", HANDS))
    # Bo holds R3 and Ada's red pile card was taken: neither costs anyone 20.
    assert report.score.breakdown[0]["R"] == 0 and report.score.breakdown[1]["R"] == -11

    def every_colour_costs(cards: list[str]) -> int:
        total, wagers, length = _parts(cards)
        return (total - 20) * (1 + wagers) + (20 if length >= 8 else 0)
    assert refused(every_colour_costs, empty_columns=True) > 10


@legal("C-SCORE-WAGERS")
def test_wagers_multiply() -> None:
    assert score_expedition("G", ["Gw", "G7", "G8"]).points == (15 - 20) * 2
    assert score_expedition("W", ["Ww"]).points == -40
    assert score_expedition("R", ["Rw", "Rw", "Rw", "R10", "R9", "R8"]).points == 7 * 4


@illegal("C-SCORE-WAGERS")
def test_a_result_without_the_multiplier_is_refused() -> None:
    def not_multiplied(cards: list[str]) -> int:
        total, _, length = _parts(cards)
        return total - 20 + (20 if length >= 8 else 0)
    assert refused(not_multiplied) > 10
    assert check(record("1. Rw/d Gw/d 2. R3/d")).score.totals == [(3 - 20) * 2, -40]


@legal("C-SCORE-BONUS")
def test_eight_cards_earn_twenty_not_multiplied() -> None:
    cards = ["Bw", "Bw", "B2", "B4", "B5", "B6", "B7", "B8", "B9"]
    column = score_expedition("B", cards)
    assert (column.multiplier, column.bonus, column.points) == (3, 20, (41 - 20) * 3 + 20)
    assert score_expedition("B", cards[1:]).bonus == 20  # wagers count towards the eight


@illegal("C-SCORE-BONUS")
def test_seven_cards_earn_no_bonus() -> None:
    column = score_expedition("B", ["Bw", "B2", "B4", "B5", "B6", "B7", "B8"])
    assert column.bonus == 0 and column.points == (32 - 20) * 2

    def bonus_multiplied(cards: list[str]) -> int:
        total, wagers, length = _parts(cards)
        return (total - 20 + (20 if length >= 8 else 0)) * (1 + wagers)
    assert score_expedition("R", ["Rw", "Rw", "R2", "R3", "R5", "R7", "R8", "R10"]).points == 65
    assert bonus_multiplied(["Rw", "Rw", "R2", "R3", "R5", "R7", "R8", "R10"]) == 105
    text = (ROOT / "samples" / "classic" / "rulebook-scoring.lcn").read_text()
    assert ("result-mismatch", "C-END-RESULT", None) in errors(check(text.replace("18:67", "58:67")))


@legal("C-SCORE-TOTAL")
def test_the_rulebook_scoring_example_scores_18() -> None:
    columns = [score_expedition("Y", ["Y2", "Y3", "Y8", "Y10"]), score_expedition("B", []),
               score_expedition("W", ["Ww"]), score_expedition("G", ["Gw", "G7", "G8"]),
               score_expedition("R", ["Rw", "Rw", "R2", "R3", "R5", "R7", "R8", "R10"])]
    assert [c.points for c in columns] == [3, 0, -40, -10, 65]
    assert sum(c.points for c in columns) == 18
    report = valid((ROOT / "samples" / "classic" / "rulebook-scoring.lcn").read_text())
    assert report.over and report.score.totals[0] == 18
    assert report.score.breakdown[0] == {"Y": 3, "B": 0, "W": -40, "G": -10, "R": 65}


@illegal("C-SCORE-TOTAL")
def test_cards_left_in_hand_count_nothing() -> None:
    report = valid((ROOT / "samples" / "classic" / "rulebook-scoring.lcn").read_text())
    assert report.state.hand(0)  # Ada still holds cards
    assert report.score.totals[0] == sum(report.score.breakdown[0].values()) == 18
    text = (ROOT / "samples" / "classic" / "rulebook-scoring.lcn").read_text()
    wrong = check(text.replace("18:67", "19:67"))
    assert ("result-mismatch", "C-END-RESULT", None) in errors(wrong)


# -- matches ---------------------------------------------------------------------------------
def match(first_players: list[tuple[str, str]], numbers: list[str] | None = None,
          seeds: tuple[int, ...] = (21, 22, 23, 24)) -> list[GameReport]:
    games = []
    for index, (names, seed) in enumerate(zip(first_players, seeds, strict=False)):
        game = random_game(seed, names=names)
        game.tags["Match"] = "Ada vs Bo"
        game.tags["Game"] = numbers[index] if numbers else str(index + 1)
        games.append(lcn.read_game(lcn.write_game(game)))
    return list(validate_games(games))


def leader_order(seeds: tuple[int, ...]) -> list[tuple[str, str]]:
    """Who begins each game when the match leader always begins (Ada after a tie)."""
    order: list[tuple[str, str]] = [("Ada", "Bo")]
    totals = {"Ada": 0, "Bo": 0}
    for seed in seeds[:-1]:
        names = order[-1]
        scores = validate_record(random_game(seed, names=names)).score.totals
        totals[names[0]] += scores[0]
        totals[names[1]] += scores[1]
        order.append(("Bo", "Ada") if totals["Bo"] > totals["Ada"] else ("Ada", "Bo"))
    return order


def match_warnings(reports: list[GameReport]) -> list[list[tuple[str, str | None]]]:
    return [warnings(r) for r in reports]


@legal("C-MATCH-THREE")
def test_a_match_of_three_games() -> None:
    seeds = (21, 22, 23)
    reports = match(leader_order(seeds), seeds=seeds)
    assert match_warnings(reports) == [[], [], []]
    totals = reports[-1].extra["match"]["totals"]
    assert sum(totals.values()) == sum(sum(r.score.totals) for r in reports)


@illegal("C-MATCH-THREE")
def test_games_out_of_order_or_a_fourth_game() -> None:
    seeds = (21, 22, 23, 24)
    order = leader_order(seeds)
    reports = match(order, numbers=["1", "3", "2", "4"], seeds=seeds)
    assert ("match-order", "C-MATCH-THREE") in warnings(reports[1])
    assert ("match-order", "C-MATCH-THREE") in warnings(reports[3])
    assert all(r.valid for r in reports)  # warnings only
    reports = match(order[:2], numbers=["1", "two"], seeds=seeds)
    assert ("tag-value", "C-MATCH-THREE") in warnings(reports[1])


@legal("C-MATCH-FIRST-PLAYER")
def test_the_leader_begins_the_next_game() -> None:
    seeds = (21, 22)
    reports = match(leader_order(seeds), seeds=seeds)
    assert match_warnings(reports) == [[], []]


@illegal("C-MATCH-FIRST-PLAYER")
def test_the_trailing_player_begins() -> None:
    seeds = (21, 22)
    order = leader_order(seeds)
    assert order[1] == order[0] or order[1] == ("Bo", "Ada")
    wrong = [order[0], (order[1][1], order[1][0])]
    reports = match(wrong, seeds=seeds)
    first = reports[0].score.totals
    if first[0] == first[1]:  # pragma: no cover - the seeds give no tie
        raise AssertionError("pick seeds without a tie")
    assert warnings(reports[1]) == [("match-first-player", "C-MATCH-FIRST-PLAYER")]
    assert reports[1].valid


@legal("C-MATCH-TIE")
def test_after_a_tie_either_player_begins() -> None:
    tie_seed = next(s for s in range(2000)
                    if len(set(random_game(s, names=("Ada", "Bo")).termination.split(":"))) == 1)
    for second in (("Ada", "Bo"), ("Bo", "Ada")):
        games = [random_game(tie_seed, names=("Ada", "Bo")), random_game(31, names=second)]
        for number, game in enumerate(games, 1):
            game.tags["Match"] = "tie"
            game.tags["Game"] = str(number)
        reports = list(validate_games(games))
        assert match_warnings(reports) == [[], []]


@illegal("C-MATCH-TIE")
def test_no_fourth_game_after_a_tied_match() -> None:
    seeds = (21, 22, 23, 24)
    reports = match(leader_order(seeds), seeds=seeds)
    assert ("match-order", "C-MATCH-THREE") in warnings(reports[3])
    assert "a match has 3 games" in " ".join(d.message for d in reports[3].diagnostics)


# -- coverage of the digest ------------------------------------------------------------------
def test_every_rule_of_the_digest_has_a_legal_and_an_illegal_case() -> None:
    ids = re.findall(r"^### (C-[A-Z0-9-]+) — ", DIGEST.read_text(encoding="utf-8"), re.MULTILINE)
    assert len(ids) >= 30
    missing = [(rule, kind) for rule in ids for kind, marks in (("legal", LEGAL), ("illegal", ILLEGAL))
               if not marks.get(rule)]
    assert not missing
    assert not (set(LEGAL) | set(ILLEGAL)) - set(ids), "a test cites a rule the digest lacks"

"""Every rule of ``seeds/rivals.md``: a record that keeps it and a record that breaks it.

Each rule ID ``V-X-Y`` has ``test_V_X_Y_legal`` and ``test_V_X_Y_illegal`` here; the last
tests check that no ID cited by the engine or listed in the digest is left without both.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lcn import read_game, validate_record, write_game
from lcn.validate import GameReport
from lcn.variants.rivals import VARIANT, all_cards, score_expedition
from lcn.variants.rivals_play import random_game

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Ada", "Bo", "Cy", "Di")
WAGERS = ("Rw Bw", "Gw Yw", "Ww Rw", "Bw Yw")


def game(*turns: str, players: int = 2, wagers: tuple[str, ...] | None = None,
         tags: dict[str, str] | None = None, result: str = "*") -> str:
    """A Rivals record: Ada, Bo (Cy, Di) with default starting wagers, and the given turns."""
    lines = ['[Variant "rivals"]']
    for seat in range(players):
        lines.append(f'[Player{seat + 1} "{NAMES[seat]}"]')
    for seat, text in enumerate(wagers if wagers is not None else WAGERS[:players]):
        lines.append(f'[Wagers{seat + 1} "{text}"]')
    for name, value in (tags or {}).items():
        lines.append(f'[{name} "{value}"]')
    body = "\n".join(f"{n}. {text}" for n, text in enumerate(turns, 1))
    return "\n".join(lines) + "\n\n" + (body + "\n" if body else "") + result + "\n"


def check(text: str) -> GameReport:
    record = read_game(text)
    assert record is not None
    return validate_record(record, keep_snapshots=True)


def errors(report: GameReport) -> list[tuple[str, str | None, int | None]]:
    """(code, rule, turn) of every error."""
    return [(d.code, d.rule, d.turn) for d in report.diagnostics if d.is_error]


def rules(report: GameReport) -> set[str | None]:
    return {d.rule for d in report.diagnostics}


def assert_valid(report: GameReport) -> None:
    assert report.valid, [d.format() for d in report.diagnostics]


def ups(*cards: str) -> list[str]:
    return [f"up:{card}" for card in cards]


#: Eighteen cards nobody takes in the tests below (yellow and white numbers).
FILLER = [f"{c}{v}" for c in "YW" for v in range(2, 11)]


def full_uncover_game() -> list[str]:
    """All 80 cards uncovered and nothing ever bought: the shortest complete game."""
    return ups(*all_cards())


# -- setup --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_V_SETUP_PLAYERS_legal(players: int) -> None:
    report = check(game("up:R5", players=players))
    assert_valid(report)
    assert report.players == list(NAMES[:players])
    assert report.snapshots is not None and report.snapshots[-1]["next_player"] == 1


def test_V_SETUP_PLAYERS_illegal() -> None:
    alone = check('[Variant "rivals"]\n[Player1 "Ada"]\n[Wagers1 "Rw Bw"]\n\n1. up:R5 *\n')
    assert ("player-count", "V-SETUP-PLAYERS", None) in errors(alone)
    five = check(game("up:R5", players=4, tags={"Player5": "Eve"}))
    assert ("player-count", "V-SETUP-PLAYERS", None) in errors(five)
    gap = check('[Variant "rivals"]\n[Player1 "Ada"]\n[Player3 "Cy"]\n\n1. up:R5 *\n')
    assert "V-SETUP-PLAYERS" in rules(gap)


def test_V_SETUP_START_WAGERS_legal() -> None:
    report = check(game("up:R5", wagers=("rW bw", "Gw Yw")))
    assert_valid(report)
    assert report.snapshots is not None
    start = report.snapshots[0]
    assert start["expeditions"][0]["R"] == ["Rw"] and start["expeditions"][0]["B"] == ["Bw"]
    assert start["starting_wagers"] == [["Rw", "Bw"], ["Gw", "Yw"]]


@pytest.mark.parametrize("value, code", [("Rw Rw", "start-wagers"), ("Rw", "start-wagers"),
                                         ("Rw Bw Gw", "start-wagers"), ("R5 Bw", "tag-value"),
                                         ("Xw Bw", "tag-value")])
def test_V_SETUP_START_WAGERS_illegal(value: str, code: str) -> None:
    report = check(game("up:R5", wagers=(value, "Gw Yw")))
    assert (code, "V-SETUP-START-WAGERS", None) in errors(report)
    missing = check(game("up:R5", wagers=("Rw Bw",)))
    assert ("missing-tag", "V-SETUP-START-WAGERS", None) in errors(missing)


def test_V_SETUP_START_WAGER_CARDS_legal() -> None:
    assert_valid(check(game("up:R5", players=4, wagers=("Rw Bw", "Rw Bw", "Gw Yw", "Gw Yw"))))


def test_V_SETUP_START_WAGER_CARDS_illegal() -> None:
    report = check(game("up:R5", players=3, wagers=("Rw Bw", "Rw Gw", "Rw Yw")))
    assert ("start-wager-supply", "V-SETUP-START-WAGER-CARDS", None) in errors(report)


def test_V_SETUP_CARDS_legal() -> None:
    # Two R4 exist, and starting wagers are not among the 80 cards: three more Rw can come.
    assert_valid(check(game(*ups("R4", "R4", "Rw", "Rw", "Rw"))))
    assert len(all_cards()) == 80


def test_V_SETUP_CARDS_illegal() -> None:
    report = check(game(*ups("R9", "R2", "R9")))
    assert errors(report) == [("card-exhausted", "V-SETUP-CARDS", 3)]
    assert "in the display" in report.diagnostics[0].message
    piles = check(game("up:R9", tags={"Pile1": " ".join(["R9"] * 2 + FILLER)}))
    assert ("pile-invalid", "V-SETUP-CARDS", None) in errors(piles)
    bad = check(game("up:R11"))
    assert ("bad-card", "V-SETUP-CARDS", 1) in errors(bad)
    purple = check(game("up:P5"))
    assert ("bad-card", "V-SETUP-CARDS", 1) in errors(purple)


def test_V_SETUP_PILES_legal() -> None:
    # Piles divided by eye: the first pile has 21 cards, so it runs out at the 21st.
    turns = ["up:R2", "Bo3 Ada- place:R2 up:R3", *ups(*FILLER), "up:G2 share:1 rest:1"]
    report = check(game(*turns, tags={"PileSizes": "21 19 20 20"}))
    assert_valid(report)
    assert report.snapshots is not None and report.snapshots[-1]["pile"] == 2
    assert not [d for d in report.diagnostics if d.rule == "V-SETUP-PILES"]


@pytest.mark.parametrize("tags, code, severity", [
    ({"PileSizes": "20 20 20"}, "tag-value", "error"),
    ({"PileSizes": "20 20 20 21"}, "pile-invalid", "error"),
    ({"PileSizes": "40 40 0 0"}, "pile-invalid", "error"),
    ({"PileSizes": "30 30 10 10"}, "pile-uneven", "warning"),
    ({"Pile1": " ".join([*FILLER, "G2"])}, "pile-invalid", "error"),
])
def test_V_SETUP_PILES_illegal(tags: dict[str, str], code: str, severity: str) -> None:
    report = check(game("up:Y2", tags=tags))
    found = [(d.code, d.severity.value) for d in report.diagnostics if d.rule == "V-SETUP-PILES"]
    assert (code, severity) in found


@pytest.mark.parametrize("players, gold", [(2, 18), (3, 12), (4, 9)])
def test_V_SETUP_GOLD_legal(players: int, gold: int) -> None:
    report = check(game("up:R5", f"{NAMES[1]}{gold} " + " ".join(
        f"{NAMES[s % players]}-" for s in range(2, players + 1)) + " place:R5 up:R6",
        players=players))
    assert_valid(report)
    assert report.snapshots is not None
    assert report.snapshots[0]["gold"] == [gold] * players
    assert report.snapshots[-1]["gold"][1] == 0 and report.snapshots[-1]["supply"] == gold


def test_V_SETUP_GOLD_illegal() -> None:
    report = check(game("up:R5", "Bo13 Cy- Ada- place:R5 up:R6", players=3))
    assert errors(report) == [("bid-funds", "V-AUCTION-FUNDS", 2)]
    assert "holds only 12 gold" in report.diagnostics[0].message


# -- turns --------------------------------------------------------------------------------


def test_V_TURN_ORDER_legal() -> None:
    # Cy opens and wins: Di (after Cy) plays next; Di wins: Ada plays next.
    report = check(game("up:R5", "up:R6", "Cy1 Di- Ada2 Bo- Cy3 Ada- place:R5 up:R7",
                        "Di1 Ada- Bo- Cy- place:R6 up:R8", "Ada1 Bo- Cy- Di- up:R9", players=4))
    assert_valid(report)
    assert report.snapshots is not None
    assert [s["next_player"] for s in report.snapshots] == [0, 1, 2, 3, 0, 1]


def test_V_TURN_ORDER_illegal() -> None:
    # Bo opened and Cy won: Ada (after Cy) plays next, not Cy (after Bo).
    report = check(game("up:R5", "Bo1 Cy2 Ada- Bo- place:R5 up:R6", "Cy1 Ada- Bo- up:R7",
                        players=3))
    assert errors(report) == [("turn-order", "V-TURN-ORDER", 3)]
    assert "Ada's turn" in report.diagnostics[0].message


def test_V_TURN_ACTION_legal() -> None:
    report = check(game("up:R5", "Bo1 Ada- place:R5 up:R6"))
    assert_valid(report)


@pytest.mark.parametrize("turn, code", [("place:R5 up:R6", "no-auction"),
                                        ("box:R5 up:R6", "no-auction"),
                                        ("up:R6 up:R7", "move-syntax")])
def test_V_TURN_ACTION_illegal(turn: str, code: str) -> None:
    report = check(game("up:R5", turn))
    assert errors(report) == [(code, "V-TURN-ACTION", 2)]


# -- uncover ------------------------------------------------------------------------------

PILES = {f"Pile{i + 1}": " ".join(all_cards()[i * 20:(i + 1) * 20]) for i in range(4)}


def test_V_UNCOVER_TOP_legal() -> None:
    first = PILES["Pile1"].split()
    assert_valid(check(game(*ups(*first[:3]), tags=PILES)))


def test_V_UNCOVER_TOP_illegal() -> None:
    first = PILES["Pile1"].split()
    other = next(card for card in first if card != first[0])
    report = check(game(f"up:{other}", tags=PILES))
    assert errors(report) == [("wrong-card", "V-UNCOVER-TOP", 1)]
    assert f"is {first[0]}, not {other}" in report.diagnostics[0].message


#: Both players hold green numbers after turn 4, so a green wager is of no use to anyone.
USELESS_SETUP = ["up:G5", "up:G6", "Ada1 Bo- place:G5 up:R2", "Bo1 Ada- place:G6 up:Y2"]


def test_V_UNCOVER_USELESS_legal() -> None:
    report = check(game(*USELESS_SETUP, "up:Gw>box"))
    assert_valid(report)
    assert report.snapshots is not None
    assert report.snapshots[-1]["box"] == ["Gw"] and "Gw" not in report.snapshots[-1]["display"]
    # Not written, the rules still send it to the box: it cannot be bought afterwards.
    silent = check(game(*USELESS_SETUP, "up:Gw", "Bo1 Ada- place:Gw up:Y3"))
    assert errors(silent) == [("not-in-display", "V-PLACE-DISPLAY", 6)]
    # A card that became useless while in the display stays there (the rulebook's W2).
    stays = check(game("up:G3", "up:G5", "Ada1 Bo- place:G5 up:G4", "Bo1 Ada- place:G4 up:Y2",
                       "Ada1 Bo- box:G3 up:Y3"))
    assert_valid(stays)
    assert stays.snapshots is not None
    assert stays.snapshots[4]["display"] == ["G3", "Y2"]  # of no use to anyone, but it stays
    assert stays.snapshots[5]["box"] == ["G3"]


def test_V_UNCOVER_USELESS_illegal() -> None:
    report = check(game(*USELESS_SETUP, "up:G7>box"))
    assert errors(report) == [("not-useless", "V-UNCOVER-USELESS", 5)]
    assert report.snapshots is not None and "G7" in report.snapshots[-1]["display"]


# -- auction ------------------------------------------------------------------------------


def test_V_AUCTION_DISPLAY_legal() -> None:
    assert_valid(check(game("up:R5", "Bo1 Ada- up:R6")))


def test_V_AUCTION_DISPLAY_illegal() -> None:
    report = check(game("Ada1 Bo- up:R5"))
    assert errors(report) == [("empty-display", "V-AUCTION-DISPLAY", 1)]
    # Emptied by the winner, whose uncovered card went to the box: still no auction.
    emptied = check(game(*USELESS_SETUP, "up:Y4", "Bo1 Ada- place:R2,Y2,Y4 up:Gw",
                         "Ada1 Bo- up:Y5"))
    assert errors(emptied) == [("empty-display", "V-AUCTION-DISPLAY", 7)]


def test_V_AUCTION_OPEN_legal() -> None:
    assert_valid(check(game("up:R5", "Bo1 Ada- place:R5 up:R6")))


def test_V_AUCTION_OPEN_illegal() -> None:
    report = check(game("up:R5", "Bo- Ada1 place:R5 up:R6"))
    assert ("auction-open", "V-AUCTION-OPEN", 2) in errors(report)


def test_V_AUCTION_MIN_BID_legal() -> None:
    report = check(game("up:R5", "Bo1 Ada- place:R5 up:R6"))
    assert_valid(report)
    assert report.snapshots is not None and report.snapshots[-1]["supply"] == 1


def test_V_AUCTION_MIN_BID_illegal() -> None:
    report = check(game("up:R5", "Bo0 Ada- place:R5 up:R6"))
    assert errors(report) == [("bid-too-low", "V-AUCTION-MIN-BID", 2)]


def test_V_AUCTION_ORDER_legal() -> None:
    report = check(game("up:R5", "Bo1 Cy2 Ada- Bo3 Cy- place:R5 up:R6", players=3))
    assert_valid(report)
    assert report.snapshots is not None and report.snapshots[-1]["auction"]["winner"] == 1


def test_V_AUCTION_ORDER_illegal() -> None:
    report = check(game("up:R5", "Bo1 Ada2 Cy- Bo- Ada- place:R5 up:R6", players=3))
    assert errors(report)[0] == ("bid-order", "V-AUCTION-ORDER", 2)
    assert "Cy's turn" in report.diagnostics[0].message


def test_V_AUCTION_RAISE_legal() -> None:
    assert_valid(check(game("up:R5", "Bo1 Ada5 Bo- place:R5 up:R6")))


def test_V_AUCTION_RAISE_illegal() -> None:
    report = check(game("up:R5", "Bo2 Ada2 Bo- place:R5 up:R6"))
    assert ("bid-not-higher", "V-AUCTION-RAISE", 2) in errors(report)


def test_V_AUCTION_PASS_OUT_legal() -> None:
    # Cy passed, so after Bo's raise Ada is asked next, not Cy.
    assert_valid(check(game("up:R5", "Bo1 Cy- Ada2 Bo3 Ada- place:R5 up:R6", players=3)))


def test_V_AUCTION_PASS_OUT_illegal() -> None:
    report = check(game("up:R5", "Bo1 Cy- Ada2 Bo3 Cy4 Ada- place:R5 up:R6", players=3))
    assert ("bid-after-pass", "V-AUCTION-PASS-OUT", 2) in errors(report)


def test_V_AUCTION_FUNDS_legal() -> None:
    report = check(game("up:R5", "Bo18 Ada- place:R5 up:R6"))
    assert_valid(report)
    assert report.snapshots is not None and report.snapshots[-1]["gold"] == [18, 0]


def test_V_AUCTION_FUNDS_illegal() -> None:
    report = check(game("up:R5", "Bo19 Ada- place:R5 up:R6"))
    assert errors(report) == [("bid-funds", "V-AUCTION-FUNDS", 2)]
    broke = check(game("up:R5", "Bo18 Ada- place:R5 up:R6", "up:R7", "Bo1 Ada- up:R8"))
    assert errors(broke) == [("bid-funds", "V-AUCTION-FUNDS", 4)]


def test_V_AUCTION_END_legal() -> None:
    report = check(game("up:R5", "Bo1 Cy- Ada- place:R5 up:R6", players=3))
    assert_valid(report)


def test_V_AUCTION_END_illegal() -> None:
    after = check(game("up:R5", "Bo1 Ada- Bo2 place:R5 up:R6"))
    assert errors(after) == [("after-auction-end", "V-AUCTION-END", 2)]
    early = check(game("up:R5", "Bo1 Cy- place:R5 up:R6", players=3))
    assert errors(early) == [("auction-unfinished", "V-AUCTION-END", 2)]


def test_V_AUCTION_PAY_legal() -> None:
    report = check(game("up:R5", "Bo1 Ada5 Bo- place:R5 up:R6"))
    assert_valid(report)
    assert report.snapshots is not None
    assert report.snapshots[-1]["gold"] == [13, 18] and report.snapshots[-1]["supply"] == 5


def test_V_AUCTION_PAY_illegal() -> None:
    # Bo paid 15 of 18 coins: a bid of 4 is more than Bo has left.
    report = check(game("up:R5", "Bo15 Ada- place:R5 up:R6", "up:R7", "Bo4 Ada- up:R8"))
    assert errors(report) == [("bid-funds", "V-AUCTION-FUNDS", 4)]
    assert "holds only 3 gold" in report.diagnostics[0].message


def test_V_AUCTION_BOX_legal() -> None:
    report = check(game("up:R5", "up:G5", "Ada1 Bo- place:R5 box:G5 up:R6"))
    assert_valid(report)
    assert report.snapshots is not None
    assert report.snapshots[-1]["box"] == ["G5"] and report.snapshots[-1]["display"] == ["R6"]


@pytest.mark.parametrize("turn, code", [
    ("Ada1 Bo- box:G5 box:R5 up:R6", "box-twice"),
    ("Ada1 Bo- box:W5 up:R6", "box-not-in-display"),
    ("Ada1 Bo- place:R5 box:R5 up:R6", "box-not-in-display"),
])
def test_V_AUCTION_BOX_illegal(turn: str, code: str) -> None:
    report = check(game("up:R5", "up:G5", turn))
    assert errors(report) == [(code, "V-AUCTION-BOX", 3)]


def test_V_AUCTION_UNCOVER_legal() -> None:
    report = check(game("up:R5", "Bo1 Ada- place:R5 up:R6"))
    assert_valid(report)
    assert report.snapshots is not None and report.snapshots[-1]["display"] == ["R6"]


def test_V_AUCTION_UNCOVER_illegal() -> None:
    report = check(game("up:R5", "Bo1 Ada- place:R5"))
    assert errors(report) == [("no-uncover", "V-AUCTION-UNCOVER", 2)]


# -- expeditions --------------------------------------------------------------------------


def test_V_PLACE_DISPLAY_legal() -> None:
    nothing = check(game("up:R5", "Bo1 Ada- up:R6"))  # winning and taking nothing is allowed
    assert_valid(nothing)
    two = check(game("up:R5", "up:G5", "Ada1 Bo- place:R5,G5 up:R6"))
    assert_valid(two)
    assert two.snapshots is not None and two.snapshots[-1]["expeditions"][0]["G"] == ["G5"]


def test_V_PLACE_DISPLAY_illegal() -> None:
    report = check(game("up:R5", "Bo1 Ada- place:R7 up:R6"))
    assert errors(report) == [("not-in-display", "V-PLACE-DISPLAY", 2)]


def test_V_PLACE_WAGER_FIRST_legal() -> None:
    # Ada's red holds only her starting wager: more wagers may follow, then numbers.
    report = check(game("up:Rw", "up:Rw", "Ada1 Bo- place:Rw,Rw up:R5"))
    assert_valid(report)
    assert report.snapshots is not None
    assert report.snapshots[-1]["expeditions"][0]["R"] == ["Rw", "Rw", "Rw"]


def test_V_PLACE_WAGER_FIRST_illegal() -> None:
    report = check(game("up:R5", "up:Rw", "Ada1 Bo- place:R5,Rw up:R6"))
    assert errors(report) == [("wager-after-number", "V-PLACE-WAGER-FIRST", 3)]


def test_V_PLACE_ASCENDING_legal() -> None:
    assert_valid(check(game("up:R4", "up:R4", "Ada1 Bo- place:R4,R4 up:R6")))


def test_V_PLACE_ASCENDING_illegal() -> None:
    report = check(game("up:R5", "up:R4", "Ada1 Bo- place:R5,R4 up:R6"))
    assert errors(report) == [("not-ascending", "V-PLACE-ASCENDING", 3)]
    later = check(game("up:R5", "Bo1 Ada- place:R5 up:R4", "Ada1 Bo- up:R6", "Bo1 Ada- place:R4 up:R7"))
    assert errors(later) == [("not-ascending", "V-PLACE-ASCENDING", 4)]


# -- piles and gold -----------------------------------------------------------------------

#: Bo pays 3, then 18 uncovers: turn 20 turns over the last card of the first pile.
SHARE_START = ["up:R2", "Bo3 Ada- place:R2 up:R3", *ups(*FILLER)]


def test_V_PILE_SHARE_legal() -> None:
    report = check(game(*SHARE_START[:-1], SHARE_START[-1] + " share:1"))
    assert_valid(report)
    assert report.snapshots is not None
    assert report.snapshots[-1]["gold"] == [19, 16] and report.snapshots[-1]["supply"] == 1
    assert report.snapshots[-1]["last_share"] == {"each": 1, "rest": 1}
    unwritten = check(game(*SHARE_START))
    assert_valid(unwritten)
    assert unwritten.snapshots is not None and unwritten.snapshots[-1]["gold"] == [19, 16]


def test_V_PILE_SHARE_illegal() -> None:
    wrong = check(game(*SHARE_START[:-1], SHARE_START[-1] + " share:2"))
    assert errors(wrong) == [("share-mismatch", "V-PILE-SHARE", 20)]
    early = check(game(*SHARE_START[:-2], SHARE_START[-2] + " share:1"))
    assert errors(early) == [("no-share", "V-PILE-SHARE", 19)]


def test_V_PILE_REMAINDER_legal() -> None:
    assert_valid(check(game(*SHARE_START[:-1], SHARE_START[-1] + " share:1 rest:1")))


def test_V_PILE_REMAINDER_illegal() -> None:
    report = check(game(*SHARE_START[:-1], SHARE_START[-1] + " share:1 rest:0"))
    assert errors(report) == [("remainder-mismatch", "V-PILE-REMAINDER", 20)]
    early = check(game(*SHARE_START[:-2], SHARE_START[-2] + " rest:1"))
    assert errors(early) == [("no-share", "V-PILE-REMAINDER", 19)]


# -- end and scoring ----------------------------------------------------------------------


def test_V_END_LAST_CARD_legal() -> None:
    report = check(game(*full_uncover_game(), result="18:18"))
    assert_valid(report)
    assert report.over and report.snapshots is not None
    assert report.snapshots[-1]["cards_left"] == 0


def test_V_END_LAST_CARD_illegal() -> None:
    extra = check(game(*full_uncover_game(), "up:R5", result="18:18"))
    assert ("after-game-end", "V-END-LAST-CARD", 81) in errors(extra)
    turns = full_uncover_game()
    shared = check(game(*turns[:-1], turns[-1] + " share:0", result="18:18"))
    assert errors(shared) == [("share-at-end", "V-END-LAST-CARD", 80)]


def test_V_END_RESULT_legal() -> None:
    record = random_game(3, players=3)
    report = validate_record(record)
    assert_valid(report)
    assert record.termination == ":".join(map(str, report.score.totals))  # type: ignore[union-attr]


def test_V_END_RESULT_illegal() -> None:
    wrong = check(game(*full_uncover_game(), result="18:17"))
    assert ("result-mismatch", "V-END-RESULT", None) in errors(wrong)
    early = check(game("up:R5", result="18:18"))
    assert ("game-unfinished", "V-END-RESULT", None) in errors(early)
    unfinished = next(d for d in early.diagnostics if d.code == "game-unfinished")
    assert "79 cards still to uncover" in unfinished.message


def _final(seed: int, players: int) -> tuple[str, GameReport]:
    record = random_game(seed, players=players)
    text = write_game(record)
    report = validate_record(read_game(text))  # type: ignore[arg-type]
    assert_valid(report)
    return text, report


def _rescored(text: str, report: GameReport, totals: list[int]) -> GameReport:
    """The same game with another Result written: the validator must reject it."""
    assert report.record.termination is not None
    result = ":".join(map(str, totals))
    changed = text.replace(f'[Result "{report.record.termination}"]', f'[Result "{result}"]')
    changed = changed.rstrip("\n")
    changed = changed[: changed.rfind("\n") + 1] + result + "\n"
    return check(changed)


def _misread_totals(report: GameReport, points: object) -> list[int]:
    state = report.state
    totals = []
    for player in range(len(report.players)):
        total = state.gold[player]
        for colour in "YBWGR":
            total += points(state.expeditions[player][colour], state, player)  # type: ignore[operator]
        totals.append(total)
    return totals


def _numbers(cards: list[str]) -> list[str]:
    return [c for c in cards if c[1:] != "w"]


def test_V_SCORE_FOOTPRINTS_legal() -> None:
    assert score_expedition("G", ["G6", "G7", "G8", "G9"]).footprints == 8
    assert score_expedition("W", ["W2", "W3", "W5"]).points == 3
    assert score_expedition("Y", ["Yw"]).points == 0  # no expedition cost in Rivals


def test_V_SCORE_FOOTPRINTS_illegal() -> None:
    # Face values instead of footprints (the classic way) must not pass as the result.
    text, report = _final(11, 2)

    def face(cards: list[str], state: object, player: int) -> int:
        score = score_expedition("R", cards)
        return sum(int(c[1:]) for c in _numbers(cards)) * score.multiplier + score.bonus

    totals = _misread_totals(report, face)
    assert totals != report.score.totals  # type: ignore[union-attr]
    assert ("result-mismatch", "V-END-RESULT", None) in errors(_rescored(text, report, totals))


def test_V_SCORE_WAGERS_legal() -> None:
    assert score_expedition("B", ["Bw", "Bw", "Bw", "Bw", "B2", "B4", "B8"]).points == 20
    assert score_expedition("W", ["Ww", "W3", "W6", "W9"]).points == 10


def test_V_SCORE_WAGERS_illegal() -> None:
    # Leaving out the starting wager from the multiplier must not pass as the result.
    text, report = _final(12, 3)

    def no_start(cards: list[str], state: object, player: int) -> int:
        score = score_expedition("R", cards)
        starting = sum(1 for c in state.start_wagers[player] if cards and c[0] == cards[0][0])  # type: ignore[attr-defined]
        return score.footprints * (score.multiplier - starting) + score.bonus

    totals = _misread_totals(report, no_start)
    assert totals != report.score.totals  # type: ignore[union-attr]
    assert ("result-mismatch", "V-END-RESULT", None) in errors(_rescored(text, report, totals))


def test_V_SCORE_BONUS_legal() -> None:
    red = score_expedition("R", ["Rw", "Rw", "R3", "R4", "R7", "R9"])
    assert (red.footprints, red.multiplier, red.bonus, red.points) == (6, 3, 8, 26)
    assert score_expedition("B", ["Bw", "B2", "B3", "B4"]).bonus == 0  # wagers do not count


def test_V_SCORE_BONUS_illegal() -> None:
    # A multiplied bonus must not pass as the result.
    for seed in range(20, 60):
        text, report = _final(seed, 2)

        def multiplied(cards: list[str], state: object, player: int) -> int:
            score = score_expedition("R", cards)
            return (score.footprints + score.bonus) * score.multiplier

        totals = _misread_totals(report, multiplied)
        if totals != report.score.totals:  # type: ignore[union-attr]
            break
    else:
        pytest.fail("no game with a multiplied bonus among the seeds")
    assert ("result-mismatch", "V-END-RESULT", None) in errors(_rescored(text, report, totals))


def test_V_SCORE_GOLD_legal() -> None:
    report = check(game(*full_uncover_game(), result="18:18"))
    assert_valid(report)
    assert report.score is not None and report.score.breakdown[0]["gold"] == 18


def test_V_SCORE_GOLD_illegal() -> None:
    report = check(game(*full_uncover_game(), result="0:0"))
    assert ("result-mismatch", "V-END-RESULT", None) in errors(report)


# -- every rule has both tests ------------------------------------------------------------

RULE_ID = re.compile(r"\bV-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")


def _tested() -> set[str]:
    names: set[str] = set()
    for path in sorted(Path(__file__).parent.glob("test_rivals*.py")):
        names.update(re.findall(r"^def (test_V_\w+)\(", path.read_text(encoding="utf-8"), re.M))
    return names


def _digest_ids() -> list[str]:
    text = (ROOT / "seeds" / "rivals.md").read_text(encoding="utf-8")
    return re.findall(r"^### (V-[A-Z0-9-]+) — ", text, re.M)


def test_every_rule_cited_by_the_engine_has_a_legal_and_an_illegal_test() -> None:
    source = (ROOT / "lcn" / "variants" / "rivals.py").read_text(encoding="utf-8")
    cited = set(RULE_ID.findall(source))
    assert cited, "the engine cites no rule"
    tested = _tested()
    missing = sorted(f"{rule}: {kind}" for rule in cited for kind in ("legal", "illegal")
                     if f"test_{rule.replace('-', '_')}_{kind}" not in tested)
    assert not missing
    assert cited <= set(_digest_ids()), sorted(cited - set(_digest_ids()))


def test_every_rule_of_the_digest_has_a_legal_and_an_illegal_test() -> None:
    ids = _digest_ids()
    assert len(ids) == len(set(ids)), "a rule ID appears twice in seeds/rivals.md"
    tested = _tested()
    missing = sorted(f"{rule}: {kind}" for rule in ids for kind in ("legal", "illegal")
                     if f"test_{rule.replace('-', '_')}_{kind}" not in tested)
    assert not missing


def test_every_rule_of_the_digest_names_its_source() -> None:
    text = (ROOT / "seeds" / "rivals.md").read_text(encoding="utf-8")
    blocks = re.split(r"^### ", text, flags=re.M)[1:]
    for block in blocks:
        lines = block.splitlines()
        assert re.fullmatch(r"V-[A-Z0-9-]+ — .+", lines[0]), lines[0]
        assert re.fullmatch(r"Source: 003_4a43d4460169e769\.txt §[A-Z][\w ]+", lines[1]), lines[:2]


def test_variant_constants() -> None:
    assert VARIANT.name == "rivals" and VARIANT.turn_unit == "numbered"
    assert (VARIANT.rule_game_over, VARIANT.rule_result, VARIANT.rule_turn_order) == (
        "V-END-LAST-CARD", "V-END-RESULT", "V-TURN-ORDER")

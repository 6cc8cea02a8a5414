"""Every rule of ``seeds/rollwrite.md``: a record that keeps it and a record that breaks it.

Each rule ID ``RW-X-Y`` has ``test_RW_X_Y_legal`` and ``test_RW_X_Y_illegal`` here; the last
tests check that no ID cited by the engine or listed in the digest is left without both.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lcn import read_game, validate_record
from lcn.validate import GameReport
from lcn.variants.rollwrite import VARIANT

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Ada", "Bo", "Cy", "Di", "Eve")
REST = "ROY123"


def T(roll: str, *choices: str, extra: str = "") -> tuple[str, tuple[str, ...], str]:
    """A turn: the roll, each player's choice in seat order (Ada, Bo, ...), words after them."""
    return roll, choices, extra


Turn = str | tuple[str, tuple[str, ...], str]


def movetext(turns: tuple[Turn, ...], players: int) -> list[str]:
    """The turns' texts, with each tuple turn's choices ordered from that turn's roller."""
    texts = []
    for number, turn in enumerate(turns, 1):
        if isinstance(turn, str):
            texts.append(turn)
            continue
        roll, choices, extra = turn
        roller = (number - 1) % players
        words = [roll] + [f"{NAMES[(roller + k) % players]}:{choices[(roller + k) % players]}"
                          for k in range(players)]
        texts.append(" ".join(words + ([extra] if extra else [])))
    return texts


def game(*turns: Turn, players: int = 2, tags: dict[str, str] | None = None,
         result: str = "*") -> str:
    """A Roll & Write record of Ada, Bo (Cy, Di, Eve) with the given turns."""
    lines = ['[Variant "rollwrite"]']
    for seat in range(players):
        lines.append(f'[Player{seat + 1} "{NAMES[seat]}"]')
    for name, value in (tags or {}).items():
        lines.append(f'[{name} "{value}"]')
    body = "\n".join(f"{n}. {text}" for n, text in enumerate(movetext(turns, players), 1))
    return "\n".join(lines) + "\n\n" + (body + "\n" if body else "") + result + "\n"


def check(text: str) -> GameReport:
    record = read_game(text)
    assert record is not None
    return validate_record(record, keep_snapshots=True)


def errors(report: GameReport) -> list[tuple[str, str | None, int | None]]:
    """(code, rule, turn) of every error."""
    return [(d.code, d.rule, d.turn) for d in report.diagnostics if d.is_error]


def assert_valid(report: GameReport) -> None:
    assert report.valid, [d.format() for d in report.diagnostics]


def finished(*turns: Turn, players: int = 2, tags: dict[str, str] | None = None,
             result: str | None = None) -> str:
    """The turns, then everyone refusing until all are exhausted; the computed Result if None."""
    report = check(game(*turns, players=players, tags=tags))
    assert report.state is not None
    left = max(9 - sheet.dice for sheet in report.state.sheets)
    all_turns = turns + tuple(T(REST, *["-"] * players) for _ in range(left))
    if result is None:
        final = check(game(*all_turns, players=players, tags=tags))
        assert final.over and final.score is not None
        result = ":".join(map(str, final.score.totals))
    return game(*all_turns, players=players, tags=tags, result=result)


def sheet(report: GameReport, seat: int) -> dict:
    assert report.snapshots
    return report.snapshots[-1]["sheets"][seat]


# -- setup ----------------------------------------------------------------------------------

def test_RW_SETUP_PLAYERS_legal() -> None:
    for players in (2, 3, 5):
        report = check(game(T("RRR111", *["R1"] * players), players=players))
        assert_valid(report)
        assert report.players == list(NAMES[:players])


def test_RW_SETUP_PLAYERS_illegal() -> None:
    one = check('[Variant "rollwrite"]\n[Player1 "Ada"]\n\n*\n')
    assert ("player-count", "RW-SETUP-PLAYERS", None) in errors(one)
    gap = check('[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Player4 "Di"]\n\n*\n')
    assert ("player-count", "RW-SETUP-PLAYERS", None) in errors(gap)
    six = game(players=5, tags={"Player6": "Fay"})
    assert ("player-count", "RW-SETUP-PLAYERS", None) in errors(check(six))


def test_RW_SETUP_SHEET_legal() -> None:
    report = check(game(T("ROY123", "R1", "O2"), T("GBP456", "G4", "P5"),
                        T("YBB789", "B9", "Y7")))
    assert_valid(report)
    assert {c: bool(sheet(report, 0)["expeditions"][c]["numbers"]) for c in "ROYGBP"} == {
        "R": True, "O": False, "Y": False, "G": True, "B": True, "P": False}


def test_RW_SETUP_SHEET_illegal() -> None:
    report = check(game(T("ROY123", "W1", "O2")))
    assert errors(report) == [("bad-colour", "RW-SETUP-SHEET", 1)]


def test_RW_SETUP_DICE_legal() -> None:
    report = check(game("yor307 ada:r3 bo:o7"))
    assert_valid(report)
    assert report.snapshots is not None
    assert report.snapshots[-1]["roll"] == {"colours": ["R", "O", "Y"], "numbers": [0, 3, 7]}


@pytest.mark.parametrize("roll", ["ROW307", "RO307", "ROGB307", "ROG30", "ROG3a7"])
def test_RW_SETUP_DICE_illegal(roll: str) -> None:
    report = check(game(f"{roll} Ada:R3 Bo:O7"))
    assert errors(report) == [("bad-roll", "RW-SETUP-DICE", 1)]


def test_RW_SETUP_LAYOUT_legal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sheet_tag = {"Sheet": "R:>A....... G:?????????"}
    # With the layout known, a declined arrow and a box's artefact need no mark.
    report = check(game(T("RRG113", "R1", "R1>G"), T("RRG224", "R2", "R2"), tags=sheet_tag))
    assert_valid(report)
    assert sheet(report, 0)["artefacts"] == 1 and sheet(report, 1)["artefacts"] == 1
    assert report.snapshots is not None and report.snapshots[-1]["layout_source"] == "mixed"
    layout = tmp_path / "sheet.txt"
    layout.write_text("# my sheet\nR:>A.......\nO:......... Y:......... G:.........\n"
                      "B:......... P:.........\n", encoding="utf-8")
    monkeypatch.setenv("LCN_ROLLWRITE_SHEET", str(layout))
    from_file = check(game(T("RRG113", "R1", "R1>G"), T("RRG224", "R2", "R2")))
    assert_valid(from_file)
    assert from_file.snapshots is not None
    assert from_file.snapshots[-1]["layout_source"] == "file"


def test_RW_SETUP_LAYOUT_illegal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("R:>A", "X:.........", "R:.........  R:.........", "R:..x......"):
        report = check(game(T("RRR111", "R1", "R1"), tags={"Sheet": value}))
        assert [e[:2] for e in errors(report)] == [("bad-layout", "RW-SETUP-LAYOUT")], value
    monkeypatch.setenv("LCN_ROLLWRITE_SHEET", str(tmp_path / "missing.txt"))
    report = check(game(T("RRR111", "R1", "R1")))
    assert [e[:2] for e in errors(report)] == [("bad-layout", "RW-SETUP-LAYOUT")]


# -- turns ----------------------------------------------------------------------------------

def test_RW_TURN_ORDER_legal() -> None:
    report = check(game("ROG123 Ada:R1 Bo:O2 Cy:G3", "ROG123 Bo:R1 Cy:O2 Ada:G3",
                        "ROG123 Cy:R1 Ada:O2 Bo:G3", "ROG223 Ada:R2 Bo:O2 Cy:G3", players=3))
    assert_valid(report)
    assert report.snapshots is not None
    assert [s["next_player"] for s in report.snapshots] == [0, 1, 2, 0, 1]


@pytest.mark.parametrize(("text", "code"), [
    ("ROG123 Bo:R1 Ada:O2", "turn-order"),
    ("ROG123 Ada:R1", "choice-missing"),
    ("ROG123 Ada:R1 Bo:O2 Ada:R2", "choice-twice"),
])
def test_RW_TURN_ORDER_illegal(text: str, code: str) -> None:
    report = check(game(text))
    assert (code, "RW-TURN-ORDER", 1) in errors(report)


def test_RW_TURN_ORDER_illegal_out_of_order_in_three() -> None:
    report = check(game("ROG123 Ada:R1 Cy:O2 Bo:G3", players=3))
    assert errors(report) == [("turn-order", "RW-TURN-ORDER", 1)]


def test_RW_TURN_ROLLER_DICE_legal() -> None:
    assert_valid(check(game(T("RRP089", "P0", "R8"))))


def test_RW_TURN_ROLLER_DICE_illegal() -> None:
    report = check(game(T("RRP189", "O1", "R8")))
    assert errors(report) == [("not-rolled", "RW-TURN-ROLLER-DICE", 1)]
    report = check(game(T("RRP189", "R2", "R8")))
    assert errors(report) == [("not-rolled", "RW-TURN-ROLLER-DICE", 1)]


def test_RW_TURN_OTHERS_DICE_legal() -> None:
    # Several players take the same dice; after the roller refuses, all six are there.
    assert_valid(check(game(T("ROG135", "R1", "O3", "O3"), players=3)))
    assert_valid(check(game(T("ROG135", "-", "R1", "R1"), players=3)))


def test_RW_TURN_OTHERS_DICE_illegal() -> None:
    taken = check(game(T("ROG135", "R1", "R3")))
    assert errors(taken) == [("die-taken", "RW-TURN-OTHERS-DICE", 1)]
    assert "four left (OG35)" in taken.diagnostics[0].message
    rolled = check(game(T("ROG135", "R1", "B3")))
    assert errors(rolled) == [("not-rolled", "RW-TURN-OTHERS-DICE", 1)]


# -- writing numbers ---------------------------------------------------------------------------

def test_RW_WRITE_ASCENDING_legal() -> None:
    report = check(game(T("RRR333", "R3", "R3"), T("RRR334", "R3", "R4")))
    assert_valid(report)
    assert sheet(report, 0)["expeditions"]["R"]["numbers"] == [3, 3]


def test_RW_WRITE_ASCENDING_illegal() -> None:
    report = check(game(T("RRR555", "R5", "R5"), T("RRR455", "R5", "R4")))
    assert errors(report) == [("not-ascending", "RW-WRITE-ASCENDING", 2)]


def test_RW_WRITE_ZERO_legal() -> None:
    report = check(game(T("RRR099", "R9", "R9"), T("RRR009", "R10", "R10")))
    assert_valid(report)
    assert sheet(report, 1)["expeditions"]["R"]["numbers"] == [9, 10]


def test_RW_WRITE_ZERO_illegal() -> None:
    assert errors(check(game(T("RRR199", "R11", "R9")))) == [("bad-number", "RW-WRITE-ZERO", 1)]
    # R10 is a 0 read as 10: it needs a number die showing 0.
    report = check(game(T("RRR199", "R9", "R9"), T("RRR199", "R9", "R10")))
    assert errors(report) == [("not-rolled", "RW-TURN-ROLLER-DICE", 2)]


def test_RW_WRITE_ZERO_START_legal() -> None:
    report = check(game(T("RRR012", "R0", "R1"), T("RRR112", "R1", "R2")))
    assert_valid(report)
    assert sheet(report, 0)["expeditions"]["R"] == {"numbers": [1], "circle": "X", "top": False,
                                                    "points": -40}


def test_RW_WRITE_ZERO_START_illegal() -> None:
    report = check(game(T("RRR012", "R10", "R1")))
    assert errors(report) == [("zero-start", "RW-WRITE-ZERO-START", 1)]
    marked = check(game(T("RRR012", "R0", "R1"), T("RRR012", "R10", "R2")))
    assert errors(marked) == [("zero-start", "RW-WRITE-ZERO-START", 2)]


def test_RW_CIRCLE_legal() -> None:
    report = check(game(T("RBB001", "R0", "B0"), T("RRB111", "R1", "R1")))
    assert_valid(report)
    assert sheet(report, 0)["expeditions"]["R"]["circle"] == "X"
    assert sheet(report, 1)["expeditions"]["R"]["circle"] == "-"  # started without: struck
    assert sheet(report, 1)["expeditions"]["B"]["circle"] == "X"


def test_RW_CIRCLE_illegal() -> None:
    late = check(game(T("RRR011", "R1", "R1"), T("RRR011", "R0", "R1")))
    assert errors(late) == [("circle-too-late", "RW-CIRCLE", 2)]
    twice = check(game(T("RRR001", "R0", "R1"), T("RRR001", "R0", "R1")))
    assert errors(twice) == [("circle-twice", "RW-CIRCLE", 2)]


def _full_red(players: int = 2) -> list[Turn]:
    """Nine turns in which every player fills the red expedition with 1s."""
    return [T("RRR111", *["R1"] * players) for _ in range(9)]


def test_RW_WRITE_FULL_legal() -> None:
    report = check(game(*_full_red(), T("RRR111", "R1^", "-")))
    assert_valid(report)
    assert sheet(report, 0)["expeditions"]["R"]["numbers"] == [1] * 9


def test_RW_WRITE_FULL_illegal() -> None:
    report = check(game(*_full_red(), T("RRR111", "R1", "-")))
    assert errors(report) == [("expedition-full", "RW-WRITE-FULL", 10)]


def test_RW_TOP_ARTEFACT_legal() -> None:
    report = check(game(*_full_red(), T("RRR111", "R1^", "R1^")))
    assert_valid(report)
    assert sheet(report, 0)["expeditions"]["R"]["top"] is True
    assert sheet(report, 0)["artefacts"] == 1 and sheet(report, 1)["artefacts"] == 1


def test_RW_TOP_ARTEFACT_illegal() -> None:
    early = check(game(T("RRR111", "R1^", "-")))
    assert errors(early) == [("not-full", "RW-TOP-ARTEFACT", 1)]
    twice = check(game(*_full_red(), T("RRR111", "R1^", "-"), T("RRR111", "-", "R1^"),
                       T("RRR111", "R1^", "-")))
    assert errors(twice) == [("top-claimed", "RW-TOP-ARTEFACT", 12)]
    lower = check(game(*[T("RRR555", "R5", "-") for _ in range(9)], T("RRR444", "R4^", "-")))
    assert errors(lower) == [("not-ascending", "RW-WRITE-ASCENDING", 10)]


# -- accelerations and artefacts -----------------------------------------------------------------

def test_RW_ACCEL_ARROW_legal() -> None:
    report = check(game(T("RRR333", "R3>G", "R3>-")))
    assert_valid(report)
    assert sheet(report, 0)["expeditions"]["G"]["numbers"] == [1]
    assert report.snapshots is not None
    assert report.snapshots[-1]["layout"]["R"][0] == ">"


def test_RW_ACCEL_ARROW_illegal() -> None:
    report = check(game(T("RRR333", "R3>G", "R3"), tags={"Sheet": "R:A........"}))
    assert errors(report) == [("no-arrow", "RW-ACCEL-ARROW", 1)]


def test_RW_ACCEL_COPY_legal() -> None:
    # Ada: R5 (plain), then R6 on an arrow box accelerates red (copy 6), whose next box is an
    # arrow too: accelerate yellow, not started, which gets a 1.
    report = check(game(T("RRR556", "R5", "R5"), T("RRR666", "R6>R>Y", "R6>R>-")))
    assert_valid(report)
    ada = sheet(report, 0)["expeditions"]
    assert ada["R"]["numbers"] == [5, 6, 6]
    assert ada["Y"]["numbers"] == [1] and ada["Y"]["circle"] == "-"
    assert sheet(report, 1)["expeditions"]["R"]["numbers"] == [5, 6, 6]
    assert report.snapshots is not None
    assert report.snapshots[-1]["choices"][1]["player"] == 0
    assert report.snapshots[-1]["choices"][1]["boxes"] == [
        {"colour": "R", "box": 2, "value": 6, "top": False, "artefact": False, "arrow": True},
        {"colour": "R", "box": 3, "value": 6, "top": False, "artefact": False, "arrow": True},
        {"colour": "Y", "box": 1, "value": 1, "top": False, "artefact": False, "arrow": False}]


@pytest.mark.parametrize("choice", ["R3>", "R3>X", "R3>G>", "R3>>G"])
def test_RW_ACCEL_COPY_illegal(choice: str) -> None:
    report = check(game(T("RRR333", choice, "R3")))
    assert [e[0] for e in errors(report)] in (["bad-acceleration"], ["move-syntax"])
    assert errors(report)[0][2] == 1


def test_RW_ACCEL_FULL_legal() -> None:
    report = check(game(*_full_red(), T("BBB333", "B3>R^", "B3>-")))
    assert_valid(report)
    assert sheet(report, 0)["expeditions"]["R"]["top"] is True
    assert sheet(report, 0)["artefacts"] == 1


def test_RW_ACCEL_FULL_illegal() -> None:
    plain = check(game(*_full_red(), T("BBB333", "B3>R", "B3>-")))
    assert errors(plain) == [("expedition-full", "RW-ACCEL-FULL", 10)]
    claimed = check(game(*_full_red(), T("RRR111", "R1^", "-"), T("BBB333", "B3>-", "B3>R^"),
                         T("GGG333", "G3>R^", "G3>-")))
    assert errors(claimed) == [("top-claimed", "RW-ACCEL-FULL", 12)]


def test_RW_ARTEFACT_BOX_legal() -> None:
    report = check(game(T("RRR333", "R3+", "R3+")))
    assert_valid(report)
    assert sheet(report, 0)["artefacts"] == 1
    # The column holds nine: further artefacts have no effect.
    every = {"Sheet": " ".join(f"{c}:AAAAAAAAA" for c in "ROYGBP")}
    many = check(game(*[T("RRR111", "R1", "-") for _ in range(9)], T("OOO111", "O1", "-"),
                      tags=every))
    assert_valid(many)
    assert sheet(many, 0)["artefacts"] == 9 and sheet(many, 0)["points"]["art"] == 100


def test_RW_ARTEFACT_BOX_illegal() -> None:
    report = check(game(T("RRR333", "R3+", "R3"), tags={"Sheet": "R:>........"}))
    assert errors(report) == [("no-artefact", "RW-ARTEFACT-BOX", 1)]


def test_RW_LAYOUT_CONSISTENT_legal() -> None:
    report = check(game(T("RRR333", "R3+>-", "-"), T("RGG344", "G4", "R3+>G"),
                        T("RRR344", "R4", "R4"), players=2))
    assert_valid(report)
    assert report.snapshots is not None
    layout = report.snapshots[-1]["layout"]
    assert layout["R"][:3] == ["*", ".", "?"]
    assert layout["G"][:2] == [".", "?"]


def test_RW_LAYOUT_CONSISTENT_illegal() -> None:
    # Red box 2 gives Ada an artefact in turn 2; Bo fills it without one in turn 4.
    report = check(game(T("RRR111", "R1", "R1"), T("RRR222", "R2+", "-"), T("GGG111", "G1", "G1"),
                        T("RRR222", "-", "R2")))
    assert errors(report) == [("layout-mismatch", "RW-LAYOUT-CONSISTENT", 4)]
    message = report.diagnostics[0].message
    assert "red box 2" in message and "turn 2" in message and "Ada" in message


def test_RW_LAYOUT_CONSISTENT_illegal_arrow() -> None:
    arrow = check(game(T("RRR111", "R1>-", "-"), T("RRR111", "R1", "R1")))
    assert errors(arrow) == [("layout-mismatch", "RW-LAYOUT-CONSISTENT", 2)]
    plain = check(game(T("RRR111", "R1", "-"), T("RRR111", "R1", "R1>G")))
    assert errors(plain) == [("layout-mismatch", "RW-LAYOUT-CONSISTENT", 2)]


# -- the dice column -----------------------------------------------------------------------------

def test_RW_DICE_SHADE_legal() -> None:
    report = check(game(*[T(REST, "-", "R1")] * 3, T(REST, "R1", "-")))
    assert_valid(report)
    assert sheet(report, 0)["dice"] == 3 and sheet(report, 1)["dice"] == 1
    assert sheet(report, 0)["points"]["dice"] == -20


def test_RW_DICE_SHADE_illegal() -> None:
    # Eight refusals shade eight symbols: Ada is not exhausted yet.
    report = check(game(*[T(REST, "-", "R1")] * 7, T(REST, "-", "R1", extra="exhausted:Ada")))
    assert errors(report) == [("exhausted-mismatch", "RW-DICE-EXHAUSTED", 8)]


def test_RW_DICE_EXHAUSTED_legal() -> None:
    turns = [T(REST, "-", "R1")] * 8 + [T(REST, "-", "R1", extra="exhausted:Ada")]
    report = check(game(*turns, T(REST, "-", "O1"), T("ROY113", "Y1", "O1")))
    assert_valid(report)
    ada = sheet(report, 0)
    assert ada["dice"] == 9 and ada["exhausted"] and ada["points"]["dice"] == 0
    assert ada["expeditions"]["Y"]["numbers"] == [1]  # an exhausted player keeps playing
    assert not report.over


def test_RW_DICE_EXHAUSTED_illegal() -> None:
    turns = [T(REST, "-", "R1")] * 8 + [T(REST, "-", "R1", extra="exhausted:Bo")]
    report = check(game(*turns))
    assert errors(report) == [("exhausted-mismatch", "RW-DICE-EXHAUSTED", 9)]


# -- bridges -----------------------------------------------------------------------------------

def test_RW_BRIDGE_PASS_legal() -> None:
    # Ada's seventh red box is a copy made by an acceleration: it passes the bridge as well.
    turns = [T("RRR111", "R1", "-")] * 6 + [T("GGG111", "G1>R", "-", extra="bridge:R,D")]
    report = check(game(*turns))
    assert_valid(report)
    assert report.snapshots is not None
    assert report.snapshots[-1]["bridges"]["R"] == {"turn": 7, "players": [0]}
    assert sheet(report, 0)["bridges"]["R"] == "won" and sheet(report, 1)["bridges"]["R"] == "struck"


def test_RW_BRIDGE_PASS_illegal() -> None:
    turns = [T("RRR111", "R1", "-")] * 5 + [T("RRR111", "R1", "-", extra="bridge:R")]
    report = check(game(*turns))
    assert errors(report) == [("bridge-mismatch", "RW-BRIDGE-FIRST", 6)]


def test_RW_BRIDGE_FIRST_legal() -> None:
    # Ada and Bo pass the red bridge in the same turn: both score; Cy passes it later: struck.
    turns = [T("RRR111", "R1", "R1", "-")] * 7 + [T("RRR111", "-", "-", "R1")] * 7
    report = check(game(*turns, players=3))
    assert_valid(report)
    assert report.snapshots is not None
    assert report.snapshots[7]["bridges"]["R"] == {"turn": 7, "players": [0, 1]}
    states = [sheet(report, seat)["bridges"]["R"] for seat in range(3)]
    assert states == ["won", "won", "struck"]
    # Cy's seventh refusal passes the dice bridge in turn 7; Ada's and Bo's come too late.
    assert report.snapshots[-1]["bridges"]["D"] == {"turn": 7, "players": [2]}
    assert [sheet(report, s)["points"]["bonus"] for s in range(3)] == [20, 20, 20]


def test_RW_BRIDGE_FIRST_illegal() -> None:
    turns = [T("RRR111", "R1", "-")] * 6 + [T("RRR111", "R1", "-", extra="bridge:R,D")]
    turns += [T("RRR111", "-", "R1")] * 6 + [T("RRR111", "-", "R1", extra="bridge:R")]
    report = check(game(*turns))
    assert errors(report) == [("bridge-mismatch", "RW-BRIDGE-FIRST", 14)]


# -- the end -----------------------------------------------------------------------------------

def test_RW_END_CONDITION_legal() -> None:
    text = finished(T("RRR111", "R1", "R1"))
    report = check(text)
    assert_valid(report)
    assert report.over and len(report.record.turns) == 10
    # All eight bridges: the game ends though nobody is exhausted.
    # Ada fills seven boxes of every expedition (two artefacts each), Bo refuses.
    every = {"Sheet": " ".join(f"{c}:AA......." for c in "ROYGBP")}
    turns: list[Turn] = [T(f"{c}{c}{c}111", f"{c}1", "-") for c in "ROYGBP" for _ in range(7)]
    turns[-1] = T("PPP111", "P1", "-", extra="end")
    bridges = check(game(*turns, tags=every))
    assert_valid(bridges)
    assert bridges.over and len(bridges.record.turns) == 42
    assert bridges.state is not None and not bridges.state.sheets[0].exhausted


def test_RW_END_CONDITION_illegal() -> None:
    text = finished(T("RRR111", "R1", "R1"), result="*")
    report = check(text.replace("\n*\n", f"\n11. {REST} Bo:- Ada:-\n*\n"))
    assert errors(report) == [("after-game-end", "RW-END-CONDITION", 11)]
    early = check(game(T("RRR111", "R1", "R1", extra="end")))
    assert errors(early) == [("not-the-end", "RW-END-CONDITION", 1)]


def test_RW_END_RESULT_legal() -> None:
    report = check(finished(T("RRR111", "R1", "R1")))
    assert_valid(report)
    assert report.score is not None
    # One red box (-20), nine dice symbols (0), the dice bridge passed by both in turn 8 (20).
    assert report.score.totals == [0, 0]


def test_RW_END_RESULT_illegal() -> None:
    wrong = check(finished(T("RRR111", "R1", "R1"), result="5:0"))
    assert [e[:2] for e in errors(wrong)] == [("result-mismatch", "RW-END-RESULT")]
    early = check(game(T("RRR111", "R1", "R1"), result="-20:-20"))
    assert [e[:2] for e in errors(early)] == [("game-unfinished", "RW-END-RESULT")]


# -- scoring -----------------------------------------------------------------------------------

def _expedition_game(boxes: int, circle: bool, result: str | None = None) -> str:
    turns: list[Turn] = [T("RRR011", "R0", "-")] if circle else []
    turns += [T("RRR111", "R1", "-")] * boxes
    return finished(*turns, result=result)


@pytest.mark.parametrize(("boxes", "points"), [(0, 0), (1, -20), (2, -15), (3, -10), (4, 5),
                                               (5, 10), (6, 15), (7, 30), (8, 35), (9, 50)])
def test_RW_SCORE_EXPEDITION_legal(boxes: int, points: int) -> None:
    report = check(_expedition_game(boxes, False))
    assert_valid(report)
    assert report.score is not None and report.score.breakdown[0]["R"] == points


def test_RW_SCORE_EXPEDITION_illegal() -> None:
    # Counting the sum of the numbers (as in classic) instead of the boxes is wrong.
    report = check(_expedition_game(4, False))
    assert report.score is not None
    total = report.score.totals[0] - report.score.breakdown[0]["R"] + (4 - 20)
    wrong = check(_expedition_game(4, False, result=f"{total}:{report.score.totals[1]}"))
    assert [e[:2] for e in errors(wrong)] == [("result-mismatch", "RW-END-RESULT")]


@pytest.mark.parametrize(("boxes", "points"), [(0, -100), (1, -40), (4, 10), (8, 70), (9, 100)])
def test_RW_SCORE_DOUBLE_legal(boxes: int, points: int) -> None:
    report = check(_expedition_game(boxes, True))
    assert_valid(report)
    assert report.score is not None and report.score.breakdown[0]["R"] == points


def test_RW_SCORE_DOUBLE_illegal() -> None:
    report = check(_expedition_game(8, True))
    assert report.score is not None
    undoubled = report.score.totals[0] - 35
    wrong = check(_expedition_game(8, True, result=f"{undoubled}:{report.score.totals[1]}"))
    assert [e[:2] for e in errors(wrong)] == [("result-mismatch", "RW-END-RESULT")]


def _artefact_game(count: int, result: str | None = None) -> str:
    every = {"Sheet": " ".join(f"{c}:AAAAAAAAA" for c in "ROYGBP")}
    turns = [T("OOO111", "O1", "-")] * count
    return finished(*turns, tags=every, result=result)


@pytest.mark.parametrize(("count", "points"), [(1, -40), (3, -20), (4, 10), (7, 60), (8, 70),
                                               (9, 100)])
def test_RW_SCORE_ARTEFACTS_legal(count: int, points: int) -> None:
    report = check(_artefact_game(count))
    assert_valid(report)
    assert report.score is not None and report.score.breakdown[0]["art"] == points


def test_RW_SCORE_ARTEFACTS_illegal() -> None:
    report = check(_artefact_game(9))
    assert report.score is not None
    wrong_total = report.score.totals[0] - 100 + 70
    wrong = check(_artefact_game(9, result=f"{wrong_total}:{report.score.totals[1]}"))
    assert [e[:2] for e in errors(wrong)] == [("result-mismatch", "RW-END-RESULT")]


def test_RW_SCORE_DICE_legal() -> None:
    for refusals, points in ((1, -40), (4, 10), (8, 70)):
        report = check(game(*[T(REST, "-", "R1")] * refusals))
        assert report.score is not None and report.score.breakdown[0]["dice"] == points
    exhausted = check(finished(T("RRR111", "R1", "R1")))
    assert exhausted.score is not None and exhausted.score.breakdown[0]["dice"] == 0


def test_RW_SCORE_DICE_illegal() -> None:
    report = check(finished(T("RRR111", "R1", "R1")))
    assert report.score is not None
    wrong = check(finished(T("RRR111", "R1", "R1"),
                           result=f"{report.score.totals[0] + 70}:{report.score.totals[1]}"))
    assert [e[:2] for e in errors(wrong)] == [("result-mismatch", "RW-END-RESULT")]


def test_RW_SCORE_BRIDGES_legal() -> None:
    report = check(finished(*[T("RRR111", "R1", "-")] * 7))
    assert_valid(report)
    assert report.score is not None
    # Ada scores the red bridge (turn 7); Bo's seventh refusal, in the same turn, gives Bo the
    # dice bridge, which Ada's seventh refusal reaches too late.
    assert report.score.breakdown[0]["bonus"] == 20
    assert report.score.breakdown[0]["R"] == 30  # not doubled, not added to the expedition
    assert report.score.breakdown[1]["bonus"] == 20
    assert report.score.details[0]["bridges"] == {"won": ["R"], "points": 20}
    assert report.score.details[1]["bridges"] == {"won": ["D"], "points": 20}


def test_RW_SCORE_BRIDGES_illegal() -> None:
    report = check(finished(*[T("RRR111", "R1", "-")] * 7))
    assert report.score is not None
    wrong = check(finished(*[T("RRR111", "R1", "-")] * 7,
                           result=f"{report.score.totals[0]}:{report.score.totals[1] + 20}"))
    assert [e[:2] for e in errors(wrong)] == [("result-mismatch", "RW-END-RESULT")]


def test_RW_SCORE_TOTAL_legal() -> None:
    report = check(finished(T("RRR011", "R0", "R1"), *[T("RRR111", "R1", "-")] * 3))
    assert report.score is not None
    for seat in range(2):
        assert report.score.totals[seat] == sum(report.score.breakdown[seat].values())


def test_RW_SCORE_TOTAL_illegal() -> None:
    text = finished(T("RRR011", "R0", "R1"))
    report = check(text)
    assert report.score is not None
    swapped = ":".join(map(str, reversed(report.score.totals)))
    assert report.score.totals[0] != report.score.totals[1]
    wrong = check(finished(T("RRR011", "R0", "R1"), result=swapped))
    assert [e[:2] for e in errors(wrong)] == [("result-mismatch", "RW-END-RESULT")]


# -- every rule is tested ------------------------------------------------------------------------

RULE_ID = re.compile(r'"(RW-[A-Z0-9-]+)"')


def _tested() -> set[str]:
    return {name for name in globals() if name.startswith("test_RW_")}


def _digest_ids() -> list[str]:
    text = (ROOT / "seeds" / "rollwrite.md").read_text(encoding="utf-8")
    return re.findall(r"^### (RW-[A-Z0-9-]+) — ", text, re.M)


def _missing(ids: set[str] | list[str]) -> list[str]:
    tested = _tested()
    return sorted(f"{rule}: {kind}" for rule in ids for kind in ("legal", "illegal")
                  if f"test_{rule.replace('-', '_')}_{kind}" not in tested)


def test_every_rule_cited_by_the_engine_has_a_legal_and_an_illegal_test() -> None:
    source = (ROOT / "lcn" / "variants" / "rollwrite.py").read_text(encoding="utf-8")
    cited = set(RULE_ID.findall(source))
    assert len(cited) > 20, "the engine cites too few rules"
    assert not _missing(cited)
    assert cited <= set(_digest_ids()), sorted(cited - set(_digest_ids()))


def test_every_rule_of_the_digest_has_a_legal_and_an_illegal_test() -> None:
    ids = _digest_ids()
    assert len(ids) == len(set(ids)), "a rule ID appears twice in seeds/rollwrite.md"
    assert not _missing(ids)


def test_every_rule_of_the_digest_names_its_source() -> None:
    text = (ROOT / "seeds" / "rollwrite.md").read_text(encoding="utf-8")
    blocks = re.split(r"^### ", text, flags=re.M)[1:]
    for block in blocks:
        lines = block.splitlines()
        assert re.fullmatch(r"RW-[A-Z0-9-]+ — .+", lines[0]), lines[0]
        for part in lines[1].removeprefix("Source: ").split("; "):
            assert re.fullmatch(r"(004_99abb5b94b5b3c80\.txt|research/game-data\.md) §\S.*",
                                part), lines[:2]
        assert lines[1].startswith("Source: ")


def test_variant_constants() -> None:
    assert VARIANT.name == "rollwrite" and VARIANT.turn_unit == "numbered"
    assert (VARIANT.rule_game_over, VARIANT.rule_result, VARIANT.rule_turn_order) == (
        "RW-END-CONDITION", "RW-END-RESULT", "RW-TURN-ORDER")
    assert (VARIANT.min_players, VARIANT.max_players) == (2, 5)

"""The Roll & Write movetext: lenient reading, canonical writing, precise places for errors,
player tokens, the layout format, and the examples of ``docs/spec-rollwrite.md``."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from lcn import read_game, validate_record, write_game
from lcn.variants.base import MoveSyntaxError
from lcn.variants.rollwrite import (
    LayoutError,
    format_move,
    load_layout,
    parse_layout,
    parse_move,
    player_tokens,
)

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "spec-rollwrite.md"
HEAD = '[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n'


@pytest.mark.parametrize(("text", "canonical"), [
    ("rog307 ada:r3 bo:o7", "ROG037 Ada:R3 Bo:O7"),
    ("GOR730 P1:R3+>g P2:-", "ROG037 Ada:R3+>G Bo:-"),
    ("ppp000 Ada:P0 Bo:p10^", "PPP000 Ada:P0 Bo:P10^"),
    ("RRR111 Ada:R1>R>Y+>- Bo:R1>b^", "RRR111 Ada:R1>R>Y+>- Bo:R1>B^"),
    ("RRR111 Ada:R1 Bo:R1 BRIDGE:d,r EXHAUSTED:bo,ada END", "RRR111 Ada:R1 Bo:R1 bridge:R,D "
     "exhausted:Ada,Bo end"),
])
def test_turns_are_read_leniently_and_written_canonically(text: str, canonical: str) -> None:
    assert format_move(parse_move(text, ["Ada", "Bo"])) == canonical


def test_player_tokens() -> None:
    assert player_tokens(["Ada", "Mary Ann", "bridge", "Player 4", "ada"]) == [
        "P1", "MaryAnn", "P3", "P4", "P5"]


def test_a_turn_may_span_lines_and_keeps_its_comments_and_glyphs() -> None:
    text = HEAD + "1. ROG307 {the roll}\n Ada:R3! Bo:O7 {Bo takes seven}\n*\n"
    record = read_game(text)
    assert record is not None
    assert record.turns[0].text == "ROG307 Ada:R3 Bo:O7"
    assert validate_record(record).valid
    assert write_game(record).endswith("1. ROG037 Ada:R3 Bo:O7! {the roll} {Bo takes seven}\n*\n")


def test_an_error_on_the_second_line_of_a_turn_points_there() -> None:
    record = read_game(HEAD + "1. ROG307 Ada:R3\n   Bo:R7\n*\n")
    assert record is not None
    errors = [d for d in validate_record(record).diagnostics if d.is_error]
    assert [(d.code, d.line, d.column, d.length) for d in errors] == [("die-taken", 6, 7, 2)]


def test_an_error_inside_a_chain_points_at_its_box() -> None:
    record = read_game('[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n'
                       '[Sheet "R:>>....... Y:A........"]\n\n1. RRR111 Ada:R1>R>Y+ Bo:R1\n*\n')
    assert record is not None
    errors = [d for d in validate_record(record).diagnostics if d.is_error]
    # The copy into red box 2 carries an arrow (>Y) and lands fine; Y box 1 has an artefact: fine.
    assert errors == []
    record = read_game('[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n'
                       '[Sheet "R:>>....... Y:........."]\n\n1. RRR111 Ada:R1>R>Y+ Bo:R1\n*\n')
    assert record is not None
    errors = [d for d in validate_record(record).diagnostics if d.is_error]
    assert [(d.code, d.column, d.length) for d in errors] == [("no-artefact", 20, 2)]


@pytest.mark.parametrize(("turn", "code", "rule", "column"), [
    ("1. XOG307 Ada:R3 Bo:O7", "bad-roll", "RW-SETUP-DICE", 4),
    ("1. ROG307 Cy:R3 Bo:O7", "unknown-player", "LCN-RW-PLAYER", 11),
    ("1. ROG307 Ada:R3 Bo:O7 exhausted:Cy", "unknown-player", "LCN-RW-PLAYER", 34),
    ("1. ROG307 Ada R3 Bo:O7", "move-syntax", "LCN-RW-TURN", 11),
    ("1. ROG307 Ada:R3 Bo:W7", "bad-colour", "RW-SETUP-SHEET", 21),
    ("1. ROG307 Ada:R33 Bo:O7", "bad-number", "RW-WRITE-ZERO", 16),
    ("1. ROG307 Ada:R3>Q Bo:O7", "bad-acceleration", "RW-ACCEL-COPY", 17),
    ("1. ROG307 Ada:R3^> Bo:O7", "move-syntax", "LCN-RW-TURN", 18),
    ("1. ROG307 Ada:R3 end Bo:O7", "move-syntax", "LCN-RW-TURN", 22),
    ("1. ROG307 Ada:R3 Bo:O7 end bridge:R", "move-syntax", "LCN-RW-TURN", 28),
    ("1. ROG307 Ada:R3 Bo:O7 bridge:R,R", "move-syntax", "LCN-RW-TURN", 33),
    ("1. ROG307 Ada:R0^ Bo:O7", "move-syntax", "LCN-RW-TURN", 17),
])
def test_syntax_errors_say_where_and_what(turn: str, code: str, rule: str, column: int) -> None:
    record = read_game(HEAD + turn + " *\n")
    assert record is not None
    errors = [d for d in validate_record(record).diagnostics if d.is_error]
    assert [(d.code, d.rule, d.line, d.column) for d in errors][:1] == [(code, rule, 5, column)]


def test_after_an_unreadable_turn_later_turns_are_still_read() -> None:
    record = read_game(HEAD + "1. ROG307 Ada:R3 Bo:O7\n2. ROG307 Bo:Z3 Ada:-\n3. RRR Ada:R1 Bo:-\n*\n")
    assert record is not None
    report = validate_record(record)
    assert [(d.code, d.turn) for d in report.diagnostics if d.is_error] == [
        ("bad-colour", 2), ("bad-roll", 3)]
    assert not report.complete


def test_parse_move_raises_only_move_syntax_errors() -> None:
    rng = random.Random(5)
    alphabet = "ROYGBPAD0123456789:+>^-, abdex"
    for _ in range(3000):
        words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
                 for _ in range(rng.randint(1, 5))]
        text = " ".join(words)
        try:
            move = parse_move(text, ["Ada", "Bo", "Cy"])
        except MoveSyntaxError as exc:
            assert 0 <= exc.offset <= len(text) and exc.message
            continue
        canonical = format_move(move)
        assert format_move(parse_move(canonical, ["Ada", "Bo", "Cy"])) == canonical


def test_random_turns_give_diagnostics_never_an_exception() -> None:
    rng = random.Random(9)
    pieces = ["ROG307", "RRR111", "BBP590", "Ada:R3", "Bo:O7", "Ada:-", "Bo:-", "Ada:R0",
              "Bo:O10^", "Ada:R3+>G", "Bo:B5>R>-", "bridge:R", "exhausted:Bo", "end", "Cy:R1"]
    for _ in range(300):
        turns = [" ".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))
                 for _ in range(rng.randint(1, 12))]
        body = "\n".join(f"{n}. {t}" for n, t in enumerate(turns, 1))
        record = read_game(HEAD + body + "\n*\n")
        assert record is not None
        report = validate_record(record, keep_snapshots=True)
        assert report.diagnostics is not None


def test_layout_format() -> None:
    layout = parse_layout("r:>A*.?.... # comment\n\nP:.........")
    assert [(k.arrow, k.artefact) for k in layout["R"][:5]] == [
        (True, False), (False, True), (True, True), (False, False), (None, None)]
    assert all(k.arrow is False for k in layout["P"])
    assert all(k.arrow is None for k in layout["O"])


@pytest.mark.parametrize(("text", "message"), [
    ("R:>A", "2 boxes for the red expedition, expected 9"),
    ("Q:.........", "expected a colour letter"),
    ("R.........", "expected a colour letter"),
    ("R:......... r:.........", "given twice"),
    ("R:....x....", "box 5 is `x`"),
])
def test_layout_errors_say_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(LayoutError, match=re.escape(message)):
        parse_layout(text)


def test_a_layout_file_names_itself_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "sheet.txt"
    path.write_text("R:.........\nO:..\n", encoding="utf-8")
    with pytest.raises(LayoutError, match=r"sheet\.txt: line 2, `O:\.\.`: 2 boxes"):
        load_layout(path)
    with pytest.raises(LayoutError, match="cannot read"):
        load_layout(tmp_path / "none.txt")


def _blocks(info: str) -> list[str]:
    text = SPEC.read_text(encoding="utf-8")
    return re.findall(rf"^```{info}\n(.*?)^```$", text, re.M | re.S)


def test_the_specs_invalid_example_gives_the_diagnostic_shown() -> None:
    [game] = _blocks("lcn-invalid")
    record = read_game(game)
    assert record is not None
    report = validate_record(record)
    shown = [block for block in _blocks("") if block.startswith("<input>:")]
    assert [d.format("<input>").split("\n")[0] for d in report.diagnostics if d.is_error] == [
        shown[0].strip()]


def test_the_specs_turn_examples_parse() -> None:
    text = SPEC.read_text(encoding="utf-8")
    examples = {"ROG307 Ada:R3+>G Bo:O7 Cy:- bridge:R": "ROG037 Ada:R3+>G Bo:O7 Cy:- bridge:R",
                "BBP590 Bo:B5>R Cy:P9 Ada:B0 exhausted:Cy":
                "BBP059 Bo:B5>R Cy:P9 Ada:B0 exhausted:Cy"}
    for turn, canonical in examples.items():
        assert turn in text
        assert format_move(parse_move(turn, ["Ada", "Bo", "Cy"])) == canonical

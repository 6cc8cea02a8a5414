"""Every crash the fuzzers found, kept as a test: the input and the clear error it must get.

Each case is the smallest input that showed the crash, run through the same fuzz targets
(``fuzz/targets.py``) and, where it matters, checked for the diagnostic it must produce.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import lcn
from lcn import jsonform
from lcn.validate import parse_termination

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz import targets

TAGS = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
RIVALS = '[Variant "rivals"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
BIG = "9" * 5000  # more digits than int() converts (Python's 4300-digit limit)

#: (name, input, target names): every input here once crashed one of the targets.
CRASHES: list[tuple[str, bytes, tuple[str, ...]]] = [
    ("carriage return inside a tag value", b'[Player1 "A\rda"]\n[Player2 "Bo"]\n\nR5/d *\n',
     ("reader", "engines", "cli")),
    ("move number of 5000 digits", (TAGS + BIG + ". R5/d *\n").encode(), ("reader", "cli")),
    ("numeric glyph of 5000 digits", (TAGS + "R5/d $" + BIG + " *\n").encode(), ("reader", "cli")),
    ("numeric glyph with a superscript digit", (TAGS + "R5/d $\u00b2 *\n").encode(), ("reader",)),
    ("termination score of 5000 digits", (TAGS + "R5/d " + BIG + ":1\n").encode(),
     ("reader", "cli")),
    ("card of 5000 digits (classic)", (TAGS + "R" + BIG + "/d *\n").encode(), ("reader", "engines")),
    ("card with a superscript digit (classic)", (TAGS + "R\u00b2/d *\n").encode(), ("reader", "engines")),
    ("card of 5000 digits (rivals)",
     ('[Variant "rivals"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. up:R' + BIG + "\n*\n").encode(),
     ("reader", "engines")),
    ("bid of 4400 digits (rivals)", (RIVALS + "1. up:R5\n2. Ada" + "9" * 4400 + " Bo-\n*\n").encode(),
     ("reader", "engines")),
    ("seat bid of 4400 digits (rivals)", (RIVALS + "1. up:R5\n2. P1" + "9" * 4400 + "\n*\n").encode(),
     ("engines",)),
    ("share count with a superscript digit (rivals)", (RIVALS + "1. up:R5 share:\u00b2\n*\n").encode(),
     ("engines",)),
    ("pile sizes with a superscript digit (rivals)",
     RIVALS.replace("\n\n", '\n[PileSizes "\u00b20 20 20 20"]\n\n').encode() + b"1. up:R5\n*\n",
     ("reader", "engines")),
    ("die with a superscript digit (roll & write)",
     ('[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. ROB004 Ada:B\u00b2 Bo:-\n*\n').encode(),
     ("reader", "engines")),
    ("JSON number of 4400 digits", b"9" * 4400, ("json", "importers")),
    ("JSON turn number of 4400 digits",
     b'{"games": [{"tags": [], "turns": [{"text": "R5/d", "number": ' + b"9" * 4400 + b"}]}]}",
     ("json", "importers")),
    ("OpenSpiel action number of 4400 digits", b"9" * 4400, ("importers",)),
    ("OpenSpiel action history ending in 4400 digits", b"1 2 3 " + b"9" * 4400, ("importers",)),
    ("brdg.me player markup of 4400 digits", b"{{player " + b"9" * 4400 + b"}} drew 10 cards, 34 remaining",
     ("importers",)),
    ("brdg.me round of 4400 digits", b"Starting round " + b"9" * 4400, ("importers",)),
    ("brdg.me cards remaining of 4400 digits", b"Ada drew a card, " + b"9" * 4400 + b" remaining",
     ("importers",)),
    ("brdg.me score of 4400 digits", b"Ada scored 5 points, now on " + b"9" * 4400, ("importers",)),
    ("narrated heading of 4400 digits", b"Round " + b"9" * 4400, ("importers",)),
    ("narrated cards left of 4400 digits", b"Ada plays the red 7\n" + b"9" * 4400 + b" cards left",
     ("importers",)),
    ("narrated score of 4400 digits", b"Ada plays the red 7\nBo: " + b"9" * 4400 + b" points",
     ("importers",)),
    ("narrated card value with a superscript digit", "Ada plays the red \u00b2\n".encode(), ("importers",)),
    ("termination in Arabic-Indic digits", "\u0663:\u0663".encode(), ("reader",)),
    ("narrated log with a Result tag that is not a result",
     b'[Player1 "Emil"]\n[Player2 "Nora"]\n[Result "!!12:14"]\n\nEmil plays the yellow 2.\n'
     b"Emil draws from the draw pile.\n", ("importers",)),
    ("narrated log with a Result tag of 5000 digits",
     b'[Player1 "Emil"]\n[Player2 "Nora"]\n[Result "' + b"9" * 5000 + b':1"]\n\nEmil plays the yellow 2.\n'
     b"Emil draws from the draw pile.\n", ("importers",)),
    ("a turn starting with [ where the writer wraps the line",
     (TAGS + "1. R5/d {" + "x" * 70 + "} [ilo:O *\n").encode(), ("reader",)),
    ("a turn starting with [ after a ; comment",
     (TAGS + "1. R5/d ; a } in a comment\n1... [ilo:O *\n").encode(), ("reader",)),
    ("move number glued to a second one", (TAGS + "1. R5/d 2.0. B4/d *\n").encode(), ("reader",)),
    ("move number glued to the termination", (TAGS + "1. R5/d 2.*\n").encode(), ("reader",)),
    ("a line of glued move numbers", (TAGS + "1." * 20_000 + " *\n").encode(), ("reader",)),
]


@pytest.mark.parametrize(("name", "data", "names"), CRASHES, ids=[c[0] for c in CRASHES])
def test_crash_input_gets_a_clear_answer(name: str, data: bytes, names: tuple[str, ...]) -> None:
    for target in names:
        if target == "cli":
            targets.cli(data, [["validate", "-"], ["fmt", "--check", "-"], ["score", "-"]])
        else:
            targets.TARGETS[target](data)


def test_carriage_return_in_a_tag_value_is_reported_and_the_tag_skipped() -> None:
    game = lcn.read_game('[Player1 "A\rda"]\n[Player2 "Bo"]\n\nR5/d *\n')
    assert game is not None
    assert "Player1" not in game.tags
    problem = next(d for d in game.diagnostics if d.code == "tag-syntax")
    assert problem.line == 1
    assert problem.column == 12
    assert "carriage return" in problem.message


def test_huge_move_number_is_an_error_with_its_place() -> None:
    report = next(lcn.validate(TAGS + "R5/d " + BIG + ". B4/d *\n"))
    problem = next(d for d in report.diagnostics if d.code == "move-number")
    assert (problem.line, problem.column) == (4, 6)
    assert "5000 digits" in problem.message


def test_huge_score_in_the_termination_is_an_error_not_a_crash() -> None:
    assert parse_termination(BIG + ":1") is None
    assert parse_termination("57:-12") == [57, -12]
    report = next(lcn.validate(TAGS + "R5/d " + BIG + ":1\n"))
    assert not report.valid
    assert [d.code for d in report.diagnostics if d.is_error] == ["result-syntax"]


def test_huge_score_from_the_json_form_is_an_error_too() -> None:
    record = jsonform.from_json({"tags": [{"name": "Player1", "value": "Ada"},
                                          {"name": "Player2", "value": "Bo"}],
                                 "turns": [{"text": "R5/d"}], "termination": BIG + ":0"})
    report = lcn.validate_record(record)
    assert "result-syntax" in [d.code for d in report.diagnostics]


@pytest.mark.parametrize("glyph", ["$" + BIG, "$\u00b2", "$", "$256", "$1000"])
def test_bad_numeric_glyph_is_reported(glyph: str) -> None:
    game = lcn.read_game(TAGS + f"R5/d {glyph} *\n")
    assert game is not None
    assert [d.code for d in game.diagnostics if d.is_error] == ["glyph"]


@pytest.mark.parametrize("card", ["R" + BIG, "R\u00b2", "R\u0663", "R010", "R11"])
def test_odd_card_ranks_are_unknown_cards(card: str) -> None:
    report = next(lcn.validate(TAGS + f"{card}/d *\n"))
    assert [d.code for d in report.diagnostics if d.is_error] == ["bad-card"]


def test_text_glued_to_a_move_number_reads_as_written_apart() -> None:
    """`lcn fmt` writes `N. text`; what the reader took as a turn must read back as one."""
    glued = lcn.read_game(TAGS + "1. R5/d 2.*\n")
    apart = lcn.read_game(TAGS + "1. R5/d 2. *\n")
    assert glued is not None and apart is not None
    assert glued.termination == apart.termination == "*"
    assert [t.text for t in glued.turns] == [t.text for t in apart.turns] == ["R5/d"]
    twice = lcn.read_game(TAGS + "1. R5/d 2.0. B4/d *\n")
    assert twice is not None
    assert "two move numbers in a row" in [d.message for d in twice.diagnostics]


def test_json_number_of_too_many_digits_is_a_json_form_error() -> None:
    with pytest.raises(jsonform.JSONFormError, match="too many digits"):
        jsonform.loads("[" + "9" * 4400 + "]")


@pytest.mark.parametrize("fmt", ["openspiel", "brdgme", "text"])
def test_huge_numbers_in_logs_are_import_errors(fmt: str) -> None:
    from lcn.importers import ImportError_, import_text

    text = {"openspiel": "1 2 3 " + BIG, "brdgme": "Starting round " + BIG,
            "text": "Ada plays the red 7\nBo: " + BIG + " points"}[fmt]
    with pytest.raises(ImportError_) as caught:
        import_text(text, fmt)
    assert caught.value.diagnostics, "the error names the line"


def test_only_ascii_digits_make_numbers_and_scores() -> None:
    """The grammar's digits are 0-9: other scripts' digits would not survive the JSON form."""
    game = lcn.read_game(TAGS + "\u0663. R5/d \u0663:\u0663\n")
    assert game is not None
    assert game.termination is None
    assert [(t.text, t.number) for t in game.turns] == [("\u0663.", None), ("R5/d", None),
                                                        ("\u0663:\u0663", None)]


def test_a_turn_after_the_end_cannot_be_written_as_a_narrated_log() -> None:
    """Found by the long fuzz run: the narrated writer drew past the end of the draw pile."""
    from lcn.importers import export_records
    from lcn.model import Turn
    from lcn.variants import classic_play

    record = classic_play.random_game(1)
    record.turns.append(Turn("xR5/d"))
    result = export_records([record], "text")
    assert not result.complete
    assert "comes after the end of the game" in result.diagnostics[0].message
    targets.cli(lcn.write_game(record).encode(), [["convert", "--to", "text", "-"]])


def test_every_crash_input_through_parallel_validation() -> None:
    """``lcn validate --jobs`` cuts a file between games: all the crash inputs as one file."""
    data = b"\n\n".join(case[1] for case in CRASHES)
    targets.cli(data, [["validate", "--jobs", "2", "-"],
                       ["validate", "--jobs", "2", "--format", "json", "-"]])


def test_a_narrated_log_with_a_bad_result_tag_is_read_with_a_warning() -> None:
    """Found by a longer Hypothesis run: the importer asserted the tag was scores."""
    from lcn.importers import import_text

    text = '[Player1 "Emil"]\n[Player2 "Nora"]\n[Result "!!12:14"]\n\nEmil plays the yellow 2.\n' \
           "Emil draws from the draw pile.\n"
    result = import_text(text, "text")
    assert result.records[0].tags["Result"] == "*"
    (warning,) = [d for d in result.diagnostics if d.code == "tag-value"]
    assert warning.line == 3
    assert "neither final scores nor `*`" in warning.message


@pytest.mark.parametrize("text", [
    TAGS + "1. R5/d {" + "x" * 70 + "} [ilo:O *\n",
    TAGS + "1. R5/d ; a } in a comment\n1... [ilo:O *\n",
    '[Variant "rivals"]\n' + TAGS + "1. up:R5 {" + "x" * 70 + "}\n2. [B *\n",
])
def test_a_turn_starting_with_a_bracket_never_starts_a_written_line(text: str) -> None:
    """Found by the long fuzz run: a wrapped line starting with `[` read back as a tag line."""
    record = lcn.read_game(text)
    assert record is not None
    written = lcn.write_game(record)
    assert not any(line.startswith("[") for line in written.split("\n\n", 1)[1].splitlines())
    again = list(lcn.read_games(written))
    assert len(again) == 1
    assert [t.text for t in again[0].turns] == [t.text for t in record.turns]
    assert lcn.write_game(again[0]) == written


CRASH_FILES = sorted(p for p in (Path(__file__).resolve().parent.parent / "fuzz" / "crashes").iterdir()
                     if p.name != "README.md")


@pytest.mark.parametrize("path", CRASH_FILES, ids=[p.name for p in CRASH_FILES])
def test_crash_files_of_the_long_runs(path: Path) -> None:
    from fuzz.run import _load_targets

    with targets.watchdog():
        _load_targets(instrument=False)["all"](path.read_bytes())


def test_narrated_detection_stays_between_zero_and_one() -> None:
    """Found by the long run: a line with several problems made the confidence negative."""
    from lcn.importers import get_importer

    data = (Path(__file__).resolve().parent.parent / "fuzz" / "crashes" / "narrated-detect-negative")
    confidence = get_importer("text").detect(data.read_bytes()[1:].decode("utf-8", "replace"))
    assert 0.0 <= confidence <= 1.0

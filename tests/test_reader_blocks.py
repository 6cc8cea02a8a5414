"""The express reader takes a game's movetext lines as one block, with the same outcome.

``Reader(express=True)`` keeps the plain movetext lines of a game for the express check in
one step over their text (``_Builder.keep_block``) rather than a line at a time; a block
that holds anything the express path cannot take is read a line at a time, as before, with
every diagnostic at its line and column. These tests check that the block is taken in one
step (the steps are counted, not timed), and that records and reports are the same as
ordinary reading on blocks of every kind, from text and from bytes, across the reader's
own buffer boundaries.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_express import _same

import lcn
from lcn import reader as reader_module
from lcn.reader import Reader, _Lines
from lcn.validate import ExpressReport
from lcn.variants.classic_play import random_game, strip_deal
from lcn.variants.rivals_play import random_game as rivals_game


def _records(source: str | bytes, express: bool) -> list[lcn.GameRecord]:
    records = list(Reader(source, express=express))
    for record in records:
        record.expand()  # the turns of kept lines, read now
    return records


def _same_records(text: str) -> None:
    """Both ways, from a str and from bytes: the same records, diagnostics and comments."""
    reference = _records(text, False)
    for source in (text, text.encode("utf-8", "surrogateescape")):
        assert _records(source, True) == reference


def _short_lines(text: str, width: int) -> str:
    """The movetext of a written game cut into lines of about ``width`` characters."""
    head, _, movetext = text.partition("\n\n")
    lines: list[str] = []
    for word in movetext.split():
        if lines and len(lines[-1]) + len(word) < width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return head + "\n\n" + "\n".join(lines) + "\n"


CLASSIC = [_short_lines(lcn.write_game(strip_deal(random_game(seed))), 24) for seed in range(30)]


def _counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    calls = {"keep": 0, "keep_block": 0}
    for name in calls:
        method = getattr(reader_module._Builder, name)

        def counting(self: object, *args: object, _name: str = name, _method: object = method) -> bool:
            calls[_name] += 1
            return _method(self, *args)  # type: ignore[operator, no-any-return]

        monkeypatch.setattr(reader_module._Builder, name, counting)
    return calls


@pytest.mark.parametrize("kind", ["str", "bytes"])
def test_the_movetext_of_a_game_is_kept_in_two_steps(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    text = "\n".join(CLASSIC)
    assert sum(text.count("\n") for text in CLASSIC) > 10 * len(CLASSIC)  # many lines a game
    calls = _counted(monkeypatch)
    records = list(Reader(text if kind == "str" else text.encode(), express=True))
    assert all(record.deferred is not None and record.termination for record in records)
    # The lines before the last in one step, the last (the termination's) in another; a
    # game cut by the end of a block of the input takes one more of each.
    assert len(records) <= calls["keep_block"] <= len(records) + len(text) // (1 << 14) + 1
    assert calls["keep"] == calls["keep_block"]
    assert [r.termination_line for r in records] == [r.termination_line for r in _records(text, False)]


def test_rivals_turns_of_a_line_each_are_kept_in_a_few_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "\n".join(lcn.write_game(rivals_game(seed, players=2 + seed % 3)) for seed in range(6))
    calls = _counted(monkeypatch)
    records = list(Reader(text, express=True))
    turns = sum(len(r.words()) for r in (rec.deferred for rec in records) if r is not None)
    assert turns > 40 * len(records)
    assert calls["keep"] + calls["keep_block"] <= 2 * len(records) + 2 * (len(text) >> 14) + 2
    _same(text)
    _same_records(text)


def test_the_games_read_in_blocks_get_the_same_reports() -> None:
    text = "\n".join(CLASSIC)
    reports = _same(text)
    assert all(isinstance(report, ExpressReport) for report in reports)
    _same_records(text)


#: Lines that the express path cannot keep: each makes its block be read a line at a time.
REFUSED = {
    "a comment over two lines": "R5/d {a comment\nover two lines} B3/d",
    "a comment left open to the next game": "R5/d {never closed",
    "a stray closing brace": "R5/d } B3/d",
    "a stray closing brace before a ; comment": "R5/d } ; note",
    "a vertical tab": "R5/d\x0bB3/d",
    "a form feed line": "\x0c",
    "a no-break space": "R5/d\u00a0B3/d",
    "a non-ASCII word": "R5/d café",
    "a control character": "R5/d \x01",
    "a delete character": "R5/d\x7fB3/d",
    "a termination in the middle": "R5/d 0:0 B3/d",
    "a termination then a line": "R5/d *\nB3/d",
    "a comment after the termination": "R5/d * {after}",
    "a word like a termination": "12:x R5/d",
    "a word like a termination after a word": "R5/d\t-1:x",
    "a word like a termination after the turn number": "7. 9*",
    "a star glued": "R5/d *B3/d",
    "a carriage return inside": "R5/d\rB3/d",
    "an unknown glyph": "R5/d !!! B3/d",
    "a glyph before the first turn": "$1 R5/d",
    "a move number with too many digits": "1234567890. R5/d",
}

#: Lines that the express path keeps.
KEPT = ["R5/d B3/d", "\tR5/d\tB3/d", "Ada:R3+>G Bo:- bridge:R x1:2 a*b",
        "  12. R5/d ; a note {with braces}", "{intro} R5/d", "R5/d {a} B3/d {b}",
        "1. R5/d!? 1... B3/d $14", "xr5/d  XB3/D", "R5/d;x", "{}", "; only"]


def _game(movetext: list[str], termination: str = "*") -> str:
    return '[Player1 "Ada"]\n[Player2 "Bo"]\n\n' + "\n".join(movetext) + f" {termination}\n"


@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("where", [0, 2, 4])
def test_a_block_with_what_the_express_path_cannot_take_reads_as_usual(name: str, where: int) -> None:
    lines = KEPT[:5]
    movetext = [*lines[:where], REFUSED[name], *lines[where:]]
    text = _game(movetext) + "\n" + _game(KEPT) + "\n" + _game(movetext, "") + "\n" + _game(KEPT)
    _same_records(text)
    _same(text)


def test_every_kind_of_refusal_in_one_block_gives_the_usual_diagnostics() -> None:
    text = _game([*KEPT, *REFUSED.values(), *KEPT]) + "\n" + _game(KEPT)
    _same_records(text)
    reports = _same(text)
    diagnostics = reports[0].record.diagnostics
    assert {d.code for d in diagnostics} >= {"comment-syntax", "bad-space", "after-termination"}
    assert all(d.line is not None and d.line > 3 for d in diagnostics)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.sampled_from(KEPT * 3 + sorted(REFUSED.values()) + ["", "   ", "[Note \"x\"]"]),
                         min_size=1, max_size=12), min_size=1, max_size=4),
       st.sampled_from(["*", "0:0", "", "5:5 {closing}"]))
def test_random_blocks_read_the_same_both_ways(games: list[list[str]], termination: str) -> None:
    _same_records("\n".join(_game(movetext, termination) for movetext in games))


def test_lines_across_the_buffers_of_a_long_text() -> None:
    """A text longer than a block of the reader: games cut at every place by its buffers,
    a carriage return and a byte order mark in later blocks, a line over the limit."""
    rng = random.Random(3)
    pieces = []
    size = 0
    while size < 5 * (1 << 14):
        game = CLASSIC[rng.randrange(len(CLASSIC))]
        if rng.random() < 0.1:
            game = game.replace("\n", "\r\n", 3)
        pieces.append(game)
        size += len(game)
    text = "\ufeff" + "\n".join(pieces)
    _same_records(text)
    numbered = list(_Lines(text))
    assert [line for _, line in numbered] == [line.rstrip("\r") for line in text[1:].split("\n")[:-1]]
    assert [number for number, _ in numbered] == list(range(1, len(numbered) + 1))


def test_a_str_line_over_the_limit_is_reported_and_skipped() -> None:
    long = "R5/d " * (reader_module.MAX_LINE // 5 + 10)
    text = _game(["B3/d", long, "Y4/d"])
    for source in (text, text.encode()):
        lines = _Lines(source)
        numbered = list(lines)
        assert [n for n, _ in numbered] == [1, 2, 3, 4, 5, 6]
        assert numbered[4] == (5, "")
        assert [d.code for d in lines.pending] == ["line-too-long"]
    _same_records(text)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="0-9:*ab \n.\t-\x0b\r$", max_size=16))
def test_the_search_after_blanks_finds_what_may_end_a_game(text: str) -> None:
    """``_may_end`` (the first word, then the words after white space) is ``_MAY_END``."""
    assert reader_module._may_end(text) == (reader_module._MAY_END.search(text) is not None)


@pytest.mark.parametrize(("text", "may_end"), [
    ("1. R5/d B3/d", False), ("12:x R5/d", True), ("R5/d 12:x", True), ("R5/d\n-3*", True),
    ("R5/d\t*", True), ("*", True), ("R5/d *B3/d", True), ("a*b x1:2 Ada:R3 Bo:-", False),
    ("1. ROG037 Ada:R3+>G Bo:O7 Cy:- bridge:R\n2. BYP105 Bo:-", False), ("R5/d\n9.*", True),
    (" 5:5", True), ("5.:", True), ("-", False), ("5 :", False), ("", False),
])
def test_what_may_end_a_game(text: str, may_end: bool) -> None:
    assert reader_module._may_end(text) is may_end


def _block_by_lines(lines: list[str], at: int) -> list[str]:
    """The lines from ``at`` up to the first later one that is no movetext (empty, blanks
    only, or a tag line perhaps indented), one line at a time."""
    end = at + 1
    while end < len(lines) and lines[end].lstrip(" \t")[:1] not in ("", "["):
        end += 1
    return lines[at:end]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["R5/d B3/d", "  1. R5/d", "\tR5/d", " \t xb3/d ; a [note]", "", " ",
                                 "\t", "[Note \"x\"]", "  [Note \"x\"]", "\t[", "R5/d [",
                                 "{a} R5/d", "\x0b"]), min_size=1, max_size=14))
def test_a_block_ends_where_its_movetext_ends(lines: list[str]) -> None:
    """Indented lines, lines of blanks and indented tag lines: the block found in one search
    is the one a line at a time finds, from every line."""
    source = _Lines("\n".join(lines) + "\n")
    for number, _line in source:
        assert source.block(number) == _block_by_lines(lines, number - 1)


def test_indented_hand_formatted_movetext_is_taken_in_one_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The end of an indented block is found without a step for each of its lines."""
    from bench.corpora import hand_formatted

    text = hand_formatted(20, seed=5)
    assert "\n\t" in text and "\n  " in text
    steps = {"lstrip": 0}

    class Counted(str):
        def lstrip(self, chars: str | None = None) -> str:
            steps["lstrip"] += 1
            return str.lstrip(self, chars)

    source = _Lines(text)
    for number, _line in source:
        if source.buffer is not None:
            source.buffer[:] = [Counted(line) for line in source.buffer]
        source.block(number)
    assert steps["lstrip"] == 0
    _same_records(text)
    assert all(isinstance(report, ExpressReport) for report in _same(text))


#: The comments of lines kept together as one pass from the left finds them (a brace
#: comment closed on its line, or a `;` comment to the end of its line, whichever starts
#: first): the reader takes them out in two passes, which must leave the same words.
_ONE_PASS_COMMENT = re.compile(r"\{[^{}\n]*\}|;[^\n]*")


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.text(alphabet="{};ab \t", max_size=14), min_size=1, max_size=4))
def test_the_comments_of_a_block_leave_the_words_of_one_pass_from_the_left(lines: list[str]) -> None:
    builder = reader_module._Builder(1)
    builder.start_movetext(express=True)
    assert builder.deferred is not None
    kept = builder.keep_block(lines, 1)
    words = _ONE_PASS_COMMENT.sub(" ", "\n".join(lines))
    assert kept == ("{" not in words and "}" not in words)
    if kept:
        assert builder.deferred.split == words.split()


@pytest.mark.parametrize("line", ["R5/d {a ; b} B3/d", "R5/d ; a {b} c", "R5/d {a} ; b {c", "{;} R5/d ; }"])
def test_a_semicolon_inside_a_brace_comment_and_braces_inside_a_semicolon_comment(line: str) -> None:
    text = _game([line, line, "B3/d"])
    _same_records(text)
    (record,) = Reader(text, express=True)
    assert record.deferred is not None  # kept, in a block
    assert record.deferred.words() == 2 * _ONE_PASS_COMMENT.sub(" ", line).split() + ["B3/d", "*"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.text(alphabet="aR5/d \t~\x00\x01\x08\x0b\x0c\x1f\x7f\x80\u00a0\u00e9", max_size=10),
                min_size=1, max_size=3))
def test_lines_are_kept_when_every_character_is_printable_ascii_or_a_tab(lines: list[str]) -> None:
    plain = all(line.isascii() and line.replace("\t", " ").isprintable() for line in lines)
    builder = reader_module._Builder(1)
    builder.start_movetext(express=True)
    assert builder.keep_block(lines, 1) == plain
    for line in lines:
        builder = reader_module._Builder(1)
        builder.start_movetext(express=True)
        assert builder.keep(line, 1, 0) == (line.isascii() and line.replace("\t", " ").isprintable())


@pytest.mark.parametrize(("run", "code"), [("}" * 6, "comment-syntax"), ("\u00a0" * 4, "bad-space"),
                                           ("}", "comment-syntax"), ("\u00a0", "bad-space")])
def test_a_run_of_one_bad_character_is_one_problem_underlined_whole(run: str, code: str) -> None:
    # A thousand stray braces are one mistake, not a thousand lines of report.
    text = f'[Player1 "A"]\n[Player2 "B"]\n\n1. R5/d R4/d\n2. R6/d {run} R7/d *\n'
    game = lcn.read_game(text)
    found = [d for d in lcn.validate_record(game).diagnostics if d.code == code]
    assert [(d.line, d.column, d.length) for d in found] == [(5, 9, len(run))]
    assert [t.text for t in game.turns] == ["R5/d", "R4/d", "R6/d", "R7/d"]

"""The reader: streaming, the record model, diagnostics with their place, strict mode and the
headers-only path."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

import lcn
from lcn import LCNError, Severity
from lcn.reader import Reader, read_game, read_games, read_headers

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples" / "classic").glob("*.lcn"))

GAME = """[Event "Club night"]
[Player1 "Ada"]
[Player2 "Bo"]
[Zebra "an unknown tag"]
[Annotator "Cy"]

{Before the first turn.} {A second one.}
1. R5/d {Red opens.} {Bo frowns.} xB2/d!? 2. R7/B? $14 {Takes the B2.}
; a rest-of-line comment
G3/d 3. Rw/d!! G4/d *
{After the end.}
"""


def game_bytes(number: int) -> bytes:
    return f'[Game "{number}"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d R4/d *\n\n'.encode()


class EndlessGames(io.RawIOBase):
    """A binary source that never ends: a reader that loaded it whole would never return."""

    def __init__(self) -> None:
        self.buffer = b""
        self.number = 0
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, target: Any) -> int:
        size = len(target)
        while len(self.buffer) < size:
            self.number += 1
            self.buffer += game_bytes(self.number)
        target[:size] = self.buffer[:size]
        self.buffer = self.buffer[size:]
        self.served += size
        return size


# -- streaming -------------------------------------------------------------------------------
def test_games_stream_one_at_a_time() -> None:
    source = EndlessGames()
    games = read_games(source)  # type: ignore[arg-type]
    first = next(games)
    assert first.tags["Game"] == "1" and [t.text for t in first.turns] == ["R5/d", "R4/d"]
    for _ in range(2999):
        game = next(games)
    assert game.tags["Game"] == "3000" and not game.diagnostics
    # What was read ahead of the games handed out stays bounded (a block, a long line).
    read_ahead = source.served - sum(len(game_bytes(n)) for n in range(1, 3001))
    assert read_ahead <= 2 * lcn.reader.MAX_LINE


def test_every_kind_of_source_reads_the_same(tmp_path: Path) -> None:
    path = tmp_path / "game.lcn"
    path.write_text(GAME, encoding="utf-8")
    texts = [lcn.write_game(read_game(source)) for source in (
        GAME, GAME.encode(), path, io.BytesIO(GAME.encode()), io.StringIO(GAME))]
    assert len(set(texts)) == 1


def test_many_games_in_one_file() -> None:
    text = "".join(sample.read_text(encoding="utf-8") + "\n" for sample in SAMPLES)
    games = list(read_games(text))
    assert len(games) == sum(len(list(read_games(s))) for s in SAMPLES) >= 10
    lines = text.splitlines()
    starts = [number for number, line in enumerate(lines, 1)
              if line.startswith("[") and (number == 1 or not lines[number - 2].startswith("["))]
    assert [g.line for g in games] == starts


# -- the record model --------------------------------------------------------------------------
def test_tags_keep_their_order_and_unknown_tags() -> None:
    game = read_game(GAME)
    assert list(game.tags) == ["Event", "Player1", "Player2", "Zebra", "Annotator"]
    assert game.tags["Zebra"] == "an unknown tag"
    assert game.tags.lines == {"Event": 1, "Player1": 2, "Player2": 3, "Zebra": 4, "Annotator": 5}
    assert game.players() == ["Ada", "Bo"]


def test_comments_glyphs_and_termination() -> None:
    game = read_game(GAME)
    assert not game.diagnostics
    assert game.intro_comments == ["Before the first turn.", "A second one."]
    assert [t.text for t in game.turns] == ["R5/d", "xB2/d", "R7/B", "G3/d", "Rw/d", "G4/d"]
    assert game.turns[0].comments == ["Red opens.", "Bo frowns."]
    assert game.turns[1].glyphs == ["!?"]
    assert game.turns[2].glyphs == ["?", "$14"]
    assert game.turns[2].comments == ["Takes the B2.", "a rest-of-line comment"]
    assert game.turns[4].glyphs == ["!!"]
    assert game.termination == "*" and game.closing_comments == ["After the end."]
    assert (game.termination_line, game.termination_column) == (10, 21)


def test_turn_places_and_move_numbers() -> None:
    game = read_game(GAME)
    places = [(t.line, t.column, t.number, t.number_dots) for t in game.turns]
    assert places == [(8, 4, 1, 1), (8, 35, None, 0), (8, 46, 2, 1), (10, 1, None, 0),
                      (10, 9, 3, 1), (10, 16, None, 0)]
    black = read_game('[Player1 "A"]\n[Player2 "B"]\n\n1. R5/d 1... R4/d *\n')
    assert [(t.number, t.number_dots) for t in black.turns] == [(1, 1), (1, 3)]
    assert lcn.validate_record(black).valid


def test_a_multi_line_comment_keeps_its_lines() -> None:
    game = read_game('[Player1 "A"]\n\n1. R5/d {first line\n  second line\nthird} R4/d *\n')
    assert game.turns[0].comments == ["first line\n  second line\nthird"]
    assert [t.text for t in game.turns] == ["R5/d", "R4/d"]
    assert game.turns[1].line == 5


def test_escaped_tag_values() -> None:
    game = read_game('[Event "The \\"big\\" one \\\\ 2026"]\n\n*\n')
    assert game.tags["Event"] == 'The "big" one \\ 2026'
    assert not game.diagnostics


def test_a_percent_line_is_skipped_between_games() -> None:
    games = list(read_games('% a note for tools\n[Player1 "A"]\n\n*\n\n% another\n[Player1 "B"]\n\n*\n'))
    assert [g.tags["Player1"] for g in games] == ["A", "B"]
    assert all(not g.diagnostics for g in games)


# -- diagnostics -----------------------------------------------------------------------------
def test_diagnostics_carry_code_severity_rule_message_and_place() -> None:
    game = read_game('[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d {never closed R4/d *\n')
    [d] = [d for d in game.diagnostics if d.code == "unterminated-comment"]
    assert (d.severity, d.rule, d.line, d.column) == (Severity.ERROR, "LCN-COMMENT", 4, 9)
    assert "expected `}`" in d.message
    assert d.to_json() == {"code": "unterminated-comment", "severity": "error", "message": d.message,
                           "line": 4, "column": 9, "turn": None, "rule": "LCN-COMMENT", "length": 1}
    assert d.format("f.lcn").startswith("f.lcn:4:9: error[unterminated-comment] ")
    assert d.format("f.lcn").endswith(" (LCN-COMMENT)")


def test_the_reader_keeps_going_after_errors() -> None:
    text = ('[Player1 "Ada"\n[Player2 "Bo"]\n\n1. R5/d } R4/d 2. R6/d? ?? R3/d *\n\n'
            '[Player1 "Cy"]\n[Player2 "Di"]\n\n1. Y5/d Y4/d $999 *\n\n'
            '[Player1 "Ed"]\n[Player2 "Flo"]\n\n1. G5/d G4/d *\n')
    games = list(read_games(text))
    assert len(games) == 3
    assert [(d.code, d.line) for d in games[0].diagnostics if d.is_error] == [
        ("tag-syntax", 1), ("comment-syntax", 4)]
    assert [t.text for t in games[0].turns] == ["R5/d", "R4/d", "R6/d", "R3/d"]
    assert games[0].turns[2].glyphs == ["?", "??"]
    assert [(d.code, d.line, d.column) for d in games[1].diagnostics] == [("glyph", 9, 14)]
    assert not games[2].diagnostics and games[2].termination == "*"


def test_strict_mode_raises_on_the_first_error() -> None:
    text = '[Player1 "Ada"]\n\n1. R5/d *\n\n[Player1 Bo]\n\n1. R5/d *\n'
    games = Reader(text, strict=True)
    iterator = iter(games)
    assert next(iterator).tags["Player1"] == "Ada"
    with pytest.raises(LCNError) as caught:
        next(iterator)
    assert caught.value.diagnostic.code == "tag-syntax" and caught.value.diagnostic.line == 5
    with pytest.raises(LCNError):
        read_game("", strict=True)
    # Warnings are not errors, even in strict mode.
    assert read_game('[Player1 "A"]\n1. R5/d *\n', strict=True) is not None


def test_an_empty_source_is_a_file_diagnostic() -> None:
    for text in ("", "\n\n  \n"):
        reader = Reader(text)
        assert list(reader) == []
        assert [d.code for d in reader.file_diagnostics] == ["empty-file"]
    assert read_game("") is None


def test_no_termination() -> None:
    game = read_game('[Player1 "A"]\n\n1. R5/d R4/d\n')
    assert [(d.code, d.rule, d.line) for d in game.diagnostics] == [
        ("missing-termination", "LCN-TERMINATION", 3)]
    games = list(read_games('[Player1 "A"]\n\n1. R5/d\n[Player1 "B"]\n\n1. R5/d *\n'))
    assert len(games) == 2 and games[0].diagnostics[0].code == "missing-termination"
    assert games[0].diagnostics[0].line == 4


def test_words_after_the_termination() -> None:
    game = read_game('[Player1 "A"]\n\n1. R5/d * R4/d\n')
    assert [(d.code, d.column) for d in game.diagnostics] == [("after-termination", 11)]


# -- headers only ------------------------------------------------------------------------------
def test_headers_only() -> None:
    text = ('[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d {a comment with\n[Fake "tag"] inside} *\n\n'
            '[Player1 "Cy"]\n[Player2 "Di"]\n\n1. Y5/d *\n')
    headers = list(read_headers(text))
    assert [(dict(tags.items()), line) for tags, line in headers] == [
        ({"Player1": "Ada", "Player2": "Bo"}, 1), ({"Player1": "Cy", "Player2": "Di"}, 7)]


@pytest.mark.parametrize("movetext", [
    "1. R5/d {open\n[Fake \"tag\"]\nclosed} R4/d *",
    "1. R5/d {a} {open\n[Fake \"tag\"]\n} R4/d *",
    "1. R5/d {one\nline} R4/d ; a { in a line comment\n*",
    "1. R5/d ; {\nR4/d *",
    "{\n} {x} R5/d ; }\n{\n[Fake \"tag\"]\n} *",
])
def test_headers_only_track_comments_as_the_reader_does(movetext: str) -> None:
    text = f'[Player1 "Ada"]\n\n{movetext}\n\n[Player1 "Cy"]\n\n1. Y5/d *\n'
    full = [(list(g.tags.items()), g.line) for g in read_games(text)]
    assert len(full) == 2
    assert [(list(tags.items()), line) for tags, line in read_headers(text)] == full


def test_headers_only_agree_with_the_full_reader_on_the_samples() -> None:
    for sample in SAMPLES:
        full = [(list(g.tags.items()), g.line) for g in read_games(sample)]
        fast = [(list(tags.items()), line) for tags, line in read_headers(sample)]
        assert fast == full, sample.name


def test_the_library_imports_neither_click_nor_flask() -> None:
    import subprocess
    import sys

    code = ("import sys, lcn, lcn.validate, lcn.writer, lcn.variants.classic, "
            "lcn.variants.classic_play; lcn.variant_names(); "
            "print(sorted(m for m in ('click', 'flask') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=60)
    assert out.stdout.strip() == "[]"

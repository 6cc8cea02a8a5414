"""The canonical writer: read-then-write loses nothing, writing is idempotent, and the
canonical form is what ``docs/spec.md`` §9 says."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

import lcn
from lcn.model import SUFFIX_GLYPHS, GameRecord
from lcn.reader import read_game, read_games
from lcn.writer import WIDTH, write_game, write_games

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*/*.lcn"))

#: Records that are valid LCN but not canonical: every spelling the reader accepts.
MESSY = [
    '[Player1 "Ada"]\n[Player2 "Bo"]\n\nr5/D xb2/d R7/b *\n',
    '[Player1  "Ada"  ]\n   [Player2 "Bo"]\n\n   1.R5/d   1...xB2/d\n\n2. R7/B *\n',
    '[Player1 "Ada"]\n[Player2 "Bo"]\n\n{intro one}{intro two} R5/d{a}{b} xB2/d!? $14 ; rest } of line\n'
    "R7/B ?? {multi\n  line\ncomment} *\n",
    '[Event "A \\"quoted\\" \\\\ value"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d *\n{after}\n',
    '[Player1 "Ada"]\n[Player2 "Bo"]\n[Hand1 "r5 rw Y2 y3 B4 b5 W6 gW"]\n\n1. R5/d=y7 Rw/d *\n',
    '[Player1 "Ada"]\r\n[Player2 "Bo"]\r\n\r\n1. R5/d R4/d *\r\n',
    '[Variant "Classic"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n' + " ".join(["xR5/d R5/R xR5/d R5/R"] * 12)
    + " *\n",
    '1. R5/d R4/d *\n\n2... R6/d *\n',  # games without tags (the second's number is wrong)
    '[Variant "nosuchgame"]\n\nfoo bar baz *\n',
]


def model(game: GameRecord) -> dict[str, Any]:
    """Everything of a record a writer must keep, with glyphs in their numeric form."""
    def nag(glyph: str) -> str:
        return f"${SUFFIX_GLYPHS[glyph]}" if glyph in SUFFIX_GLYPHS else glyph

    return {
        "tags": game.tags.items(),
        "intro": game.intro_comments,
        "turns": [(t.text, [nag(g) for g in t.glyphs], t.comments) for t in game.turns],
        "termination": game.termination,
        "closing": game.closing_comments,
    }


def canonical_turns(game: GameRecord) -> list[str]:
    variant = lcn.find_variant(game.variant_name)
    if variant is None:
        return [t.text for t in game.turns]
    state, _ = variant.setup(game)
    return [variant.format_move(variant.parse_move(state, t.text)) for t in game.turns]


def test_the_canonical_form() -> None:
    text = '[Player1 "Ada"]\n[Player2 "Bo"]\n\nr5/d {good} xb2/D 2. R7/b!? $14 *'
    assert write_game(read_game(text)) == (
        '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d {good} xB2/d 2. R7/B!? $14 *\n')


def test_samples_are_canonical() -> None:
    for sample in SAMPLES:
        text = sample.read_text(encoding="utf-8")
        assert write_games(read_games(text)) == text, sample.name


@pytest.mark.parametrize("text", MESSY, ids=range(len(MESSY)))
def test_read_then_write_loses_nothing_and_is_idempotent(text: str) -> None:
    games = list(read_games(text))
    once = write_games(games)
    again = list(read_games(once))
    assert len(again) == len(games)
    for before, after in zip(games, again, strict=True):
        assert model(after)["tags"] == model(before)["tags"]
        assert model(after)["intro"] == model(before)["intro"]
        assert model(after)["closing"] == model(before)["closing"]
        assert model(after)["termination"] == model(before)["termination"]
        assert [t[1:] for t in model(after)["turns"]] == [t[1:] for t in model(before)["turns"]]
        # Turns are written in their canonical spelling.
        assert [t.text for t in after.turns] == canonical_turns(before)
    assert write_games(again) == once


def test_lines_stay_within_the_width() -> None:
    for sample in sorted((ROOT / "samples" / "classic").glob("*.lcn")):
        in_comment = False
        for line in sample.read_text(encoding="utf-8").splitlines():
            touches_comment = in_comment or "{" in line or ";" in line
            in_comment = line.rfind("{") > line.rfind("}") or (in_comment and "}" not in line)
            if line.startswith("[") or touches_comment:
                continue  # tag lines and comments are never broken
            assert len(line) <= WIDTH, (sample.name, line)
    game = read_game('[Player1 "A"]\n\n' + " ".join(["xR5/d R5/R"] * 20) + " *\n")
    lines = write_game(game).splitlines()[2:]
    assert len(lines) > 2 and all(len(line) <= WIDTH for line in lines)
    assert max(len(line) for line in lines) > WIDTH - 12


def test_a_comment_holding_a_closing_brace_ends_its_line() -> None:
    game = read_game('[Player1 "A"]\n\nR5/d ; look } here\nR4/d *\n')
    text = write_game(game)
    assert "1. R5/d ; look } here\nR4/d *" in text
    assert read_game(text).turns[0].comments == ["look } here"]


def test_tag_values_are_escaped() -> None:
    game = GameRecord()
    game.tags["Event"] = 'say "hi" \\o/'
    game.tags["Player1"] = "Ada"
    game.termination = "*"
    text = write_game(game)
    assert '[Event "say \\"hi\\" \\\\o/"]' in text
    assert read_game(text).tags["Event"] == 'say "hi" \\o/'
    with pytest.raises(ValueError):
        game.tags["Event"] = "two\nlines"


def test_a_record_built_in_code_gets_a_termination() -> None:
    game = GameRecord()
    game.tags["Player1"] = "Ada"
    game.turns.append(lcn.Turn("r5/d"))
    assert write_game(game) == '[Player1 "Ada"]\n\n1. R5/d *\n'


def test_write_games_to_a_stream() -> None:
    games = list(read_games((ROOT / "samples" / "classic" / "match.lcn").read_text()))
    stream = io.StringIO()
    assert write_games(games, stream) is None
    assert stream.getvalue() == write_games(games)
    assert stream.getvalue().count("\n\n[Event") == len(games) - 1


def test_unreadable_turns_are_written_as_they_are() -> None:
    game = read_game('[Player1 "A"]\n[Player2 "B"]\n\n1. R11/d Q5/q R5/d *\n')
    assert "1. R11/d Q5/q 2. R5/d *" in write_game(game)

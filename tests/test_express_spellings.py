"""Every spelling of the move numbers, glyphs and turns gets the same report quickly as in full.

The express check reads the words of a hand-written record its own way: a move number or a
glyph standing alone is looked up apart from the turns, the usual number glued to its turn is
cut from it without a regular expression, any other glued number takes the slow step, and a
turn is taken in any letter case. Each edit below puts one such spelling at many places of
seeded games, well placed or not (a number before the wrong turn, two in a row, a glyph
before the first turn, a number at the end), and the report must be the one full validation
gives: valid or not, the scores, every diagnostic with its line and column. The edits that
keep the game valid must be decided by the express check, so that a check that gave up on
them would fail here too.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_express import _join, _same, _split

import lcn
from lcn.validate import ExpressReport
from lcn.variants.classic_play import random_game, strip_deal


def _numbered(words: list[str]) -> list[tuple[int, str]]:
    """The turns of canonical words, each with its index (the move numbers left out)."""
    turns = [word for word in words[:-1] if not word[0].isdigit()]
    return list(enumerate(turns))


def _respell(words: list[str], at: int, spell: Callable[[int, str], list[str]]) -> list[str]:
    """The game's words with no move number but the ones ``spell`` writes, turn ``at`` respelt."""
    out: list[str] = []
    for index, turn in _numbered(words):
        out += spell(index, turn) if index == at else [turn]
    return [*out, words[-1]]


def _usual(index: int) -> str:
    """The move number the writer puts before turn ``index``: `N.` or `N...`."""
    return f"{index // 2 + 1}." if index % 2 == 0 else f"{index // 2 + 1}..."


def _round(index: int) -> int:
    return index // 2 + 1


def _always(index: int) -> bool:
    return True


def _never(index: int) -> bool:
    return False


#: name → (how turn ``index`` is written, whether the game stays valid with it there, or
#: None where only the agreement of both ways is checked).
SPELLINGS: dict[str, tuple[Callable[[int, str], list[str]], Callable[[int], bool] | None]] = {
    "usual number alone": (lambda i, t: [_usual(i), t], _always),
    "usual number glued": (lambda i, t: [_usual(i) + t], _always),
    "number glued, lower case": (lambda i, t: [_usual(i) + t.lower()], _always),
    "number glued, upper case": (lambda i, t: [_usual(i) + t.upper()], _always),
    "number glued, mixed case": (lambda i, t: [_usual(i) + t.swapcase()], _always),
    "number glued with a glyph": (lambda i, t: [_usual(i) + t + "!?"], _always),
    "number glued, leading zero": (lambda i, t: ["0" + _usual(i) + t], _always),
    "number glued, one dot": (lambda i, t: [f"{_round(i)}.{t}"], lambda i: i % 2 == 0),
    "number glued, two dots": (lambda i, t: [f"{_round(i)}..{t}"], lambda i: i % 2 == 0),
    "number glued, four dots": (lambda i, t: [f"{_round(i)}....{t}"], lambda i: i % 2 == 1),
    "number alone, two dots": (lambda i, t: [f"{_round(i)}..", t], lambda i: i % 2 == 0),
    "number alone, three dots": (lambda i, t: [f"{_round(i)}...", t], lambda i: i % 2 == 1),
    "next round's number glued": (lambda i, t: [_usual(i + 2) + t], _never),
    "last round's number glued": (lambda i, t: [_usual(i - 2) + t], _never),
    "next round's number alone": (lambda i, t: [_usual(i + 2), t], _never),
    "number alone, then glued": (lambda i, t: [_usual(i), _usual(i) + t], _never),
    "two numbers alone": (lambda i, t: [_usual(i), _usual(i), t], _never),
    "number glued to a number": (lambda i, t: [_usual(i) + _usual(i) + t], _never),
    "number of ten digits glued": (lambda i, t: [f"{_round(i):010}." + t], _never),
    "number glued to an unknown word": (lambda i, t: [_usual(i) + "Q" + t], _never),
    "number glued to a glyph": (lambda i, t: [_usual(i) + "$2", t], None),
    "number glued to nothing but a glyph": (lambda i, t: [_usual(i) + "!", t], None),
    "glyph alone after the turn": (lambda i, t: [t, "!?"], _always),
    "numeric glyph after the turn": (lambda i, t: [t, "$14"], _always),
    "numeric glyph padded": (lambda i, t: [t, "$014"], _always),
    "glyph before the turn": (lambda i, t: ["$1", t], lambda i: i > 0),
    "glyph glued, upper case": (lambda i, t: [t.upper() + "??"], _always),
    "unknown glyph glued": (lambda i, t: [t + "!!!"], _never),
    "big numeric glyph": (lambda i, t: [t, "$256"], _never),
    "turn in mixed case": (lambda i, t: ["".join(c.upper() if n % 2 else c.lower()
                                                 for n, c in enumerate(t))], _always),
}


def _games() -> list[list[str]]:
    games = []
    for index in range(6):
        record = random_game(4_400 + index, expeditions=6 if index == 5 else 5)
        games.append(lcn.write_game(record if index % 2 else strip_deal(record)))
    return games


GAMES = _games()


@pytest.mark.parametrize("name", SPELLINGS)
def test_each_spelling_anywhere_gets_the_full_report(name: str) -> None:
    spell, valid = SPELLINGS[name]
    decided = tried = 0
    for text in GAMES:
        tags, words = _split(text)
        turns = len(_numbered(words))
        for at in sorted({0, 1, 2, 3, turns // 2, turns // 2 + 1, turns - 2, turns - 1}):
            (report,) = _same(_join(tags, _respell(words, at, spell)))
            if valid is None:
                continue
            assert report.valid == valid(at), (name, at)
            if valid(at):
                tried += 1
                decided += isinstance(report, ExpressReport)
    assert decided == tried  # every valid spelling is decided quickly
    assert tried or valid in (None, _never)


def test_a_number_at_the_end_and_a_glyph_at_the_start_are_left_to_the_full_engine() -> None:
    for text in GAMES:
        tags, words = _split(text)
        plain = [word for word in words[:-1] if not word[0].isdigit()]
        turns = len(plain)
        ending = f"{turns // 2 + 1}." if turns % 2 == 0 else f"{turns // 2 + 1}..."
        for changed in ([*plain, ending, words[-1]], ["!", *plain, words[-1]], ["$3", *plain, words[-1]]):
            (report,) = _same(_join(tags, changed))
            assert not report.valid

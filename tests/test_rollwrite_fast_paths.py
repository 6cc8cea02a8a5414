"""The Roll & Write engine's quick steps give what its general steps give.

A choice that fills one box in canonical form (``R3``, ``B10+``, ``G7>-``, ``P0``) is read
from a table made once (``_SIMPLE_CHOICES``) instead of mark by mark, and the bridges compare
each sheet's columns as one list (``_filled``). These tests compare both against the general
steps: every entry of the table, and whole validations of generated and corrupted games with
the table emptied.
"""

from __future__ import annotations

import random

import pytest

import lcn
from lcn.validate import ValidationRun
from lcn.variants import rollwrite
from lcn.variants.rollwrite import COLUMNS, RollWriteVariant
from lcn.variants.rollwrite_play import random_game


def _general(word: str, start: int, tokens: list[str], monkeypatch: pytest.MonkeyPatch
             ) -> rollwrite.Choice:
    with monkeypatch.context() as patch:
        patch.setattr(rollwrite, "_SIMPLE_CHOICES", {})
        lookup = {token.casefold(): seat for seat, token in enumerate(tokens)}
        return rollwrite._parse_choice(word, start, tokens, lookup)


def test_every_simple_choice_reads_as_the_general_steps_read_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = ["Ada", "Bo", "P3"]
    lookup = {token.casefold(): seat for seat, token in enumerate(tokens)}
    assert len(rollwrite._SIMPLE_CHOICES) == 6 * (1 + 10 * 5)
    for rest in rollwrite._SIMPLE_CHOICES:
        for token, start in (("Ada", 7), ("bo", 0), ("P3", 12)):
            word = f"{token}:{rest}"
            quick = rollwrite._parse_choice(word, start, tokens, lookup)
            assert quick == _general(word, start, tokens, monkeypatch), word


def test_filled_columns_are_the_sheets() -> None:
    variant = RollWriteVariant()
    for seed in range(6):
        record = lcn.read_game(lcn.write_game(random_game(40 + seed, players=2 + seed % 4)))
        assert record is not None
        state, _ = variant.setup(record)
        for turn in record.turns:
            variant.apply(state, variant.parse_move(state, turn.text))
            for sheet in state.sheets:
                assert rollwrite._filled(sheet) == [sheet.filled(column) for column in COLUMNS]


def _corrupted(text: str, rng: random.Random) -> str:
    head, _, body = text.partition("\n\n")
    lines = body.strip("\n").split("\n")
    i = rng.randrange(len(lines) - 1)
    words = lines[i].split()
    j = rng.randrange(1, len(words))
    how = rng.randrange(4)
    if how == 0:
        words[j] = words[j][:-1] if len(words[j]) > 4 else words[j] + "+"
    elif how == 1:
        words[j] = words[j].replace("+", "") if "+" in words[j] else words[j] + ">-"
    elif how == 2:
        words[j] = words[j][:-1] + rng.choice("0123456789")
    else:
        del lines[i]
        return head + "\n\n" + "\n".join(lines) + "\n"
    lines[i] = " ".join(words)
    return head + "\n\n" + "\n".join(lines) + "\n"


def test_validation_is_the_same_without_the_quick_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    with monkeypatch.context() as patch:
        # The games and the reference, made by the general steps alone.
        patch.setattr(rollwrite, "_SIMPLE_CHOICES", {})
        rollwrite._parse_recent.cache_clear()
        games = [lcn.write_game(random_game(300 + index, players=2 + index % 4))
                 for index in range(12)]
        texts = games + [_corrupted(game, rng) for game in games for _ in range(4)]
        text = "\n".join(texts)
        rollwrite._parse_recent.cache_clear()
        general = [report.to_json() for report in ValidationRun(text, express=False)]
    rollwrite._parse_recent.cache_clear()
    quick = [report.to_json() for report in ValidationRun(text, express=False)]
    assert quick == general
    assert all(report["valid"] for report in general[:len(games)])
    assert sum(not report["valid"] for report in general) > len(games)


def test_rolls_read_from_the_tables_as_the_general_steps_read_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(9)
    words = [colours + f"{number:03}" for colours in rollwrite._ROLL_COLOURS
             for number in rng.sample(range(1000), 12)]
    quick = [rollwrite._parse_roll(word) for word in words]
    with monkeypatch.context() as patch:
        patch.setattr(rollwrite, "_ROLL_COLOURS", {})
        patch.setattr(rollwrite, "_ROLL_NUMBERS", {})
        assert quick == [rollwrite._parse_roll(word) for word in words]
    assert rollwrite._parse_roll("BOR709") == (("R", "O", "B"), (0, 7, 9))

"""The seeded random players of Rivals and Roll & Write play on their games' cores.

Why: the rules are to be written once, in the cores (``lcn.games.rivals``,
``lcn.games.rollwrite``); the players (``rivals_play``, ``rollwrite_play``) keep only what a
player values. So each word of their games must be one the core offers where it is written,
the games must end where the core says and score what it says, and full validation (the
other implementation of the rules) must find nothing wrong in them. What a player weighs
must be what the core allows: a Rivals bidder's judgement of whether a card fits an
expedition (the core's ``fits``) is the engine's, and a Roll & Write player weighs each of
the core's legal choices once, and nothing else.
"""

from __future__ import annotations

import random

import pytest

from lcn.diagnostics import Severity
from lcn.games.rivals import RivalsCore, turn_words
from lcn.games.rivals.core import NAMES, PLACE, START, TO_BOX, WON
from lcn.games.rollwrite.core import (
    MOVE_COLOUR,
    MOVE_DIE,
    REFUSE,
    RollWriteCore,
    parse_roll,
    pieces,
    sheet_for,
)
from lcn.model import GameRecord
from lcn.validate import validate_record
from lcn.variants import rivals_play, rollwrite_play
from lcn.variants.rivals import RivalsVariant
from lcn.variants.rollwrite import COLOURS, COLUMNS

GAMES = 24


def _rivals(seed: int) -> GameRecord:
    return rivals_play.random_game(seed, players=2 + seed % 3, skill=(0.2, 0.85, 1.0)[seed // 3 % 3],
                                   annotate=seed % 2 == 0)


def _rollwrite(seed: int) -> GameRecord:
    return rollwrite_play.random_game(seed, players=2 + seed % 4, skill=(0.2, 0.8, 1.0)[seed // 4 % 3],
                                      annotate=seed % 2 == 0, sheet_tag=seed % 3 == 0)


def _validated(record: GameRecord) -> tuple[int, ...]:
    """Full validation's totals for a record it finds nothing wrong in."""
    report = validate_record(record)
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    assert not errors, errors[:3]
    assert report.score is not None
    return tuple(report.score.totals)


@pytest.mark.parametrize("seed", range(GAMES))
def test_rivals_games_are_the_cores_legal_games(seed: int) -> None:
    """Each word is one the core offers (an uncover written ``>box`` exactly where the core
    takes that note), the game ends with its last word, and the result is the core's score
    and full validation's."""
    record = _rivals(seed)
    core = RivalsCore.from_record(record)
    annotated = seed % 2 == 0
    for turn in record.turns:
        for word in turn_words(turn.text):
            assert not core.is_over()
            move = core.move(word)
            offered = core.legal_moves()
            if move >= TO_BOX or move < PLACE:
                card = move - TO_BOX if move >= TO_BOX else move
                assert card in offered
                # Written ``>box`` exactly when the core takes the note (annotated games).
                boxed = not core.check(TO_BOX + card)
                assert (move >= TO_BOX) == (annotated and boxed), (turn.text, word)
            else:
                assert move in offered, (turn.text, word)
            assert core.step(move) == 0
        assert core.phase == START
    assert core.is_over()
    totals = core.score()
    assert record.tags["Result"] == ":".join(map(str, totals))
    assert _validated(record) == totals


def test_what_fits_an_expedition_is_the_engines_and_the_winners_placements() -> None:
    """Between turns, ``fits`` says for every player and card what today's engine says
    (``can_use``); after an auction is won, it says which placements the core offers."""
    checked = 0
    for seed in range(8):
        record = _rivals(100 + seed)
        variant = RivalsVariant()
        state, problems = variant.setup(record)
        assert not problems
        core = RivalsCore.from_record(record)
        for turn in record.turns:
            for player in range(core.players):
                for card, name in enumerate(NAMES):
                    assert core.fits(player, card) == state.can_use(player, name), (player, name)
            for word in turn_words(turn.text):
                if core.phase == WON:
                    offered = core.legal_moves()
                    for card in core.display:
                        assert core.fits(core.leader, card) == (PLACE + card in offered)
                        checked += 1
                assert core.step(core.move(word)) == 0
            assert not variant.apply(state, variant.parse_move(state, turn.text))
    assert checked > 50


@pytest.mark.parametrize("seed", range(GAMES))
def test_rollwrite_games_are_the_cores_legal_games(seed: int) -> None:
    """Each word of each choice is one the core offers, the annotations are what the core
    did at the turn's end, the game ends with its last turn, and the result is the core's
    score and full validation's."""
    record = _rollwrite(seed)
    core = RollWriteCore.from_record(record)
    for turn in record.turns:
        assert not core.is_over()
        words = turn.text.split()
        assert parse_roll(words[0]) == core.roll
        notes = []
        for word in words[1:]:
            who, colon, body = word.partition(":")
            if who in ("bridge", "exhausted") or word == "end":
                notes.append(word)
                continue
            assert colon and core.tokens.index(who) == core.player
            for index, piece in enumerate(pieces(body)):
                move = core.move(f"{who}:{piece}" if index == 0 else piece)
                assert move in core.legal_moves(), (turn.text, word)
                assert core.step(move) == 0
        made = []
        if core.fresh:
            made.append("bridge:" + ",".join(c for i, c in enumerate(COLUMNS) if core.fresh >> i & 1))
        if core.worn:
            made.append("exhausted:" + ",".join(t for s, t in enumerate(core.tokens) if core.worn >> s & 1))
        if core.is_over():
            made.append("end")
        assert notes == (made if seed % 2 == 0 else []), turn.text
    assert core.is_over()
    totals = core.score()
    assert record.tags["Result"] == ":".join(map(str, totals))
    assert _validated(record) == totals


def test_a_rollwrite_player_weighs_each_legal_choice_once() -> None:
    """Whatever order the dice were rolled in, the choices weighed are the core's legal
    moves, each in one choice (a box with an arrow: declining and accelerating together)."""
    rng = random.Random(5)
    for seed in range(6):
        core = RollWriteCore(2 + seed % 4, sheet_for(rollwrite_play.random_layout(rng)))
        while not core.is_over():
            colours = [rng.randrange(len(COLOURS)) for _ in range(3)]
            numbers = [rng.randrange(10) for _ in range(3)]
            core.set_roll((tuple(sorted(colours)), tuple(sorted(numbers))))
            dice = rollwrite_play._Dice(colours, numbers)
            for step in range(core.players):
                options = rollwrite_play._options(core, dice)
                moves = [move for option in options for move in option.moves]
                assert sorted(moves) == sorted(core.legal_moves())
                assert all(len(option.moves) in (1, 2) for option in options)
                option = options[int(rng.random() * len(options))]
                rollwrite_play._write(core, option.moves, rng)
                if step == 0 and option.moves[0] != REFUSE:
                    move = option.moves[0]
                    dice = rollwrite_play._Dice(list(dice.colours), list(dice.numbers))
                    dice.colours.remove(MOVE_COLOUR[move])
                    dice.numbers.remove(MOVE_DIE[move])

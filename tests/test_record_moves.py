"""What the recorder offers, checked against brute force and against the random players.

The recorder offers exactly ``lcn.legal_moves``. Two checks beyond tests/test_moves.py:

- **Brute force on tiny decks.** tests/test_bruteforce.py's simulator tries every deal of a
  tiny card set and keeps those under which the record so far is legal. At every position of
  random walks, for every level of knowledge of the deal, the moves offered must be exactly
  the turns some remaining deal allows: every offered move is allowed by some deal, and every
  move some deal allows is offered (a draw from the draw pile is offered as ``/d``, the card
  unnamed).
- **Thousands of seeded positions of every variant** (slow): more games of the random
  players than tests/test_moves.py replays, each position checked for completeness (the move
  the player made is offered) and one offered move at each checked for soundness (written
  into the record, finished as a turn when it is a piece of one, the record validates).
"""

from __future__ import annotations

import random

import pytest
from test_bruteforce import CONFIGS, LEVELS, Checker, Node, all_deals_cached, play, text_of
from test_moves import (
    errors_of,
    finish_rollwrite_turn,
    finish_turn,
    partial_record,
    rivals_words,
    rollwrite_words,
    source_only,
    view_of,
    with_turn,
)

import lcn
from lcn.model import GameRecord
from lcn.variants.classic import ClassicConfig

#: Levels of knowledge whose draws are written unnamed, as the recorder writes them.
UNNAMED_LEVELS = [name for name, (_tags, named) in LEVELS.items() if not named]


def brute_moves(node: Node, config: ClassicConfig) -> set[str]:
    """Every next turn some remaining deal allows, as the recorder would write it."""
    kinds = sorted(set(config.all_cards()))
    found = set()
    for card in kinds:
        for discard in (False, True):
            for draw in ("d", *config.colours):
                move = (discard, card, draw, None)
                if play(node, move) is not None:
                    found.add(text_of(move))
    return found


def offered(checker: Checker, node: Node) -> lcn.moves.Position:
    return lcn.legal_moves(checker.record(node.moves), variant=checker.variant)


@pytest.mark.parametrize("config_name", sorted(CONFIGS))
@pytest.mark.parametrize("level", UNNAMED_LEVELS)
def test_offered_moves_are_exactly_what_some_deal_allows(config_name: str, level: str) -> None:
    config = CONFIGS[config_name]
    rng = random.Random(f"moves/{config_name}/{level}")
    deals = sorted(all_deals_cached(config))
    positions = 0
    for _ in range(2):
        checker = Checker(config, level, rng.choice(deals))
        for _walk in range(6):
            node = checker.root
            while True:
                position = offered(checker, node)
                assert position.over == node.table.over
                if position.over:
                    assert position.moves == ()
                    break
                moves = {m.lcn for m in position.moves}
                expected = brute_moves(node, config)
                where = (level, [text_of(m) for m in node.moves])
                assert moves - expected == set(), ("offered but no deal allows it", where)
                assert expected - moves == set(), ("some deal allows it but not offered", where)
                assert position.player == ("Ada", "Bo")[node.table.turn % 2]
                positions += 1
                choice = rng.choice(sorted(moves))
                child = next(child for m, child in node.children.items()
                             if child is not None and text_of(m) == choice)
                node = child
    assert positions > 20


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_classic_thousands_of_positions(seed: int) -> None:
    from lcn.variants.classic_play import random_game

    game = random_game(500 + seed, expeditions=6 if seed % 2 else 5)
    rng = random.Random(seed)
    checked = 0
    for view in ("full", None, 0, 1):
        record = view_of(game, view)
        for upto in range(len(record.turns)):
            moves = [m.lcn for m in lcn.legal_moves(record, turn=upto + 1).moves]
            assert source_only(record.turns[upto].text) in moves, (view, upto + 1)
            text = rng.choice(moves)
            assert errors_of(with_turn(record, upto, text)) == [], (view, upto + 1, text)
            checked += 1
    assert checked >= 4 * 40  # four views of a game of some forty turns or more


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "players"), [(20 + s, 2 + s % 3) for s in range(6)])
def test_rivals_thousands_of_positions(seed: int, players: int) -> None:
    from lcn.variants.rivals_play import random_game, strip_piles

    game = random_game(seed, players=players)
    if seed % 2:
        game = strip_piles(game)
    rng = random.Random(seed)
    checked = 0
    for upto, turn in enumerate(game.turns):
        played = rivals_words(turn.text)
        sound = rng.randrange(len(played))
        for count in range(len(played)):
            position = lcn.legal_moves(partial_record(game, upto, played[:count]))
            words = [m.lcn for m in position.moves]
            assert played[count] in words, (upto + 1, played[:count], played[count])
            checked += 1
            if count == sound:
                finished = finish_turn(game, upto, [*played[:count], rng.choice(words)], rng)
                assert errors_of(partial_record(game, upto, finished)) == [], (upto + 1, finished)
    assert lcn.legal_moves(game).over
    assert checked >= 50


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "players"), [(40 + s, 2 + s % 4) for s in range(4)])
def test_rollwrite_thousands_of_positions(seed: int, players: int) -> None:
    from lcn.variants.rollwrite_play import random_game

    game = random_game(seed, players=players)
    rng = random.Random(seed)
    checked = 0
    for upto, turn in enumerate(game.turns):
        played = rollwrite_words(turn.text)
        sound = rng.randrange(len(played))
        for count in range(len(played)):
            if count < 6 and count != sound:
                continue  # the dice: any face is offered, tests/test_moves.py shows it
            position = lcn.legal_moves(partial_record(game, upto, played[:count]))
            words = [m.lcn for m in position.moves]
            assert played[count] in words, (upto + 1, played[:count], played[count])
            checked += 1
            if count == sound:
                finished = finish_rollwrite_turn(game, upto, [*played[:count], rng.choice(words)],
                                                 rng)
                assert errors_of(partial_record(game, upto, finished)) == [], (upto + 1, finished)
    assert lcn.legal_moves(game).over
    assert checked >= 50


def test_the_recorders_records_validate_through_the_library() -> None:
    """A classic record as the recorder writes it without the deal (every draw unnamed):
    the bot of tests/test_moves.py, here on six expeditions, ends in a valid game."""
    rng = random.Random(11)
    record = GameRecord(termination="*")
    for name, value in (("Player1", "Ada"), ("Player2", "Bo"), ("Expeditions", "6")):
        record.tags[name] = value
    from lcn.model import Turn

    for _ in range(2000):
        position = lcn.legal_moves(record)
        if position.over:
            break
        record.turns.append(Turn(rng.choice(position.moves).lcn))
    report = lcn.validate_record(record)
    assert report.over and report.score is not None
    record.termination = ":".join(map(str, report.score.totals))
    assert lcn.validate_record(lcn.read_game(lcn.write_game(record))).valid

"""``lcn.legal_moves`` lists its moves on the games' cores: held to the engines' lists.

The engines' path (every candidate the variant offers that its ``apply`` accepts) stays
reachable as ``lcn.moves._engine_legal_moves``; at every position of seeded games of each
game (classic with its deal and without it, Rivals with its piles and without them, Roll &
Write with its layout given, partly given or not), within turns being written (an auction's
calls, a roll's dice, some choices, an acceleration due) and after the end, the two give the
same position: the player, the seat, the turn, the moves in order with their labels. Records
that break a rule raise the same InvalidRecord with the same diagnostics, and a game with no
core (Tiny Trek, ``tests/tinygame.py``) keeps the engines' path.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import lcn.moves
from lcn import read_game
from lcn.games import built_in_lister
from lcn.games.rivals.core import turn_words
from lcn.games.rollwrite.core import pieces
from lcn.model import GameRecord, Tags, Turn
from lcn.moves import InvalidRecord, Position, _engine_legal_moves, legal_moves
from lcn.variants import classic_play, find_variant, rivals_play, rollwrite_play
from lcn.writer import write_game


def _cut(record: GameRecord, turns: list[Turn]) -> GameRecord:
    """The record with these turns and no result: a game being recorded."""
    tags = Tags({name: value for name, value in record.tags.items() if name != "Result"})
    return GameRecord(tags=tags, turns=turns, termination="*")


def _same(record: GameRecord, **options: object) -> Position | None:
    """Both paths at one position: equal positions, or the same InvalidRecord."""
    try:
        expected = _engine_legal_moves(record, **options)  # type: ignore[arg-type]
    except InvalidRecord as exc:
        with pytest.raises(InvalidRecord) as raised:
            legal_moves(record, **options)  # type: ignore[arg-type]
        assert raised.value.diagnostics == exc.diagnostics
        return None
    found = legal_moves(record, **options)  # type: ignore[arg-type]
    assert found == expected, (options, found, expected)
    assert [move.label for move in found.moves] == [move.label for move in expected.moves]
    return found


def _rivals_prefixes(text: str) -> Iterator[str]:
    """A Rivals turn as it is written word by word (each card of a `place:` one more)."""
    written = ""
    for word in turn_words(text):
        written = lcn.moves.extend(written, word)
        if not word.startswith("up:"):
            yield written


def _rollwrite_prefixes(text: str) -> Iterator[str]:
    """A Roll & Write turn as it is written: the roll die by die, then each choice piece by
    piece (an acceleration's `>` and its expedition apart)."""
    roll, *words = text.split()
    for end in range(1, len(roll) + 1):
        yield roll[:end]
    written = [roll]
    for word in words:
        who, colon, body = word.partition(":")
        if not colon or who.lower() in ("bridge", "exhausted"):
            break  # what the rules decided, after the last choice
        for index, piece in enumerate(pieces(body)):
            written.append(lcn.moves.extend(written[-1], f"{who}:{piece}" if index == 0 else piece))
    yield from written[1:-1]  # the last piece finishes the turn


def _check_game(record: GameRecord, prefixes: object = None) -> tuple[int, int]:
    """Every position of a game, and within its turns when ``prefixes`` cuts them; the
    positions compared and how many the core itself listed (no engine asked)."""
    compared = listed = 0
    lister = built_in_lister(find_variant(record.variant_name))  # type: ignore[arg-type]
    assert lister is not None
    turns = record.turns
    for index in range(len(turns) + 1):
        cut = _cut(record, list(turns[:index]))
        position = _same(cut)
        assert position is not None
        listed += lister.list_moves(cut, cut.turns) is not None
        compared += 1
        if index == len(turns):
            assert position.over
            break
        if callable(prefixes):
            for partial in prefixes(turns[index].text):
                cut = _cut(record, [*turns[:index], Turn(partial)])
                position = _same(cut)
                assert position is not None and position.turn == index + 1, partial
                listed += lister.list_moves(cut, cut.turns) is not None
                compared += 1
    return compared, listed


def test_classic_positions_with_and_without_the_deal() -> None:
    """The whole deal, none of it, one seat's view (its hand and the cards it drew, named, as
    a recorder at the table writes them: a part of a deal, which the quick verdict of
    validation leaves to the engine) and both hands without the draw pile."""
    compared = listed = 0
    for seed in range(4):
        record = classic_play.random_game(seed, expeditions=5 + seed % 2)
        hands = _cut(record, [Turn(turn.text) for turn in record.turns])
        del hands.tags["Deck"]
        for game in (record, classic_play.strip_deal(record), classic_play.strip_deal(record, keep=seed % 2),
                     hands):
            done, core = _check_game(game)
            compared += done
            listed += core
    assert listed == compared > 700


def test_rivals_positions_within_auctions() -> None:
    compared = listed = 0
    for seed in range(3):
        for piles in (True, False):
            record = rivals_play.random_game(seed, players=2 + (seed + piles) % 3, piles=piles,
                                             annotate=seed % 2 == 0)
            done, core = _check_game(record, _rivals_prefixes)
            compared += done
            listed += core
    assert listed == compared > 1000


def test_rollwrite_positions_within_turns() -> None:
    compared = listed = 0
    for seed in range(3):
        record = rollwrite_play.random_game(seed, players=2 + seed, skill=0.6, sheet_tag=seed > 0)
        if seed == 2:
            words = record.tags["Sheet"].split()
            record.tags["Sheet"] = " ".join(word if index % 2 else word[:2] + "?" * 9
                                            for index, word in enumerate(words))
        done, core = _check_game(record, _rollwrite_prefixes)
        compared += done
        listed += core
    assert listed == compared > 500


@pytest.mark.parametrize("make", [lambda: classic_play.random_game(11),
                                  lambda: rivals_play.random_game(11, players=3),
                                  lambda: rollwrite_play.random_game(11, players=3)])
def test_records_read_from_text_with_their_move_numbers(make: object) -> None:
    """As the command and the site have them: read from text, every turn numbered."""
    record = make()  # type: ignore[operator]
    text = write_game(_cut(record, list(record.turns)))
    read = read_game(text)
    assert read is not None and any(turn.number is not None for turn in read.turns)
    lister = built_in_lister(find_variant(read.variant_name))  # type: ignore[arg-type]
    assert lister is not None
    for turn in range(1, len(read.turns) + 2, 3):
        assert _same(read, turn=turn) is not None
        assert lister.list_moves(read, read.turns[:turn - 1]) is not None
    assert _same(text) is not None


def test_records_that_break_a_rule_raise_the_engines_diagnostics() -> None:
    rng = random.Random(5)
    classic = classic_play.random_game(3)
    rivals = rivals_play.random_game(3, players=3)
    rollwrite = rollwrite_play.random_game(3, players=2)
    broken: list[tuple[GameRecord, list[str]]] = [
        (classic, ["G7/d", "xR3/B", "Yw/Y", "B5/R"]),
        (rivals, ["up:R7", "place:R4", "P1x", "Ada99", "box:B5 up:W3"]),
        (rollwrite, ["ROG307 Kai:R3", "XYZ123", "ROG307 Kai:B9", "ROG307 Nobody:-"]),
    ]
    checked = 0
    for record, texts in broken:
        for text in texts:
            at = rng.randrange(1, len(record.turns))
            turns = [*record.turns[:at], Turn(text)]
            for cut in (_cut(record, turns), _cut(record, [*turns, *record.turns[at:at + 2]])):
                try:
                    _engine_legal_moves(cut)
                except InvalidRecord:
                    checked += 1
                _same(cut)
    assert checked >= 12
    # Rules of the record, not of a turn: a third seat in classic, a pile that is not a deal.
    extra = _cut(classic, list(classic.turns[:6]))
    extra.tags["Player3"] = "Cy"
    with pytest.raises(InvalidRecord):
        _engine_legal_moves(extra)
    _same(extra)
    piles = _cut(rivals, list(rivals.turns[:6]))
    piles.tags["Pile1"] = "R2 R2 R2"
    _same(piles)


def test_a_card_drawn_unseen_is_named_as_the_engine_allows() -> None:
    """Each card of the game named for a seat's draw from the draw pile: the core takes the
    names some deal allows, and the engine explains the others."""
    from lcn.games.classic import tables_for
    from lcn.variants.classic import CLASSIC_5

    view = classic_play.strip_deal(classic_play.random_game(6), keep=1)
    drawn = [index for index, turn in enumerate(view.turns) if "/d=" in turn.text]
    refused = taken = 0
    for index in drawn[2:40:9]:
        head = view.turns[index].text.partition("=")[0]
        for card in tables_for(CLASSIC_5).names:
            cut = _cut(view, [*view.turns[:index], Turn(f"{head}={card}")])
            if _same(cut) is None:
                refused += 1
            else:
                taken += built_in_lister(find_variant("classic")).list_moves(  # type: ignore[arg-type,union-attr]
                    cut, cut.turns) is not None
    assert refused >= 20 and taken >= 20


def test_the_names_of_unseen_draws_still_come_from_the_engine() -> None:
    named = 0
    for record in (classic_play.strip_deal(classic_play.random_game(8)),
                   classic_play.strip_deal(classic_play.random_game(8), keep=0)):
        for turn in range(2, 30, 3):
            found = _same(_cut(record, list(record.turns)), turn=turn, draws=True)
            assert found is not None
            named += bool(found.draws)
    assert named >= 5


def test_a_game_without_a_core_keeps_the_engines_path() -> None:
    from tinygame import TinyVariant

    variant = TinyVariant()
    assert variant.move_lister() is None
    assert built_in_lister(variant) is None
    deck = " ".join(f"{suit}{rank}" for suit in "AB" for rank in range(1, 6))
    record = read_game(f'[Variant "tinytrek"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Deck "{deck}"]\n\n*\n')
    assert record is not None
    position = legal_moves(record, variant=variant)
    assert position.moves and position == _engine_legal_moves(record, variant=variant)


def test_another_engine_of_a_built_in_game_keeps_its_own_rules() -> None:
    """A subclass of a built-in variant may change its rules: its core is not assumed."""
    from lcn.variants.classic import ClassicVariant

    class HouseRules(ClassicVariant):
        pass

    assert built_in_lister(HouseRules()) is None
    assert built_in_lister(ClassicVariant()) is not None

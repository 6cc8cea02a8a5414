"""The fast Rivals core and its sampler against today's engine and against enumeration.

The core (``lcn.games.rivals``) is meant to become the one engine of Lost Cities: Rivals, so
it must agree with ``lcn.variants.rivals`` wherever both speak: the words ``lcn.legal_moves``
offers at every position of seeded games (within a turn too: an auction's calls, the
winner's placements), the scores, and the rule that full validation reports first for every
kind of word that breaks one. The sampler claims to deal the cards still to be uncovered
uniformly over the orders that agree with what a player saw; late in a game every such
order is enumerated and checked with the engine, and the sampler's frequencies are compared
with the exact ones.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from itertools import permutations
from typing import Any

import pytest

from lcn import legal_moves
from lcn.diagnostics import Severity
from lcn.games.rivals import (
    InfoSet,
    RivalsCore,
    Rule,
    infoset_from_record,
    infoset_of_core,
    seat_view,
    tables_for,
    turn_words,
)
from lcn.games.rivals.core import (
    BID,
    BOX,
    BOXED,
    CALLS,
    MORE,
    MOVES,
    NAMES,
    PASS,
    PLACE,
    PLACING,
    START,
    TO_BOX,
    UNKNOWN,
    UP,
    WON,
    PartialCore,
)
from lcn.model import GameRecord, Tags, Turn
from lcn.moves import _continuations, extend
from lcn.validate import validate_record
from lcn.variants import MoveSyntaxError
from lcn.variants.rivals import RivalsState, RivalsVariant
from lcn.variants.rivals_play import random_game

#: Games whose every position is compared word by word (a third each of 2, 3, 4 players).
GAMES = 201
#: Games whose sampled positions try illegal words.
ILLEGAL_GAMES = 30


def _game(seed: int) -> GameRecord:
    return random_game(seed, players=2 + seed % 3, skill=(0.2, 0.55, 0.9)[seed // 3 % 3])


Position = tuple[GameRecord, int, str, RivalsVariant, RivalsState, RivalsCore]


def _positions(seed: int) -> Iterator[Position]:
    """Each position of a seeded game between two words: the record, the turn's index, the
    turn's words so far (as ``lcn.moves.extend`` writes them), today's engine state before
    the turn, and the core."""
    record = _game(seed)
    variant = RivalsVariant()
    state, problems = variant.setup(record)
    assert not problems
    core = RivalsCore.from_record(record)
    for index, turn in enumerate(record.turns):
        partial = ""
        for word in turn_words(turn.text):
            yield record, index, partial, variant, state, core
            move = core.move(word)
            assert core.step(move) == 0, (seed, index, partial, word)
            partial = extend(partial, core.word(move))
        assert core.phase == START
        assert not variant.apply(state, variant.parse_move(state, turn.text))
    yield record, len(record.turns), "", variant, state, core


def _finish(core: RivalsCore) -> list[str]:
    """The rest of the turn as the core would end it: everyone else passes, the winner
    places nothing more and uncovers."""
    core = core.copy()
    words = []
    while core.phase != START and core.deck:
        move = PASS + core.expected if core.phase == CALLS else core.deck[-1]
        words.append(core.word(move))
        assert core.step(move) == 0
    return words


def _with(partial: str, word: str, tail: list[str]) -> str:
    text = extend(partial, word)
    return " ".join([text, *tail])


def _engine_rule(variant: RivalsVariant, state: RivalsState, text: str) -> str | None:
    """The rule of today's engine's first error for a turn's text, None when it has none:
    a word the reader refuses first, then the rules of play in the order of the words."""
    if variant.is_over(state):
        try:
            variant.parse_move(state, text)
        except MoveSyntaxError as exc:
            return exc.rule
        return variant.rule_game_over
    try:
        move = variant.parse_move(state, text)
    except MoveSyntaxError as exc:
        return exc.rule
    errors = [p for p in variant.apply(variant.copy_state(state), move)
              if p.severity is Severity.ERROR]
    return errors[0].rule if errors else None


def _illegal_text(core: RivalsCore, partial: str, word: str) -> str:
    """The turn with an illegal word: what came before it, the word, then the uncover of
    the pile's top (without it the reader stops at the unfinished turn; after the game's
    end, any card: the turn is refused whole)."""
    if word.startswith("up:"):
        return extend(partial, word)
    return _with(partial, word, [core.word(core.deck[-1] if core.deck else UP)])


def test_the_core_offers_the_words_lcn_legal_moves_offers() -> None:
    """At every word of 201 games of 2-4 players: the same legal words as ``lcn.legal_moves``
    lists (today's engine, candidate by candidate), the same player to write, the same end,
    the same scores; every legal word is accepted by the engine with the turn finished."""
    phases: Counter[int] = Counter()
    for seed in range(GAMES):
        core = None
        for _record, _index, partial, variant, state, core in _positions(seed):
            offered = sorted(move.lcn for move in _continuations(variant, state, partial))
            words = sorted(core.word(move) for move in core.legal_moves())
            assert words == offered, (seed, _index, partial)
            assert len(set(core.legal_moves())) == len(words)
            assert core.is_over() == variant.is_over(state)
            if not core.is_over():
                assert core.actor() == variant.acting_seat(state, partial)
            phases[core.phase] += 1
        assert core is not None and core.is_over()
        assert core.score() == tuple(variant.score(state).totals)
    assert min(phases[phase] for phase in (START, CALLS, WON, PLACING, BOXED)) > 50, phases


def test_the_core_agrees_with_lcn_legal_moves_on_records() -> None:
    """The same through the public door: ``lcn.legal_moves`` on the record cut within a turn."""
    record = _game(7)
    checked = 0
    for cut, partial, core in _cuts(record, every=9):
        position = legal_moves(cut)
        assert sorted(move.lcn for move in position.moves) \
            == sorted(core.word(move) for move in core.legal_moves()), (cut.turns[-1:], partial)
        checked += 1
    assert checked > 20


def _cuts(record: GameRecord, every: int) -> Iterator[tuple[GameRecord, str, RivalsCore]]:
    core = RivalsCore.from_record(record)
    tags = Tags({name: value for name, value in record.tags.items() if name != "Result"})
    count = 0
    for index, turn in enumerate(record.turns):
        partial = ""
        for word in turn_words(turn.text):
            count += 1
            if count % every == 0:
                turns = [Turn(t.text) for t in record.turns[:index]]
                if partial:
                    turns.append(Turn(partial))
                yield GameRecord(tags=tags, turns=turns, termination="*"), partial, core
            move = core.move(word)
            assert core.step(move) == 0
            partial = extend(partial, core.word(move))


def test_illegal_words_break_todays_rules() -> None:
    """Every word the core refuses, at sampled positions, breaks the rule today's engine
    reports first for it, and leaves the state as it was; every word the core takes is
    one the engine takes (a winner's placements in any order, not only the order offered)."""
    rng = random.Random(28)
    rules: Counter[str] = Counter()
    unlisted = 0
    for seed in range(ILLEGAL_GAMES):
        every = 1 + seed % 7
        for count, (_record, _index, partial, variant, state, core) in enumerate(_positions(seed)):
            if count % 11 != every and not core.is_over() and core.phase != BOXED:
                continue
            listed = set(core.legal_moves())
            moves = list(range(MOVES)) if count % 5 == 0 else rng.sample(range(MOVES), 40)
            for move in moves:
                word = core.word(move)
                before = core.key()
                trial = core.copy()
                code = trial.step(move)
                if code == 0:
                    if move not in listed:
                        unlisted += 1
                        # A winner's placements in another order, or an uncover with the
                        # note that the card goes to the box: taken, not offered.
                        assert (core.phase == PLACING and MORE <= move < BOX) or move >= TO_BOX, word
                    text = _with(partial, word, _finish(trial))
                    assert _engine_rule(variant, state, text) is None, (seed, text)
                    continue
                assert core.step(move) == code and core.key() == before
                assert move not in listed
                want = _engine_rule(variant, state, _illegal_text(core, partial, word))
                assert Rule(code).rule_id == want, (seed, _index, partial, word, Rule(code), want)
                rules[want] += 1
    assert unlisted > 10
    assert {rule.rule_id for rule in Rule} == set(rules), set(r.rule_id for r in Rule) - set(rules)
    assert min(rules.values()) >= 5, rules


def test_illegal_words_are_what_full_validation_reports() -> None:
    """The same rules through ``lcn.validate.validate_record`` on the record cut at the
    word, for one illegal word of each kind the position has."""
    rng = random.Random(3)
    rules: Counter[str] = Counter()
    for seed in range(ILLEGAL_GAMES, ILLEGAL_GAMES + 12):
        record = _game(seed)
        for cut, partial, core in _cuts(record, every=13):
            kinds: dict[int, list[int]] = {}
            for move in range(MOVES):
                if core.check(move):
                    kinds.setdefault(core.check(move), []).append(move)
            for code, moves in kinds.items():
                move = rng.choice(moves)
                word = core.word(move)
                turns = list(cut.turns)
                if partial:
                    turns.pop()
                turns.append(Turn(_illegal_text(core, partial, word)))
                report = validate_record(GameRecord(tags=cut.tags, turns=turns, termination="*"),
                                         variant=RivalsVariant())
                errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
                assert errors and errors[0].turn == len(turns), (word, [d.format() for d in errors])
                assert errors[0].rule == Rule(code).rule_id, (seed, turns[-1].text, Rule(code))
                rules[errors[0].rule] += 1
    assert len(rules) >= len(Rule) - 2, rules


# -- random and heuristic players ----------------------------------------------------------

def _p_value(observed: Counter[Any], weights: dict[Any, float]) -> float:
    """Chi-square test of the counts against the weights (Wilson-Hilferty approximation)."""
    n = sum(observed.values())
    whole = sum(weights.values())
    stat = sum((observed[key] - n * w / whole) ** 2 / (n * w / whole) for key, w in weights.items())
    df = len(weights) - 1
    if df == 0:
        return 1.0
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def test_random_moves_are_uniform_over_the_legal_moves() -> None:
    """At the first position of each kind with three words or more (a turn's start, an
    auction's call, a winner's first and later words) of a game of 2, 3 and 4 players."""
    rng = random.Random(5)
    for players in (2, 3, 4):
        core = RivalsCore.shuffled(players, rng)
        seen: set[int] = set()
        while not core.is_over():
            legal = core.legal_moves()
            if len(legal) > 2 and core.phase not in seen:
                seen.add(core.phase)
                draws = Counter(core.random_move(rng) for _ in range(300 * len(legal)))
                assert set(draws) == set(legal)
                assert _p_value(draws, dict.fromkeys(legal, 1.0)) > 1e-4, (players, core.phase)
            core.step(core.random_move(rng))
        assert {START, CALLS, WON} <= seen, seen


def test_the_uniformity_check_can_fail() -> None:
    """The chi-square test above tells a skewed player from a uniform one."""
    rng = random.Random(6)
    legal = list(range(10))
    skewed = Counter(min(rng.choice(legal), rng.choice(legal)) for _ in range(3000))
    assert _p_value(skewed, dict.fromkeys(legal, 1.0)) < 1e-6


def _record_of(core: RivalsCore, names: list[str], wagers: list[str], piles: list[str],
               words: list[list[str]]) -> GameRecord:
    tags = Tags({"Variant": "rivals"})
    for seat, name in enumerate(names):
        tags[f"Player{seat + 1}"] = name
    for seat, text in enumerate(wagers):
        tags[f"Wagers{seat + 1}"] = text
    for index, text in enumerate(piles):
        tags[f"Pile{index + 1}"] = text
    turns = [Turn(" ".join(turn).replace(" ,", ",")) for turn in words]
    return GameRecord(tags=tags, turns=turns, termination="*")


@pytest.mark.parametrize("heuristic", [False, True])
def test_playouts_are_legal_games_with_todays_scores(heuristic: bool) -> None:
    """A playout (random or heuristic) is a legal game: replayed through today's validator,
    it has no error and the same scores."""
    rng = random.Random(9 + heuristic)
    for game in range(9):
        players = 2 + game % 3
        core = RivalsCore.shuffled(players, rng, names=["Ada", "Bo", "Cy", "Di"][:players])
        piles = [" ".join(NAMES[card] for card in reversed(core.deck[i - size:i]))
                 for i, size in _pile_ends(core)]
        wagers = [" ".join(NAMES[colour * 10] for colour in range(5) for _ in
                           range(core.wagers[seat * 5 + colour])) for seat in range(players)]
        turns: list[list[str]] = [[]]
        while not core.is_over():
            move = core.heuristic_move(rng) if heuristic else core.random_move(rng)
            turns[-1].append(core.word(move))
            assert core.step(move) == 0
            if core.phase == START:
                turns.append([])
        turns.pop()
        record = _record_of(core, ["Ada", "Bo", "Cy", "Di"][:players], wagers, piles, turns)
        report = validate_record(record)
        assert report.over and not [d.format() for d in report.diagnostics if d.is_error]
        assert report.score is not None and tuple(report.score.totals) == core.score()


def _pile_ends(core: RivalsCore) -> list[tuple[int, int]]:
    """(end index in ``deck``, size) of each pile, first pile first (the deck's end)."""
    ends = []
    end = len(core.deck)
    for size in core.sizes:
        ends.append((end, size))
        end -= size
    return ends


def test_the_heuristic_player_beats_the_random_one() -> None:
    """The heuristic is a player, not noise: seated against a random player it wins most
    games (both seats in turn)."""
    rng = random.Random(11)
    wins = 0
    for game in range(40):
        core = RivalsCore.shuffled(2, rng)
        smart = game % 2
        while not core.is_over():
            move = core.heuristic_move(rng) if core.actor() == smart else core.random_move(rng)
            assert core.step(move) == 0
        score = core.score()
        wins += score[smart] > score[1 - smart]
    assert wins >= 30, wins


# -- words ---------------------------------------------------------------------------------

def test_words_and_moves() -> None:
    tables = tables_for(["Ada", "Bo", "Cy"])
    assert [tables.move(tables.word(m)) for m in range(MOVES)] == list(range(MOVES))
    assert tables.move("UP:r7") == UP + NAMES.index("R7")
    assert tables.move("ada3") == tables.move("P13") == BID + 3
    assert tables.move("p2-") == tables.move("Bo-") == PASS + 1
    assert tables.word(PLACE + NAMES.index("Gw")) == "place:Gw"
    assert tables.word(MORE + NAMES.index("B10")) == ",B10"
    assert tables.word(BOX + NAMES.index("Y2")) == "box:Y2"
    assert turn_words("Ada1 Bo- place:R4,R4,r7 box:Gw up:Y7>box share:3 rest:1") == [
        "Ada1", "Bo-", "place:R4", ",R4", ",r7", "box:Gw", "up:Y7>box"]
    assert tables.move("up:Y7>box") == tables.move("UP:y7>BOX") == TO_BOX + NAMES.index("Y7")
    for word in ("share:3", "Ada40", "Q5", "up:R11"):
        with pytest.raises(ValueError):
            tables.move(word)
    with pytest.raises(ValueError, match="players"):
        tables_for(["Ada"])


def test_a_record_without_its_piles_has_no_full_state() -> None:
    from lcn.variants.rivals_play import strip_piles

    with pytest.raises(ValueError, match="Pile1"):
        RivalsCore.from_record(strip_piles(_game(1)))
    tags = Tags(_game(1).tags)
    first, *rest = tags["Pile1"].split()
    assert first != rest[0]
    tags["Pile1"] = " ".join([rest[0], *rest])  # one card once more, the first gone
    with pytest.raises(ValueError, match="80 cards"):
        RivalsCore.from_record(tags)


def test_states_copy_and_compare() -> None:
    rng = random.Random(4)
    core = RivalsCore.shuffled(3, rng)
    for _ in range(60):
        core.step(core.random_move(rng))
    other = core.copy()
    assert other.key() == core.key()
    other.playout(rng)
    assert other.is_over() and not core.is_over() and other.key() != core.key()
    assert core.turn < other.turn


# -- the information set and its dealer ----------------------------------------------------

def _cores_between_turns(record: GameRecord) -> Iterator[tuple[int, RivalsCore]]:
    """The true full state after each number of turns of a record."""
    core = RivalsCore.from_record(record)
    yield 0, core.copy()
    for index, turn in enumerate(record.turns, 1):
        for word in turn_words(turn.text):
            assert core.step(core.move(word)) == 0
        yield index, core.copy()


def test_the_record_the_view_and_the_core_give_the_same_infoset() -> None:
    """With the piles or without (their sizes only), and from the true full state: the
    same knowledge; every sample shares the table with the truth and holds its cards."""
    rng = random.Random(12)
    for seed in range(12):
        record = _game(300 + seed)
        view = seat_view(record)
        assert not any(f"Pile{index}" in view.tags for index in range(1, 5))
        players = 2 + seed % 3
        for turns, core in _cores_between_turns(record):
            if turns % 9 != seed % 9 and turns != len(record.turns):
                continue
            seat = rng.randrange(players)
            infoset = infoset_from_record(record, seat, turns=turns)
            assert infoset == infoset_from_record(view, seat, turns=turns)
            assert infoset == infoset_of_core(core, seat)
            truth = core.key()
            for _ in range(3):
                dealt = infoset.sample(rng)
                mine = dealt.key()
                assert mine[:9] == truth[:9] and mine[10:] == truth[10:]
                assert Counter(dealt.deck) == Counter(core.deck)
                if dealt.deck:
                    assert dealt.copy().playout(rng) > 0


def test_an_infoset_needs_a_seat_of_the_game_and_a_legal_record() -> None:
    record = _game(3)  # two players
    with pytest.raises(ValueError, match="seat"):
        infoset_from_record(record, 2)
    broken = GameRecord(tags=record.tags, turns=[Turn("up:R99")], termination="*")
    with pytest.raises(MoveSyntaxError):
        infoset_from_record(broken, 0)
    token = RivalsCore.from_record(record).tables.tokens[0]
    wrong = GameRecord(tags=seat_view(record).tags, turns=[Turn(f"{token}1 up:Y2")], termination="*")
    with pytest.raises(ValueError, match="V-AUCTION-DISPLAY"):
        infoset_from_record(wrong, 0)


def _consistent(record: GameRecord, turns: int, prefix: list[str], tail: tuple[str, ...]) -> bool:
    """Whether today's engine plays the record's first turns without error when the piles
    are the cards uncovered so far, in their order, followed by ``tail``."""
    cards = [*prefix, *tail]
    tags = Tags({name: value for name, value in record.tags.items()
                 if not name.startswith("Pile") and name != "Result"})
    sizes = [len(record.tags[f"Pile{index + 1}"].split()) for index in range(4)]
    start = 0
    for index, size in enumerate(sizes):
        tags[f"Pile{index + 1}"] = " ".join(cards[start:start + size])
        start += size
    variant = RivalsVariant()
    state, problems = variant.setup(GameRecord(tags=tags, termination="*"))
    if any(p.severity is Severity.ERROR for p in problems):
        return False
    for turn in record.turns[:turns]:
        if any(p.severity is Severity.ERROR
               for p in variant.apply(state, variant.parse_move(state, turn.text))):
            return False
    return True


@pytest.mark.parametrize("seed", [60, 62])
def test_the_sampler_is_uniform_over_every_consistent_order(seed: int) -> None:
    """Late in a game (four cards left), every order of the four unseen cards and of one
    card already seen is tried with today's engine: the orders it accepts are exactly those
    the sampler deals, at the same frequencies (uniform: see ``sampler``)."""
    rng = random.Random(seed)
    record = _game(seed)
    piles = [card for index in range(4) for card in record.tags[f"Pile{index + 1}"].split()]
    turns, core = next((turns, core) for turns, core in _cores_between_turns(record)
                       if len(core.deck) == 4)
    prefix = piles[:len(piles) - 4]
    pool = [NAMES[card] for card in core.deck] + [prefix[-1]]
    candidates = set(permutations(pool, 4))
    consistent = {tail for tail in candidates if _consistent(record, turns, prefix, tail)}
    assert tuple(piles[-4:]) in consistent
    assert consistent == set(permutations([NAMES[card] for card in core.deck]))
    assert len(consistent) < len(candidates)
    infoset = infoset_from_record(record, seed % 2, turns=turns)
    draws = Counter(tuple(NAMES[card] for card in reversed(infoset.sample(rng).deck))
                    for _ in range(400 * len(consistent)))
    assert set(draws) == consistent
    assert _p_value(draws, dict.fromkeys(consistent, 1.0)) > 1e-4


def _places(deal: Any, infoset: InfoSet) -> list[int]:
    """Places of the piles to look at: the next card, the first of each later pile, the last."""
    places = [len(infoset.unseen) - 1, 0]
    end = len(infoset.unseen) - infoset.left
    for size in infoset.sizes[infoset.pile + 1:]:
        places.append(end - 1)
        end -= size
    return sorted(set(places))


def _place_p_values(deal: Any, infoset: InfoSet, rng: random.Random) -> list[float]:
    """Each place's chi-square p-value: how often each card lies there, against its copies."""
    places = _places(deal, infoset)
    counts: list[Counter[int]] = [Counter() for _ in places]
    for _ in range(6000):
        deck = deal(rng)
        for counter, place in zip(counts, places, strict=True):
            counter[deck[place]] += 1
    weights = {card: float(copies) for card, copies in Counter(infoset.unseen).items()}
    return [_p_value(counter, weights) for counter in counts]


def test_each_unseen_card_lies_anywhere_as_often_as_its_copies_say() -> None:
    """Mid-game, where orders are too many to list: at each place looked at, each card is
    dealt as often as its share of the unseen copies; a dealer that shuffles only half of
    the cards fails the same test."""
    rng = random.Random(21)
    record = _game(33)
    infoset = infoset_from_record(record, 0, turns=len(record.turns) // 3)
    assert infoset.sizes[infoset.pile + 1:] and len(set(infoset.unseen)) > 20
    assert min(_place_p_values(lambda r: infoset.sample(r).deck, infoset, rng)) > 1e-4 / 5

    def half_shuffled(r: random.Random) -> list[int]:
        cards = list(infoset.unseen)
        half = cards[len(cards) // 2:]
        r.shuffle(half)
        return cards[:len(cards) // 2] + half

    assert min(_place_p_values(half_shuffled, infoset, rng)) < 1e-6


# -- records that leave piles unknown ---------------------------------------------------------

def test_a_deal_with_unknown_piles_takes_the_cards_written() -> None:
    """A pile given as its size is followed as full validation follows a record without its
    Pile tag: any card of which a copy is unseen, each copy once; the piles given are
    followed card by card, and their cards are not among the unseen."""
    record = _game(2)
    tags = record.tags
    piles = [tags[f"Pile{index + 1}"].split() for index in range(4)]
    players = sum(1 for name in tags if name.startswith("Player"))
    names = [tags[f"Player{seat + 1}"] for seat in range(players)]
    wagers = [tags[f"Wagers{seat + 1}"].split() for seat in range(players)]
    full = RivalsCore.deal(names, wagers, piles)
    assert type(full) is RivalsCore
    partial = RivalsCore.deal(names, wagers, [piles[0], 20, piles[2], 20])
    assert isinstance(partial, PartialCore) and partial.deck.count(UNKNOWN) == 40
    assert sum(partial.free) == 40
    moves = [full.move(word) for turn in record.turns for word in turn_words(turn.text)]
    assert partial.play(moves) == 0 and full.play(moves) == 0
    assert partial.score() == full.score() == tuple(RivalsVariant().score(_replayed(record)).totals)
    assert partial.is_over() and not any(partial.free)
    # One copy of R10: a second is refused where the piles are unknown (V-SETUP-CARDS); a
    # card other than the top of a pile given is not its top (V-UNCOVER-TOP).
    unknown = RivalsCore.deal(names, wagers, [20, 20, 20, 20])
    ten = NAMES.index("R10")
    assert unknown.step(UP + ten) == 0 and unknown.check(UP + ten) == Rule.SETUP_CARDS
    given = RivalsCore.deal(names, wagers, [piles[0], 20, 20, 20])
    other = next(card for card in range(len(NAMES)) if NAMES[card] != piles[0][0])
    assert given.check(UP + other) == Rule.UNCOVER_TOP
    assert given.step(UP + NAMES.index(piles[0][0])) == 0


def _replayed(record: GameRecord) -> RivalsState:
    variant = RivalsVariant()
    state, _ = variant.setup(record)
    for turn in record.turns:
        variant.apply(state, variant.parse_move(state, turn.text))
    return state


@pytest.mark.parametrize(("wagers", "piles", "why"), [
    ([["Rw", "Rw"], ["Gw", "Yw"]], None, "two wager cards of different colours"),
    ([["Rw", "R5"], ["Gw", "Yw"]], None, "two wager cards of different colours"),
    ([["Rw"], ["Gw", "Yw"]], None, "two wager cards of different colours"),
    ([["Rw", "Bw"], ["Rw", "Yw"], ["Rw", "Gw"]], None, "starting wager cards of each colour"),
    ([["Rw", "Bw"], ["Gw", "Yw"]], [20, 20, 20, 21], "80 cards"),
    ([["Rw", "Bw"], ["Gw", "Yw"]], [0, 20, 20, 40], "at least one card"),
    ([["Rw", "Bw"], ["Gw", "Yw"]], [["R10", "R10"], 20, 20, 38], "80 cards"),
    ([["Rw", "Bw"], ["Gw", "Yw"]], [["r10"], 20, 20, 39], "not a card"),
])
def test_a_deal_the_rules_refuse_raises(wagers: list[list[str]], piles: list[Any] | None,
                                        why: str) -> None:
    names = ["Ada", "Bo", "Cy"][:len(wagers)]
    with pytest.raises(ValueError, match=why):
        RivalsCore.deal(names, wagers, piles or [20, 20, 20, 20])


def test_play_is_the_steps_one_after_the_other() -> None:
    """``play`` on a game's words leaves the state ``step`` leaves word by word, and stops
    at the first refused word with the state as it was after the word before it."""
    record = _game(5)
    start = RivalsCore.from_record(record)
    moves = [start.move(word) for turn in record.turns for word in turn_words(turn.text)]
    stepped = start.copy()
    for move in moves:
        assert stepped.step(move) == 0
    played = start.copy()
    assert played.play(moves) == 0 and played.key() == stepped.key()
    cut = next(index for index in range(len(moves) // 2, len(moves)) if moves[index] < PLACE)
    half = start.copy()
    assert half.play(moves[:cut]) == 0
    wrong = next(card for card in range(len(NAMES)) if UP + card != moves[cut])
    broken = start.copy()
    assert broken.play([*moves[:cut], UP + wrong, *moves[cut + 1:]]) == Rule.UNCOVER_TOP
    assert broken.key() == half.key()

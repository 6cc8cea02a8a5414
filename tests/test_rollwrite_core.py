"""The fast Roll & Write core and its sampler against today's engine.

The core (``lcn.games.rollwrite``) is meant to become the one engine of Roll & Write, so it
must agree with ``lcn.variants.rollwrite`` wherever both speak: the words a player may write
next at every position of seeded games (with no layout, a whole layout and half a layout
given), the scores, and the rule broken by every kind of illegal word. Games the core plays
by itself must be games the validator accepts, with the core's scores. The sampler claims to
roll the dice to come as the dice fall, and to keep everything public as it is.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import pytest

from lcn.diagnostics import Severity
from lcn.games.rollwrite import (
    MAX_TURNS,
    InfoSet,
    RollWriteCore,
    Rule,
    heuristic_move,
    infoset_from_record,
    replay,
    sheet_for,
)
from lcn.games.rollwrite.core import (
    BRIDGES,
    CLOSE,
    END,
    MOVE_COLOUR,
    MOVE_KIND,
    MOVE_VALUE,
    MOVES,
    NEXT,
    ROLL,
    WORN,
    decode,
    encode,
    parse_roll,
    pieces,
    roll_text,
    said,
)
from lcn.model import GameRecord, Tags, Turn
from lcn.moves import legal_moves
from lcn.validate import validate_record
from lcn.variants.base import MoveSyntaxError, Problem
from lcn.variants.rollwrite import (
    COLOURS,
    RollWriteMove,
    RollWriteState,
    RollWriteVariant,
    _parse_choice,
    format_layout,
    parse_layout,
)
from lcn.variants.rollwrite_play import random_game, random_layout

GAMES = 200


def _record(seed: int) -> GameRecord:
    """A seeded game: 2-5 players, three skills, and the layout not given (a third of the
    games), given whole (a third) or given for half the expeditions (a third)."""
    players = 2 + seed % 4
    skill = (0.2, 0.6, 0.95)[seed // 4 % 3]
    mode = seed % 3
    record = random_game(seed, players=players, skill=skill, sheet_tag=mode > 0)
    if mode == 2:
        words = record.tags["Sheet"].split()
        record.tags["Sheet"] = " ".join(word if index % 2 else word[:2] + "?" * 9
                                        for index, word in enumerate(words))
    return record


@dataclass
class Position:
    """One position of a record's game: the core, the engine's state before the turn and
    with the turn's finished choices applied, and the turn's text so far."""

    record: GameRecord
    turn: int  # 0-based index of the turn being written
    core: RollWriteCore
    before: RollWriteState
    during: RollWriteState
    partial: str
    done: int  # choices of the turn finished
    prefix: str  # the unfinished choice's text after `Token:` (its pieces so far)
    pool: tuple[list[str], list[int]]
    roll: RollWriteMove | None
    played: str | None  # the word the record writes here
    words: list[str] = field(default_factory=list)

    @property
    def lookup(self) -> dict[str, int]:
        return _lookup(tuple(self.before.tokens))


@functools.cache
def _lookup(tokens: tuple[str, ...]) -> dict[str, int]:
    """The engine's table of player tokens, as ``parse_move`` makes it."""
    return {t.casefold(): s for s, t in enumerate(tokens)}


def _positions(record: GameRecord, variant: RollWriteVariant) -> Iterator[Position]:
    """Each position of a record, word by word; the last one after the end of the game."""
    before, problems = variant.setup(record)
    assert not [p for p in problems if p.severity is Severity.ERROR]
    core = RollWriteCore.from_record(record, variant)
    for index, turn in enumerate(record.turns):
        words = turn.text.split()
        move = variant.parse_move(before, turn.text)
        roll = RollWriteMove(move.colours, move.numbers, 6, ())
        during = variant.copy_state(before)
        pool = (list(move.colours), list(move.numbers))
        partial = words[0]
        done = 0
        for word in words[1:]:
            who, _, body = word.partition(":")
            if who.lower() in ("bridge", "exhausted") or word.lower() == "end":
                continue
            prefix = ""
            for number, piece in enumerate(pieces(body)):
                text = f"{who}:{piece}" if number == 0 else piece
                yield Position(record, index, core, before, during, partial, done, prefix, pool,
                               roll, text, words)
                code = core.step(core.move(text))
                assert code == 0, (turn.text, text, Rule(code))
                partial = f"{partial} {text}" if number == 0 else partial + text
                prefix += piece
            choice = _parse_choice(word, 0, before.tokens,
                                   {t.casefold(): s for s, t in enumerate(before.tokens)})
            problems = []
            seat = choice.seat
            first = done == 0
            if choice.kind != "refuse":
                variant._check_dice(during, choice, pool, first, roll, problems)
            variant._choose(during, choice, index + 1, problems)
            assert not problems
            if first and choice.kind != "refuse":
                pool = (list(move.colours), list(move.numbers))
                pool[0].remove(choice.colour)
                pool[1].remove(choice.die)
            done += 1
            assert seat == (index + done - 1) % len(before.names)
        assert not [p for p in variant.apply(before, move) if p.severity is Severity.ERROR]
    yield Position(record, len(record.turns), core, before, before, "", 0, "", ([], []), None,
                   None)


def _trial(state: RollWriteState, seat: int) -> RollWriteState:
    """A copy of the engine's state that one choice of ``seat`` may change: what
    ``copy_state`` copies, but only that seat's sheet (``_choose`` writes on no other)."""
    trial = RollWriteState.__new__(RollWriteState)
    trial.names, trial.players, trial.tokens = state.names, state.players, state.tokens
    trial.sheets = list(state.sheets)
    trial.sheets[seat] = state.sheets[seat].copy()
    trial.bridges, trial.given, trial.layout_source = state.bridges, state.given, state.layout_source
    trial.kinds = {c: list(v) for c, v in state.kinds.items()}
    # Where a part of a box was first seen only goes into messages: shared, it may gain the
    # boxes a trial fills, which a later filling of the same box overwrites.
    trial.evidence = state.evidence
    trial.turn, trial.shift, trial.last = state.turn, state.shift, state.last
    return trial


#: The engine's codes for a choice whose dice or number cannot be written, whatever marks
#: follow: ``_check_dice`` and the checks of ``_choose`` before any box is filled.
_BEFORE_MARKS = frozenset({"not-rolled", "die-taken", "zero-start", "not-ascending"})


def _first_problem(variant: RollWriteVariant, at: Position, word: str) -> Problem | None:
    """The engine's first problem with the acting player's whole choice ``word`` (the turn's
    finished choices applied), by the engine's own checks of a choice: its dice
    (``_check_dice``) and its boxes (``_choose``). The rest of a turn (the order of the
    choices, bridges, exhaustion, end) cannot make a choice illegal when the players after
    it refuse, which the candidate turns of ``candidate_moves`` have them do."""
    state = at.during
    tokens = state.tokens
    try:
        choice = _parse_choice(word, 0, tokens, at.lookup)
    except MoveSyntaxError:
        return Problem("move-syntax", "LCN-RW-TURN", word)
    problems: list[Problem] = []
    assert at.roll is not None
    if choice.kind != "refuse":
        variant._check_dice(state, choice, at.pool, at.done == 0, at.roll, problems)
        if problems:
            return problems[0]
    trial = _trial(state, choice.seat)
    variant._choose(trial, choice, at.turn + 1, problems)
    errors = [p for p in problems if p.severity is Severity.ERROR]
    return errors[0] if errors else None


def _offered(at: Position) -> list[str]:
    """The next words ``candidate_moves`` offers (what ``lcn.legal_moves`` lists), made here
    without its whole turns, which cost more than the rest of the test; the test compares
    the two lists at one position in twenty. Choices use the dice of the whole roll (the
    engine rejects those the roller took), a full expedition offers only its top artefact."""
    state = at.before
    if at.prefix:
        return [colour + marks for colour in COLOURS for marks in _CONTINUATIONS]
    seat = (state.roller + at.done) % state.players
    token = state.tokens[seat]
    sheet = state.sheets[seat]
    assert at.roll is not None
    words = [f"{token}:-"]
    for colour in dict.fromkeys(at.roll.colours):
        numbers = sheet.numbers[colour]
        for die in dict.fromkeys(at.roll.numbers):
            if die == 0 and not numbers:
                words.append(f"{token}:{colour}0")
                continue
            word = f"{token}:{colour}{die or 10}"
            if len(numbers) >= 9:
                words.append(word + "^")
            else:
                words += [word + marks for marks in _CONTINUATIONS[1:]]
    return words


#: The marks a continuation is offered with (a choice's: all but the first).
_CONTINUATIONS = ("^", "", "+", ">-", "+>-", ">", "+>")
#: Endings that finish an acceleration without another: one per expedition and marks.
_ENDINGS = [colour + marks for colour in COLOURS for marks in ("^", "", "+", ">-", "+>-")]


def _engine_words(variant: RollWriteVariant, at: Position, core: RollWriteCore
                  ) -> tuple[list[str], set[str]]:
    """The next words offered, and those of them the engine accepts: a word is kept when the
    whole choice it begins passes the engine's checks, for some ending of its acceleration.

    A word ending with `>` is tried first with the continuation the core would play after
    it (any legal one), then with every other ending, unless the engine's first problem
    lies in the word itself, which no ending can mend."""
    offered = _offered(at)
    accepted = set()
    hopeless: set[str] = set()  # choices (`Ada:R3`) whose dice or number fail, marks aside
    token = at.before.tokens[core.player]
    for piece in offered:
        known = f"{token}:{at.prefix}{piece}" if at.prefix else piece
        head = known.rstrip("+>-^")
        if head in hopeless:
            continue
        choices: Iterable[str] = (known,)
        if piece.endswith(">"):
            choices = (known + ending for ending in _ENDINGS)
            trial = core.copy()
            if _core_step(trial, piece) == 0:
                choices = chain([known + trial.word(trial.legal_moves()[0])], choices)
        for choice in choices:
            problem = _first_problem(variant, at, choice)
            if problem is None:
                accepted.add(piece)
                break
            if problem.code in _BEFORE_MARKS and not at.prefix:
                hopeless.add(head)
            if problem.offset is not None and problem.offset < len(known):
                break
    return offered, accepted


def _core_step(core: RollWriteCore, word: str) -> int:
    try:
        move = core.move(word)
    except ValueError:
        return -1
    return core.step(move)


def test_the_core_writes_todays_words_and_scores() -> None:
    """At every position of 200 games: the words the core accepts are those the engine
    accepts, each of its decisions among them and every accepted word one of its decisions;
    the played word steps; the game ends when the engine's does, with the same scores."""
    variant = RollWriteVariant()
    positions = synonyms = 0
    for seed in range(GAMES):
        record = _record(seed)
        rng = random.Random(seed)
        for at in _positions(record, variant):
            core = at.core
            positions += 1
            assert core.is_over() == variant.is_over(at.before) == (at.played is None)
            if at.played is None:
                assert list(core.score()) == variant.score(at.before).totals, seed
                assert core.legal_moves() == []
                break
            offered, engine = _engine_words(variant, at, core)
            if rng.random() < 0.05:
                listed = [piece for piece, _ in variant.candidate_moves(at.before, at.partial)]
                assert sorted(offered) == sorted(dict.fromkeys(listed)), (seed, at.partial)
            legal = core.legal_moves()
            words = [core.word(m) for m in legal]
            assert len(set(words)) == len(words)
            # A word the engine refuses is stepped on the core itself, which must refuse it
            # and stay as it was; the others on copies.
            before = core.key()
            mine = set()
            for word in offered:
                if word in engine:
                    if _core_step(core.copy(), word) == 0:
                        mine.add(word)
                else:
                    assert _core_step(core, word) != 0, (seed, at.partial, word)
            assert core.key() == before
            assert mine == engine, (seed, at.partial, sorted(engine - mine))
            assert set(words) <= mine, (seed, at.partial, sorted(set(words) - mine))
            assert at.played in mine
            # Every word accepted is one decision: the same state as a listed one.
            for word in mine - set(words):
                move = core.move(word)
                trial = core.copy()
                trial.step(move)
                same = [m for m in legal if MOVE_KIND[m] == MOVE_KIND[move]
                        and MOVE_COLOUR[m] == MOVE_COLOUR[move] and MOVE_VALUE[m] == MOVE_VALUE[move]]
                after = []
                for other in same:
                    copy = core.copy()
                    copy.step(other)
                    after.append(copy.key())
                assert trial.key() in after, (seed, at.partial, word)
                synonyms += 1
            if rng.random() < 0.02:
                # Nothing outside the offered words is accepted: every move integer tried.
                for move in range(MOVES):
                    if core.check(move) == 0:
                        assert core.word(move) in engine, (seed, at.partial, core.word(move))
    assert positions > 20_000 and synonyms > 1000, (positions, synonyms)


# -- illegal words: the rule full validation reports ----------------------------------------

def _completed(at: Position, core: RollWriteCore, move: int) -> str:
    """The turn so far with ``move``'s word, finished so that only that word can be wrong:
    an acceleration it leaves open goes to red's top artefact, the players after refuse."""
    word = core.word(move)
    text = at.partial + word if MOVE_KIND[move] == 3 and core.pending else f"{at.partial} {word}"
    if text.endswith(">"):
        text += "R^"
    state = at.before
    return text + "".join(f" {state.tokens[(state.roller + k) % state.players]}:-"
                          for k in range(at.done + 1, state.players))


def _validated_rule(record: GameRecord, turn: int, text: str) -> str:
    """The rule of the first error of the record cut before ``turn`` with ``text`` added."""
    tags = Tags({name: value for name, value in record.tags.items() if name != "Result"})
    cut = GameRecord(tags=tags, turns=[*(Turn(t.text) for t in record.turns[:turn]), Turn(text)],
                     termination="*")
    report = validate_record(cut)
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    assert errors and errors[0].turn == turn + 1, (text, [d.format() for d in errors])
    return errors[0].rule or ""


#: The rules a decision may break (the others are broken by what a record writes around
#: the decisions: the seats, the turn's end, the annotations, the roll).
_DECIDED = [rule for rule in Rule if rule < Rule.TURN_ORDER]


def test_illegal_words_break_the_rule_validation_reports() -> None:
    """For every kind of illegal word met at positions of seeded games (full expeditions and
    pending accelerations sought out), the core's rule is the first error's rule when the
    word is written into the record; a failed step changes nothing."""
    variant = RollWriteVariant()
    rng = random.Random(11)
    validated: Counter[str] = Counter()
    compared = 0
    for seed in range(0, GAMES, 2):
        record = _record(seed)
        for at in _positions(record, variant):
            core = at.core
            if at.played is None:
                if validated[Rule.END_CONDITION.rule_id] < 5:
                    assert core.step(core.legal_moves()[0] if core.legal_moves() else 0) \
                        == Rule.END_CONDITION
                    tokens = at.before.tokens
                    text = "RRR111 " + " ".join(f"{token}:-" for token in tokens)
                    assert _validated_rule(record, len(record.turns), text) == "RW-END-CONDITION"
                    validated["RW-END-CONDITION"] += 1
                break
            full = any(core.count[core.player * 6 + c] == 9 for c in range(6))
            wanted = ((full and min(validated["RW-WRITE-FULL"], validated["RW-ACCEL-FULL"]) < 12)
                      or (core.pending and rng.random() < 0.25) or rng.random() < 0.03)
            if not wanted or min(validated[r.rule_id] for r in _DECIDED if r is not Rule.END_CONDITION) >= 12:
                continue
            by_rule: dict[int, list[int]] = {}
            before = core.key()
            for move in range(MOVES):
                code = core.check(move)
                if code:
                    by_rule.setdefault(code, []).append(move)
            assert core.key() == before
            for code, moves in by_rule.items():
                rule = Rule(code).rule_id
                move = rng.choice(moves)
                trial = core.copy()
                assert trial.step(move) == code and trial.key() == before
                if validated[rule] >= 12:
                    continue
                text = _completed(at, core, move)
                assert _validated_rule(record, at.turn, text) == rule, (seed, text, rule)
                validated[rule] += 1
                compared += 1
    assert {rule.rule_id for rule in _DECIDED} == set(validated), validated
    assert compared > 100


def test_what_a_record_writes_around_the_decisions_is_played_too() -> None:
    """The seats a record names, the end of a turn's choices, its annotations and its rolls
    are played with the decisions: each is held to what the rules did, with its rule."""
    core = RollWriteCore(2, sheet_for(None))
    roll = ROLL + encode(parse_roll("ROG037"))
    r3, o7 = core.move("R3"), core.move("O7")
    turn = [roll, said(0, r3), said(1, o7), CLOSE]
    assert core.copy().play(turn) == 0
    assert core.copy().play([roll, said(1, r3)]) == Rule.TURN_ORDER  # Bo does not roll turn 1
    assert core.copy().play([said(0, r3)]) == Rule.TURN_ORDER  # no roll: no turn under way
    assert core.copy().play([roll, said(0, r3), CLOSE]) == Rule.TURN_ORDER  # Bo's choice missing
    assert core.copy().play([roll, CLOSE]) == Rule.TURN_ORDER  # a turn without choices
    assert core.copy().play([roll, said(0, r3), roll]) == Rule.TURN_ORDER  # a roll within a turn
    assert core.copy().play([*turn, said(0, r3)]) == Rule.TURN_ORDER  # a third choice
    assert core.copy().play([*turn, BRIDGES + 1]) == Rule.BRIDGE_FIRST  # no bridge passed
    assert core.copy().play([*turn, WORN + 1]) == Rule.DICE_EXHAUSTED  # nobody exhausted
    assert core.copy().play([*turn, END]) == Rule.END_CONDITION  # the game goes on
    trial = core.copy()
    assert trial.play([*turn, ROLL + encode(parse_roll("GBY111"))]) == 0
    assert trial.roll == parse_roll("BYG111") and trial.turn == 1
    known = RollWriteCore(2, sheet_for(None), [parse_roll("ROG037")])
    assert known.copy().play(turn) == 0
    assert known.play([ROLL + encode(parse_roll("ROG038"))]) == Rule.SETUP_DICE
    # Two players refusing every die: the dice bridge in turn 7, both exhausted in turn 9.
    refusals = core.copy()
    for number in range(1, 10):
        roller = (number - 1) % 2
        stream = [roll, said(roller, 0), said(1 - roller, 0), CLOSE]
        if number == 7:
            stream.append(BRIDGES + (1 << 7))
        if number == 9:
            stream += [WORN + 3, END]
        assert refusals.play(stream) == 0, number
    assert refusals.is_over() and refusals.score() == (20, 20)
    assert refusals.copy().play([roll]) == Rule.END_CONDITION  # a turn after the end
    assert refusals.copy().play([CLOSE, END]) == 0


# -- the core's own games, random moves, the policy -------------------------------------

def _record_of(core: RollWriteCore, layout: str | None, rng: random.Random,
               policy: bool) -> tuple[GameRecord, RollWriteCore]:
    """A game the core plays from ``core`` to its end, written as a record."""
    tags = Tags({"Variant": "rollwrite"})
    for seat, token in enumerate(core.tokens):
        tags[f"Player{seat + 1}"] = token
    if layout is not None:
        tags["Sheet"] = layout
    turns = []
    while not core.is_over():
        assert core.roll is not None
        text = roll_text(core.roll)
        while True:
            move = heuristic_move(core, rng) if policy else core.random_move(rng)
            word = core.word(move)
            text += word if MOVE_KIND[move] == 3 else " " + word
            turn = core.turn
            assert core.step(move) == 0
            if core.turn != turn:
                break
        turns.append(Turn(text))
    return GameRecord(tags=tags, turns=turns, termination="*"), core


@pytest.mark.parametrize("policy", [False, True])
def test_games_the_core_plays_are_legal_with_its_scores(policy: bool) -> None:
    """Random and heuristic games on a given layout, on no layout (the marks decide) and on
    half a layout validate without an error, end, and score what the core says."""
    rng = random.Random(3 + policy)
    for game in range(24):
        players = 2 + game % 4
        layout = random_layout(rng)
        text = format_layout(layout)
        if game % 3 == 1:
            given = None
            tag = None
        elif game % 3 == 2:
            tag = " ".join(w if i % 2 else w[:2] + "?" * 9 for i, w in enumerate(text.split()))
            given = parse_layout(tag)
        else:
            given, tag = layout, text
        core = RollWriteCore.new(players, given, rng, names=["Ada", "Bo", "Cy", "Dee", "Eve"][:players])
        record, core = _record_of(core, tag, rng, policy)
        assert len(record.turns) <= MAX_TURNS
        report = validate_record(record)
        errors = [d.format() for d in report.diagnostics if d.severity is Severity.ERROR]
        assert report.over and errors == [], errors[:3]
        assert report.score is not None and tuple(report.score.totals) == core.score()
        again = replay(record)
        assert again.key() == core.key() or again.score() == core.score()


def test_random_moves_are_uniform_over_the_legal_moves() -> None:
    rng = random.Random(5)
    tried = 0
    for players in (2, 4):
        core = RollWriteCore.new(players, random_layout(rng), rng)
        while tried < 6 and not core.is_over():
            legal = core.legal_moves()
            if len(legal) >= 8:
                draws = Counter(core.random_move(rng) for _ in range(200 * len(legal)))
                assert set(draws) == set(legal)
                assert _p_value(draws, dict.fromkeys(legal, 1.0)) > 1e-4
                tried += 1
            core.step(core.random_move(rng))
    assert tried == 6


def test_the_policy_plays_better_than_chance() -> None:
    """The heuristic's games score more than random ones from the same positions."""
    rng = random.Random(8)
    gains = []
    for game in range(40):
        start = RollWriteCore.new(2 + game % 4, random_layout(rng), rng)
        chance, policy = start.copy(), start.copy()
        chance.playout(rng)
        policy.heuristic_playout(rng)
        gains.append(sum(policy.score()) / policy.players - sum(chance.score()) / chance.players)
    assert sum(gains) / len(gains) > 50, gains


def test_words_and_moves() -> None:
    core = RollWriteCore.new(3, None, random.Random(1), names=["Ada", "Bo", "Cy"])
    assert [core.move(core.word(m)) for m in range(NEXT)] == list(range(NEXT))
    assert core.move("ada:r10+>") == core.move("Ada:R10+>") == core.move("P1:R10+>")
    assert core.word(core.move("-")) == "Ada:-"
    with pytest.raises(ValueError, match="writes next"):
        core.move("Bo:R3")
    with pytest.raises(ValueError):
        core.move("Ada:R11")
    with pytest.raises(ValueError):
        core.move("G+")  # no acceleration is due
    assert pieces("R6>R>Y+") == ["R6>", "R>", "Y+"] and pieces("R3+>-") == ["R3+>-"]
    assert all(decode(encode(decode(code))) == decode(code) for code in range(0, 216_000, 7))
    with pytest.raises(ValueError):
        RollWriteCore(6, sheet_for(None))
    record = _record(4)
    over = replay(record)
    with pytest.raises(ValueError, match="after the end"):
        over.play_turn(record.turns[-1].text)
    start = RollWriteCore.from_record(GameRecord(tags=record.tags))
    assert start.needs_roll()
    with pytest.raises(ValueError, match="breaks RW-WRITE-ZERO-START"):
        start.play_turn(f"RRR000 {start.tokens[0]}:R10 {start.tokens[1]}:-")


# -- the sampler -------------------------------------------------------------------------

def _p_value(observed: Counter[Any], weights: dict[Any, float]) -> float:
    """Chi-square test of the counts against the weights (Wilson-Hilferty approximation)."""
    n = sum(observed.values())
    whole = sum(weights.values())
    stat = sum((observed[key] - n * w / whole) ** 2 / (n * w / whole) for key, w in weights.items())
    df = len(weights) - 1
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def _roll_weights() -> tuple[dict[Any, float], dict[Any, float]]:
    """The chance of each sorted throw of the colour dice and of the number dice."""
    colours: Counter[Any] = Counter()
    numbers: Counter[Any] = Counter()
    for a in range(6):
        for b in range(6):
            for c in range(6):
                colours[tuple(sorted((a, b, c)))] += 1
    for a in range(10):
        for b in range(10):
            for c in range(10):
                numbers[tuple(sorted((a, b, c)))] += 1
    return ({k: float(v) for k, v in colours.items()}, {k: float(v) for k, v in numbers.items()})


def test_the_sampler_rolls_the_dice_as_they_fall() -> None:
    """Sampled rolls to come follow the dice (each sorted throw of the colour dice and of the
    number dice at its chance, the rolls independent of one another), and everything public
    stays as the record left it."""
    record = _record(7)
    middle = len(record.turns) // 2
    info = infoset_from_record(record, 1, turns=middle)
    public = replay(record, middle)
    # The record's next roll is known to the replay, not to the information set.
    assert info.seat == 1 and info.turn == middle and info.state.needs_roll()
    assert not public.needs_roll()
    assert info.state.rolls == public.rolls[:middle]
    rng = random.Random(4)
    colours: Counter[Any] = Counter()
    numbers: Counter[Any] = Counter()
    pairs: Counter[Any] = Counter()
    for _ in range(4000):
        state = info.sample(rng)
        assert len(state.rolls) == MAX_TURNS and state.rolls[:middle] == public.rolls[:middle]
        assert state.roll == decode(state.rolls[middle]) and not state.needs_roll()
        assert (state.count, state.top, state.circle, state.claimed, state.art, state.dice,
                state.bridges, state.arrows, state.artefacts) == (
            public.count, public.top, public.circle, public.claimed, public.art, public.dice,
            public.bridges, public.arrows, public.artefacts)
        for roll in map(decode, state.rolls[middle:middle + 5]):
            colours[roll[0]] += 1
            numbers[roll[1]] += 1
        first, second = decode(state.rolls[middle]), decode(state.rolls[middle + 1])
        pairs[(sum(first[1]) % 2, sum(second[1]) % 2)] += 1
    colour_weights, number_weights = _roll_weights()
    assert set(colours) == set(colour_weights)
    assert _p_value(colours, colour_weights) > 1e-4
    assert _p_value(numbers, number_weights) > 1e-4
    # Two rolls are independent: the parities of their number sums, a 2x2 table.
    odd = sum(w for k, w in number_weights.items() if sum(k) % 2) / 1000
    assert _p_value(pairs, {(a, b): (odd if a else 1 - odd) * (odd if b else 1 - odd)
                            for a in (0, 1) for b in (0, 1)}) > 1e-4
    # A sample is the sampler's to play: playing it leaves the information set as it was.
    before = info.state.key()
    played = info.sample(rng)
    played.playout(rng)
    assert played.is_over() and info.state.key() == before


def test_an_information_set_mid_turn_keeps_the_roll_made() -> None:
    core = RollWriteCore.new(3, random_layout(random.Random(2)), random.Random(6))
    rng = random.Random(1)
    for _ in range(7):
        core.step(core.random_move(rng))
    info = InfoSet.of_state(core, 2)
    assert info.state.roll == core.roll and info.state.pool == core.pool
    assert len(info.state.rolls) == core.turn + 1
    state = info.sample(rng)
    assert state.roll == core.roll and state.legal_moves() == core.legal_moves()
    with pytest.raises(ValueError):
        InfoSet.of_state(core, 3)


def test_the_core_offers_what_lcn_legal_moves_offers() -> None:
    """``lcn.legal_moves`` itself, on records cut within a turn (after the roll, after some
    choices, after a `>`): its words are the words the core accepts, of all its moves."""
    variant = RollWriteVariant()
    rng = random.Random(21)
    asked = pending = 0
    for seed in (1, 2, 6, 11):
        record = _record(seed)
        for at in _positions(record, variant):
            if at.played is None or rng.random() > (0.15 if at.core.pending else 0.02):
                continue
            core = at.core
            tags = Tags({name: value for name, value in record.tags.items() if name != "Result"})
            cut = GameRecord(tags=tags, turns=[*(Turn(t.text) for t in record.turns[:at.turn]),
                                               Turn(at.partial)], termination="*")
            position = legal_moves(cut, variant=variant)
            assert position.seat == core.player
            offered = {move.lcn for move in position.moves}
            accepted = {core.word(m) for m in range(MOVES) if core.check(m) == 0}
            assert offered == accepted, (seed, at.partial, offered ^ accepted)
            asked += 1
            pending += core.pending
    assert asked >= 12 and pending >= 4, (asked, pending)

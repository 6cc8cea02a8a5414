"""A seeded random player for Lost Cities: Roll & Write: plausible, legal games for tests and samples.

It plays on Roll & Write's core (``lcn.games.rollwrite``), the one step validation's quick
verdict and a search play too: the choices it weighs are the core's legal moves, the sheets
it weighs them on are the core's, every word it writes is one the core takes, and what the
rules decide by themselves (``bridge:``, ``exhausted:``, ``end``) and the score are the
core's to say. What it keeps of its own is what a player values, and the order in which it
reads the dice (as they were rolled), which decides the order it weighs its choices in, so
that a seed gives the same game as long as the rules do.

No source we can read says where the printed sheet carries its arrows and artefacts, so a game
needs *some* layout to be played on: :func:`random_layout` draws one from the seed (two arrows
and two artefacts per expedition, never in the same box). It is made up for the game and is
not the printed sheet. The record shows it through its marks, as a record of a real game
would; ``sheet_tag=True`` also writes it in the ``Sheet`` tag.

The players are simple but not silly: each prefers small steps up a started expedition, opens
few expeditions and with low numbers, takes artefacts and the top artefact of a full expedition,
accelerates where a copy brings a bridge or an artefact nearer, marks a circle early, and
refuses when nothing is worth writing (refusals pay up to the eighth).
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..games.rollwrite.core import (
    MOVE_COLOUR,
    MOVE_DIE,
    MOVE_KIND,
    MOVE_MARK,
    MOVE_VALUE,
    REFUSE,
    TOP,
    RollWriteCore,
    roll_text,
    sheet_for,
)
from ..model import GameRecord, Tags, Turn
from .rollwrite import (
    BOXES,
    BRIDGE_BOX,
    COLOURS,
    COLUMNS,
    BoxKind,
    format_layout,
    player_tokens,
)

NAMES = ["Ada", "Bo", "Clara", "Dev", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lena",
         "Milo", "Nora", "Otto", "Pia", "Quinn", "Rosa", "Sami", "Tove"]
#: Turns after which a game that has not ended is a bug of this module.
MAX_TURNS = 2000


def random_layout(rng: random.Random, arrows: int = 2, artefacts: int = 2) -> dict[str, list[BoxKind]]:
    """A made-up sheet layout for random games: ``arrows`` and ``artefacts`` boxes per colour."""
    layout: dict[str, list[BoxKind]] = {}
    for colour in COLOURS:
        boxes = rng.sample(range(BOXES), arrows + artefacts)
        kinds = [BoxKind(False, False)] * BOXES
        for box in boxes[:arrows]:
            kinds[box] = BoxKind(True, False)
        for box in boxes[arrows:]:
            kinds[box] = BoxKind(False, True)
        layout[colour] = kinds
    return layout


#: The dice a choice uses, by move: ``colour * 10 + die`` (a circle uses the 0).
_DICE_OF = [colour * 10 + die for colour, die in zip(MOVE_COLOUR, MOVE_DIE, strict=True)]


class _Option:
    """One choice as a player weighs it: the core's moves that write it (one, or, from a box
    with an arrow, declining and accelerating) and what it is worth."""

    __slots__ = ("moves", "worth")

    def __init__(self, moves: list[int], worth: float) -> None:
        self.moves = moves
        self.worth = worth


class _Dice(NamedTuple):
    """The dice a player chooses from, in the order they were rolled (core colour indexes)."""

    colours: list[int]
    numbers: list[int]


def _options(core: RollWriteCore, dice: _Dice) -> list[_Option]:
    """Every legal choice the core offers the player to write, valued, in the order the
    player reads the dice: refusing first, then by colour die and number die as rolled."""
    seat = core.player
    base = seat * 6
    count, top, circle = core.count, core.top, core.circle
    shaded = core.dice[seat]
    options = [_Option([REFUSE], 0.6 - 0.25 * max(0, shaded - 5)
                       - (3.0 if shaded == BOXES - 1 else 0.0))]
    offered: dict[int, list[int]] = {}
    for move in core.legal_moves():
        if move != REFUSE:
            key = _DICE_OF[move]
            group = offered.get(key)
            if group is None:
                offered[key] = [move]
            else:
                group.append(move)
    started = sum(1 for cell in range(base, base + 6) if count[cell])
    late = min((core.turn + 1) / 60, 1.0)
    numbers = dict.fromkeys(dice.numbers)
    for colour in dict.fromkeys(dice.colours):
        cell = base + colour
        for die in numbers:
            moves = offered.get(colour * 10 + die)
            if moves is None:
                continue
            first = moves[0]
            mark = MOVE_MARK[first]
            if MOVE_KIND[first] == 1:  # the circle
                worth = 1.6 - 1.2 * late - 0.3 * started
            elif mark == TOP:
                worth = 2.5
            else:
                value = MOVE_VALUE[first]
                arrow = any(MOVE_MARK[move] >> 1 for move in moves)
                bonus = (1.2 if mark & 1 else 0.0) + (0.9 if arrow else 0.0)
                filled = count[cell]
                if filled:
                    room = (10 - value) / max(BOXES - filled, 1)
                    worth = 2.8 - 0.9 * (value - top[cell]) + 0.3 * room + bonus
                else:
                    worth = 2.2 - 0.7 * (value - 1) - 0.45 * started - 1.5 * late + bonus
                    if circle[cell] == 1:
                        worth += 1.5
            options.append(_Option(moves, worth))
    return options


def _accelerate(core: RollWriteCore, rng: random.Random) -> int | None:
    """Where an acceleration goes, on the sheet as the write leaves it (a copy of the core
    that wrote it): the expedition a copy helps most, or None to decline. An expedition the
    core offers no copy into (full, its top artefact claimed) is worth nothing."""
    offered = {MOVE_COLOUR[move]: MOVE_MARK[move] for move in core.legal_moves()}
    base = core.player * 6
    best, target = 0.4, None
    for colour in range(len(COLOURS)):
        filled = core.count[base + colour]
        mark = offered.get(colour)
        if mark is None:
            worth = -9.0
        elif mark == TOP:
            worth = 2.0
        elif filled:
            worth = 1.0 + 0.25 * filled + (0.8 if filled == BRIDGE_BOX - 1 else 0.0)
        else:
            worth = 0.3 if core.circle[base + colour] != 1 else 1.2
        worth += rng.random() * 0.5
        if worth > best:
            best, target = worth, colour
    return target


def _write(core: RollWriteCore, moves: list[int], rng: random.Random) -> str:
    """Write one of ``moves`` (the ways of writing one box: from a box with an arrow, decline
    or accelerate), then the acceleration's expedition; the words written, as one."""
    move = moves[0]
    if len(moves) > 1:
        # A box with an arrow: the core offers to decline it (``>-``) and to accelerate (``>``).
        move = next(m for m in moves if MOVE_MARK[m] >> 1 == 1)
        if rng.random() < 0.93:
            faster = next(m for m in moves if MOVE_MARK[m] >> 1 == 2)
            after = core.copy()
            _step(after, faster)
            target = _accelerate(after, rng)
            if target is not None:
                text = _step(core, faster)
                copies = [m for m in core.legal_moves() if MOVE_COLOUR[m] == target]
                return text + _write(core, copies, rng)
    return _step(core, move)


def _step(core: RollWriteCore, move: int) -> str:
    """Play ``move`` on the core; its word."""
    word = core.word(move)
    refused = core.step(move)
    if refused:
        raise AssertionError(f"the player chose a word the rules refuse: {word}")
    return word


def _pick(options: list[_Option], rng: random.Random, skill: float) -> _Option:
    """The choice worth most after some noise: a weaker player misjudges more."""
    noisy = [(o.worth + rng.gauss(0, 1.2 * (1 - skill) + 0.15), i) for i, o in enumerate(options)]
    return options[max(noisy)[1]]


def random_game(seed: int, *, players: int = 2, skill: float = 0.8,
                names: list[str] | None = None, layout: dict[str, list[BoxKind]] | None = None,
                sheet_tag: bool = False, annotate: bool = True) -> GameRecord:
    """A complete legal game, the same for the same seed.

    ``layout`` is the sheet to play on, every box known (default: :func:`random_layout` from
    the seed); ``sheet_tag`` writes it in the ``Sheet`` tag; ``annotate`` writes what the rules
    decide by themselves (``bridge:``, ``exhausted:``, ``end``), which the validator then checks.
    """
    if not 2 <= players <= 5:
        raise ValueError("Lost Cities: Roll & Write is for 2-5 players")
    rng = random.Random(seed)
    if layout is None:
        layout = random_layout(rng)
    if names is None:
        names = rng.sample(NAMES, players)
    tokens = player_tokens(names)
    tags = Tags()
    tags["Event"] = "Casual game"
    tags["Site"] = "Kitchen table"
    tags["Date"] = f"2026.{rng.randint(1, 11):02d}.{rng.randint(1, 28):02d}"
    tags["Variant"] = "rollwrite"
    for seat, name in enumerate(names):
        tags[f"Player{seat + 1}"] = name
    if sheet_tag:
        tags["Sheet"] = format_layout(layout)
    record = GameRecord(tags=tags)
    core = RollWriteCore(players, sheet_for(layout), (), tokens)
    while not core.is_over():
        if core.turn >= MAX_TURNS:
            raise RuntimeError(f"seed {seed}: the game did not end in {MAX_TURNS} turns")
        colours = [COLOURS.index(rng.choice(COLOURS)) for _ in range(3)]
        numbers = [rng.randrange(10) for _ in range(3)]
        roll = (tuple(sorted(colours)), tuple(sorted(numbers)))
        core.set_roll(roll)
        words = [roll_text(roll)]
        dice = _Dice(colours, numbers)
        for step in range(players):
            option = _pick(_options(core, dice), rng, skill)
            move = option.moves[0]
            words.append(_write(core, option.moves, rng))
            if step == 0 and move != REFUSE:
                # The others choose from the dice the roller left (the core's pool), still in
                # the order rolled.
                dice.colours.remove(MOVE_COLOUR[move])
                dice.numbers.remove(MOVE_DIE[move])
        if annotate:
            if core.fresh:
                words.append("bridge:" + ",".join(column for index, column in enumerate(COLUMNS)
                                                  if core.fresh >> index & 1))
            if core.worn:
                words.append("exhausted:" + ",".join(token for seat, token in enumerate(tokens)
                                                     if core.worn >> seat & 1))
            if core.is_over():
                words.append("end")
        record.turns.append(Turn(" ".join(words)))
    result = ":".join(str(total) for total in core.score())
    record.tags["Result"] = result
    record.termination = result
    return record

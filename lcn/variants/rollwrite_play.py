"""A seeded random player for Lost Cities: Roll & Write: plausible, legal games for tests and samples.

It keeps its own small model of the sheets instead of calling the engine, so that a game it
produces is an independent check of the validator: every game must validate, and the
annotations it writes (``bridge:``, ``exhausted:``, ``end``) must agree with what the engine
computes.

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
from dataclasses import dataclass, field

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


@dataclass
class _Sheet:
    numbers: dict[str, list[int]] = field(default_factory=lambda: {c: [] for c in COLOURS})
    circle: dict[str, str] = field(default_factory=lambda: dict.fromkeys(COLOURS, ""))
    top: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(COLOURS, False))
    artefacts: int = 0
    dice: int = 0

    def filled(self, column: str) -> int:
        if column == "A":
            return self.artefacts
        if column == "D":
            return self.dice
        return len(self.numbers[column])


@dataclass
class _Option:
    kind: str  # "write", "circle", "top", "refuse"
    colour: str | None
    die: int | None
    worth: float


def _options(sheet: _Sheet, colours: list[str], numbers: list[int], turn: int,
             layout: dict[str, list[BoxKind]]) -> list[_Option]:
    """Every legal choice from the dice, valued."""
    options = [_Option("refuse", None, None, 0.6 - 0.25 * max(0, sheet.dice - 5)
                       - (3.0 if sheet.dice == BOXES - 1 else 0.0))]
    started = sum(1 for c in COLOURS if sheet.numbers[c])
    late = min(turn / 60, 1.0)
    for colour in dict.fromkeys(colours):
        column = sheet.numbers[colour]
        for die in dict.fromkeys(numbers):
            if die == 0 and not column:
                if sheet.circle[colour] == "":
                    worth = 1.6 - 1.2 * late - 0.3 * started
                    options.append(_Option("circle", colour, 0, worth))
                continue
            value = 10 if die == 0 else die
            top = column[-1] if column else 0
            if value < top:
                continue
            if len(column) >= BOXES:
                if not sheet.top[colour]:
                    options.append(_Option("top", colour, die, 2.5))
                continue
            kind = layout[colour][len(column)]
            bonus = (1.2 if kind.artefact else 0.0) + (0.9 if kind.arrow else 0.0)
            if column:
                room = (10 - value) / max(BOXES - len(column), 1)
                worth = 2.8 - 0.9 * (value - top) + 0.3 * room + bonus
            else:
                worth = 2.2 - 0.7 * (value - 1) - 0.45 * started - 1.5 * late + bonus
                if sheet.circle[colour] == "X":
                    worth += 1.5
            options.append(_Option("write", colour, die, worth))
    return options


def _accelerate(sheet: _Sheet, rng: random.Random) -> str | None:
    """Where an acceleration goes: the expedition a copy helps most, or None to decline."""
    best, target = 0.4, None
    for colour in COLOURS:
        column = sheet.numbers[colour]
        if len(column) >= BOXES:
            worth = 2.0 if not sheet.top[colour] else -9.0
        elif column:
            worth = 1.0 + 0.25 * len(column) + (0.8 if len(column) == BRIDGE_BOX - 1 else 0.0)
        else:
            worth = 0.3 if sheet.circle[colour] != "X" else 1.2
        worth += rng.random() * 0.5
        if worth > best:
            best, target = worth, colour
    return target


def _write(sheet: _Sheet, colour: str, value: int, layout: dict[str, list[BoxKind]],
           rng: random.Random) -> str:
    """Fill the next box of ``colour`` with ``value``, follow arrows; the marks written."""
    column = sheet.numbers[colour]
    if not column and sheet.circle[colour] == "":
        sheet.circle[colour] = "-"
    kind = layout[colour][len(column)]
    column.append(value)
    text = ""
    if kind.artefact:
        text += "+"
        sheet.artefacts = min(sheet.artefacts + 1, BOXES)
    if kind.arrow:
        target = _accelerate(sheet, rng) if rng.random() < 0.93 else None
        if target is None:
            text += ">-"
        else:
            text += ">" + target
            tcol = sheet.numbers[target]
            if len(tcol) >= BOXES:
                sheet.top[target] = True
                sheet.artefacts = min(sheet.artefacts + 1, BOXES)
                text += "^"
            else:
                text += _write(sheet, target, tcol[-1] if tcol else 1, layout, rng)
    return text


def _play(sheet: _Sheet, option: _Option, layout: dict[str, list[BoxKind]],
          rng: random.Random) -> str:
    """Apply a chosen option to the sheet; the choice's text after the player."""
    if option.kind == "refuse":
        sheet.dice = min(sheet.dice + 1, BOXES)
        return "-"
    colour = option.colour
    assert colour is not None and option.die is not None
    if option.kind == "circle":
        sheet.circle[colour] = "X"
        return f"{colour}0"
    value = 10 if option.die == 0 else option.die
    if option.kind == "top":
        sheet.top[colour] = True
        sheet.artefacts = min(sheet.artefacts + 1, BOXES)
        return f"{colour}{value}^"
    return f"{colour}{value}" + _write(sheet, colour, value, layout, rng)


def _pick(options: list[_Option], rng: random.Random, skill: float) -> _Option:
    noisy = [(o.worth + rng.gauss(0, 1.2 * (1 - skill) + 0.15), i) for i, o in enumerate(options)]
    return options[max(noisy)[1]]


def random_game(seed: int, *, players: int = 2, skill: float = 0.8,
                names: list[str] | None = None, layout: dict[str, list[BoxKind]] | None = None,
                sheet_tag: bool = False, annotate: bool = True) -> GameRecord:
    """A complete legal game, the same for the same seed.

    ``layout`` is the sheet to play on (default: :func:`random_layout` from the seed);
    ``sheet_tag`` writes it in the ``Sheet`` tag; ``annotate`` writes what the rules decide by
    themselves (``bridge:``, ``exhausted:``, ``end``), which the validator then checks.
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
    sheets = [_Sheet() for _ in range(players)]
    claimed: set[str] = set()
    turn = 0
    while True:
        turn += 1
        if turn > MAX_TURNS:
            raise RuntimeError(f"seed {seed}: the game did not end in {MAX_TURNS} turns")
        roller = (turn - 1) % players
        colours = [rng.choice(COLOURS) for _ in range(3)]
        numbers = [rng.randrange(10) for _ in range(3)]
        before = [{c: s.filled(c) for c in COLUMNS} for s in sheets]
        exhausted_before = [s.dice >= BOXES for s in sheets]
        words = ["".join(sorted(colours, key=COLOURS.index)) + "".join(map(str, sorted(numbers)))]
        pool = (colours, numbers)
        for step in range(players):
            seat = (roller + step) % players
            option = _pick(_options(sheets[seat], pool[0], pool[1], turn, layout), rng, skill)
            words.append(f"{tokens[seat]}:{_play(sheets[seat], option, layout, rng)}")
            if step == 0 and option.kind != "refuse":
                rest_c, rest_n = list(colours), list(numbers)
                rest_c.remove(option.colour)  # type: ignore[arg-type]
                rest_n.remove(option.die)  # type: ignore[arg-type]
                pool = (rest_c, rest_n)
        newly = []
        for column in COLUMNS:
            if column in claimed:
                continue
            if any(s.filled(column) >= BRIDGE_BOX > before[i][column]
                   for i, s in enumerate(sheets)):
                claimed.add(column)
                newly.append(column)
        fresh = [tokens[i] for i, s in enumerate(sheets) if s.dice >= BOXES
                 and not exhausted_before[i]]
        over = len(claimed) == len(COLUMNS) or all(s.dice >= BOXES for s in sheets)
        if annotate:
            if newly:
                words.append("bridge:" + ",".join(newly))
            if fresh:
                words.append("exhausted:" + ",".join(fresh))
            if over:
                words.append("end")
        record.turns.append(Turn(" ".join(words)))
        if over:
            break
    from ..validate import validate_record

    report = validate_record(record)
    assert report.score is not None
    result = ":".join(str(t) for t in report.score.totals)
    record.tags["Result"] = result
    record.termination = result
    return record

"""The express check of Lost Cities: Roll & Write: a legal record in canonical form, decided in one pass.

Most Roll & Write records a validator sees in bulk are legal games written as the writer
writes them (``7. ROG037 Ada:R3+>G Bo:O7 Cy:- bridge:R``). For those the rules come down to
a few list operations per choice on small integers (a colour is its index in ``COLOURS``, a
player's expedition is the slot ``seat * 6 + colour``, a box of the sheet ``colour * 9 +
box``), which this module does without the engine's per-turn objects (moves, choices, steps,
problems). Anything else gives up and the validator runs the engine of ``rollwrite.py``,
which stays the reference: a lenient spelling (another letter case, a seat form the writer
would not write, bridges in another order), any broken rule, a sheet layout given (the
``Sheet`` tag, a layout file or the engine's option), an unusual setup. Every check here is
one of the engine's, with its rule ID (``seeds/rollwrite.md``) beside it; a game decided here
is one the engine finds nothing to say about, not even a warning.

Nothing is remembered between games: the tables below are made once, at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import ExpressResult
from .rollwrite import (
    ARTEFACT_POINTS,
    BOXES,
    BRIDGE_BOX,
    BRIDGE_POINTS,
    COLOURS,
    COLUMNS,
    DICE_POINTS,
    expedition_points,
    player_tokens,
)

if TYPE_CHECKING:
    from ..model import GameRecord

#: The columns' indexes in ``COLUMNS`` of the artefact column and of the dice column.
_ART = COLUMNS.index("A")
_DICE = COLUMNS.index("D")
_COLUMN_COUNT = len(COLUMNS)

#: The first box a choice fills, as the writer writes it after the player's `:` (``R3``,
#: ``B10+``, ``G7>-``, ``Y9^``; the circle ``P0``) → (circle, colour, die, top, artefact,
#: declined): what ``rollwrite._parse_choice`` reads from it. An acceleration (``R3>G``) is
#: this text, `>` and the steps of ``_LATER``.
_FIRST: dict[str, tuple[bool, int, int, bool, bool, bool]] = {}
#: A box an acceleration fills (``G``, ``G+``, ``B^``) → (colour, top, artefact).
_LATER: dict[str, tuple[int, bool, bool]] = {}
for _colour, _letter in enumerate(COLOURS):
    _FIRST[f"{_letter}0"] = (True, _colour, 0, False, False, False)
    for _number in range(1, 11):
        for _marks, _top, _artefact, _declined in (
                ("", False, False, False), ("^", True, False, False), ("+", False, True, False),
                (">-", False, False, True), ("+>-", False, True, True)):
            _FIRST[f"{_letter}{_number}{_marks}"] = (False, _colour, _number % 10, _top,
                                                     _artefact, _declined)
    for _marks, _top, _artefact in (("", False, False), ("^", True, False), ("+", False, True)):
        _LATER[_letter + _marks] = (_colour, _top, _artefact)

#: A roll's colour dice and number dice, in any order (``rollwrite._parse_roll`` sorts them).
_ROLL_COLOURS = {a + b + c: (COLOURS.index(a), COLOURS.index(b), COLOURS.index(c))
                 for a in COLOURS for b in COLOURS for c in COLOURS}
_ROLL_NUMBERS = {f"{n:03}": tuple(int(d) for d in f"{n:03}") for n in range(1000)}
#: The move number that starts each turn, as the writer writes it (LCN-MOVE-NUMBER); a game
#: longer than this is left to the engine.
_NUMBERS = [f"{n}." for n in range(1, 4001)]
#: The points of an expedition by boxes filled, without and with its circle marked.
_POINTS = [[expedition_points(boxes, circle) for boxes in range(BOXES + 1)]
           for circle in (False, True)]


def express_check(record: GameRecord, words: list[str]) -> ExpressResult | None:
    """Validate a Roll & Write record from its words, or return None to have it done in full.

    ``words`` are the movetext's words before the termination, move numbers included
    (``Variant.express_check``). The engine's layout (given by its option or a layout file)
    is the caller's to rule out (``RollWriteVariant.express_check``).
    """
    tags = record.tags.mapping
    # -- the seats (RW-SETUP-PLAYERS): Player1..PlayerN, 2 to 5 of them, no other Player tag
    names: list[str] = []
    while (name := tags.get(f"Player{len(names) + 1}")) is not None:
        names.append(name)
    players = len(names)
    if not 2 <= players <= 5 or "Sheet" in tags \
            or sum(1 for tag in tags if tag.startswith("Player")) != players:
        return None  # RW-SETUP-LAYOUT: a layout given is checked by the engine
    tokens = player_tokens(names)
    if len({token.casefold() for token in tokens}) != players:
        return None
    prefixes = [token + ":" for token in tokens]
    lengths = [len(prefix) for prefix in prefixes]

    slots = players * 6
    count = [0] * slots  # boxes filled per player and expedition
    last = [0] * slots  # the number in the highest box filled (0: none)
    circle = [0] * slots  # 0 open, 1 marked (X), 2 struck
    claimed = [False] * slots  # the top artefact
    artefacts = [0] * players
    dice = [0] * players
    won = [0] * players  # bridges scored
    # What each box carries as far as the record has shown (RW-LAYOUT-CONSISTENT): -1 not
    # known yet, else 0 or 1.
    box_artefact = [-1] * (len(COLOURS) * BOXES)
    box_arrow = [-1] * (len(COLOURS) * BOXES)
    passed = [0] * _COLUMN_COUNT  # the turn (1-based) a bridge was first passed, 0 not yet
    bridges = exhausted = 0
    over = False
    turn = 0
    count_words = len(words)
    at = 0
    while at < count_words:
        # -- the move number (LCN-MOVE-NUMBER), the roll (RW-SETUP-DICE)
        if over:
            return None  # a turn after the end (RW-END-CONDITION)
        if turn >= len(_NUMBERS) or words[at] != _NUMBERS[turn] or at + 1 == count_words:
            return None
        roll = words[at + 1]
        rolled_colours = _ROLL_COLOURS.get(roll[:3])
        rolled_numbers = _ROLL_NUMBERS.get(roll[3:])
        if rolled_colours is None or rolled_numbers is None:
            return None
        turn += 1
        at += 2
        roller = (turn - 1) % players
        pool_colours: tuple[int, ...] | list[int] = rolled_colours
        pool_numbers: tuple[int, ...] | list[int] = rolled_numbers
        newly: list[int] = []
        fresh: list[int] = []
        # -- every player's choice, clockwise from the roller (RW-TURN-ORDER)
        for step in range(players):
            if at == count_words:
                return None  # a choice missing (RW-TURN-ORDER)
            seat = roller + step
            if seat >= players:
                seat -= players
            word = words[at]
            at += 1
            if word[:lengths[seat]] != prefixes[seat]:
                return None  # another player, or spelt otherwise (RW-TURN-ORDER)
            rest = word[lengths[seat]:]
            if rest == "-":
                # -- a refusal shades a dice symbol (RW-DICE-SHADE, RW-DICE-EXHAUSTED)
                shaded = dice[seat]
                if shaded < BOXES:
                    shaded += 1
                    dice[seat] = shaded
                    if shaded == BRIDGE_BOX:
                        if not passed[_DICE]:
                            passed[_DICE] = turn
                            bridges += 1
                            newly.append(_DICE)
                        if passed[_DICE] == turn:
                            won[seat] += 1  # RW-BRIDGE-FIRST
                    elif shaded == BOXES:
                        fresh.append(seat)
                        exhausted += 1
                continue
            parts = None
            first = _FIRST.get(rest)
            if first is None:
                parts = rest.split(">")
                first = _FIRST.get(parts[0])
                if first is None or len(parts) == 1:
                    return None
            is_circle, colour, die, top, artefact, declined = first
            if colour not in pool_colours or die not in pool_numbers:
                return None  # RW-TURN-ROLLER-DICE, RW-TURN-OTHERS-DICE
            if not step:
                # The others choose from the four dice left (RW-TURN-OTHERS-DICE).
                pool_colours = list(rolled_colours)
                pool_colours.remove(colour)
                pool_numbers = list(rolled_numbers)
                pool_numbers.remove(die)
            slot = seat * 6 + colour
            if is_circle:
                if parts is not None:
                    return None  # marks after the circle: the engine says what is wrong
                if count[slot] or circle[slot]:
                    return None  # RW-CIRCLE: too late, or marked already
                circle[slot] = 1
                continue
            value = die or 10  # RW-WRITE-ZERO
            if not die and not count[slot]:
                return None  # RW-WRITE-ZERO-START
            if value < last[slot]:
                return None  # RW-WRITE-ASCENDING
            # The boxes the choice fills: the first, then each acceleration (RW-ACCEL-COPY).
            if parts is None:
                steps = [(colour, top, artefact)]
            else:
                if top:
                    return None  # marks after `^`: the engine says what is wrong
                steps = [(colour, False, artefact)]
                for index in range(1, len(parts)):
                    part = parts[index]
                    if part == "-" and index == len(parts) - 1 and not steps[-1][1]:
                        declined = True
                        break
                    later = _LATER.get(part)
                    if later is None or steps[-1][1]:
                        return None  # not a box, or a box after a top artefact
                    steps.append(later)
            final = len(steps) - 1
            for index in range(final + 1):
                colour, top, artefact = steps[index]
                slot = seat * 6 + colour
                filled = count[slot]
                if index:
                    value = last[slot] or 1  # the copy of the top number (RW-ACCEL-COPY)
                if filled >= BOXES:
                    if not top or claimed[slot]:
                        return None  # RW-WRITE-FULL, RW-ACCEL-FULL, RW-TOP-ARTEFACT
                    claimed[slot] = True
                    artefact = True  # the top artefact shades one (RW-TOP-ARTEFACT)
                else:
                    if top:
                        return None  # RW-TOP-ARTEFACT: not full
                    if not filled and not circle[slot]:
                        circle[slot] = 2  # the circle is struck (RW-CIRCLE)
                    filled += 1
                    count[slot] = filled
                    last[slot] = value
                    # RW-LAYOUT-CONSISTENT: the box's marks agree with its first filling.
                    box = colour * BOXES + filled - 1
                    arrow = 1 if index < final or declined else 0
                    known = box_arrow[box]
                    if known < 0:
                        box_arrow[box] = arrow
                    elif known != arrow:
                        return None  # RW-LAYOUT-CONSISTENT (the arrow)
                    known = box_artefact[box]
                    if known < 0:
                        box_artefact[box] = 1 if artefact else 0
                    elif known != artefact:
                        return None  # RW-LAYOUT-CONSISTENT (the artefact)
                    if filled == BRIDGE_BOX:  # RW-BRIDGE-PASS
                        if not passed[colour]:
                            passed[colour] = turn
                            bridges += 1
                            newly.append(colour)
                        if passed[colour] == turn:
                            won[seat] += 1  # RW-BRIDGE-FIRST
                if artefact and artefacts[seat] < BOXES:  # RW-ARTEFACT-BOX
                    shaded = artefacts[seat] + 1
                    artefacts[seat] = shaded
                    if shaded == BRIDGE_BOX:
                        if not passed[_ART]:
                            passed[_ART] = turn
                            bridges += 1
                            newly.append(_ART)
                        if passed[_ART] == turn:
                            won[seat] += 1  # RW-BRIDGE-FIRST
        over = bridges == _COLUMN_COUNT or exhausted == players  # RW-END-CONDITION
        # -- what the record says the rules did: `bridge:`, `exhausted:`, `end`
        if at < count_words and words[at].startswith("bridge:"):
            newly.sort()
            if words[at] != "bridge:" + ",".join(COLUMNS[column] for column in newly):
                return None  # RW-BRIDGE-FIRST (or another order of the same bridges)
            at += 1
        if at < count_words and words[at].startswith("exhausted:"):
            fresh.sort()
            if words[at] != "exhausted:" + ",".join(tokens[seat] for seat in fresh):
                return None  # RW-DICE-EXHAUSTED
            at += 1
        if at < count_words and words[at] == "end":
            if not over:
                return None  # RW-END-CONDITION: `end` in a turn that does not end the game
            at += 1

    # -- the scores (RW-SCORE-*): expeditions, doubled by a marked circle; the columns; bridges
    totals = []
    for seat in range(players):
        total = ARTEFACT_POINTS[artefacts[seat]] + DICE_POINTS[dice[seat]] \
            + BRIDGE_POINTS * won[seat]
        for slot in range(seat * 6, seat * 6 + 6):
            total += _POINTS[circle[slot] == 1][count[slot]]
        totals.append(total)
    return ExpressResult(names, totals, over, turn)

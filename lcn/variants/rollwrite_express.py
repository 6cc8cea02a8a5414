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

#: A box a choice fills: (colour, top, marks, copy): ``top`` claims the top artefact of a full
#: expedition; ``marks`` say what the box carries, ``2`` an artefact (``+``) plus ``1`` an
#: arrow (``>`` an acceleration or ``>-`` a declined one); ``copy`` for a box an acceleration
#: fills with a copy (RW-ACCEL-COPY).
Step = tuple[int, bool, int, bool]
#: The first box a choice fills, as the writer writes it after the player's `:` (``R3``,
#: ``B10+``, ``G7>-``, ``Y9^``; the circle ``P0``) → (colour, die, number written, circle,
#: the boxes filled): what ``rollwrite._parse_choice`` reads from it. An acceleration
#: (``R3>G``) is such a text without `>-`, then `>` and the boxes of ``_LATER``.
_FIRST: dict[str, tuple[int, int, int, bool, tuple[Step, ...]]] = {}
#: A box an acceleration fills (``G``, ``G+``, ``B^``), its marks without the arrow.
_LATER: dict[str, Step] = {}
for _colour, _letter in enumerate(COLOURS):
    _FIRST[f"{_letter}0"] = (_colour, 0, 0, True, ())
    for _number in range(1, 11):
        for _marks, _top, _code in (("", False, 0), ("^", True, 0), ("+", False, 2),
                                    (">-", False, 1), ("+>-", False, 3)):
            _FIRST[f"{_letter}{_number}{_marks}"] = (_colour, _number % 10, _number, False,
                                                     ((_colour, _top, _code, False),))
    for _marks, _top, _code in (("", False, 0), ("^", True, 0), ("+", False, 2)):
        _LATER[_letter + _marks] = (_colour, _top, _code, True)


def _left(dice: list[int], faces: int) -> tuple[tuple[int, ...], ...]:
    """For each face, the dice left when one die showing it is taken (none: not rolled),
    then all the dice."""
    left: list[tuple[int, ...]] = [()] * faces
    for index, face in enumerate(dice):
        if not left[face]:
            left[face] = (*dice[:index], *dice[index + 1:])
    return (*left, tuple(dice))


#: A roll's colour dice, in any order (``rollwrite._parse_roll`` sorts them) → for each colour,
#: the two colour dice left when the roller takes it, then all three (RW-TURN-OTHERS-DICE).
_ROLL_COLOURS = {a + b + c: _left([COLOURS.index(a), COLOURS.index(b), COLOURS.index(c)],
                                  len(COLOURS))
                 for a in COLOURS for b in COLOURS for c in COLOURS}
#: The same for the number dice, 0-9.
_ROLL_NUMBERS = {f"{value:03}": _left([ord(digit) - 48 for digit in f"{value:03}"], 10)
                 for value in range(1000)}
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
    #: By roller, the seats in the order they choose (clockwise from the roller), each with
    #: how its choices start (``Ada:``), its refusal (``Ada:-``) and its first slot.
    orders = [[(seat, tokens[seat] + ":", len(tokens[seat]) + 1, tokens[seat] + ":-", seat * 6)
               for seat in ((roller + step) % players for step in range(players))]
              for roller in range(players)]

    slots = players * 6
    count = [0] * slots  # boxes filled per player and expedition
    last = [0] * slots  # the number in the highest box filled (0: none)
    marked = [0] * slots  # the circle marked (an X)
    claimed = [False] * slots  # the top artefact
    artefacts = [0] * players
    dice = [0] * players
    won = [0] * players  # bridges scored
    # What each box carries as far as the record has shown (RW-LAYOUT-CONSISTENT): -1 not
    # known yet, else its marks (2 an artefact, plus 1 an arrow).
    box_marks = [-1] * (len(COLOURS) * BOXES)
    passed = [0] * _COLUMN_COUNT  # the turn (1-based) a bridge was first passed, 0 not yet
    worn_out = [0] * players  # the turn a player was exhausted, 0 not yet
    bridges = exhausted = 0
    over = False
    turn = 0
    count_words = len(words)
    at = 0
    no_dice: tuple[int, ...] = ()
    while at < count_words:
        # -- the move number (LCN-MOVE-NUMBER), the roll (RW-SETUP-DICE)
        if over:
            return None  # a turn after the end (RW-END-CONDITION)
        if turn >= len(_NUMBERS) - 1 or words[at] != _NUMBERS[turn]:
            return None
        if at + 1 + players >= count_words:
            return None  # a choice missing (RW-TURN-ORDER)
        roll = words[at + 1]
        rolled_colours = _ROLL_COLOURS.get(roll[:3])
        rolled_numbers = _ROLL_NUMBERS.get(roll[3:])
        if rolled_colours is None or rolled_numbers is None:
            return None
        order = orders[turn % players]
        turn += 1
        at += 2
        pool_colours = pool_numbers = no_dice
        rolling = True
        # -- every player's choice, clockwise from the roller (RW-TURN-ORDER)
        for seat, prefix, skip, refusal, base in order:
            word = words[at]
            at += 1
            if word == refusal:
                if rolling:  # all six dice stay for the others (RW-TURN-OTHERS-DICE)
                    pool_colours, pool_numbers = rolled_colours[-1], rolled_numbers[-1]
                    rolling = False
                # -- a refusal shades a dice symbol (RW-DICE-SHADE, RW-DICE-EXHAUSTED)
                shaded = dice[seat]
                if shaded < BOXES:
                    shaded += 1
                    dice[seat] = shaded
                    if shaded == BRIDGE_BOX:
                        if not passed[_DICE]:
                            passed[_DICE] = turn
                            bridges += 1
                        if passed[_DICE] == turn:
                            won[seat] += 1  # RW-BRIDGE-FIRST
                    elif shaded == BOXES:
                        worn_out[seat] = turn
                        exhausted += 1
                continue
            if word[:skip] != prefix:
                return None  # another player, or spelt otherwise (RW-TURN-ORDER)
            rest = word[skip:]
            first = _FIRST.get(rest)
            parts = None
            if first is None:
                parts = rest.split(">")
                first = _FIRST.get(parts[0])
                if first is None or len(parts) == 1:
                    return None
            colour, die, value, circle, steps = first
            if rolling:
                pool_colours = rolled_colours[colour]
                pool_numbers = rolled_numbers[die]
                if not pool_colours or not pool_numbers:
                    return None  # RW-TURN-ROLLER-DICE
                rolling = False
            elif colour not in pool_colours or die not in pool_numbers:
                return None  # RW-TURN-OTHERS-DICE
            slot = base + colour
            filled = count[slot]
            if circle:
                if parts is not None:
                    return None  # marks after the circle: the engine says what is wrong
                if filled or marked[slot]:
                    return None  # RW-CIRCLE: too late, or marked already
                marked[slot] = 1
                continue
            if not die and not filled:
                return None  # RW-WRITE-ZERO-START
            if value < last[slot]:
                return None  # RW-WRITE-ASCENDING
            if parts is not None:
                # The boxes an acceleration fills (RW-ACCEL-COPY): an arrow on each but the last.
                if steps[0][1]:
                    return None  # marks after `^`: the engine says what is wrong
                chain = [(colour, False, steps[0][2] | 1, False)]
                final = len(parts) - 1
                declined = False
                for index in range(1, final + 1):
                    part = parts[index]
                    later = _LATER.get(part)
                    if chain[-1][1] or (later is None and (part != "-" or index < final)):
                        return None  # not a box, or a box after a top artefact
                    if later is None:
                        declined = True  # `>-` after the last box
                    else:
                        chain.append((later[0], later[1], later[2] | 1, True))
                if not declined:
                    end = chain[-1]
                    chain[-1] = (end[0], end[1], end[2] & 2, end[3])
                steps = tuple(chain)
            for colour, top, code, copy in steps:
                if copy:
                    slot = base + colour
                    filled = count[slot]
                    value = last[slot] or 1  # the copy of the top number (RW-ACCEL-COPY)
                if filled >= BOXES:
                    if not top or claimed[slot]:
                        return None  # RW-WRITE-FULL, RW-ACCEL-FULL, RW-TOP-ARTEFACT
                    claimed[slot] = True
                    code = 2  # the top artefact shades one (RW-TOP-ARTEFACT)
                else:
                    if top:
                        return None  # RW-TOP-ARTEFACT: not full
                    count[slot] = filled + 1
                    last[slot] = value
                    # RW-LAYOUT-CONSISTENT: the box's marks agree with its first filling.
                    box = colour * BOXES + filled
                    known = box_marks[box]
                    if known != code:
                        if known >= 0:
                            return None  # RW-LAYOUT-CONSISTENT
                        box_marks[box] = code
                    if filled == BRIDGE_BOX - 1:  # RW-BRIDGE-PASS
                        if not passed[colour]:
                            passed[colour] = turn
                            bridges += 1
                        if passed[colour] == turn:
                            won[seat] += 1  # RW-BRIDGE-FIRST
                if code > 1 and artefacts[seat] < BOXES:  # RW-ARTEFACT-BOX
                    shaded = artefacts[seat] + 1
                    artefacts[seat] = shaded
                    if shaded == BRIDGE_BOX:
                        if not passed[_ART]:
                            passed[_ART] = turn
                            bridges += 1
                        if passed[_ART] == turn:
                            won[seat] += 1  # RW-BRIDGE-FIRST
        over = bridges == _COLUMN_COUNT or exhausted == players  # RW-END-CONDITION
        # -- what the record says the rules did: `bridge:`, `exhausted:`, `end`
        if at < count_words and words[at] != _NUMBERS[turn]:
            if words[at].startswith("bridge:"):
                said = ",".join(COLUMNS[column] for column in range(_COLUMN_COUNT)
                                if passed[column] == turn)
                if words[at] != "bridge:" + said:
                    return None  # RW-BRIDGE-FIRST (or another order of the same bridges)
                at += 1
            if at < count_words and words[at].startswith("exhausted:"):
                said = ",".join(tokens[seat] for seat in range(players) if worn_out[seat] == turn)
                if not said or words[at] != "exhausted:" + said:
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
            total += _POINTS[marked[slot]][count[slot]]
        totals.append(total)
    return ExpressResult(names, totals, over, turn)

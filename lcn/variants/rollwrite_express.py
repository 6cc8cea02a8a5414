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

from itertools import repeat
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
_ART_BIT = 1 << _ART
_DICE_BIT = 1 << _DICE

#: A box an acceleration fills with a copy (RW-ACCEL-COPY): (colour, top, marks, row).
Copy = tuple[int, bool, int, int]
#: What a choice fills (``rollwrite._parse_choice``), its first box and the copies after it:
#: (colour, die, number written, top, marks, first box of its row, copies): ``top`` claims
#: the top artefact of a full expedition; the marks say what the box carries, ``2`` an
#: artefact (``+``) plus ``1`` an arrow (``>`` an acceleration or ``>-`` a declined one),
#: ``-1`` the circle (``P0``), no box; the box of row ``colour`` and expedition boxes filled
#: ``n`` is ``row + n`` in the record's sheet.
Choice = tuple[int, int, int, bool, int, int, tuple[Copy, ...]]
#: A choice as the writer writes it after the player's `:` (``R3``, ``B10+``, ``G7>-``,
#: ``Y9^``, the circle ``P0``; ``R3>G``, ``R3+>B^``: accelerations of one box, made below):
#: one lookup for most words; a longer acceleration is read by ``_acceleration``.
_FIRST: dict[str, Choice] = {}
#: The first box of an acceleration (``R3`` of ``R3>G``; no `^`, no circle), its arrow
#: included.
_HEAD: dict[str, Choice] = {}
#: A box an acceleration fills (``G``, ``G+``, ``B^``), its marks without the arrow.
_LATER: dict[str, Copy] = {}
for _colour, _letter in enumerate(COLOURS):
    _row = _colour * BOXES
    _FIRST[f"{_letter}0"] = (_colour, 0, 0, False, -1, _row, ())
    for _number in range(1, 11):
        for _marks, _top, _code in (("", False, 0), ("^", True, 0), ("+", False, 2),
                                    (">-", False, 1), ("+>-", False, 3)):
            _FIRST[f"{_letter}{_number}{_marks}"] = (_colour, _number % 10, _number, _top,
                                                     _code, _row, ())
        for _marks, _code in (("", 1), ("+", 3)):
            _HEAD[f"{_letter}{_number}{_marks}"] = (_colour, _number % 10, _number, False,
                                                    _code, _row, ())
    for _marks, _top, _code in (("", False, 0), ("^", True, 0), ("+", False, 2)):
        _LATER[_letter + _marks] = (_colour, _top, _code, _row)


def _tail(text: str) -> tuple[Copy, ...] | None:
    """The boxes an acceleration fills after its first (``G>B+`` of ``R3>G>B+``, ``G>-`` of
    ``R3>G>-``), each with an arrow but the last unless declined (RW-ACCEL-COPY); None for
    anything else, which the engine reports."""
    parts = text.split(">")
    final = len(parts) - 1
    chain: list[Copy] = []
    declined = False
    for index, part in enumerate(parts):
        later = _LATER.get(part)
        if (chain and chain[-1][1]) or (later is None and (part != "-" or index < final
                                                             or not chain)):
            return None  # not a box, or a box after a top artefact
        if later is None:
            declined = True  # `>-` after the last box
        else:
            chain.append((later[0], later[1], later[2] | 1, later[3]))
    if not declined:
        end = chain[-1]
        chain[-1] = (end[0], end[1], end[2] & 2, end[3])
    return tuple(chain)


#: The boxes after the first of the usual accelerations, one or two boxes long (longer ones
#: are read by ``_tail`` as they come).
_TAILS: dict[str, tuple[Copy, ...]] = {}
for _one in _LATER:
    for _text in (_one, f"{_one}>-", *(f"{_one}>{_two}{_end}" for _two in _LATER
                                       for _end in ("", ">-"))):
        if (_steps := _tail(_text)) is not None:
            _TAILS[_text] = _steps


def _acceleration(text: str) -> Choice | None:
    """The choice an acceleration makes (``R3>G>B+``), or None for anything else."""
    head, _, after = text.partition(">")
    first = _HEAD.get(head)
    if first is None:
        return None  # not a box, or marks after the circle or `^` (the engine says)
    tail = _TAILS.get(after) or _tail(after)
    if tail is None:
        return None
    return (*first[:6], tail)


# The accelerations of one box, whole: what ``_acceleration`` makes of them, from the
# tables it reads (a tail not in ``_TAILS`` is none), without reading each text again.
for _head, _start in _HEAD.items():
    for _text in _LATER:
        for _end in ("", ">-"):
            if (_steps := _TAILS.get(_text + _end)) is not None:
                _FIRST[f"{_head}>{_text}{_end}"] = (*_start[:6], _steps)


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
_LAST_TURN = len(_NUMBERS) - 1
#: The points of an expedition by boxes filled, without and with its circle marked.
_POINTS = [[expedition_points(boxes, circle) for boxes in range(BOXES + 1)]
           for circle in (False, True)]
#: The tags naming the seats, in seat order, one more than the most players.
_PLAYER_TAGS = [f"Player{seat}" for seat in range(1, 7)]
#: What a plain name (ASCII letters) may not be, in lower case, to be its own token in the
#: movetext: ``P`` and the turn's keywords (``player_tokens``).
_NOT_TOKENS = frozenset({"p", "bridge", "exhausted", "end"})
#: The `bridge:` word of a turn by the columns first passed in it (bit ``1 << column``),
#: the columns in the order of ``COLUMNS`` (RW-BRIDGE-FIRST).
_BRIDGE_WORDS = ["bridge:" + ",".join(column for index, column in enumerate(COLUMNS)
                                      if passed >> index & 1)
                 for passed in range(1 << len(COLUMNS))]


def seat_tokens(names: list[str]) -> list[str]:
    """``player_tokens(names)``, without its work when every name is plain: ASCII letters,
    no two alike in any case, none ``P`` or a keyword; such names are their own tokens."""
    joined = "".join(names)
    if joined.isascii() and joined.isalpha() and "" not in names:
        folded = set(map(str.lower, names))
        if len(folded) == len(names) and folded.isdisjoint(_NOT_TOKENS):
            return names
    return player_tokens(names)


def express_check(record: GameRecord, words: list[str]) -> ExpressResult | None:
    """Validate a Roll & Write record from its words, or return None to have it done in full.

    ``words`` are the movetext's words before the termination, move numbers included
    (``Variant.express_check``). The engine's layout (given by its option or a layout file)
    is the caller's to rule out (``RollWriteVariant.express_check``).
    """
    tags = record.tags.mapping
    # -- the seats (RW-SETUP-PLAYERS): Player1..PlayerN, 2 to 5 of them, no other Player tag
    names: list[str] = []
    for tag in _PLAYER_TAGS:
        name = tags.get(tag)
        if name is None:
            break
        names.append(name)
    players = len(names)
    if not 2 <= players <= 5 or "Sheet" in tags \
            or sum(map(str.startswith, tags, repeat("Player"))) != players:
        return None  # RW-SETUP-LAYOUT: a layout given is checked by the engine
    tokens = seat_tokens(names)
    if tokens is not names and len({token.casefold() for token in tokens}) != players:
        return None
    #: Each seat, clockwise, twice round, with how its choices start (``Ada:``), its refusal
    #: (``Ada:-``) and its first slot; by roller, the seats in the order they choose: the
    #: ``players`` from the roller's.
    ring = [(seat, token + ":", len(token) + 1, token + ":-", seat * 6)
            for seat, token in enumerate(tokens)] * 2
    orders = [ring[roller:roller + players] for roller in range(players)]

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
    numbers = _NUMBERS
    first_boxes = _FIRST.get
    roll_colours = _ROLL_COLOURS.get
    roll_numbers = _ROLL_NUMBERS.get
    boxes, bridge_box, before_bridge = BOXES, BRIDGE_BOX, BRIDGE_BOX - 1
    last_turn, columns = _LAST_TURN, _COLUMN_COUNT
    at = 0
    no_dice: tuple[int, ...] = ()
    while at < count_words:
        # -- the move number (LCN-MOVE-NUMBER), the roll (RW-SETUP-DICE)
        if over:
            return None  # a turn after the end (RW-END-CONDITION)
        if turn >= last_turn or words[at] != numbers[turn]:
            return None
        if at + 1 + players >= count_words:
            return None  # a choice missing (RW-TURN-ORDER)
        roll = words[at + 1]
        rolled_colours = roll_colours(roll[:3])
        rolled_numbers = roll_numbers(roll[3:])
        if rolled_colours is None or rolled_numbers is None:
            return None
        order = orders[turn % players]
        turn += 1
        at += 2
        pool_colours = pool_numbers = no_dice
        rolling = True
        fresh = 0  # the bridges first passed this turn, a bit for each column
        # -- every player's choice, clockwise from the roller (RW-TURN-ORDER)
        # ``players`` words, as the check of a choice missing made sure; no ``strict=``: a
        # keyword makes ``zip`` a slow call, once a turn.
        for (seat, prefix, skip, refusal, base), word in zip(order, words[at:at + players]):  # noqa: B905
            if word == refusal:
                if rolling:  # all six dice stay for the others (RW-TURN-OTHERS-DICE)
                    pool_colours, pool_numbers = rolled_colours[-1], rolled_numbers[-1]
                    rolling = False
                # -- a refusal shades a dice symbol (RW-DICE-SHADE, RW-DICE-EXHAUSTED)
                shaded = dice[seat]
                if shaded < boxes:
                    shaded += 1
                    dice[seat] = shaded
                    if shaded == bridge_box:
                        if not passed[_DICE]:
                            passed[_DICE] = turn
                            bridges += 1
                            fresh |= _DICE_BIT
                        if passed[_DICE] == turn:
                            won[seat] += 1  # RW-BRIDGE-FIRST
                    elif shaded == boxes:
                        worn_out[seat] = turn
                        exhausted += 1
                continue
            if word[:skip] != prefix:
                return None  # another player, or spelt otherwise (RW-TURN-ORDER)
            first = first_boxes(word[skip:])
            if first is None:
                first = _acceleration(word[skip:])
                if first is None:
                    return None
            colour, die, value, top, code, row, tail = first
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
            if code < 0:  # the circle
                if filled or marked[slot]:
                    return None  # RW-CIRCLE: too late, or marked already
                marked[slot] = 1
                continue
            if not die and not filled:
                return None  # RW-WRITE-ZERO-START
            if value < last[slot]:
                return None  # RW-WRITE-ASCENDING
            while True:  # the first box, then each box of an acceleration (RW-ACCEL-COPY)
                if filled >= boxes:
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
                    if box_marks[row + filled] != code:
                        if box_marks[row + filled] >= 0:
                            return None  # RW-LAYOUT-CONSISTENT
                        box_marks[row + filled] = code
                    if filled == before_bridge:  # RW-BRIDGE-PASS
                        if not passed[colour]:
                            passed[colour] = turn
                            bridges += 1
                            fresh |= 1 << colour
                        if passed[colour] == turn:
                            won[seat] += 1  # RW-BRIDGE-FIRST
                if code > 1 and artefacts[seat] < boxes:  # RW-ARTEFACT-BOX
                    shaded = artefacts[seat] + 1
                    artefacts[seat] = shaded
                    if shaded == bridge_box:
                        if not passed[_ART]:
                            passed[_ART] = turn
                            bridges += 1
                            fresh |= _ART_BIT
                        if passed[_ART] == turn:
                            won[seat] += 1  # RW-BRIDGE-FIRST
                if not tail:
                    break
                colour, top, code, row = tail[0]
                tail = tail[1:]
                slot = base + colour
                filled = count[slot]
                value = last[slot] or 1  # the copy of the top number (RW-ACCEL-COPY)
        at += players
        over = bridges == columns or exhausted == players  # RW-END-CONDITION
        # -- what the record says the rules did: `bridge:`, `exhausted:`, `end`
        if at < count_words and words[at] != numbers[turn]:
            word = words[at]
            if word.startswith("bridge:"):
                if word != _BRIDGE_WORDS[fresh]:
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

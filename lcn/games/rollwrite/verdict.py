"""The quick verdict on a Roll & Write record: its words read into the core's moves and played.

Nearly every record a validator sees in bulk breaks no rule. For those, validation needs no
model of turns, choices and steps and no explanation; it needs the words read as moves and
the moves played by the rules. The rules are :class:`~lcn.games.rollwrite.core.RollWriteCore`'s
:meth:`~lcn.games.rollwrite.core.RollWriteCore.play`, the loop a search steps with, so this
module holds no rule of its own: it reads the words (``7. ROG037 Ada:R3+>G Bo:- bridge:R``:
the move number, the roll, each choice with the seat it names, the annotations) and gives
up, for the full engine to explain, at the first word it does not take or the first move the
core refuses. What it takes is what the engine reads without a word to say: rolls, choices
and annotations in any letter case, dice in any order, a seat by its token or as ``P2``,
bridges and exhausted players in any order, turns on one line or several, a ``Sheet`` tag
whole, partial or absent; move numbers must be the usual ``N.`` before each turn.
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING

from ...variants.base import ExpressResult
from ...variants.rollwrite import COLOURS, COLUMNS, LayoutError, parse_layout, player_tokens
from .core import (
    BODIES,
    BRIDGES,
    CLOSE,
    END,
    MOVES,
    NEXT,
    ROLL,
    SEAT,
    WORN,
    RollWriteCore,
    Sheet,
    pieces,
    sheet_for,
)

if TYPE_CHECKING:
    from ...model import GameRecord

#: A choice's text after the player's `:` as its decisions: every choice of one word
#: (``-``, ``R0``, ``R3``, ``B10+>-``, ``Y9^``) and every acceleration of one box (``R3>G``,
#: ``R3+>B^``), upper case; the others are read by ``_read_body``.
_BODIES: dict[str, tuple[int, ...]] = {}
_CHOICES = {BODIES[move]: move for move in range(NEXT)}
_CONTINUATIONS = {BODIES[move]: move for move in range(NEXT, MOVES)}
for _head, _move in _CHOICES.items():
    if _head.endswith(">"):
        for _tail, _next in _CONTINUATIONS.items():
            if not _tail.endswith(">"):
                _BODIES[_head + _tail] = (_move, _next)
    else:
        _BODIES[_head] = (_move,)
#: The colour dice of a roll, in any order, upper or lower case → ``ROLL`` and the code of
#: the throw (``core.encode``), to which the number dice's code is added.
_ROLL_COLOURS = {a + b + c: ROLL + (COLOURS.index(a) * 36 + COLOURS.index(b) * 6 + COLOURS.index(c)) * 1000
                 for a in COLOURS for b in COLOURS for c in COLOURS}
_ROLL_COLOURS.update({text.lower(): code for text, code in _ROLL_COLOURS.items()})
#: The number dice, in any order.
_ROLL_NUMBERS = {f"{value:03}": value for value in range(1000)}
#: The move number that starts each turn, as the writer writes it (LCN-MOVE-NUMBER), for
#: games of any length the reader takes.
_NUMBERS = [f"{n}." for n in range(1, 4002)]
#: The `bridge:` word as the writer writes it (columns in the order of ``COLUMNS``) → its
#: ``BRIDGES`` item.
_BRIDGE_WORDS = {"bridge:" + ",".join(c for index, c in enumerate(COLUMNS) if passed >> index & 1):
                 BRIDGES + passed for passed in range(1, 1 << len(COLUMNS))}
#: Each column's bit in a ``BRIDGES`` item, by its letter in either case.
_COLUMN_BITS = {letter: 1 << index for index, column in enumerate(COLUMNS)
                for letter in (column, column.lower())}
#: The tags naming the seats, in seat order, one more than the most players.
_PLAYER_TAGS = [f"Player{seat}" for seat in range(1, 7)]
#: What a plain name (ASCII letters) may not be, in lower case, to be its own token in the
#: movetext: ``P`` and the turn's keywords (``player_tokens``).
_NOT_TOKENS = frozenset({"p", "bridge", "exhausted", "end"})
#: The layout of each ``Sheet`` tag's text met (None: one the engine cannot read), and the
#: start of a game by players and layout: tags repeat from game to game, and a start is
#: copied for each record.
_SHEETS: dict[str, Sheet | None] = {}
_STARTS: dict[tuple[int, Sheet], RollWriteCore] = {}
_NO_LAYOUT = sheet_for(None)


def seat_tokens(names: list[str]) -> list[str]:
    """``player_tokens(names)``, without its work when every name is plain: ASCII letters,
    no two alike in any case, none ``P`` or a keyword; such names are their own tokens."""
    joined = "".join(names)
    if joined.isascii() and joined.isalpha() and "" not in names:
        folded = set(map(str.lower, names))
        if len(folded) == len(names) and folded.isdisjoint(_NOT_TOKENS):
            return names
    return player_tokens(names)


def _read_body(body: str) -> tuple[int, ...] | None:
    """The decisions of a choice's text not in ``_BODIES``: another letter case, or an
    acceleration of several boxes (``R3>G>B+``); None for anything else, which the engine
    reports (a trailing ``>`` leaves an acceleration without its box)."""
    if body[-1:] == ">":
        return None
    first, *rest = pieces(body.upper())
    move = _CHOICES.get(first)
    if move is None:
        return None
    moves = [move]
    for part in rest:
        move = _CONTINUATIONS.get(part)
        if move is None:
            return None
        moves.append(move)
    return tuple(moves)


def _sheet(text: str) -> Sheet | None:
    """The layout a ``Sheet`` tag gives, whole or in part; None when the engine cannot read it
    (RW-SETUP-LAYOUT)."""
    if text not in _SHEETS:
        if len(_SHEETS) >= 256:
            _SHEETS.clear()
        try:
            _SHEETS[text] = sheet_for(parse_layout(text))
        except LayoutError:
            _SHEETS[text] = None
    return _SHEETS[text]


def _seats(tokens: list[str]) -> dict[str, int]:
    """Each spelling of a seat the engine reads as it → the seat's ``SEAT`` item: its token as
    written and in lower case (any other case is folded when met), and ``P2``, ``p2`` unless a
    token reads so."""
    folded = {token.casefold(): SEAT + seat for seat, token in enumerate(tokens)}
    seats: dict[str, int] = {}
    for seat in range(len(tokens)):
        if f"p{seat + 1}" not in folded:
            seats[f"P{seat + 1}"] = seats[f"p{seat + 1}"] = SEAT + seat
    seats.update(folded)
    seats.update({token: SEAT + seat for seat, token in enumerate(tokens)})
    return seats


def _named(part: str, seats: dict[str, int]) -> int | None:
    """The seat a player's spelling names, or None."""
    seat = seats.get(part)
    if seat is None:
        seat = seats.get(part.casefold())
    return None if seat is None else seat - SEAT


def express_check(record: GameRecord, words: list[str]) -> ExpressResult | None:
    """Decide a Roll & Write record from its words, or return None to have it validated in full.

    ``words`` are the movetext's words before the termination, move numbers included
    (``Variant.express_check``). A layout given by the engine's option or a layout file is
    the caller's to rule out (``RollWriteVariant.express_check``).
    """
    tags = record.tags.mapping
    names: list[str] = []
    for tag in _PLAYER_TAGS:
        name = tags.get(tag)
        if name is None:
            break
        names.append(name)
    players = len(names)
    if not 2 <= players <= 5 or sum(map(str.startswith, tags, repeat("Player"))) != players:
        return None  # the seats as the engine would say something of them (RW-SETUP-PLAYERS)
    tokens = seat_tokens(names)
    if tokens is not names and len({token.casefold() for token in tokens}) != players:
        return None  # two tokens alike in some case: the engine's reading of them decides
    text = tags.get("Sheet")
    sheet = _NO_LAYOUT if text is None else _sheet(text)
    if sheet is None:
        return None  # a Sheet tag the engine cannot read (RW-SETUP-LAYOUT)
    start = _STARTS.get((players, sheet))
    if start is None:
        start = _STARTS[(players, sheet)] = RollWriteCore(players, sheet)
    seats = _seats(tokens)

    stream: list[int] = []
    append, extend = stream.append, stream.extend
    seat_of, body_of = seats.get, _BODIES.get
    roll_colours, roll_numbers = _ROLL_COLOURS.get, _ROLL_NUMBERS.get
    numbers = _NUMBERS
    count = len(words)
    turn = at = 0
    while at < count:
        if turn >= len(numbers) - 1 or words[at] != numbers[turn]:
            return None  # not the usual move number of the turn (LCN-MOVE-NUMBER)
        turn += 1
        roll = words[at + 1] if at + 1 < count else ""
        colours = roll_colours(roll[:3])
        dice = roll_numbers(roll[3:])
        if colours is None or dice is None:
            return None  # not a roll (RW-SETUP-DICE), or no choice
        append(colours + dice)
        at += 2
        following = numbers[turn]
        chosen = phase = 0
        while at < count:
            word = words[at]
            if word == following:
                break
            at += 1
            who, colon, body = word.partition(":")
            seat = seat_of(who)
            if seat is not None and colon and not phase:
                moves = body_of(body) or _read_body(body)
                if moves is None:
                    return None  # not a choice the engine reads
                append(seat)
                extend(moves)
                chosen += 1
                continue
            # Any other word: an annotation, or a choice naming its seat in another case.
            keyword = who.lower()
            before = phase
            if colon and keyword == "bridge" and phase < 1:
                item = _BRIDGE_WORDS.get(word)
                if item is None:
                    passed = 0
                    for column in body.split(","):
                        bit = _COLUMN_BITS.get(column, 0)
                        if not bit or passed & bit:
                            return None  # not a column, or one twice (LCN-RW-TURN)
                        passed |= bit
                    item = BRIDGES + passed
                phase = 1
            elif colon and keyword == "exhausted" and phase < 2:
                worn = 0
                for part in body.split(","):
                    named = _named(part, seats)
                    if named is None or worn >> named & 1:
                        return None  # an unknown player, or one twice (LCN-RW-PLAYER)
                    worn |= 1 << named
                item = WORN + worn
                phase = 2
            elif not colon and keyword == "end" and phase < 3:
                item = END
                phase = 3
            else:
                named = _named(who, seats) if colon and not phase else None
                if named is None:
                    return None  # not a word of a turn, or out of its place (LCN-RW-TURN)
                moves = body_of(body) or _read_body(body)
                if moves is None:
                    return None  # not a choice the engine reads, its seat in another case
                append(SEAT + named)
                extend(moves)
                chosen += 1
                continue
            if not before:
                append(CLOSE)  # the choices end before the first annotation
            append(item)
        if not chosen:
            return None  # a turn without choices (LCN-RW-TURN)
        if not phase:
            append(CLOSE)
    core = start.copy()
    if core.play(stream):
        return None  # a rule broken: the engine says which, where and why
    return ExpressResult(names, list(core.score()), core.over, turn)

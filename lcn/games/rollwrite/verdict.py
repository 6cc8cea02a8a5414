"""The quick verdict on a Roll & Write record: its words read into the core's moves and played.

Nearly every record a validator sees in bulk breaks no rule. For those, validation needs no
model of turns, choices and steps and no explanation; it needs the words read as moves and
the moves played by the rules. The rules are :class:`~lcn.games.rollwrite.core.RollWriteCore`'s
:meth:`~lcn.games.rollwrite.core.RollWriteCore.play`, the loop a search steps with, so this
module holds no rule of its own: it reads each word (``7. ROG037 Ada:R3+>G Bo:- bridge:R``:
the move number, the roll, each choice with the name it is written under, the annotations)
into the core's items, each word by itself, and the core judges where each stands (the
numbers, the turns, the seats in their order, the annotations against what the rules did).
It gives up, for the full engine to explain, at a word it does not take or when the core
refuses an item. What it takes is what the engine reads without a word to say: rolls,
choices and annotations in any letter case, dice in any order, a seat by its token or as
``P2``, bridges and exhausted players in any order, turns on one line or several, a
``Sheet`` tag whole, partial or absent; move numbers must be the usual ``N.`` before each
turn. A word as the writer writes it is read in one look-up of a table of every such word
(the names met are numbered once for all games).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from itertools import chain, product, repeat
from typing import TYPE_CHECKING, Any

from ...variants.base import ExpressResult
from ...variants.rollwrite import (
    COLOUR_NAMES,
    COLOURS,
    COLUMNS,
    LAYOUT_ENV,
    LayoutError,
    choice_label,
    parse_layout,
    player_tokens,
)
from .. import Listing, record_words
from .core import (
    BODIES,
    BRIDGES,
    CLOSE,
    COLOUR_THROWS,
    END,
    MOVES,
    NAMED,
    NEXT,
    NUMBER,
    NUMBER_THROWS,
    ROLL,
    WORN,
    RollWriteCore,
    Sheet,
    parse_roll,
    pieces,
    roll_text,
    said,
    sheet_for,
)

if TYPE_CHECKING:
    from ...model import GameRecord, Turn
    from ...variants.rollwrite import RollWriteVariant

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
#: The words of one box as the writer writes them (no acceleration): a seat's words are
#: these after its name and `:` (``_name``).
_ONE_BOX = [body for body, moves in _BODIES.items() if len(moves) == 1]
#: The colour dice of a roll, in any order, upper or lower case → ``ROLL`` and the code of
#: the throw (``core.encode``), to which the number dice's code is added.
_ROLL_COLOURS = {a + b + c: ROLL + (COLOURS.index(a) * 36 + COLOURS.index(b) * 6 + COLOURS.index(c)) * 1000
                 for a in COLOURS for b in COLOURS for c in COLOURS}
_ROLL_COLOURS.update({text.lower(): code for text, code in _ROLL_COLOURS.items()})
#: The number dice, in any order.
_ROLL_NUMBERS = {f"{value:03}": value for value in range(1000)}
#: The words that mean the same in every game, as the writer writes them, each as its
#: items: the move numbers (games of any length the reader takes), the rolls with their
#: dice in order, the `bridge:` words with their columns in order, `end`.
_COMMON: dict[str, tuple[int, ...]] = {f"{n}.": (NUMBER + n,) for n in range(1, 4002)}
_COMMON.update({word: (_ROLL_COLOURS[word[:3]] + _ROLL_NUMBERS[word[3:]],)
                for word in map(roll_text, product(set(COLOUR_THROWS), set(NUMBER_THROWS)))})
_COMMON.update({"bridge:" + ",".join(c for index, c in enumerate(COLUMNS) if passed >> index & 1):
                (BRIDGES + passed,) for passed in range(1, 1 << len(COLUMNS))})
_COMMON["end"] = (END,)
#: The end of a record's choices, as the core takes it.
_CLOSING = (CLOSE,)
#: Each column's bit in a ``BRIDGES`` item, by its letter in either case.
_COLUMN_BITS = {letter: 1 << index for index, column in enumerate(COLUMNS)
                for letter in (column, column.lower())}
#: The words that name no seat: the turn's keywords.
_KEYWORDS = frozenset({"bridge", "exhausted", "end"})
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
#: Every word read in one look-up, as its items: ``_COMMON`` and the words of one box under
#: each name met (``Ada:R3``, ``P2:-``), the names numbered once for all games
#: (``_name``), and their numbers by the name in lower case.
_WORDS: dict[str, tuple[int, ...]] = {}
_NAMES: dict[str, int] = {}
_FOLDED: dict[str, list[int]] = {}
#: The most names remembered: past them, all are forgotten (some 40 kilobytes each, so
#: that a file of many players holds its memory while a match's few names stay);
#: and the most words, past which the words of accelerations are no longer remembered.
_MOST_NAMES = 16
#: Held while a game's words are read with the tables above (:func:`replay`).
_TABLES_LOCK = threading.Lock()
_MOST_WORDS = 64 * 1000
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


def _name(spelling: str) -> int:
    """The number of a name as written (``Ada``, ``P2``), its words of one box added to
    ``_WORDS`` when it is first met."""
    found = _NAMES.get(spelling)
    if found is None:
        found = _NAMES[spelling] = len(_NAMES)
        _FOLDED.setdefault(spelling.casefold(), []).append(found)
        base = NAMED + found * MOVES
        _WORDS.update({f"{spelling}:{body}": (base + _BODIES[body][0],) for body in _ONE_BOX})
    return found


def _forget() -> None:
    """Every name forgotten but the seats' own forms (``P1``-``P5``, numbered 0-4)."""
    _NAMES.clear()
    _FOLDED.clear()
    _WORDS.clear()
    _WORDS.update(_COMMON)
    for seat in range(5):
        _name(f"P{seat + 1}")


_forget()


def _other(word: str, seats: dict[str, int]) -> tuple[int, ...] | None:
    """The items of a word not spelt as the writer spells it, or None for one the engine
    would say something about: a roll with its dice in another order or case; a choice with
    its seat or its text in another case, or an acceleration; an annotation in another case
    or order."""
    colours = _ROLL_COLOURS.get(word[:3])
    dice = _ROLL_NUMBERS.get(word[3:])
    if colours is not None and dice is not None:
        return (colours + dice,)
    who, colon, body = word.partition(":")
    keyword = who.lower()
    if keyword not in _KEYWORDS:
        seat = _named(who, seats) if colon else None
        if seat is None:
            return None  # not a word of a turn (LCN-RW-TURN)
        moves = _BODIES.get(body) or _read_body(body)
        if moves is None:
            return None  # not a choice the engine reads
        name = _NAMES.get(who)
        if name is None:
            return (said(seat, moves[0]), *moves[1:])
        # An acceleration under a name as written: the same items in every game.
        items = (NAMED + name * MOVES + moves[0], *moves[1:])
        if len(_WORDS) < _MOST_WORDS:
            _WORDS[word] = items
        return items
    if keyword == "bridge" and colon:
        passed = 0
        for column in body.split(","):
            bit = _COLUMN_BITS.get(column, 0)
            if not bit or passed & bit:
                return None  # not a column, or one twice (LCN-RW-TURN)
            passed |= bit
        return (BRIDGES + passed,)
    if keyword == "exhausted" and colon:
        worn = 0
        for part in body.split(","):
            named = _named(part, seats)
            if named is None or worn >> named & 1:
                return None  # an unknown player, or one twice (LCN-RW-PLAYER)
            worn |= 1 << named
        return (WORN + worn,)
    return (END,) if keyword == "end" and not colon else None


def _seats(tokens: list[str]) -> dict[str, int]:
    """Each spelling of a seat the engine reads as it → the seat: its token as written and in
    lower case (any other case is folded when met), and ``P2``, ``p2`` unless a token reads
    so."""
    folded = {token.casefold(): seat for seat, token in enumerate(tokens)}
    seats: dict[str, int] = {}
    for seat in range(len(tokens)):
        if f"p{seat + 1}" not in folded:
            seats[f"P{seat + 1}"] = seats[f"p{seat + 1}"] = seat
    seats.update(folded)
    seats.update({token: seat for seat, token in enumerate(tokens)})
    return seats


def _named(part: str, seats: dict[str, int]) -> int | None:
    """The seat a player's spelling names, or None."""
    seat = seats.get(part)
    return seats.get(part.casefold()) if seat is None else seat


def express_check(record: GameRecord, words: list[str]) -> ExpressResult | None:
    """Decide a Roll & Write record from its words, or return None to have it validated in full.

    ``words`` are the movetext's words before the termination, move numbers included
    (``Variant.express_check``). A layout given by the engine's option or a layout file is
    the caller's to rule out (``RollWriteVariant.express_check``).
    """
    found = replay(record, words)
    if found is None:
        return None
    core, names = found
    return ExpressResult(names, list(core.score()), core.over, core.turn)


def replay(record: GameRecord, words: list[str]) -> tuple[RollWriteCore, list[str]] | None:
    """The core after a Roll & Write record's words (its players' tokens its own), with the
    players' names; None when the record is to be validated in full (:func:`express_check`;
    ``lcn.legal_moves`` lists its moves on the core it gives).

    The tables of names are shared by every game read and forgotten all at once when full;
    a site answering in threads reads games at the same time, and one game's forgetting
    between another's numbering of its names and its reading of them would leave the other
    with numbers of names it no longer has. One game at a time holds them (the lock costs a
    fraction of a microsecond; the work under it is bound to one core by the interpreter's
    lock anyway).
    """
    with _TABLES_LOCK:
        return _replay(record, words)


def _replay(record: GameRecord, words: list[str]) -> tuple[RollWriteCore, list[str]] | None:
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
        if len(_STARTS) >= 64:
            _STARTS.clear()
        start = _STARTS[(players, sheet)] = RollWriteCore(players, sheet)
    if len(_NAMES) + players > _MOST_NAMES:
        _forget()  # before this game's names are numbered
    for token in tokens:
        _name(token)
    seats = _seats(tokens)
    # Each number of a name this game's seats are written under, as the engine reads them:
    # the seat's form (``P2``) unless a token reads so, then each token in any case met.
    # Each seat's token first, the name it is written under most.
    written_as = {_NAMES[token]: seat for seat, token in enumerate(tokens)}
    for seat in range(players):
        if seats.get(f"P{seat + 1}") == seat:
            written_as.setdefault(seat, seat)
    for seat, token in enumerate(tokens):
        written_as.update(dict.fromkeys(_FOLDED[token.casefold()], seat))

    # The words as the core's items, word by word (where a word stands, its seat's turn, the
    # move numbers, the order of the annotations, is the core's to judge): a word as the
    # writer writes it is found in one look-up, any other read by ``_other``.
    items = list(map(_WORDS.get, words))
    if not all(items):  # a word not found (None; every word's items are some)
        items = [item or _other(word, seats) for item, word in zip(items, words, strict=True)]
        if not all(items):
            return None  # a word the engine would say something about
    items.append(_CLOSING)
    core = start.copy()
    if core.play(chain.from_iterable(items), numbered=True, names=written_as):  # type: ignore[arg-type]
        return None  # a rule broken: the engine says which, where and why
    core.tokens = list(tokens)  # the start is every table's of its size: its own are `P1`..
    return core, names


#: A roll being written, as the writer writes it: up to three colour dice, then numbers.
_ROLL_SO_FAR = re.compile(r"[ROYGBP]{0,2}|[ROYGBP]{3}[0-9]{0,2}")
_ROLL = re.compile(r"[ROYGBP]{3}[0-9]{3}")


def _dice(prefix: str) -> list[tuple[str, str, dict[str, Any]]]:
    """The faces the next die of a roll may show (the dice decide, in any order): a colour
    die's while fewer than three are written, then a number die's."""
    if len(prefix) < 3:
        return [(colour, "rollwrite.die.colour", {"colour": COLOUR_NAMES[colour]}) for colour in COLOURS]
    return [(str(number), "rollwrite.die.number", {"number": str(number)}) for number in range(10)]


class _Lister:
    """Roll & Write's legal continuations on its core (``lcn.games.MoveLister``): the record's
    words replayed as :func:`replay` plays them, a turn being written played word by word after
    them (its roll die by die, then each choice and continuation), and the core's
    :meth:`RollWriteCore.record_moves` labelled as the engine labels them."""

    __slots__ = ()

    def list_moves(self, record: GameRecord, turns: Sequence[Turn]) -> Listing | None:
        found = replay(record, record_words(turns, numbered=True))
        if found is not None:
            core, names = found
            if core.over:
                return Listing(names, None, True)
            return Listing(names, core.roller, False, False, _dice(""))
        if not turns:
            return None
        # The last turn being written: the turns before it replayed, then its words (each as
        # the writer writes it; any other is the engine's to read).
        last = turns[-1]
        found = replay(record, record_words(turns[:-1], numbered=True))
        if found is None or found[0].over:
            return None
        core, names = found
        if last.number is not None and (last.number != core.turn + 1 or last.number_dots != 1):
            return None  # a move number not this turn's (LCN-MOVE-NUMBER)
        if not core.needs_roll():
            return None
        text = last.text
        if len(text) < 6:
            if _ROLL_SO_FAR.fullmatch(text) is None:
                return None
            return Listing(names, core.roller, False, True, _dice(text))
        roll, *choices = text.split()
        if _ROLL.fullmatch(roll) is None:
            return None
        core.set_roll(parse_roll(roll))
        turn = core.turn
        for word in choices:
            who, colon, body = word.partition(":")
            if not colon:
                return None
            for index, piece in enumerate(pieces(body)):
                spelt = f"{who}:{piece}" if index == 0 else piece
                try:
                    move = core.move(spelt)
                except ValueError:
                    return None
                if core.word(move) != spelt or core.step(move):
                    return None
        if core.turn != turn:
            return None  # a whole turn the verdict did not take: the engine says why
        written = (tuple(COLOURS.index(c) for c in roll[:3]), tuple(int(d) for d in roll[3:]))
        tokens = core.tokens
        moves = [(core.word(move), *choice_label(core.word(move), tokens, names))
                 for move in core.record_moves(written)]
        return Listing(names, core.player, False, True, moves)


def lister(variant: RollWriteVariant) -> _Lister | None:
    """The lister of a Roll & Write variant (``lcn.games.built_in_lister``); None where a
    layout is given besides the records' (the engine's option or a layout file), which the
    quick verdict leaves to the engine too."""
    if variant.layout is not None or os.environ.get(LAYOUT_ENV):
        return None
    return _Lister()

"""The quick verdict on a Rivals record: its words read into the core's moves and played.

Nearly every Rivals record a validator sees in bulk breaks no rule. For those, validation
needs no parsed turns, no record of where each card went and no explanation: it needs the
words read as the core's moves (one per word of a turn, :mod:`lcn.games.rivals.core`) and
the moves played by :meth:`~lcn.games.rivals.core.RivalsCore.step`, the step a search
plays. This module holds no rule of its own: it reads the tags into the core's deal
(:meth:`~lcn.games.rivals.core.RivalsCore.deal`, which refuses a deal the rules refuse) and
the movetext into moves, and gives up, for the full engine to explain, at the first word it
does not take or the first move the core refuses.

What it reads: the seats from ``Player1``.. (their words as the writer writes them, in any
letter case, or in the seat form ``P2``); the starting wagers; the piles given by ``Pile``
tags, all, some or none (a pile not given is followed card by card as it is uncovered, as
full validation follows it), and ``PileSizes``; a move number before each turn (``7.``,
``7...``, glued to the turn's first word, any number of turns on a line); ``place:`` with
several cards; the writer's notes of what the rules decide by themselves, ``>box`` after
a card nobody can use and a written share-out (``share:3 rest:1``), each held to what the
core did; and a game cut anywhere between two turns (``*``).

What it gives up on, besides a broken rule: a glyph, a word the engine reads only
leniently (leading zeros in a bid), a share-out in a record whose piles are all unknown
and no pile ran out by the count of 20 (full validation then guesses the piles' sizes from
the share-outs), uneven piles (a warning), and any tag of the seats or the deal written
otherwise than the tags write them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import compress
from typing import TYPE_CHECKING, Any, cast

from ...variants.base import ExpressResult
from ...variants.rivals import PILE_COUNT, PILE_SIZE, TOTAL_CARDS, TOTAL_GOLD, player_tokens
from .. import Listing, record_words
from .core import (
    AMOUNTS,
    BID,
    BOX,
    MORE,
    MOVES,
    NAMES,
    PASS,
    PLACE,
    START,
    TO_BOX,
    UP,
    RivalsCore,
    tables_for,
    turn_words,
)

if TYPE_CHECKING:
    from ...model import GameRecord, Turn
    from ...variants.rivals import RivalsVariant

#: Most players of a game of Rivals.
MAX_PLAYERS = 4
_PLAYER_TAGS = [f"Player{seat + 1}" for seat in range(MAX_PLAYERS + 1)]
_WAGER_TAGS = [f"Wagers{seat + 1}" for seat in range(MAX_PLAYERS)]
_PILE_TAGS = [f"Pile{index + 1}" for index in range(PILE_COUNT)]
#: The move number of each turn as the writer writes it, for one turn more than a game has
#: (the turns after it are refused by the core; their numbers are read as any other).
_NUMBERS = [f"{n}." for n in range(1, TOTAL_CARDS + 2)]
#: A card of a placement after the first (``,R7`` of ``place:R4,R7``) by its text after the
#: comma, as written and in lower case.
_MORE = {text: MORE + card for card, name in enumerate(NAMES) for text in (name, name.casefold())}


#: The words of cards, the same at every table, as the writer writes them: the uncovers
#: (also with `>box`), `place:` of one card, `box:`. (`,R7` is a move of the core only as a
#: part of a `place:` word, never a word alone.)
_CARD_WORDS = {word: move for card, name in enumerate(NAMES)
               for word, move in ((f"up:{name}", UP + card), (f"up:{name}>box", TO_BOX + card),
                                  (f"place:{name}", PLACE + card), (f"box:{name}", BOX + card))}
#: The same in lower case.
_FOLDED_CARDS = {word.casefold(): move for word, move in _CARD_WORDS.items()}

# The writer's form, read in a few passes of C (see ``_writers_form``): each word's code,
# which is a move of the core or, above them, a word that is no move.
#: The move number of turn ``n`` (0-based) is ``_NUMBER + n``; a written share-out is
#: ``_SHARE`` or ``_REST`` and the coins.
_NUMBER, _SHARE, _REST, _CODED = 1000, 2000, 2100, 2200
#: The codes of every table's words as the writer writes them.
_CODES = {**_CARD_WORDS, **_FOLDED_CARDS, **{f",{text}": move for text, move in _MORE.items()},
          **{f"{number}{dots}": _NUMBER + turn for turn, number in enumerate(_NUMBERS)
             for dots in ("", "..", "...")},
          **{f"share:{coins}": _SHARE + coins for coins in range(TOTAL_GOLD + 1)},
          **{f"rest:{coins}": _REST + coins for coins in range(TOTAL_GOLD + 1)},
          # The calls in the seat form (`P2-`, `p13`: P1 bids 3), the same at every table
          # (the core refuses a seat the table does not have).
          **{f"{p}{seat + 1}{ending}": move for seat in range(MAX_PLAYERS) for p in "Pp"
             for ending, move in ((f"{amount}", BID + seat * AMOUNTS + amount) for amount in range(AMOUNTS))},
          **{f"{p}{seat + 1}-": PASS + seat for seat in range(MAX_PLAYERS) for p in "Pp"}}
#: By code: what kind of word it is (`N` a move number, `U` an uncover, `o` any other
#: move, `S` and `R` the share-out).
_KIND = b"".join(b"U" if code < PLACE or TO_BOX <= code < MOVES else b"o" if code < MOVES
                 else b"x" if code < _NUMBER else b"N" if code < _SHARE else b"S" if code < _REST
                 else b"R" for code in range(_CODED))
#: The turns of the writer's form are a move number, the turn's other words, the uncover,
#: and the share-out where one is written: ``(No*US?R?)*``. The kinds of words that cannot
#: stand next to each other there, found by a search of C each (a regular expression's
#: repeated group costs more than all of them).
_NOT_NEXT = (b"NN", b"NS", b"NR", b"oN", b"oS", b"oR", b"UU", b"Uo", b"So", b"SU", b"SS",
             b"Ro", b"RU", b"RS", b"RR")
_NOTE = re.compile(rb"[SR]")
#: The kinds of words, translated to 1 for a move number and 0 for any other.
_IS_NUMBER = bytes(int(byte == ord("N")) for byte in range(256))
#: Each seat's calls by its token: the pass and the bids of 0 to 37 coins, as written and
#: with those in lower case.
_SEAT_CALLS: dict[tuple[int, str], tuple[dict[str, int], dict[str, int]]] = {}
_KEPT_SEATS = 16


def _calls(seat: int, token: str) -> dict[str, int]:
    """A seat's calls by their words: the pass and the bids of 0 to 37 coins (the core
    refuses those of no coin or of more than the bidder holds)."""
    base = BID + seat * AMOUNTS
    calls = {f"{token}{amount}": base + amount for amount in range(AMOUNTS)}
    calls[f"{token}-"] = PASS + seat
    return calls


class _Words:
    """The moves of one table of players by their words, made once per list of names."""

    __slots__ = ("calls", "codes", "folded", "tables")

    def __init__(self, names: tuple[str, ...]) -> None:
        tokens = player_tokens(list(names))
        self.tables = tables_for(tokens)
        #: The players' calls as the writer writes them (the cards' words are every table's),
        #: and every word of the writer's form by its code: ``_CODES`` and the calls, also
        #: in lower case. A seat's calls are made once for all the games of its token.
        self.calls: dict[str, int] = {}
        self.codes = dict(_CODES)
        for seat, token in enumerate(tokens):
            pair = _SEAT_CALLS.get((seat, token))
            if pair is None:
                if len(_SEAT_CALLS) >= _KEPT_SEATS:
                    _SEAT_CALLS.clear()  # the tokens of many games read: a bound on what is kept
                calls = _calls(seat, token)
                pair = _SEAT_CALLS[seat, token] = (calls, {**calls, **{
                    word.casefold(): move for word, move in calls.items()}})
            self.calls.update(pair[0])
            self.codes.update(pair[1])
        #: Every word in lower case, with the calls of any amount and in the seat form
        #: (``p2-``): made when a word of the game is not as the writer writes it.
        self.folded: dict[str, int] | None = None

    def fold(self) -> dict[str, int]:
        folded = dict(_FOLDED_CARDS)
        for seat, token in enumerate(self.tables.tokens):
            for written in (token, f"p{seat + 1}"):
                folded.update({word.casefold(): move
                               for word, move in _calls(seat, written).items()})
        self.folded = folded
        return folded


_TABLES: dict[tuple[str, ...], _Words] = {}
#: How many tables of players' words are kept: the games of one file mostly repeat a few
#: tables (a match, a club), and each costs tens of kilobytes, so that a file of many
#: different players holds its memory.
_KEPT_TABLES = 4


def _words_for(names: tuple[str, ...]) -> _Words:
    table = _TABLES.get(names)
    if table is None:
        if len(_TABLES) >= _KEPT_TABLES:
            _TABLES.clear()  # the names of many games read: a bound on what is kept
        table = _TABLES[names] = _Words(names)
    return table


def _start(tags: dict[str, str], players: int, table: _Words) -> RivalsCore | None:
    """The core at the start of the game, or None when the tags are for the engine."""
    get = tags.get
    wagers = []
    for seat in range(players):
        text = get(_WAGER_TAGS[seat])
        if text is None:
            return None
        wagers.append(text.split())
    sizes = [PILE_SIZE] * PILE_COUNT
    given = get("PileSizes")
    if given is not None:
        words = given.split()
        if len(words) != PILE_COUNT or not all(w.isascii() and w.isdigit() and len(w) <= 9 for w in words):
            return None
        sizes = [int(word) for word in words]
    piles: list[list[str] | int] = []
    for index, tag in enumerate(_PILE_TAGS):
        text = get(tag)
        if text is None:
            piles.append(sizes[index])
            continue
        cards = text.split()
        if given is not None and len(cards) != sizes[index]:
            return None
        piles.append(cards)
    try:
        core = RivalsCore.deal(table.tables, wagers, piles)
    except ValueError:
        return None  # a deal the rules refuse (V-SETUP-*)
    return core if core.even() else None  # uneven piles: a warning (V-SETUP-PILES)


def _spelt(word: str, table: _Words) -> list[int] | None:
    """The moves of a word that is not one of the writer's single moves: ``place:`` with
    more cards than one, any word in another letter case, a call in the seat form."""
    if "," in word:
        head, *more = word.split(",")
        first = _CARD_WORDS.get(head)
        if first is None:
            first = (table.folded or table.fold()).get(head.casefold())
        if first is None or not PLACE <= first < MORE:
            return None
        moves = [first]
        for text in more:
            move = _MORE.get(text)
            if move is None:
                move = _MORE.get(text.casefold())
                if move is None:
                    return None
            moves.append(move)
        return moves
    move = (table.folded or table.fold()).get(word.casefold())
    return None if move is None else [move]


def _after_number(word: str, turn: int) -> str | None:
    """What follows the move number of turn ``turn`` (0-based) in ``word``: "" for the number
    alone (``7.``, ``7...``), the turn's first word glued to it (``7.up:R4``); None when the
    word is no number, or another turn's, or a number the reader says something about."""
    digits = len(word) - len(word.lstrip("0123456789"))
    if not digits or digits > 9 or word[digits:digits + 1] != "." or int(word[:digits]) != turn + 1:
        return None
    rest = word[digits:].lstrip(".")
    if rest and rest[0] in "0123456789$*":
        return None  # a second number, a glyph, a termination: read by the full engine
    return rest


def _share(word: str) -> tuple[str, int] | None:
    """A written share-out word (``share:3``, ``Rest:1``) → ("share" or "rest", the coins)."""
    key, colon, value = word.partition(":")
    key = key.casefold()
    if not colon or key not in ("share", "rest") or not (value.isascii() and value.isdigit()) \
            or len(value) > 9:
        return None
    return key, int(value)


def _writers_form(words: list[str], table: _Words, core: RivalsCore, players: int) -> bool | None:
    """Play a game written as the writer writes it: True when the core takes every word and
    the share-outs written are the core's, False when not; None, before anything is played,
    when a word is spelt otherwise (the general reader then reads the game).

    Every word is read by one look-up, the turns' shape by a few searches over the words'
    kinds, and the moves are played in one call of the core's ``play``, or a few where a
    share-out is written: the loops are those of C, not a Python loop a word. A `place:` of
    several cards is cut into its words (``place:R4`` ``,R7``) by one replacement over the
    whole text, when no word of it starts with a comma (a word that cannot stand alone).
    """
    text = " ".join(words)
    if "," in text:
        if " ," in text or text[:1] == ",":
            return None
        words = text.replace(",", " ,").split(" ")
    read = list(map(table.codes.get, words))
    if None in read:
        at = 0
        index = read.index
        while True:
            try:
                at = index(None, at)
            except ValueError:
                break
            # A word in any other letter case (`Up:R4`, `ADA3`).
            code = (table.folded or table.fold()).get(words[at].casefold())
            if code is None:
                return None
            read[at] = code
    codes = cast("list[int]", read)  # every word read
    kinds = bytes(map(_KIND.__getitem__, codes))
    if kinds[:1] != b"N" or kinds[-1:] not in (b"U", b"S", b"R") or b"x" in kinds \
            or any(pair in kinds for pair in _NOT_NEXT):
        return None
    numbers = list(compress(codes, kinds.translate(_IS_NUMBER)))
    if numbers != list(range(_NUMBER, _NUMBER + len(numbers))):
        return None
    play, moves = core.play, MOVES.__gt__
    start = 0
    note = _NOTE.search(kinds)
    while note is not None:
        # A share-out written after an uncover: where a pile other than the last ran out,
        # what the core shared out (V-PILE-SHARE, V-PILE-REMAINDER).
        at = note.start()
        if play(list(filter(moves, codes[start:at - 1]))):
            return False
        pile, supply = core.pile, core.supply
        if play((codes[at - 1],)):
            return False
        if core.pile == pile:
            return False  # V-PILE-SHARE: no pile ran out (or the last did)
        each, rest = (supply - core.supply) // players, core.supply
        if kinds[at] == ord("S"):
            if codes[at] - _SHARE != each:
                return False  # V-PILE-SHARE: not the coins each player gets
            at += 1
        if kinds[at:at + 1] == b"R":
            if codes[at] - _REST != rest:
                return False  # V-PILE-REMAINDER: not the coins left in the supply
            at += 1
        start = at
        note = _NOTE.search(kinds, start)
    return not play(list(filter(moves, codes[start:])))


def express_check(record: GameRecord, words: list[str]) -> ExpressResult | None:
    """Decide a Rivals record from its words, or return None to have it validated in full.

    ``words`` are the movetext's words before the termination, move numbers included
    (``Variant.express_check``).
    """
    found = replay(record, words)
    if found is None:
        return None
    core, names = found
    return ExpressResult(names, list(core.score()), core.is_over(), core.turn)


def replay(record: GameRecord, words: list[str]) -> tuple[RivalsCore, list[str]] | None:
    """The core after a Rivals record's words, with the players' names; None when the record
    is to be validated in full (:func:`express_check`; ``lcn.legal_moves`` lists its moves
    on the core it gives)."""
    tags = record.tags.mapping
    get = tags.get
    names: list[str] = []
    for tag in _PLAYER_TAGS:
        name = get(tag)
        if name is None:
            break
        names.append(name)
    players = len(names)
    # Any other tag whose name holds `Player` (`Player5`, `PlayerX`) says something about
    # the seats (V-SETUP-PLAYERS).
    if not 2 <= players <= MAX_PLAYERS or "\n".join(tags).count("Player") != players:
        return None
    table = _words_for(tuple(names))
    core = _start(tags, players, table)
    if core is None:
        return None
    fast = _writers_form(words, table, core, players)
    if fast is not None:
        return (core, names) if fast else None
    cards, calls, numbers, play = _CARD_WORDS.get, table.calls.get, _NUMBERS, core.play
    last = len(numbers) - 1
    count = len(words)
    words = [*words, ""]  # no word of any turn after the last: no bound checked below
    # The moves read and not played yet: played at the end, and where the record notes what
    # the rules decided (`>box`, a share-out), to hold the note to what the core did.
    pending: list[int] = []
    add = pending.append
    turn = 0
    at = 0
    while at < count:
        # -- the move number, then the turn's words up to its uncover
        word = words[at]
        at += 1
        if word == numbers[turn]:
            word = words[at]
            at += 1
        else:
            glued = _after_number(word, turn)
            if glued is None:
                return None  # no number, or not this turn's (LCN-MOVE-NUMBER)
            if glued:
                word = glued
            else:
                word = words[at]
                at += 1
        while True:
            move = cards(word)
            if move is None:
                move = calls(word)
                if move is None:
                    spelt = _spelt(word, table)
                    if spelt is None:
                        return None  # no word of a turn (an empty turn, a turn cut short...)
                    *heads, move = spelt
                    pending += heads
            if PLACE <= move < TO_BOX:
                add(move)
                word = words[at]
                at += 1
                continue
            break
        if turn < last:
            turn += 1
        word = words[at]
        add(move)  # the uncover, the turn's last move
        if word == numbers[turn] or at == count or word[0] in "0123456789":
            continue
        # -- a share-out as written after the uncover (or a word out of place)
        last_move = pending.pop()
        if play(pending):
            return None  # a rule broken: the engine says which, where and why
        pending.clear()
        pile, supply = core.pile, core.supply
        if play((last_move,)):
            return None
        # Where a pile other than the last ran out, what the core shared out
        # (V-PILE-SHARE, V-PILE-REMAINDER); `share:` before `rest:`.
        if core.pile == pile:
            return None  # V-PILE-SHARE: no pile ran out (or the last did), word by word
        each, rest = (supply - core.supply) // players, core.supply
        said = _share(word)
        if said is None:
            return None  # a word after the uncover (LCN-RIVALS-TURN)
        if said[0] == "share":
            if said[1] != each:
                return None  # V-PILE-SHARE: not the coins each player gets, word by word
            at += 1
            said = _share(words[at])
            if said is None:
                continue  # the next turn's number, checked there
        if said != ("rest", rest):
            return None  # V-PILE-REMAINDER, or a word out of place, word by word
        at += 1
    if play(pending):
        return None
    return core, names


def _label(text: str, tokens: Sequence[str], names: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """The label of a word as ``RivalsVariant.move_label`` makes it."""
    if text.startswith(","):
        return "rivals.place.more", {"card": text[1:]}
    key, colon, value = text.partition(":")
    if colon:
        return f"rivals.{key}", {"cards": value.replace(",", " "), "card": value}
    seat = next((s for s, token in enumerate(tokens) if text.startswith(token)), 0)
    amount = text[len(tokens[seat]):]
    if amount == "-":
        return "rivals.pass", {"player": names[seat]}
    return "rivals.bid", {"player": names[seat], "amount": amount}


class _Lister:
    """Rivals' legal continuations on its core (``lcn.games.MoveLister``): the record's words
    replayed as :func:`replay` plays them, an auction under way played word by word after
    them, and the core's :meth:`RivalsCore.record_moves` labelled as the engine labels them."""

    __slots__ = ()

    def list_moves(self, record: GameRecord, turns: Sequence[Turn]) -> Listing | None:
        partial = False
        found = replay(record, record_words(turns, numbered=True))
        if found is None:
            # The last turn perhaps being written: the turns before it replayed, then its
            # words (each as the writer writes it; any other is the engine's to read).
            if not turns:
                return None
            last = turns[-1]
            found = replay(record, record_words(turns[:-1], numbered=True))
            if found is None or found[0].is_over():
                return None
            core = found[0]
            if last.number is not None and (last.number != core.turn + 1 or last.number_dots != 1):
                return None  # a move number not this turn's (LCN-MOVE-NUMBER)
            if any(word.partition(":")[0].casefold() in ("share", "rest") for word in last.text.split()):
                return None
            ids = core.tables.word_ids
            for word in turn_words(last.text):
                move = ids.get(word)
                if move is None or core.step(move):
                    return None
            if core.phase == START:
                return None  # a whole turn the verdict did not take: the engine says why
            partial = True
        core, names = found
        if core.is_over():
            return Listing(names, None, True)
        tokens, words = core.tables.tokens, core.tables.words
        moves = [(words[move], *_label(words[move], tokens, names)) for move in core.record_moves()]
        return Listing(names, core.actor(), False, partial, moves)


def lister(variant: RivalsVariant) -> _Lister:
    """The lister of the Rivals variant (``lcn.games.built_in_lister``)."""
    return _Lister()

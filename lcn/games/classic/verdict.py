"""The quick verdict on a classic record: its words read into the core's moves and played.

Nearly every record a validator sees in bulk (engine self-play, site exports, games written
by hand in the usual way) breaks no rule. For those, validation needs no model of turns, no
record of where each card went and no explanation; it needs the words read as moves and the
moves played by the rules. The rules are :class:`~lcn.games.classic.core.ClassicCore`'s
step, the one a search plays, so this module holds no rule of its own: it reads the words
(move numbers wherever the reader takes them, glyphs, any letter case) and gives up, for the
full engine to explain, at the first thing it does not take or the first move the core
refuses. The words are read first and the moves played in one call of
:meth:`~lcn.games.classic.core.ClassicCore.play`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ...model import SUFFIX_GLYPHS
from ...variants.base import ExpressResult
from .. import Listing, record_words
from .cards import CLASSIC_5, CLASSIC_6, COLOUR_NAMES, ClassicConfig
from .core import UNKNOWN, ClassicCore, Tables, tables_for

if TYPE_CHECKING:
    from ...model import GameRecord, Turn
    from ...variants.classic import ClassicVariant


class _Words:
    """Every spelling of a card set's turns that the verdict reads, made once per card set."""

    __slots__ = ("all_ids", "dealt", "heads", "moves", "numbers", "others", "spellings", "tables",
                 "unknown")

    def __init__(self, config: ClassicConfig) -> None:
        tables = self.tables = tables_for(config)
        canonical = dict(tables.word_ids)
        #: A turn's move by its canonical text, the whole turn in upper or in lower case, or
        #: a suffix glyph glued to it as written or in lower case: one look-up each.
        self.moves: dict[str, int] = dict(canonical)
        lower = {text.lower(): move for text, move in canonical.items()}
        glued = {text + glyph: move for text, move in [*canonical.items(), *lower.items()]
                 for glyph in SUFFIX_GLYPHS}
        self.moves.update(lower)
        self.moves.update({text.upper(): move for text, move in self.moves.items()})
        self.moves.update(glued)
        #: Each turn's canonical text by its text in upper case: the reader takes any letter
        #: case (no two canonical texts differ only in case: `X`, `D` and `W` as a value are
        #: no colour's letter, and a colour is always upper case).
        self.spellings = {text.upper(): text for text in canonical}
        #: The words that are no turn: the usual move numbers, by the index of the turn each
        #: stands before (`N.` the first player's turn of round N, `N...` the second's); then
        #: the numeric glyphs and the suffix glyphs standing alone (-1).
        self.others: dict[str, int] = {}
        others = self.others
        for n in range(1, 4 * config.total_cards):
            for dots in (".", "..", "..."):
                others[f"{n}{dots}"] = 2 * n - 2 + (dots == "...")
        nags = [f"${n}" for n in range(10)] + [f"${n:02}" for n in range(100)] \
            + [f"${n:03}" for n in range(256)] + [f"${n}" for n in range(10, 256)]
        for word in nags + list(SUFFIX_GLYPHS):
            others[word] = -1
        #: Every card of the game, wager copies repeated, sorted: a deal is valid when its
        #: cards, sorted, are exactly these (C-SETUP-DEAL, C-CARD-UNIQUE).
        self.all_ids = sorted(tables.deck)
        #: The move number written before the first player's turn of each round, for the
        #: usual lengths of a game (a longer one, drawing from discard piles, is left to the
        #: full engine).
        self.numbers = [f"{n}." for n in range(1, 4 * config.total_cards)]
        #: The digits of those numbers, by the index of the turn each stands before: a number
        #: glued to its turn (``12.R7/d``) is checked with one look-up.
        self.heads = {f"{n}": 2 * n - 2 for n in range(1, 4 * config.total_cards)}
        #: The starts of games, copied for each record (a copy is a few list slices): with
        #: nothing of the deal known, and with empty hands and pile for a whole deal to fill.
        self.unknown = ClassicCore(tables, [[UNKNOWN] * config.hand_size] * 2,
                                   [UNKNOWN] * config.pile_size, tables.copies)
        self.dealt = ClassicCore(tables, [[], []], [])


_WORDS: dict[ClassicConfig, _Words] = {}
#: A move number as the reader takes it, perhaps glued to the word after it (``12.R7/d``).
_NUMBER = re.compile(r"([0-9]{1,9})(\.+)([^.]*)")


def _start(record: GameRecord, words: _Words) -> ClassicCore | None:
    """The core at the start of the record's game, or None when the deal is for the engine.

    Either the whole deal is in canonical form and exact, or none of it is given; a part of
    the deal, a card spelt otherwise or a deal the engine would say something about is left
    to it (C-SETUP-DEAL).
    """
    tags = record.tags.mapping
    tables: Tables = words.tables
    config = tables.config
    hand1, hand2, deck_text = tags.get("Hand1"), tags.get("Hand2"), tags.get("Deck")
    if hand1 is not None and hand2 is not None and deck_text is not None:
        first, second = hand1.split(), hand2.split()
        size = config.hand_size
        if len(first) != size or len(second) != size:
            return None
        try:
            dealt = list(map(tables.ids.__getitem__, first + second + deck_text.split()))
        except KeyError:
            return None
        if sorted(dealt) != words.all_ids:
            return None
        core = words.dealt.copy()
        own, other = core.hands
        for card in dealt[:size]:
            own[card] += 1
        for card in dealt[size:2 * size]:
            other[card] += 1
        core.pile = dealt[:2 * size - 1:-1]  # the Deck tag's top is the pile's end
        return core
    if hand1 is not None or hand2 is not None or deck_text is not None:
        return None
    return words.unknown.copy()


def express_check(record: GameRecord, words: list[str], config: ClassicConfig) -> ExpressResult | None:
    """Decide a classic record from its words, or return None to have it validated in full
    (:func:`replay`, whose core gives the scores)."""
    found = replay(record, words, config)
    return None if found is None else _result(*found)


def replay(record: GameRecord, words: list[str], config: ClassicConfig
           ) -> tuple[ClassicCore, str, str] | None:
    """The core after a classic record's words, with the players' names; None when the record
    is to be validated in full (``lcn.legal_moves`` lists its moves on the core it gives).

    The words are as the lexer finds them (comments left out). Turns in canonical form take
    the quick step; any other word takes a slower one: a turn in another letter case, a
    suffix glyph glued to it or alone, a numeric glyph, a move number wherever it may stand
    (glued to its turn, ``N...`` before the second player's turn, or none). A word the reader
    or the validator would say something about (a glyph before the first turn, an unknown
    glyph, two move numbers in a row, a number that is not its turn's: LCN-GLYPH,
    LCN-MOVE-NUMBER) gives up, as does a turn not in the table or one the core refuses.
    """
    tags = record.tags.mapping
    player1, player2 = tags.get("Player1"), tags.get("Player2")
    # No tag name holds a line break: the names that start with `Player` are the two seats.
    if player1 is None or player2 is None or ("\n" + "\n".join(tags)).count("\nPlayer") != 2:
        return None  # any other `Player...` tag says something about the seats (C-SETUP-PLAYERS)
    table = _WORDS.get(config)
    if table is None:
        table = _WORDS[config] = _Words(config)
    core = _start(record, table)
    if core is None:
        return None
    numbers, heads = table.numbers, table.heads
    moves = table.moves
    if words[:1] == ["1."] and len(words) % 3 != 1 and words[::3] == numbers[:(len(words) + 2) // 3]:
        # Move numbers as the writer puts them, before every round (every third word, with the
        # number of its round and one dot: LCN-MOVE-NUMBER), and a turn after each: the turns
        # are looked up in one call (one word is not a tuple of one).
        turns = words.copy()
        del turns[::3]
        try:
            moved = itemgetter(*turns)(moves) if len(turns) > 1 else [moves[turn] for turn in turns]
        except KeyError:
            pass  # a word of another form (nothing is played yet): all are read word by word
        else:
            if core.play(moved):
                return None  # a rule broken: the engine says which, where and why
            return core, player1, player2
    spellings = table.spellings
    others = table.others
    played: list[int] = []
    play = played.append
    numbered = -1  # the index of the turn that the last move number written stands before
    for word in words:
        move = moves.get(word)
        if move is None:
            # Any other word (see above): slower steps, which canonical turns never take.
            index = len(played)
            at = others.get(word)
            if at is not None:
                # A word that is no turn. A move number stands before one turn, of one index
                # (``ClassicVariant.move_number``); a glyph (-1) after a turn.
                if at >= 0:
                    if at != index or numbered == index:
                        return None
                    numbered = index
                elif not index:
                    return None  # a glyph before the first turn (LCN-GLYPH)
                continue
            if word[0] in "0123456789":
                # A move number glued to its turn (`12.R7/d`), or with many dots.
                head, _, rest = word.partition(".")
                move = moves.get(rest)
                if move is None or heads.get(head) != index or numbered == index:
                    move = None
                    if heads.get(head) == index and rest and rest[0] != "." and numbered != index:
                        # The usual number of this turn and a word after it (its first
                        # character no dot, so that the number is all of `N.`; anything but a
                        # turn after it is no word of the table, and the verdict gives up).
                        word = rest
                    else:
                        match = _NUMBER.fullmatch(word)
                        if match is None or numbered == index \
                                or 2 * int(match[1]) - 2 + (len(match[2]) >= 3) != index:
                            return None
                        word = match[3]
                        if not word:
                            numbered = index
                            continue
                        if word[0] in "$0123456789":
                            return None  # `1.$2`, `1.2.`: rare spellings, read by the full engine
                numbered = index
            if move is None:
                # A turn in another letter case, or a suffix glyph glued to it.
                if word[-1] in "!?":
                    cut = len(word.rstrip("!?"))
                    if word[cut:] not in SUFFIX_GLYPHS:
                        return None
                    word = word[:cut]
                move = moves.get(word)
                if move is None:
                    move = moves.get(spellings.get(word.upper(), ""))
                    if move is None:
                        return None  # not a turn of the table
        play(move)
    if numbered == len(played):
        return None  # a move number not followed by a turn (LCN-MOVE-NUMBER)
    if core.play(played):
        return None  # a rule broken: the engine says which, where and why
    return core, player1, player2


def _result(core: ClassicCore, player1: str, player2: str) -> ExpressResult:
    # An empty name is a seat's as the engine names it (``seats_from_tags``).
    return ExpressResult([player1 or "Player 1", player2 or "Player 2"], list(core.score()),
                         core.is_over(), core.turn)


class _Lister:
    """Classic's legal continuations on its core (``lcn.games.MoveLister``): the record's
    words replayed as :func:`replay` plays them, and the core's :meth:`ClassicCore.record_moves`
    labelled as ``ClassicVariant.move_label`` labels them."""

    __slots__ = ("config",)

    def __init__(self, config: ClassicConfig | None) -> None:
        self.config = config

    def list_moves(self, record: GameRecord, turns: Sequence[Turn]) -> Listing | None:
        config = self.config
        if config is None:
            # The card set as ``ClassicVariant.express_check`` reads it: another spelling of
            # the tag is the engine's to judge.
            expeditions = record.tags.get("Expeditions")
            config = CLASSIC_6 if expeditions == "6" else \
                CLASSIC_5 if expeditions is None or expeditions == "5" else None
            if config is None:
                return None
        found = replay(record, record_words(turns), config)
        if found is None:
            found = _seats_view(record, turns, config)
            if found is None:
                return None
        core, player1, player2 = found
        players = [player1 or "Player 1", player2 or "Player 2"]
        if core.is_over():
            return Listing(players, None, True)
        tables = core.tables
        names, words, piles = tables.names, tables.words, core.piles
        moves: list[tuple[str, str, dict[str, Any]]] = []
        for move in core.record_moves():
            card = names[tables.move_card[move]]
            source = tables.move_source[move]
            key = "classic.discard" if tables.move_discard[move] else "classic.place"
            if source:
                key += ".take"
                params = {"card": card, "colour": COLOUR_NAMES[card[0]],
                          "take": names[piles[source - 1][-1]],
                          "pile": COLOUR_NAMES[config.colours[source - 1]]}
            else:
                key += ".pile"
                params = {"card": card, "colour": COLOUR_NAMES[card[0]], "take": "", "pile": ""}
            moves.append((words[move], key, params))
        return Listing(players, core.player, False, False, moves)


def _seats_view(record: GameRecord, turns: Sequence[Turn], config: ClassicConfig
                ) -> tuple[ClassicCore, str, str] | None:
    """The core after a record that gives a part of its deal and no draw pile (a seat's view:
    its hand, and the cards it drew named, ``R5/d=R7``), as a recorder at the table writes
    it; None for anything else, or anything unusual, which the engine reads.

    The quick verdict of validation leaves such records to the engine; here only what the
    engine takes without a word is taken: the two seats' tags, hands of canonical cards, each
    turn in canonical form with its usual move number or none, a card named only for a draw
    from the draw pile, and every move and name the core's rules take.
    """
    tags = record.tags.mapping
    player1, player2 = tags.get("Player1"), tags.get("Player2")
    if player1 is None or player2 is None or ("\n" + "\n".join(tags)).count("\nPlayer") != 2 \
            or "Deck" in tags:
        return None
    tables = tables_for(config)
    ids, word_ids, unknown = tables.ids, tables.word_ids, tables.unknown
    try:
        core = ClassicCore.start(config, [None if tags.get(tag) is None else str(tags[tag]).split()
                                          for tag in ("Hand1", "Hand2")], None)
    except (KeyError, ValueError):
        return None  # a card spelt otherwise, or no part of a deal (C-SETUP-DEAL)
    for index, turn in enumerate(turns):
        if turn.number is not None and (turn.number != index // 2 + 1
                                        or turn.number_dots != (3 if index & 1 else 1)):
            return None
        text, equals, named = turn.text.partition("=")
        move = word_ids.get(text)
        if move is None or (equals and not named):
            return None
        unseen = bool(core.pile) and core.pile[-1] == unknown
        if core.step(move):
            return None
        if named:
            card = ids.get(named)
            if card is None or not unseen or tables.move_source[move] or core.name_drawn(card):
                return None
    return core, player1, player2


def lister(variant: ClassicVariant) -> _Lister:
    """The lister of a classic variant (``lcn.games.built_in_lister``): of its card set, when
    it plays one whatever the tags say."""
    return _Lister(variant.fixed_config)

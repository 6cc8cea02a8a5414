"""The fast full-information core of Lost Cities: Rivals: integer cards, integer words, one step.

A search plays hundreds of thousands of decisions per move it chooses, so a decision here
is a few list operations on small integers. A Rivals turn is several words (an auction's
bids and passes, the winner's placements, a return to the box, the uncover), and so is a
decision: one word, the unit that ``lcn.legal_moves`` offers and a player writes. The rules
are those of ``seeds/rivals.md`` as ``lcn.variants.rivals`` checks them with the piles
known (``Pile1``..``Pile4``); a failed :meth:`RivalsCore.step` answers with the rule ID
that full validation gives the same word (:class:`Rule`), leaving the state as it was.
``tests/test_rivals_core.py`` holds the two equal on seeded games.

Encodings:

- a card is ``colour * 10 + rank``: rank 0 is the wager, rank ``r`` the number ``r + 1``
  (2-10). Ranks rise with the numbers, so "equal or higher than the top" is an integer
  comparison, and the card order is the order in which ``lcn.legal_moves`` lists a
  winner's placements (colour by colour, wagers first, numbers rising);
- a move (a word) is one of ``UP + card`` (``up:R7``), ``PLACE + card`` (``place:R7``, the
  first card a winner places), ``MORE + card`` (``,R7``: one more card of that word),
  ``BOX + card`` (``box:R7``), ``BID + seat * AMOUNTS + amount`` (``Ada3``; amounts 0 to
  37, so that a bid of nothing or of more than all the gold can be written and refused)
  , ``PASS + seat`` (``Ada-``) and ``TO_BOX + card`` (``up:R7>box``: the uncover, with
  the note that nobody can use the card, which goes to the box). Its text needs the
  players' tokens: :class:`Tables` holds the words of one table of players.

The written share-outs (``share:3 rest:1``) say what the rules decide by themselves; the
core decides them and has no words for them (:func:`turn_words` leaves them out of a turn
as written). ``>box`` says so too, but a record that writes it can be wrong, and the rule
that it is (V-UNCOVER-USELESS) is the core's: ``lcn.legal_moves`` offers the plain uncover.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from enum import IntEnum
from itertools import chain
from typing import Any

from ...model import GameRecord
from ...variants.rivals import (
    BONUS_NUMBERS,
    BONUS_POINTS,
    COLOURS,
    PILE_COUNT,
    PILE_SIZE,
    START_WAGER_COPIES,
    TOTAL_GOLD,
    all_cards,
    card_set,
    footprints,
    player_tokens,
)

#: Card facts, by card (``colour * 10 + rank``).
KINDS = 10 * len(COLOURS)
NAMES = [colour + ("w" if rank == 0 else str(rank + 1)) for colour in COLOURS for rank in range(10)]
CARD_IDS = {name: card for card, name in enumerate(NAMES)}
COLOUR_OF = [card // 10 for card in range(KINDS)]
RANK_OF = [card % 10 for card in range(KINDS)]
#: The players' expeditions of the card's colour, as a slice of a list by ``player * 5 + colour``.
COLUMN_OF = [slice(card // 10, None, 5) for card in range(KINDS)]
FOOT_OF = [footprints(name) for name in NAMES]
COPIES = [card_set()[name] for name in NAMES]
#: Every card of the piles, copies repeated, in card order.
DECK = sorted(CARD_IDS[name] for name in all_cards())

#: A card the record does not show: a place of a pile whose tag the record leaves out.
UNKNOWN = -1
#: The rulebook asks for piles of more or less equal sizes: full validation warns of piles
#: further apart than this many cards (V-SETUP-PILES).
PILE_SPREAD = 2

#: Word kinds: the first move of each.
UP, PLACE, MORE, BOX, BID = 0, KINDS, 2 * KINDS, 3 * KINDS, 4 * KINDS
#: Bids of 0 to 37 coins have words: one more than all the gold of the game.
AMOUNTS = TOTAL_GOLD + 2
MAX_PLAYERS = 4
PASS = BID + MAX_PLAYERS * AMOUNTS
TO_BOX = PASS + MAX_PLAYERS
MOVES = TO_BOX + KINDS
#: A call's seat and amount (-1 for a pass), by move.
SEAT_OF = [0] * BID + [(move - BID) // AMOUNTS for move in range(BID, PASS)] \
    + list(range(MAX_PLAYERS)) + [0] * KINDS
AMOUNT_OF = [0] * BID + [(move - BID) % AMOUNTS for move in range(BID, PASS)] \
    + [-1] * MAX_PLAYERS + [0] * KINDS

#: Where a turn stands: at its start (uncover or open an auction), in an auction's calls,
#: after an auction won (the winner may place, return, uncover), after a placement word
#: (``,card`` may follow it), after a return to the box (only the uncover is left).
START, CALLS, WON, PLACING, BOXED = range(5)

#: ``NEXT[players][mask][seat]``: the first seat of ``mask`` clockwise after ``seat``.
NEXT = [[[next(((seat + step) % players for step in range(1, players + 1)
                if mask >> ((seat + step) % players) & 1), seat)
          for seat in range(players)] for mask in range(1 << players)]
        for players in range(MAX_PLAYERS + 1)]

#: ``SKIPPED[card][top]``: the footprints of the numbers of the card's colour that placing
#: it on an expedition topped by rank ``top`` shuts out (for the heuristic player).
SKIPPED = [[sum(FOOT_OF[colour * 10 + rank] * COPIES[colour * 10 + rank]
                for rank in range(max(top, 1), RANK_OF[card]))
            if RANK_OF[card] else 0 for top in range(10)]
           for card, colour in enumerate(COLOUR_OF)]


class Rule(IntEnum):
    """Why a step failed; each member names the rule ID full validation reports first for
    the same word (after the turn's earlier words, with the uncover written after it).

    The order of the checks is the engine's: a word the reader cannot take is refused
    before any rule of play is checked, and within a turn the problems come in the order
    of its words.
    """

    #: An auction opened in the name of a player whose turn it is not.
    TURN_ORDER = 1
    #: ``place:`` or ``box:`` without an auction.
    TURN_ACTION = 2
    #: An auction opened while the display is empty.
    AUCTION_DISPLAY = 3
    #: An auction opened with a pass.
    AUCTION_OPEN = 4
    #: A bid of no coin.
    AUCTION_MIN_BID = 5
    #: A call out of clockwise order.
    AUCTION_ORDER = 6
    #: A bid not higher than the highest so far.
    AUCTION_RAISE = 7
    #: A call by a player who has passed in this auction.
    AUCTION_PASS_OUT = 8
    #: A bid above the gold the bidder holds.
    AUCTION_FUNDS = 9
    #: A call after the auction was won, or the winner's words before it was.
    AUCTION_END = 10
    #: A return of a card not in the display, or a second return.
    AUCTION_BOX = 11
    #: A placement of a card not in the display.
    PLACE_DISPLAY = 12
    #: A wager placed on an expedition with a number card.
    PLACE_WAGER_FIRST = 13
    #: A number lower than the expedition's last.
    PLACE_ASCENDING = 14
    #: An uncover naming another card than the pile's top.
    UNCOVER_TOP = 15
    #: A word after the last card of the last pile was uncovered.
    END_LAST_CARD = 16
    #: A word out of its place in a turn (a call after ``place:``, a second ``place:``);
    #: ``,<wager>`` after a call or alone reads as no word at all.
    TURN_WORD = 17
    #: ``,<number>`` after a call or alone reads as a call by an unknown player.
    TURN_PLAYER = 18
    #: ``,<card>`` after ``box:<card>`` makes one card word of two; an uncover of a card
    #: whose every copy is seen already (where the piles are unknown, :class:`PartialCore`).
    SETUP_CARDS = 19
    #: ``>box`` after the uncover of a card that a player can still use.
    UNCOVER_USELESS = 20

    @property
    def rule_id(self) -> str:
        """The rule's ID in ``seeds/rivals.md`` (``V-AUCTION-RAISE``), or the notation's."""
        if self is Rule.TURN_WORD:
            return "LCN-RIVALS-TURN"
        if self is Rule.TURN_PLAYER:
            return "LCN-RIVALS-PLAYER"
        return "V-" + self.name.replace("_", "-")


class Tables:
    """The words of one table of players (their tokens), built once per table.

    The words are made when first asked for: a table is also made for each game that
    validation's quick verdict replays, which needs only the seats.
    """

    __slots__ = ("folded", "tokens", "word_ids", "words")

    #: Each move's canonical word, by move.
    words: list[str]
    word_ids: dict[str, int]
    #: Words in any letter case, and calls in the seat form (``p2-``, ``P13``).
    folded: dict[str, int]

    def __init__(self, tokens: Sequence[str]) -> None:
        if not 2 <= len(tokens) <= MAX_PLAYERS:
            raise ValueError(f"Lost Cities: Rivals is for 2 to {MAX_PLAYERS} players, not {len(tokens)}")
        self.tokens = tuple(tokens)

    def __getattr__(self, name: str) -> Any:
        if name not in ("folded", "word_ids", "words"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self._make()
        return getattr(self, name)

    def _make(self) -> None:
        tokens = self.tokens
        words = [f"up:{name}" for name in NAMES] + [f"place:{name}" for name in NAMES] \
            + [f",{name}" for name in NAMES] + [f"box:{name}" for name in NAMES]
        for seat in range(MAX_PLAYERS):
            token = tokens[seat] if seat < len(tokens) else f"P{seat + 1}"
            words += [f"{token}{amount}" for amount in range(AMOUNTS)]
        words += [f"{tokens[seat] if seat < len(tokens) else f'P{seat + 1}'}-"
                  for seat in range(MAX_PLAYERS)]
        words += [f"up:{name}>box" for name in NAMES]
        self.word_ids = {word: move for move, word in enumerate(words)}
        folded = {word.casefold(): move for move, word in enumerate(words)}
        for seat in range(len(tokens)):
            folded.update({f"p{seat + 1}{amount}": BID + seat * AMOUNTS + amount
                           for amount in range(AMOUNTS)})
            folded[f"p{seat + 1}-"] = PASS + seat
        self.folded = folded
        self.words = words

    def word(self, move: int) -> str:
        """The move's word as ``lcn.legal_moves`` writes it (``Ada3``, ``place:R4``, ``,R7``)."""
        return self.words[move]

    def move(self, word: str) -> int:
        """The move of a word, in any letter case (``UP:r7``), calls also in the seat form.

        Raises ValueError for a word the core has no move for: a share-out (the core
        decides it), a bid of more than 37 coins, anything unreadable.
        """
        move = self.word_ids.get(word)
        if move is None:
            move = self.folded.get(word.casefold())
        if move is None:
            raise ValueError(f"`{word}` is not a word of one decision of this table "
                             f"(players {' '.join(self.tokens)})")
        return move


_TABLES: dict[tuple[str, ...], Tables] = {}


def tables_for(tokens: Sequence[str]) -> Tables:
    """The words of a table of players, built on first use."""
    key = tuple(tokens)
    tables = _TABLES.get(key)
    if tables is None:
        if len(_TABLES) >= 16:
            _TABLES.clear()  # the tables of many games read: a bound on what is kept
        tables = _TABLES[key] = Tables(key)
    return tables


def turn_words(text: str) -> list[str]:
    """The decisions of a turn as written, one word each: ``place:R4,R7`` is ``place:R4``
    then ``,R7``; ``share:``/``rest:`` are left out (the rules decide them)."""
    words: list[str] = []
    for word in text.split():
        key = word.partition(":")[0].casefold()
        if key in ("share", "rest"):
            continue
        if key == "place":
            first, *more = word.split(",")
            words.append(first)
            words += ["," + card for card in more]
        else:
            words.append(word)
    return words


class RivalsCore:
    """A position with everything known, between two words.

    Expeditions keep what placing and scoring need, per player and colour at index
    ``player * 5 + colour``: the top rank (0 while only wagers or nothing), the wagers
    (the starting one included), the number cards and their footprints. The cards still to
    uncover are one list whose end is the next card; ``left`` counts those of the current
    pile, ``sizes`` holds every pile's size. An auction in progress keeps the players still
    in it (a bit mask), the high bid and its bidder, and who calls next; an auction won
    keeps the last card placed (placements are offered in card order).
    """

    __slots__ = ("active", "box", "deck", "display", "expected", "foot", "gold", "high", "last",
                 "leader", "left", "numbers", "phase", "pile", "player", "players", "sizes",
                 "supply", "tables", "tops", "turn", "wagers")

    #: The unseen copies of each card, where the record leaves places of the piles unknown
    #: (a slot of :class:`PartialCore`: the deck of any other core holds no UNKNOWN).
    free: list[int]

    def __init__(self, tables: Tables, starting_wagers: Sequence[Sequence[int]],
                 piles: Sequence[Sequence[int]]) -> None:
        """A game's start: each player's starting wagers (cards) and the four piles, each
        from its top card down, in the order they are used."""
        players = len(tables.tokens)
        if len(starting_wagers) != players:
            raise ValueError(f"{len(starting_wagers)} sets of starting wagers for {players} players")
        if len(piles) != PILE_COUNT or any(not pile for pile in piles):
            raise ValueError(f"Rivals is played with {PILE_COUNT} piles of at least one card each")
        self.tables = tables
        self.players = players
        self.gold = [TOTAL_GOLD // players] * players
        self.supply = 0
        cells = players * len(COLOURS)
        self.tops = [0] * cells
        self.wagers = [0] * cells
        self.numbers = [0] * cells
        self.foot = [0] * cells
        for player, cards in enumerate(starting_wagers):
            for card in cards:
                if RANK_OF[card]:
                    raise ValueError(f"{NAMES[card]} is not a wager card")
                self.wagers[player * 5 + COLOUR_OF[card]] += 1
        self.display: list[int] = []
        self.box: list[int] = []
        self.deck = list(chain.from_iterable(map(reversed, reversed(piles))))
        self.sizes = [len(pile) for pile in piles]
        self.pile = 0
        self.left = self.sizes[0]
        self.player = 0
        self.turn = 0
        self.phase = START
        self.active = 0
        self.high = 0
        self.leader = 0
        self.expected = 0
        self.last = -1

    @classmethod
    def deal(cls, names: Sequence[str] | Tables, starting_wagers: Sequence[Sequence[str]],
             piles: Sequence[Sequence[str] | int]) -> RivalsCore:
        """The start of a game from its deal as the tags write it (``Player1``.., ``Wagers1``..,
        ``Pile1``.. each from the top card down); the players' names or their table's words.

        A pile given as a number is one of that many cards the record does not show (no
        ``Pile`` tag): the game is then a :class:`PartialCore`, which takes at each of those
        places any card of which a copy is still unseen.

        Raises ValueError for a card name that is not canonical, a player's starting wagers
        that are not two wager cards of different colours (V-SETUP-START-WAGERS), more
        starting wagers of a colour than there are (V-SETUP-START-WAGER-CARDS), or piles
        that are not the 80 cards of the game (V-SETUP-CARDS, V-SETUP-PILES): the core
        plays a deal, validation judges one.
        """
        get = CARD_IDS.__getitem__
        try:
            cards: list[list[int]] = [list(map(get, pile)) if not isinstance(pile, int)
                                      else [UNKNOWN] * pile for pile in piles]
            wagers = [list(map(get, pair)) for pair in starting_wagers]
        except KeyError as exc:
            raise ValueError(f"{exc.args[0]!r} is not a card as the tags write it") from None
        dealt = [0] * len(COLOURS)
        for pair in wagers:
            if len(pair) != 2 or pair[0] == pair[1] or RANK_OF[pair[0]] or RANK_OF[pair[1]]:
                raise ValueError("each player starts with two wager cards of different colours")
            for card in pair:
                dealt[COLOUR_OF[card]] += 1
        if max(dealt) > START_WAGER_COPIES:
            raise ValueError(f"there are {START_WAGER_COPIES} starting wager cards of each colour")
        if not all(cards):
            raise ValueError(f"Rivals is played with {PILE_COUNT} piles of at least one card each")
        tables = names if isinstance(names, Tables) else tables_for(player_tokens(list(names)))
        known = sorted(chain.from_iterable(cards))
        if known == DECK:
            return cls(tables, wagers, cards)
        unknown = bisect_right(known, UNKNOWN)
        free = list(COPIES)
        for card in known[unknown:]:
            free[card] -= 1
        if len(known) != len(DECK) or min(free) < 0 or not unknown:
            raise ValueError("the piles are not the 80 cards of the game")
        core = PartialCore(tables, wagers, cards)
        core.free = free
        return core

    @classmethod
    def from_record(cls, record: GameRecord | Mapping[str, str]) -> RivalsCore:
        """The start of a game from a record (or its tags), which must give the piles.

        Raises ValueError when a tag the deal needs is missing.
        """
        get = (record.tags if isinstance(record, GameRecord) else record).get
        names: list[str] = []
        while (name := get(f"Player{len(names) + 1}")) is not None:
            names.append(name)
        piles = [get(f"Pile{index + 1}") for index in range(PILE_COUNT)]
        if any(pile is None for pile in piles):
            raise ValueError("the record does not give the piles (Pile1 to Pile4): a full state "
                             "needs them")
        wagers = [(get(f"Wagers{seat + 1}") or "").split() for seat in range(len(names))]
        return cls.deal(names, wagers, [str(pile).split() for pile in piles])

    @classmethod
    def shuffled(cls, players: int, rng: random.Random, names: Sequence[str] | None = None
                 ) -> RivalsCore:
        """A new game: the 80 cards shuffled into four piles of 20, two starting wagers of
        different colours each from the ten starting cards (redealt until they are)."""
        if names is None:
            names = [f"P{seat + 1}" for seat in range(players)]
        if len(names) != players:
            raise ValueError(f"{len(names)} names for {players} players")
        cards = list(DECK)
        rng.shuffle(cards)
        piles = [cards[index * PILE_SIZE:(index + 1) * PILE_SIZE] for index in range(PILE_COUNT)]
        starting = [colour * 10 for colour in range(len(COLOURS)) for _ in range(START_WAGER_COPIES)]
        while True:
            rng.shuffle(starting)
            pairs = [starting[2 * seat:2 * seat + 2] for seat in range(players)]
            if all(pair[0] != pair[1] for pair in pairs):
                break
        return cls(tables_for(player_tokens(list(names))), pairs, piles)

    def copy(self) -> RivalsCore:
        """An independent copy: lists of small integers, copied by slicing."""
        other = self.__class__.__new__(self.__class__)
        other.tables = self.tables
        other.players = self.players
        other.gold = self.gold[:]
        other.supply = self.supply
        other.tops = self.tops[:]
        other.wagers = self.wagers[:]
        other.numbers = self.numbers[:]
        other.foot = self.foot[:]
        other.display = self.display[:]
        other.box = self.box[:]
        other.deck = self.deck[:]
        other.sizes = self.sizes
        other.pile = self.pile
        other.left = self.left
        other.player = self.player
        other.turn = self.turn
        other.phase = self.phase
        other.active = self.active
        other.high = self.high
        other.leader = self.leader
        other.expected = self.expected
        other.last = self.last
        return other

    def key(self) -> tuple[object, ...]:
        """Everything the position is, as a hashable value (display and box as multisets)."""
        return (self.players, tuple(self.gold), self.supply, tuple(self.tops), tuple(self.wagers),
                tuple(self.numbers), tuple(self.foot), tuple(sorted(self.display)),
                tuple(sorted(self.box)), tuple(self.deck), tuple(self.sizes), self.pile, self.left,
                self.player, self.turn, self.phase, self.active, self.high, self.leader,
                self.expected, self.last)

    def even(self) -> bool:
        """Whether the piles are of the more or less equal sizes the rulebook asks for
        (V-SETUP-PILES; full validation warns of others, and the game is played all the same)."""
        return max(self.sizes) - min(self.sizes) <= PILE_SPREAD

    def is_over(self) -> bool:
        """The game ends on the uncover of the last card of the last pile (V-END-LAST-CARD)."""
        return not self.deck

    def actor(self) -> int:
        """The seat that writes the next word: the player to move, the next caller of an
        auction, or its winner."""
        phase = self.phase
        if phase == START:
            return self.player
        if phase == CALLS:
            return self.expected
        return self.leader

    def to_move(self) -> int:
        """The seat that writes the next word (:meth:`actor`, by the name a search asks for:
        ``lcn.games.GameCore``)."""
        return self.actor()

    def fits(self, player: int, card: int) -> bool:
        """Whether ``card`` may go on ``player``'s expedition of its colour as it stands: a
        wager while it has no number card (V-PLACE-WAGER-FIRST), a number no lower than its
        last (V-PLACE-ASCENDING). A bidder weighs the display by this before an auction says
        who places; :meth:`legal_moves` offers the winner's placements by the same test."""
        rank = card % 10
        top = self.tops[player * 5 + card // 10]
        return rank >= top if rank else not top

    def word(self, move: int) -> str:
        return self.tables.words[move]

    def move(self, word: str) -> int:
        return self.tables.move(word)

    # -- the legal words ----------------------------------------------------------------

    def legal_moves(self) -> list[int]:
        """Every legal word, each once, as ``lcn.legal_moves`` offers them: a winner's
        placements in card order (any order of the same cards is legal, and :meth:`step`
        takes it, but listing one order is enough and keeps the list small)."""
        deck = self.deck
        if not deck:
            return []
        phase = self.phase
        if phase == START:
            player = self.player
            if not self.display:
                return [deck[-1]]
            base = BID + player * AMOUNTS
            return [deck[-1], *range(base + 1, base + self.gold[player] + 1)]
        if phase == CALLS:
            seat = self.expected
            base = BID + seat * AMOUNTS
            return [PASS + seat, *range(base + self.high + 1, base + self.gold[seat] + 1)]
        moves: list[int] = []
        if phase != BOXED:
            cards = sorted(set(self.display))
            tops = self.tops
            cell = self.leader * 5
            base = PLACE if phase == WON else MORE
            last = self.last
            for card in cards:
                if card < last:
                    continue
                rank = card % 10
                top = tops[cell + card // 10]
                if (rank >= top) if rank else not top:
                    moves.append(base + card)
            moves += [BOX + card for card in cards]
        moves.append(deck[-1])
        return moves

    def record_moves(self) -> list[int]:
        """Every word a record may write next, each once, in the order ``lcn.legal_moves``
        offers them: :meth:`legal_moves`, with the returns to the box in the order the cards
        came into the display, and, where the next card is a place the record leaves unknown
        (:class:`PartialCore`), an uncover of each card a copy of which is still unseen."""
        phase = self.phase
        deck = self.deck
        if phase == CALLS or not deck:
            return self.legal_moves()
        top = deck[-1]
        ups = [top] if top != UNKNOWN else [UP + card for card, copies in enumerate(self.free) if copies]
        if phase == START:
            return [*ups, *self.legal_moves()[1:]]
        moves = [move for move in self.legal_moves()[:-1] if not BOX <= move < BID]
        if phase != BOXED:
            moves += [BOX + card for card in dict.fromkeys(self.display)]
        return moves + ups

    def random_move(self, rng: random.Random) -> int:
        """A move drawn uniformly from :meth:`legal_moves`; the calls of an auction (the
        most frequent decisions) without listing them."""
        phase = self.phase
        if phase == START:
            player = self.player
            if not self.display:
                return self.deck[-1]
            pick = int(rng.random() * (self.gold[player] + 1))
            return BID + player * AMOUNTS + pick if pick else self.deck[-1]
        if phase == CALLS:
            seat = self.expected
            high = self.high
            pick = int(rng.random() * (max(self.gold[seat] - high, 0) + 1))
            return BID + seat * AMOUNTS + high + pick if pick else PASS + seat
        moves = self.legal_moves()
        return moves[int(rng.random() * len(moves))]

    # -- one word -------------------------------------------------------------------------

    def check(self, move: int) -> int:
        """0 when ``move`` is legal, else the :class:`Rule` it breaks first; nothing changes."""
        return self.copy().step(move)

    def step(self, move: int) -> int:
        """Play one word: 0 when done, else the :class:`Rule` broken and the state unchanged."""
        return self.play((move,))

    def play(self, moves: Iterable[int]) -> int:
        """Play ``moves`` in turn: 0 when all were played, else the :class:`Rule` the first
        refused one breaks, with the state as it was after the word before it.

        This is the whole of the rules of a word, written once: :meth:`step` plays one word,
        :meth:`check` judges one on a copy, and the quick verdict of validation plays a
        record's words in a few calls (the loop's names are looked up once, not once a
        word). Within a turn the checks come in the order of the engine's, so the code is
        the rule full validation reports first; nothing of a refused word is done.
        """
        deck, display, tops = self.deck, self.display, self.tops
        players = self.players
        following = NEXT[players]
        phase, player, left, turn = self.phase, self.player, self.left, self.turn
        code = 0
        for move in moves:
            if not deck:
                code = self._syntax(move, START, players) or Rule.END_LAST_CARD
                break
            if move < PLACE or move >= TO_BOX:  # up:, perhaps with >box
                if phase == CALLS:
                    code = Rule.AUCTION_END
                    break
                card = move if move < PLACE else move - TO_BOX
                top = deck[-1]
                if card != top:
                    if top != UNKNOWN:
                        code = Rule.UNCOVER_TOP
                        break
                    # A place the record leaves unknown (PartialCore): the card written,
                    # while a copy of it is unseen.
                    if not self.free[card]:
                        code = Rule.SETUP_CARDS
                        break
                # The card into the display, or the box when nobody can use it; the pile's
                # end (the supply shared out); the next turn.
                # Of use while a player's top of its colour is no higher (a wager: while a
                # player has none).
                if min(tops[COLUMN_OF[card]]) <= RANK_OF[card]:
                    if move >= TO_BOX:
                        code = Rule.UNCOVER_USELESS
                        break
                    display.append(card)
                else:
                    self.box.append(card)
                if deck.pop() != card:
                    self.free[card] -= 1
                left -= 1
                if not left and self.pile < PILE_COUNT - 1:
                    each = self.supply // players
                    if each:
                        gold = self.gold
                        for seat in range(players):
                            gold[seat] += each
                        self.supply -= each * players
                    self.pile += 1
                    left = self.sizes[self.pile]
                if phase == START:
                    player = (player + 1) % players
                else:
                    # The auction is over: nothing of it stays, so that equal tables have
                    # equal keys.
                    player = (self.leader + 1) % players
                    phase = START
                    self.active = self.high = self.leader = self.expected = 0
                    self.last = -1
                turn += 1
                continue
            if move < BID:
                kind = move // KINDS
                card = move - kind * KINDS
                if kind == 3:  # box:
                    if phase == START:
                        code = Rule.TURN_ACTION
                        break
                    if phase == CALLS:
                        code = Rule.AUCTION_END
                        break
                    if phase == BOXED or card not in display:
                        code = Rule.AUCTION_BOX
                        break
                    display.remove(card)
                    self.box.append(card)
                    phase = BOXED
                    continue
                if kind == 1:  # place:
                    if phase != WON:
                        code = Rule.TURN_ACTION if phase == START else \
                            Rule.AUCTION_END if phase == CALLS else Rule.TURN_WORD
                        break
                elif phase != PLACING:  # ,card continues another word
                    code = self._syntax(move, phase, players)
                    break
                if card not in display:
                    code = Rule.PLACE_DISPLAY
                    break
                cell = self.leader * 5 + card // 10
                rank = card % 10
                top = tops[cell]
                if rank:
                    if rank < top:
                        code = Rule.PLACE_ASCENDING
                        break
                    tops[cell] = rank
                    self.numbers[cell] += 1
                    self.foot[cell] += FOOT_OF[card]
                else:
                    if top:
                        code = Rule.PLACE_WAGER_FIRST
                        break
                    self.wagers[cell] += 1
                display.remove(card)
                self.last = card
                phase = PLACING
                continue
            seat = SEAT_OF[move]
            amount = AMOUNT_OF[move]
            if phase > WON:  # PLACING, BOXED
                code = Rule.TURN_WORD  # a call after the winner's words
                break
            if seat >= players:
                code = Rule.TURN_PLAYER
                break
            if phase == CALLS:
                active = self.active
                if seat != self.expected:
                    code = Rule.AUCTION_PASS_OUT if not active >> seat & 1 else Rule.AUCTION_ORDER
                    break
                if amount < 0:
                    active &= ~(1 << seat)
                    leader = self.leader
                    if active == 1 << leader:
                        price = self.high
                        self.gold[leader] -= price
                        self.supply += price
                        phase = WON
                        self.last = -1
                    else:
                        self.expected = following[active][seat]
                    self.active = active
                    continue
                if amount < 1:
                    code = Rule.AUCTION_MIN_BID
                elif amount <= self.high:
                    code = Rule.AUCTION_RAISE
                elif amount > self.gold[seat]:
                    code = Rule.AUCTION_FUNDS
                else:
                    self.high = amount
                    self.leader = seat
                    self.expected = following[active][seat]
                    continue
                break
            if phase == WON:
                code = Rule.AUCTION_END
                break
            if not display:
                code = Rule.AUCTION_DISPLAY
            elif seat != player:
                code = Rule.TURN_ORDER
            elif amount < 0:
                code = Rule.AUCTION_OPEN
            elif amount < 1:
                code = Rule.AUCTION_MIN_BID
            elif amount > self.gold[seat]:
                code = Rule.AUCTION_FUNDS
            else:
                phase = CALLS
                everyone = (1 << players) - 1
                self.active = everyone
                self.high = amount
                self.leader = seat
                self.expected = following[everyone][seat]
                continue
            break
        self.phase = phase
        self.player = player
        self.left = left
        self.turn = turn
        return code

    @staticmethod
    def _syntax(move: int, phase: int, players: int) -> int:
        """The reader's verdict on a word that does not fit where it is written, or 0.

        ``,card`` continues the word before it: after a call (or alone) the reader takes it
        for a call, of an unknown player when it ends in a number; after ``box:`` it makes
        the card unreadable. ``place:`` and ``box:`` need an auction before them, and a call
        names one of the players.
        """
        if MORE <= move < BOX:
            if phase == BOXED:
                return Rule.SETUP_CARDS
            return Rule.TURN_PLAYER if RANK_OF[move - MORE] else Rule.TURN_WORD
        if phase == START and (PLACE <= move < MORE or BOX <= move < BID):
            return Rule.TURN_ACTION
        if BID <= move < TO_BOX and SEAT_OF[move] >= players:
            return Rule.TURN_PLAYER
        return 0

    def score(self) -> tuple[int, ...]:
        """Each player's points: per expedition footprints × (1 + wagers), plus 8 for four
        number cards or more (V-SCORE-*), plus the gold held (V-SCORE-GOLD)."""
        points = list(self.gold)
        numbers, foot, wagers = self.numbers, self.foot, self.wagers
        for cell in range(self.players * 5):
            if numbers[cell]:
                points[cell // 5] += foot[cell] * (1 + wagers[cell]) \
                    + (BONUS_POINTS if numbers[cell] >= BONUS_NUMBERS else 0)
        return tuple(points)

    def playout(self, rng: random.Random) -> int:
        """Play uniformly random legal words to the end of the game; the words played."""
        step, random_move = self.step, self.random_move
        words = 0
        while self.deck:
            step(random_move(rng))
            words += 1
        return words

    # -- a simple player --------------------------------------------------------------------

    def gain(self, player: int, card: int) -> float:
        """What placing ``card`` now is worth to ``player``: its footprints times the wagers,
        the bonus when it is the fourth number, less the numbers it shuts out while cards
        are still to come; a wager is worth more early. Negative when it cannot be placed."""
        cell = player * 5 + card // 10
        rank = card % 10
        top = self.tops[cell]
        left = len(self.deck) / 80
        if not rank:
            if top:
                return -99.0
            return 7.0 * left - 2.5 + 1.5 * self.wagers[cell]
        if rank < top:
            return -99.0
        multiplier = 1 + self.wagers[cell]
        gain: float = FOOT_OF[card] * multiplier
        if self.numbers[cell] == BONUS_NUMBERS - 1:
            gain += BONUS_POINTS * (0.5 + left / 2)
        return gain - 0.35 * SKIPPED[card][top] * multiplier * left

    def worth(self, player: int) -> float:
        """The display's worth to ``player``: the gains of its cards worth placing."""
        gain = self.gain
        total = 0.0
        for card in self.display:
            value = gain(player, card)
            if value > 0.4:
                total += value
        return total

    def heuristic_move(self, rng: random.Random, epsilon: float = 0.05) -> int:
        """A plausible word: bid up to half of what the display is worth to the bidder,
        place the cards worth placing (lowest first, so that higher ones still fit), return
        to the box the card an opponent wants most, then uncover; a uniformly random legal
        word with chance ``epsilon``, so that playouts do not all run alike."""
        if rng.random() < epsilon:
            return self.random_move(rng)
        phase = self.phase
        deck = self.deck
        if phase == START:
            player = self.player
            if self.display and self.gold[player] and self.worth(player) * 0.5 >= 1:
                return BID + player * AMOUNTS + 1
            return deck[-1]
        if phase == CALLS:
            seat = self.expected
            limit = min(self.gold[seat], int(self.worth(seat) * (0.4 + 0.2 * rng.random())))
            if limit > self.high:
                return BID + seat * AMOUNTS + self.high + 1
            return PASS + seat
        if phase == BOXED:
            return deck[-1]
        winner = self.leader
        gain = self.gain
        base = PLACE if phase == WON else MORE
        last = self.last
        for card in sorted(self.display):
            if card >= last and gain(winner, card) > 0.4:
                return base + card
        threat, target = 2.5, -1
        for card in self.display:
            for other in range(self.players):
                if other != winner:
                    value = gain(other, card)
                    if value > threat:
                        threat, target = value, card
        if target >= 0:
            return BOX + target
        return deck[-1]

    def playout_move(self, rng: random.Random) -> int:
        """The word a search's playouts play (``lcn.search.PlayingCore``): the rule-based
        player's, so that a line is judged as plausible players would go on with it."""
        return self.heuristic_move(rng)

    def heuristic_playout(self, rng: random.Random, epsilon: float = 0.05) -> int:
        """Play :meth:`heuristic_move` to the end of the game; the words played."""
        step, choose = self.step, self.heuristic_move
        words = 0
        while self.deck:
            if step(choose(rng, epsilon)):
                raise AssertionError("the heuristic player chose an illegal word")  # pragma: no cover
            words += 1
        return words


class PartialCore(RivalsCore):
    """A game whose record leaves some piles' order unknown (no ``Pile`` tag for them).

    Such a record names each card as it is uncovered, so the game can be followed all the
    same, as full validation follows it: a place of an unknown pile (:data:`UNKNOWN` in the
    deck) takes the card the uncover names when a copy of it is still unseen, and refuses
    it (V-SETUP-CARDS) when every copy is elsewhere already; a pile that is given is
    followed card by card. ``free`` counts the unseen copies of each card, those of the
    given piles left out; :meth:`RivalsCore.play` reads it where the deck holds UNKNOWN.

    It replays records (the quick verdict of validation); it lists no legal words while an
    unknown card is on top, which a search deals first (``lcn.games.rivals.sampler``).
    """

    __slots__ = ("free",)

    def copy(self) -> PartialCore:
        other = RivalsCore.copy(self)
        assert isinstance(other, PartialCore)
        other.free = self.free[:]
        return other

    def key(self) -> tuple[object, ...]:
        return (*RivalsCore.key(self), tuple(self.free))

"""The express check of Lost Cities: Rivals: a legal record in canonical form, decided in one pass.

Most Rivals records a validator sees in bulk are legal games written as the writer writes
them (``1. up:Y7``, ``2. Ada1 Bo2 Ada- place:Y7 up:R4 share:3 rest:1``). For those the rules
come down to a few list operations per word on small integers (cards are ``colour * 11 +
value``, a wager's value 0), which this module does without the engine's per-turn objects
(moves, bids, items, problems). Anything else gives up and the validator runs the engine of
``rivals.py``, which stays the reference: a lenient spelling (another letter case, a seat
form the writer would not write, leading zeros), any broken rule, a ``PileSizes`` tag, a part
of the piles, a share-out written in a record without piles, an unusual setup. Every check
here is one of the engine's, with its rule ID (``seeds/rivals.md``) beside it; a game decided
here is one the engine finds nothing to say about, not even a warning.

Each word is classified by one dictionary look-up: the tables below hold every canonical
word that is not a player's call (move numbers, ``up:``, ``box:``, ``share:``, ``rest:``,
with what each says as a tuple of small integers), and a game's calls (``Ada3``, ``Bo-``) are
a table of its own, made from its players' tokens once per game (ten entries a player: the
pass and the bids of one digit; a bid of two digits, seldom made, is read from its last two
characters). A word that is in no table is not written as the writer writes it, and the
check gives up. Who calls next in an auction is read from a table by the players still in
it (a bit mask) and the seat that called. Checks that other checks imply are not made twice:
a call after an auction's end, or a share-out word where no pile ran out, stands where the
uncover or the next move number must, and is neither; a turn after the last card finds no
card left to uncover.

Nothing is remembered between games: the tables below are made once, at import (about 450
words and as many small tuples).
"""

from __future__ import annotations

from itertools import accumulate, chain
from typing import TYPE_CHECKING

from .base import ExpressResult
from .rivals import (
    BONUS_NUMBERS,
    BONUS_POINTS,
    COLOURS,
    PILE_COUNT,
    PILE_SIZE,
    START_WAGER_COPIES,
    TOTAL_CARDS,
    TOTAL_GOLD,
    card_set,
    player_tokens,
)

if TYPE_CHECKING:
    from ..model import GameRecord

#: Most players of a game of Rivals.
MAX_PLAYERS = 4

#: Each card's canonical text → its number (colour index × 11 + value, a wager's value 0).
CARDS: dict[str, int] = {
    card: COLOURS.index(card[0]) * 11 + (0 if card[1:] == "w" else int(card[1:]))
    for card in card_set()}
#: Footprints by value (V-SCORE-FOOTPRINTS): none on a wager, one on 2-5, two on 6-10.
FOOTPRINTS = [0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2]
#: What a card is: (number, colour index, value, footprints).
_Card = tuple[int, int, int, int]
#: Each card's canonical text → what it is (the cards a winner places).
PLACED: dict[str, _Card] = {
    text: (card, card // 11, card % 11, FOOTPRINTS[card % 11]) for text, card in CARDS.items()}
#: Not a card: the number no display holds.
NO_CARD: _Card = (-1, 0, 0, 0)
#: The uncovers as written (``up:R4``, ``up:R4>box``) → (number, colour, value, to the box,
#: the card as written).
UPS: dict[str, tuple[int, int, int, bool, str]] = {
    f"up:{text}{suffix}": (card, colour, value, suffix == ">box", text)
    for text, (card, colour, value, _) in PLACED.items() for suffix in ("", ">box")}
#: The cards an auction's winner takes into the box (``box:Gw``) → the card's number.
BOXES: dict[str, int] = {f"box:{text}": card for text, card in CARDS.items()}
#: A share-out as written (``share:3``, ``rest:1``) → the coins. A larger number than all
#: the gold there is cannot be right: it is left out, and so is any other spelling.
SHARES: dict[str, int] = {f"share:{coins}": coins for coins in range(TOTAL_GOLD + 1)}
RESTS: dict[str, int] = {f"rest:{coins}": coins for coins in range(TOTAL_GOLD + 1)}
#: Every card of the piles as written, copies repeated, sorted (V-SETUP-CARDS).
DECK = sorted(card for card, copies in card_set().items() for _ in range(copies))
#: Copies of each card number in the piles (0 for numbers that are no card).
COPIES = [0] * (len(COLOURS) * 11)
for _card, _copies in card_set().items():
    COPIES[CARDS[_card]] = _copies
#: A player's starting wagers as written (``Rw Bw``: two of different colours) → their
#: colour indexes (V-SETUP-START-WAGERS).
WAGERS = {f"{first}w {second}w": (COLOURS.index(first), COLOURS.index(second))
          for first in COLOURS for second in COLOURS if first != second}
#: The move number that starts each turn, as the writer writes it (LCN-MOVE-NUMBER).
NUMBERS = [f"{n}." for n in range(1, 2 * TOTAL_CARDS + 2)]
#: The seats' tags, the piles' tags.
_PLAYER_TAGS = [f"Player{seat + 1}" for seat in range(MAX_PLAYERS + 1)]
_WAGER_TAGS = [f"Wagers{seat + 1}" for seat in range(MAX_PLAYERS)]
_PILE_TAGS = [f"Pile{index + 1}" for index in range(PILE_COUNT)]
_NO_PILES = [None] * PILE_COUNT
#: Where each pile ends when none is given (a share-out follows), and then never.
_ENDS = [PILE_SIZE * (index + 1) for index in range(PILE_COUNT - 1)] + [-1]
#: A call's ending after a player's token → (seat, amount; 0 for a pass), by seat: a pass
#: and the bids of one digit (nearly all bids; those of two digits are read by ``_long_bid``).
_CALLS = [[("-", (seat, 0)), *((str(amount), (seat, amount)) for amount in range(1, 10))]
          for seat in range(MAX_PLAYERS)]
#: The amounts of two digits a bid can have (no player has more gold than there is).
_LONG_AMOUNTS = {str(amount): amount for amount in range(10, TOTAL_GOLD + 1)}


def _next_seats(players: int) -> list[list[int]]:
    """By the seats still in an auction (bit ``1 << seat`` set) and a seat that called: the
    next seat clockwise still in it (``RivalsVariant._next_active``)."""
    table = []
    for mask in range(1 << players):
        row = []
        for seat in range(players):
            after = [(seat + step) % players for step in range(1, players + 1)]
            row.append(next((other for other in after if mask >> other & 1), seat))
        table.append(row)
    return table


#: By number of players: the auction's next seat (``_next_seats``).
_NEXT = [[], [], *(_next_seats(players) for players in range(2, MAX_PLAYERS + 1))]


def _tokens(names: list[str]) -> list[str]:
    """The players' tokens (``player_tokens``), at once for the usual names: distinct words of
    ASCII letters, none of them ``P``, are their own tokens."""
    folded = [name.lower() for name in names]
    if all(name.isascii() and name.isalpha() for name in names) and "p" not in folded \
            and len(set(folded)) == len(names):
        return names
    return player_tokens(names)


def _call_table(tokens: list[str]) -> dict[str, tuple[int, int]]:
    """Each call of one digit as the writer writes it → (seat, amount; 0 for a pass): ``Ada3``,
    ``Bo-``, ``P23`` (P2 bids 3)."""
    return {token + ending: call for seat, token in enumerate(tokens) for ending, call in _CALLS[seat]}


def _long_bid(word: str, tokens: list[str]) -> tuple[int, int] | None:
    """A bid of two digits as written (``Ada12``, ``P212``: P2 bids 12) → (seat, amount)."""
    who = word[:-2]
    amount = _LONG_AMOUNTS.get(word[-2:])
    return None if amount is None or who not in tokens else (tokens.index(who), amount)


def express_check(record: GameRecord, words: list[str]) -> ExpressResult | None:
    """Validate a Rivals record from its words, or return None to have it done in full.

    ``words`` are the movetext's words before the termination, move numbers included
    (``Variant.express_check``).
    """
    tags = record.tags.mapping
    get = tags.get
    # -- the seats (V-SETUP-PLAYERS): Player1..PlayerN, 2 to 4 of them, no other Player tag
    names: list[str] = []
    for tag in _PLAYER_TAGS:
        name = get(tag)
        if name is None:
            break
        names.append(name)
    players = len(names)
    # Any other tag whose name holds `Player` (`Player5`, `PlayerX`) makes one more.
    if not 2 <= players <= MAX_PLAYERS or "PileSizes" in tags \
            or "\n".join(tags).count("Player") != players:
        return None
    tokens = _tokens(names)
    calls = _call_table(tokens)

    # -- the starting wagers (V-SETUP-START-WAGERS, V-SETUP-START-WAGER-CARDS)
    # Per player and colour (slot seat × 5 + colour): wagers, numbers, footprints placed.
    wagers = [0] * (players * 5)
    numbers = [0] * (players * 5)
    steps = [0] * (players * 5)
    dealt = [0] * 5
    for seat in range(players):
        text = get(_WAGER_TAGS[seat])
        if text is None:
            return None
        pair = WAGERS.get(text) or WAGERS.get(" ".join(text.split()))
        if pair is None:
            return None
        for colour in pair:
            dealt[colour] += 1
            wagers[seat * 5 + colour] += 1
    if max(dealt) > START_WAGER_COPIES:
        return None

    # -- the piles (V-SETUP-PILES, V-SETUP-CARDS): all four given, or none and no share-out
    given = [get(tag) for tag in _PILE_TAGS]
    # The cards as written in the order they are uncovered, and one more that is no card: a
    # turn after the last card uncovers no top (V-UNCOVER-TOP, V-END-LAST-CARD).
    deck: list[str] | None
    if given == _NO_PILES:
        deck, ends = None, _ENDS
    elif None in given:
        return None
    else:
        piles = [text.split() for text in given if text is not None]
        sizes = list(map(len, piles))
        deck = list(chain.from_iterable(piles))
        if sorted(deck) != DECK or min(sizes) < 1 or max(sizes) - min(sizes) > 2:
            return None  # V-SETUP-CARDS; sizes that sum to 80 but are uneven: a warning
        deck.append("")
        ends = list(accumulate(sizes))
        ends[-1] = -1  # the last pile's end has no share-out
    # Copies of each card not uncovered yet, where no piles are given.
    free = list(COPIES)

    gold = [TOTAL_GOLD // players] * players
    supply = 0
    display: list[int] = []
    # By colour, then seat: the highest number placed (0: none yet); and by colour, the
    # lowest of those (what decides whether an uncovered card is of use).
    tops = [[0] * players for _ in range(5)]
    lowest = [0] * 5
    next_seat = _NEXT[players]
    everyone = (1 << players) - 1
    ups, calls_get, turn_numbers = UPS.get, calls.get, NUMBERS
    pile = 0
    boundary = ends[0]
    # Whose turn it is: seat (first + turn) % players; an auction's winner moves it on.
    first = 0
    turn = 0
    count = len(words)
    words = [*words, ""]  # a word that is in no table after the last: no bound checked
    at = 0
    while at < count:
        # -- the move number (LCN-MOVE-NUMBER), then the turn's words up to the next one
        if words[at] != turn_numbers[turn]:
            return None
        at += 1
        up = ups(words[at])
        if up is None:
            # -- an auction (V-AUCTION-*): bids and passes, clockwise from the player
            word = words[at]
            call = calls_get(word) or _long_bid(word, tokens)
            if call is None:
                return None  # an empty turn, or a word that starts no turn
            if not display:
                return None  # V-AUCTION-DISPLAY
            winner, high = call
            if winner != (first + turn) % players:
                return None  # the opening call out of turn (V-TURN-ORDER)
            if not high:
                return None  # V-AUCTION-OPEN
            if high > gold[winner]:
                return None  # the opening bid beyond the player's gold (V-AUCTION-FUNDS)
            left = players
            active = everyone
            expected = next_seat[active][winner]
            while True:
                at += 1
                call = calls_get(words[at]) or _long_bid(words[at], tokens)
                if call is None:
                    break
                seat, amount = call
                if seat != expected:
                    return None  # V-TURN-ORDER, V-AUCTION-ORDER, V-AUCTION-PASS-OUT
                if amount:
                    if amount <= high or amount > gold[seat]:
                        return None  # V-AUCTION-RAISE, V-AUCTION-FUNDS
                    high, winner = amount, seat
                else:
                    left -= 1
                    if left == 1:
                        # The auction is over: a call after it stands where the uncover
                        # must (V-AUCTION-END, V-AUCTION-UNCOVER), and is none.
                        at += 1
                        break
                    active ^= 1 << seat
                expected = next_seat[active][seat]
            if left > 1:
                return None  # V-AUCTION-END: someone has not passed
            gold[winner] -= high
            supply += high
            first = winner - turn  # the winner plays the turn; the next player follows
            base = winner * 5
            word = words[at]
            if word.startswith("place:"):
                for text in word[6:].split(","):
                    card, colour, value, footprints = PLACED.get(text, NO_CARD)
                    if card not in display:
                        return None  # V-PLACE-DISPLAY (or not a card as written)
                    display.remove(card)
                    column = tops[colour]
                    if value:
                        if value < column[winner]:
                            return None  # V-PLACE-ASCENDING
                        column[winner] = value
                        lowest[colour] = min(column)
                        numbers[base + colour] += 1
                        steps[base + colour] += footprints
                    elif column[winner]:
                        return None  # V-PLACE-WAGER-FIRST
                    else:
                        wagers[base + colour] += 1
                at += 1
            up = ups(words[at])
            if up is None:
                # The winner's card into the box, before the uncover: seldom taken.
                word = words[at]
                if word.startswith("box:"):
                    card = BOXES.get(word, -1)
                    if card not in display:
                        return None  # V-AUCTION-BOX
                    display.remove(card)
                    at += 1
                    up = ups(words[at])
                if up is None:
                    return None  # no uncover (V-AUCTION-UNCOVER), or not as written
        # -- the uncover (V-UNCOVER-*), then the share-out when a pile runs out (V-PILE-*)
        card, colour, value, to_box, written = up
        if deck is None:
            if not free[card]:
                return None  # V-SETUP-CARDS: every copy seen already
            free[card] -= 1
        elif deck[turn] != written:
            return None  # V-UNCOVER-TOP
        # Of use to a player who could place it (V-UNCOVER-USELESS): a number not below the
        # lowest top of its colour, a wager while someone has placed no number of it.
        if value >= lowest[colour]:
            if to_box:
                return None  # V-UNCOVER-USELESS
            display.append(card)
        turn += 1
        at += 1
        if turn == boundary:
            # A pile ran out, not the last: the supply is shared out, the rest stays. The
            # written share-out is optional; anywhere else a share-out word stands where
            # the next move number must (V-PILE-SHARE, V-END-LAST-CARD), and is none.
            pile += 1
            boundary = ends[pile]
            each, supply = divmod(supply, players)
            gold = [coins + each for coins in gold]
            share = SHARES.get(words[at], -1)
            if share >= 0:
                at += 1
            rest = RESTS.get(words[at], -1)
            if rest >= 0:
                at += 1
            if share not in (-1, each) or rest not in (-1, supply) or (
                    deck is None and (share >= 0 or rest >= 0)):
                return None  # V-PILE-SHARE, V-PILE-REMAINDER; or a record without piles

    # -- the scores (V-SCORE-*): footprints × (1 + wagers), 8 more for four numbers, gold
    totals = []
    for seat in range(players):
        total = gold[seat]
        for slot in range(seat * 5, seat * 5 + 5):
            total += steps[slot] * (1 + wagers[slot]) + (
                BONUS_POINTS if numbers[slot] >= BONUS_NUMBERS else 0)
        totals.append(total)
    return ExpressResult(names, totals, turn == TOTAL_CARDS, turn)

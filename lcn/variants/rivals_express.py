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

Nothing is remembered between games: the tables below are made once, at import.
"""

from __future__ import annotations

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

#: Each card's canonical text → its number (colour index × 11 + value, a wager's value 0).
CARDS: dict[str, int] = {
    card: COLOURS.index(card[0]) * 11 + (0 if card[1:] == "w" else int(card[1:]))
    for card in card_set()}
#: Copies of each card number in the piles (0 for numbers that are no card).
COPIES = [0] * (len(COLOURS) * 11)
for _card, _copies in card_set().items():
    COPIES[CARDS[_card]] = _copies
#: The wagers' texts → their colour index (the starting wagers, ``Wagers1``..).
WAGERS = {f"{colour}w": index for index, colour in enumerate(COLOURS)}
#: Footprints by value (V-SCORE-FOOTPRINTS): none on a wager, one on 2-5, two on 6-10.
FOOTPRINTS = [0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2]
#: The move number that starts each turn, as the writer writes it (LCN-MOVE-NUMBER).
NUMBERS = [f"{n}." for n in range(1, 2 * TOTAL_CARDS + 2)]
_DIGITS = "0123456789"
#: Tags this check reads; ``PileSizes`` and any other ``Player`` tag send a game to the engine.
_PILE_TAGS = tuple(f"Pile{index + 1}" for index in range(PILE_COUNT))


def _next_active(active: list[bool], seat: int, players: int) -> int:
    """The next seat clockwise still in the auction (``RivalsVariant._next_active``)."""
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if active[candidate]:
            return candidate
    return seat


def express_check(record: GameRecord, words: list[str]) -> ExpressResult | None:
    """Validate a Rivals record from its words, or return None to have it done in full.

    ``words`` are the movetext's words before the termination, move numbers included
    (``Variant.express_check``).
    """
    tags = record.tags.mapping
    # -- the seats (V-SETUP-PLAYERS): Player1..PlayerN, 2 to 4 of them, no other Player tag
    names: list[str] = []
    while (name := tags.get(f"Player{len(names) + 1}")) is not None:
        names.append(name)
    players = len(names)
    if not 2 <= players <= 4 or "PileSizes" in tags \
            or sum(1 for tag in tags if tag.startswith("Player")) != players:
        return None
    tokens = player_tokens(names)
    seat_of = {token: seat for seat, token in enumerate(tokens)}
    seat_form = any(token == f"P{seat + 1}" for seat, token in enumerate(tokens))

    # -- the starting wagers (V-SETUP-START-WAGERS, V-SETUP-START-WAGER-CARDS)
    # Per player and colour: highest number placed (0: none yet), wagers, numbers, footprints.
    tops = [[0] * players for _ in range(5)]  # by colour, then seat
    wagers = [0] * (players * 5)
    numbers = [0] * (players * 5)
    steps = [0] * (players * 5)
    dealt = [0] * 5
    for seat in range(players):
        text = tags.get(f"Wagers{seat + 1}")
        if text is None:
            return None
        pair = text.split()
        if len(pair) != 2 or pair[0] == pair[1]:
            return None
        for wager in pair:
            colour = WAGERS.get(wager)
            if colour is None:
                return None
            dealt[colour] += 1
            wagers[seat * 5 + colour] += 1
    if max(dealt) > START_WAGER_COPIES:
        return None

    # -- the piles (V-SETUP-PILES, V-SETUP-CARDS): all four given, or none and no share-out
    given = [tags.get(tag) for tag in _PILE_TAGS]
    piles: list[list[int]] | None
    free: list[int] | None
    if all(text is None for text in given):
        piles, free = None, list(COPIES)
        sizes = [PILE_SIZE] * PILE_COUNT
    elif any(text is None for text in given):
        return None
    else:
        piles, free = [], None
        counts = [0] * len(COPIES)
        for text in given:
            assert text is not None
            try:
                pile = [CARDS[card] for card in text.split()]
            except KeyError:
                return None
            for kept in pile:
                counts[kept] += 1
            piles.append(pile)
        sizes = [len(pile) for pile in piles]
        if counts != COPIES or min(sizes) < 1 or max(sizes) - min(sizes) > 2:
            return None  # V-SETUP-CARDS; sizes that sum to 80 but are uneven: a warning

    gold = [TOTAL_GOLD // players] * players
    supply = 0
    display: list[int] = []
    pile_index = in_pile = uncovered = 0
    player = 0
    turn = 0
    count = len(words)
    at = 0
    while at < count:
        # -- the move number (LCN-MOVE-NUMBER), then the turn's words up to the next one
        if turn >= len(NUMBERS) or words[at] != NUMBERS[turn]:
            return None
        at += 1
        if at == count or uncovered == TOTAL_CARDS:
            return None  # an empty turn, or a turn after the last card (V-END-LAST-CARD)
        word = words[at]
        actor = player
        if ":" not in word:
            # -- an auction (V-AUCTION-*): bids and passes, clockwise from the player
            if not display:
                return None  # V-AUCTION-DISPLAY
            active = [True] * players
            left = players
            high = 0
            winner = -1
            expected = player
            first = True
            while ":" not in word:
                if left == 1:
                    return None  # a call after the auction ended (V-AUCTION-END)
                if word[-1] == "-":
                    seat = seat_of.get(word[:-1], -1)
                    amount = 0
                else:
                    who = word.rstrip(_DIGITS)
                    digits = word[len(who):]
                    seat = seat_of.get(who, -1)
                    if seat < 0 and who == "P" and seat_form and digits:
                        # The seat form: `P23` is P2 bidding 3 (as the engine reads it).
                        seat = seat_of.get("P" + digits[0], -1)
                        digits = digits[1:]
                    if not digits or digits[0] == "0" or len(digits) > 2:
                        return None  # a lenient spelling, or a bid of 0 (V-AUCTION-MIN-BID)
                    amount = int(digits)
                if seat != expected or not active[seat]:
                    return None  # V-TURN-ORDER, V-AUCTION-ORDER, V-AUCTION-PASS-OUT
                if amount:
                    if amount <= high or amount > gold[seat]:
                        return None  # V-AUCTION-RAISE, V-AUCTION-FUNDS
                    high, winner = amount, seat
                else:
                    if first:
                        return None  # V-AUCTION-OPEN
                    active[seat] = False
                    left -= 1
                first = False
                expected = _next_active(active, seat, players)
                at += 1
                if at == count or words[at][0] in _DIGITS:
                    return None  # no uncover (V-AUCTION-UNCOVER)
                word = words[at]
            if left > 1:
                return None  # V-AUCTION-END: someone has not passed
            gold[winner] -= high
            supply += high
            actor = winner
            base = winner * 5
            if word.startswith("place:"):
                for text in word[6:].split(","):
                    card = CARDS.get(text, -1)
                    if card not in display:
                        return None  # V-PLACE-DISPLAY (or not a card as written)
                    display.remove(card)
                    colour, value = divmod(card, 11)
                    slot = base + colour
                    if value:
                        if value < tops[colour][winner]:
                            return None  # V-PLACE-ASCENDING
                        tops[colour][winner] = value
                        numbers[slot] += 1
                        steps[slot] += FOOTPRINTS[value]
                    elif tops[colour][winner]:
                        return None  # V-PLACE-WAGER-FIRST
                    else:
                        wagers[slot] += 1
                at += 1
                if at == count:
                    return None
                word = words[at]
            if word.startswith("box:"):
                card = CARDS.get(word[4:], -1)
                if card not in display:
                    return None  # V-AUCTION-BOX
                display.remove(card)
                at += 1
                if at == count:
                    return None
                word = words[at]
        # -- the uncover (V-UNCOVER-*), then the share-out when a pile runs out (V-PILE-*)
        if not word.startswith("up:"):
            return None
        text = word[3:]
        to_box = text.endswith(">box")
        card = CARDS.get(text[:-4] if to_box else text, -1)
        if card < 0:
            return None
        if piles is not None:
            if piles[pile_index][in_pile] != card:
                return None  # V-UNCOVER-TOP
        else:
            assert free is not None
            if not free[card]:
                return None  # V-SETUP-CARDS: every copy seen already
            free[card] -= 1
        colour, value = divmod(card, 11)
        # Useful to a player who could place it (V-UNCOVER-USELESS): the lowest top decides.
        lowest = min(tops[colour])
        if (value >= lowest) if value else not lowest:
            if to_box:
                return None  # V-UNCOVER-USELESS
            display.append(card)
        uncovered += 1
        in_pile += 1
        at += 1
        share = rest = -1
        if at < count and words[at].startswith("share:"):
            share = _coins(words[at][6:])
            at += 1
        if at < count and words[at].startswith("rest:"):
            rest = _coins(words[at][5:])
            at += 1
        if in_pile >= sizes[pile_index] and pile_index < PILE_COUNT - 1:
            each, supply = divmod(supply, players)
            for seat in range(players):
                gold[seat] += each
            pile_index += 1
            in_pile = 0
            if share not in (-1, each) or rest not in (-1, supply) or (
                    piles is None and (share >= 0 or rest >= 0)):
                return None  # V-PILE-SHARE, V-PILE-REMAINDER; or a record without piles
        elif share != -1 or rest != -1:
            return None  # no pile ran out, or the last did (V-PILE-SHARE, V-END-LAST-CARD)
        player = (actor + 1) % players
        turn += 1

    # -- the scores (V-SCORE-*): footprints × (1 + wagers), 8 more for four numbers, gold
    totals = []
    for seat in range(players):
        total = gold[seat]
        for slot in range(seat * 5, seat * 5 + 5):
            total += steps[slot] * (1 + wagers[slot]) + (
                BONUS_POINTS if numbers[slot] >= BONUS_NUMBERS else 0)
        totals.append(total)
    return ExpressResult(names, totals, uncovered == TOTAL_CARDS, turn)


def _coins(text: str) -> int:
    """A written number of coins in canonical form; -2 (never a share) for anything else."""
    if text.isascii() and text.isdigit() and len(text) <= 3 and (text == "0" or text[0] != "0"):
        return int(text)
    return -2

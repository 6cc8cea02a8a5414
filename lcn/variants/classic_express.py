"""The express check of classic games: the common record decided from its words alone.

Nearly every record a validator sees in bulk (engine self-play, site exports) is a legal
game written in canonical form, with either the whole deal or none of it. For those, the
rules come down to a few list and dictionary operations per turn on small integers, which
this module does without building the model (turns, the state's places of every card,
the score sheet). Anything else (a broken rule, a lenient spelling, a part of the deal, a
``/d=`` draw, a missing player tag) makes it give up, and the validator runs the full
engine of ``classic.py``, which stays the reference: every check here is one of its checks,
with the same rule (the rule IDs of ``seeds/classic.md`` are named beside each).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import ExpressResult

if TYPE_CHECKING:
    from ..model import GameRecord
    from .classic import ClassicConfig

#: A turn's canonical text → (discard, card id, column (player's first column + colour),
#: colour, value (0: wager), draw source (-1: the draw pile, else a discard pile's colour)).
_Move = tuple[bool, int, int, int, int, int]


class _Tables:
    """What the check needs of a card set, made once per card set.

    Cards are small integers here (a colour's eleven kinds: the wager, then 2 to 10), so
    that a hand is a list of counts and every step is a list index.
    """

    __slots__ = ("all_ids", "ids", "limits", "moves", "numbers")

    def __init__(self, config: ClassicConfig) -> None:
        colours = config.colours
        kinds = len(config.values) + 1
        self.ids: dict[str, int] = {}
        #: Copies of each card in the game: the wager's copies, one of each number.
        self.limits = [0] * (len(colours) * kinds)
        #: Each player's moves: the column of an expedition is the player's own.
        self.moves: tuple[dict[str, _Move], dict[str, _Move]] = ({}, {})
        for colour_index, colour in enumerate(colours):
            for kind, value in enumerate((0, *config.values)):
                card = f"{colour}{value if value else 'w'}"
                card_id = colour_index * kinds + kind
                self.ids[card] = card_id
                self.limits[card_id] = config.wagers if value == 0 else 1
                for player, moves in enumerate(self.moves):
                    column = player * len(colours) + colour_index
                    for discard in (False, True):
                        left = ("x" if discard else "") + card
                        moves[left + "/d"] = (discard, card_id, column, colour_index, value, -1)
                        for source, pile in enumerate(colours):
                            moves[f"{left}/{pile}"] = (discard, card_id, column, colour_index, value,
                                                       source)
        #: Every card of the game, wager copies repeated, sorted: a deal is valid when its
        #: cards, sorted, are exactly these (C-SETUP-DEAL, C-CARD-UNIQUE).
        self.all_ids = sorted(self.ids[card] for card in config.all_cards())
        #: The move number written before the first player's turn of each round, for the
        #: usual lengths of a game (a longer one, drawing from discard piles, is left to
        #: the full engine).
        self.numbers = [f"{n}." for n in range(1, 4 * config.total_cards)]


_TABLES: dict[ClassicConfig, _Tables] = {}
#: The seats' tags of a classic game: any other ``Player...`` tag is left to the full engine.
_SEATS = frozenset(("Player1", "Player2"))


def express_check(record: GameRecord, words: list[str], config: ClassicConfig,
                  players: list[str]) -> ExpressResult | None:
    """Validate a classic record in canonical form, or return None to have it done in full."""
    tags = record.tags.mapping
    if "Player1" not in tags or "Player2" not in tags \
            or any(tag.startswith("Player") for tag in tags if tag not in _SEATS):
        return None  # the setup says something about the seats (C-SETUP-PLAYERS)
    tables = _TABLES.get(config)
    if tables is None:
        tables = _TABLES[config] = _Tables(config)
    numbers = tables.numbers
    hand_size = config.hand_size
    pile_size = config.pile_size
    colours = len(config.colours)
    hand: list[int] = [0] * len(tables.limits)
    other: list[int] = list(hand)

    hand1, hand2, deck_text = tags.get("Hand1"), tags.get("Hand2"), tags.get("Deck")
    deck: list[int] | None = None
    if hand1 is not None and hand2 is not None and deck_text is not None:
        first, second = hand1.split(), hand2.split()
        if len(first) != hand_size or len(second) != hand_size:
            return None
        try:
            dealt = list(map(tables.ids.__getitem__, first + second + deck_text.split()))
        except KeyError:
            return None  # a card not in canonical form, or not of this game (C-SETUP-DEAL)
        if sorted(dealt) != tables.all_ids:
            return None  # a deal the full engine has something to say about (C-SETUP-DEAL)
        for card in dealt[:hand_size]:
            hand[card] += 1
        for card in dealt[hand_size:2 * hand_size]:
            other[card] += 1
        deck = dealt[2 * hand_size:]
        unknown = other_unknown = 0
    elif hand1 is not None or hand2 is not None or deck_text is not None:
        return None  # a part of the deal: left to the full engine
    else:
        # Without the deal each hand has unknown slots; a card placed that is not known to
        # be in the hand takes one (docs/hidden-information.md).
        unknown = other_unknown = hand_size
    #: Copies of each card whose place the record has shown (without the deal).
    seen = [0] * len(tables.limits)
    limits = tables.limits

    piles: list[list[int]] = [[] for _ in range(colours)]
    tops = [0] * (2 * colours)
    columns: list[list[int]] = [[] for _ in range(2 * colours)]
    if words[:1] == ["1."]:
        # Move numbers as the writer puts them, before every round: every third word, with
        # the number of its round and one dot (LCN-MOVE-NUMBER), and a turn after each.
        # Records numbered any other way (or only in part) are left to the full engine.
        if len(words) % 3 == 1 or words[::3] != numbers[:(len(words) + 2) // 3]:
            return None
        words = words.copy()
        del words[::3]
    moves, other_moves = tables.moves
    drawn = 0
    source = -1  # the last turn's draw
    try:
        for word in words:
            move = moves.get(word)
            if move is None:
                return None  # not a turn in canonical form (or a move number out of place)
            discard, card, column, colour, value, source = move
            if hand[card]:
                hand[card] -= 1
            elif deck is not None:
                return None  # not in the hand (C-HAND-CARD)
            else:
                # An unknown slot holds it, if no copy is left elsewhere (C-CARD-UNIQUE) and
                # a slot is left (C-HAND-COUNT).
                if seen[card] >= limits[card] or not unknown:
                    return None
                seen[card] += 1
                unknown -= 1
            if discard:
                piles[colour].append(card)
            else:
                top = tops[column]
                if value:
                    if value <= top:
                        return None  # C-PLACE-ASCENDING
                    tops[column] = value
                elif top:
                    return None  # C-PLACE-WAGER-FIRST
                columns[column].append(value)
            if source < 0:  # C-DRAW-DECK
                if deck is not None:
                    hand[deck[drawn]] += 1  # IndexError past the last card: below
                elif drawn == pile_size:
                    return None
                else:
                    unknown += 1
                drawn += 1
            else:
                pile = piles[source]
                if not pile or (discard and source == colour):
                    return None  # C-DRAW-PILE, C-DRAW-NOT-JUST-DISCARDED
                hand[pile.pop()] += 1
            hand, other = other, hand
            unknown, other_unknown = other_unknown, unknown
            moves, other_moves = other_moves, moves
    except IndexError:
        return None  # a draw after the last card of the draw pile (C-END-LAST-DRAW)
    over = drawn == pile_size
    if over and source >= 0:
        # The last card was drawn before the last turn: that turn and any between came
        # after the end (C-END-LAST-DRAW).
        return None

    # C-SCORE-*: (sum − cost) × (1 + wagers), plus the bonus for a long expedition.
    cost, bonus, bonus_length = config.cost, config.bonus, config.bonus_length
    totals = []
    for player in range(2):
        total = 0
        for cards in columns[player * colours:(player + 1) * colours]:
            if cards:
                total += (sum(cards) - cost) * (1 + cards.count(0)) + (
                    bonus if len(cards) >= bonus_length else 0)
        totals.append(total)
    return ExpressResult(players, totals, over, len(words))

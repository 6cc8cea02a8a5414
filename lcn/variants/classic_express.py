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

import re
from typing import TYPE_CHECKING

from ..model import SUFFIX_GLYPHS
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

    __slots__ = ("all_ids", "heads", "ids", "limits", "moves", "numbers", "others", "spellings")

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
        #: The words that are no turn (see ``express_check``): the usual move numbers, by
        #: the index of the turn each stands before (`N.` the first player's turn of round
        #: N, `N...` the second's); then the numeric glyphs and the suffix glyphs standing
        #: alone (-1). A table of their own, looked up for a word that is no turn of the
        #: moves' tables: a turn's step has no test for them.
        self.others: dict[str, int] = {}
        others = self.others
        for n in range(1, 4 * config.total_cards):
            for dots in (".", "..", "..."):
                others[f"{n}{dots}"] = 2 * n - 2 + (dots == "...")
        nags = [f"${n}" for n in range(10)] + [f"${n:02}" for n in range(100)] \
            + [f"${n:03}" for n in range(256)] + [f"${n}" for n in range(10, 256)]
        for word in nags + list(SUFFIX_GLYPHS):
            others[word] = -1
        #: Each turn's canonical text by its text in upper case: the reader takes any
        #: letter case (no two canonical texts differ only in case: `X`, `D` and `W` as a
        #: value are no colour's letter, and a colour is always upper case).
        self.spellings = {text.upper(): text for text in self.moves[0]}
        for moves in self.moves:
            # The whole turn in upper or in lower case, and a suffix glyph glued to a turn
            # as written or in lower case: one step too.
            spelt = [(text.lower(), move) for text, move in moves.items()]
            glued = [(text + glyph, move) for text, move in [*moves.items(), *spelt]
                     for glyph in SUFFIX_GLYPHS]
            moves.update(spelt + [(text.upper(), move) for text, move in moves.items()] + glued)
        #: Every card of the game, wager copies repeated, sorted: a deal is valid when its
        #: cards, sorted, are exactly these (C-SETUP-DEAL, C-CARD-UNIQUE).
        self.all_ids = sorted(self.ids[card] for card in config.all_cards())
        #: The move number written before the first player's turn of each round, for the
        #: usual lengths of a game (a longer one, drawing from discard piles, is left to
        #: the full engine).
        self.numbers = [f"{n}." for n in range(1, 4 * config.total_cards)]
        #: The digits of those numbers, by the index of the turn each stands before: a
        #: number glued to its turn (``12.R7/d``) is checked with one look-up.
        self.heads = {f"{n}": 2 * n - 2 for n in range(1, 4 * config.total_cards)}


_TABLES: dict[ClassicConfig, _Tables] = {}
#: A move number as the reader takes it, perhaps glued to the word after it (``12.R7/d``).
_NUMBER = re.compile(r"([0-9]{1,9})(\.+)([^.]*)")


def express_check(record: GameRecord, words: list[str], config: ClassicConfig, *,
                  stripped: bool = True) -> ExpressResult | None:
    """Validate a classic record from its words, or return None to have it done in full.

    The words are as the lexer finds them (comments left out). Turns in canonical form
    take the quick step; any other word takes a slower one: a turn in another letter case,
    a suffix glyph glued to it or alone, a numeric glyph, a move number wherever it may
    stand (glued to its turn, ``N...`` before the second player's turn, or none). A word
    the reader or the validator would say something about (a glyph before the first turn,
    an unknown glyph, two move numbers in a row, a number that is not its turn's:
    LCN-GLYPH, LCN-MOVE-NUMBER) gives up, as does a turn not in the canonical table.
    ``stripped`` False says not to take the writer's move numbers out first.
    """
    given = words
    tags = record.tags.mapping
    player1, player2 = tags.get("Player1"), tags.get("Player2")
    # No tag name holds a line break: the names that start with `Player` are the two seats.
    if player1 is None or player2 is None or ("\n" + "\n".join(tags)).count("\nPlayer") != 2:
        return None  # any other `Player...` tag says something about the seats (C-SETUP-PLAYERS)
    tables = _TABLES.get(config)
    if tables is None:
        tables = _TABLES[config] = _Tables(config)
    numbers, heads = tables.numbers, tables.heads
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
    #: Copies of each card whose place the record has not shown yet (without the deal).
    left = tables.limits.copy()

    piles: list[list[int]] = [[] for _ in range(colours)]
    tops = [0] * (2 * colours)
    columns: list[list[int]] = [[] for _ in range(2 * colours)]
    if stripped and words[:1] == ["1."] and len(words) % 3 != 1 \
            and words[::3] == numbers[:(len(words) + 2) // 3]:
        # Move numbers as the writer puts them, before every round: every third word, with
        # the number of its round and one dot (LCN-MOVE-NUMBER), and a turn after each.
        words = words.copy()
        del words[::3]
    else:
        stripped = False
    moves, other_moves = tables.moves
    spellings = tables.spellings
    others = tables.others
    drawn = 0
    taken = 0  # draws from the discard piles: a turn's index is drawn + taken
    numbered = -1  # the index of the turn that the last move number written stands before
    try:
        for word in words:
            move = moves.get(word)
            if move is None:
                # Any other word (see above): slower steps, which canonical turns never take.
                index = drawn + taken
                at = others.get(word)
                if at is not None:
                    # A word that is no turn. A move number stands before one turn, of one
                    # index (``ClassicVariant.move_number``); a glyph (-1) after a turn.
                    if stripped:
                        # Among the writer's numbers: the words are read again with every
                        # number where it stands.
                        return express_check(record, given, config, stripped=False)
                    if at >= 0:
                        if at != index or numbered == index:
                            return None
                        numbered = index
                    elif not index:
                        return None  # a glyph before the first turn (LCN-GLYPH)
                    continue
                if word[0] in "0123456789":
                    # A move number glued to its turn (`12.R7/d`), or with many dots.
                    if stripped:
                        return express_check(record, given, config, stripped=False)
                    head, _, rest = word.partition(".")
                    move = moves.get(rest)
                    if move is None or heads.get(head) != index or numbered == index:
                        move = None
                        if heads.get(head) == index and rest and rest[0] != "." and numbered != index:
                            # The usual number of this turn, and a word after it (its first
                            # character no dot, so that the number is all of `N.`; anything
                            # but a turn after it is no word of the table, and the check
                            # gives up).
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
                    move = moves.get(word) or moves.get(spellings.get(word.upper(), ""))
                    if move is None:
                        return None  # not a turn of the table
            discard, card, column, colour, value, source = move
            if hand[card]:
                hand[card] -= 1
            elif left[card] and unknown:
                # An unknown slot holds it, as no copy is left elsewhere (C-CARD-UNIQUE) and
                # a slot is left (C-HAND-COUNT). With the deal no slot is unknown.
                left[card] -= 1
                unknown -= 1
            else:
                return None  # not in the hand (C-HAND-CARD, C-CARD-UNIQUE, C-HAND-COUNT)
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
            # A turn after the last card of the draw pile was drawn (C-END-LAST-DRAW) is
            # found after the loop, from the count of draws and the last turn's draw.
            if source < 0:  # C-DRAW-DECK
                if deck is not None:
                    hand[deck[drawn]] += 1  # IndexError past the last card: below
                else:
                    unknown += 1
                drawn += 1
            else:
                pile = piles[source]
                if not pile or (discard and source == colour):
                    return None  # C-DRAW-PILE, C-DRAW-NOT-JUST-DISCARDED
                hand[pile.pop()] += 1
                taken += 1
            hand, other = other, hand
            unknown, other_unknown = other_unknown, unknown
            moves, other_moves = other_moves, moves
    except IndexError:
        return None  # a draw after the last card of the draw pile (C-END-LAST-DRAW)
    if numbered == drawn + taken:
        return None  # a move number not followed by a turn (LCN-MOVE-NUMBER)
    over = drawn == pile_size
    if drawn > pile_size or (over and source >= 0):
        # A turn after the one that drew the last card (C-END-LAST-DRAW): it drew from the
        # draw pile (one draw too many) or from a discard pile (no draw after the last).
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
    return ExpressResult([player1 or "Player 1", player2 or "Player 2"], totals, over, drawn + taken)

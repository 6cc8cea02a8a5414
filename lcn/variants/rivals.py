"""Lost Cities: Rivals (2-4 players): cards, turns, auctions, gold, piles and scoring.

Every card of Rivals is public once it is uncovered, so a record that names each uncovered
card (as LCN requires) can be checked turn by turn without knowing how the piles were shuffled.
What a record without the piles cannot show is which card is the last of a pile: the engine
counts the cards uncovered instead (20 per pile unless the record says otherwise), as the
classic engine counts the cards left in its draw pile. When the record gives the piles
(``Pile1``..``Pile4``), each uncovered card is also checked against them.

One turn is one numbered unit of the movetext (see ``docs/spec-rivals.md``)::

    7. Sabrina1 Jonas- Daniela2 Dominic3 Sabrina4 Daniela- Dominic5 Sabrina- place:R4,R4 box:Gw up:Y7

Rule IDs are those of ``seeds/rivals.md``.

>>> footprints("R5"), footprints("R6"), footprints("Rw")
(1, 2, 0)
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from difflib import get_close_matches
from typing import TYPE_CHECKING, Any, NamedTuple

from ..diagnostics import Severity, hint
from ..games.colours import colour_names
from ..messages import join, layout, msg
from .base import ExpressResult, MoveSyntaxError, NumberedTurns, Problem, Score, name_hint

if TYPE_CHECKING:
    from ..describe import TurnStory
    from ..model import GameRecord

#: The five colours of Rivals, in the order LCN lists expeditions.
COLOURS = "YBWGR"
COLOUR_NAMES: dict[str, str] = colour_names(COLOURS)
VALUES = tuple(range(2, 11))
#: Copies of each number card per colour (two of 2-5, one of 6-10) and of the wager card.
NUMBER_COPIES: dict[int, int] = {v: 2 if v <= 5 else 1 for v in VALUES}
WAGER_COPIES = 3
#: Starting wager cards per colour (a separate set of ten, not in the piles).
START_WAGER_COPIES = 2
TOTAL_GOLD = 36
PILE_COUNT = 4
BONUS_NUMBERS = 4
BONUS_POINTS = 8

_TURN_RULE = "LCN-RIVALS-TURN"
_PLAYER_RULE = "LCN-RIVALS-PLAYER"


def footprints(card: str) -> int:
    """Footprints on a card: one on 2-5, two on 6-10, none on a wager (V-SCORE-FOOTPRINTS)."""
    if card[1:] == "w":
        return 0
    return 1 if int(card[1:]) <= 5 else 2


def card_value(card: str) -> int:
    """The number on a card; 0 for a wager."""
    return 0 if card[1:] == "w" else int(card[1:])


def card_set() -> dict[str, int]:
    """The 80 cards of the piles: card → copies (V-SETUP-CARDS).

    >>> cards = card_set()
    >>> sum(cards.values()), cards["R4"], cards["R9"], cards["Gw"]
    (80, 2, 1, 3)
    """
    cards: dict[str, int] = {}
    for colour in COLOURS:
        cards[colour + "w"] = WAGER_COPIES
        for value in VALUES:
            cards[f"{colour}{value}"] = NUMBER_COPIES[value]
    return cards


def all_cards() -> list[str]:
    """Every card of the piles, copies repeated, in colour order."""
    return [card for card, copies in card_set().items() for _ in range(copies)]


TOTAL_CARDS = sum(card_set().values())
PILE_SIZE = TOTAL_CARDS // PILE_COUNT


def parse_card(text: str, offset: int = 0) -> str:
    """The canonical form of a card token (``r7`` → ``R7``, ``gW`` → ``Gw``)."""
    card = _CARD_SPELLINGS.get(text)
    if card is not None:
        return card
    if not text:
        raise MoveSyntaxError(msg("expected a card: a colour letter (Y B W G R) and 2-10 or `w`"),
                              offset, 1, code="bad-card", rule="V-SETUP-CARDS")
    colour = text[0].upper()
    if colour not in COLOURS:
        raise MoveSyntaxError(
            msg("unknown colour `{letter}` in `{text}`: Rivals has the colours Y B W G R",
                letter=text[0], text=text),
            offset, len(text), code="bad-card", rule="V-SETUP-CARDS")
    rank = text[1:]
    if rank in ("w", "W"):
        return colour + "w"
    if rank.isascii() and rank.isdigit() and len(rank) <= 2 and int(rank) in VALUES \
            and not rank.startswith("0"):
        return f"{colour}{int(rank)}"
    raise MoveSyntaxError(
        msg("unknown card `{text}`: a card is a colour and a value 2-10, or `w` for a wager", text=text),
        offset, len(text), code="bad-card", rule="V-SETUP-CARDS")


#: The cards as usually written (canonical, or in lower case): found without parsing.
_CARD_SPELLINGS = {spelt: card for card in card_set() for spelt in (card, card.lower())}


# -- moves ------------------------------------------------------------------------------


class Item(NamedTuple):
    """A part of a turn and where it stands in the turn's text (for precise diagnostics)."""

    value: Any
    offset: int
    length: int


class Bid(NamedTuple):
    """A bid (``amount``) or a pass (``amount`` None) by the player in ``seat`` (0-based).

    ``token`` is the canonical name of the player in the movetext, so that the move can be
    written back without the state.
    """

    seat: int
    amount: int | None
    token: str
    offset: int
    length: int


@dataclass(frozen=True, slots=True)
class RivalsMove:
    """One turn: an uncover (no bids) or an auction (bids, placements, a return, an uncover).

    ``up_box`` says the record wrote that the uncovered card goes to the box (``>box``);
    ``share`` and ``rest`` are the written share-out of the supply; all three are checked,
    never required.
    """

    bids: tuple[Bid, ...]
    place: tuple[Item, ...]
    box: Item | None
    up: Item
    up_box: bool = False
    share: Item | None = None
    rest: Item | None = None

    @property
    def is_auction(self) -> bool:
        return bool(self.bids)


def format_move(move: RivalsMove) -> str:
    """The canonical text of a turn."""
    words = [f"{bid.token}{'-' if bid.amount is None else bid.amount}" for bid in move.bids]
    if move.place:
        words.append("place:" + ",".join(item.value for item in move.place))
    if move.box is not None:
        words.append(f"box:{move.box.value}")
    words.append(f"up:{move.up.value}{'>box' if move.up_box else ''}")
    if move.share is not None:
        words.append(f"share:{move.share.value}")
    if move.rest is not None:
        words.append(f"rest:{move.rest.value}")
    return " ".join(words)


_WORD = re.compile(r"\S+")
_SEAT_BID = re.compile(r"[Pp]([1-9])(\d{1,9})")
_SEAT = re.compile(r"[Pp]([1-9])")
_AMOUNT = re.compile(r"(.*?)(\d{1,9})")
_KEYWORDS = ("place", "box", "up", "share", "rest")
_SHARE_WORD = re.compile(r"(?i)(?:^|\s)(?:share|rest):")
#: Phase of a turn reached by each keyword: words must come in this order.
_PHASE = {"place": 1, "box": 2, "up": 3, "share": 4, "rest": 5}


def player_tokens(names: list[str]) -> list[str]:
    """How each player is written in the movetext: the letters of the name, or ``P<seat>``.

    The token is the name without what is not a letter (``Mary Ann`` → ``MaryAnn``) when the
    name has no digit (``Player 2`` → ``Player2`` would read as a bid) and that leaves
    something other than ``P`` that no other player's token matches in any case; otherwise it
    is the seat form ``P1``..``P4`` (LCN-RIVALS-PLAYER).

    >>> player_tokens(["Ada", "Bo", "Jean-Luc", "ada", "Player 5"])
    ['P1', 'Bo', 'JeanLuc', 'P4', 'P5']
    """
    letters = ["".join(ch for ch in name if ch.isalpha()) for name in names]
    folded = [word.casefold() for word in letters]
    tokens = []
    for seat, word in enumerate(letters):
        usable = (bool(word) and folded[seat] != "p" and folded.count(folded[seat]) == 1
                  and not any(ch.isdigit() for ch in names[seat]))
        tokens.append(word if usable else f"P{seat + 1}")
    return tokens


def _count(text: str, offset: int, what: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise MoveSyntaxError(msg("`{value}` after `{what}:`: expected a number of coins",
                                  value=text or msg("(nothing)"), what=what),
                              offset, max(len(text), 1), rule=_TURN_RULE)
    return int(text)




def parse_move(text: str, tokens: list[str]) -> RivalsMove:
    """Parse a turn's text leniently (any case), or raise with what was expected.

    ``tokens`` are the players' movetext names in seat order (:func:`player_tokens`).

    >>> format_move(parse_move("ada1 BO- place:r4,R4 Box:gw UP:y7", ["Ada", "Bo"]))
    'Ada1 Bo- place:R4,R4 box:Gw up:Y7'
    """
    return _parse_recent(tuple(tokens), text)


@functools.lru_cache(maxsize=512)
def _parse_recent(tokens: tuple[str, ...], text: str) -> RivalsMove:
    """The turns parsed last: a game repeats some of its turns (passes, the same bid), and
    looking ahead parses a turn again. Bounded: turns of other games seldom come back, and
    a cache that grew with the input would hold memory that every collection walks."""
    return _parse_move(text, list(tokens))


def _parse_move(text: str, tokens: list[str]) -> RivalsMove:
    lookup = {token.casefold(): seat for seat, token in enumerate(tokens)}
    bids: list[Bid] = []
    place: list[Item] = []
    box: Item | None = None
    up: Item | None = None
    up_box = False
    share: Item | None = None
    rest: Item | None = None
    phase = 0
    matches = list(_WORD.finditer(text))
    for index, match in enumerate(matches):
        word, start = match.group(), match.start()
        key, colon, value = word.partition(":")
        if colon:
            keyword = key.lower()
            if keyword not in _PHASE:
                close = get_close_matches(keyword, _KEYWORDS, n=1, cutoff=0.6)
                raise MoveSyntaxError(
                    msg("unknown word `{key}:`: expected one of {items}, or a bid (`Ada3`) or pass "
                        "(`Ada-`)",
                        key=key, items=", ".join(k + ":" for k in _KEYWORDS)),
                    start, len(key) + 1, rule=_TURN_RULE,
                    hint=hint("keyword-typo", meant=close[0] + ":") if close else None)
            at = start + len(key) + 1
            wanted = _PHASE[keyword]
            if wanted <= phase:
                if keyword == "box" and phase == 2:
                    raise MoveSyntaxError(msg("a second `box:`: the winner returns at most one card "
                                              "to the box"), start, len(word), code="box-twice",
                                          rule="V-AUCTION-BOX")
                if keyword == "up" and phase >= 3:
                    raise MoveSyntaxError(msg("a second `up:`: a turn uncovers one card (the "
                                              "auction's winner uncovers one, at the end)"), start, len(word),
                                          rule="V-TURN-ACTION")
                order = msg("bids and passes, place:, box:, up:, share:, rest:")
                raise MoveSyntaxError(msg("`{key}:` is out of place: a turn is written in the order "
                                          "{order}", key=key, order=order), start, len(word), rule=_TURN_RULE)
            if keyword in ("place", "box") and not bids:
                raise MoveSyntaxError(
                    msg("`{key}:` without an auction: only the winner of an auction places cards or "
                        "returns one to the box; write the bids and passes first (`Ada1 Bo- ...`)", key=key),
                    start, len(word), code="no-auction", rule="V-TURN-ACTION")
            if keyword in ("share", "rest") and up is None:
                raise MoveSyntaxError(msg("`{key}:` comes after the uncovered card (`up:<card>`)", key=key),
                                      start, len(word), rule=_TURN_RULE)
            phase = wanted
            if keyword == "place":
                pos = at
                parts = value.split(",")
                for number, part in enumerate(parts):
                    if not part and number == len(parts) - 1 and index + 1 < len(matches):
                        after = matches[index + 1].group()
                        raise MoveSyntaxError(
                            msg("`{word}` ends with a comma: expected a card after it, in the same "
                                "word", word=word), pos, 1, code="bad-card", rule="V-SETUP-CARDS",
                            hint=hint("space-in-word", word=f"{word} {after}",
                                      joined=word + after))
                    place.append(Item(parse_card(part, pos), pos, max(len(part), 1)))
                    pos += len(part) + 1
            elif keyword == "box":
                box = Item(parse_card(value, at), at, max(len(value), 1))
            elif keyword == "up":
                card_text = value
                if value.lower().endswith(">box"):
                    card_text = value[:-4]
                    up_box = True
                elif ">" in value:
                    cut = value.index(">")
                    raise MoveSyntaxError(msg("`{value}`: only `>box` may follow the uncovered card "
                                              "(it goes to the box)",
                                              value=value[cut:]), at + cut, len(value) - cut,
                                          rule=_TURN_RULE)
                up = Item(parse_card(card_text, at), at, max(len(card_text), 1))
            elif keyword == "share":
                share = Item(_count(value, at, key), at, max(len(value), 1))
            else:
                rest = Item(_count(value, at, key), at, max(len(value), 1))
            continue
        if phase > 0:
            advice = None
            before = matches[index - 1].group()
            split = (word.lower() == ">box" and before.lower().startswith("up:")) \
                or (phase == 1 and before.endswith(","))
            if split:
                advice = hint("space-in-word", word=f"{before} {word}", joined=before + word)
            raise MoveSyntaxError(msg("`{word}` is out of place: bids and passes come before place:, "
                                      "box: and up:",
                                      word=word), start, len(word), rule=_TURN_RULE, hint=advice)
        bids.append(_parse_bid(word, start, tokens, lookup))
    if up is None:
        if bids:
            raise MoveSyntaxError(
                msg("the auction's winner must uncover a card to end it: expected `up:<card>` after "
                    "the bids (and any place:/box:)"), len(text), 1, code="no-uncover",
                rule="V-AUCTION-UNCOVER")
        raise MoveSyntaxError(msg("empty turn: expected `up:<card>` (uncover) or an auction (`Ada1 "
                                  "Bo- ... up:<card>`)"), 0, max(len(text), 1), rule=_TURN_RULE)
    return RivalsMove(tuple(bids), tuple(place), box, up, up_box, share, rest)


def _parse_bid(word: str, start: int, tokens: list[str], lookup: dict[str, int]) -> Bid:
    if word.endswith("-"):
        who, amount = word[:-1], None
        seat = lookup.get(who.casefold())
        if seat is None:
            match = _SEAT.fullmatch(who)
            if match is not None and int(match.group(1)) <= len(tokens):
                seat = int(match.group(1)) - 1
    else:
        found = _AMOUNT.fullmatch(word)
        if found is None:
            raise MoveSyntaxError(
                msg("`{word}` is not a bid or a pass: expected a player and an amount (`{tokens}3`), "
                    "a player and `-` (`{tokens}-`), or place:/box:/up:",
                    word=word, tokens=tokens[0]), start, len(word),
                rule=_TURN_RULE)
        who, amount = found.group(1), int(found.group(2))
        seat = lookup.get(who.casefold())
        if seat is None:
            match = _SEAT_BID.fullmatch(word)
            if match is not None and int(match.group(1)) <= len(tokens):
                seat, amount = int(match.group(1)) - 1, int(match.group(2))
    if seat is None:
        expected = ", ".join(tokens)
        if not who:
            raise MoveSyntaxError(msg("`{word}`: a bid names its player first (`{tokens}{word}`)",
                                      word=word, tokens=tokens[0]),
                                  start, len(word), code="unknown-player", rule=_PLAYER_RULE)
        raise MoveSyntaxError(msg("unknown player `{who}` in `{word}`: the players are {expected} "
                                  "(or P1..P{count})",
                                  who=who, word=word, expected=expected, count=len(tokens)),
                              start, len(who), code="unknown-player",
                              rule=_PLAYER_RULE)
    return Bid(seat, amount, tokens[seat], start, len(word))


# -- scoring ----------------------------------------------------------------------------


@dataclass(slots=True)
class ExpeditionScore:
    """One expedition's score with every step of the rulebook's computation."""

    colour: str
    cards: list[str]
    wagers: int
    numbers: int
    footprints: int
    multiplier: int
    bonus: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour, "cards": list(self.cards), "wagers": self.wagers,
                "numbers": self.numbers, "footprints": self.footprints,
                "multiplier": self.multiplier, "bonus": self.bonus, "points": self.points}


def score_expedition(colour: str, cards: list[str]) -> ExpeditionScore:
    """Footprints × (1 + wagers), plus 8 for four or more number cards (not multiplied).

    The rulebook's scoring example, red: two wagers and 6 footprints on four number cards:

    >>> score_expedition("R", ["Rw", "Rw", "R3", "R4", "R7", "R9"]).points
    26
    """
    wagers = sum(1 for card in cards if card[1:] == "w")
    numbers = len(cards) - wagers
    steps = sum(footprints(card) for card in cards)
    multiplier = 1 + wagers
    bonus = BONUS_POINTS if numbers >= BONUS_NUMBERS else 0
    return ExpeditionScore(colour, list(cards), wagers, numbers, steps, multiplier, bonus,
                           steps * multiplier + bonus)


# -- state ------------------------------------------------------------------------------


@dataclass(slots=True)
class AuctionRecord:
    """What the last auction did, for snapshots and ``lcn show``."""

    turn: int
    bids: list[tuple[int, int | None]]
    winner: int | None
    price: int
    placed: list[str]
    boxed: str | None
    uncovered: str | None = None


class RivalsState:
    """The table after some turns: display, expeditions, gold, supply, piles, box."""

    __slots__ = (
        "auction",
        "box",
        "calls",
        "display",
        "expeditions",
        "free",
        "gold",
        "in_pile",
        "last",
        "last_share",
        "last_up",
        "lost",
        "names",
        "numbers",
        "offset",
        "pending",
        "pile",
        "pile_cards",
        "player",
        "players",
        "share_turns",
        "shift",
        "sizes",
        "sizes_known",
        "start_wagers",
        "supply",
        "texts",
        "tokens",
        "tops",
        "turn",
        "uncovered",
    )

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.players = len(names)
        self.tokens = player_tokens(names)
        self.gold = [TOTAL_GOLD // self.players] * self.players
        self.supply = 0
        self.expeditions: list[dict[str, list[str]]] = [{c: [] for c in COLOURS}
                                                        for _ in range(self.players)]
        #: Highest number per player and colour (0: no number card yet, wagers allowed).
        self.tops: list[dict[str, int]] = [dict.fromkeys(COLOURS, 0) for _ in range(self.players)]
        self.start_wagers: list[list[str]] = [[] for _ in range(self.players)]
        self.display: list[str] = []
        self.box: list[str] = []
        self.sizes = [PILE_SIZE] * PILE_COUNT
        #: Whether the pile sizes come from the record (PileSizes or Pile tags) or are assumed.
        self.sizes_known = False
        #: The turns (1-based) whose text writes a share-out (`share:` or `rest:`).
        self.share_turns: frozenset[int] = frozenset()
        #: The piles from the Pile tags (top card first), None where the record does not say.
        self.pile_cards: list[list[str] | None] = [None] * PILE_COUNT
        #: Copies of each card that can still come out of the piles the record does not give.
        self.free = card_set()
        self.pile = 0
        self.in_pile = 0
        self.uncovered = 0
        self.player = 0
        self.turn = 0
        self.last: RivalsMove | None = None
        self.last_up: str | None = None
        self.last_share: tuple[int, int] | None = None
        self.auction: AuctionRecord | None = None
        #: The record's turn texts and written move numbers (None where none is written),
        #: read as evidence when the numbers show turns left out or swapped.
        self.texts: tuple[str, ...] = ()
        self.numbers: tuple[int | None, ...] = ()
        #: The written move numbers less the expected ones since the last jump.
        self.shift = 0
        #: Turns the numbers showed left out, whose auctions and uncovers the record lost:
        #: what follows from them (who plays next, the share-outs) is not held against it.
        self.lost = 0
        #: A turn played ahead of its place (two turns written swapped) and its problems.
        self.pending: tuple[RivalsMove, list[Problem]] | None = None
        #: Turns of the record played so far (``apply`` calls, whatever they did), and how
        #: far the record's position is from it, as the last move number read told: the
        #: turn about to be played stands at ``calls + offset`` in the record.
        self.calls = 0
        self.offset = 0

    @property
    def total(self) -> int:
        return sum(self.sizes)

    @property
    def cards_left(self) -> int:
        return self.total - self.uncovered

    @property
    def over(self) -> bool:
        return self.uncovered >= self.total

    def can_use(self, player: int, card: str) -> bool:
        """Whether a player could place the card now (V-PLACE-WAGER-FIRST, V-PLACE-ASCENDING)."""
        top = self.tops[player][card[0]]
        if card[1:] == "w":
            return top == 0
        return int(card[1:]) >= top

    def places_of(self, card: str) -> list[str]:
        """Where the copies of a card already seen are, in words (for messages)."""
        places: list[str] = []
        for player, exps in enumerate(self.expeditions):
            cards = exps[card[0]]
            extra = cards.count(card) - (self.start_wagers[player].count(card) if card[1:] == "w"
                                         else 0)
            places += [msg("in {name}'s {colour} expedition", name=self.names[player],
                           colour=COLOUR_NAMES[card[0]])] * extra
        places += [msg("in the display")] * self.display.count(card)
        places += [msg("in the box")] * self.box.count(card)
        for index, pile in enumerate(self.pile_cards):
            if pile is not None:
                start = self.in_pile if index == self.pile else 0
                if index >= self.pile:
                    places += [msg("in Pile{pile}", pile=index + 1)] * pile[start:].count(card)
        return places


# -- the variant ------------------------------------------------------------------------


class RivalsVariant(NumberedTurns[RivalsState, RivalsMove]):
    """Lost Cities: Rivals through the variant interface."""

    name = "rivals"
    title = "Lost Cities: Rivals"
    turn_unit = "numbered"
    rule_game_over = "V-END-LAST-CARD"
    rule_result = "V-END-RESULT"
    rule_turn_order = "V-TURN-ORDER"
    min_players = 2
    max_players = 4
    express = True
    consequences = frozenset({"share-mismatch", "remainder-mismatch", "no-share", "share-at-end",
                              "not-useless", "card-exhausted", "not-in-display",
                              "box-not-in-display", "wager-after-number", "not-ascending",
                              "bid-funds", "empty-display"})

    # -- setup ------------------------------------------------------------------------
    def express_check(self, record: GameRecord, words: list[str]) -> ExpressResult | None:
        # The quick verdict plays the core of lcn.games.rivals, which stands on this module.
        from ..games.rivals.verdict import express_check

        return express_check(record, words)

    def _seats(self, record: GameRecord) -> tuple[list[str], list[Problem]]:
        return self.seats_from_tags(record, "V-SETUP-PLAYERS")

    def players(self, record: GameRecord, state: RivalsState | None = None) -> list[str]:
        if state is not None:
            return list(state.names)
        return self._seats(record)[0]

    def setup(self, record: GameRecord) -> tuple[RivalsState, list[Problem]]:
        names, problems = self._seats(record)
        state = RivalsState(names)
        self._setup_wagers(record, state, problems)
        self._setup_piles(record, state, problems)
        state.share_turns = frozenset(
            index for index, turn in enumerate(record.turns, 1)
            if _SHARE_WORD.search(turn.text) is not None)
        state.sizes_known = "PileSizes" in record.tags or any(
            f"Pile{index + 1}" in record.tags for index in range(PILE_COUNT))
        if not state.sizes_known:
            self._infer_piles(record, state, problems)
        state.texts = tuple(turn.text for turn in record.turns)
        state.numbers = tuple(turn.number for turn in record.turns)
        return state, problems

    @staticmethod
    def _numbers(state: RivalsState) -> None:
        """Read the move number written before the turn about to be played as evidence.

        A number that jumps ahead shows turns left out: they are counted
        (``RivalsState.lost``) so that their consequences are not reported as errors of
        their own; a number that comes back to the count was a typo or a swap, and cancels
        them.
        """
        turn = state.calls + state.offset
        written = state.numbers[turn] if 0 <= turn < len(state.numbers) else None
        if written is not None and turn and written != turn + 1 + state.shift:
            state.lost = max(0, state.lost + written - turn - 1 - state.shift)
            state.shift = written - turn - 1

    @staticmethod
    def _infer_piles(record: GameRecord, state: RivalsState, problems: list[Problem]) -> None:
        """Pile sizes from the share-outs a record without PileSizes writes, where it can.

        Every turn uncovers one card, so a share-out written at turn N says that a pile ran
        out with the N-th card. When the record holds the whole game (80 turns, one per card)
        and its share-outs fall near the boundaries of piles of 20 in order, they give the
        sizes; the boundaries they do not show stay 20 cards apart, and the last pile holds the
        rest. A record of another length may have a turn missing or one too many, and the
        share-outs cannot tell where: piles of 20 are assumed there, and a share-out written
        where no pile ran out by that count is an error that points at PileSizes.
        """
        turns = len(record.turns)
        if not state.share_turns or turns != TOTAL_CARDS:
            return
        bounds = [PILE_SIZE * (slot + 1) for slot in range(PILE_COUNT - 1)]
        used: set[int] = set()
        for turn in sorted(state.share_turns):
            slot = min(max(round(turn / PILE_SIZE) - 1, 0), PILE_COUNT - 2)
            if slot in used:
                return
            used.add(slot)
            bounds[slot] = turn
        edges = [0, *bounds, TOTAL_CARDS]
        sizes = [edges[i + 1] - edges[i] for i in range(PILE_COUNT)]
        if min(sizes) < 1 or sizes == state.sizes:
            return
        state.sizes = sizes
        problems.append(Problem(
            "pile-sizes-inferred", "V-SETUP-PILES",
            msg("no PileSizes tag: the share-outs written give piles of {sizes} cards",
                sizes=" ".join(map(str, sizes))), Severity.INFO,
            hint=hint("pile-sizes-tag", sizes=" ".join(map(str, sizes)))))

    @staticmethod
    def _setup_wagers(record: GameRecord, state: RivalsState, problems: list[Problem]) -> None:
        dealt: dict[str, list[int]] = {c: [] for c in COLOURS}
        for seat in range(state.players):
            tag = f"Wagers{seat + 1}"
            text = record.tags.get(tag)
            name = state.names[seat]
            if text is None:
                problems.append(Problem(
                    "missing-tag", "V-SETUP-START-WAGERS",
                    msg('no {tag} tag: each player starts with two wager cards of different colours '
                        '(e.g. [{tag} "Rw Bw"]); {name} is taken to have none', tag=tag, name=name),
                    tag="Player" + str(seat + 1) if f"Player{seat + 1}" in record.tags else None))
                continue
            try:
                cards = [parse_card(word) for word in text.split()]
            except MoveSyntaxError as exc:
                problems.append(Problem("tag-value", "V-SETUP-START-WAGERS",
                                        msg("{tag}: {message}", tag=tag, message=exc.message), tag=tag))
                continue
            numbers = [card for card in cards if card[1:] != "w"]
            if numbers:
                problems.append(Problem("tag-value", "V-SETUP-START-WAGERS",
                                        msg("{tag}: {numbers} is not a wager card: the starting "
                                            "cards are two wager cards (`Rw Bw`)",
                                            tag=tag, numbers=numbers[0]), tag=tag))
                continue
            if len(cards) != 2 or cards[0] == cards[1]:
                what = (msg("{count} card", count=len(cards)) if len(cards) == 1
                        else msg("{count} cards", count=len(cards)) if len(cards) != 2
                        else msg("two {colour} wagers", colour=COLOUR_NAMES[cards[0][0]]))
                problems.append(Problem(
                    "start-wagers", "V-SETUP-START-WAGERS",
                    msg("{tag} holds {what}: each player starts with two wager cards of different "
                        "colours", tag=tag, what=what), tag=tag))
                if len(cards) != 2:
                    continue
                cards = cards[:1]
            for card in cards:
                dealt[card[0]].append(seat)
                state.start_wagers[seat].append(card)
                state.expeditions[seat][card[0]].append(card)
        for colour, seats in dealt.items():
            if len(seats) > START_WAGER_COPIES:
                who = ", ".join(state.names[s] for s in seats)
                problems.append(Problem(
                    "start-wager-supply", "V-SETUP-START-WAGER-CARDS",
                    msg("{count} players start with a {colour} wager ({who}), but there are only "
                        "{copies} {colour} starting wager cards", count=len(seats),
                        colour=COLOUR_NAMES[colour], who=who, copies=START_WAGER_COPIES),
                    tag=f"Wagers{seats[-1] + 1}"))

    @staticmethod
    def _setup_piles(record: GameRecord, state: RivalsState, problems: list[Problem]) -> None:
        sizes: list[int] | None = None
        text = record.tags.get("PileSizes")
        if text is not None:
            words = text.split()
            if len(words) != PILE_COUNT \
                    or not all(w.isascii() and w.isdigit() and len(w) <= 9 for w in words):
                problems.append(Problem(
                    "tag-value", "V-SETUP-PILES",
                    msg('PileSizes "{text}": expected the sizes of the {piles} piles, e.g. '
                        '"{items}"; 20 each is assumed',
                        text=text, piles=PILE_COUNT, items=' '.join([str(PILE_SIZE)] * PILE_COUNT)),
                    tag="PileSizes"))
            else:
                sizes = [int(w) for w in words]
        final = list(sizes) if sizes is not None else [PILE_SIZE] * PILE_COUNT
        counts: dict[str, int] = {}
        for index in range(PILE_COUNT):
            tag = f"Pile{index + 1}"
            text = record.tags.get(tag)
            if text is None:
                continue
            try:
                cards = [parse_card(word) for word in text.split()]
            except MoveSyntaxError as exc:
                problems.append(Problem("pile-invalid", "V-SETUP-CARDS", msg("{tag}: {message}",
                                                                             tag=tag, message=exc.message),
                                        tag=tag))
                continue
            if sizes is not None and len(cards) != sizes[index]:
                problems.append(Problem(
                    "pile-invalid", "V-SETUP-PILES",
                    msg("{tag} has {count} cards but PileSizes gives pile {index} {sizes}",
                        tag=tag, count=len(cards), index=index + 1, sizes=sizes[index]), tag=tag))
            final[index] = len(cards)
            state.pile_cards[index] = cards
            for card in cards:
                counts[card] = counts.get(card, 0) + 1
        full = card_set()
        for card, count in counts.items():
            if count > full[card]:
                tags = [f"Pile{i + 1}" for i, pile in enumerate(state.pile_cards)
                        if pile is not None and card in pile]
                problems.append(Problem(
                    "pile-invalid", "V-SETUP-CARDS",
                    msg("the piles hold {count} {card} cards ({tags}), but the game has {full}",
                        count=count, card=card, tags=', '.join(tags), full=full[card]), tag=tags[-1]))
            state.free[card] = max(0, full[card] - count)
        pile_tag = next((t for t in ("PileSizes", "Pile4", "Pile3", "Pile2", "Pile1")
                    if t in record.tags), None)
        if any(size < 1 for size in final):
            problems.append(Problem(
                "pile-invalid", "V-SETUP-PILES",
                msg("pile sizes {sizes}: every pile holds at least one card",
                    sizes=" ".join(map(str, final))),
                tag=pile_tag))
            final = [PILE_SIZE] * PILE_COUNT
        elif sum(final) != TOTAL_CARDS:
            problems.append(Problem(
                "pile-invalid", "V-SETUP-PILES",
                msg("the four piles hold {total} cards ({sizes}); together they hold all {all}",
                    total=sum(final), sizes=" + ".join(map(str, final)), all=TOTAL_CARDS), tag=pile_tag))
        elif max(final) - min(final) > 2:
            problems.append(Problem(
                "pile-uneven", "V-SETUP-PILES",
                msg("pile sizes {sizes}: the rulebook asks for more or less equal piles",
                    sizes=" ".join(map(str, final))), Severity.WARNING, tag=pile_tag))
        state.sizes = final
        for index, pile in enumerate(state.pile_cards):
            if pile is not None and len(pile) != final[index]:
                state.pile_cards[index] = None  # the tag cannot be followed: count its cards free
                for card in pile:
                    state.free[card] = min(state.free[card] + 1, card_set()[card])

    # -- turns ------------------------------------------------------------------------
    def parse_move(self, state: RivalsState, text: str) -> RivalsMove:
        try:
            return parse_move(text, state.tokens)
        except MoveSyntaxError as exc:
            name_hint(exc, text, state.names, state.tokens)
            raise

    def format_move(self, move: RivalsMove) -> str:
        return format_move(move)

    def current_player(self, state: RivalsState) -> int:
        return state.player

    def is_over(self, state: RivalsState) -> bool:
        return state.over

    def end_reason(self, state: RivalsState) -> str:
        return msg("the last card of the last pile was uncovered")

    def progress(self, state: RivalsState) -> str:
        left = state.cards_left
        in_pile = state.sizes[state.pile] - state.in_pile if state.pile < PILE_COUNT else 0
        if left == 1:
            return msg("{left} card still to uncover, {in_pile} of them in pile {pile} of {piles}",
                       left=left, in_pile=in_pile, pile=state.pile + 1, piles=PILE_COUNT)
        return msg("{left} cards still to uncover, {in_pile} of them in pile {pile} of {piles}",
                   left=left, in_pile=in_pile, pile=state.pile + 1, piles=PILE_COUNT)

    def _swapped(self, state: RivalsState) -> None:
        state.lost = 0  # the jump in the numbers was the swap, not turns left out

    def _apply(self, state: RivalsState, move: RivalsMove) -> list[Problem]:
        problems: list[Problem] = []
        player = state.player
        state.last_share = None
        if move.bids:
            actor = self._auction(state, move, problems)
            state.player = (actor + 1) % state.players
        else:
            actor = player
            self._uncover(state, actor, move, problems)
            state.player = (player + 1) % state.players
        state.turn += 1
        state.last = move
        return problems

    def _auction(self, state: RivalsState, move: RivalsMove, problems: list[Problem]) -> int:
        """Run the bids, pay, place, return and uncover; the winner's seat."""
        names = state.names
        opener = state.player
        if not state.display:
            first = move.bids[0]
            problems.append(Problem(
                "empty-display", "V-AUCTION-DISPLAY",
                msg("{name} cannot start an auction: the display is empty (uncover a card instead)",
                    name=names[opener]), offset=first.offset, length=first.length))
        bids = list(move.bids)
        if bids[0].seat != opener and state.lost:
            # Turns the record lost came before this one: whose turn it is is not known.
            opener = bids[0].seat
        elif bids[0].seat != opener:
            # Someone else opens: a turn left out before this one (that player plays on
            # from here), or the opener's name miswritten (the rest of the calls then follow
            # the opener's seat). Whichever leaves the calls in order is taken, reported once.
            first = bids[0]
            slip = [first._replace(seat=opener, token=state.tokens[opener]), *bids[1:]]
            if self._order_faults(slip, opener, state.players) \
                    < self._order_faults(bids, first.seat, state.players):
                problems.append(Problem(
                    "turn-order", "V-TURN-ORDER",
                    msg("it is {name}'s turn, so {name} opens the auction, not {other}; the call "
                        "is taken as {name}'s", name=names[opener], other=names[first.seat]),
                    offset=first.offset, length=first.length,
                    hint=hint("seat-slip", token=state.tokens[opener], name=names[opener])))
                bids = slip
            else:
                problems.append(Problem(
                    "turn-order", "V-TURN-ORDER",
                    msg("it is {name}'s turn, so {name} opens the auction, not {other}",
                        name=names[opener], other=names[first.seat]),
                    offset=first.offset, length=first.length,
                    hint=hint("turn-seat", written=names[first.seat])))
                opener = first.seat
        active = list(range(state.players))
        high = 0
        winner: int | None = None
        expected = opener
        ended_at: Bid | None = None
        for index, bid in enumerate(bids):
            if index and bid.seat != expected and bid.seat in active and expected in active \
                    and self._order_faults([bid._replace(seat=expected), *bids[index + 1:]],
                                           expected, state.players, active) \
                    < self._order_faults(bids[index:], bid.seat, state.players, active):
                # A call in another player's name where the next player's is due, and the
                # calls after it follow from that player: the name is miswritten.
                problems.append(Problem(
                    "bid-order", "V-AUCTION-ORDER",
                    msg("it is {name}'s turn to bid or pass, not {other}'s (the auction goes "
                        "clockwise); the call is taken as {name}'s",
                        name=names[expected], other=names[bid.seat]),
                    offset=bid.offset, length=bid.length,
                    hint=hint("seat-slip", token=state.tokens[expected], name=names[expected])))
                bid = bid._replace(seat=expected, token=state.tokens[expected])
            who = names[bid.seat]
            if winner is not None and len(active) == 1:
                if ended_at is None:
                    ended_at = bid
                    problems.append(Problem(
                        "after-auction-end", "V-AUCTION-END",
                        msg("the auction is over: everyone but {name} has passed, so {name} has "
                            "won it for {high}; `{word}` cannot follow",
                            name=names[active[0]], high=high, word=self._word(bid)),
                        offset=bid.offset, length=bid.length))
                continue
            if index == 0:
                if bid.amount is None:
                    problems.append(Problem(
                        "auction-open", "V-AUCTION-OPEN",
                        msg("{who} opens the auction with a pass: an auction starts with a bid of at "
                            "least 1", who=who), offset=bid.offset, length=bid.length))
            elif bid.seat not in active:
                problems.append(Problem(
                    "bid-after-pass", "V-AUCTION-PASS-OUT",
                    msg("{who} passed earlier in this auction and is out of it", who=who), offset=bid.offset,
                    length=bid.length))
                continue
            elif bid.seat != expected:
                problems.append(Problem(
                    "bid-order", "V-AUCTION-ORDER",
                    msg("it is {name}'s turn to bid or pass, not {who}'s (the auction goes "
                        "clockwise)", name=names[expected], who=who), offset=bid.offset, length=bid.length))
            if bid.amount is None:
                if bid.seat in active:
                    active.remove(bid.seat)
            else:
                amount = bid.amount
                if amount < 1:
                    problems.append(Problem(
                        "bid-too-low", "V-AUCTION-MIN-BID",
                        msg("{who} bids {amount}: a bid is at least 1 gold coin",
                            who=who, amount=amount), offset=bid.offset,
                        length=bid.length))
                elif amount <= high:
                    problems.append(Problem(
                        "bid-not-higher", "V-AUCTION-RAISE",
                        msg("{who} bids {amount}, but the highest bid is already {high}: a bid must "
                            "be higher (or pass)",
                            who=who, amount=amount, high=high), offset=bid.offset, length=bid.length))
                if amount > state.gold[bid.seat]:
                    problems.append(Problem(
                        "bid-funds", "V-AUCTION-FUNDS",
                        msg("{who} bids {amount} but holds only {gold} gold",
                            who=who, amount=amount, gold=state.gold[bid.seat]),
                        offset=bid.offset, length=bid.length))
                if amount > high:
                    high, winner = amount, bid.seat
            expected = self._next_active(active, bid.seat, state.players)
            if winner is None and not active:
                break
        if winner is None:
            winner = opener
        elif len(active) > 1:
            still = [s for s in active if s != winner] or active
            at = move.place[0] if move.place else (move.box if move.box is not None else move.up)
            waiting = ", ".join(names[s] for s in still)
            problems.append(Problem(
                "auction-unfinished", "V-AUCTION-END",
                msg("the auction is not over: {waiting} has not passed (expected {name} to bid or "
                    "pass before the winner takes cards)", waiting=waiting, name=names[expected])
                if len(still) == 1 else
                msg("the auction is not over: {waiting} have not passed (expected {name} to bid or "
                    "pass before the winner takes cards)", waiting=waiting, name=names[expected]),
                offset=at.offset, length=at.length,
                hint=hint("missing-pass", names=waiting,
                          passes=" ".join(f"{state.tokens[s]}-" for s in still))))
        winner_name = names[winner]
        price = min(high, max(state.gold[winner], 0))
        state.gold[winner] -= price
        state.supply += price
        record = AuctionRecord(state.turn + 1, [(b.seat, b.amount) for b in bids], winner,
                               high, [], None)
        state.auction = record
        for item in move.place:
            card = item.value
            if card not in state.display and state.lost and state.free[card] > 0:
                # Uncovered in a turn the record lost: it was in the display.
                state.free[card] -= 1
                state.display.append(card)
            if card not in state.display:
                problems.append(Problem(
                    "not-in-display", "V-PLACE-DISPLAY",
                    msg("{winner} cannot place {card}: it is not in the display "
                        "({display})",
                        winner=winner_name, card=card, display=self._display_words(state)),
                    offset=item.offset, length=item.length))
                continue
            state.display.remove(card)
            record.placed.append(card)
            self._place(state, winner, item, problems)
        if move.box is not None:
            card = move.box.value
            if card in state.display:
                state.display.remove(card)
                state.box.append(card)
                record.boxed = card
            else:
                placed = msg(" (it was just placed)") if card in record.placed else ""
                problems.append(Problem(
                    "box-not-in-display", "V-AUCTION-BOX",
                    msg("{winner} cannot return {card} to the box: it is not in the "
                        "display{placed} ({display})",
                        winner=winner_name, card=card, placed=placed,
                        display=self._display_words(state)),
                    offset=move.box.offset, length=move.box.length))
        self._uncover(state, winner, move, problems)
        record.uncovered = state.last_up
        return winner

    @staticmethod
    def _order_faults(bids: list[Bid], opener: int, players: int,
                      active: list[int] | None = None) -> int:
        """How many calls of an auction come out of clockwise order from ``opener``."""
        active = list(range(players)) if active is None else list(active)
        expected, faults = opener, 0
        for bid in bids:
            if len(active) <= 1:
                return faults + 1
            if bid.seat != expected or bid.seat not in active:
                faults += 1
            if bid.amount is None and bid.seat in active:
                active.remove(bid.seat)
            expected = RivalsVariant._next_active(active, bid.seat, players)
        return faults

    @staticmethod
    def _word(bid: Bid) -> str:
        return f"{bid.token}{'-' if bid.amount is None else bid.amount}"

    @staticmethod
    def _next_active(active: list[int], seat: int, players: int) -> int:
        for step in range(1, players + 1):
            candidate = (seat + step) % players
            if candidate in active:
                return candidate
        return seat

    @staticmethod
    def _display_words(state: RivalsState) -> str:
        return msg("the display holds {cards}", cards=" ".join(state.display)) if state.display \
            else msg("the display is empty")

    @staticmethod
    def _place(state: RivalsState, player: int, item: Item, problems: list[Problem]) -> None:
        card = item.value
        colour = card[0]
        name = state.names[player]
        expedition = state.expeditions[player][colour]
        top = state.tops[player][colour]
        if card[1:] == "w":
            if top:
                problems.append(Problem(
                    "wager-after-number", "V-PLACE-WAGER-FIRST",
                    msg("{name} cannot place a wager on the {expedition} expedition: it already "
                        "holds the number card {colour}{top}",
                        name=name, expedition=COLOUR_NAMES[colour], colour=colour, top=top),
                    offset=item.offset,
                    length=item.length))
        else:
            value = int(card[1:])
            if value < top:
                problems.append(Problem(
                    "not-ascending", "V-PLACE-ASCENDING",
                    msg("{card} cannot follow {colour}{top} in {name}'s {expedition} expedition: "
                        "each number must be equal to or higher than the last",
                        card=card, colour=colour, top=top, name=name, expedition=COLOUR_NAMES[colour]),
                    offset=item.offset, length=item.length))
            else:
                state.tops[player][colour] = value
        expedition.append(card)

    def _uncover(self, state: RivalsState, player: int, move: RivalsMove,
                 problems: list[Problem]) -> None:
        item = move.up
        card = item.value
        name = state.names[player]
        if state.over:  # only after an error left the game without cards (a bad pile size)
            return
        pile = state.pile_cards[state.pile]
        if pile is not None:
            actual = pile[state.in_pile]
            if actual != card:
                problems.append(Problem(
                    "wrong-card", "V-UNCOVER-TOP",
                    msg("the top card of pile {pile} is {actual}, not {card} (Pile{pile} tag)",
                        pile=state.pile + 1, actual=actual, card=card),
                    offset=item.offset, length=item.length))
                card = actual
        elif state.free[card] > 0:
            state.free[card] -= 1
        else:
            copies = card_set()[card]
            places = state.places_of(card)
            where = join(places, "; ") if places else msg("accounted for")
            problems.append(Problem(
                "card-exhausted", "V-SETUP-CARDS",
                msg("{name} cannot uncover {card}: the game has {copies} {card} card, all seen "
                    "already ({where})", name=name, card=card, copies=copies, where=where)
                if copies == 1 else
                msg("{name} cannot uncover {card}: the game has {copies} {card} cards, all seen "
                    "already ({where})", name=name, card=card, copies=copies, where=where),
                offset=item.offset, length=item.length))
        state.last_up = card
        useful = [p for p in range(state.players) if state.can_use(p, card)]
        if useful:
            if move.up_box:
                users = ", ".join(state.names[p] for p in useful)
                problems.append(Problem(
                    "not-useless", "V-UNCOVER-USELESS",
                    msg("{card} does not go to the box: {users} can still use it, so it stays in the "
                        "display", card=card, users=users), offset=item.offset, length=item.length + 4))
            state.display.append(card)
        else:
            state.box.append(card)
        state.uncovered += 1
        state.in_pile += 1
        ended = state.in_pile >= state.sizes[state.pile]
        last_pile = state.pile == PILE_COUNT - 1
        said_share = move.share if move.share is not None else move.rest
        if not last_pile and not state.sizes_known and state.share_turns and said_share is None:
            # The record writes its share-outs, and writes one in a moment: the pile runs out
            # then (a turn too many before it, or a pile divided by eye); no error here.
            turn = state.turn + 1
            if ended and (turn + 1 in state.share_turns or turn + 2 in state.share_turns):
                state.sizes[state.pile] += 1
                state.sizes[-1] -= 1
                ended = False
        early = None
        if said_share is not None and not ended and not last_pile and not state.sizes_known:
            # A share-out written where the count says no pile ran out: piles of 20 are only
            # assumed, so the record is followed (a turn left out before it, or a pile divided
            # by eye); this is reported once, here, and the next piles are counted from here.
            left = state.sizes[state.pile] - state.in_pile
            early = Problem(
                "no-share", "V-PILE-SHARE" if move.share is not None else "V-PILE-REMAINDER",
                msg("no pile ran out by the count: {left} card remain in pile {pile}, so the "
                    "supply is not shared out; the share-out written is followed, pile {pile} ends "
                    "here", left=left, pile=state.pile + 1)
                if left == 1 else
                msg("no pile ran out by the count: {left} cards remain in pile {pile}, so the "
                    "supply is not shared out; the share-out written is followed, pile {pile} ends "
                    "here", left=left, pile=state.pile + 1),
                offset=said_share.offset,
                length=said_share.length,
                hint=hint("pile-sizes", sizes=" ".join(map(str, state.sizes)),
                          example=" ".join(map(str, self._sizes_if_ended(state)))))
            state.sizes[-1] += left
            state.sizes[state.pile] = state.in_pile
            ended = True
        if ended and not last_pile:
            if early is not None and not state.lost:
                problems.append(early)
            each, rest = divmod(state.supply, state.players)
            if state.lost:
                # The auctions of the lost turns paid into the supply: what the record
                # shares out is followed.
                if move.share is not None:
                    each = move.share.value
                if move.rest is not None:
                    rest = move.rest.value
                state.lost = 0
            for seat in range(state.players):
                state.gold[seat] += each
            state.supply = rest
            state.last_share = (each, rest)
            state.pile += 1
            state.in_pile = 0
            if move.share is not None and move.share.value != each:
                problems.append(Problem(
                    "share-mismatch", "V-PILE-SHARE",
                    msg("pile {pile} ran out: the supply is shared out as {each} coin each, not "
                        "{written}", pile=state.pile, each=each, written=move.share.value)
                    if each == 1 else
                    msg("pile {pile} ran out: the supply is shared out as {each} coins each, not "
                        "{written}", pile=state.pile, each=each, written=move.share.value),
                    offset=move.share.offset, length=move.share.length))
            if move.rest is not None and move.rest.value != rest:
                problems.append(Problem(
                    "remainder-mismatch", "V-PILE-REMAINDER",
                    msg("after the share-out {rest} coin stay in the supply, not {written}",
                        rest=rest, written=move.rest.value)
                    if rest == 1 else
                    msg("after the share-out {rest} coins stay in the supply, not {written}",
                        rest=rest, written=move.rest.value), offset=move.rest.offset,
                    length=move.rest.length))
            return
        if ended:
            state.pile = PILE_COUNT - 1
        for said in (move.share, move.rest):
            if said is None:
                continue
            written = said
            if ended:
                problems.append(Problem(
                    "share-at-end", "V-END-LAST-CARD",
                    msg("{card} is the last card of the last pile: the game ends and no gold is "
                        "shared out", card=card), offset=written.offset, length=written.length))
                break
            else:
                left = state.sizes[state.pile] - state.in_pile
                rule = "V-PILE-SHARE" if written is move.share else "V-PILE-REMAINDER"
                problems.append(Problem(
                    "no-share", rule,
                    msg("no pile ran out: {left} card remain in pile {pile}, so the supply is not "
                        "shared out", left=left, pile=state.pile + 1)
                    if left == 1 else
                    msg("no pile ran out: {left} cards remain in pile {pile}, so the supply is not "
                        "shared out", left=left, pile=state.pile + 1), offset=written.offset,
                    length=written.length))
                break  # `share:` and `rest:` say the same thing: one error

    @staticmethod
    def _sizes_if_ended(state: RivalsState) -> list[int]:
        """The pile sizes if the current pile ended with the card just uncovered."""
        sizes = list(state.sizes)
        sizes[-1] += sizes[state.pile] - state.in_pile
        sizes[state.pile] = state.in_pile
        return sizes

    # -- scoring ----------------------------------------------------------------------
    def score(self, state: RivalsState) -> Score:
        totals: list[int] = []
        breakdown: list[dict[str, int]] = []
        details: list[Any] = []
        for player in range(state.players):
            columns = [score_expedition(c, state.expeditions[player][c]) for c in COLOURS]
            gold = state.gold[player]
            parts = {col.colour: col.points for col in columns}
            parts["gold"] = gold
            totals.append(sum(parts.values()))
            breakdown.append(parts)
            details.append({"expeditions": [col.to_json() for col in columns], "gold": gold})
        return Score(totals, breakdown, details)

    # -- presentation -----------------------------------------------------------------
    def snapshot(self, state: RivalsState) -> dict[str, Any]:
        score = self.score(state)
        auction = state.auction
        pile_left = state.sizes[state.pile] - state.in_pile if not state.over else 0
        return {
            "variant": self.name,
            "turn": state.turn,
            "next_player": None if state.over else state.player,
            "over": state.over,
            "colours": list(COLOURS),
            "display": list(state.display),
            "box": list(state.box),
            "expeditions": [{c: list(cards) for c, cards in exp.items()}
                            for exp in state.expeditions],
            "starting_wagers": [list(w) for w in state.start_wagers],
            "gold": list(state.gold),
            "supply": state.supply,
            "pile": state.pile + 1,
            "piles": PILE_COUNT,
            "pile_sizes": list(state.sizes),
            "pile_left": pile_left,
            "cards_left": state.cards_left,
            "last_uncovered": state.last_up,
            "last_share": (None if state.last_share is None else
                           {"each": state.last_share[0], "rest": state.last_share[1]}),
            "auction": None if auction is None else {
                "turn": auction.turn,
                "bids": [{"player": seat, "bid": amount} for seat, amount in auction.bids],
                "winner": auction.winner, "price": auction.price,
                "placed": list(auction.placed), "boxed": auction.boxed,
                "uncovered": auction.uncovered},
            "scores": score.totals,
            "breakdown": score.breakdown,
            "last_move": format_move(state.last) if state.last else None,
        }

    def render_text(self, state: RivalsState, names: list[str], *, view: int | None = None) -> str:
        """The table as text. Every card and coin in Rivals is public, so ``view`` hides nothing."""
        score = self.score(state)
        # Each line a message (said in the reader's language by ``lcn show``).
        lines: list[str] = []
        status = msg("game over") if state.over else msg("{name} to play",
                                                         name=names[state.player])
        if state.over:
            where = msg("every card uncovered")
        else:
            left = state.sizes[state.pile] - state.in_pile
            where = (msg("pile {pile} of {count}: 1 card left", pile=state.pile + 1,
                         count=PILE_COUNT) if left == 1 else
                     msg("pile {pile} of {count}: {left} cards left", pile=state.pile + 1,
                         count=PILE_COUNT, left=left))
        lines.append(msg("After turn {turn}: {status}; {where}", turn=state.turn, status=status,
                         where=where))
        lines.append(msg("Display: {cards}", cards=" ".join(state.display) or "-"))
        lines.append(msg("Supply: {gold} gold; box: 1 card", gold=state.supply)
                     if len(state.box) == 1 else
                     msg("Supply: {gold} gold; box: {count} cards", gold=state.supply,
                         count=len(state.box)))
        if state.last_share is not None:
            each, rest = state.last_share
            lines.append(msg("Pile {pile} ran out: {each} gold to each player, {rest} left in "
                             "the supply", pile=state.pile, each=each, rest=rest))
        auction = state.auction
        if auction is not None and auction.winner is not None:
            steps = join([msg("{name} pass", name=names[seat]) if amount is None
                          else layout("{name} {amount}", name=names[seat], amount=amount)
                          for seat, amount in auction.bids])
            took = " ".join(auction.placed) or msg("nothing")
            boxed = msg(", returned {card}", card=auction.boxed) if auction.boxed else ""
            lines.append(msg("Last auction (turn {turn}): {steps}; {name} won for {price}, placed "
                             "{took}{boxed}, uncovered {uncovered}", turn=auction.turn,
                             steps=steps, name=names[auction.winner], price=auction.price,
                             took=took, boxed=boxed, uncovered=auction.uncovered))
        lines.append("")
        for player in range(state.players):
            lines.append(msg("{name}: {gold} gold", name=names[player], gold=state.gold[player]))
            for colour in COLOURS:
                cards = state.expeditions[player][colour]
                shown = " ".join(cards) if cards else "-"
                points = score.breakdown[player][colour]
                lines.append(layout("  {letter} {colour:<7} {cards:<40} {points:>5}",
                                    letter=colour, colour=COLOUR_NAMES[colour], cards=shown,
                                    points=points))
            lines.append(layout("  {label:<50} {points:>5}", label=msg("gold"),
                                points=state.gold[player]))
            lines.append(layout("  {label:<50} {points:>5}", label=msg("total"),
                                points=score.totals[player]))
        return join([*lines, ""], "\n")

    def copy_state(self, state: RivalsState) -> RivalsState:
        other = RivalsState.__new__(RivalsState)
        other.names = state.names
        other.players = state.players
        other.tokens = state.tokens
        other.gold = list(state.gold)
        other.supply = state.supply
        other.expeditions = [{c: list(v) for c, v in e.items()} for e in state.expeditions]
        other.tops = [dict(t) for t in state.tops]
        other.start_wagers = state.start_wagers
        other.display = list(state.display)
        other.box = list(state.box)
        other.sizes = list(state.sizes)
        other.sizes_known = state.sizes_known
        other.share_turns = state.share_turns
        other.pile_cards = state.pile_cards
        other.free = dict(state.free)
        other.pile = state.pile
        other.in_pile = state.in_pile
        other.uncovered = state.uncovered
        other.player = state.player
        other.turn = state.turn
        other.last = state.last
        other.last_up = state.last_up
        other.last_share = state.last_share
        other.auction = state.auction
        other.texts = state.texts
        other.numbers = state.numbers
        other.shift = state.shift
        other.lost = state.lost
        other.pending = state.pending
        other.calls = state.calls
        other.offset = state.offset
        return other

    # -- legal continuations (lcn.moves) ----------------------------------------------
    lists_moves = True
    partial_codes = frozenset({"no-uncover"})

    @staticmethod
    def _uncoverable(state: RivalsState) -> list[str]:
        """The cards the next uncover may name: the pile's top when the tags give it."""
        if state.over:
            return []
        pile = state.pile_cards[state.pile]
        if pile is not None:
            return [pile[state.in_pile]] if state.in_pile < len(pile) else []
        return [card for card, copies in state.free.items() if copies > 0]

    def _calls(self, state: RivalsState, bids: tuple[Bid, ...]
               ) -> tuple[list[int], int, int | None, int]:
        """Who is still in an auction, the high bid, its bidder and who calls next.

        Only to write candidates and their completions: the engine judges them.
        """
        active = list(range(state.players))
        high, winner, expected = 0, None, state.player
        for bid in bids:
            if bid.amount is None:
                if bid.seat in active:
                    active.remove(bid.seat)
            elif bid.amount > high:
                high, winner = bid.amount, bid.seat
            expected = self._next_active(active, bid.seat, state.players)
        return active, high, winner, expected

    def _closing(self, state: RivalsState, active: list[int], winner: int, seat: int) -> list[str]:
        """The passes that end an auction: everyone left but the winner, clockwise."""
        active = list(active)
        words = []
        while len(active) > 1 and seat != winner:
            words.append(f"{state.tokens[seat]}-")
            active.remove(seat)
            seat = self._next_active(active, seat, state.players)
        return words

    def _written(self, state: RivalsState, partial: str) -> RivalsMove | None:
        ups = self._uncoverable(state)
        try:
            return parse_move(f"{partial} up:{ups[0] if ups else 'Y2'}", state.tokens)
        except MoveSyntaxError:
            return None

    def candidate_moves(self, state: RivalsState, partial: str = ""
                        ) -> list[tuple[str, str]]:
        """The next word of a turn: an uncover; a bid or pass; the winner's placements (a
        first card ``place:R4``, then each next card ``,R7`` that extends the word, in
        rising order), box return and uncover.

        Each comes with the whole turn that shows it legal (the others passing, any card
        uncovered at the end); the engine filters what breaks a rule.
        """
        ups = self._uncoverable(state)
        if not ups:
            return []
        end = f"up:{ups[0]}"
        before = f"{partial} " if partial else ""
        if not partial:
            found = [(f"up:{card}", f"up:{card}") for card in ups]
            opener = state.player
            for amount in range(1, max(state.gold[opener], 0) + 1):
                word = f"{state.tokens[opener]}{amount}"
                rest = self._closing(state, list(range(state.players)), opener,
                                     self._next_active(list(range(state.players)), opener,
                                                       state.players))
                found.append((word, " ".join([word, *rest, end])))
            return found
        move = self._written(state, partial)
        if move is None or not move.bids:
            return []
        active, high, winner, expected = self._calls(state, move.bids)
        if move.place or move.box is not None or (winner is not None and len(active) == 1):
            return self._after_auction(state, move, winner, before, ups)
        found = []
        for amount in [None, *range(high + 1, max(state.gold[expected], 0) + 1)]:
            word = f"{state.tokens[expected]}{'-' if amount is None else amount}"
            calls = (*move.bids, Bid(expected, amount, state.tokens[expected], 0, 0))
            still, _, leader, after = self._calls(state, calls)
            if leader is None:
                continue
            rest = self._closing(state, still, leader, after)
            found.append((word, " ".join([before + word, *rest, end])))
        return found

    def _after_auction(self, state: RivalsState, move: RivalsMove, winner: int | None,
                       before: str, ups: list[str]) -> list[tuple[str, str]]:
        end = f"up:{ups[0]}"
        found: list[tuple[str, str]] = []
        display = list(state.display)
        for item in move.place:
            if item.value in display:
                display.remove(item.value)
        def order(card: str) -> tuple[int, int]:
            return COLOURS.index(card[0]), card_value(card)

        if move.box is None and winner is not None and (not move.place or before.rstrip()
                                                          .split()[-1].lower().startswith("place:")):
            # One card at a time, in rising order: a first card opens the `place:` word, each
            # next one extends it (`,B5`); listing every set of cards at once would grow
            # exponentially with the display.
            last = order(move.place[-1].value) if move.place else (-1, -1)
            for card in dict.fromkeys(sorted(display, key=order)):
                if state.can_use(winner, card) and order(card) >= last:
                    word = f",{card}" if move.place else f"place:{card}"
                    whole = f"{before.rstrip()}{word}" if move.place else f"{before}{word}"
                    found.append((word, f"{whole} {end}"))
        if move.box is None:
            for card in dict.fromkeys(display):
                found.append((f"box:{card}", f"{before}box:{card} {end}"))
        found.extend((f"up:{card}", f"{before}up:{card}") for card in ups)
        return found

    def acting_seat(self, state: RivalsState, partial: str = "") -> int:
        move = self._written(state, partial) if partial else None
        if move is None or not move.bids:
            return state.player
        active, _, winner, expected = self._calls(state, move.bids)
        if winner is not None and len(active) == 1:
            return winner
        return expected

    def move_label(self, state: RivalsState, text: str, move: RivalsMove
                   ) -> tuple[str, dict[str, Any]]:
        if text.startswith(","):
            return "rivals.place.more", {"card": text[1:]}
        key, colon, value = text.partition(":")
        if colon:
            return f"rivals.{key}", {"cards": value.replace(",", " "), "card": value}
        seat = next((s for s, token in enumerate(state.tokens) if text.startswith(token)), 0)
        amount = text[len(state.tokens[seat]):]
        if amount == "-":
            return "rivals.pass", {"player": state.names[seat]}
        return "rivals.bid", {"player": state.names[seat], "amount": amount}

    def describe_move(self, state: RivalsState, move: RivalsMove, names: list[str]
                      ) -> TurnStory:
        """"Quinn wins the auction for 2 gold, places a red wager card, uncovers the yellow
        5": the auction's winner and price (the highest bid, at most the winner's gold, as
        the engine charges it), the cards taken and returned, and the card uncovered."""
        from ..describe import TurnStory, card_words, cards_words
        from ..messages import join, msg

        up = str(move.up.value)
        if not move.is_auction:
            seat = state.player
            marks: dict[str, Any] = {"player": seat, "auction": False, "uncovered": up}
            return TurnStory(msg("{player} uncovers {card}", player=names[seat],
                                 card=card_words(up)), marks)
        _active, high, winner, _expected = self._calls(state, move.bids)
        seat = state.player if winner is None else winner
        price = min(high, max(state.gold[seat], 0))
        placed = [str(item.value) for item in move.place]
        boxed = str(move.box.value) if move.box is not None else None
        parts = [msg("{player} wins the auction for {price} gold", player=names[seat],
                     price=price)]
        if placed:
            parts.append(msg("places {cards}", cards=cards_words(placed)))
        if boxed is not None:
            parts.append(msg("returns {card} to the box", card=card_words(boxed)))
        parts.append(msg("uncovers {card}", card=card_words(up)))
        marks = {"player": seat, "auction": True, "winner": seat, "price": price,
                 "placed": placed, "boxed": boxed, "uncovered": up}
        return TurnStory(join(parts), marks)


VARIANT = RivalsVariant()

"""Classic Lost Cities (2 players, 5 or 6 expeditions): cards, moves, state, rules, scoring.

One engine serves every level of knowledge about the deal. What a record does not say (a
starting hand, a card drawn blind from the draw pile) is an *unknown slot* in that
player's hand; a card a player reveals that is not known to be in their hand must fill
such a slot, and must not be known to be anywhere else. With the whole deal known there
are no unknown slots and every turn is checked against the exact hand; without it the same
checks decide whether *some* deal makes the record legal (the argument is in
``docs/hidden-information.md``). Rule IDs are those of ``seeds/classic.md``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, Severity, hint

# The cards and the words of turns, named here too for the code that imports them from here.
from ..games.classic.cards import (
    CLASSIC_5,
    CLASSIC_6,
    COLOUR_NAMES,
    ClassicConfig,
    ClassicMove,
    card_value,
    format_move,
    move_cache,
    parse_card,
    parse_cards,
    parse_move,
)
from ..games.classic.verdict import express_check
from ..messages import Message, join, layout, msg, template
from .base import ExpressResult, MoveSyntaxError, Problem, Score, Variant

if TYPE_CHECKING:
    from ..describe import TurnStory
    from ..model import GameRecord


@dataclass(slots=True)
class ExpeditionScore:
    """One column's score, with every step of the rulebook's computation."""

    colour: str
    cards: list[str]
    started: bool
    wagers: int
    total: int
    cost: int
    multiplier: int
    bonus: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour, "cards": list(self.cards), "started": self.started,
                "wagers": self.wagers, "sum": self.total, "cost": self.cost,
                "multiplier": self.multiplier, "bonus": self.bonus, "points": self.points}


def score_expedition(colour: str, cards: list[str], config: ClassicConfig = CLASSIC_5
                     ) -> ExpeditionScore:
    """Score one column: (sum − 20) × (1 + wagers), plus 20 for 8+ cards (not multiplied).

    >>> score_expedition("B", ["Bw", "Bw", "B2", "B4", "B5", "B6", "B7", "B8", "B9"]).points
    83
    """
    if not cards:
        return ExpeditionScore(colour, [], False, 0, 0, 0, 1, 0, 0)
    wagers, total, multiplier, bonus, points = _column(cards, config)
    return ExpeditionScore(colour, list(cards), True, wagers, total, config.cost, multiplier,
                           bonus, points)


def _column(cards: list[str], config: ClassicConfig) -> tuple[int, int, int, int, int]:
    """The steps of a started column's score: wagers, sum, multiplier, bonus, points."""
    wagers = total = 0
    for card in cards:
        rank = card[1:]
        if rank == "w":
            wagers += 1
        else:
            total += int(rank)
    multiplier = 1 + wagers
    bonus = config.bonus if len(cards) >= config.bonus_length else 0
    return wagers, total, multiplier, bonus, (total - config.cost) * multiplier + bonus


def _ordinal(number: int) -> str:
    # The suffix is a message of its own: other languages write ordinals otherwise (44.).
    suffix = _TH if 10 <= number % 100 <= 20 else _SUFFIXES.get(number % 10, _TH)
    return msg("{number}{suffix}", number=number, suffix=Message(suffix))


_SUFFIXES = {1: template("st"), 2: template("nd"), 3: template("rd")}
_TH = template("th")
_PLACE_NAMES = {"hand": template("in {name}'s hand"),
                "exp": template("in {name}'s {colour} expedition"),
                "pile": template("on the {colour} discard pile")}


class ClassicState:
    """The table and what is known of the hands, after some turns."""

    __slots__ = (
        "blind",
        "block",
        "calls",
        "config",
        "deck",
        "drawn",
        "expeditions",
        "hand_tag",
        "known",
        "last",
        "lines",
        "lost",
        "moves",
        "names",
        "numbers",
        "offset",
        "parity",
        "pending",
        "pile_size",
        "piles",
        "queue",
        "seat",
        "shift",
        "slipped",
        "texts",
        "tops",
        "turn",
        "unknown",
        "wagers_located",
        "where",
    )

    def __init__(self, config: ClassicConfig, names: list[str]) -> None:
        self.config = config
        self.names = names
        self.expeditions: list[dict[str, list[str]]] = [{c: [] for c in config.colours}
                                                        for _ in range(2)]
        #: Highest value placed per player and colour (0: none yet, wagers allowed).
        self.tops: list[dict[str, int]] = [dict.fromkeys(config.colours, 0) for _ in range(2)]
        self.piles: dict[str, list[str]] = {c: [] for c in config.colours}
        #: The draw pile from the top down, when the record gives it.
        self.deck: list[str] | None = None
        self.drawn = 0
        #: Cards known to be in each hand (a multiset: wager copies are alike).
        self.known: list[dict[str, int]] = [{}, {}]
        #: Cards of each hand whose identity the record has not revealed yet.
        self.unknown = [config.hand_size, config.hand_size]
        #: Blind draws from the draw pile so far, per player.
        self.blind = [0, 0]
        #: Whether each starting hand came from a Hand tag.
        self.hand_tag = [False, False]
        #: Where each number card is known to be: ("hand", p), ("exp", p), ("pile",), ("deck", i).
        self.where: dict[str, tuple[Any, ...]] = {}
        #: Wager copies whose place is known, per colour.
        self.wagers_located: dict[str, int] = dict.fromkeys(config.colours, 0)
        self.turn = 0
        #: 1 once the seats swapped after a turn the record left out (the player to move is
        #: the other one from there on), else 0.
        self.seat = 0
        #: The record's turn texts, to look ahead when a turn breaks a rule (None: unknown).
        self.texts: tuple[str, ...] | None = None
        #: A turn already played with the one before it (two turns written swapped), and the
        #: problems it broke, reported at its own turn.
        self.pending: tuple[ClassicMove, list[Problem]] | None = None
        #: Turns already played ahead, in the order of their move numbers, with their
        #: problems, for the turns that follow as written (``_play_block``); and the range of
        #: turns played so.
        self.queue: list[tuple[ClassicMove, list[Problem]]] = []
        #: Turns of the record played so far (``apply`` calls, whatever they did), and how
        #: far the record's position is from it, as the last move number read told: the
        #: turn about to be played stands at ``calls + offset`` in the record.
        self.calls = 0
        self.offset = 0
        #: The line of the record each turn starts on.
        self.lines: tuple[int, ...] = ()
        self.block: tuple[int, int] | None = None
        #: The plain move numbers (``12.``) the record writes before its turns (None where it
        #: writes none), as evidence of whose turn each is after turns were left out.
        self.numbers: tuple[int | None, ...] = ()
        #: 1 once the record's move numbers showed that an odd number of turns went missing
        #: or came in (a plain number before a turn of the second player), else 0.
        self.parity = 0
        #: The written move numbers less the expected ones since the last jump.
        self.shift = 0
        #: Whether the numbers showed turns left out or moved: what they did (discards,
        #: draws) is unknown, so a discard pile may hold cards the record never showed.
        self.lost = False
        #: Whether a turn of the record broke a rule already: the knowledge of the hands
        #: and the deck may be wrong from there on (see ``ClassicVariant._forget``).
        self.slipped = False
        self.last: ClassicMove | None = None
        #: Read on every turn, so kept here rather than computed from the config each time.
        self.pile_size = config.pile_size
        self.moves = move_cache(config)

    @property
    def cards_left(self) -> int:
        return self.pile_size - self.drawn

    def place_of(self, card: str) -> str:
        """Where a number card is known to be, in words."""
        place = self.where.get(card)
        if place is None:
            return msg("unseen")
        kind = place[0]
        if kind == "deck":
            return msg("still in the draw pile ({position} from the top)",
                       position=place[1] + 1 - self.drawn)
        name = self.names[place[1]] if len(place) > 1 else ""
        return Message(_PLACE_NAMES[kind], {"name": name, "colour": COLOUR_NAMES[card[0]]})

    def hand(self, player: int) -> list[str]:
        """The known cards of a hand, sorted by colour then value."""
        cards = [card for card, n in self.known[player].items() for _ in range(n)]
        return self.sort_cards(cards)

    def sort_cards(self, cards: list[str]) -> list[str]:
        order = {c: i for i, c in enumerate(self.config.colours)}
        return sorted(cards, key=lambda c: (order[c[0]], card_value(c)))

    def unseen(self) -> dict[str, int]:
        """The cards whose place the record does not fix yet, with their copies left.

        These are exactly the cards that fill the unknown slots of both hands and the
        undrawn part of the draw pile when the Deck tag is missing, in any combination
        (``docs/hidden-information.md``).
        """
        pool: dict[str, int] = {}
        for colour in self.config.colours:
            copies = self.config.wagers - self.wagers_located[colour]
            if copies > 0:
                pool[colour + "w"] = copies
            for value in self.config.values:
                card = f"{colour}{value}"
                if card not in self.where:
                    pool[card] = 1
        return pool

    def deduced(self, player: int) -> list[str]:
        """Unknown cards of a hand that every deal consistent with the record puts there.

        The unknown slots of the hand take any ``unknown`` of the unseen cards, so a card
        is certain only when the other places cannot hold all its copies: ``u`` slots among
        ``n`` unseen cards hold at least ``u - (n - m)`` of a card with ``m`` copies. This
        is how one player, once the draw pile is empty, knows the other's whole hand.
        """
        slots = self.unknown[player]
        if not slots:
            return []
        pool = self.unseen()
        total = sum(pool.values())
        cards = [card for card, copies in pool.items()
                 for _ in range(max(0, min(copies, slots - (total - copies))))]
        return self.sort_cards(cards)

    def knowledge(self, player: int) -> dict[str, Any]:
        """What the record tells of a hand: the cards certainly in it, and how many others.

        ``known`` holds every card that is in the hand under every deal consistent with the
        record so far (with wager copies repeated), ``deduced`` those of them that no tag,
        ``/d=`` or discard-pile draw names but that the rest of the record forces.
        """
        deduced = self.deduced(player)
        return {"known": self.sort_cards(self.hand(player) + deduced),
                "unknown": self.unknown[player] - len(deduced), "deduced": deduced}

    def wager_places(self, colour: str) -> str:
        """Where the wager copies of a colour are known to be, in words."""
        card = colour + "w"
        name = COLOUR_NAMES[colour]
        places = []
        for player in range(2):
            count = self.known[player].get(card, 0)
            if count:
                places.append(msg("{count} in {name}'s hand", count=count,
                                  name=self.names[player]))
            count = self.expeditions[player][colour].count(card)
            if count:
                places.append(msg("{count} in {name}'s {colour} expedition", count=count,
                                  name=self.names[player], colour=name))
        count = self.piles[colour].count(card)
        if count:
            places.append(msg("{count} on the {colour} discard pile", count=count, colour=name))
        if self.deck is not None:
            count = self.deck[self.drawn:].count(card)
            if count:
                places.append(msg("{count} still in the draw pile", count=count))
        return join(places) if places else msg("none left")


#: Turns read ahead to see whether a card is played later (a whole game without loops
#: through the discard piles has fewer turns than this).
_LOOKAHEAD = 120


class ClassicVariant(Variant[ClassicState, ClassicMove]):
    """Classic Lost Cities through the variant interface."""

    name = "classic"
    title = "Lost Cities"
    turn_unit = "word"
    rule_game_over = "C-END-LAST-DRAW"
    rule_result = "C-END-RESULT"
    rule_turn_order = "C-TURN-ORDER"
    express = True

    def __init__(self, config: ClassicConfig | None = None) -> None:
        #: A fixed card set (for exhaustive tests); otherwise the Expeditions tag decides.
        self.fixed_config = config

    # -- setup ------------------------------------------------------------------------
    def config_for(self, record: GameRecord) -> tuple[ClassicConfig, list[Problem]]:
        if self.fixed_config is not None:
            return self.fixed_config, []
        value = (record.tags.get("Expeditions") or "5").strip()
        if value == "5":
            return CLASSIC_5, []
        if value == "6":
            return CLASSIC_6, []
        return CLASSIC_5, [Problem("tag-value", "C-SETUP-SIXTH",
                                   msg('[Expeditions "{value}"]: expected "5" or "6"; 5 is assumed',
                                       value=value),
                                   tag="Expeditions")]

    def players(self, record: GameRecord, state: ClassicState | None = None) -> list[str]:
        return [record.tags.get(f"Player{seat}") or f"Player {seat}" for seat in (1, 2)]

    def setup(self, record: GameRecord) -> tuple[ClassicState, list[Problem]]:
        config, problems = self.config_for(record)
        state = ClassicState(config, self.players(record))
        tags = set(record.tags)
        for extra in _other_seats(tags):
            problems.append(Problem("player-count", "C-SETUP-PLAYERS",
                                    msg("classic Lost Cities is for 2 players, but Player{extra} is "
                                        "given", extra=extra), tag=f"Player{extra}"))
        for seat in (1, 2):
            if f"Player{seat}" not in tags:
                problems.append(Problem("missing-tag", "C-SETUP-PLAYERS",
                                        msg('no Player{seat} tag: the player is called "Player '
                                            '{seat}"', seat=seat), Severity.WARNING, tag=f"Player{seat}"))
        for seat, tag in enumerate(("Hand1", "Hand2")):
            text = record.tags.get(tag)
            if text is None:
                continue
            cards = self._deal_cards(tag, text, config, problems)
            if cards is None:
                continue
            if len(cards) != config.hand_size:
                problems.append(Problem("deal-invalid", "C-SETUP-DEAL",
                                        msg("{tag} has {count} cards; a starting hand has "
                                            "{hand_size}",
                                            tag=tag, count=len(cards), hand_size=config.hand_size),
                                        tag=tag))
                continue
            state.hand_tag[seat] = True
            state.unknown[seat] = 0
            known = state.known[seat]
            for card in cards:
                known[card] = known.get(card, 0) + 1
            self._deal(state, cards, tag, problems, seat)
        text = record.tags.get("Deck")
        if text is not None:
            cards = self._deal_cards("Deck", text, config, problems)
            if cards is not None and len(cards) != config.pile_size:
                problems.append(Problem("deal-invalid", "C-SETUP-DEAL",
                                        msg("Deck has {count} cards; the draw pile holds "
                                            "{pile_size} after the deal",
                                            count=len(cards), pile_size=config.pile_size), tag="Deck"))
            elif cards is not None:
                state.deck = cards
                self._deal(state, cards, "Deck", problems)
        state.texts = tuple(turn.text for turn in record.turns)
        state.numbers = tuple(turn.number if turn.number_dots < 3 else None
                              for turn in record.turns)
        state.lines = tuple(turn.line for turn in record.turns)
        return state, problems

    @staticmethod
    def _deal_cards(tag: str, text: str, config: ClassicConfig,
                    problems: list[Problem]) -> list[str] | None:
        try:
            return parse_cards(text, config)
        except MoveSyntaxError as exc:
            problems.append(Problem("deal-invalid", "C-SETUP-DEAL", msg("{tag}: {message}",
                                                                        tag=tag, message=exc.message),
                                                                    tag=tag))
            return None

    def _deal(self, state: ClassicState, cards: list[str], tag: str, problems: list[Problem],
              seat: int | None = None) -> None:
        """Place the cards of a Hand tag (its seat given) or of the Deck tag, in order.

        The usual card, not known anywhere yet, is placed here without a call; the others
        go through ``_locate``, which says what is wrong.
        """
        where, located, wagers = state.where, state.wagers_located, state.config.wagers
        hand = ("hand", seat)
        for index, card in enumerate(cards):
            place = hand if seat is not None else ("deck", index)
            if card[1] != "w":
                if card not in where:
                    where[card] = place
                    continue
            elif located[card[0]] < wagers:
                located[card[0]] += 1
                continue
            self._locate(state, card, place, tag, problems)

    @staticmethod
    def _locate(state: ClassicState, card: str, place: tuple[Any, ...], tag: str,
                problems: list[Problem]) -> None:
        if card[1] == "w":
            colour = card[0]
            if state.wagers_located[colour] >= state.config.wagers:
                problems.append(Problem("deal-invalid", "C-CARD-UNIQUE",
                                        msg("{tag}: more than {wagers} {card} cards in the deal",
                                            tag=tag, wagers=state.config.wagers, card=card), tag=tag))
            state.wagers_located[colour] += 1
            return
        if card in state.where:
            problems.append(Problem("deal-invalid", "C-CARD-UNIQUE",
                                    msg("{tag}: {card} is dealt twice (it is also {place})",
                                        tag=tag, card=card, place=state.place_of(card)), tag=tag))
            return
        state.where[card] = place

    def express_check(self, record: GameRecord, words: list[str]) -> ExpressResult | None:
        tags = record.tags.mapping
        if self.fixed_config is not None:
            config = self.fixed_config
        else:
            expeditions = tags.get("Expeditions")
            if expeditions is None or expeditions == "5":
                config = CLASSIC_5
            elif expeditions == "6":
                config = CLASSIC_6
            else:
                return None  # spelt otherwise (config_for reads it) or wrong: the full engine
        return express_check(record, words, config)

    # -- turns ------------------------------------------------------------------------
    def parse_move(self, state: ClassicState, text: str) -> ClassicMove:
        move = state.moves.get(text)
        return move if move is not None else parse_move(text, state.config)

    def format_move(self, move: ClassicMove) -> str:
        return format_move(move)

    def current_player(self, state: ClassicState) -> int:
        return (state.turn + state.seat) & 1

    def is_over(self, state: ClassicState) -> bool:
        return state.drawn >= state.pile_size

    def legal_moves(self, state: ClassicState) -> list[ClassicMove]:
        """Every turn the player to move may play, as far as the record knows their hand.

        The cards are those known to be in the hand and, while the hand has unknown slots,
        every card that can still fill one (``ClassicState.unseen``): a move is listed when
        some deal consistent with the record lets the player make it, which is exactly when
        ``apply`` finds no problem with it. Draws from the draw pile are written plain
        (``/d``). Empty once the game is over.
        """
        if self.is_over(state):
            return []
        player = state.turn & 1
        cards = set(state.known[player])
        if state.unknown[player]:
            cards.update(state.unseen())
        tops = state.tops[player]
        moves: list[ClassicMove] = []
        for card in state.sort_cards(list(cards)):
            colour = card[0]
            top = tops[colour]
            placeable = top == 0 if card[1] == "w" else int(card[1:]) > top
            for discard in (False, True) if placeable else (True,):
                moves.append(ClassicMove(discard, card, "d"))
                moves.extend(ClassicMove(discard, card, pile) for pile in state.config.colours
                             if state.piles[pile] and not (discard and pile == colour))
        return moves

    def end_reason(self, state: ClassicState) -> str:
        return msg("the last card of the draw pile was drawn, the {ordinal} draw from it",
                   ordinal=_ordinal(state.config.pile_size))

    def progress(self, state: ClassicState) -> str:
        left = state.cards_left
        return msg("{left} card left in the draw pile", left=left) if left == 1 else \
            msg("{left} cards left in the draw pile", left=left)

    def match_tracker(self) -> ClassicMatchTracker:
        return ClassicMatchTracker()

    def move_number(self, state: ClassicState, turn_index: int) -> tuple[int, bool]:
        """The number and form the turn's move number should have.

        Pairs of turns are numbered, plain before the first player's turn; after the
        record's own numbers showed an odd number of turns left out or moved (``_numbers``)
        the form follows them.
        """
        # Where the turn stands in the record, for ``apply`` to read its number with it.
        state.offset = turn_index - state.calls
        number = turn_index // 2 + 1
        if state.block is not None and state.block[0] <= turn_index < state.block[1]:
            # Turns played in the order of their numbers (``_play_block``): their numbers
            # were read already, and agree with it.
            return number, state.numbers[turn_index] is not None
        return number, (turn_index + state.parity) % 2 == 0

    @staticmethod
    def _numbers(state: ClassicState) -> None:
        """Read the move number written before the turn about to be played as evidence.

        A number that jumps shows turns left out or moved (a line of the record lost, two
        lines swapped): the hands and the draw pile are no longer known after that
        (``_forget``), nor what the discard piles received. A plain number before what
        should be the second player's turn shows an odd number of them: the turns and the
        numbers alternate from it, this turn being the first player's.
        """
        turn = state.calls + state.offset
        written = state.numbers[turn] if 0 <= turn < len(state.numbers) else None
        if written is None or not turn:
            return
        if (turn + state.parity) % 2:
            state.parity ^= 1
            state.seat = state.turn & 1
        number = turn // 2 + 1
        if written != number + state.shift:
            state.shift = written - number
            state.slipped = state.lost = True

    def apply(self, state: ClassicState, move: ClassicMove) -> list[Problem]:
        try:
            return self._turn(state, move)
        finally:
            state.calls += 1

    def _turn(self, state: ClassicState, move: ClassicMove) -> list[Problem]:
        if state.pending is not None:
            (played, problems), state.pending = state.pending, None
            if played == move:
                return problems
        if state.queue:
            (played, problems), *rest = state.queue
            state.queue = rest
            if not rest:
                state.block = None
            if played == move:
                return problems
            state.queue = []  # not the turn read ahead: the record is followed as written
            state.block = None
        elif state.texts is not None and state.numbers:
            block = self._swapped_block(state)
            if block is not None:
                # What the turn breaks where it is written is told all the same: the
                # numbers explain the turns that follow, not the first one out of place.
                written = self._apply(self.copy_state(state), move)
                told = self._play_block(state, block)
                if told is not None:
                    errors = any(p.severity is Severity.ERROR for p in written)
                    return written if errors else told
        return self._apply(state, move)

    def _apply(self, state: ClassicState, move: ClassicMove) -> list[Problem]:
        if state.numbers:
            self._numbers(state)
        player = (state.turn + state.seat) & 1
        if state.unknown[player] == 0 and not state.known[player].get(move.card) \
                and state.texts is not None:
            if state.slipped and self._misplaced(state, move.card, player):
                self._forget(state)
            elif state.cards_left > 2:
                slip = self._resync(state, move, player)
                if slip is not None:
                    state.slipped = True
                    return slip
        problems = self._play(state, move, player)
        if problems and state.texts is not None \
                and any(p.severity is Severity.ERROR for p in problems):
            state.slipped = True
        return problems

    @staticmethod
    def _true_index(state: ClassicState, position: int) -> int | None:
        """The index the record's move number gives the turn written at ``position``."""
        number = state.numbers[position] if position < len(state.numbers) else None
        return None if number is None else 2 * (number - 1)

    def _swapped_block(self, state: ClassicState) -> tuple[int, int, int] | None:
        """Where the record wrote a run of turns ahead of the run before it, by its numbers.

        Two lines of a record swapped (people copy a game line by line) read as a jump of
        the move numbers ahead, then back, then on as before. The runs are found from the
        numbers alone, ``(t, u, v)``: the turns at ``u..v-1`` come before those at
        ``t..u-1``. Every number in them must agree, so a mere typo is never taken for it.
        """
        t = state.calls + state.offset
        numbers = state.numbers
        if not 0 <= t < len(numbers):
            return None
        first = next((p for p in (t, t + 1) if self._true_index(state, p) is not None), None)
        if first is None or (first > t and (not t or state.lines[t] == state.lines[t - 1])):
            # A turn without a number goes with the one before it unless a line starts
            # with it: people copy a record line by line.
            return None
        start = self._true_index(state, first)
        assert start is not None
        start -= first - t
        size_a = start - t  # how many turns the later run was written ahead by
        if size_a < 2:
            return None
        end = min(len(numbers), t + 2 * _LOOKAHEAD)
        back = next((q for q in range(first + 1, end)
                     if (true := self._true_index(state, q)) is not None and true < q), None)
        if back is None:
            return None
        true_back = self._true_index(state, back)
        assert true_back is not None
        u = back - (true_back - t)
        v = u + size_a
        if not t < u <= back < v <= len(numbers):
            return None
        size_b = u - t
        for position in range(t, min(v + 2, len(numbers))):
            true = self._true_index(state, position)
            if true is None:
                continue
            want = position + size_a if position < u else \
                position - size_b if position < v else position
            if true != want:
                return None
        return t, u, v

    def _play_block(self, state: ClassicState, block: tuple[int, int, int]) -> list[Problem] | None:
        """Play two runs of turns written in each other's place in the order of their
        numbers; each turn's problems are told at the turn as written."""
        assert state.texts is not None
        t, u, v = block
        try:
            moves = {i: self.parse_move(state, state.texts[i]) for i in range(t, v)}
        except MoveSyntaxError:
            return None  # a turn in them is unreadable: the record is followed as written
        told: dict[int, list[Problem]] = {}
        for i in [*range(u, v), *range(t, u)]:
            player = (state.turn + state.seat) & 1
            told[i] = self._play(state, moves[i], player)
            if any(p.severity is Severity.ERROR for p in told[i]):
                state.slipped = True
        state.queue = [(moves[i], told[i]) for i in range(t + 1, v)]
        state.block = (t, v)
        return told[t]

    @staticmethod
    def _misplaced(state: ClassicState, card: str, player: int) -> bool:
        """Whether the record knows the card to be in the other hand or still in the draw
        pile: after a slip, the sign that the hands the record shows went astray."""
        if state.known[player ^ 1].get(card):
            return True
        if card[1] == "w":
            return state.deck is not None and card in state.deck[state.drawn:]
        place = state.where.get(card)
        return place is not None and place[0] == "deck"

    @staticmethod
    def _forget(state: ClassicState) -> None:
        """Forget what the record told of the hands and the draw pile, after a slip.

        A card played from a fully known hand that does not hold it, after an earlier turn
        broke a rule, most likely shows that the slip changed who drew what (a draw from the
        wrong pile, a line of turns left out or moved): every later draw would be given to
        the wrong hand, and every card played from there on would be an error. So the hands
        become unknown and the draw pile hidden, as in a record without the deal, and the
        rest of the game is checked for what stays certain: the expeditions, the discard
        piles, and the cards seen in them.
        """
        for player in (0, 1):
            known = state.known[player]
            for card, count in known.items():
                if card[1] == "w":
                    state.wagers_located[card[0]] -= count
                else:
                    state.where.pop(card, None)
                state.unknown[player] += count
            known.clear()
            state.hand_tag[player] = False
            state.blind[player] = 0
        if state.deck is not None:
            for card in state.deck[state.drawn:]:
                if card[1] == "w":
                    state.wagers_located[card[0]] -= 1
                elif state.where.get(card, ("",))[0] == "deck":
                    del state.where[card]
            state.deck = None

    def _peek(self, state: ClassicState, ahead: int) -> ClassicMove | None:
        """The move ``ahead`` turns after the one being played, as the record writes it."""
        assert state.texts is not None
        index = state.turn + ahead
        if index >= len(state.texts):
            return None
        try:
            return self.parse_move(state, state.texts[index])
        except MoveSyntaxError:
            return None

    def _resync(self, state: ClassicState, move: ClassicMove, player: int) -> list[Problem] | None:
        """Follow the most likely intent of a card that a fully known hand does not hold.

        The problems reported are those of the move as written; then the state follows what
        was most likely played, so that one slip gives one error:

        - the card is in the other hand, and the next turn's card is not: a turn was left
          out, so the seats swap from here (the missing turn is taken to draw from the draw
          pile, as most do, and its card stays unknown in the hand);
        - ...but the next two turns play cards of this hand: two turns were written
          swapped, and both are played in their order;
        - otherwise the card was miswritten: the card of this hand of the same colour (the
          nearest value that can be placed) or else of the same value is played instead.
        """
        other = player ^ 1
        card = move.card
        problems = self._play(self.copy_state(state), move, player)
        if not problems:
            return None
        ahead = self._peek(state, 1)
        mine, theirs = state.known[player], state.known[other]
        if theirs.get(card) and (ahead is None or not theirs.get(ahead.card)):
            after = self._peek(state, 2)
            if ahead is not None and mine.get(ahead.card) and after is not None \
                    and mine.get(after.card) and not theirs.get(after.card) \
                    and after.card != ahead.card:
                problems[0].hint = hint("classic-swap", name=state.names[other])
                done = self._play(state, ahead, player)
                self._play(state, move, other)
                state.pending = (ahead, done)
                return problems
            problems[0].hint = hint("classic-missing", name=state.names[other])
            if state.deck is not None and state.drawn < len(state.deck):
                self._take(state, player, state.deck[state.drawn])
            else:
                state.unknown[player] += 1
                state.blind[player] += 1
            state.drawn += 1
            state.seat ^= 1
            self._play(state, move, other)
            return problems
        meant = self._meant(state, move, player)
        if meant is None:
            return None
        problems[0].hint = hint("keyword-typo", meant=meant)
        self._play(state, move._replace(card=meant), player)
        return problems

    @staticmethod
    def _meant(state: ClassicState, move: ClassicMove, player: int) -> str | None:
        """The card of the hand most likely meant by a card it does not hold.

        A miswritten card has its colour or its value right: the candidates are the hand's
        cards of the same colour or the same value. A number card is played once, so one
        that the record plays later was not meant here; of the others, one that can be
        placed where the move puts it and the nearest in value is taken. The record is read
        ahead a bounded number of turns (``_LOOKAHEAD``), so that a long record full of errors
        stays linear to check.
        """
        assert state.texts is not None
        later = state.texts[state.turn + 1:state.turn + 1 + _LOOKAHEAD]
        colour, value = move.card[0], card_value(move.card)
        top = state.tops[player][colour]
        options = []
        for card, count in state.known[player].items():
            if not count or (card[0] != colour and card[1:] != move.card[1:]):
                continue
            if card[1] != "w" and any(text.lstrip("xX").startswith(card)
                                      and text.lstrip("xX")[len(card):][:1] == "/"
                                      for text in later):
                continue
            illegal = not move.discard and (card_value(card) <= top if card[1] != "w"
                                            else state.tops[player][card[0]] > 0)
            options.append((illegal, abs(card_value(card) - value), card))
        return min(options)[2] if options else None

    def _play(self, state: ClassicState, move: ClassicMove, player: int) -> list[Problem]:
        problems: list[Problem] = []
        name = state.names[player]
        discard, card, draw, drawn = move  # once, rather than by name on every use
        colour = card[0]
        wager = card[1] == "w"
        offset = 1 if discard else 0

        # 1. The card must be in the hand: known there, or filling an unknown slot.
        known = state.known[player]
        count = known.get(card, 0)
        if count:
            # A copy known to be in the hand is the one played: wager copies are alike, so
            # this never rules out a deal that another choice would keep.
            if count == 1:
                del known[card]
            else:
                known[card] = count - 1
        else:
            problems.extend(self._reveal(state, player, card, offset))

        # 2. Place it: on the discard pile, or at the end of an expedition.
        if discard:
            state.piles[colour].append(card)
            if not wager:
                state.where[card] = ("pile",)
        else:
            top = state.tops[player][colour]
            if wager:
                if top:
                    problems.append(Problem(
                        "wager-after-number", "C-PLACE-WAGER-FIRST",
                        msg("{name} cannot place a wager on the {expedition} expedition: it "
                            "already holds the number card {colour}{top}", name=name,
                            expedition=COLOUR_NAMES[colour], colour=colour, top=top),
                        offset=0, length=len(card)))
            else:
                value = int(card[1:])
                if value <= top:
                    problems.append(Problem(
                        "not-ascending", "C-PLACE-ASCENDING",
                        msg("{card} cannot follow {colour}{top} in {name}'s {expedition} "
                            "expedition: each card must be higher than the one before",
                            card=card, colour=colour, top=top, name=name,
                            expedition=COLOUR_NAMES[colour]),
                        offset=0, length=len(card)))
                else:
                    state.tops[player][colour] = value
                state.where[card] = ("exp", player)
            state.expeditions[player][colour].append(card)

        # 3. Draw: the draw pile's top card, or a discard pile's top card.
        slash = len(card) + offset
        if draw == "d":
            if state.deck is not None:
                actual = state.deck[state.drawn]
                if drawn is not None and drawn != actual:
                    problems.append(Problem(
                        "draw-mismatch", "C-DRAW-DECK",
                        msg("the draw pile's top card is {actual}, not {drawn} (Deck tag)",
                            actual=actual, drawn=drawn),
                        offset=slash + 3, length=len(drawn)))
                known[actual] = known.get(actual, 0) + 1  # as _take, inline on the hot path
                if actual[1] != "w":
                    state.where[actual] = ("hand", player)
            elif drawn is not None:
                if drawn[1] == "w":
                    if state.wagers_located[drawn[0]] >= state.config.wagers:
                        problems.append(Problem(
                            "card-elsewhere", "C-CARD-UNIQUE",
                            msg("{name} cannot draw {drawn}: all {wagers} {colour} wager cards "
                                "are accounted for ({places})", name=name, drawn=drawn,
                                wagers=state.config.wagers, colour=COLOUR_NAMES[drawn[0]],
                                places=state.wager_places(drawn[0])),
                            offset=slash + 3, length=len(drawn)))
                    state.wagers_located[drawn[0]] += 1
                elif drawn in state.where:
                    problems.append(Problem(
                        "card-elsewhere", "C-CARD-UNIQUE",
                        msg("{name} cannot draw {drawn} from the draw pile: it is {place}",
                            name=name, drawn=drawn, place=state.place_of(drawn)),
                        offset=slash + 3, length=len(drawn)))
                self._take(state, player, drawn)
            else:
                state.unknown[player] += 1
                state.blind[player] += 1
            state.drawn += 1
        else:
            pile = state.piles[draw]
            pile_name = COLOUR_NAMES[draw]
            if not pile and state.lost:
                # Turns the record lost may have discarded there: an unknown card.
                state.unknown[player] += 1
                state.blind[player] += 1
            elif not pile:
                problems.append(Problem(
                    "draw-empty-pile", "C-DRAW-PILE",
                    msg("{name} cannot draw from the {pile_name} discard pile: it is empty",
                        name=name, pile_name=pile_name),
                    offset=slash, length=2))
                # Most draws are from the draw pile: one written for an empty discard pile
                # most likely meant it, and the game goes on with that card drawn (or one
                # unknown), so that the end of the draw pile comes where the record has it.
                if state.deck is not None and state.drawn < len(state.deck):
                    self._take(state, player, state.deck[state.drawn])
                else:
                    state.unknown[player] += 1  # the hand keeps its size, whatever was meant
                    state.blind[player] += 1
                state.drawn += 1
            else:
                if discard and draw == colour:
                    problems.append(Problem(
                        "draw-just-discarded", "C-DRAW-NOT-JUST-DISCARDED",
                        msg("{name} cannot take back {card}, the card just discarded", name=name, card=card),
                        offset=slash, length=2))
                self._take(state, player, pile.pop())
        state.turn += 1
        state.last = move
        return problems

    @staticmethod
    def _reveal(state: ClassicState, player: int, card: str, offset: int) -> list[Problem]:
        """A card placed that is not known to be in the hand fills one of its unknown slots.

        It must not be known to be anywhere else, and the hand must have an unknown slot
        left: its unknown starting cards plus its blind draws so far, less the cards
        revealed already. These two checks are exact (``docs/hidden-information.md``).
        """
        name = state.names[player]
        colour = card[0]
        length = len(card)
        problem = None
        if card[1] == "w":
            if state.wagers_located[colour] >= state.config.wagers:
                problem = Problem(
                    "card-elsewhere", "C-CARD-UNIQUE",
                    msg("{name} cannot hold another {card}: all {wagers} {colour} wager cards "
                        "are accounted for ({places})", name=name, card=card,
                        wagers=state.config.wagers, colour=COLOUR_NAMES[colour],
                        places=state.wager_places(colour)), offset=offset, length=length)
            state.wagers_located[colour] += 1
        else:
            place = state.where.get(card)
            if place is not None and place[0] == "deck":
                problem = Problem(
                    "not-in-hand", "C-HAND-CARD",
                    msg("{name} cannot hold {card} yet: it is {place}, by the Deck tag",
                        name=name, card=card, place=state.place_of(card)), offset=offset, length=length)
            elif place is not None:
                problem = Problem(
                    "card-elsewhere", "C-CARD-UNIQUE",
                    msg("{name} cannot hold {card}: it is {place}",
                        name=name, card=card, place=state.place_of(card)),
                    offset=offset, length=length)
        if state.unknown[player] > 0:
            state.unknown[player] -= 1
        elif problem is None:
            hand = " ".join(state.hand(player)) or "empty"
            if state.hand_tag[player] and state.blind[player] == 0:
                problem = Problem(
                    "not-in-hand", "C-HAND-CARD",
                    msg("{card} is not in {name}'s hand (the hand is {hand})",
                        card=card, name=name, hand=hand),
                    offset=offset, length=length)
            else:
                starting = 0 if state.hand_tag[player] else state.config.hand_size
                blind = state.blind[player]
                sources = []
                if starting:
                    sources.append(msg("{count} starting card", count=starting) if starting == 1
                                   else msg("{count} starting cards", count=starting))
                if blind:
                    sources.append(
                        msg("{count} card drawn unseen from the draw pile", count=blind)
                        if blind == 1 else
                        msg("{count} cards drawn unseen from the draw pile", count=blind))
                problem = Problem(
                    "too-many-unknown", "C-HAND-COUNT",
                    msg("{card} cannot be in {name}'s hand: {name} has already revealed {starting} "
                        "cards the record did not show entering the hand, as many as it can hold "
                        "({sources}); the rest of the hand is known: {hand}",
                        card=card, name=name, starting=starting + blind,
                        sources=join(sources, msg(" and ")), hand=hand),
                    offset=offset, length=length)
        return [problem] if problem is not None else []

    @staticmethod
    def _take(state: ClassicState, player: int, card: str) -> None:
        known = state.known[player]
        known[card] = known.get(card, 0) + 1
        if card[1] != "w":
            state.where[card] = ("hand", player)

    # -- scoring ----------------------------------------------------------------------
    def score(self, state: ClassicState) -> Score:
        # Run once per game by the validator, so the details are made as the dicts of
        # ExpeditionScore.to_json directly, without an ExpeditionScore per column.
        config = state.config
        totals: list[int] = []
        breakdown: list[dict[str, int]] = []
        details: list[Any] = []
        for player in range(2):
            points_of: dict[str, int] = {}
            columns = []
            expeditions = state.expeditions[player]
            for colour in config.colours:
                cards = expeditions[colour]
                if cards:
                    wagers, total, multiplier, bonus, points = _column(cards, config)
                    columns.append({"colour": colour, "cards": list(cards), "started": True,
                                    "wagers": wagers, "sum": total, "cost": config.cost,
                                    "multiplier": multiplier, "bonus": bonus, "points": points})
                else:
                    points = 0
                    columns.append({"colour": colour, "cards": [], "started": False, "wagers": 0,
                                    "sum": 0, "cost": 0, "multiplier": 1, "bonus": 0, "points": 0})
                points_of[colour] = points
            totals.append(sum(points_of.values()))
            breakdown.append(points_of)
            details.append(columns)
        return Score(totals, breakdown, details)

    # -- presentation -----------------------------------------------------------------
    def snapshot(self, state: ClassicState) -> dict[str, Any]:
        score = self.score(state)
        return {
            "variant": self.name,
            "turn": state.turn,
            "next_player": None if self.is_over(state) else (state.turn + state.seat) & 1,
            "over": self.is_over(state),
            "colours": list(state.config.colours),
            "expeditions": [{c: list(cards) for c, cards in exp.items()}
                            for exp in state.expeditions],
            "discard_piles": {c: list(cards) for c, cards in state.piles.items()},
            "draw_pile": state.cards_left,
            "hands": [state.knowledge(p) for p in range(2)],
            "scores": score.totals,
            "breakdown": score.breakdown,
            "last_move": format_move(state.last) if state.last else None,
        }

    def render_text(self, state: ClassicState, names: list[str], *, view: int | None = None) -> str:
        config = state.config
        score = self.score(state)
        width = max(len(n) for n in names) + 2
        # Each line a message (said in the reader's language by ``lcn show``), set out by
        # ``layout`` where it is columns rather than a sentence.
        lines: list[str] = []
        status = (msg("game over") if self.is_over(state) else
                  msg("{name} to move", name=names[(state.turn + state.seat) & 1]))
        lines.append(msg("After turn {turn}: {status}; draw pile: {count} cards", turn=state.turn,
                         status=status, count=state.cards_left))
        lines.append("")
        for player in (1, 0):
            lines.append(msg("{name}'s expeditions:", name=names[player]))
            for colour in config.colours:
                cards = state.expeditions[player][colour]
                points = score.breakdown[player][colour]
                shown = " ".join(cards) if cards else "-"
                lines.append(layout("  {letter} {colour:<7} {cards:<40} {points:>5}",
                                    letter=colour, colour=COLOUR_NAMES[colour], cards=shown,
                                    points=points))
            lines.append(layout("  {label:<50} {points:>5}", label=msg("total"),
                                points=score.totals[player]))
            if player == 1:
                lines.append("")
                piles = "  ".join(f"{c}:{state.piles[c][-1] if state.piles[c] else '-'}"
                                  f"({len(state.piles[c])})" for c in config.colours)
                lines.append(msg("Discard piles: {piles}", piles=piles))
                lines.append("")
        lines.append("")
        for player in range(2):
            hand: str
            if view is not None and view != player:
                hand = msg("{count} cards, hidden", count=config.hand_size)
            else:
                knowledge = state.knowledge(player)
                hand = " ".join(knowledge["known"]) or "-"
                if knowledge["unknown"]:
                    hand = msg("{cards} + {count} unknown", cards=hand,
                               count=knowledge["unknown"])
                if knowledge["deduced"] and knowledge["deduced"] == knowledge["known"]:
                    hand = msg("{cards} (deduced from the rest of the record)", cards=hand)
                elif knowledge["deduced"]:
                    hand = msg("{cards} (deduced: {deduced})", cards=hand,
                               deduced=" ".join(knowledge["deduced"]))
            lines.append(layout("{name:<{width}} {hand}", name=names[player] + ":", width=width,
                                hand=msg("hand {cards}", cards=hand)))
        return join([*lines, ""], "\n")

    def copy_state(self, state: ClassicState) -> ClassicState:
        other = ClassicState(state.config, state.names)
        other.expeditions = [{c: list(v) for c, v in e.items()} for e in state.expeditions]
        other.tops = [dict(t) for t in state.tops]
        other.piles = {c: list(v) for c, v in state.piles.items()}
        other.deck = state.deck
        other.drawn = state.drawn
        other.known = [dict(k) for k in state.known]
        other.unknown = list(state.unknown)
        other.blind = list(state.blind)
        other.hand_tag = list(state.hand_tag)
        other.where = dict(state.where)
        other.wagers_located = dict(state.wagers_located)
        other.turn = state.turn
        other.seat = state.seat
        other.texts = state.texts
        other.pending = state.pending
        other.slipped = state.slipped
        other.queue = list(state.queue)
        other.calls = state.calls
        other.lines = state.lines
        other.offset = state.offset
        other.block = state.block
        other.numbers = state.numbers
        other.parity = state.parity
        other.shift = state.shift
        other.lost = state.lost
        other.last = state.last
        return other

    # -- legal continuations (lcn.moves) ----------------------------------------------
    lists_moves = True

    def candidate_moves(self, state: ClassicState, partial: str = "") -> list[tuple[str, str]]:
        """Every card the player may hold, placed or discarded, then every draw source.

        The cards a hand may hold are its known cards and, while it has unknown slots, every
        unseen card (``docs/hidden-information.md``, §5). A draw from the draw pile is
        offered as ``/d``: the card drawn may be named (``/d=R5``) by whoever knows it, and
        the engine checks that name when it is given. The engine filters what is illegal.
        """
        if partial:
            return []  # a classic turn is one word
        player = state.turn & 1
        cards = set(state.known[player])
        if state.unknown[player] > 0:
            cards.update(state.unseen())
        sources = ["d", *state.config.colours]
        texts = [f"{'x' if discard else ''}{card}/{source}"
                 for discard in (False, True)
                 for card in state.sort_cards(list(cards))
                 for source in sources]
        return [(text, text) for text in texts]

    def candidate_draws(self, state: ClassicState, text: str) -> list[tuple[str, str]]:
        """Every kind of card of the game, as ``=R5`` after a turn that drew ``/d`` unnamed.

        Broad on purpose: the card placed, the cards seen elsewhere and, with the Deck tag,
        every card but the pile's top are refused by the engine (``_play``), which is the one
        judge of which names some deal allows.
        """
        try:
            move = self.parse_move(state, text)
        except MoveSyntaxError:
            return []
        if move.draw != "d" or move.drawn is not None:
            return []
        kinds = state.sort_cards(list(dict.fromkeys(state.config.all_cards())))
        return [(f"={card}", format_move(move._replace(drawn=card))) for card in kinds]

    def move_label(self, state: ClassicState, text: str, move: ClassicMove
                   ) -> tuple[str, dict[str, Any]]:
        if text.startswith("="):
            seat = self.current_player(state)
            name = state.names[seat] if 0 <= seat < len(state.names) else f"Player {seat + 1}"
            return "classic.drawn", {"player": name, "card": move.drawn}
        colour = COLOUR_NAMES[move.card[0]]
        key = "classic.discard" if move.discard else "classic.place"
        if move.draw == "d":
            key += ".pile"
            top = move.drawn or ""
        else:
            key += ".take"
            pile = state.piles[move.draw]
            top = pile[-1] if pile else ""
        return key, {"card": move.card, "colour": colour, "take": top,
                     "pile": COLOUR_NAMES.get(move.draw, "")}

    def describe_move(self, state: ClassicState, move: ClassicMove, names: list[str]
                      ) -> TurnStory:
        """"Pia places the red 9 and draws from the draw pile": the card placed or discarded,
        and the pile drawn from (with the card taken from a discard pile: it was face up)."""
        from ..describe import TurnStory, card_words, colour_words
        from ..messages import msg

        seat = self.current_player(state)
        player = names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"
        card = card_words(move.card)
        pile = state.piles.get(move.draw) if move.draw != "d" else None
        taken = pile[-1] if pile else None
        marks: dict[str, Any] = {"player": seat, "placed": move.card, "discarded": move.discard,
                                 "from": move.draw, "taken": taken}
        if move.discard:
            play = msg("{player} discards {card}", player=player, card=card)
        else:
            play = msg("{player} places {card}", player=player, card=card)
        if move.draw == "d":
            draw = msg("draws from the draw pile")
        elif taken is None:
            draw = msg("draws from the empty {pile} discard pile", pile=colour_words(move.draw))
        else:
            draw = msg("takes {taken} from the {pile} discard pile", taken=card_words(taken),
                       pile=colour_words(move.draw))
        line = msg("{play} and {draw}", play=play, draw=draw)
        return TurnStory(line, marks)


#: A seat's tag: ``Player`` and the seat's number (ASCII digits, no leading zero).
_SEAT_TAG = re.compile(r"Player([1-9][0-9]*)")


def _other_seats(tags: Iterable[str]) -> list[str]:
    """The seats past the two of classic named by the tags (``Player3``, ``Player6``,
    ``Player12``...), in order: every one is a ``player-count`` error (C-SETUP-PLAYERS).
    The numbers stay text: a tag may hold more digits than int() takes."""
    seats = (m.group(1) for tag in tags if (m := _SEAT_TAG.fullmatch(tag)))
    return sorted((seat for seat in seats if seat not in ("1", "2")), key=lambda n: (len(n), n))


#: A game number of the Game tag: ASCII digits, a few of them (int() of a long run is slow).
_ASCII_NUMBER = re.compile(r"[0-9]{1,9}")


class ClassicMatchTracker:
    """Checks the games of 3-game matches (``Match`` and ``Game`` tags) and keeps totals.

    Rule C-MATCH-FIRST-PLAYER is our reading of "the player who has more points begins":
    more points in the match so far; after a tie either player may begin.
    """

    def __init__(self) -> None:
        self.matches: dict[str, dict[str, Any]] = {}

    def add(self, report: Any) -> None:
        record = report.record
        name = record.tags.get("Match")
        if name is None:
            return
        line = record.tags.lines.get("Game", record.tags.lines.get("Match", record.line))

        def warn(code: str, rule: str, message: str, at: int = line) -> None:
            report.diagnostics.append(Diagnostic(code, message, Severity.WARNING, at, 1, None, rule))

        match = self.matches.setdefault(name, {"games": 0, "totals": {}})
        expected = match["games"] + 1
        text = record.tags.get("Game")
        # A number is ASCII digits only, as everywhere in LCN: `²`, `２` or `٢` are not read
        # (str.isdigit takes them, and int() takes some of them and fails on the others).
        digits = text.strip() if text is not None else ""
        number = int(digits) if _ASCII_NUMBER.fullmatch(digits) else None
        if text is None:
            warn("tag-value", "C-MATCH-THREE",
                 msg('match "{name}": expected a Game tag with the game\'s number 1-3', name=name))
        elif number is None:
            shown = text if len(text) <= 20 else text[:20] + "…"
            warn("tag-value", "C-MATCH-THREE",
                 msg('match "{name}": the Game tag "{shown}" is not a game number: expected 1, 2 or '
                     '3 in ASCII digits', name=name, shown=shown))
        elif number != expected:
            warn("match-order", "C-MATCH-THREE",
                 msg('match "{name}": game {number} where game {expected} was expected',
                     name=name, number=number, expected=expected))
        if expected > 3:
            warn("match-order", "C-MATCH-THREE", msg('match "{name}": a match has 3 games, this is '
                                                     'game {expected}', name=name, expected=expected))
        players = report.players
        totals: dict[str, int] = match["totals"]
        if match["games"]:
            if set(players) != set(totals):
                warn("match-players", "C-MATCH-THREE",
                     msg('match "{name}": the players differ from the earlier games ({players})',
                         name=name, players=", ".join(sorted(totals))))
            else:
                best = max(totals.values())
                leaders = [p for p, t in totals.items() if t == best]
                if len(leaders) == 1 and players[0] != leaders[0]:
                    warn("match-first-player", "C-MATCH-FIRST-PLAYER",
                         msg("{leader} leads the match {best} to {other} and should begin game "
                             "{expected}, but Player1 is {player}", leader=leaders[0], best=best,
                             other=min(totals.values()), expected=expected, player=players[0]),
                         record.tags.lines.get("Player1", line))
        for player in players:
            totals.setdefault(player, 0)
        scored = report.totals
        if report.over and report.complete and scored is not None:
            for player, points in zip(players, scored, strict=False):
                totals[player] += points
        match["games"] += 1
        report.extra["match"] = {"name": name, "game": number or expected, "totals": dict(totals)}


VARIANT = ClassicVariant()

__all__ = ["CLASSIC_5", "CLASSIC_6", "COLOUR_NAMES", "VARIANT", "ClassicConfig", "ClassicMatchTracker",
           "ClassicMove", "ClassicState", "ClassicVariant", "ExpeditionScore", "card_value", "format_move",
           "move_cache", "parse_card", "parse_cards", "parse_move", "score_expedition"]

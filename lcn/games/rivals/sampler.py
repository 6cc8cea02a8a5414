"""What one player knows of a game of Rivals, and a dealer of the cards still to be uncovered.

A search decides for a player who does not know the order of the piles: it plays its words
on full states dealt consistently with what that player saw (the "determinisations" of a
search over information sets). In Rivals nothing is held in a hand: every card is public
once uncovered (in the display, on an expedition, in the box, where it went face down
after everyone saw it), and so are the gold, the supply and the auctions. What no player
knows is the order of the cards not yet uncovered; they know which cards these are (the 80
of the game less those seen) and how many each pile still holds (the piles lie on the
table). So every seat has the same knowledge, and every order of the unseen cards is a
deal under which the game so far happened: the uncovered cards came off the top in the
order seen, whatever lies beneath. A uniformly shuffled deck makes every such order of the
physical cards equally likely, and every order of the card names stands for as many of them
(the product of the factorials of the copies left, the same for each order), so
:meth:`InfoSet.sample` shuffles the unseen cards; ``tests/test_rivals_core.py`` compares it
with every order late in games, checked one by one with today's engine.

The same holds within a turn: an auction's calls and the winner's placements and return show
nothing of the piles, so an information set taken after some words of a turn (the calls so
far, whose call it is, the cards placed) deals the same shuffle of the unseen cards under
the turn's state as it stands.

What a search deals is a :class:`DealtCore`: a full state whose uncover is one move,
:data:`UNCOVER`, whatever card each deal puts on top. The uncover is a decision (to open no
auction, or to place no more) whose card is chance: the search must play the same move on
every deal, and a player choosing it does not choose the card.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...diagnostics import Severity
from ...messages import Message, msg
from ...model import GameRecord, Tags, Turn
from ...variants.rivals import COLOURS, PILE_COUNT, RivalsState, RivalsVariant, card_set
from ..colours import colour_name
from .core import (
    BOX,
    CALLS,
    CARD_IDS,
    FOOT_OF,
    KINDS,
    MOVES,
    NAMES,
    PLACE,
    START,
    TO_BOX,
    UP,
    RivalsCore,
    Rule,
    Tables,
    tables_for,
    turn_words,
)

#: The uncover of whatever card lies on top: a move of :class:`DealtCore` only, one past the
#: core's moves, so that it is the same move on every deal.
UNCOVER = MOVES


class DealtCore(RivalsCore):
    """A full state a search plays on: the core, with the uncover as the one move
    :data:`UNCOVER` in the moves it lists and takes (the cards' own uncovers are taken too,
    as the rule-based player writes them), and written with the card ``shown``: the card
    the record says came, or any card that may come (its word names a card; its choice
    does not choose one)."""

    __slots__ = ("shown",)

    shown: int

    def copy(self) -> DealtCore:
        other = RivalsCore.copy(self)
        assert isinstance(other, DealtCore)
        other.shown = self.shown
        return other

    def legal_moves(self) -> list[int]:
        return [UNCOVER if move < PLACE else move for move in RivalsCore.legal_moves(self)]

    def step(self, move: int) -> int:
        if move == UNCOVER:
            move = self.deck[-1] if self.deck else UP
        return self.play((move,))

    def word(self, move: int) -> str:
        if move == UNCOVER:
            return f"up:{NAMES[self.shown]}"
        return self.tables.words[move]

    def move(self, word: str) -> int:
        """The move of a word; every uncover (with ``>box`` or not) is :data:`UNCOVER`."""
        move = self.tables.move(word)
        return UNCOVER if move < PLACE or move >= TO_BOX else move


@dataclass(frozen=True, slots=True)
class InfoSet:
    """One player's knowledge between two words: nothing in it depends on the piles' order.

    Cards are the core's integers (:mod:`lcn.games.rivals.core`); the expedition tuples
    are indexed ``player * 5 + colour`` as in :class:`RivalsCore`. Between two turns the
    turn's state is the start's (``phase`` START); within one it is the core's as it stands.
    """

    #: The player whose knowledge this is.
    seat: int
    players: int
    #: The player to move, and the turns played so far.
    player: int
    turn: int
    gold: tuple[int, ...]
    supply: int
    tops: tuple[int, ...]
    wagers: tuple[int, ...]
    numbers: tuple[int, ...]
    foot: tuple[int, ...]
    #: The display in the order its cards were uncovered, and the box.
    display: tuple[int, ...]
    box: tuple[int, ...]
    #: Every pile's size, the current pile, and the cards left in it.
    sizes: tuple[int, ...]
    pile: int
    left: int
    #: The cards not yet uncovered, sorted: they fill the rest of the piles in some order.
    unseen: tuple[int, ...]
    #: The table's words (``tables_for(tokens)``), kept to deal without a look-up.
    tables: Tables = field(compare=False, repr=False)
    #: The turn's state, as :class:`RivalsCore` keeps it: where the turn stands, the players
    #: still in an auction (a bit mask), the high bid and its bidder, who calls next, and the
    #: last card the winner placed.
    phase: int = START
    active: int = 0
    high: int = 0
    leader: int = 0
    expected: int = 0
    last: int = -1
    #: The card the uncover's word names in a search's answers (``-1``: the first unseen
    #: card). Only a word: the record's next card when it says it, never a card dealt.
    shown: int = field(default=-1, compare=False)

    def __post_init__(self) -> None:
        ahead = self.left + sum(self.sizes[self.pile + 1:])
        if len(self.unseen) != ahead:
            raise ValueError(f"{len(self.unseen)} unseen cards cannot fill the {ahead} places "
                             "left in the piles")
        if not 0 <= self.seat < self.players:
            raise ValueError(f"seat {self.seat}: the game has seats 0 to {self.players - 1}")

    def to_move(self) -> int:
        """The seat that writes the next word, as :meth:`RivalsCore.actor` says."""
        if self.phase == START:
            return self.player
        if self.phase == CALLS:
            return self.expected
        return self.leader

    def reason(self, best: int, played: int) -> Message | None:
        """Why ``best`` is better than ``played`` here, in one line, when a plain fact of the
        table says it: a card of the display that fits the winner's expedition returned to
        the box, or left there when the winner stops placing; None when the difference lies
        only in what the playouts found. Read from the table, which every seat sees alike.
        """
        if not PLACE <= best < BOX:
            return None
        card = (best - PLACE) % KINDS  # a first placement or a further one: the same card
        rank = card % 10
        top = self.tops[self.seat * 5 + card // 10]
        if not ((rank >= top) if rank else not top):
            return None
        name, colour = NAMES[card], colour_name(COLOURS[card // 10])
        if played == BOX + card:
            return msg("returns the {card} to the box though it fits your {colour} expedition",
                       card=name, colour=colour)
        if played == UNCOVER:
            return msg("stops placing while the {card} of the display fits your {colour} "
                       "expedition", card=name, colour=colour)
        return None

    def sample(self, rng: random.Random) -> DealtCore:
        """A full state dealt uniformly over the orders of the piles consistent with this
        knowledge, the turn's state as it stands."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        return self.dealt(cards)

    def dealt(self, cards: list[int]) -> DealtCore:
        """The full state with the unseen cards in this order (its end is the next card)."""
        state = DealtCore.__new__(DealtCore)
        state.tables = self.tables
        state.players = self.players
        state.gold = list(self.gold)
        state.supply = self.supply
        state.tops = list(self.tops)
        state.wagers = list(self.wagers)
        state.numbers = list(self.numbers)
        state.foot = list(self.foot)
        state.display = list(self.display)
        state.box = list(self.box)
        state.deck = cards
        state.sizes = list(self.sizes)
        state.pile = self.pile
        state.left = self.left
        state.player = self.player
        state.turn = self.turn
        state.phase = self.phase
        state.active = self.active
        state.high = self.high
        state.leader = self.leader
        state.expected = self.expected
        state.last = self.last
        state.shown = self.shown if self.shown >= 0 or not self.unseen else self.unseen[0]
        return state


def sample(infoset: InfoSet, rng: random.Random) -> RivalsCore:
    """A full state consistent with ``infoset``, every consistent order equally likely."""
    return infoset.sample(rng)


def infoset_of_core(core: RivalsCore, seat: int) -> InfoSet:
    """What ``seat`` knows of a full state, between two turns or within one: all of it but
    the piles' order."""
    if not 0 <= seat < core.players:
        raise ValueError(f"seat {seat}: the game has seats 0 to {core.players - 1}")
    return InfoSet(
        seat=seat, players=core.players, player=core.player, turn=core.turn,
        gold=tuple(core.gold), supply=core.supply, tops=tuple(core.tops),
        wagers=tuple(core.wagers), numbers=tuple(core.numbers), foot=tuple(core.foot),
        display=tuple(core.display), box=tuple(core.box), sizes=tuple(core.sizes),
        pile=core.pile, left=core.left, unseen=tuple(sorted(core.deck)), tables=core.tables,
        phase=core.phase, active=core.active, high=core.high, leader=core.leader,
        expected=core.expected, last=core.last)


def seat_view(record: GameRecord) -> GameRecord:
    """The record as a player at the table knows it: without the order of the piles, with
    their sizes (``PileSizes``, from the ``Pile`` tags when the record gives them)."""
    tags = Tags()
    piles = [record.tags.get(f"Pile{index + 1}") for index in range(PILE_COUNT)]
    for name, value in record.tags.items():
        if name not in {f"Pile{index + 1}" for index in range(PILE_COUNT)}:
            tags[name] = value
    if "PileSizes" not in tags and all(pile is not None for pile in piles):
        tags["PileSizes"] = " ".join(str(len(str(pile).split())) for pile in piles)
    return GameRecord(tags=tags, turns=[Turn(turn.text) for turn in record.turns],
                      termination="*")


def infoset_from_record(record: GameRecord, seat: int, *, turns: int | None = None,
                        words: int = 0) -> InfoSet:
    """What ``seat`` knows after the record's first ``turns`` turns (all by default) and
    then the first ``words`` words of the next turn (:func:`turn_words`: its calls, the
    winner's placements and return; never its uncover, which ends it).

    The record is first cut down to what a player at the table sees (:func:`seat_view`: the
    piles' order goes, their sizes stay), so a record with the piles and the same game
    without them give equal information sets. Today's engine replays the view's whole
    turns; its table is what the information set holds, and the core plays the words of
    the turn under way on it.

    Raises ValueError, saying why, when a turn or a word breaks a rule or the seat is not
    one of the game's.
    """
    view = seat_view(record)
    count = len(view.turns) if turns is None else turns
    if words and count >= len(view.turns):
        raise ValueError(f"the record has no turn {count + 1} to take words of")
    text = view.turns[count].text if words else ""
    state = deque(_replayed(view, seat, count), maxlen=1)[0]  # the state after the last turn
    infoset = infoset_of_state(state, seat)
    if not words:
        return infoset
    written = turn_words(text)
    if words > len(written):
        raise ValueError(f"turn {count + 1} (`{text}`) has {len(written)} words, not {words}")
    core = infoset.dealt(list(infoset.unseen))
    for word in written[:words]:
        move = core.move(word)
        if move == UNCOVER:
            raise ValueError(f"turn {count + 1} (`{text}`): `{word}` ends the turn, so no word follows it")
        code = core.step(move)
        if code:
            raise ValueError(f"turn {count + 1} (`{text}`): `{word}` breaks a rule ({Rule(code).rule_id})")
    return infoset_of_core(core, seat)


def turn_starts(record: GameRecord, seat: int, *, turns: int | None = None) -> Iterator[InfoSet]:
    """What ``seat`` knows before each of the record's first ``turns`` turns (all by default)
    and after the last of them: one replay of the view for every turn's start.

    Raises ValueError as :func:`infoset_from_record` does, when the replay comes to it.
    """
    view = seat_view(record)
    for state in _replayed(view, seat, len(view.turns) if turns is None else turns):
        yield infoset_of_state(state, seat)


def _replayed(view: GameRecord, seat: int, turns: int) -> Iterator[RivalsState]:
    """Today's engine state before each of the view's first ``turns`` turns and after the
    last of them: one state, played on between two of its yields."""
    del view.turns[turns:]
    variant = RivalsVariant()
    state, problems = variant.setup(view)
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if errors:
        raise ValueError(f"the deal cannot be read: {errors[0].message} ({errors[0].rule})")
    if not 0 <= seat < state.players:
        raise ValueError(f"seat {seat}: the game has seats 0 to {state.players - 1}")
    for index, turn in enumerate(view.turns):
        yield state
        if variant.is_over(state):
            raise ValueError(f"turn {index + 1} (`{turn.text}`) comes after the end of the game")
        problems = variant.apply(state, variant.parse_move(state, turn.text))
        errors = [p for p in problems if p.severity is Severity.ERROR]
        if errors:
            raise ValueError(f"turn {index + 1} (`{turn.text}`) breaks a rule: "
                             f"{errors[0].message} ({errors[0].rule})")
    yield state


def infoset_of_state(state: RivalsState, seat: int) -> InfoSet:
    """The information set of ``seat`` in today's engine state."""
    ids = CARD_IDS
    cells = state.players * len(COLOURS)
    tops, wagers, numbers, foot = [0] * cells, [0] * cells, [0] * cells, [0] * cells
    seen = dict.fromkeys(card_set(), 0)
    for player in range(state.players):
        for index, colour in enumerate(COLOURS):
            cell = player * len(COLOURS) + index
            for name in state.expeditions[player][colour]:
                card = ids[name]
                rank = card % 10
                seen[name] += 1
                if rank:
                    tops[cell] = max(tops[cell], rank)
                    numbers[cell] += 1
                    foot[cell] += FOOT_OF[card]
                else:
                    wagers[cell] += 1
        for name in state.start_wagers[player]:
            seen[name] -= 1  # a starting wager is not a card of the piles
    for name in (*state.display, *state.box):
        seen[name] += 1
    left = dict(card_set())
    for name, count in seen.items():
        left[name] -= count
    if any(count < 0 for count in left.values()):
        raise ValueError("the table holds more copies of a card than the game has")
    unseen = sorted(ids[name] for name, count in left.items() for _ in range(count))
    over = state.over
    pile = min(state.pile, PILE_COUNT - 1)
    return InfoSet(
        seat=seat, players=state.players, player=state.player, turn=state.turn,
        gold=tuple(state.gold), supply=state.supply, tops=tuple(tops), wagers=tuple(wagers),
        numbers=tuple(numbers), foot=tuple(foot), display=tuple(ids[c] for c in state.display),
        box=tuple(ids[c] for c in state.box), sizes=tuple(state.sizes), pile=pile,
        left=0 if over else state.sizes[pile] - state.in_pile, unseen=tuple(unseen),
        tables=tables_for(state.tokens))

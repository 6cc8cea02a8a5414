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
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...diagnostics import Severity
from ...model import GameRecord, Tags, Turn
from ...variants.rivals import COLOURS, PILE_COUNT, RivalsState, RivalsVariant, card_set
from .core import CARD_IDS, FOOT_OF, START, RivalsCore, Tables, tables_for


@dataclass(frozen=True, slots=True)
class InfoSet:
    """One player's knowledge between two turns: nothing in it depends on the piles' order.

    Cards are the core's integers (:mod:`lcn.games.rivals.core`); the expedition tuples
    are indexed ``player * 5 + colour`` as in :class:`RivalsCore`.
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

    def __post_init__(self) -> None:
        ahead = self.left + sum(self.sizes[self.pile + 1:])
        if len(self.unseen) != ahead:
            raise ValueError(f"{len(self.unseen)} unseen cards cannot fill the {ahead} places "
                             "left in the piles")
        if not 0 <= self.seat < self.players:
            raise ValueError(f"seat {self.seat}: the game has seats 0 to {self.players - 1}")

    def sample(self, rng: random.Random) -> RivalsCore:
        """A full state dealt uniformly over the orders of the piles consistent with this
        knowledge."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        state = RivalsCore.__new__(RivalsCore)
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
        state.phase = START
        state.active = state.high = state.leader = state.expected = 0
        state.last = -1
        return state


def sample(infoset: InfoSet, rng: random.Random) -> RivalsCore:
    """A full state consistent with ``infoset``, every consistent order equally likely."""
    return infoset.sample(rng)


def infoset_of_core(core: RivalsCore, seat: int) -> InfoSet:
    """What ``seat`` knows of a full state between two turns: all of it but the piles' order."""
    if core.phase != START:
        raise ValueError("a turn is being played: an information set is taken between turns")
    return InfoSet(
        seat=seat, players=core.players, player=core.player, turn=core.turn,
        gold=tuple(core.gold), supply=core.supply, tops=tuple(core.tops),
        wagers=tuple(core.wagers), numbers=tuple(core.numbers), foot=tuple(core.foot),
        display=tuple(core.display), box=tuple(core.box), sizes=tuple(core.sizes),
        pile=core.pile, left=core.left, unseen=tuple(sorted(core.deck)), tables=core.tables)


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


def infoset_from_record(record: GameRecord, seat: int, *, turns: int | None = None) -> InfoSet:
    """What ``seat`` knows after the record's first ``turns`` turns (all by default).

    The record is first cut down to what a player at the table sees (:func:`seat_view`: the
    piles' order goes, their sizes stay), so a record with the piles and the same game
    without them give equal information sets. Today's engine replays the view; its table
    is what the information set holds.

    Raises ValueError, saying why, when a turn breaks a rule or the seat is not one of the
    game's.
    """
    view = seat_view(record)
    if turns is not None:
        del view.turns[turns:]
    variant = RivalsVariant()
    state, problems = variant.setup(view)
    errors = [p for p in problems if p.severity is Severity.ERROR]
    if errors:
        raise ValueError(f"the deal cannot be read: {errors[0].message} ({errors[0].rule})")
    if not 0 <= seat < state.players:
        raise ValueError(f"seat {seat}: the game has seats 0 to {state.players - 1}")
    for index, turn in enumerate(view.turns):
        if variant.is_over(state):
            raise ValueError(f"turn {index + 1} (`{turn.text}`) comes after the end of the game")
        problems = variant.apply(state, variant.parse_move(state, turn.text))
        errors = [p for p in problems if p.severity is Severity.ERROR]
        if errors:
            raise ValueError(f"turn {index + 1} (`{turn.text}`) breaks a rule: "
                             f"{errors[0].message} ({errors[0].rule})")
    return infoset_of_state(state, seat)


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

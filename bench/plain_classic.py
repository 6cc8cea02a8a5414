"""A plain pure-Python classic Lost Cities engine, of the shape the published bots have.

Cards are strings (``"R5"``, ``"Rw"``), hands and piles lists of them, expeditions a dict of
lists per colour, and a move a tuple listed by a ``legal_moves`` that builds every option;
a random player picks from that list and the rule-based one looks at strings. It is the
yardstick of the playout rows of ``bench/playouts.py``: the same deals played to the end by
the same kinds of player, so that the ratio says what the core's integers and tables buy.
It is written here, plainly, for the bench only, and is held to the core's scores by
``tests/test_bench.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

#: A move: the card, whether it is discarded, and where the draw comes from ("d" or a colour).
Move = tuple[str, bool, str]


def _value(card: str) -> int:
    return 0 if card[1] == "w" else int(card[1:])


def _rank(card: str) -> int:
    """0 for a wager, 1 for a 2, ... 9 for a 10."""
    return 0 if card[1] == "w" else int(card[1:]) - 1


@dataclass
class PlainGame:
    """Both hands, the draw pile (its end is its top), the expeditions and discard piles."""

    colours: str
    hands: list[list[str]]
    deck: list[str]
    expeditions: list[dict[str, list[str]]] = field(default_factory=list)
    discards: dict[str, list[str]] = field(default_factory=dict)
    player: int = 0

    def __post_init__(self) -> None:
        if not self.expeditions:
            self.expeditions = [{c: [] for c in self.colours} for _ in range(2)]
        if not self.discards:
            self.discards = {c: [] for c in self.colours}

    def over(self) -> bool:
        return not self.deck

    def can_place(self, card: str) -> bool:
        column = self.expeditions[self.player][card[0]]
        if not column:
            return True
        if card[1] == "w":
            return all(c[1] == "w" for c in column)
        return all(_value(c) < _value(card) for c in column)

    def legal_moves(self) -> list[Move]:
        moves: list[Move] = []
        for card in sorted(set(self.hands[self.player])):
            for discard in (False, True):
                if not discard and not self.can_place(card):
                    continue
                moves.append((card, discard, "d"))
                for colour, pile in self.discards.items():
                    if pile and not (discard and colour == card[0]):
                        moves.append((card, discard, colour))
        return moves

    def play(self, move: Move) -> None:
        card, discard, source = move
        hand = self.hands[self.player]
        hand.remove(card)
        if discard:
            self.discards[card[0]].append(card)
        else:
            self.expeditions[self.player][card[0]].append(card)
        hand.append(self.deck.pop() if source == "d" else self.discards[source].pop())
        self.player = 1 - self.player

    def score(self) -> list[int]:
        totals = []
        for columns in self.expeditions:
            total = 0
            for column in columns.values():
                if column:
                    wagers = sum(1 for c in column if c[1] == "w")
                    total += (sum(_value(c) for c in column) - 20) * (1 + wagers) \
                        + (20 if len(column) >= 8 else 0)
            totals.append(total)
        return totals

    def random_playout(self, rng: random.Random) -> int:
        turns = 0
        while self.deck:
            self.play(rng.choice(self.legal_moves()))
            turns += 1
        return turns

    def heuristic_move(self, rng: random.Random, epsilon: float = 0.05) -> Move:
        """The rule-based player of the core (``ClassicCore.heuristic_move``), on strings."""
        moves = self.legal_moves()
        if rng.random() < epsilon:
            return rng.choice(moves)
        mine = self.expeditions[self.player]
        theirs = self.expeditions[1 - self.player]
        hand = self.hands[self.player]
        opening = 2 if len(self.deck) > 12 else 6

        def top(column: list[str]) -> int:
            return max((_rank(c) for c in column), default=0)

        best, best_gap = None, 99
        drop, drop_worth = None, 99
        for card in sorted(set(hand), key=lambda c: (self.colours.index(c[0]), _rank(c))):
            rank = _rank(card)
            current = top(mine[card[0]])
            if self.can_place(card):
                if rank:
                    gap = rank - current - 1
                else:
                    gap = 0 if sum(1 for c in hand if c[0] == card[0] and c[1] != "w") >= 3 else 9
                if not mine[card[0]]:
                    gap += opening
                if gap < best_gap:
                    best, best_gap = card, gap
                worth = 4 - gap
            else:
                worth = -4
            other = top(theirs[card[0]])
            if rank > other or not (rank or other):
                worth += 2
            if drop is None or worth < drop_worth or (worth == drop_worth and rank > _rank(drop)):
                drop, drop_worth = card, worth
        if best is not None and best_gap <= 2:
            card, discard = best, False
        else:
            assert drop is not None
            card, discard = drop, True
        for colour, pile in self.discards.items():
            if pile and colour != card[0]:
                column = mine[colour]
                if column and pile[-1][1] != "w" and _rank(pile[-1]) == top(column) + 1:
                    return card, discard, colour
        return card, discard, "d"

    def heuristic_playout(self, rng: random.Random, epsilon: float = 0.05) -> int:
        turns = 0
        while self.deck:
            self.play(self.heuristic_move(rng, epsilon))
            turns += 1
        return turns

"""Tiny Trek: a made-up fourth game of the family, as a game package of its own would be.

It exists to show that a game is one package and one registration: ``tests/test_fourth_game.py``
registers it and reads, checks, writes, lists moves for, shows, serves and samples its games
without a line of the reader, the writer, the command or the site changed for it.

The rules (rule IDs ``T-...``): ten cards ``A1``-``A5`` and ``B1``-``B5``; the ``Deck`` tag
lists all ten from the top, the first two are the first player's hand, the next two the
second's, the rest the draw pile. A turn places a card of the hand on the player's own column
of its colour, higher than the column's top (``A3``), or discards it (``xA3``), then draws the
draw pile's top card. The game ends with the draw of its last card. A started column scores
the sum of its cards less 3.

As the built-in games do, the rules are written once, in :class:`TinyCore` (integer cards and
moves, a step that answers with a rule code); the variant explains a refused step in words.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import IntEnum
from itertools import compress
from typing import TYPE_CHECKING, Any

from lcn.messages import msg
from lcn.variants.base import MoveSyntaxError, Problem, Score, Variant

if TYPE_CHECKING:
    from lcn.model import GameRecord

#: The cards, by their integers: ``colour * 5 + value - 1``.
CARDS = [f"{colour}{value}" for colour in "AB" for value in range(1, 6)]
IDS = {name: card for card, name in enumerate(CARDS)}
#: A move is ``card * 2 + discard``; its word is the card, ``x`` before it to discard.
WORDS = [("x" if move & 1 else "") + CARDS[move >> 1] for move in range(2 * len(CARDS))]
MOVES = {word: move for move, word in enumerate(WORDS)}
HAND = 2


class Rule(IntEnum):
    """Why a step failed."""

    HAND = 1
    ASCENDING = 2
    END = 3

    @property
    def rule_id(self) -> str:
        return f"T-{self.name}"


class TinyCore:
    """A position with everything known: hands as counts, the pile (its end is its top)."""

    __slots__ = ("hands", "pile", "player", "tops", "totals", "turn")

    def __init__(self, deck: list[int]) -> None:
        """A game's start from the deck, top first."""
        self.hands = [[0] * len(CARDS), [0] * len(CARDS)]
        for seat in range(2):
            for card in deck[seat * HAND:(seat + 1) * HAND]:
                self.hands[seat][card] += 1
        self.pile = deck[:2 * HAND - 1:-1]
        self.tops = [0] * 4
        self.totals = [0] * 4
        self.player = self.turn = 0

    def copy(self) -> TinyCore:
        other = TinyCore.__new__(TinyCore)
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.pile, other.tops, other.totals = self.pile[:], self.tops[:], self.totals[:]
        other.player, other.turn = self.player, self.turn
        return other

    def key(self) -> tuple[object, ...]:
        return (tuple(map(tuple, self.hands)), tuple(self.pile), tuple(self.tops), self.player)

    def is_over(self) -> bool:
        return not self.pile

    def to_move(self) -> int:
        return self.player

    def check(self, move: int) -> int:
        if not self.pile:
            return Rule.END
        card = move >> 1
        if not self.hands[self.player][card]:
            return Rule.HAND
        if not move & 1 and card % 5 + 1 <= self.tops[self.player * 2 + card // 5]:
            return Rule.ASCENDING
        return 0

    def step(self, move: int) -> int:
        code = self.check(move)
        if code:
            return code
        card = move >> 1
        hand = self.hands[self.player]
        hand[card] -= 1
        if not move & 1:
            column = self.player * 2 + card // 5
            self.tops[column] = card % 5 + 1
            self.totals[column] += card % 5 + 1
        hand[self.pile.pop()] += 1
        self.player ^= 1
        self.turn += 1
        return 0

    def legal_moves(self) -> list[int]:
        if not self.pile:
            return []
        return [move for card in compress(range(len(CARDS)), self.hands[self.player])
                for move in (card * 2, card * 2 + 1) if not self.check(move)]

    def random_move(self, rng: random.Random) -> int:
        return rng.choice(self.legal_moves())

    def playout(self, rng: random.Random) -> int:
        turns = self.turn
        while self.pile:
            self.step(self.random_move(rng))
        return self.turn - turns

    def score(self) -> tuple[int, ...]:
        return tuple(sum(total - 3 for total, top in zip(self.totals[seat * 2:seat * 2 + 2],
                                                         self.tops[seat * 2:seat * 2 + 2], strict=True)
                         if top) for seat in range(2))

    def word(self, move: int) -> str:
        return WORDS[move]

    def move(self, word: str) -> int:
        return MOVES[word]


@dataclass(frozen=True)
class InfoSet:
    """What one seat knows: its hand, the table, and which cards it has not seen."""

    seat: int
    core: TinyCore

    def sample(self, rng: random.Random) -> TinyCore:
        """The other hand and the pile dealt from the unseen cards, uniformly."""
        state = self.core.copy()
        other = self.seat ^ 1
        unseen = [card for card in compress(range(len(CARDS)), state.hands[other])
                  for _ in range(state.hands[other][card])] + state.pile
        rng.shuffle(unseen)
        state.hands[other] = [0] * len(CARDS)
        for card in unseen[:HAND]:
            state.hands[other][card] += 1
        state.pile = unseen[HAND:]
        return state


class TinyState:
    """The variant's state: the core, and the names of the seats for the words."""

    def __init__(self, core: TinyCore, names: list[str]) -> None:
        self.core = core
        self.names = names


class TinyVariant(Variant[TinyState, int]):
    """Tiny Trek through the one interface every game plugs into."""

    name = "tinytrek"
    title = "Tiny Trek"
    rule_game_over = "T-END"
    rule_result = "T-SCORE"
    rule_turn_order = "T-TURN"
    lists_moves = True

    def setup(self, record: GameRecord) -> tuple[TinyState, list[Problem]]:
        names, problems = self.seats_from_tags(record, "T-SETUP")
        deck = (record.tags.get("Deck") or "").split()
        if sorted(deck) != sorted(CARDS):
            problems.append(Problem("bad-deck", "T-SETUP", msg(
                "the Deck tag must list the ten cards A1-A5 and B1-B5 once each"), tag="Deck"))
            deck = list(CARDS)
        return TinyState(TinyCore([IDS[card] for card in deck]), names), problems

    def parse_move(self, state: TinyState, text: str) -> int:
        move = MOVES.get(text)
        if move is None:
            raise MoveSyntaxError(msg("`{text}` is not a turn: expected a card (`A3`) or `x` and a "
                                      "card (`xB2`)", text=text), 0, len(text))
        return move

    def apply(self, state: TinyState, move: int) -> list[Problem]:
        code = state.core.step(move)
        if not code:
            return []
        # The explanation of a refused step: the same rule, in words. The turn is then
        # played as written as far as it can be, so that later turns are still checked.
        core = state.core
        card = WORDS[move].lstrip("x")
        name = state.names[core.player]
        if code == Rule.HAND:
            problem = Problem("not-in-hand", "T-HAND", msg("{card} is not in {name}'s hand",
                                                          card=card, name=name),
                              offset=move & 1, length=len(card))
        else:
            problem = Problem("not-ascending", "T-ASCENDING", msg(
                "{card} is not higher than the top of {name}'s column", card=card, name=name),
                offset=0, length=len(card))
        if core.pile:
            core.hands[core.player][core.pile.pop()] += 1
        core.player ^= 1
        core.turn += 1
        return [problem]

    def format_move(self, move: int) -> str:
        return WORDS[move]

    def is_over(self, state: TinyState) -> bool:
        return state.core.is_over()

    def current_player(self, state: TinyState) -> int:
        return state.core.player

    def score(self, state: TinyState) -> Score:
        core = state.core
        totals = list(core.score())
        breakdown = [{colour: core.totals[seat * 2 + index] - 3
                      for index, colour in enumerate("AB") if core.tops[seat * 2 + index]}
                     for seat in range(2)]
        return Score(totals, breakdown)

    def players(self, record: GameRecord, state: TinyState | None = None) -> list[str]:
        return state.names if state is not None else self.seats_from_tags(record, "T-SETUP")[0]

    def snapshot(self, state: TinyState) -> dict[str, Any]:
        core = state.core
        return {"variant": self.name, "to_move": core.player, "pile": len(core.pile),
                "columns": [{colour: core.tops[seat * 2 + index] for index, colour in enumerate("AB")}
                            for seat in range(2)]}

    def render_text(self, state: TinyState, names: list[str], *, view: int | None = None) -> str:
        core = state.core
        lines = []
        for seat, name in enumerate(names):
            hand = " ".join(CARDS[card] for card in compress(range(len(CARDS)), core.hands[seat]))
            shown = hand if view is None or view == seat else "?" * len(hand.split())
            columns = " ".join(f"{colour}:{core.tops[seat * 2 + index]}" for index, colour in enumerate("AB"))
            lines.append(f"{name}: {columns}  hand {shown}")
        return "\n".join([*lines, f"pile: {len(core.pile)}", ""])

    def copy_state(self, state: TinyState) -> TinyState:
        return TinyState(state.core.copy(), list(state.names))

    def candidate_moves(self, state: TinyState, partial: str = "") -> list[tuple[str, str]]:
        if partial:
            return []
        return [(WORDS[move], WORDS[move]) for move in state.core.legal_moves()]

"""The hidden-information check against brute force on tiny decks.

For a record without the whole deal, the classic engine claims to decide exactly whether
*some* deal makes the record legal, to name the first turn that no deal can explain, and to
show what is known of each hand (``docs/hidden-information.md``). Here a separate
simulator, which knows nothing of unknown slots, tries *every* deal of a tiny card set —
every way to split the cards into the two starting hands and the ordered draw pile — and
keeps the deals under which the record so far is legal. The engine must agree with it on
every record:

- a record whose every prefix some deal makes legal has no error;
- a record that no deal can explain after its last turn has its first error at that turn;
- after every turn, the cards the engine lists as known in a hand are exactly the cards
  (with their multiplicity) that hand holds under every remaining deal.

Records are random walks through the game tree, ending at a random point, mostly with a
legal turn and sometimes with one that some or all deals reject, plus every record of one
or two turns. Every level of knowledge is tried: no deal tags, one hand, the draw pile
alone, one hand with that player's draws written (``/d=X``), both hands, one hand and the
draw pile, and the whole deal.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations, permutations

import pytest

from lcn.model import GameRecord, Tags, Turn
from lcn.validate import validate_record
from lcn.variants.classic import ClassicConfig, ClassicVariant

#: Tiny card sets: distinct cards; two copies of each wager; three-card hands.
CONFIGS = {
    "distinct": ClassicConfig(colours="YB", values=(2, 3, 4), wagers=1, hand_size=2),
    "copies": ClassicConfig(colours="YB", values=(2, 3), wagers=2, hand_size=2),
    "three": ClassicConfig(colours="YBW", values=(2, 3), wagers=1, hand_size=3),
}

#: Which deal tags a record carries, and whose draws it writes with their card.
LEVELS = {
    "none": ((), ()),
    "hand1": (("Hand1",), ()),
    "hand2": (("Hand2",), ()),
    "deck": (("Deck",), ()),
    "view1": (("Hand1",), (0,)),
    "view2": (("Hand2",), (1,)),
    "hands": (("Hand1", "Hand2"), ()),
    "hand1+deck": (("Hand1", "Deck"), ()),
    "full": (("Hand1", "Hand2", "Deck"), ()),
}

Deal = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
Move = tuple[bool, str, str, str | None]  # discard, card, "d" or a colour, card named by /d=


def all_deals(config: ClassicConfig) -> set[Deal]:
    """Every distinct deal: two starting hands (as sorted multisets) and the draw pile."""
    cards = config.all_cards()
    size = config.hand_size
    indices = range(len(cards))
    deals: set[Deal] = set()
    for first in combinations(indices, size):
        rest = [i for i in indices if i not in first]
        for second in combinations(rest, size):
            pile = [i for i in rest if i not in second]
            hand1 = tuple(sorted(cards[i] for i in first))
            hand2 = tuple(sorted(cards[i] for i in second))
            for order in permutations(pile):
                deals.add((hand1, hand2, tuple(cards[i] for i in order)))
    return deals


def value(card: str) -> int:
    return 0 if card[1] == "w" else int(card[1:])


def text_of(move: Move) -> str:
    discard, card, draw, named = move
    return f"{'x' if discard else ''}{card}/{draw if named is None else 'd=' + named}"


@dataclass
class Table:
    """What the record alone determines: whose turn, the columns, the discard piles."""

    config: ClassicConfig
    turn: int = 0
    drawn: int = 0
    tops: list[dict[str, int]] = field(default_factory=list)
    started: list[set[str]] = field(default_factory=list)
    piles: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def start(cls, config: ClassicConfig) -> Table:
        return cls(config, 0, 0, [dict.fromkeys(config.colours, 0) for _ in range(2)],
                   [set(), set()], {c: [] for c in config.colours})

    def copy(self) -> Table:
        return Table(self.config, self.turn, self.drawn, [dict(t) for t in self.tops],
                     [set(s) for s in self.started], {c: list(p) for c, p in self.piles.items()})

    @property
    def over(self) -> bool:
        return self.drawn == self.config.pile_size


@dataclass
class Node:
    """A record so far: the table and every full state (hands, draw pile left) still possible."""

    moves: list[Move]
    table: Table
    states: set[Deal]
    children: dict[Move, Node | None] = field(default_factory=dict)


def play(node: Node, move: Move) -> Node | None:
    """The record extended by one turn, or None when no remaining deal makes that turn legal."""
    if move in node.children:
        return node.children[move]
    table = node.table
    discard, card, draw, named = move
    colour = card[0]
    player = table.turn % 2
    result: Node | None = None
    legal = not table.over
    if legal and not discard:
        top = table.tops[player][colour]
        legal = top == 0 if card[1] == "w" else value(card) > top
    after = table.copy()
    if legal:
        if discard:
            after.piles[colour].append(card)
        elif card[1] != "w":
            after.tops[player][colour] = value(card)
        if draw != "d":
            legal = bool(after.piles[draw]) and not (discard and draw == colour)
    if legal:
        taken = after.piles[draw].pop() if draw != "d" else None
        if draw == "d":
            after.drawn += 1
        after.turn += 1
        states: set[Deal] = set()
        for hand1, hand2, pile in node.states:
            hand = list((hand1, hand2)[player])
            if card not in hand:
                continue
            hand.remove(card)
            rest = pile
            if taken is None:
                if named is not None and pile[0] != named:
                    continue
                hand.append(pile[0])
                rest = pile[1:]
            else:
                hand.append(taken)
            new = tuple(sorted(hand))
            states.add((new, hand2, rest) if player == 0 else (hand1, new, rest))
        if states:
            result = Node([*node.moves, move], after, states)
    node.children[move] = result
    return result


def certain(states: set[Deal], player: int) -> Counter[str]:
    """The cards a hand holds under every remaining deal, with multiplicity."""
    common: Counter[str] | None = None
    for hand in {state[player] for state in states}:
        common = Counter(hand) if common is None else common & Counter(hand)
    return common or Counter()


def candidate_moves(config: ClassicConfig) -> list[Move]:
    kinds = sorted(set(config.all_cards()))
    draws: list[tuple[str, str | None]] = [("d", None), *((c, None) for c in config.colours)]
    draws += [("d", card) for card in kinds]
    return [(discard, card, draw, named) for card in kinds for discard in (False, True)
            for draw, named in draws]


class Checker:
    """Runs the engine on records and compares with the brute force."""

    def __init__(self, config: ClassicConfig, level: str, deal: Deal) -> None:
        self.config = config
        self.variant = ClassicVariant(config=config)
        tags_given, self.named_for = LEVELS[level]
        self.tags = Tags({"Player1": "Ada", "Player2": "Bo"})
        values = {"Hand1": deal[0], "Hand2": deal[1], "Deck": deal[2]}
        for name in tags_given:
            self.tags[name] = " ".join(values[name])
        key = (config, tuple(self.tags.items()))
        if key not in _ROOTS:
            # Records with the same tags share their tree (and the work done on it).
            states = {d for d in all_deals_cached(config)
                      if all(d[("Hand1", "Hand2", "Deck").index(n)] == values[n]
                             for n in tags_given)}
            _ROOTS[key] = Node([], Table.start(config), states)
        self.root = _ROOTS[key]
        self.codes: Counter[str] = Counter()
        self.records = 0

    def record(self, moves: list[Move], termination: str = "*") -> GameRecord:
        return GameRecord(tags=self.tags, turns=[Turn(text_of(m)) for m in moves],
                          termination=termination)

    def check_legal(self, node: Node, *, hands: bool = True) -> None:
        """Every prefix of the node's record is legal: no error, and the hands are exact."""
        self.records += 1
        report = validate_record(self.record(node.moves), variant=self.variant,
                                 keep_snapshots=hands)
        errors = [d.format() for d in report.diagnostics if d.is_error]
        assert not errors, (self.tags, [text_of(m) for m in node.moves], errors)
        assert report.over == node.table.over
        if not hands:
            return
        assert report.snapshots is not None
        walk = self.root
        for index, snapshot in enumerate(report.snapshots):
            if index:
                step = play(walk, node.moves[index - 1])
                assert step is not None
                walk = step
            for player in range(2):
                want = certain(walk.states, player)
                hand = snapshot["hands"][player]
                assert Counter(hand["known"]) == want, (
                    [text_of(m) for m in node.moves[:index]], player, hand, want)
                assert hand["unknown"] == self.config.hand_size - sum(want.values())
        if not node.table.over and node.moves:
            unfinished = validate_record(self.record(node.moves, "0:0"), variant=self.variant)
            assert [d.code for d in unfinished.diagnostics if d.is_error] == ["game-unfinished"]

    def check_illegal(self, node: Node, move: Move) -> None:
        """No deal explains the last turn: the engine's first error is at that turn."""
        self.records += 1
        moves = [*node.moves, move]
        report = validate_record(self.record(moves), variant=self.variant)
        errors = [d for d in report.diagnostics if d.is_error]
        assert errors, (self.tags, [text_of(m) for m in moves])
        assert min(d.turn or 0 for d in errors) == len(moves), (
            self.tags, [text_of(m) for m in moves], [d.format() for d in errors])
        self.codes.update(d.code for d in errors if d.turn == len(moves))


_DEALS: dict[ClassicConfig, set[Deal]] = {}
_ROOTS: dict[tuple[ClassicConfig, tuple[tuple[str, str], ...]], Node] = {}


def all_deals_cached(config: ClassicConfig) -> set[Deal]:
    if config not in _DEALS:
        _DEALS[config] = all_deals(config)
    return _DEALS[config]


def explore(checker: Checker, rng: random.Random, walks: int, every: float = 0.1) -> None:
    """Random walks: each turn a legal one, until the walk stops on a random turn.

    On the way, a few turns that no remaining deal allows are tried at each position, and
    at some positions (a share ``every``) every possible next turn is.
    """
    moves = candidate_moves(checker.config)
    for _ in range(walks):
        node = checker.root
        while True:
            player = node.table.turn % 2
            order = list(moves)
            rng.shuffle(order)
            if rng.random() < every:
                for move in order:
                    child = play(node, move)
                    if child is None:
                        checker.check_illegal(node, move)
                    else:
                        checker.check_legal(child, hands=False)
            if player in checker.named_for:
                # This player's draws are written with their card (a player's own view).
                order = [m for m in order if m[2] != "d" or m[3] is not None]
            elif rng.random() < 0.8:
                order = [m for m in order if m[3] is None]
            nxt = None
            rejected = 0
            for move in order:
                child = play(node, move)
                if child is None:
                    if rejected < 2:
                        checker.check_illegal(node, move)
                    rejected += 1
                elif nxt is None:
                    nxt = child
                if nxt is not None and rejected >= 2:
                    break
            if nxt is None or rng.random() < 0.06:
                checker.check_legal(node)
                break
            node = nxt


def exhaust(checker: Checker, depth: int) -> None:
    """Every record of up to ``depth`` turns."""
    moves = candidate_moves(checker.config)
    frontier = [checker.root]
    for _ in range(depth):
        following = []
        for node in frontier:
            for move in moves:
                child = play(node, move)
                if child is None:
                    checker.check_illegal(node, move)
                else:
                    checker.check_legal(child, hands=len(child.moves) < depth)
                    following.append(child)
        frontier = following


@pytest.mark.parametrize("config_name", sorted(CONFIGS))
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_engine_agrees_with_every_deal(config_name: str, level: str) -> None:
    config = CONFIGS[config_name]
    rng = random.Random(f"{config_name}/{level}")
    deals = sorted(all_deals_cached(config))
    codes: Counter[str] = Counter()
    records = 0
    for _ in range(3):
        checker = Checker(config, level, rng.choice(deals))
        explore(checker, rng, 30)
        codes += checker.codes
        records += checker.records
    assert records > 150
    # The walks must reach the failures this check is about, not only easy ones.
    assert codes["card-elsewhere"] + codes["not-in-hand"] > 0, codes


@pytest.mark.parametrize("level", ["hand1", "view2", "deck", "full"])
def test_every_short_record(level: str) -> None:
    config = CONFIGS["distinct"]
    deal = sorted(all_deals_cached(config))[1234]
    checker = Checker(config, level, deal)
    exhaust(checker, 2)
    assert checker.records > 1000


def test_every_short_record_without_the_deal() -> None:
    """No deal tags: every record of up to two turns (the first cover every deal)."""
    config = CONFIGS["distinct"]
    checker = Checker(config, "none", next(iter(all_deals_cached(config))))
    exhaust(checker, 1)
    assert checker.records == len(candidate_moves(config))


def test_failures_of_every_kind_are_reached() -> None:
    """Across all levels, the engine's hidden-information errors all occur in the walks."""
    seen: Counter[str] = Counter()
    rng = random.Random(7)
    for config in CONFIGS.values():
        deals = sorted(all_deals_cached(config))
        for level in ("none", "hand1", "deck", "full"):
            checker = Checker(config, level, rng.choice(deals))
            explore(checker, rng, 12)
            seen += checker.codes
    for code in ("card-elsewhere", "not-in-hand", "too-many-unknown", "after-game-end",
                 "draw-empty-pile", "not-ascending", "wager-after-number"):
        assert seen[code], (code, seen)

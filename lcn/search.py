"""A search over one player's information set: which move is best, judged from what they knew.

The method is determinized Monte Carlo with common random numbers. The player to move does
not know the cards (or dice) still hidden, so the search deals them many times with the
game's own sampler (:meth:`lcn.games.InformationSet.sample`: every deal consistent with what
that player saw, as likely as the shuffle makes it), and on each deal plays every candidate
move followed by a playout of the game's rule-based player to the end. A candidate's value is
its mean final margin over the deals. Every candidate meets the *same* deals with the *same*
playout dice (common random numbers), so two candidates' values differ by what the moves do,
not by which deals they happened to meet: their difference has a far smaller error than
either value, which is what ranking moves and judging a loss need.

Candidates are narrowed by successive halving: all of them on a few deals, the better half
on twice as many, and so on while the budget lasts; moves a caller must see judged (the
move a player made, in an analysis) are never dropped. ``docs/engine.md`` tells why this
method and not another, with the strength measured in ``bench/``.

A playout is cut after :data:`TURN_CAP` moves and scored as it stands, so that a policy
that discards a card and takes it back forever cannot hang a search.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .games import GameCore, InformationSet

#: Moves a playout plays at most; a classic game has at most about 90 turns.
TURN_CAP = 400
#: Changes whenever a change to the search, a playout policy or a judge can change a verdict:
#: stored analyses are keyed by it (with the game and the budget), so an old one is never
#: served as the new engine's.
ENGINE_VERSION = "2"
#: Deals every candidate meets before the first halving.
FIRST_DEALS = 4
#: Deals at which the search stops adding more even with budget left.
MAX_DEALS = 1 << 14
#: The z-value of the one-sided 95 % bound with which a loss must clear its noise.
Z_95 = 1.645


class PlayingCore(GameCore, Protocol):
    """A core with a playout policy: the rule-based player a search plays its lines with."""

    def playout_move(self, rng: random.Random) -> int:
        """A plausible legal move of the player to move (cheap: called every playout turn)."""
        ...


def margin(scores: Sequence[int], seat: int) -> int:
    """The seat's final score less the best of the other seats': the game's margin for two
    players, and for more the lead over (or the gap to) the seat to beat."""
    best = max(score for other, score in enumerate(scores) if other != seat)
    return scores[seat] - best


def playout(core: PlayingCore, rng: random.Random, cap: int = TURN_CAP) -> None:
    """Play the rule-based player to the end of the game, or for ``cap`` moves."""
    step, choose, over = core.step, core.playout_move, core.is_over
    for _ in range(cap):
        if over():
            return
        if step(choose(rng)):
            raise AssertionError("the playout policy chose an illegal move")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class Judged:
    """One candidate move and what the search found of it."""

    move: int
    #: Its LCN word.
    lcn: str
    #: The final margin of each deal it met, in the order the deals were dealt.
    margins: tuple[int, ...] = field(repr=False)

    @property
    def samples(self) -> int:
        return len(self.margins)

    @property
    def value(self) -> float:
        """The mean final margin: the expected final score margin of playing it."""
        return sum(self.margins) / len(self.margins) if self.margins else math.nan

    @property
    def win(self) -> float:
        """The share of its deals won (a tie counts half): the chance of winning with it."""
        if not self.margins:
            return math.nan
        return sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in self.margins) / len(self.margins)


@dataclass(frozen=True, slots=True)
class Difference:
    """How much better one candidate did than another on the deals both met."""

    #: Mean margin lost by the second candidate, and its standard error.
    points: float
    points_error: float
    #: Mean chance of winning lost (0-1), and its standard error.
    win: float
    win_error: float
    #: The deals both met.
    samples: int


def _paired(first: Sequence[float], second: Sequence[float]) -> tuple[float, float, int]:
    count = min(len(first), len(second))
    if count == 0:
        return math.nan, math.inf, 0
    diffs = [a - b for a, b in zip(first[:count], second[:count], strict=True)]
    mean = sum(diffs) / count
    if count < 2:
        return mean, math.inf, count
    variance = sum((d - mean) ** 2 for d in diffs) / (count - 1)
    return mean, math.sqrt(variance / count), count


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Every candidate judged, the best first, with the deals and time it took."""

    seat: int
    candidates: tuple[Judged, ...]
    deals: int
    playouts: int
    seconds: float

    @property
    def best(self) -> Judged:
        return self.candidates[0]

    def judged(self, move: int) -> Judged:
        for candidate in self.candidates:
            if candidate.move == move:
                return candidate
        raise KeyError(move)

    def difference(self, better: int, worse: int) -> Difference:
        """How much ``worse`` loses against ``better`` on their common deals."""
        first, second = self.judged(better).margins, self.judged(worse).margins
        points, points_error, count = _paired(first, second)

        def wins(margins: Sequence[int]) -> list[float]:
            return [1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in margins]

        win, win_error, _ = _paired(wins(first), wins(second))
        return Difference(points, points_error, win, win_error, count)


class Budget:
    """When a search must stop: after so many playouts, or so many seconds, or both."""

    def __init__(self, seconds: float | None, playouts: int | None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if seconds is None and playouts is None:
            raise ValueError("a search needs a budget: seconds, playouts or both")
        if seconds is not None and not (0 < seconds <= 3600):
            raise ValueError(f"seconds must be more than 0 and at most 3600, not {seconds}")
        if playouts is not None and not (1 <= playouts <= 10_000_000):
            raise ValueError(f"playouts must be 1 to 10,000,000, not {playouts}")
        self.clock = clock
        self.start = clock()
        self.deadline = None if seconds is None else self.start + seconds
        self.playouts = playouts
        self.used = 0

    def spend(self) -> bool:
        """Count a playout; False once the budget is spent."""
        self.used += 1
        if self.playouts is not None and self.used >= self.playouts:
            return False
        return self.deadline is None or self.clock() < self.deadline

    @property
    def elapsed(self) -> float:
        return self.clock() - self.start


def search(infoset: InformationSet, *, seed: int | None = None, seconds: float | None = 1.0,
           playouts: int | None = None, keep: Iterable[int] = ()) -> SearchResult:
    """Judge every legal move of ``infoset``'s seat, who must be the player to move.

    The budget is ``seconds`` of wall time, ``playouts`` playouts, or whichever ends first
    when both are given; with ``playouts`` alone the result depends only on ``seed``, which
    is how tests and the bench make it repeatable. ``keep`` are moves judged to the end
    whatever their early results (an analysis keeps the move that was played).
    """
    rng = random.Random(seed)
    budget = Budget(seconds, playouts)
    root: PlayingCore = infoset.sample(rng)  # type: ignore[assignment]
    seat = infoset.seat
    if root.is_over():
        raise ValueError("the game is over: there is no move to judge")
    if root.to_move() != seat:
        raise ValueError(f"seat {seat} is not the player to move")
    moves = root.legal_moves()
    kept = set(keep)
    if not kept <= set(moves):
        raise ValueError(f"moves {sorted(kept - set(moves))} are not legal here")
    deals: list[tuple[PlayingCore, int]] = []
    margins: dict[int, list[int]] = {move: [] for move in moves}

    def evaluate(move: int, index: int) -> None:
        while len(deals) <= index:
            dealt: PlayingCore = infoset.sample(rng)  # type: ignore[assignment]
            deals.append((dealt, rng.getrandbits(64)))
        core, dice = deals[index]
        line = core.copy()
        if line.step(move):
            raise AssertionError(f"move {move} is legal in one deal and not in another")  # pragma: no cover
        playout(line, random.Random(dice))
        margins[move].append(margin(line.score(), seat))

    # The kept moves first in every round, so that even a budget spent within the first round
    # has judged them.
    alive = sorted(moves, key=lambda move: move not in kept)
    target = FIRST_DEALS if len(moves) > 1 else 1
    going = True
    while going:
        # Deal by deal, every candidate alive in turn: a budget spent in the middle of a
        # round leaves them judged on the same deals, give or take the last one.
        for index in range(min(len(margins[move]) for move in alive), target):
            for move in alive:
                if len(margins[move]) > index:
                    continue
                evaluate(move, index)
                if not budget.spend():
                    going = False
                    break
            if not going:
                break
        if len(moves) == 1 or target >= MAX_DEALS:
            break
        common = min(len(margins[move]) for move in alive)
        if common == 0:
            break
        alive.sort(key=lambda move: -sum(margins[move][:common]))
        if going and len(alive) > 2:
            keep_count = max(2, (len(alive) + 1) // 2)
            survivors = alive[:keep_count]
            survivors += [move for move in alive[keep_count:] if move in kept]
            alive = survivors
        target *= 2

    # Rank: those judged on the most deals first (they survived every halving), each group
    # by its mean over the deals its members all met.
    def rank(move: int) -> tuple[int, float]:
        return (-len(margins[move]), -(sum(margins[move]) / len(margins[move]) if margins[move] else -1e9))

    order = sorted(moves, key=rank)
    if order and len(margins[order[0]]) > 0:
        # Among the moves judged on the most deals, compare on their common deals alone.
        top = [move for move in order if len(margins[move]) >= len(margins[order[0]]) // 2 + 1]
        common = min(len(margins[move]) for move in top)
        top.sort(key=lambda move: -sum(margins[move][:common]))
        order = top + [move for move in order if move not in top]
    judged = tuple(Judged(move, root.word(move), tuple(margins[move])) for move in order)
    return SearchResult(seat, judged, len(deals), budget.used, budget.elapsed)


def duel(infoset: InformationSet, first: int, second: int, *more: int, seed: int | None = None,
         seconds: float | None = None, playouts: int | None = None) -> SearchResult:
    """``first``, ``second`` (and any ``more``) judged again on deals of their own
    (``difference`` then says how much one loses against another), in the order given.

    A search picks its best move as the highest of many noisy means on the same deals, so
    on those deals the best looks better than it is (the winner's curse), and a loss read
    from them is too large. Played again on fresh deals, two moves' difference is measured
    without that bias, which is what marking a move needs. The budget counts playouts of
    every move (one each a deal).
    """
    rng = random.Random(seed)
    budget = Budget(seconds, playouts)
    seat = infoset.seat
    moves = (first, second, *more)
    found: list[list[int]] = [[] for _ in moves]
    going = True
    while going:
        core: PlayingCore = infoset.sample(rng)  # type: ignore[assignment]
        dice = rng.getrandbits(64)
        for move, margins in zip(moves, found, strict=True):
            line = core.copy()
            if line.step(move):
                raise ValueError(f"move {move} is not legal here")
            playout(line, random.Random(dice))
            margins.append(margin(line.score(), seat))
            going = budget.spend() and going
        if len(found[0]) >= MAX_DEALS:
            break
    return SearchResult(seat, tuple(Judged(move, core.word(move), tuple(margins))
                                    for move, margins in zip(moves, found, strict=True)),
                        len(found[0]), budget.used, budget.elapsed)


def lower_bound(mean: float, error: float, z: float = Z_95) -> float:
    """The one-sided lower confidence bound of a mean: what a loss surely is at least."""
    return mean - z * error

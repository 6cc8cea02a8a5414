"""``python -m bench.engine_multi``: how strong the engine plays Rivals and Roll & Write, for 2-5 seats.

One player sits in one seat and the game's rule-based player in every other
(:meth:`RivalsCore.heuristic_move`, :func:`lcn.games.rollwrite.core.heuristic_move`, the
players the search's own playouts use). Each deal is *rotated*: played once with the player
in every seat, the n-seat form of classic's mirrored deals (``bench.engine``), so that a
lucky seat favours nobody. The figures per row:

- the margin per round: the player's score less the best other seat's (``lcn.search.margin``),
  with the standard error of the per-deal means (the rotations of one deal share its cards
  or dice, so they are not independent games);
- the mean rank (1 is first; tied seats share their places) and the share of rounds in first
  place (a tie for first counts 1/k among the k tied), with its standard error as the margin's;
- the seconds per decision of the player (engine rows), of wall time and of CPU time (the
  machine is shared, and CPU time is what a quiet one would show): every word it writes with
  a choice is a decision; a word that was the only legal one is played without a search.

The players: ``random`` (uniformly random legal words), ``heuristic`` (the rule-based player
itself: the bench's check) and ``engine@P`` (:func:`lcn.search.search` with ``P`` playouts a
decision, from the seat's own information set, never from the hidden deal).

The check is exact: every decision of a game, the player's and the others', draws from one
random stream seeded by the deal, so with the rule-based player in the seat each rotation is
the same game seen from another seat; its first-place share is then exactly 1/n and its mean
rank (n + 1)/2. Its margin is 0 for two seats only: with more, a seat's lead over the best of
the others is below 0 on average even among equals (only one seat leads), so the rule-based
row is the level an engine row is to be read against.

Deals run on ``--jobs`` processes; a row's deals are ``--first`` on, so the rows of one run
share their deals.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from lcn.games.rivals.core import RivalsCore
from lcn.games.rivals.sampler import UNCOVER, infoset_of_core
from lcn.games.rollwrite.core import RollWriteCore
from lcn.games.rollwrite.core import heuristic_move as rollwrite_heuristic
from lcn.games.rollwrite.sampler import InfoSet as RollWriteInfoSet
from lcn.search import margin, search
from lcn.variants.rollwrite_play import random_layout

GAMES = ("rivals", "rollwrite")
#: The seats each game is played with.
SEATS = {"rivals": (2, 3, 4), "rollwrite": (2, 3, 4, 5)}
#: The goal printed beside a row: (game, seats) -> first-place share wanted (0-1).
GOALS = {("rivals", 4): 0.5}

#: A player's word for a seat: (core, its seat, the game's random stream) -> move.
Chooser = Callable[[RivalsCore | RollWriteCore, int, random.Random], int]


def _new_core(game: str, seats: int, deal: int) -> RivalsCore | RollWriteCore:
    """The deal's game: Rivals' shuffled piles and starting wagers, or Roll & Write's sheet
    layout and every roll to come, all from the deal's seed."""
    rng = random.Random(deal)
    if game == "rivals":
        return RivalsCore.shuffled(seats, rng)
    return RollWriteCore.new(seats, random_layout(rng), rng)


def _rule_based(core: RivalsCore | RollWriteCore, rng: random.Random) -> int:
    if isinstance(core, RivalsCore):
        return core.heuristic_move(rng)
    return rollwrite_heuristic(core, rng)


def _searched(core: RivalsCore | RollWriteCore, seat: int, rng: random.Random, playouts: int) -> int:
    """The search's word, from the seat's information set only."""
    seed = rng.getrandbits(32)
    if isinstance(core, RivalsCore):
        move = search(infoset_of_core(core, seat), seed=seed, seconds=None, playouts=playouts).best.move
        # The view knows that a card is uncovered, not which: the table's next card is.
        return core.deck[-1] if move == UNCOVER else move
    return search(RollWriteInfoSet.of_state(core, seat), seed=seed, seconds=None,
                  playouts=playouts).best.move


def chooser(name: str) -> Chooser:
    if name.startswith("engine@"):
        playouts = int(name.removeprefix("engine@"))
        return lambda core, seat, rng: _searched(core, seat, rng, playouts)
    if name == "heuristic":
        return lambda core, seat, rng: _rule_based(core, rng)
    if name == "random":
        return lambda core, seat, rng: core.random_move(rng)
    raise ValueError(f"unknown player {name!r} (random, heuristic or engine@P)")


@dataclass(frozen=True, slots=True)
class Game:
    """One rotation of a deal, from the player's seat."""

    deal: int
    seat: int
    scores: tuple[int, ...]
    #: Seconds the player spent on its decisions (wall and CPU), and how many it made.
    seconds: float
    cpu: float
    decisions: int

    @property
    def margin(self) -> int:
        return margin(self.scores, self.seat)

    @property
    def rank(self) -> float:
        """1 + the seats above, + half the seats level (tied seats share their places)."""
        own = self.scores[self.seat]
        others = [score for other, score in enumerate(self.scores) if other != self.seat]
        return 1 + sum(score > own for score in others) + sum(score == own for score in others) / 2

    @property
    def first(self) -> float:
        """The share of first place: 1, 1/k in a k-way tie for it, else 0."""
        best = max(self.scores)
        return 1 / self.scores.count(best) if self.scores[self.seat] == best else 0.0


def play(task: tuple[str, int, int, str, int]) -> Game:
    """One game of the deal: ``name`` in ``seat``, the rule-based player in the others."""
    game, seats, deal, name, seat = task
    core = _new_core(game, seats, deal)
    rng = random.Random(deal * 7 + 1)
    choose = chooser(name)
    spent, cpu, decisions = 0.0, 0.0, 0
    while not core.is_over():
        if core.to_move() == seat and len(core.legal_moves()) > 1:
            start, start_cpu = time.perf_counter(), time.process_time()
            move = choose(core, seat, rng)
            spent += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            decisions += 1
        else:
            move = _rule_based(core, rng)
        if core.step(move):
            raise AssertionError(f"{name} chose an illegal word")  # pragma: no cover
    return Game(deal, seat, tuple(core.score()), spent, cpu, decisions)


@dataclass(frozen=True, slots=True)
class Row:
    """A player's figures over rotated deals of one game and seat count."""

    game: str
    seats: int
    name: str
    games: tuple[Game, ...]

    def _per_deal(self, figure: Callable[[Game], float]) -> list[float]:
        deals: dict[int, list[float]] = {}
        for one in self.games:
            deals.setdefault(one.deal, []).append(figure(one))
        return [statistics.fmean(values) for values in deals.values()]

    @property
    def deals(self) -> int:
        return len({one.deal for one in self.games})

    @property
    def margin(self) -> tuple[float, float]:
        """The mean margin per round and the standard error of the per-deal means."""
        means = self._per_deal(lambda one: one.margin)
        error = statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else math.inf
        return statistics.fmean(means), error

    @property
    def rank(self) -> float:
        return statistics.fmean(one.rank for one in self.games)

    @property
    def first(self) -> float:
        return statistics.fmean(one.first for one in self.games)

    @property
    def first_error(self) -> float:
        """The standard error of the first-place share, of the per-deal means as the margin's."""
        means = self._per_deal(lambda one: one.first)
        return statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else math.inf

    @property
    def seconds(self) -> tuple[float, float] | None:
        """Wall and CPU seconds per decision of the player."""
        decisions = sum(one.decisions for one in self.games)
        if not decisions:
            return None
        return (sum(one.seconds for one in self.games) / decisions,
                sum(one.cpu for one in self.games) / decisions)

    def line(self) -> str:
        mean, error = self.margin
        seconds = self.seconds
        timing = f"{seconds[0]:.2f} s ({seconds[1]:.2f} s CPU)" \
            if seconds is not None and self.name.startswith("engine") else "—"
        goal = GOALS.get((self.game, self.seats))
        wanted = "" if goal is None or not self.name.startswith("engine") else \
            f"first ≥ {100 * goal:.0f} %: {'met' if self.first >= goal else 'not met'}"
        return (f"| {self.game} | {self.seats} | {self.name} | {self.deals} | {mean:+.1f} ± {error:.1f} | "
                f"{self.rank:.2f} | {100 * self.first:.1f} ± {100 * self.first_error:.1f} % | "
                f"{timing} | {wanted} |")


HEADER = ("| game | seats | player in one seat, the rule-based player in the others | rotated deals | "
          "margin per round ± s.e. | mean rank | first place ± s.e. | time per decision | goal |\n"
          "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |")


def row(game: str, seats: int, name: str, deals: int, first: int,
        pool: ProcessPoolExecutor | None = None) -> Row:
    """``deals`` deals from seed ``first``, each played with ``name`` in every seat."""
    tasks = [(game, seats, first + deal, name, seat) for deal in range(deals) for seat in range(seats)]
    games = list(pool.map(play, tasks)) if pool is not None else [play(task) for task in tasks]
    return Row(game, seats, name, tuple(games))


def _seat_counts(text: str | None, game: str) -> Sequence[int]:
    if text is None:
        return SEATS[game]
    counts = [int(part) for part in text.split(",")]
    wrong = [count for count in counts if count not in SEATS[game]]
    if wrong:
        raise SystemExit(f"{game} is played by {SEATS[game][0]}-{SEATS[game][-1]} players, not {wrong}")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine_multi", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all")
    parser.add_argument("--seats", default=None,
                        help="seat counts, e.g. 4 or 2,3,4 (default: every count the game has)")
    parser.add_argument("--deals", type=int, default=40, help="rotated deals per row")
    parser.add_argument("--players", default="random,heuristic,engine@300",
                        help="comma-separated players (engine@P: P playouts a decision)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (1: in this process)")
    parser.add_argument("--first", type=int, default=10_000,
                        help="first deal's seed (the rows of one run share their deals)")
    args = parser.parse_args(argv)
    games = GAMES if args.game == "all" else (args.game,)
    names = args.players.split(",")
    for name in names:
        chooser(name)
    plan = [(game, seats) for game in games for seats in _seat_counts(args.seats, game)]
    print(HEADER, flush=True)
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for game, seats in plan:
            for name in names:
                print(row(game, seats, name, args.deals, args.first, pool).line(), flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

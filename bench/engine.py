"""``python -m bench.engine``: how strong the engine plays classic, as a margin with its error.

Every player meets the gap-minimising rule-based player (``ClassicCore.heuristic_move``, the
kind of player the published bots are built on) over *mirrored* deals: each deal is played
twice with the seats swapped, so a lucky deal favours nobody, and the figure is the mean
margin per round (one game; the player's score less the opponent's) over the pairs, with
its standard error, and the share of rounds won (a tie counts half). The ladder:

- ``random``: uniformly random legal moves;
- ``never-open``: discards every turn and draws from the draw pile, so it scores 0;
- ``heuristic``: the rule-based player against itself (0 by symmetry: a check of the bench);
- ``engine@P``: :func:`lcn.search.search` with ``P`` playouts per move, from its own view
  (:class:`lcn.games.classic.sampler.Table`), never from the hidden deal.

A count of playouts rather than a time makes a row the same on any machine; seconds per
move of this run are printed beside it. Deals run on ``--jobs`` processes.

``--analysis N`` then analyses N seeded games of the rule-based player with the default budget
(:data:`lcn.analysis.ANALYSIS_SECONDS` a decision) on ``--jobs`` processes, and prints the
wall seconds per game and per decision, and how stable the marks are: the share of decisions
given the same mark (or none both times) by two analyses with different seeds.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from lcn.analysis import ANALYSIS_SECONDS, analyse
from lcn.games.classic.core import ClassicCore
from lcn.games.classic.sampler import Table
from lcn.search import search
from lcn.variants import classic_play
from lcn.variants.classic import CLASSIC_5

Player = Callable[[Table, random.Random], int]


def random_player(table: Table, rng: random.Random) -> int:
    return table.core.random_move(rng)


def never_open(table: Table, rng: random.Random) -> int:
    core = table.core
    tables = core.tables
    card = next(card for card in range(tables.kinds) if core.hands[core.player][card])
    return tables.encode(card, True, 0)


def heuristic(table: Table, rng: random.Random) -> int:
    return table.core.heuristic_move(rng, 0.0)


def engine(playouts: int) -> Player:
    def play(table: Table, rng: random.Random) -> int:
        seat = table.core.player
        return search(table.infoset(seat), seed=rng.getrandbits(32), seconds=None,
                      playouts=playouts).best.move
    return play


def player_named(name: str) -> Player:
    if name.startswith("engine@"):
        return engine(int(name.removeprefix("engine@")))
    return {"random": random_player, "never-open": never_open, "heuristic": heuristic}[name]


def game(deal: int, name: str, seat: int) -> tuple[int, float, int]:
    """One game of deal ``deal``: ``name`` in ``seat`` against the rule-based player; its
    margin, its seconds per move and its moves."""
    core = ClassicCore.shuffled(CLASSIC_5, random.Random(deal))
    table = Table(core)
    rng = random.Random(deal * 2 + seat)
    player = player_named(name)
    spent, moves = 0.0, 0
    while not core.is_over():
        if core.player == seat:
            start = time.perf_counter()
            table.play(player(table, rng))
            spent += time.perf_counter() - start
            moves += 1
        else:
            table.play(core.heuristic_move(rng, 0.0))
    scores = core.score()
    return scores[seat] - scores[seat ^ 1], spent, moves


def pair(task: tuple[int, str]) -> tuple[float, float, float, int]:
    """A mirrored deal: the mean margin of its two games, the share won, seconds and moves."""
    deal, name = task
    first, second = game(deal, name, 0), game(deal, name, 1)
    won = sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in (first[0], second[0])) / 2
    return (first[0] + second[0]) / 2, won, first[1] + second[1], first[2] + second[2]


def row(name: str, deals: int, jobs: int, first: int) -> str:
    tasks = [(first + deal, name) for deal in range(deals)]
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(pair, tasks))
    margins = [r[0] for r in results]
    mean = statistics.fmean(margins)
    error = statistics.stdev(margins) / math.sqrt(len(margins)) if len(margins) > 1 else math.inf
    won = 100 * statistics.fmean(r[1] for r in results)
    seconds = sum(r[2] for r in results) / max(1, sum(r[3] for r in results))
    return (f"| {name} | {deals} | {mean:+.1f} ± {error:.1f} | {won:.1f} % | "
            f"{1000 * seconds:.1f} ms |")


def analysis_rows(games: int, jobs: int, playouts: int | None = None) -> list[str]:
    """Wall time of whole analyses with the default budget (or ``playouts`` a decision), and
    the marks' stability."""
    same = alike = total = marked = 0
    walls: list[float] = []
    for index in range(games):
        record = classic_play.random_game(20_000 + index)
        runs = []
        for seed in (1, 2):
            start = time.perf_counter()
            runs.append(analyse(record, seed=seed, seconds=ANALYSIS_SECONDS, playouts=playouts,
                                jobs=jobs))
            walls.append(time.perf_counter() - start)
        for first, second in zip(runs[0].decisions, runs[1].decisions, strict=True):
            total += 1
            same += first.mark == second.mark
            alike += (first.mark is None) == (second.mark is None)
            marked += first.mark is not None
    decisions = total
    budget = f"{playouts} playouts" if playouts else f"{ANALYSIS_SECONDS} s"
    return [f"| analysis of a whole game, {budget} a decision on {jobs} processes | "
            f"{statistics.fmean(walls):.1f} s a game ({games} games, {decisions} decisions), "
            f"{sum(walls) / (2 * decisions):.2f} s a decision |",
            f"| the same marks with two seeds | {100 * same / total:.1f} % of {total} decisions "
            f"({marked} marked with the first seed) |",
            f"| the same decisions marked (any mark) with two seeds | {100 * alike / total:.1f} % |"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200, help="mirrored deals per row")
    parser.add_argument("--players", default="random,never-open,heuristic,engine@300,engine@3000",
                        help="comma-separated players (engine@P: P playouts per move)")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--first", type=int, default=10_000,
                        help="first deal's seed (the rows of one run share their deals)")
    parser.add_argument("--analysis", type=int, default=0,
                        help="also analyse this many games twice: time and stability of the marks")
    parser.add_argument("--analysis-playouts", type=int, default=None,
                        help="playouts a decision for --analysis instead of the default time")
    args = parser.parse_args(argv)
    names = [name for name in args.players.split(",") if name] if args.deals > 0 else []
    if names:  # --deals 0 (or no players): the analysis rows alone
        print("| player vs heuristic | mirrored deals | margin per round ± s.e. | rounds won | "
              "time per move |")
        print("| --- | ---: | ---: | ---: | ---: |")
    for name in names:
        print(row(name, args.deals, args.jobs, args.first), flush=True)
    if args.analysis:
        print()
        print("| analysis | figure |")
        print("| --- | --- |")
        for line in analysis_rows(args.analysis, args.jobs, args.analysis_playouts):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""First passes over games the process has not seen, against the floor over the same bytes.

A validator in use reads each game once: a measure that validates the same corpus in every
round would let whatever the engines remember (parse caches) answer the repeats. So each
round here validates corpora of its own, made from other seeds in child processes (the
seeded players run the same engines, and what they leave in a process is not this one's),
and each timing is paired with the floor's pass over the very same bytes.

The corpora: Rivals and Roll & Write games of the seeded players, written as other programs
and people write them (``corpora.rivals_format``, ``corpora.rollwrite_format``: piles or sheets
given whole, in part or not at all, seats as names or ``P2``, several turns on a line, games
cut short); classic games as the writer puts them (the canonical reference) and the same
kind of games written and annotated by hand (``corpora.hand_formatted``), all without the
deal. Where a goal is not
met, the profile of one more first pass is printed below the table: it says where the time
goes.
"""

from __future__ import annotations

import cProfile
import functools
import io
import pstats
import statistics
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

from . import corpora

if TYPE_CHECKING:
    from .__main__ import Table

#: Each corpus: what its rows are called, and its goal against the floor's time.
KINDS = {"canonical": ("classic, canonical", None), "hand": ("classic, hand-formatted and annotated", 3.0),
         "rivals": ("rivals", 4.0), "rollwrite": ("rollwrite", 4.0)}


def make(kind: str, games: int, seed: int) -> bytes:
    """One corpus of ``kind`` (run in a child process)."""
    if kind == "canonical":
        return corpora.classic(games, deal=False, seed=seed).encode()
    if kind == "hand":
        return corpora.hand_formatted(games, seed=seed).encode()
    text = corpora.variant_corpus(kind, max(games // 4, 10), seed=seed)
    if text is None:
        raise SystemExit(f"bench: the seeded player of {kind} is not available")
    return text.encode()


def _profile(func: Callable[[], object], lines: int = 14) -> str:
    profile = cProfile.Profile()
    profile.enable()
    func()
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(lines)
    text = out.getvalue()
    return text[text.find("   ncalls"):].rstrip() if "   ncalls" in text else text.rstrip()


def bench_fresh(table: Table, games: int, runs: int, timed: Callable[[Callable[[], object]], float],
                floor: Callable[[bytes], int], validate: Callable[[bytes], None],
                count: Callable[[bytes], tuple[int, int]], peer_plies: float | None) -> None:
    """Every kind of corpus, a new one each round, and its floor over the same bytes."""
    jobs = [(kind, games, 10_000 * (index + 1) + round_)
            for index, kind in enumerate(KINDS) for round_ in range(runs + 1)]
    with ProcessPoolExecutor(2) as pool:
        made = list(pool.map(make, *zip(*jobs, strict=True)))
    data = {kind: made[index * (runs + 1):(index + 1) * (runs + 1)] for index, kind in enumerate(KINDS)}
    took: dict[str, list[float]] = {kind: [] for kind in KINDS}
    floors: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for round_ in range(runs):  # interleaved: one first pass of every kind per round
        for kind in KINDS:
            corpus = data[kind][round_]
            took[kind].append(timed(functools.partial(validate, corpus)))
            floors[kind].append(timed(functools.partial(floor, corpus)))
    sizes = {kind: [count(corpus) for corpus in data[kind][:runs]] for kind in KINDS}

    table.section(f"First passes over unseen games (CPU time, a new corpus each of {runs} rounds)")
    rates: dict[str, float] = {}
    ratios: dict[str, float] = {}
    for kind, (name, goal) in KINDS.items():
        turns = statistics.median(t / s for (_, t), s in zip(sizes[kind], took[kind], strict=True))
        rates[kind] = turns
        ratios[kind] = statistics.median(t / f for t, f in zip(took[kind], floors[kind], strict=True))
        n_games, n_turns = sizes[kind][0]
        table.add(f"first pass, {name}", f"{turns:,.0f} turns/s",
                  f"{n_games:,} games, {n_turns:,} turns, {len(data[kind][0]) / 1e6:.1f} MB a round")
        note = f"target <= {goal:g}x" if goal else "the classic goal is <= 4x"
        table.add(f"ratio: first pass / floor over the same bytes, {name}", f"{ratios[kind]:.1f}x", note)
    hand_share = rates["hand"] / rates["canonical"]
    # Three decimals: at the line, two would print 0.80x for a share under 0.8x.
    table.add("ratio: hand-formatted turns/s / canonical turns/s", f"{hand_share:.3f}x", "target >= 0.8x")
    missed: dict[str, str] = {}
    if peer_plies:
        peer = rates["hand"] / peer_plies
        table.add("ratio: hand-formatted turns/s / python-chess plies/s", f"{peer:.1f}x", "target >= 10x")
        if peer < 10:
            missed["hand"] = "hand-formatted: under 10x python-chess"
    if hand_share < 0.8:
        missed["hand"] = "hand-formatted: under 0.8x canonical throughput"
    for kind, (name, goal) in KINDS.items():
        if goal is not None and ratios[kind] > goal:
            missed.setdefault(kind, f"{name}: over {goal:g}x the floor's time")
    for kind, why in missed.items():
        spare = data[kind][runs]
        table.profile(f"Why: {why}. The profile of a first pass over "
                      f"{count(spare)[0]:,} more {KINDS[kind][0]} games (tottime, top lines)",
                      _profile(functools.partial(validate, spare)))

"""Validating a file holds no more memory after many games than after a few.

The parse caches once kept every turn ever parsed (tens of megabytes after a few thousand
games of Rivals or Roll & Write, walked by every garbage collection). Memory is measured in
bytes with ``tracemalloc`` (what is still held once the games are validated), never time.
"""

from __future__ import annotations

import gc
import random
import tracemalloc

import pytest

import lcn
from lcn.variants import rivals_play, rollwrite_play
from lcn.variants.classic_play import random_game

PLAYERS = {"rivals": rivals_play, "rollwrite": rollwrite_play}


def _games(variant: str, count: int, seed: int) -> bytes:
    rng = random.Random(seed)
    texts = []
    for index in range(count):
        if variant == "classic":
            record = random_game(seed * 1_000_003 + index)
        else:
            players = rng.choice([2, 3, 4])
            record = PLAYERS[variant].random_game(seed * 1_000_003 + index, players=players)
        texts.append(lcn.write_game(record))
    return "\n".join(texts).encode()


def _held_after(variant: str, count: int, seed: int) -> int:
    """Bytes still allocated after making ``count`` new games and validating them (the
    seeded players parse their turns too, through the same engine)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        data = _games(variant, count, seed)
        for report in lcn.validate(data):
            assert report.valid
        del report, data
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("variant", ["rivals", "rollwrite", "classic"])
def test_memory_held_does_not_grow_with_the_number_of_games(variant: str) -> None:
    _held_after(variant, 5, seed=3)  # the tables made once per process
    few = _held_after(variant, 10, seed=5)
    many = _held_after(variant, 50, seed=7)
    # 40 more games of new turns: a cache of every turn would hold 2 MB more.
    assert many - few < 400_000, (few, many)

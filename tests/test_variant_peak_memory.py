"""Validating a big Rivals or Roll & Write file takes no more memory at its peak than a small one.

``lcn validate`` streams a file game by game: what it holds at once is one game and the
tables made once per process, whatever the file's size (the goal: under 50 MB for any
game on a 1 GB file). The peak is measured in bytes with ``tracemalloc`` while a file on
disk is validated, for a file of some games and one five times longer, all different (the
players renamed, so that every turn's text is new to the process); never time.
"""

from __future__ import annotations

import gc
import re
import tracemalloc
from pathlib import Path

import pytest

import lcn
from lcn.validate import ExpressReport
from lcn.variants import rivals_play, rollwrite_play

PLAYERS = {"rivals": rivals_play, "rollwrite": rollwrite_play}


def _renamed(text: str, suffix: str) -> str:
    """The same game with every player's name (and so movetext token) changed."""
    names = re.findall(r'^\[Player[0-9] "([A-Za-z]+)"\]$', text, flags=re.MULTILINE)
    for name in names:
        text = re.sub(rf"(?<![A-Za-z]){name}(?![A-Za-z])", name + suffix, text)
    return text


def _base_games(variant: str, count: int) -> list[str]:
    return [lcn.write_game(PLAYERS[variant].random_game(900 + index, players=2 + index % 3))
            for index in range(count)]


def _file(tmp_path: Path, name: str, games: list[str], copies: int) -> Path:
    suffixes = [f"X{chr(97 + copy // 26)}{chr(97 + copy % 26)}" for copy in range(copies)]
    path = tmp_path / name
    path.write_text("\n".join(_renamed(game, suffix) for suffix in suffixes for game in games))
    return path


def _peak(path: Path, variant: str) -> tuple[int, int]:
    """Peak bytes while the file is validated, and the number of games (all valid)."""
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        count = 0
        for report in lcn.validate(path):
            assert report.valid, [d.message for d in report.diagnostics]
            if variant == "rivals":
                assert isinstance(report, ExpressReport)
            count += 1
        del report
        return tracemalloc.get_traced_memory()[1] - base, count
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("variant", ["rivals", "rollwrite"])
def test_peak_memory_does_not_grow_with_the_file(variant: str, tmp_path: Path) -> None:
    games = _base_games(variant, 8)
    small = _file(tmp_path, "small.lcn", games, 2)
    big = _file(tmp_path, "big.lcn", games, 10)
    _peak(small, variant)  # the tables made once per process
    small_peak, small_count = _peak(small, variant)
    big_peak, big_count = _peak(big, variant)
    assert (small_count, big_count) == (16, 80)
    # 64 more games (about 130 kB of new turns; a cache of every turn would hold megabytes):
    # the peak is one game's worth, not the file's.
    assert big_peak - small_peak < 300_000, (small_peak, big_peak)
    assert big_peak < 5_000_000, big_peak

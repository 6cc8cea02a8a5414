"""``lcn validate --jobs`` over many small files takes their sizes as it groups them: the
workers start on the first groups while the rest are looked at, and the groups are those
that the sizes of every file, taken first, would give.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

import lcn
from lcn import parallel
from lcn.variants.classic_play import random_game, strip_deal


@pytest.fixture(autouse=True)
def _forked_as_in_a_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Earlier tests of the session (Dask's client, the live servers) leave idle threads
    behind, and with another thread running the pool is never forked; these tests are about
    the pool a command gets in a process of its own, where no other thread runs."""
    monkeypatch.setattr(parallel, "_fork_safe", lambda: parallel._FORK)


def _groups_from_every_size(sizes: list[int], jobs: int) -> list[list[int]]:
    """The groups of a run of small files made from the sizes of all of them, taken first:
    the rule the groups made as the sizes come must give."""
    left = sum(sizes)
    groups: list[list[int]] = []
    group: list[int] = []
    size = 0
    for index, file_size in enumerate(sizes):
        group.append(index)
        size += file_size
        left -= file_size
        target = min(parallel.GROUP_SIZE, max(parallel.GROUP_SMALLEST,
                                              left // (jobs * parallel.SHRINK)))
        if size >= target or len(group) >= parallel.GROUP_FILES:
            groups.append(group)
            group, size = [], 0
    if group:
        groups.append(group)
    return groups


def _files_over(sizes: list[int], size: int) -> int:
    """How many of the first files it takes to hold more than ``size`` bytes, and one more."""
    total = 0
    for index, file_size in enumerate(sizes):
        total += file_size
        if total > size:
            return index + 2
    return len(sizes)


@pytest.mark.parametrize("jobs", [2, 3, 8])
@pytest.mark.parametrize("seed", range(6))
def test_groups_made_as_the_sizes_come_are_those_of_every_size_taken_first(
        monkeypatch: pytest.MonkeyPatch, jobs: int, seed: int) -> None:
    rng = random.Random(seed)
    monkeypatch.setattr(parallel, "GROUP_SIZE", rng.choice([1 << 12, 1 << 14, 1 << 16]))
    monkeypatch.setattr(parallel, "GROUP_SMALLEST", rng.choice([1 << 8, 1 << 10]))
    monkeypatch.setattr(parallel, "GROUP_FILES", rng.choice([3, 16, 256]))
    # Runs of small files (some empty, some the size of a group) ended by a big file or
    # standard input, or by the end of the sources.
    sources: list[str | None] = []
    sizes: dict[str, int | None] = {}
    runs: list[tuple[int, list[int]]] = []
    for run in range(rng.randrange(1, 5)):
        start = len(sources)
        run_sizes = [rng.choice([0, rng.randrange(1, 200), rng.randrange(200, 5000),
                                 rng.randrange(1, parallel.SMALL_FILE)])
                     for _ in range(rng.randrange(1, 400))]
        for index, size in enumerate(run_sizes):
            name = f"run{run}-{index}.lcn"
            sources.append(name)
            sizes[name] = size
        runs.append((start, run_sizes))
        if rng.random() < 0.5:
            sources.append(None)
        else:
            sources.append(f"big{run}.lcn")
            sizes[f"big{run}.lcn"] = None
    looked_at: list[str] = []

    def small(source: Path) -> int | None:
        looked_at.append(str(source))
        return sizes[str(source)]

    monkeypatch.setattr(parallel.FileRuns, "_small", staticmethod(small))
    for start, run_sizes in runs:
        first = Path(sources[start])  # type: ignore[arg-type]
        small_files = parallel._SmallFiles(sources, start, first, run_sizes[0], jobs)
        expected = _groups_from_every_size(run_sizes, jobs)
        asked = rng.random() < 0.7
        if asked:  # whether the run is worth sharing out, asked first (as FileRuns does)
            before = len(looked_at)
            assert small_files.shared() == (len(expected) > 1 and sum(run_sizes) > parallel.SMALLEST_PART)
            # Only as many files are looked at as a group holds at most (or the smallest
            # part), and one more.
            most = max(parallel.GROUP_FILES + 1, _files_over(run_sizes, parallel.SMALLEST_PART))
            assert len(looked_at) - before <= min(most, len(run_sizes))
        groups = list(small_files)
        made = [[int(path.name.split("-")[1].split(".")[0]) for path in group] for group, _ in groups]
        assert made == expected
        assert [size for _, group_sizes in groups for size in group_sizes] == run_sizes
        assert small_files.end == start + len(run_sizes)  # at the big file or None after it
    assert len(looked_at) == len(set(looked_at))  # each file looked at once

def _game(seed: int) -> str:
    record = random_game(seed, expeditions=5)
    return lcn.write_game(record if seed % 2 else strip_deal(record))


def test_the_worker_starts_before_the_sizes_of_every_file_are_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(11)
    for index in range(240):
        text = "\n".join(_game(index * 10 + k) for k in range(rng.randrange(1, 4)))
        if index % 17 == 0:
            text += '\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. R4/d *\n'  # an error
        (tmp_path / f"g{index:03d}.lcn").write_text(text, encoding="utf-8")
    monkeypatch.setattr(parallel, "GROUP_SIZE", 1 << 13)
    monkeypatch.setattr(parallel, "GROUP_SMALLEST", 1 << 11)
    monkeypatch.setattr(parallel, "SMALLEST_PART", 1 << 12)
    looked_at: list[str] = []
    at_start: list[int] = []
    small = parallel.FileRuns._small
    pool = parallel._pool

    def counted(source: Path) -> int | None:
        looked_at.append(str(source))
        return small(source)

    def started(*args: Any) -> parallel.Workers:
        at_start.append(len(looked_at))
        return pool(*args)

    monkeypatch.setattr(parallel.FileRuns, "_small", staticmethod(counted))
    monkeypatch.setattr(parallel, "_pool", started)
    runner = CliRunner()
    one = runner.invoke(cli, ["validate", str(tmp_path)])
    assert one.exit_code == 1 and not at_start
    looked_at.clear()
    two = runner.invoke(cli, ["validate", "--jobs", "2", str(tmp_path)])
    assert (two.exit_code, two.stdout, two.stderr) == (one.exit_code, one.stdout, one.stderr)
    assert len(at_start) == 1 and len(looked_at) == 240
    # Started once a file beyond the first group is looked at (the groups are of 8 KB, the
    # files of one to three games), not once all of them are.
    assert at_start[0] <= 12


def test_a_few_small_files_start_no_worker(tmp_path: Path) -> None:
    """Files of fewer bytes than the smallest part in all: a worker would take longer to
    start than they take to validate, however many groups they make."""
    names = []
    for index in range(24):
        path = tmp_path / f"g{index:02d}.lcn"
        path.write_text(_game(index), encoding="utf-8")
        names.append(str(path))
    sizes = [Path(name).stat().st_size for name in names]
    assert sum(sizes) <= parallel.SMALLEST_PART and sum(sizes) > 2 * parallel.GROUP_SMALLEST
    started = parallel._Workers.started
    runner = CliRunner()
    one = runner.invoke(cli, ["validate", *names])
    two = runner.invoke(cli, ["validate", "--jobs", "2", *names])
    assert (two.exit_code, two.stdout) == (one.exit_code, one.stdout)
    assert parallel._Workers.started == started

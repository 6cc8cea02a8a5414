"""The structured long run (``fuzz/structured_run.py``) on a small seeded budget.

The run of a million inputs recorded in docs/reliability.md is this generator and this check,
for longer. Here a few hundred inputs show that every kind of input is made, that every
importer takes its turn, that long lines come at the rates the docstring gives, that a crash
is kept with its traceback and the run goes on, and that the summaries of parallel processes
add up.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz import structured_run


def test_a_short_run_covers_every_kind_and_importer_without_a_crash(tmp_path: Path) -> None:
    summary = structured_run.run(seed=5, inputs=240, work=tmp_path, minutes=30, hang_seconds=60)
    assert summary["finished"] and summary["inputs"] == 240
    assert summary["crashes"] == 0 and summary["hangs"] == 0, summary["crash_files"]
    assert all(summary["by_kind"][kind] > 0 for kind in structured_run.KINDS)
    # Every importer of the registry, in turn: their counts differ by at most one.
    from lcn.importers import formats

    counts = summary["by_importer"]
    assert set(counts) == {name for name, _title in formats()}
    assert sum(counts.values()) == 240 and max(counts.values()) - min(counts.values()) <= 1
    assert summary["by_size"]["<=256 B"] > 0 and summary["by_size"]["<=4 KiB"] > 0
    assert json.loads((tmp_path / "summary.json").read_text())["inputs"] == 240


def test_long_lines_come_at_the_documented_rates() -> None:
    rng = random.Random(3)
    sizes = [structured_run.long_size(rng) for _ in range(200_000)]
    longer = sum(1 for size in sizes if size > 4096)
    assert 0.007 < longer / len(sizes) < 0.013  # one in a hundred up to 65,536
    assert max(sizes) == 1 << 20 and sum(1 for size in sizes if size == 1 << 20) < 40
    assert min(sizes) >= 1


def test_a_crash_is_kept_with_its_traceback_and_the_run_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = structured_run.check
    calls = []

    def failing(data: bytes, fmt: str, snapshots: bool = True) -> None:
        calls.append(fmt)
        if len(calls) == 3:
            raise ValueError("a planted crash")
        real(data, fmt, snapshots)

    monkeypatch.setattr(structured_run, "check", failing)
    summary = structured_run.run(seed=9, inputs=12, work=tmp_path, minutes=30, hang_seconds=60)
    assert summary["inputs"] == 12 and summary["crashes"] == 1
    (name,) = summary["crash_files"]
    assert (tmp_path / "crashes" / name).exists()
    assert "a planted crash" in (tmp_path / "crashes" / f"{name}.txt").read_text()


def test_the_summaries_of_parallel_processes_add_up(tmp_path: Path) -> None:
    parts = [structured_run.run(seed=seed, inputs=20, work=tmp_path / str(seed), minutes=30,
                                hang_seconds=60) for seed in (1, 2)]
    total = structured_run.merge(parts)
    assert total["inputs"] == 40 and total["processes"] == 2 and total["finished"]
    assert sum(total["by_kind"].values()) == 40 == sum(total["by_size"].values())
    assert total["bytes"] == parts[0]["bytes"] + parts[1]["bytes"]

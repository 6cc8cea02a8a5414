"""How ``lcn.parallel`` cuts a source without reading it whole, and runs its processes.

The parts are found with small reads around the place each should end, and every process
reads its own range: these tests hold the pieces to a plain reading of the same bytes
(blocks made tiny, so that separators and line breaks fall across their edges), and check
the sources that cannot be read by range and a run stopped early.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import random
import threading
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

import lcn
from lcn import parallel
from lcn.parallel import ParallelRun, SentReport, _Cutter, _Source
from lcn.variants.classic_play import random_game


@pytest.fixture(autouse=True)
def _forked_as_in_a_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Earlier tests of the session (Dask's client, the live servers) leave idle threads
    behind, and with another thread running the pool is never forked; these tests are about
    the pool a command gets in a process of its own, where no other thread runs."""
    monkeypatch.setattr(parallel, "_fork_safe", lambda: parallel._FORK)


def _text(count: int, seed: int, crlf: bool = False) -> bytes:
    data = "\n".join(lcn.write_game(random_game(seed * 100 + i)) for i in range(count)).encode()
    return data.replace(b"\n", b"\r\n") if crlf else data


def _sources(data: bytes, tmp_path: Path) -> list[_Source]:
    path = tmp_path / "games.lcn"
    path.write_bytes(data)
    return [_Source(data), _Source(path)]


def _first_cut(data: bytes, start: int, limit: int) -> int | None:
    """The first ``[`` at or after ``start`` and before ``limit`` that follows an empty line."""
    for at in range(max(start, 0), min(limit, len(data))):
        if data[at:at + 1] == b"[" and ((data[max(at - 2, 0):at] == b"\n\n" and at >= 2)
                                        or (data[max(at - 3, 0):at] == b"\n\r\n" and at >= 3)):
            return at
    return None


@pytest.mark.parametrize("crlf", [False, True])
def test_cuts_are_found_across_the_edges_of_the_blocks_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            crlf: bool) -> None:
    monkeypatch.setattr(parallel, "_BLOCK", 7)
    data = _text(3, 1, crlf)[:1500] + b"\n\n[Event \"x\"]\n"
    for source in _sources(data, tmp_path):
        for start in range(0, len(data) + 2, 3):
            for limit in (start + 5, start + 200, len(data) + 10):
                assert source.find_cut(start, limit) == _first_cut(data, start, limit), (start, limit)
        source.close()


def test_lines_are_counted_and_ranges_read_alike_from_a_file_and_from_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "_COUNT_BLOCK", 5)
    data = _text(2, 2)
    rng = random.Random(2)
    for source in _sources(data, tmp_path):
        for _ in range(50):
            start = rng.randrange(len(data))
            end = rng.randrange(start, len(data) + 1)
            assert source.count_lines(start, end) == data.count(b"\n", start, end)
            assert source.read(start, end) == data[start:end]
        assert source.read(10, None) == data[10:]
        source.close()


@pytest.mark.parametrize("part_size", [200, 1000, 1 << 14])
def test_parts_cover_the_source_in_order_and_shrink_near_its_end(tmp_path: Path, part_size: int) -> None:
    data = _text(40, 3)
    for source in _sources(data, tmp_path):
        parts = list(_Cutter(source, part_size, jobs=2))
        assert parts[0].start == 0 and parts[-1].end == len(data) and parts[-1].last
        assert not any(part.last for part in parts[:-1])
        for before, part in itertools.pairwise(parts):
            assert part.start == before.end
            assert data[part.start - 2:part.start + 1] == b"\n\n["
        for part in parts:
            assert part.first_line == data.count(b"\n", 0, part.start) + 1
        sizes = [part.end - part.start for part in parts[:-1] if part.end is not None]
        assert max(sizes[-3:]) <= max(sizes[:3])
        source.close()


def test_a_source_without_a_place_to_cut_for_long_is_read_on_from_its_last_cut(tmp_path: Path) -> None:
    head = _text(3, 4)
    data = head + b"\n\n{" + b"no empty line " * 400 + b"}\n\n" + _text(3, 5)
    for source in _sources(data, tmp_path):
        parts = list(_Cutter(source, 64, jobs=2))
        assert parts[-1].end is None and parts[-1].last
        assert parts[-1].start <= len(head) + 2
        assert parts[-1].first_line == data.count(b"\n", 0, parts[-1].start) + 1
        source.close()


def test_a_named_pipe_is_read_in_one_process(tmp_path: Path) -> None:
    data = _text(8, 6)
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as pipe:
            pipe.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        run = ParallelRun(fifo, 2, part_size=100)
        reports = []
        for report in run:
            assert run.position == 0  # a pipe cannot tell how far it has been read
            reports.append(report)
    finally:
        writer.join(timeout=10)
    expected = list(lcn.ValidationRun(data))
    assert [r.to_json() for r in reports] == [r.to_json() for r in expected]


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_every_count_of_processes_gives_the_same_reports(tmp_path: Path, jobs: int) -> None:
    data = _text(30, 7, crlf=True)
    expected = [r.to_json() for r in lcn.ValidationRun(data)]
    for source in (data, tmp_path / "games.lcn"):
        if isinstance(source, Path):
            source.write_bytes(data)
        reports = list(ParallelRun(source, jobs, part_size=500))
        assert all(isinstance(r, SentReport) for r in reports)
        assert [r.to_json() for r in reports] == expected


def test_a_run_stopped_early_leaves_no_process_behind(tmp_path: Path) -> None:
    path = tmp_path / "games.lcn"
    path.write_bytes(_text(60, 8))
    run = iter(ParallelRun(path, 3, part_size=300))
    first = next(run)
    assert first.index == 1
    run.close()  # type: ignore[attr-defined]
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("fails_at", [1, 2, 5])
def test_a_pool_found_broken_when_handing_out_leaves_the_rest_to_this_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fails_at: int) -> None:
    """A worker may die between two parts handed out: the next hand-out then fails at once
    (as a pending result would), and this process validates what was not done."""
    submit = parallel._Workers.submit
    calls = itertools.count(1)

    def breaking(self: parallel._Workers, *args: object) -> object:
        if next(calls) >= fails_at:
            raise BrokenProcessPool("a child process terminated abruptly")
        return submit(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel._Workers, "submit", breaking)
    path = tmp_path / "games.lcn"
    data = _text(40, 11)
    path.write_bytes(data)
    reports = list(ParallelRun(path, 3, part_size=300))
    assert [r.to_json() for r in reports] == [r.to_json() for r in lcn.ValidationRun(data)]
    assert next(calls) > fails_at  # the pool was found broken on handing out
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("forked", [True, False])
def test_a_worker_that_fails_fails_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           forked: bool) -> None:
    if not forked and multiprocessing.get_start_method() != "fork":
        pytest.skip("only a forked worker inherits the patched function")
    monkeypatch.setattr(parallel, "_FORK", forked)
    validate = parallel._validate
    first = os.getpid()

    def broken_in_a_worker(*args: object) -> object:
        if os.getpid() != first:
            raise RuntimeError("broken part")
        return validate(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel, "_validate", broken_in_a_worker)  # forked workers inherit it
    path = tmp_path / "games.lcn"
    path.write_bytes(_text(20, 9))
    with pytest.raises(RuntimeError, match="broken part"):
        list(ParallelRun(path, 2, part_size=200))
    assert multiprocessing.active_children() == []


def test_express_reports_are_sent_without_validating_them_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The final state and the score sheet of an express report are made by validating the
    game again: the parts must be packed from what the express check knows."""
    from lcn.validate import ExpressReport

    def again(self: ExpressReport) -> None:
        raise AssertionError(f"game {self.index} validated again for its state or score")

    monkeypatch.setattr(ExpressReport, "_full", again)
    data = _text(30, 10)
    expected = [r.to_json() for r in lcn.ValidationRun(data)]
    assert [r.to_json() for r in ParallelRun(data, 1, part_size=2000)] == expected

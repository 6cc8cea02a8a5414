"""``lcn validate --jobs`` over a directory of many files, with forked workers: the same
output and exit status as one process, whatever crosses the pipes; and the listing of a
directory, the same as ``Path.rglob`` gives.
"""

from __future__ import annotations

import os
import random
import resource
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from lcn_cli.io import expand_inputs
from lcn_cli.main import cli

import lcn
from lcn import parallel
from lcn.variants.classic_play import random_game, strip_deal

#: The library's own rule, kept before the fixture below replaces it in each test.
FORK_SAFE = parallel._fork_safe


@pytest.fixture(autouse=True)
def _forked_as_in_a_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Earlier tests of the session (Dask's client, the live servers) leave idle threads
    behind, and with another thread running the pool is never forked; these tests are about
    the pool a command gets in a process of its own, where no other thread runs."""
    monkeypatch.setattr(parallel, "_fork_safe", lambda: parallel._FORK)


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["validate", *args])
    return result.exit_code, result.stdout, result.stderr


def _game(seed: int) -> str:
    record = random_game(seed, expeditions=5)
    return lcn.write_game(record if seed % 2 else strip_deal(record))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Valid, damaged, empty and big files, nested folders, hidden ones and other names."""
    root = tmp_path_factory.mktemp("folder")
    rng = random.Random(7)
    for index in range(160):
        where = root / ("sub" if index % 3 == 0 else "") / ("deeper" if index % 5 == 0 else "")
        where.mkdir(parents=True, exist_ok=True)
        text = "\n".join(_game(index * 10 + k) for k in range(3))
        if index % 6 == 0:
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(["R5/d ", "{", "*", "xYw/d "]) + text[at:]
        (where / f"g{index:03d}.lcn").write_text(text, encoding="utf-8")
    (root / "empty.lcn").write_bytes(b"")
    (root / "sub" / "bad-bytes.lcn").write_bytes(b"[Player1 \"\xff\"]\n\n1. R5/d *\n")
    (root / "big.lcn").write_text("\n".join(_game(5000 + k) for k in range(120)), encoding="utf-8")
    assert (root / "big.lcn").stat().st_size > parallel.SMALL_FILE
    (root / ".hidden").mkdir()
    (root / ".hidden" / "skipped.lcn").write_text("not a game", encoding="utf-8")
    (root / ".skipped.lcn").write_text("not a game", encoding="utf-8")
    (root / "notes.txt").write_text("not a game", encoding="utf-8")
    (root / "folder.lcn").mkdir()  # a folder whose name matches: not a file
    return root


@pytest.mark.parametrize("options", [["-q"], ["--format", "text"], ["--format", "json"],
                                     ["--format", "jsonl"], ["-q", "--no-warnings"]])
def test_a_directory_with_two_and_three_jobs_prints_what_one_job_prints(
        folder: Path, options: list[str]) -> None:
    missing = str(folder / "cannot-be-read.lcn")
    one = _run(*options, str(folder), missing, str(folder / "sub"))
    assert one[0] == 2 and "cannot-be-read.lcn" in one[2]
    assert _run(*options, "--jobs", "2", str(folder), missing, str(folder / "sub")) == one
    assert _run(*options, "--jobs", "3", str(folder), missing, str(folder / "sub")) == one


def test_tasks_and_results_bigger_than_a_pipe_holds_cross_without_waiting_for_ever(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many big groups given ahead (more than the worker's pipe holds: long names), each
    of whose reports fill a pipe too: the first process reads the results meanwhile."""
    folder = tmp_path / ("f" * 200)
    folder.mkdir()
    for index in range(60):
        text = "\n".join(_game(index * 10 + k) for k in range(3))
        (folder / f"{'g' * 200}{index:03d}.lcn").write_text(text, encoding="utf-8")
    monkeypatch.setattr(parallel, "GROUP_SIZE", 1 << 30)
    monkeypatch.setattr(parallel, "GROUP_FILES", 1000)
    monkeypatch.setattr(parallel, "GROUPS_AHEAD", 16)
    monkeypatch.setattr(parallel, "GROUPS_WAITING", 64)
    full: list[int] = []
    wait = parallel._wait

    def counted(readable: int, writable: int | None = None) -> None:
        if writable is not None:
            full.append(writable)
        wait(readable, writable)

    monkeypatch.setattr(parallel, "_wait", counted)
    paths = [str(folder)] * 40  # the same files again: a long run of groups
    one = _run("--format", "json", *paths)
    assert not full
    assert _run("--format", "json", "--jobs", "2", *paths) == one
    assert full  # the worker's pipe was full: this process read its results meanwhile


def test_a_process_with_more_than_1024_files_open_still_hands_work_to_its_workers(
        folder: Path) -> None:
    """The workers' pipes get descriptors above 1,024 (beyond what ``select`` can watch)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"this system allows {hard} open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    try:
        one = _run("--format", "json", str(folder))
        assert _run("--format", "json", "--jobs", "2", str(folder)) == one
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_workers_are_forked_and_none_is_left(folder: Path) -> None:
    started = parallel._Workers.started
    runs = parallel.FileRuns([Path(name) for name in expand_inputs([str(folder)])], 2,
                             report_plain=False)
    counted = 0
    pids: list[int] = []
    for run in runs:
        assert run is not None
        if isinstance(runs._pool, parallel._Workers) and not pids:
            pids = [child.pid for child in runs._pool.children]
        for _ in run:
            pass
        counted += run.unreported
    assert parallel._Workers.started == started + 1
    assert counted > 300 and len(pids) == 1
    with pytest.raises(ChildProcessError):  # stopped and reaped
        os.waitpid(pids[0], os.WNOHANG)


def _listed_by_rglob(name: str, pattern: str) -> list[str]:
    path = Path(name)
    return [str(match) for match in sorted(
        (match for match in path.rglob(pattern)
         if match.is_file() and not any(part.startswith(".")
                                        for part in match.relative_to(path).parts)),
        key=lambda match: match.relative_to(path).parts)]


def test_a_directory_lists_the_files_rglob_finds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                 ) -> None:
    rng = random.Random(3)
    for index in range(400):
        parts = [rng.choice(["a", "b", ".h", "c d", "Z", "x.lcn", "é"]) for _ in range(rng.randrange(4))]
        folder = tmp_path.joinpath(*parts)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            name = rng.choice(["g.lcn", "G.LCN", ".g.lcn", "h.lcn", "x.txt", "[1].lcn", f"{index}.lcn"])
            (folder / name).write_text("x", encoding="utf-8")
        except (FileExistsError, NotADirectoryError, IsADirectoryError):
            pass
    (tmp_path / "a").mkdir(exist_ok=True)
    (tmp_path / "a" / "f.lcn").write_text("x", encoding="utf-8")
    os.symlink(tmp_path / "a", tmp_path / "linked.lcn")  # a folder linked to: not entered
    os.symlink(tmp_path / "a", tmp_path / "linked")
    os.symlink(tmp_path / "a" / "f.lcn", tmp_path / "file-link.lcn")  # a file linked to: kept
    os.symlink(tmp_path / "gone", tmp_path / "broken.lcn")  # to nothing: left out
    for pattern in ["*.lcn", "*", "g.lcn", "[gh].lcn", "*.LCN", "?.lcn", "[[]1].lcn"]:
        for name in [str(tmp_path), str(tmp_path) + "/", str(tmp_path / "a"), str(tmp_path / "Z")]:
            expected = _listed_by_rglob(name, pattern)
            if expected:
                assert expand_inputs([name], pattern) == expected, (name, pattern)
    monkeypatch.chdir(tmp_path)
    for name in [".", "a", "./a", "a/", "./a/"]:
        assert expand_inputs([name]) == _listed_by_rglob(name, "*.lcn"), name


def test_with_another_thread_running_no_worker_is_forked() -> None:
    """A lock another thread holds at a fork stays held in the child: with a thread running
    (a server's, a Dask client's), the pool is ``concurrent.futures``'s."""
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert not FORK_SAFE()
    finally:
        release.set()
        thread.join()

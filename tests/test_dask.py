"""``lcn validate --dask``: the same output, byte for byte, with the same exit status, as one
process and as ``--jobs 2``, on a Dask cluster for real.

Two clusters: ``--dask local`` (a ``LocalCluster`` of 2 worker processes started by the
command), and a ``dask scheduler`` with 2 ``dask worker`` processes started here on loopback,
on free ports, in another working directory, and stopped after. The corpus has 200 small
files (valid, damaged, empty, with Windows line endings, the samples of every variant,
generated games, a match split over two files, a file that cannot be read) and a big file
cut into ranges; and there is one big file alone. No timing is asserted.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli
from test_many_files import _corpus, _damaged, _games

import lcn
from lcn import cluster, parallel

pytestmark = pytest.mark.cluster

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
FORMATS = [["--format", "text"], ["-q"], ["--no-warnings"], ["--format", "json"], ["--format", "jsonl"]]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["validate", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _command(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, check=False)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return _corpus(tmp_path_factory.mktemp("dask-many"), 200)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> str:
    rng = random.Random(8)
    path = tmp_path_factory.mktemp("dask-big") / "big.lcn"
    path.write_text("\n".join(_damaged(t, rng) if rng.random() < 0.1 else t for t in _games(300, 9)),
                    encoding="utf-8")
    return str(path)


class _Spy:
    """Counts the tasks handed to the cluster and the runs given up to this process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.parts = self.groups = self.given_up = 0
        self.pools: list[cluster.DaskWorkers] = []
        spy = self
        submit, submit_files = cluster.DaskWorkers.submit, cluster.DaskWorkers.submit_files
        give_up = parallel._give_up

        def parts(pool: cluster.DaskWorkers, *args: Any, **kwargs: Any) -> Any:
            spy.parts += 1
            if pool not in spy.pools:
                spy.pools.append(pool)
            return submit(pool, *args, **kwargs)

        def groups(pool: cluster.DaskWorkers, *args: Any, **kwargs: Any) -> Any:
            spy.groups += 1
            if pool not in spy.pools:
                spy.pools.append(pool)
            return submit_files(pool, *args, **kwargs)

        def gave_up(*args: Any) -> None:
            spy.given_up += 1
            give_up(*args)

        monkeypatch.setattr(cluster.DaskWorkers, "submit", parts)
        monkeypatch.setattr(cluster.DaskWorkers, "submit_files", groups)
        monkeypatch.setattr(parallel, "_give_up", gave_up)


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``dask scheduler`` and two ``dask worker`` processes on loopback, in a directory of
    their own (the paths they are given are absolute)."""
    distributed = pytest.importorskip("distributed")
    where = tmp_path_factory.mktemp("dask-workers")
    address = f"tcp://{HOST}:{_free_port()}"
    logs = [open(where / f"{name}.log", "wb") for name in ("scheduler", "worker-1", "worker-2")]  # noqa: SIM115
    processes = [subprocess.Popen(
        [sys.executable, "-m", "dask", "scheduler", "--host", HOST, "--port", address.rsplit(":", 1)[1],
         "--no-dashboard"], cwd=where, stdout=logs[0], stderr=subprocess.STDOUT)]
    try:
        for log in logs[1:]:
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "dask", "worker", address, "--host", HOST, "--nworkers", "1",
                 "--nthreads", "1", "--no-dashboard"], cwd=where, stdout=log, stderr=subprocess.STDOUT))
        client = None
        for _ in range(120):  # the scheduler takes a moment to listen, the workers to join
            try:
                client = distributed.Client(address, timeout=5, set_as_default=False)
                break
            except OSError:
                time.sleep(0.5)
        assert client is not None, (where / "scheduler.log").read_text()
        try:
            client.wait_for_workers(2, timeout=120)
            assert len(client.nthreads()) == 2
        finally:
            client.close()
        yield address
    finally:
        for process in processes[::-1]:
            process.terminate()
        for process in processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in logs:
            log.close()


def test_dask_local_is_a_local_cluster_of_one_worker_process_per_core(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    assert cluster.local_workers() == len(os.sched_getaffinity(0))
    started: list[dict[str, Any]] = []
    import distributed

    class Counted(distributed.LocalCluster):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            started.append(kwargs)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(distributed, "LocalCluster", Counted)
    monkeypatch.setattr(cluster, "LOCAL_WORKERS", 2)
    with cluster.connect("local") as local:
        assert len(local.client.nthreads()) == 2
        assert local.workers().count == 2
    assert started == [{"n_workers": 2, "threads_per_worker": 1, "processes": True,
                        "dashboard_address": None,
                        "scheduler_kwargs": {"dashboard_address": "127.0.0.1:0"}, "silence_logs": 40}]


def test_dask_local_prints_what_one_process_and_two_jobs_print(
        corpus: list[str], big: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "LOCAL_WORKERS", 2)
    spy = _Spy(monkeypatch)
    for files in (corpus, [big]):
        one = _run(*files)
        assert _run("--jobs", "2", *files) == one
        assert _run("--dask", "local", *files) == one
    assert one[0] == 1
    assert spy.parts > 5 and spy.groups > 5 and spy.given_up == 0
    assert all(pool.by_path for pool in spy.pools)


@pytest.mark.parametrize("options", FORMATS)
def test_a_scheduler_and_two_workers_print_what_one_process_prints(
        scheduler: str, corpus: list[str], big: str, options: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    spy = _Spy(monkeypatch)
    one = _run(*options, *corpus)
    assert one[0] == 2 and "cannot-be-read.lcn" in one[2]  # a file that cannot be read
    assert _run(*options, "--jobs", "2", *corpus) == one
    assert _run(*options, "--dask", scheduler, *corpus) == one
    alone = _run(*options, big)
    assert alone[0] == 1
    assert _run(*options, "--jobs", "2", big) == alone
    assert _run(*options, "--dask", scheduler, big) == alone
    assert spy.parts > 5 and spy.groups > 5 and spy.given_up == 0
    assert all(pool.by_path for pool in spy.pools)


def test_the_corpus_has_every_game_and_the_cases_that_matter(corpus: list[str]) -> None:
    data = json.loads(_run("--format", "json", *corpus)[1])
    assert len(data["files"]) == len(corpus) - 1 >= 200
    assert {game["variant"] for game in data["games"]} >= {"classic", "rivals", "rollwrite"}
    assert data["summary"]["invalid"] > 10 and data["summary"]["valid"] > 200
    assert any(Path(name).stat().st_size > parallel.SMALL_FILE for name in corpus if Path(name).exists())


def test_paths_a_worker_cannot_see_are_sent_as_bytes(
        scheduler: str, corpus: list[str], big: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The workers are given names that do not exist where they run: this process reads the
    # ranges and files itself and sends their bytes, with the same output.
    spy = _Spy(monkeypatch)
    monkeypatch.setattr(cluster, "shared_path", lambda path: f"/nowhere/{os.path.abspath(path)}")
    for files in (corpus, [big]):
        one = _run("--format", "json", *files)
        assert _run("--format", "json", "--dask", scheduler, *files) == one
    assert spy.pools and not any(pool.by_path for pool in spy.pools) and spy.given_up == 0


def test_a_file_of_another_size_at_a_workers_path_is_not_read_there(
        scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The path a worker is given names another file (as on a machine whose copy differs).
    files = []
    texts = _games(120, 12)
    for index in range(0, 120, 4):
        path = tmp_path / f"{index:03d}.lcn"
        path.write_text("\n".join(texts[index:index + 4]), encoding="utf-8")
        files.append(str(path))
    other = tmp_path / "other.lcn"
    other.write_text(texts[0], encoding="utf-8")
    spy = _Spy(monkeypatch)
    monkeypatch.setattr(cluster, "shared_path", lambda path: str(other))
    one = _run(*files)
    assert _run("--dask", scheduler, *files) == one
    assert spy.groups and not any(pool.by_path for pool in spy.pools)


def test_a_cluster_lost_midway_leaves_the_rest_to_this_process(corpus: list[str], tmp_path: Path) -> None:
    # A scheduler of its own, killed once a few groups are handed out: the pending tasks
    # fail, and the rest is validated here, with the same output, a note on standard
    # error and no traceback (the command runs in a process of its own, its stderr as is).
    sys.path.insert(0, str(ROOT))
    from bench.cluster import scheduler as started

    one = _command("-m", "lcn_cli.main", "validate", *corpus)
    assert one.returncode == 2
    killing = ("import os, signal, sys\n"
               "from lcn import cluster\n"
               "from lcn_cli.main import cli\n"
               "submit_files = cluster.DaskWorkers.submit_files\n"
               "handed = []\n"
               "def handing(pool, *args, **kwargs):\n"
               "    handed.append(1)\n"
               "    if len(handed) == 3:\n"
               "        os.kill(int(os.environ['SCHEDULER_PID']), signal.SIGKILL)\n"
               "    return submit_files(pool, *args, **kwargs)\n"
               "cluster.DaskWorkers.submit_files = handing\n"
               "try:\n"
               "    cli(sys.argv[1:])\n"
               "finally:\n"
               "    print(len(handed), file=sys.stderr)\n")
    with started(1, tmp_path) as address:
        (scheduler_pid,) = [process.pid for process in _children()
                            if "scheduler" in process.cmdline() and address.rsplit(":", 1)[1]
                            in process.cmdline()]
        lost = _command("-c", killing, "validate", "--dask", address, *corpus,
                        env={**os.environ, "SCHEDULER_PID": str(scheduler_pid)})
    assert (lost.returncode, lost.stdout) == (one.returncode, one.stdout)
    assert lost.stderr.startswith(one.stderr)
    assert "lcn: the Dask cluster was lost in the middle of the run" in lost.stderr
    assert int(lost.stderr.splitlines()[-1]) >= 3
    assert "Traceback" not in lost.stderr and "ERROR" not in lost.stderr, lost.stderr


def _children() -> list[Any]:
    psutil = pytest.importorskip("psutil")
    return list(psutil.Process().children(recursive=True))


def test_the_libraries_pieces_give_the_reports_of_one_process(big: str) -> None:
    data = Path(big).read_bytes()

    def summary(reports: Any) -> list[Any]:
        return [[r.index, r.record.line, r.to_json()] for r in reports]

    expected = summary(lcn.ValidationRun(data))
    ranges = parallel.cut_points(big, part_size=1 << 14)
    assert len(ranges) > 5 and ranges[0].start == 0 and ranges[-1].end == len(data)
    assert all(a.end == b.start for a, b in itertools.pairwise(ranges))
    by_path = [parallel.validate_range(big, part) for part in ranges]
    by_bytes = [parallel.validate_range(data[part.start:part.end], part) for part in ranges]
    assert summary(parallel.merge_ranges(big, by_path)) == expected
    assert summary(parallel.merge_ranges(data, by_bytes)) == expected
    counted = parallel.merge_ranges(big, [parallel.validate_range(big, part, report_plain=False)
                                          for part in ranges], report_plain=False)
    problems = summary(counted)
    assert len(problems) + counted.unreported == len(expected)
    assert problems == [game for game in expected if game[2]["diagnostics"]]
    with pytest.raises(ValueError, match="not the next one"):
        list(parallel.merge_ranges(big, by_path[1:]))
    with pytest.raises(ValueError, match="no result for the range"):
        list(parallel.merge_ranges(big, by_path[:-1]))


def test_a_scheduler_that_cannot_be_reached_is_an_error_without_a_traceback() -> None:
    pytest.importorskip("distributed")
    sample = str(ROOT / "samples" / "classic" / "full-deal.lcn")
    address = f"tcp://{HOST}:{_free_port()}"  # nothing listens there
    done = _command("-m", "lcn_cli.main", "validate", "--dask", address, sample)
    assert done.returncode == 2
    assert f"lcn: cannot reach the Dask scheduler at '{address}'" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    for wrong in ("nonsense://here", "tcp://", f"tcp://{HOST}:port"):
        status, out, err = _run("--dask", wrong, sample)
        assert status == 2 and out == ""
        assert f"lcn: '{wrong}' is not the address of a Dask scheduler" in err
    status, _, err = _run("--dask", "local", "--jobs", "2", sample)
    assert status == 2 and "--jobs and --dask cannot be used together" in err


def test_a_scheduler_without_workers_is_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    address = f"tcp://{HOST}:{_free_port()}"
    with open(tmp_path / "scheduler.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", HOST, "--port",
                                    address.rsplit(":", 1)[1], "--no-dashboard"], cwd=tmp_path, stdout=log,
                                   stderr=subprocess.STDOUT)
        try:
            for _ in range(120):
                with socket.socket() as sock:
                    if sock.connect_ex((HOST, int(address.rsplit(":", 1)[1]))) == 0:
                        break
                time.sleep(0.5)
            monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
            status, out, err = _run("--dask", address, str(ROOT / "samples" / "classic" / "full-deal.lcn"))
        finally:
            process.terminate()
            process.wait(30)
    assert status == 2 and out == ""
    assert f"lcn: the Dask scheduler at '{address}' has no worker" in err


def test_without_the_cluster_extra_lcn_works_and_dask_says_what_to_install() -> None:
    # Dask made impossible to import, as when the extra is not installed.
    sample = str(ROOT / "samples" / "classic" / "full-deal.lcn")
    blocked = ("import sys\n"
               "sys.modules['dask'] = sys.modules['distributed'] = None\n"
               "from lcn_cli.main import cli\n"
               "try:\n"
               "    cli(sys.argv[1:])\n"
               "finally:\n"
               "    assert 'distributed' not in [m for m in sys.modules if sys.modules[m] is not None]\n")
    plain = _command("-c", blocked, "validate", sample)
    assert plain.returncode == 0 and "valid" in plain.stdout, plain.stderr
    jobs = _command("-c", blocked, "validate", "--jobs", "2", sample)
    assert jobs.returncode == 0 and jobs.stdout == plain.stdout, jobs.stderr
    missing = _command("-c", blocked, "validate", "--dask", "local", sample)
    assert missing.returncode == 2 and missing.stdout == ""
    assert "lcn: --dask needs Dask: install the cluster extra" in missing.stderr
    assert "lost-cities-notation[cluster]" in missing.stderr and "Traceback" not in missing.stderr
    # And a plain validate never imports Dask.
    unused = _command("-c", "import sys\nfrom lcn_cli.main import cli\ntry:\n    cli(sys.argv[1:])\n"
                      "except SystemExit:\n    print('distributed' in sys.modules, 'dask' in sys.modules)\n",
                      "validate", "--jobs", "2", sample)
    assert unused.stdout.splitlines()[-1] == "False False", unused.stderr


@pytest.mark.slow
def test_the_bench_gives_the_fixed_cost_and_the_throughput_per_worker(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    sys.path.insert(0, str(ROOT))
    from bench import __main__ as bench_main

    out = tmp_path / "table.md"
    skip = [part for name in ("validation", "scaling", "parts", "jobs", "site", "stream")
            for part in ("--skip", name)]
    assert bench_main.main(["--games", "8", "--runs", "1", *skip, "--markdown", str(out)]) == 0
    printed = capsys.readouterr().out
    for needle in ("lcn validate --dask", "fixed cost of --dask local: +", "200 files of 3 games",
                   "1 worker (a running scheduler)", "2 workers (a running scheduler)",
                   "games/s per worker", "ratio: --dask 2 workers / 1 worker"):
        assert needle in printed
    assert printed.count("the same output as one process: yes") == 2
    assert "| ratio: --dask 2 workers / 1 worker |" in out.read_text()

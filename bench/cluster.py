"""``lcn validate --dask``: the fixed cost a cluster adds, and the throughput per worker.

The fixed cost is ``--dask local`` against one process on a file of one game: starting a
``LocalCluster`` (one worker process per core), connecting, and stopping it. The throughput
is over a corpus of many small files (three games each), on a ``dask scheduler`` with one
``dask worker`` process and on another with two, both started here on loopback and kept
running, so that the rounds interleave them; one process on the same corpus is the
reference. Every figure is wall time (the workers are not this command's children), the
median of ``--runs`` rounds.
"""

from __future__ import annotations

import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from . import corpora

if TYPE_CHECKING:
    from .__main__ import Table

HOST = "127.0.0.1"
#: Games per file of the many-files corpus.
GAMES_PER_FILE = 3


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def scheduler(workers: int, where: Path) -> Iterator[str]:
    """A ``dask scheduler`` and ``workers`` one-thread ``dask worker`` processes on loopback;
    its address while the block runs, everything stopped after."""
    import distributed

    port = _free_port()
    address = f"tcp://{HOST}:{port}"
    log = open(where / f"dask-{port}.log", "wb")  # noqa: SIM115 - closed below
    processes = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", HOST, "--port",
                                   str(port), "--no-dashboard"], cwd=where, stdout=log,
                                  stderr=subprocess.STDOUT)]
    try:
        processes += [subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--host", HOST,
                                        "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                                       cwd=where, stdout=log, stderr=subprocess.STDOUT)
                      for _ in range(workers)]
        client = None
        for _ in range(120):
            try:
                client = distributed.Client(address, timeout=5, set_as_default=False)
                break
            except OSError:
                time.sleep(0.5)
        if client is None:
            raise RuntimeError(f"the Dask scheduler at {address} did not start")
        try:
            client.wait_for_workers(workers, timeout=120)
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
        log.close()


def many_files(folder: Path, files: int) -> int:
    """Write ``files`` files of ``GAMES_PER_FILE`` distinct classic games; the games in all."""
    block = corpora.big_block().decode()
    games = ["[" + text if index else text for index, text in enumerate(block.split("\n\n["))]
    at = 0
    for index in range(files):
        chosen = [games[(at + step) % len(games)].strip("\n") for step in range(GAMES_PER_FILE)]
        at += GAMES_PER_FILE
        (folder / f"{index:05d}.lcn").write_text("\n\n".join(chosen) + "\n", encoding="utf-8")
    return files * GAMES_PER_FILE


def _output(args: list[str]) -> tuple[int, bytes]:
    done = subprocess.run([sys.executable, "-m", "lcn_cli.main", *args], capture_output=True, check=False)
    return done.returncode, done.stdout


def bench_dask(table: Table, games: int, runs: int,
               cli_run: Callable[[list[str]], tuple[float, float]]) -> None:
    """Add the ``--dask`` rows to the table (``cli_run`` times one command: wall, CPU)."""
    table.section(f"lcn validate --dask (wall time, median of {runs} interleaved runs)")
    try:
        import distributed  # noqa: F401
    except ImportError:
        table.add("lcn validate --dask", "n/a", "install the cluster extra")
        return
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        where = Path(tmp)
        tiny = where / "one-game.lcn"
        tiny.write_text(corpora.classic(1, seed=5), encoding="utf-8")
        folder = where / "many"
        folder.mkdir()
        files = max(200, games * 2)
        total = many_files(folder, files)
        one_worker = stack.enter_context(scheduler(1, where))
        two_workers = stack.enter_context(scheduler(2, where))
        commands = {
            "one process, one game": ["validate", "-q", str(tiny)],
            "--dask local, one game": ["validate", "-q", "--dask", "local", str(tiny)],
            "one process, many files": ["validate", "-q", str(folder)],
            "1 worker": ["validate", "-q", "--dask", one_worker, str(folder)],
            "2 workers": ["validate", "-q", "--dask", two_workers, str(folder)],
        }
        reference = _output(commands["one process, many files"])
        same = all(_output(commands[name]) == reference for name in ("1 worker", "2 workers"))
        walls: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, args in commands.items():
                walls[name].append(cli_run(args)[0])
        wall = {name: statistics.median(times) for name, times in walls.items()}
    load = os.getloadavg()[0]
    local = wall["--dask local, one game"]
    plain = wall["one process, one game"]
    from lcn.cluster import local_workers

    table.add("lcn validate -q, one game, one process", f"{plain:.2f} s", "the command's start-up")
    table.add("lcn validate -q --dask local, one game", f"{local:.2f} s",
              f"fixed cost of --dask local: +{local - plain:.2f} s (a LocalCluster of "
              f"{local_workers()} worker processes started, connected to and stopped)")
    one = total / wall["one process, many files"]
    table.add(f"lcn validate -q, {files:,} files of {GAMES_PER_FILE} games, one process",
              f"{one:,.0f} games/s", f"{wall['one process, many files']:.2f} s, {total:,} games")
    rates = {}
    for count in (1, 2):
        name = f"{count} worker{'s' if count > 1 else ''}"
        rates[count] = total / wall[name]
        table.add(f"lcn validate -q --dask, {name} (a running scheduler)", f"{rates[count]:,.0f} games/s",
                  f"{rates[count] / count:,.0f} games/s per worker, {wall[name]:.2f} s; "
                  f"the same output as one process: {'yes' if same else 'NO'}")
    table.add("ratio: --dask 2 workers / 1 worker", f"{rates[2] / rates[1]:.2f}x",
              f"{os.cpu_count()} cores shared with the command itself, load average {load:.1f}")
    table.add("ratio: --dask 1 worker / one process", f"{rates[1] / one:.2f}x",
              "what handing the files to a worker costs and gains")

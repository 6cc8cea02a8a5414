"""``python -m bench``: measure LCN against its floor and its peer, in one run.

Every figure is the median of ``--runs`` timings taken in this process, and every ratio is
between figures of the same run, because these machines are noisy: compare ratios, not
absolute numbers. See docs/performance.md for a recorded run.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lcn

from . import corpora

#: The floor: one regex tokenization pass over the same bytes (tags, comments, glyphs,
#: move numbers, words), no model and no rules.
FLOOR = re.compile(rb'\[[^\]\n]*\]|\{[^}]*\}|;[^\n]*|\$\d+|\d+\.+|[^\s{};\[\]]+')


def median_time(func: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def count_turns(data: bytes) -> tuple[int, int]:
    games = turns = 0
    for record in lcn.read_games(data):
        games += 1
        turns += len(record.turns)
    return games, turns


def validate_all(data: bytes) -> int:
    bad = 0
    for report in lcn.validate(data):
        bad += not report.valid
    if bad:
        raise SystemExit(f"bench: {bad} generated games are invalid; the corpus is wrong")
    return bad


def floor_pass(data: bytes) -> int:
    return sum(1 for _ in FLOOR.finditer(data))


def headers_pass(data: bytes) -> int:
    return sum(1 for _ in lcn.read_headers(data))


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str]] = []

    def add(self, name: str, figure: str, note: str = "") -> None:
        self.rows.append((name, figure, note))
        print(f"  {name:<52} {figure:>18}  {note}", flush=True)

    def markdown(self) -> str:
        lines = ["| measure | figure | note |", "| --- | ---: | --- |"]
        lines += [f"| {a} | {b} | {c} |" for a, b, c in self.rows]
        return "\n".join(lines)


def bench_validation(table: Table, games: int, runs: int) -> dict[str, float]:
    rates: dict[str, float] = {}
    corpus_specs: list[tuple[str, str | None]] = [
        ("classic 5, full deal", corpora.classic(games)),
        ("classic 5, no deal", corpora.classic(games, deal=False)),
        ("classic 6, full deal", corpora.classic(games, expeditions=6)),
        ("classic 6, no deal", corpora.classic(games, expeditions=6, deal=False)),
        ("rivals", corpora.variant_corpus("rivals", max(games // 4, 10))),
        ("rollwrite", corpora.variant_corpus("rollwrite", max(games // 4, 10))),
    ]
    for name, text in corpus_specs:
        if text is None:
            table.add(f"full validation, {name}", "n/a", "engine not available")
            continue
        data = text.encode()
        n_games, n_turns = count_turns(data)
        seconds = median_time(lambda data=data: validate_all(data), runs)
        rates[name] = n_turns / seconds
        table.add(f"full validation, {name}", f"{n_turns / seconds:,.0f} turns/s",
                  f"{n_games / seconds:,.0f} games/s; {n_games} games, {n_turns} turns, "
                  f"{len(data) / 1e6:.1f} MB")
        if name == "classic 5, full deal":
            floor = median_time(lambda data=data: floor_pass(data), runs)
            tokens = floor_pass(data)
            rates["floor"] = n_turns / floor
            table.add("floor: one re.finditer pass, same bytes", f"{n_turns / floor:,.0f} turns/s",
                      f"{tokens / floor:,.0f} tokens/s")
            table.add("ratio: validation time / floor time", f"{seconds / floor:.1f}x", "target <= 4x")
            heads = median_time(lambda data=data: headers_pass(data), runs)
            rates["headers"] = n_games / heads
            table.add("headers-only scan, classic 5", f"{n_games / heads:,.0f} games/s")
            rates["classic_turns"] = n_turns
    return rates


def bench_chess(table: Table, rates: dict[str, float], runs: int) -> None:
    try:
        import chess.pgn
    except ModuleNotFoundError:
        table.add("python-chess", "n/a", "install the bench extra: pip install '.[bench]'")
        return
    plies = int(rates.get("classic_turns", 40_000))
    text, games, total = corpora.chess_pgn(plies)

    def parse() -> None:
        handle = io.StringIO(text)
        while chess.pgn.read_game(handle) is not None:
            pass

    def headers() -> None:
        handle = io.StringIO(text)
        while chess.pgn.read_headers(handle) is not None:
            pass

    seconds = median_time(parse, runs)
    peer = total / seconds
    table.add("python-chess read_game (legality checked)", f"{peer:,.0f} plies/s",
              f"{games} games, {total} plies")
    ours = rates.get("classic 5, full deal")
    if ours:
        table.add("ratio: LCN turns/s / python-chess plies/s", f"{ours / peer:.1f}x", "target >= 5x")
    heads = median_time(headers, runs)
    table.add("python-chess read_headers", f"{games / heads:,.0f} games/s")
    if "headers" in rates:
        table.add("ratio: LCN headers / python-chess headers", f"{rates['headers'] / (games / heads):.1f}x",
                  "target >= 1x")


def bench_stream(table: Table, size_mb: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.lcn"
        written = corpora.write_big(path, size_mb * 1_000_000)
        code = (
            "import pathlib, resource, sys, lcn\n"
            "n = sum(1 for _ in lcn.validate(pathlib.Path(sys.argv[1])))\n"
            "print(n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
        )
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                             check=True).stdout.split()
        seconds = time.perf_counter() - start
        games, rss_kb = int(out[0]), int(out[1])
        table.add(f"streaming validation of {written / 1e6:,.0f} MB", f"{rss_kb / 1024:,.0f} MB peak RSS",
                  f"{games} games in {seconds:,.0f} s; target < 100 MB")


def bench_jobs(table: Table, games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "jobs.lcn"
        path.write_text(corpora.classic(games * 4, deal=False, seed=3))
        help_text = subprocess.run([sys.executable, "-m", "lcn_cli.main", "validate", "--help"],
                                   capture_output=True, text=True).stdout
        if "--jobs" not in help_text:
            table.add("lcn validate --jobs 2 speed-up", "n/a", "--jobs not available")
            return
        timings = {}
        for jobs in (1, 2):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "lcn_cli.main", "validate", "-q", "--jobs", str(jobs),
                            str(path)], capture_output=True, check=True)
            timings[jobs] = time.perf_counter() - start
        table.add("lcn validate --jobs 2 speed-up over --jobs 1", f"{timings[1] / timings[2]:.2f}x",
                  f"{os.cpu_count()} cores; target >= 1.8x on 2 cores")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="classic games per corpus")
    parser.add_argument("--runs", type=int, default=5, help="timings per measure (median)")
    parser.add_argument("--stream-mb", type=int, default=1000, help="size of the streaming file")
    parser.add_argument("--skip", action="append", default=[],
                        choices=["chess", "stream", "jobs", "site"], help="leave a part out")
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown here")
    args = parser.parse_args(argv)
    table = Table()
    print(f"LCN {lcn.__version__} on Python {sys.version.split()[0]}, {os.cpu_count()} cores", flush=True)
    rates = bench_validation(table, args.games, args.runs)
    if "chess" not in args.skip:
        bench_chess(table, rates, args.runs)
    if "jobs" not in args.skip:
        bench_jobs(table, args.games)
    if "site" not in args.skip:
        from .site import bench_site

        bench_site(table)
    if "stream" not in args.skip:
        bench_stream(table, args.stream_mb)
    if args.markdown:
        args.markdown.write_text(table.markdown() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

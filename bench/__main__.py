"""``python3 -m bench``: measure LCN against its floor and its peer, in one run.

Every figure is the median of ``--runs`` timings taken in this process, with the measures
interleaved (one timing of each per round), and every ratio is between figures of the same
run, because these machines are noisy: compare ratios, not absolute numbers. Measures in
this process are CPU time; the command-line and site measures are wall time. See
docs/performance.md for a recorded run and what each line means.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import io
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Hashable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import lcn

from . import corpora

#: The floor: one regex tokenization pass over the same bytes (tags, comments, glyphs,
#: move numbers, words), no model and no rules.
FLOOR = re.compile(rb'\[[^\]\n]*\]|\{[^}]*\}|;[^\n]*|\$\d+|\d+\.+|[^\s{};\[\]]+')

#: The classic corpora of the validation measures: name, expeditions, with the deal or not.
CLASSIC_CORPORA = [
    ("classic 5, full deal", 5, True),
    ("classic 5, no deal", 5, False),
    ("classic 6, full deal", 6, True),
    ("classic 6, no deal", 6, False),
]


class Table:
    """The printed table, kept for the Markdown copy."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str]] = []
        #: Profiles printed where a goal is not met: (title, text).
        self.profiles: list[tuple[str, str]] = []
        #: python-chess's plies/s in this run, once measured.
        self.peer_plies: float | None = None

    def profile(self, title: str, text: str) -> None:
        self.profiles.append((title, text))
        print(f"\n{title}\n{text}", flush=True)

    def add(self, name: str, figure: str, note: str = "") -> None:
        self.rows.append((name, figure, note))
        print(f"  {name:<50} {figure:>20}  {note}", flush=True)

    def section(self, title: str) -> None:
        self.rows.append((f"**{title}**", "", ""))
        print(f"\n{title}", flush=True)

    def markdown(self) -> str:
        lines = ["| measure | figure | note |", "| --- | ---: | --- |"]
        lines += [f"| {a} | {b} | {c} |" for a, b, c in self.rows]
        for title, text in self.profiles:
            lines += ["", f"{title}:", "", "```text", text, "```"]
        return "\n".join(lines)


def timed(func: Callable[[], Any]) -> float:
    """CPU seconds of one call: on a shared machine, the time the work took, not the time
    other programs held the processor (wall time varies several-fold here)."""
    gc.collect()
    start = time.process_time()
    func()
    return time.process_time() - start


Key = TypeVar("Key", bound=Hashable)


def interleaved(measures: dict[Key, Callable[[], Any]], runs: int) -> dict[Key, float]:
    """Median seconds of each measure, taking one timing of every measure per round."""
    times: dict[Key, list[float]] = {name: [] for name in measures}
    for _ in range(runs):
        for name, func in measures.items():
            times[name].append(timed(func))
    return {name: statistics.median(values) for name, values in times.items()}


def count(data: bytes) -> tuple[int, int]:
    games = turns = 0
    for record in lcn.read_games(data):
        games += 1
        turns += len(record.turns)
    return games, turns


def validate_all(data: bytes) -> None:
    bad = sum(1 for report in lcn.validate(data) if not report.valid)
    if bad:
        raise SystemExit(f"bench: {bad} generated games are invalid; the corpus is wrong")


def floor_pass(data: bytes) -> int:
    return sum(1 for _ in FLOOR.finditer(data))


def headers_pass(data: bytes) -> int:
    return sum(1 for _ in lcn.read_headers(data))


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        import chess

        peer = f"python-chess {chess.__version__}"
    except ModuleNotFoundError:
        peer = "python-chess not installed"
    now = datetime.datetime.now(datetime.UTC)
    return (f"LCN {lcn.__version__}, Python {platform.python_version()}, {peer}; {model}, "
            f"{os.cpu_count()} cores, {platform.system()} {platform.release()}; load average "
            f"{os.getloadavg()[0]:.1f} at the start; {now:%Y-%m-%d %H:%M} UTC")


def _peer() -> Any:
    """python-chess's PGN module, or None when the bench extra is not installed."""
    try:
        import chess.pgn
    except ModuleNotFoundError:
        return None
    return chess.pgn


def bench_validation(table: Table, games: int, runs: int, skip: list[str]) -> dict[str, bytes]:
    """Full validation of every variant, the floor, headers, and python-chess, interleaved."""
    corpus: dict[str, bytes] = {}
    for name, expeditions, deal in CLASSIC_CORPORA:
        corpus[name] = corpora.classic(games, expeditions=expeditions, deal=deal).encode()
    missing = []
    for name in ("rivals", "rollwrite"):
        text = corpora.variant_corpus(name, max(games // 4, 10))
        if text is None:
            missing.append(name)
        else:
            corpus[name] = text.encode()
    sizes = {name: count(data) for name, data in corpus.items()}
    classic = corpus["classic 5, full deal"]
    measures: dict[str, Callable[[], Any]] = {
        f"validate {name}": partial(validate_all, data) for name, data in corpus.items()}
    measures["floor"] = lambda: floor_pass(classic)
    measures["floor, no deal"] = lambda: floor_pass(corpus["classic 5, no deal"])
    measures["headers"] = lambda: headers_pass(classic)
    measures["headers, no deal"] = lambda: headers_pass(corpus["classic 5, no deal"])
    chess_games = chess_plies = 0
    peer = _peer() if "chess" not in skip else None
    if peer is not None:
        pgn, chess_games, chess_plies = corpora.chess_pgn(sizes["classic 5, full deal"][1])

        def parse() -> None:
            handle = io.StringIO(pgn)
            while peer.read_game(handle) is not None:
                pass

        def headers() -> None:
            handle = io.StringIO(pgn)
            while peer.read_headers(handle) is not None:
                pass

        measures["chess read_game"] = parse
        measures["chess read_headers"] = headers
    for data in corpus.values():  # warm up: imports, caches
        validate_all(data[:20000].rsplit(b"\n\n[", 1)[0])
    seconds = interleaved(measures, runs)

    table.section(f"Full validation (CPU time, median of {runs} interleaved runs)")
    for name, data in corpus.items():
        n_games, n_turns = sizes[name]
        took = seconds[f"validate {name}"]
        table.add(f"full validation, {name}", f"{n_turns / took:,.0f} turns/s",
                  f"{n_games / took:,.0f} games/s; {n_games:,} games, {n_turns:,} turns, "
                  f"{len(data) / 1e6:.1f} MB")
    for name in missing:
        table.add(f"full validation, {name}", "n/a", "its seeded random player is not available")

    table.section("The floor: one re.finditer pass over the same bytes")
    for label, key, corpus_name in (("full deal", "floor", "classic 5, full deal"),
                                    ("no deal", "floor, no deal", "classic 5, no deal")):
        n_turns = sizes[corpus_name][1]
        tokens = floor_pass(corpus[corpus_name])
        table.add(f"floor, classic 5, {label}", f"{n_turns / seconds[key]:,.0f} turns/s",
                  f"{tokens / seconds[key]:,.0f} tokens/s")
        ratio = seconds[f"validate {corpus_name}"] / seconds[key]
        table.add(f"ratio: validation time / floor time, {label}", f"{ratio:.1f}x", "target <= 4x")

    table.section("Headers only (read_headers)")
    heads = {}
    for label, key, corpus_name in (("full deal", "headers", "classic 5, full deal"),
                                    ("no deal", "headers, no deal", "classic 5, no deal")):
        heads[label] = sizes[corpus_name][0] / seconds[key]
        tags = sum(1 for line in corpus[corpus_name].splitlines() if line.startswith(b"[")) / sizes[
            corpus_name][0]
        table.add(f"headers-only scan, classic 5, {label}", f"{heads[label]:,.0f} games/s",
                  f"{tags:.0f} tags per game")

    if "chess" in skip:
        pass
    elif peer is None:
        table.section("The peer: python-chess")
        table.add("python-chess", "n/a", "install the bench extra: pip install '.[bench]'")
    else:
        table.section("The peer: python-chess on random legal games of as many plies")
        plies = chess_plies / seconds["chess read_game"]
        table.peer_plies = plies
        table.add("python-chess read_game (legality checked)", f"{plies:,.0f} plies/s",
                  f"{chess_games / seconds['chess read_game']:,.0f} games/s; {chess_games:,} games, "
                  f"{chess_plies:,} plies, {len(pgn) / 1e6:.1f} MB")
        for name in ("classic 5, full deal", "classic 5, no deal"):
            ours = sizes[name][1] / seconds[f"validate {name}"]
            table.add(f"ratio: LCN turns/s / python-chess plies/s, {name.split(', ')[1]}",
                      f"{ours / plies:.1f}x", "target >= 5x")
        peer_heads = chess_games / seconds["chess read_headers"]
        table.add("python-chess read_headers", f"{peer_heads:,.0f} games/s", "7 tags per game")
        for label, rate in heads.items():
            table.add(f"ratio: LCN headers / python-chess headers, {label}", f"{rate / peer_heads:.2f}x",
                      "target >= 1x")
    return corpus


def bench_scaling(table: Table, corpus: dict[str, bytes], runs: int) -> None:
    """Time per turn at three sizes, with and without the deal (the hidden-information check).

    The sizes are a quarter of a corpus, the corpus, and the corpus four times over.
    """
    table.section("Cost against the size of the input (classic 5)")
    inputs: dict[tuple[str, int], bytes] = {}
    for label, name in (("full deal", "classic 5, full deal"),
                        ("no deal, hidden information checked", "classic 5, no deal")):
        data = corpus[name]
        games = data.split(b"\n\n[")
        quarter = b"\n\n[".join(games[: max(1, len(games) // 4)])
        inputs[(label, 1)] = quarter
        inputs[(label, 4)] = data
        inputs[(label, 16)] = b"\n\n".join([data] * 4)
    sizes = {key: count(data) for key, data in inputs.items()}
    seconds = interleaved({key: partial(validate_all, data) for key, data in inputs.items()}, runs)
    for key, took in seconds.items():
        n_games, n_turns = sizes[key]
        table.add(f"{n_games:,} games, {key[0]}", f"{took / n_turns * 1e6:.2f} us/turn",
                  f"{n_turns:,} turns in {took:.3f} s")


def _cli_run(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (this command and its workers) of an lcn command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "lcn_cli.main", *args], capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _python_start() -> float:
    """Wall seconds of the interpreter that runs the commands, starting and doing nothing:
    the part of every command's start-up that is not LCN's (its site-packages' ``.pth``
    files run at every start)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], capture_output=True, check=False)
    return time.perf_counter() - start


def _site_note() -> str:
    """Which site-packages the interpreter reads at start: a virtual environment that sees
    the system's reads the system's ``.pth`` files too."""
    if sys.prefix == sys.base_prefix:
        return "no virtual environment"
    config = Path(sys.prefix) / "pyvenv.cfg"
    try:
        shared = "include-system-site-packages = true" in config.read_text()
    except OSError:
        shared = False
    return ("a virtual environment that sees the system's site-packages" if shared
            else "a virtual environment of its own")


def bench_jobs(table: Table, games: int, runs: int, jobs: int) -> None:
    """``lcn validate --jobs N`` against one job on the same file, interleaved.

    With ``-q`` (problems and the summary only), the default text (a line per game) and
    ``--format json``; and the command on an empty file, the start-up that one job and
    ``--jobs`` both pay in one process, which bounds the speed-up a file of this size can
    show (the bound is given beside it).
    """
    table.section(f"lcn validate --jobs {jobs}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "jobs.lcn"
        # Big enough that the command's start-up, paid once by one job and by several
        # alike, does not hide the speed-up (its own row below gives it).
        written = corpora.write_big(path, max(games, 100) * 50_000, seed=3)
        empty = Path(tmp) / "empty.lcn"
        empty.write_bytes(b"")
        #: Options, the command's name in the table, and what the speed-up row adds.
        forms = {"-q": (["-q"], "lcn validate -q", ""),
                 "text": ([], "lcn validate (a line per game)", ", a line per game"),
                 "json": (["--format", "json"], "lcn validate --format json", ", --format json")}
        walls: dict[tuple[str, int], list[float]] = {(form, n): [] for form in forms for n in (1, jobs)}
        cpus: dict[tuple[str, int], list[float]] = {key: [] for key in walls}
        starts: list[float] = []
        for _ in range(runs):
            starts.append(_cli_run(["validate", "-q", str(empty)])[0])
            for form, (options, _, _) in forms.items():
                for n in (1, jobs):
                    wall, cpu = _cli_run(["validate", *options, "--jobs", str(n), str(path)])
                    walls[form, n].append(wall)
                    cpus[form, n].append(cpu)
        load = os.getloadavg()[0]
        start = statistics.median(starts)
        for form, (_, command, which) in forms.items():
            one, several = statistics.median(walls[form, 1]), statistics.median(walls[form, jobs])
            table.add(f"{command}, 1 job, {written / 1e6:.0f} MB", f"{one:.2f} s",
                      f"{statistics.median(cpus[form, 1]):.2f} CPU s")
            table.add(f"{command} --jobs {jobs}", f"{several:.2f} s",
                      f"{statistics.median(cpus[form, jobs]):.2f} CPU s (all processes)")
            table.add(f"speed-up of --jobs {jobs} over 1 job{which}", f"{one / several:.2f}x",
                      f"{os.cpu_count()} cores, load average {load:.1f}; target >= 1.8x on 2 cores")
            if form == "-q":
                bound = one / (start + (one - start) / jobs)
                table.add("lcn validate -q on an empty file (start-up)", f"{start:.2f} s",
                          f"in both; with it, --jobs {jobs} can be at most {bound:.2f}x on this file; "
                          f"without it, {(one - start) / (several - start):.2f}x")


def bench_many_files(table: Table, runs: int, jobs: int, files: int) -> None:
    """``lcn validate --jobs N`` against one job over a directory of many small files.

    Each file holds 3 games without the deal, as an engine's self-play might leave them;
    one pool serves the whole command, and small files go to it in groups
    (``lcn.parallel.FileRuns``). Wall time, interleaved rounds, medians. The command's
    start-up on an empty file, which one job and ``--jobs`` pay alike in one process, bounds
    the speed-up: a corpus that validates in under a second leaves room for little more
    than 1.8x with it; the bound and the speed-up without it are given beside it.
    """
    table.section(f"lcn validate --jobs {jobs} over {files:,} small files")
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.lcn"
        empty.write_bytes(b"")
        starts: list[float] = []
        folder = Path(tmp) / "many"
        folder.mkdir()
        games = corpora.classic(3 * files, deal=False, seed=31).split("\n\n[")
        games = games[:1] + ["[" + game for game in games[1:]]
        for index in range(files):
            (folder / f"game{index:05}.lcn").write_text(
                "\n\n".join(game.rstrip("\n") for game in games[3 * index:3 * index + 3]) + "\n")
        walls: dict[int, list[float]] = {1: [], jobs: []}
        cpus: dict[int, list[float]] = {1: [], jobs: []}
        bare: list[float] = []
        for _ in range(runs):
            starts.append(_cli_run(["validate", "-q", str(empty)])[0])
            bare.append(_python_start())
            for n in (1, jobs):
                wall, cpu = _cli_run(["validate", "-q", "--jobs", str(n), str(folder)])
                walls[n].append(wall)
                cpus[n].append(cpu)
    load = os.getloadavg()[0]
    one, several = statistics.median(walls[1]), statistics.median(walls[jobs])
    start = statistics.median(starts)
    table.add(f"lcn validate -q DIR, 1 job, {files:,} files of 3 games", f"{one:.2f} s",
              f"{statistics.median(cpus[1]):.2f} CPU s")
    table.add(f"lcn validate -q DIR --jobs {jobs}", f"{several:.2f} s",
              f"{statistics.median(cpus[jobs]):.2f} CPU s (all processes)")
    table.add(f"speed-up of --jobs {jobs} over 1 job, many files", f"{one / several:.2f}x",
              f"{os.cpu_count()} cores, load average {load:.1f}; target >= 1.8x on 2 quiet cores, "
              "never below 1x")
    bound = one / (start + (one - start) / jobs)
    table.add("lcn validate -q on an empty file (start-up), many files", f"{start:.2f} s",
              f"in both; with it, --jobs {jobs} can be at most {bound:.2f}x on these files; "
              f"without it, {(one - start) / max(several - start, 1e-9):.2f}x")
    table.add("python -c pass (the interpreter's own start, in the start-up above)",
              f"{statistics.median(bare):.3f} s",
              f"{_site_note()}; LCN's modules and Click take the rest")


def compile_modules() -> None:
    """Compile the project's modules before any command is timed, as an installed package
    has them: with ``PYTHONDONTWRITEBYTECODE`` set (as on some build machines) every child
    process (``lcn validate``, the site's workers, Dask's) would compile them again, a
    start-up that users do not pay."""
    import compileall
    import importlib.util

    for package in ("lcn", "lcn_cli", "replay_server"):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin is not None:
            compileall.compile_dir(Path(spec.origin).parent, quiet=1)


def bench_stream(table: Table, size_mb: int) -> None:
    """Peak memory of ``lcn validate`` on a generated file of ``size_mb`` megabytes, one
    file of each game (classic: 500 distinct games repeated; Rivals and Roll & Write: 250)."""
    table.section("Streaming")
    free = shutil.disk_usage(tempfile.gettempdir()).free
    if free < size_mb * 1_000_000 * 1.5:
        table.add("streaming validation", "n/a", f"not enough space in {tempfile.gettempdir()}")
        return
    blocks: dict[str, bytes | None] = {"classic": corpora.big_block(),
                                       "rivals": corpora.variant_block("rivals"),
                                       "rollwrite": corpora.variant_block("rollwrite")}
    for name, block in blocks.items():
        if block is None:
            table.add(f"peak RSS of lcn validate -q, {name}", "n/a", "its seeded player is not installed")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "big.lcn"
            written = corpora.write_big(path, size_mb * 1_000_000, block=block)
            probe = ("import resource, subprocess, sys\n"
                     "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
                     "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "lcn_cli.main",
                                  "validate", "-q", str(path)],
                                 capture_output=True, text=True, check=True).stdout.split()
            seconds = time.perf_counter() - start
            code, rss_kb = int(out[0]), int(out[1])
            games = written // len(block) * count(block)[0]
            table.add(f"peak RSS of lcn validate -q, {name}, {written / 1e6:,.0f} MB file",
                      f"{rss_kb / 1024:,.0f} MB",
                      f"target < 50 MB; {games:,} games, {written / 1e6 / seconds:,.1f} MB/s, "
                      f"{seconds:,.0f} s, exit status {code}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bench", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="classic games per corpus")
    parser.add_argument("--runs", type=int, default=7, help="timings per measure (median)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the --jobs measure")
    parser.add_argument("--many-files", type=int, default=2000,
                        help="small files (3 games each) for the many-files measure")
    parser.add_argument("--stream-mb", type=int, default=1000, help="size of the streaming file")
    parser.add_argument("--skip", action="append", default=[],
                        choices=["validation", "chess", "fresh", "scaling", "parts", "jobs", "many",
                                 "dask", "site", "stream"],
                        help="leave a part out (repeat for several)")
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown here")
    args = parser.parse_args(argv)
    table = Table()
    about = machine()
    print(about, flush=True)
    corpus = {}
    compile_modules()
    if "validation" not in args.skip:
        corpus = bench_validation(table, args.games, args.runs, args.skip)
    if "fresh" not in args.skip:
        from .fresh import bench_fresh

        bench_fresh(table, args.games, args.runs, timed, floor_pass, validate_all, count,
                    table.peer_plies)
    if "scaling" not in args.skip and corpus:
        bench_scaling(table, corpus, args.runs)
    if "parts" not in args.skip and corpus:
        from .parts import bench_parts

        bench_parts(table, corpus, args.runs, interleaved, floor_pass)
    if "jobs" not in args.skip:
        bench_jobs(table, args.games, args.runs, args.jobs)
    if "many" not in args.skip:
        bench_many_files(table, args.runs, args.jobs, args.many_files)
    if "dask" not in args.skip:
        from .cluster import bench_dask

        bench_dask(table, args.games, args.runs, _cli_run)
    if "site" not in args.skip:
        from .site import bench_site

        table.section("The site under load (gunicorn on 127.0.0.1, wrk)")
        try:
            bench_site(table)
        except (OSError, RuntimeError, subprocess.SubprocessError, ValueError, KeyError) as exc:
            table.add("site under load", "n/a", f"the measure failed: {exc}")
    if "stream" not in args.skip:
        bench_stream(table, args.stream_mb)
    if args.markdown:
        command = "python3 -m bench " + " ".join(argv if argv is not None else sys.argv[1:])
        args.markdown.write_text(f"`{command.strip()}`\n\n{about}\n\n{table.markdown()}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

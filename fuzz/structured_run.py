"""A long structured fuzzing run in one interpreter: a million inputs in about an hour.

    nice -n 10 python3 -m fuzz.structured_run --inputs 1000000 --processes 2 --work /tmp/lcn-sfuzz

The coverage-guided harness (``fuzz/run.py``) spends most of its time in atheris's tracing
and in the heavy ``reader``/``long`` targets (each input read three times, written, read
again, highlighted): a few inputs a second on a loaded machine, far from a million. This run
trades coverage guidance for volume. A seeded generator (``random.Random``, not Hypothesis,
whose per-example bookkeeping costs more than the checks) builds each input from

- ``damaged``: a window of a valid record of every variant, or of a log of every importer's
  format (written by the exporters, or kept in ``tests/data/imports``), damaged by one to
  six of the mutations of ``fuzz.strategies.apply_mutations``;
- ``long``: a long run of one character, a token of a format repeated, or a cycle through
  every character class (``fuzz.long_inputs``), inside such a window or alone;
- ``soup``: tokens that mean something to a parser (``fuzz.strategies.TOKENS`` and the
  formats' own tokens) strung together;
- ``bytes``: random bytes.

Sizes are spread over their logarithm: most inputs hold tens to a few thousand bytes, a long
line (a quarter of the inputs) reaches 65,536 characters one time in a hundred, and 1 MiB one time in 20,000.

Each input goes through format detection (every importer's ``detect``, each confidence in
0..1), one importer's conversion (the importers take turns, so each converts a sixth of the
inputs; a clear ``ImportError_`` is allowed), and the reader with the validator
(``lcn.ValidationRun``, for one input in four with every position and the running scores
kept, as the replay pages ask; every report turned into JSON and
every diagnostic formatted; a game that reads cleanly is written, read again and sent through
the JSON form, as the ``reader`` target does). An uncaught exception, a broken property
(``fuzz.targets.FuzzFailure``) or an input running over the watchdog's limit is a crash: the
input and its traceback are written to ``crashes/`` and the run goes on.

Every ten seconds, and at the end, the counts go to ``summary.json`` in the work folder:
inputs by kind and by size, bytes, crashes, the slowest input, peak memory.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import random
import resource
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from . import long_inputs, targets
from .strategies import TOKENS, apply_mutations, classic_text, exported, rivals_text, rollwrite_text

#: Size buckets of the summary, by the input's length in bytes.
BUCKETS = ((256, "<=256 B"), (4096, "<=4 KiB"), (65536, "<=64 KiB"), (math.inf, ">64 KiB"))

KINDS = ("damaged", "long", "soup", "bytes")


def base_texts() -> list[str]:
    """Valid starting points: records of every variant, every export format, kept logs."""
    from lcn.importers import output_formats

    texts: list[str] = []
    for seed in range(24):
        texts.append(classic_text(seed, 6 if seed % 4 == 3 else 5, seed % 2 == 0,
                                  (-1, 0, 1, 2)[seed % 4] if seed % 4 != 3 else -1))
        texts.append(rivals_text(seed, 2 + seed % 3, seed % 2 == 0, seed % 3 == 0))
        texts.append(rollwrite_text(seed, 2 + seed % 4, seed % 2 == 0, seed % 3 == 0))
        for fmt, _title in output_formats():
            texts.append(exported(seed, fmt))
    root = Path(__file__).resolve().parent.parent
    for pattern in ("samples/**/*.lcn", "tests/data/imports/*"):
        for path in sorted(root.glob(pattern)):
            if path.is_file() and path.suffix != ".md":
                texts.append(path.read_text("utf-8", "replace"))
    return texts


def _log_size(rng: random.Random, low: int, high: int) -> int:
    """A size spread evenly over its logarithm between ``low`` and ``high``."""
    return int(math.exp(rng.uniform(math.log(low), math.log(high))))


def _window(rng: random.Random, text: str) -> str:
    """Most of the time a run of consecutive lines of ``text`` (moderate size), else all of it."""
    if rng.random() < 0.05:
        return text
    lines = text.split("\n")
    count = min(len(lines), _log_size(rng, 1, 40))
    start = rng.randrange(len(lines) - count + 1)
    return "\n".join(lines[start:start + count])


def _mutations(rng: random.Random) -> list[tuple[Any, ...]]:
    steps: list[tuple[Any, ...]] = []
    for _ in range(rng.randint(1, 6)):
        kind = rng.choice(("insert", "insert", "insert-bytes", "delete", "flip", "copy",
                           "drop-line", "swap-lines", "truncate", "repeat"))
        at = rng.random()
        if kind == "insert":
            steps.append((kind, at, rng.choice(TOKENS)))
        elif kind == "insert-bytes":
            steps.append((kind, at, rng.randbytes(rng.randint(1, 8))))
        elif kind == "delete":
            steps.append((kind, at, rng.randint(1, 40)))
        elif kind == "flip":
            steps.append((kind, at, rng.randrange(256)))
        elif kind == "copy":
            steps.append((kind, at, rng.random(), rng.randint(1, 60)))
        elif kind == "swap-lines":
            steps.append((kind, at, rng.random()))
        elif kind == "repeat":
            steps.append((kind, at, rng.randint(1, 40), rng.randint(2, 50)))
        else:
            steps.append((kind, at))
    return steps


def long_size(rng: random.Random) -> int:
    """A long line's length: mostly up to 4,096; 1 in 100 up to 65,536; 1 in 20,000 1 MiB."""
    draw = rng.random()
    if draw < 1 / 20_000:
        return 1 << 20
    if draw < 1 / 100:
        return _log_size(rng, 4096, 65536)
    return _log_size(rng, 1, 4096)


def generate(rng: random.Random, bases: list[str]) -> tuple[str, bytes]:
    """One input and its kind."""
    kind = rng.choices(KINDS, weights=(60, 25, 10, 5))[0]
    if kind == "damaged":
        return kind, apply_mutations(_window(rng, rng.choice(bases)).encode("utf-8"), _mutations(rng))
    if kind == "long":
        fmt = rng.choice(list(long_inputs.TOKENS))
        size = long_size(rng)
        shape = rng.randrange(3)
        if shape == 0:
            char = rng.choice(long_inputs.RUNS + tuple(long_inputs.CHARACTER_CLASSES))
            line = "a" + char * size + "x"
        elif shape == 1:
            line = long_inputs.repeated(rng.choice(long_inputs.TOKENS[fmt]), size)
        else:
            line = long_inputs.repeated(long_inputs.CHARACTER_CLASSES[rng.randrange(40):], size)
        if rng.random() < 0.3:
            return kind, line.encode("utf-8")
        lines = _window(rng, rng.choice(bases)).split("\n")
        lines.insert(rng.randrange(len(lines) + 1), line)
        return kind, "\n".join(lines).encode("utf-8")
    if kind == "soup":
        pool = TOKENS + [token.encode("utf-8") for tokens in long_inputs.TOKENS.values()
                         for token in tokens]
        return kind, b"".join(rng.choice(pool) for _ in range(_log_size(rng, 1, 200)))
    return kind, rng.randbytes(_log_size(rng, 1, 2048))


def check(data: bytes, fmt: str, snapshots: bool = True) -> None:
    """Detection, one importer's conversion, and the reader with the validator on ``data``.

    ``snapshots``: the validator also keeps every position and the running scores (what the
    replay pages use), which costs about as much again as validating.
    """
    import lcn
    from lcn.importers import ImportError_, detect, import_text

    text = targets.text_of(data)
    for name, confidence in detect(text):
        if not (0.0 <= confidence <= 1.0) or math.isnan(confidence):
            raise targets.FuzzFailure(f"{name} detection gave {confidence}")
    try:
        result = import_text(data, fmt)
    except ImportError_ as exc:
        str(exc)
        for d in exc.diagnostics:
            d.format()
    else:
        json.dumps(result.to_json())
        if len(result.reports) != len(result.records):
            raise targets.FuzzFailure(f"{len(result.records)} games but {len(result.reports)} reports")
    run = lcn.ValidationRun(data, keep_snapshots=snapshots, keep_running=snapshots)
    for report in run:
        targets._check_report(report)
        record = report.record
        if targets._clean(record) and report.variant is not None:
            targets._check_write_round_trip(record)
            targets._check_json_round_trip(record)
    for d in run.file_diagnostics:
        d.format()


def _bucket(size: int) -> str:
    return next(label for limit, label in BUCKETS if size <= limit)


def run(seed: int, inputs: int, work: Path, minutes: float, hang_seconds: float) -> dict[str, Any]:
    """Run ``inputs`` inputs (or until ``minutes`` are used) from ``seed``; the summary."""
    from lcn.importers import formats

    work.mkdir(parents=True, exist_ok=True)
    crashes = work / "crashes"
    crashes.mkdir(exist_ok=True)
    rng = random.Random(seed)
    bases = base_texts()
    names = [name for name, _title in formats()]
    summary: dict[str, Any] = {
        "seed": seed, "inputs": 0, "bytes": 0, "by_kind": dict.fromkeys(KINDS, 0),
        "by_size": {label: 0 for _limit, label in BUCKETS}, "by_importer": dict.fromkeys(names, 0),
        "largest_input": 0, "crashes": 0, "hangs": 0, "crash_files": [], "slowest_input_s": 0.0,
        "slowest_input_cpu_s": 0.0,
        "slowest_input_bytes": 0, "seconds": 0.0, "peak_rss_mb": 0, "finished": False,
    }
    started = time.monotonic()
    deadline = started + minutes * 60
    last_write = started
    summary_file = work / "summary.json"
    while summary["inputs"] < inputs and time.monotonic() < deadline:
        kind, data = generate(rng, bases)
        fmt = names[summary["inputs"] % len(names)]
        before, before_cpu = time.monotonic(), time.process_time()
        try:
            with targets.watchdog(hang_seconds):
                check(data, fmt, snapshots=summary["inputs"] % 4 == 0)
        except Exception as exc:  # every failure is kept, and the run goes on
            summary["hangs" if isinstance(exc, targets.Hang) else "crashes"] += 1
            digest = hashlib.sha1(data).hexdigest()[:12]
            (crashes / f"{kind}-{digest}").write_bytes(data)
            (crashes / f"{kind}-{digest}.txt").write_text(
                f"importer {fmt}\n" + "".join(traceback.format_exception(exc)))
            summary["crash_files"].append(f"{kind}-{digest}")
        took = time.monotonic() - before
        if took > summary["slowest_input_s"]:
            summary["slowest_input_s"], summary["slowest_input_bytes"] = round(took, 3), len(data)
        # The watchdog counts CPU time; the slowest input by that measure is kept beside it.
        summary["slowest_input_cpu_s"] = max(summary["slowest_input_cpu_s"],
                                             round(time.process_time() - before_cpu, 3))
        summary["inputs"] += 1
        summary["bytes"] += len(data)
        summary["by_kind"][kind] += 1
        summary["by_size"][_bucket(len(data))] += 1
        summary["by_importer"][fmt] += 1
        summary["largest_input"] = max(summary["largest_input"], len(data))
        now = time.monotonic()
        if now - last_write > 10:
            _write(summary, summary_file, now - started)
            last_write = now
    summary["finished"] = summary["inputs"] >= inputs
    _write(summary, summary_file, time.monotonic() - started)
    return summary


def _write(summary: dict[str, Any], path: Path, seconds: float) -> None:
    summary["seconds"] = round(seconds, 1)
    summary["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    path.write_text(json.dumps(summary, indent=2) + "\n")


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The summaries of parallel processes added up (the longest time, the largest memory)."""
    total: dict[str, Any] = {"processes": len(parts), "seeds": [part["seed"] for part in parts]}
    for key in ("inputs", "bytes", "crashes", "hangs"):
        total[key] = sum(part[key] for part in parts)
    for key in ("by_kind", "by_size", "by_importer"):
        total[key] = {name: sum(part[key][name] for part in parts) for name in parts[0][key]}
    for key in ("largest_input", "slowest_input_s", "slowest_input_cpu_s", "seconds",
                "peak_rss_mb"):
        total[key] = max(part[key] for part in parts)
    total["crash_files"] = [name for part in parts for name in part["crash_files"]]
    total["finished"] = all(part["finished"] for part in parts)
    return total


def _worker(seed: int, inputs: int, work: Path, minutes: float, hang_seconds: float) -> None:
    run(seed, inputs, work, minutes, hang_seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=1_000_000, help="inputs in all")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1, help="process k uses seed + k")
    parser.add_argument("--minutes", type=float, default=math.inf, help="stop after this time")
    parser.add_argument("--hang", type=float, default=60, help="seconds before an input is a hang")
    parser.add_argument("--work", type=Path, default=Path("/tmp/lcn-sfuzz"))
    options = parser.parse_args(argv)
    work = options.work.resolve()
    shares = [options.inputs // options.processes + (k < options.inputs % options.processes)
              for k in range(options.processes)]
    workers = [multiprocessing.Process(target=_worker, args=(
        options.seed + k, share, work / f"p{k}", options.minutes, options.hang))
        for k, share in enumerate(shares)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    parts = [json.loads((work / f"p{k}" / "summary.json").read_text()) for k in range(len(workers))]
    total = merge(parts)
    total["exit_codes"] = [worker.exitcode for worker in workers]
    (work / "summary.json").write_text(json.dumps(total, indent=2) + "\n")
    print(json.dumps(total, indent=2))
    return 1 if total["crashes"] or total["hangs"] or any(total["exit_codes"]) else 0


if __name__ == "__main__":
    sys.exit(main())

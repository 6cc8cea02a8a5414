"""A long fuzzing session: libFuzzer runs restarted after each crash until the time is used.

    python3 -m fuzz.long_run --minutes 60 --target all --work /tmp/lcn-fuzz

libFuzzer stops at the first crash (its fork mode cannot restart a Python target), so this
runs ``python3 -m fuzz.run`` again and again on the same growing corpus, keeps every crash
file, and adds up libFuzzer's final statistics. The summary (inputs run, corpus size,
coverage, crashes, peak memory) is printed and written to ``summary.json`` in the work
folder: those are the figures docs/reliability.md reports.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

_STAT = re.compile(r"^stat::(\w+):\s+(\d+)", re.MULTILINE)
_COVERAGE = re.compile(r"cov: (\d+) ft: (\d+) corp: (\d+)")


def run_session(target: str, work: Path, minutes: float, timeout: int, rss_mb: int) -> dict:
    corpus, crashes, logs = work / "corpus", work / "crashes", work / "logs"
    for folder in (crashes, logs):
        folder.mkdir(parents=True, exist_ok=True)
    root = Path(__file__).resolve().parent.parent
    if not corpus.exists() or not any(corpus.iterdir()):
        subprocess.run([sys.executable, "-m", "fuzz.run", "seed", str(corpus)], cwd=root, check=True)
    deadline = time.monotonic() + minutes * 60
    totals = {"runs": 0, "executions": 0, "crashes": 0, "timeouts": 0, "out_of_memory": 0,
              "slow_inputs": 0, "peak_rss_mb": 0, "coverage": 0, "features": 0}
    started = time.time()
    while (left := int(deadline - time.monotonic())) > 5:
        totals["runs"] += 1
        log = logs / f"run-{totals['runs']:03d}.log"
        command = [sys.executable, "-m", "fuzz.run", target, str(corpus), f"-max_total_time={left}",
                   f"-timeout={timeout}", f"-rss_limit_mb={rss_mb}", "-print_final_stats=1",
                   f"-artifact_prefix={crashes}/"]
        with log.open("w") as out:
            status = subprocess.run(command, cwd=root, stdout=out, stderr=subprocess.STDOUT).returncode
        text = log.read_text(errors="replace")
        stats = {name: int(value) for name, value in _STAT.findall(text)}
        totals["executions"] += stats.get("number_of_executed_units", 0)
        totals["slow_inputs"] += text.count("Slowest unit:")
        totals["peak_rss_mb"] = max(totals["peak_rss_mb"], stats.get("peak_rss_mb", 0))
        coverage = _COVERAGE.findall(text)
        if coverage:
            totals["coverage"] = max(totals["coverage"], int(coverage[-1][0]))
            totals["features"] = max(totals["features"], int(coverage[-1][1]))
        if "libFuzzer: run interrupted" in text:
            break  # stopped by hand (Ctrl-C): the figures so far still count
        if "ERROR: libFuzzer: timeout" in text:
            totals["timeouts"] += 1
        elif "out-of-memory" in text:
            totals["out_of_memory"] += 1
        elif status != 0:
            totals["crashes"] += 1
    totals["target"] = target
    totals["seconds"] = round(time.time() - started)
    totals["corpus_files"] = sum(1 for _ in corpus.iterdir())
    totals["crash_files"] = sorted(path.name for path in crashes.iterdir())
    totals["slowest_input_seconds"] = max(
        (int(value) for log in logs.iterdir()
         for name, value in _STAT.findall(log.read_text(errors="replace"))
         if name == "slowest_unit_time_sec"), default=0)
    (work / "summary.json").write_text(json.dumps(totals, indent=2) + "\n")
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--target", default="all")
    parser.add_argument("--work", type=Path, default=Path("fuzz/work"))
    parser.add_argument("--timeout", type=int, default=30, help="seconds before an input is a hang")
    parser.add_argument("--rss-mb", type=int, default=2048, help="memory limit of a run")
    options = parser.parse_args()
    totals = run_session(options.target, options.work.resolve(), options.minutes, options.timeout,
                         options.rss_mb)
    print(json.dumps(totals, indent=2))
    return 1 if totals["crashes"] or totals["timeouts"] or totals["out_of_memory"] else 0


if __name__ == "__main__":
    sys.exit(main())

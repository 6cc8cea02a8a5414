"""The site under load: gunicorn on loopback, wrk as the bounded load generator.

Measures requests/s and latency percentiles for a replay page (kept in the page cache, and
rendered for each request by a server without it), ``POST /api/v1/validate`` and a static
file of the replay page's size served by the same server, so the ratio says what rendering a
replay costs over plain serving on this machine.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

DURATION = "5s"
WARM_UP = "2s"
ROUNDS = 3
CONNECTIONS = "8"
THREADS = "2"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait(url: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"server did not answer at {url}")


def _wrk(url: str, script: Path | None = None, duration: str = DURATION) -> dict[str, float]:
    command = ["wrk", "-t", THREADS, "-c", CONNECTIONS, "-d", duration, "--latency"]
    if script is not None:
        command += ["-s", str(script)]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True,
                         timeout=60).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]

    def percentile(name: str) -> float:
        match = re.search(rf"\s{name}%\s+([\d.]+)(us|ms|s)", out)
        if match is None:
            return float("nan")
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p50": percentile("50"), "p99": percentile("99"),
            "errors": float(non2xx.group(1)) if non2xx else 0.0}


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    """The run of median throughput (its latencies belong to it), errors summed."""
    ordered = sorted(runs, key=lambda figures: figures["rps"])
    middle = dict(ordered[len(ordered) // 2])
    middle["errors"] = sum(figures["errors"] for figures in runs)
    return middle


def bench_site(table: Any) -> None:
    if shutil.which("wrk") is None:
        table.add("site under load", "n/a", "install Debian's wrk (apt-get install wrk)")
        return
    try:
        import replay_server
    except ModuleNotFoundError:
        table.add("site under load", "n/a", "replay_server not installed")
        return
    if importlib.util.find_spec("gunicorn") is None:
        table.add("site under load", "n/a", "install the server extra: pip install '.[server]'")
        return
    sample = Path(__file__).resolve().parent.parent / "samples" / "classic"
    candidates = [sample / "full-deal.lcn", *sorted(sample.glob("*.lcn"))]
    game_file = next((path for path in candidates if path.exists()), None)
    if game_file is None:
        table.add("site under load", "n/a", "no classic sample")
        return
    game_text = game_file.read_text()
    static_dir = Path(replay_server.__file__).resolve().parent / "static"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, LCN_DATA_DIR=tmp, LCN_RATELIMIT_ENABLED="0",
                   LCN_RATELIMIT="1000000/minute")
        # The servers log every request as in production (that cost is part of what is
        # measured), to a file: on the bench's output they would bury the table.
        log = (Path(tmp) / "servers.log").open("wb")
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{port}", "--log-level",
             "warning", "replay_server:create_app()"], env=env, stdout=log, stderr=subprocess.STDOUT)
        # The same server without its page cache: every request renders the replay page (the
        # data caches under it stay), what a page asked for the first time costs.
        render_port = _free_port()
        render_server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{render_port}",
             "--log-level", "warning", "replay_server:create_app()"],
            env=dict(env, LCN_PAGE_CACHE_BYTES="0"), stdout=log, stderr=subprocess.STDOUT)
        static_file = static_dir / f"_bench_{os.getpid()}.html"
        try:
            try:
                _wait(base + "/")
                _wait(f"http://127.0.0.1:{render_port}/")
            except RuntimeError as error:
                log.flush()
                tail = (Path(tmp) / "servers.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"{error}; the servers' log ends with:\n{tail}") from error
            request = urllib.request.Request(
                base + "/api/v1/games", data=json.dumps({"lcn": game_text}).encode(),
                headers={"Content-Type": "application/json"}, method="POST")
            answer = json.loads(urllib.request.urlopen(request, timeout=10).read())
            game = answer["games"][0] if "games" in answer else answer
            page_url = base + game["url"] + "?turn=20"
            page = urllib.request.urlopen(page_url, timeout=10).read()
            static_file.write_bytes(b"x" * len(page))
            script = Path(tmp) / "post.lua"
            body = json.dumps({"lcn": game_text})
            script.write_text('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                              f"wrk.body = {json.dumps(body)}\n")
            urllib.request.urlopen(urllib.request.Request(
                f"http://127.0.0.1:{render_port}/api/v1/games", data=json.dumps({"lcn": game_text}).encode(),
                headers={"Content-Type": "application/json"}, method="POST"), timeout=10).read()
            targets = {
                "replay page": (page_url, None),
                "replay page rendered each time (no page cache)": (
                    page_url.replace(f":{port}/", f":{render_port}/"), None),
                "POST /api/v1/validate": (base + "/api/v1/validate", script),
                f"static file of the same size ({len(page):,} B)": (
                    base + "/static/" + static_file.name, None),
            }
            for url, lua in targets.values():  # warm up: first requests, caches
                _wrk(url, lua, WARM_UP)
            rounds: dict[str, list[dict[str, float]]] = {name: [] for name in targets}
            for _ in range(ROUNDS):  # interleaved, as the other measures
                for name, (url, lua) in targets.items():
                    rounds[name].append(_wrk(url, lua))
            results = {name: _median(runs) for name, runs in rounds.items()}
        finally:
            # The servers first: requests wrk left queued are still answered after it stops,
            # and the static one must still find its file.
            for process in (server, render_server):
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
            log.close()
            static_file.unlink(missing_ok=True)
    static_rps = list(results.values())[-1]["rps"]
    for name, figures in results.items():
        table.add(f"site: {name}", f"{figures['rps']:,.0f} req/s",
                  f"p50 {figures['p50']:.1f} ms, p99 {figures['p99']:.1f} ms, "
                  f"{figures['rps'] / static_rps:.0%} of static"
                  + (f", {figures['errors']:.0f} non-2xx" if figures["errors"] else ""))

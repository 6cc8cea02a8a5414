#!/usr/bin/env python3
"""A load test of the documented deployment: nginx in front of gunicorn, SQLite or PostgreSQL.

    scripts/loadtest.py --database both --report loadtest.json      # about five minutes
    scripts/loadtest.py --database sqlite --duration 10 --slow 50   # a short one

Everything listens on 127.0.0.1 and is started by the script, as docs/deployment.md says:
``lcn db upgrade``, then ``gunicorn -w 4 --timeout 60 'replay_server:create_app()'`` with
``LCN_TRUSTED_PROXIES=1``, behind nginx with the configuration of docs/deployment.md (read
from the page itself, between its ``# nginx: the site`` markers, with the ports changed).
PostgreSQL is a throwaway server of Debian's package (``scripts/loadfault.py``'s).

The load comes from wrk (Debian's package) through nginx, a mixed load chosen at random
for each request by a Lua script (``MIX``): replay pages of the stored games at any turn
(one in ten with a made-up argument, as trackers and cache-busters add), their JSON from the
API, validations, and uploads of the same games again (answered 200: stored once). While it
runs, ``--slow`` slow clients hold connections to nginx: half send the start of an upload
and then nothing, half ask for a replay page and never read the answer. wrk counts every
answer by status; the run fails if any answer is a 5xx, a connection error or a timeout.

The write and read rate limits are raised for the run (``LCN_RATELIMIT``,
``LCN_READ_RATELIMIT``): all of wrk's requests come from one address, which the deployment
would rightly throttle.

A last phase measures what a replay page costs to render, under the bench's load
(``bench/site.py``: gunicorn with 2 workers, wrk with 2 threads and 8 connections, straight
to gunicorn): the same page with the page cache on, and with it off
(``LCN_PAGE_CACHE_BYTES=0``: every request renders the page; the data caches under it stay).

The report (JSON, printed and written to ``--report``) gives the commands, the mix, the load
average of the machine, and for each database: requests, requests/s, p50/p90/p99 latencies,
answers by status, socket errors, the CPU time gunicorn spent per request (from /proc: on a
machine shared with other work, latencies measure the machine as much as the site) and what
the slow clients had at the end (all still waiting or with their page, none 5xx).
"""

from __future__ import annotations

import argparse
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

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"


def _loadfault() -> Any:
    spec = importlib.util.spec_from_file_location("loadfault", ROOT / "scripts" / "loadfault.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["loadfault"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


loadfault = _loadfault()

#: Shares of the mixed load, in percent (the Lua script draws one for each request).
MIX = {"replay page": 55, "API game JSON": 25, "POST /api/v1/validate": 10, "POST /api/v1/games": 10}
#: Of the replay pages, the share with a made-up argument (``&utm_source=...``), in percent.
JUNK_ARGUMENTS = 10

NGINX_CONF = """\
{user}
worker_processes 1;
daemon off;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {work}/nginx-body;
    proxy_temp_path {work}/nginx-proxy;
    fastcgi_temp_path {work}/nginx-fastcgi;
    uwsgi_temp_path {work}/nginx-uwsgi;
    scgi_temp_path {work}/nginx-scgi;
{site}
}}
"""

MIXED_LUA = """\
-- A mixed load of the replay site (scripts/loadtest.py writes the tables).
local ids = {ids}
local turns = {turns}
local bodies = {bodies}
local replay, api, validate = {replay}, {api}, {validate}
local junk = {junk}
local json = {{["Content-Type"] = "application/json"}}
local threads = {{}}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("seed", counter)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(seed * 7919)
  counts = {{}}
end

function request()
  local pick = math.random(100)
  local game = math.random(#ids)
  if pick <= replay then
    local path = "/g/" .. ids[game] .. "?turn=" .. math.random(0, turns[game])
    if math.random(100) <= junk then
      path = path .. "&utm_source=" .. math.random(1000000000)
    end
    return wrk.format("GET", path)
  elseif pick <= replay + api then
    return wrk.format("GET", "/api/v1/games/" .. ids[game])
  elseif pick <= replay + api + validate then
    return wrk.format("POST", "/api/v1/validate", json, bodies[game])
  end
  return wrk.format("POST", "/api/v1/games", json, bodies[game])
end

function response(status, headers, body)
  local key = tostring(status)
  counts[key] = (counts[key] or 0) + 1
end

function done(summary, latency, requests)
  local total = {{}}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("counts")) do
      total[status] = (total[status] or 0) + count
    end
  end
  local out = {{}}
  for status, count in pairs(total) do
    table.insert(out, '"' .. status .. '": ' .. count)
  end
  io.write("STATUS {{" .. table.concat(out, ", ") .. "}}\\n")
  io.write(string.format("LATENCY %d %d %d %d\\n", latency:percentile(50), latency:percentile(90),
                         latency:percentile(99), latency.max))
  io.write(string.format("ERRORS %d %d %d %d %d\\n", summary.errors.connect, summary.errors.read,
                         summary.errors.write, summary.errors.status, summary.errors.timeout))
end
"""


def _lua_list(values: list[Any]) -> str:
    return "{" + ", ".join(json.dumps(value) for value in values) + "}"


def _nginx_site(listen: int, servers: list[int]) -> str:
    """The site's part of nginx's configuration: docs/deployment.md's text, with our ports."""
    text = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    site = text[text.index("# nginx: the site (begin)"):text.index("# nginx: the site (end)")]
    upstreams = "\n".join(f"    server {HOST}:{port} max_fails=1 fail_timeout=2s;" for port in servers)
    site = site.replace("    server 127.0.0.1:8001 max_fails=1 fail_timeout=2s;\n"
                        "    server 127.0.0.1:8002 max_fails=1 fail_timeout=2s;", upstreams)
    assert upstreams in site, "docs/deployment.md's upstream block changed: update loadtest.py"
    return site.replace("listen 80;", f"listen {HOST}:{listen};")


def _get(url: str, timeout: float = 10) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return bytes(answer.read())


def _wait(url: str, what: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            _get(url, timeout=2)
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"loadtest: {what} did not answer at {url}")


class Process:
    """A server process in a process group of its own, stopped with its children."""

    def __init__(self, command: list[str], env: dict[str, str], log: Path) -> None:
        self.command = command
        with log.open("wb") as out:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) of a process and its children alive now, from /proc: what
    the requests cost the server, whatever else the machine runs."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or int(fields[1]) == pid:  # fields[1]: the parent's id
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def gunicorn(env: dict[str, str], port: int, workers: int, log: Path) -> Process:
    """The documented command: ``gunicorn -w N -b 127.0.0.1:PORT --timeout 60 APP``."""
    server = Process([sys.executable, "-m", "gunicorn", "-w", str(workers), "-b", f"{HOST}:{port}",
                      "--timeout", "60", "replay_server:create_app()"], env, log)
    _wait(f"http://{HOST}:{port}/healthz", "gunicorn")
    return server


def wrk(url: str, seconds: int, threads: int, connections: int, script: Path | None) -> dict[str, Any]:
    """One wrk run; its figures (latencies in ms)."""
    command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency",
               "--timeout", "30s"]
    if script is not None:
        command += ["-s", str(script)]
    command.append(url)
    out = subprocess.run(command, capture_output=True, text=True, check=True,
                         timeout=seconds + 180).stdout
    figures: dict[str, Any] = {"command": " ".join(command)}
    figures["requests"] = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    figures["rps"] = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    latency = re.search(r"^LATENCY (\d+) (\d+) (\d+) (\d+)$", out, re.M)
    if latency is not None:  # from the Lua script, in microseconds
        p50, p90, p99, most = (int(value) / 1000 for value in latency.groups())
    else:
        def percentile(name: str) -> float:
            found = re.search(rf"\s{name}%\s+([\d.]+)(us|ms|s)\b", out)
            assert found is not None, out
            value, unit = float(found.group(1)), found.group(2)
            return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

        p50, p90, p99 = percentile("50"), percentile("90"), percentile("99")
        found = re.search(r"Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)", out)
        most = float("nan") if found is None else float(found.group(1)) * {
            "us": 0.001, "ms": 1.0, "s": 1000.0}[found.group(2)]
    figures.update(p50_ms=round(p50, 2), p90_ms=round(p90, 2), p99_ms=round(p99, 2),
                   max_ms=round(most, 2))
    status = re.search(r"^STATUS (\{.*\})$", out, re.M)
    if status is not None:
        figures["status"] = dict(sorted(json.loads(status.group(1)).items()))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    figures["non_2xx_3xx"] = int(non2xx.group(1)) if non2xx else 0
    errors = re.search(r"^ERRORS (\d+) (\d+) (\d+) (\d+) (\d+)$", out, re.M)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if errors is not None:
        connect, read, write, _status, timeout = (int(value) for value in errors.groups())
        figures["socket_errors"] = {"connect": connect, "read": read, "write": write, "timeout": timeout}
    elif sockets is not None:
        figures["socket_errors"] = dict(zip(("connect", "read", "write", "timeout"),
                                            (int(value) for value in sockets.groups()), strict=True))
    else:
        figures["socket_errors"] = {"connect": 0, "read": 0, "write": 0, "timeout": 0}
    return figures


def hold_slow_clients(port: int, count: int, page: str) -> list[socket.socket]:
    """``count`` slow clients: half send the start of an upload and then nothing more, half
    ask for a replay page and never read the answer (a receive buffer of 1 KB)."""
    held = []
    for index in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        sock.settimeout(30)
        sock.connect((HOST, port))
        if index % 2 == 0:
            sock.sendall(b"POST /api/v1/validate HTTP/1.1\r\nHost: lcn\r\nContent-Type: text/plain\r\n"
                         b"Content-Length: 100000\r\n\r\n[Player1 \"Slow " + str(index).encode() + b"\"]\n")
        else:
            sock.sendall(f"GET {page} HTTP/1.1\r\nHost: lcn\r\n\r\n".encode())
        held.append(sock)
    return held


def slow_clients_state(sockets: list[socket.socket]) -> dict[str, int]:
    """What the slow clients have after the load: still waiting (nothing came yet), an answer
    waiting to be read (by its status class), or a connection closed by nginx (its
    ``client_body_timeout``, 30 s, for an upload that stopped)."""
    state: dict[str, int] = {}
    for sock in sockets:
        sock.setblocking(False)
        try:
            data = sock.recv(64, socket.MSG_PEEK)
        except BlockingIOError:
            kind = "waiting"
        except OSError:
            kind = "closed"
        else:
            found = re.match(rb"HTTP/1\.[01] (\d)", data)
            kind = f"answered {found.group(1).decode()}xx" if found else "closed" if not data else "other"
        state[kind] = state.get(kind, 0) + 1
    return dict(sorted(state.items()))


def seed_games(base: str, count: int) -> tuple[list[str], list[int], list[str]]:
    """Store ``count`` games of every variant; their ids, turn counts and upload bodies."""
    ids, turns, bodies = [], [], []
    for text in loadfault.make_games(count, 5000):
        body = json.dumps({"lcn": text})
        request = urllib.request.Request(base + "/api/v1/games", data=body.encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            stored = json.loads(answer.read())
        ids.append(stored["id"])
        document = json.loads(_get(f"{base}/api/v1/games/{stored['id']}"))
        turns.append(max(len(game.get("turns", [])) for game in document["games"]))
        bodies.append(body)
    return ids, turns, bodies


def run_deployment(database: str, work: Path, options: argparse.Namespace) -> dict[str, Any]:
    """The documented deployment on ``database``, under the mixed load and the slow clients."""
    env = dict(os.environ, LCN_DATA_DIR=str(work / "data"), LCN_TRUSTED_PROXIES="1",
               LCN_RATELIMIT="10000000 per minute", LCN_READ_RATELIMIT="10000000 per minute",
               LCN_REQUEST_LOG="0")
    (work / "data").mkdir()
    postgres = None
    servers: list[Process] = []
    try:
        if database == "postgresql":
            postgres = loadfault.Postgres(work)
            postgres.start()
            env["LCN_DATABASE_URL"] = postgres.url
        upgrade = subprocess.run([sys.executable, "-c", "from lcn_cli.main import main; main()", "db",
                                  "upgrade"], env=env, cwd=ROOT, capture_output=True, text=True,
                                 timeout=120)
        if upgrade.returncode != 0:
            raise SystemExit(f"loadtest: lcn db upgrade failed: {upgrade.stdout}{upgrade.stderr}")
        port, listen = loadfault.free_port(), loadfault.free_port()
        servers.append(gunicorn(env, port, options.workers, work / "gunicorn.log"))
        user = "user root;" if os.geteuid() == 0 else ""
        (work / "nginx.conf").write_text(NGINX_CONF.format(
            user=user, work=work, site=_nginx_site(listen, [port])))
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        servers.append(Process([nginx, "-p", str(work), "-c", str(work / "nginx.conf")], env,
                               work / "nginx.log"))
        base = f"http://{HOST}:{listen}"
        _wait(base + "/healthz", "nginx")
        ids, turns, bodies = seed_games(base, options.games)
        script = work / "mixed.lua"
        script.write_text(MIXED_LUA.format(
            ids=_lua_list(ids), turns=_lua_list(turns), bodies=_lua_list(bodies),
            replay=MIX["replay page"], api=MIX["API game JSON"], validate=MIX["POST /api/v1/validate"],
            junk=JUNK_ARGUMENTS))
        wrk(base, options.warm_up, 2, options.connections, script)  # first renders, caches
        slow = hold_slow_clients(listen, options.slow, f"/g/{ids[0]}?turn=1")
        try:
            before = cpu_seconds(servers[0].process.pid)
            figures = wrk(base, options.duration, 2, options.connections, script)
            spent = cpu_seconds(servers[0].process.pid) - before
            held = slow_clients_state(slow)
        finally:
            for sock in slow:
                sock.close()
        figures.update(database=database, games=len(ids), slow_clients=options.slow,
                       slow_clients_at_the_end=held, server_cpu_seconds=round(spent, 2),
                       server_cpu_ms_per_request=round(spent * 1000 / max(1, figures["requests"]), 2))
        figures["server_errors"] = sum(count for status, count in figures.get("status", {}).items()
                                       if status.startswith("5"))
        return figures
    finally:
        for server in reversed(servers):
            server.stop()
        if postgres is not None:
            postgres.stop()


def run_render(work: Path, options: argparse.Namespace) -> dict[str, Any]:
    """A replay page under the bench's load, with the page cache on and off."""
    sample = (ROOT / "samples" / "classic" / "full-deal.lcn").read_text(encoding="utf-8")
    results: dict[str, Any] = {}
    for name, cache in (("cached page", None), ("uncached render", "0")):
        folder = work / name.replace(" ", "-")
        folder.mkdir()
        env = dict(os.environ, LCN_DATA_DIR=str(folder), LCN_RATELIMIT_ENABLED="0",
                   LCN_REQUEST_LOG="0")
        if cache is not None:
            env["LCN_PAGE_CACHE_BYTES"] = cache
        port = loadfault.free_port()
        server = gunicorn(env, port, 2, folder / "gunicorn.log")
        try:
            base = f"http://{HOST}:{port}"
            request = urllib.request.Request(base + "/api/v1/games", method="POST",
                                             data=json.dumps({"lcn": sample}).encode(),
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as answer:
                url = base + json.loads(answer.read())["url"] + "?turn=20"
            wrk(url, options.warm_up, 2, 8, None)
            before = cpu_seconds(server.process.pid)
            results[name] = wrk(url, options.render_duration, 2, 8, None)
            spent = cpu_seconds(server.process.pid) - before
            results[name]["server_cpu_ms_per_request"] = round(
                spent * 1000 / max(1, results[name]["requests"]), 2)
        finally:
            server.stop()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--duration", type=int, default=20,
                        help="seconds of measured load (under nginx's 30 s client_body_timeout, "
                             "so that the slow uploads are still held at the end)")
    parser.add_argument("--warm-up", type=int, default=5, help="seconds of load before measuring")
    parser.add_argument("--render-duration", type=int, default=10,
                        help="seconds of each measure of the render phase")
    parser.add_argument("--connections", type=int, default=32, help="wrk's open connections")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn's workers (the docs: 4)")
    parser.add_argument("--games", type=int, default=30, help="games stored before the load")
    parser.add_argument("--slow", type=int, default=300, help="slow clients held during the load")
    parser.add_argument("--no-render", action="store_true", help="leave out the render phase")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs) in /tmp")
    parser.add_argument("--report", type=Path)
    options = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        raise SystemExit("loadtest: wrk is not installed (apt-get install wrk)")
    databases = ["sqlite", "postgresql"] if options.database == "both" else [options.database]
    report: dict[str, Any] = {"command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
                              "mix_percent": MIX, "replay_pages_with_junk_arguments_percent":
                              JUNK_ARGUMENTS, "started": time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                                                         time.gmtime()),
                              "load_average_at_start": os.getloadavg()[0], "deployments": []}
    # As root, PostgreSQL runs as ``postgres``, which must reach its folder: under /tmp.
    work = Path(tempfile.mkdtemp(prefix="lcn-loadtest-", dir="/tmp"))
    work.chmod(0o711)
    try:
        for database in databases:
            folder = work / database
            folder.mkdir()
            folder.chmod(0o711)
            report["deployments"].append(run_deployment(database, folder, options))
        if not options.no_render:
            folder = work / "render"
            folder.mkdir()
            report["render"] = run_render(folder, options)
    finally:
        if options.keep:
            print(f"loadtest: the work folder is kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    report["load_average_at_end"] = os.getloadavg()[0]
    text = json.dumps(report, indent=2)
    print(text)
    if options.report is not None:
        options.report.write_text(text + "\n")
    failed = any(d["server_errors"] or any(d["socket_errors"].values())
                 or "answered 5xx" in d["slow_clients_at_the_end"] for d in report["deployments"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

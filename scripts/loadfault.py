#!/usr/bin/env python3
"""Load and faults against the real replay site: gunicorn on loopback, SQLite or PostgreSQL.

    scripts/loadfault.py --database both            # the full run (a few minutes)
    scripts/loadfault.py --database sqlite --games 24 --clients 6 --kills 1   # a short one

Every loop is bounded and every server listens on 127.0.0.1 only. Three phases, each ending
with every game acknowledged so far fetched back and compared byte for byte:

1. Load: clients upload distinct games at once, and all of them upload the same few games
   at the same moment. Each game is created once (one 201, the rest 200 with the same ID) and
   the database holds exactly one row per game.
2. Kill: in the middle of a burst of uploads the whole server (master and workers) is killed
   with SIGKILL, then started again. Every upload acknowledged before the kill is intact;
   the unacknowledged ones are sent again and stored once.
3. Database outage: PostgreSQL is stopped under the running site and started again. Meanwhile
   uploads and replays answer 503 with the store-unavailable message (never 500); afterwards
   the site recovers without a restart. SQLite has no server to stop: another process holds
   its write lock for a few seconds instead, and the uploads wait and then succeed.

The report (JSON, on standard output and in ``--report``) gives the requests sent, the
answers by status, the faults injected, the games acknowledged and the games lost; the exit
status is 0 only when nothing was lost, altered, duplicated or answered with a 500.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zlib
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import lcn  # noqa: E402
from lcn.variants import classic_play, rivals_play, rollwrite_play  # noqa: E402
from replay_server.storage import game_id  # noqa: E402

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def wait_until(check: Callable[[], bool], tries: int, pause: float, what: str) -> None:
    """Poll ``check`` at most ``tries`` times; fail naming ``what`` when it never holds."""
    for _ in range(tries):
        if check():
            return
        time.sleep(pause)
    raise SystemExit(f"loadfault: gave up waiting for {what}")


# -- games -----------------------------------------------------------------------------------

def make_games(count: int, offset: int) -> list[str]:
    """Distinct valid games of every variant, as LCN text; the same for the same arguments."""
    games = []
    for index in range(offset, offset + count):
        kind = index % 3
        if kind == 0:
            record = classic_play.random_game(index, reveal_draws=index % 2 == 0)
        elif kind == 1:
            record = rivals_play.random_game(index, players=2 + index % 3)
        else:
            record = rollwrite_play.random_game(index, players=2 + index % 4)
        games.append(lcn.write_game(record))
    return games


def canonical(text: str) -> str:
    """What the site stores for an LCN file: the canonical text of its games."""
    return lcn.write_games(list(lcn.read_games(text))) or ""


# -- HTTP --------------------------------------------------------------------------------------

@dataclass
class Answer:
    status: int  # 0: no answer (connection refused or reset)
    body: bytes = b""

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            return None


@dataclass
class Ledger:
    """Everything sent and acknowledged, shared by the client threads."""

    statuses: Counter[int] = field(default_factory=Counter)
    requests: int = 0
    acknowledged: dict[str, str] = field(default_factory=dict)  # id -> canonical text
    created: Counter[str] = field(default_factory=Counter)  # id -> number of 201 answers
    problems: list[str] = field(default_factory=list)
    faults: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, answer: Answer) -> None:
        with self.lock:
            self.requests += 1
            self.statuses[answer.status] += 1
            if answer.status >= 500 and answer.status != 503:
                self.problems.append(f"HTTP {answer.status}: {answer.body[:200]!r}")

    def problem(self, message: str) -> None:
        with self.lock:
            self.problems.append(message)


def request(base: str, method: str, path: str, body: bytes | None = None,
            content_type: str = "application/json", timeout: float = 60) -> Answer:
    req = urllib.request.Request(base + path, data=body, method=method,
                                 headers={"Content-Type": content_type} if body is not None else {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return Answer(response.status, response.read())
    except urllib.error.HTTPError as exc:
        try:
            return Answer(exc.code, exc.read())
        except (http.client.HTTPException, OSError):
            return Answer(0)
    except (urllib.error.URLError, http.client.HTTPException, OSError):
        # Refused, reset, or cut off in the middle of the answer (a killed server): an
        # upload is acknowledged only by a whole answer.
        return Answer(0)


def upload(base: str, ledger: Ledger, text: str) -> Answer:
    """POST a game; an acknowledged one (201/200 with its ID) goes in the ledger."""
    answer = request(base, "POST", "/api/v1/games", json.dumps({"lcn": text}).encode())
    ledger.count(answer)
    if answer.status in (200, 201):
        body = answer.json() or {}
        expected = canonical(text)
        gid = body.get("id")
        if gid != game_id(expected):
            ledger.problem(f"acknowledged with id {gid!r}, expected {game_id(expected)}")
            return answer
        with ledger.lock:
            ledger.acknowledged[gid] = expected
            if answer.status == 201:
                ledger.created[gid] += 1
    elif answer.status == 503:
        body = answer.json() or {}
        if (body.get("error") or {}).get("code") != "store-unavailable":
            ledger.problem(f"503 without the store-unavailable error: {answer.body[:200]!r}")
    elif answer.status != 0:
        ledger.problem(f"upload answered {answer.status}: {answer.body[:200]!r}")
    return answer


def verify_all(base: str, ledger: Ledger, clients: int) -> int:
    """Fetch every acknowledged game; each must come back byte for byte. Returns games lost."""
    items = sorted(ledger.acknowledged.items())

    def check(item: tuple[str, str]) -> bool:
        gid, expected = item
        answer = request(base, "GET", f"/g/{gid}.lcn")
        ledger.count(answer)
        return answer.status == 200 and answer.body == expected.encode("utf-8")

    with ThreadPoolExecutor(clients) as pool:
        results = list(pool.map(check, items))
    lost = [gid for (gid, _), ok in zip(items, results, strict=True) if not ok]
    for gid in lost:
        ledger.problem(f"game {gid} was acknowledged but is not served as sent")
    return len(lost)


# -- servers ------------------------------------------------------------------------------------

class Site:
    """gunicorn serving the site on loopback, in a process group of its own (so SIGKILL
    reaches the master and every worker at once)."""

    def __init__(self, work: Path, database_url: str, workers: int) -> None:
        self.work = work
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.env = dict(os.environ, LCN_DATA_DIR=str(work / "data"), LCN_DATABASE_URL=database_url,
                        LCN_RATELIMIT_ENABLED="0")
        self.workers = workers
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log = (self.work / f"gunicorn-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-b", f"{HOST}:{self.port}", "-w", str(self.workers),
             "-k", "gthread", "--threads", "4", "--timeout", "60", "--graceful-timeout", "5",
             "replay_server:create_app()"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        wait_until(lambda: request(self.base, "GET", "/api/v1/openapi.json", timeout=5).status == 200,
                   300, 0.1, f"gunicorn on port {self.port}")

    def kill(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        # Orphaned workers die with their group; make sure the port is free again.
        wait_until(lambda: request(self.base, "GET", "/", timeout=2).status == 0, 100, 0.1,
                   "the killed server to be gone")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)


class Postgres:
    """A throwaway PostgreSQL server of Debian's package, to stop and start at will."""

    USER = "lcn"

    def __init__(self, work: Path) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        if not found:
            raise SystemExit("loadfault: PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = found[-1].parent
        self.root = work / "postgres"
        self.data = self.root / "data"
        self.port = free_port()
        self.prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.root.mkdir(parents=True)
        (self.root / "sock").mkdir()
        if self.prefix:
            work.chmod(0o711)  # the server's user must reach its folder inside ours
            for path in (self.root, self.root / "sock"):
                shutil.chown(path, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", self.USER, "--auth=trust", "-E", "UTF8",
                  "--no-locale")
        self.url = f"postgresql://{self.USER}@{HOST}:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        result = subprocess.run([*self.prefix, str(self.bin / tool), *args], cwd=self.root,
                                capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            raise SystemExit(f"loadfault: {tool} failed: {result.stdout}{result.stderr}")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w", "-t", "60",
                  "-o", f"-p {self.port} -k {self.root / 'sock'} -c listen_addresses={HOST}", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def rows(self) -> list[tuple[str, str]]:
        import psycopg

        with psycopg.connect(self.url) as conn:
            return [(str(a), str(b)) for a, b in conn.execute("SELECT id, lcn FROM games")]


def sqlite_rows(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return [(str(a), str(b)) for a, b in conn.execute("SELECT id, lcn FROM games")]


# -- phases ---------------------------------------------------------------------------------

def burst(base: str, ledger: Ledger, texts: Iterable[str], clients: int) -> list[Answer]:
    with ThreadPoolExecutor(clients) as pool:
        return list(pool.map(lambda text: upload(base, ledger, text), texts))


def phase_load(site: Site, ledger: Ledger, games: int, clients: int) -> dict[str, Any]:
    distinct = make_games(games, 0)
    hot = make_games(3, 10_000)
    # Every client sends every hot game, interleaved with the distinct ones.
    texts = list(distinct) + [text for text in hot for _ in range(clients)]
    texts.sort(key=lambda text: zlib.crc32(text.encode()))
    answers = burst(site.base, ledger, texts, clients)
    for text in hot:
        gid = game_id(canonical(text))
        if ledger.created[gid] != 1:
            ledger.problem(f"the same game sent {clients} times at once was created "
                           f"{ledger.created[gid]} times")
    lost = verify_all(site.base, ledger, clients)
    return {"uploads": len(texts), "distinct_games": games + len(hot),
            "acknowledged": sum(1 for a in answers if a.status in (200, 201)), "lost": lost}


def kill_round(site: Site, ledger: Ledger, texts: list[str], clients: int) -> dict[str, Any]:
    """One burst of uploads with the server killed once a third of them are acknowledged."""
    acknowledged_before = len(ledger.acknowledged)
    answers: list[Answer] = []

    def killer() -> None:
        for _ in range(6000):  # at most 30 s
            if len(ledger.acknowledged) - acknowledged_before >= max(1, len(texts) // 3):
                break
            time.sleep(0.005)
        site.kill()
        ledger.faults["server SIGKILL"] += 1

    thread = threading.Thread(target=killer)
    thread.start()
    with ThreadPoolExecutor(clients) as pool:
        answers.extend(pool.map(lambda text: upload(site.base, ledger, text), texts))
    thread.join()
    unanswered = sum(1 for a in answers if a.status == 0)
    site.start()
    lost = verify_all(site.base, ledger, clients)
    # What was not acknowledged is sent again: stored once, like the rest.
    again = [t for t in texts if game_id(canonical(t)) not in ledger.acknowledged]
    burst(site.base, ledger, again, clients)
    lost += verify_all(site.base, ledger, clients)
    return {"uploads": len(texts), "unanswered_at_kill": unanswered, "resent": len(again), "lost": lost}


def phase_kill(site: Site, ledger: Ledger, games: int, clients: int, kills: int) -> dict[str, Any]:
    return {"rounds": [kill_round(site, ledger, make_games(games, 20_000 + n * 1000), clients)
                       for n in range(kills)]}


def phase_outage(site: Site, ledger: Ledger, database: str, postgres: Postgres | None,
                 sqlite_path: Path, clients: int) -> dict[str, Any]:
    texts = make_games(clients * 2, 30_000)
    if database == "postgresql":
        assert postgres is not None
        postgres.stop("fast")
        ledger.faults["database stopped"] += 1
        during = burst(site.base, ledger, texts, clients)
        statuses = Counter(a.status for a in during)
        if set(statuses) != {503}:
            ledger.problem(f"uploads while the database was down answered {dict(statuses)}, not 503")
        # Games already seen are still served from the workers' memory; any other read needs
        # the database and must say clearly that it is unavailable.
        reads: Counter[int] = Counter()
        for gid, expected in sorted(ledger.acknowledged.items()):
            answer = request(site.base, "GET", f"/g/{gid}.lcn")
            ledger.count(answer)
            reads[answer.status] += 1
            if answer.status == 200 and answer.body != expected.encode("utf-8"):
                ledger.problem(f"game {gid} served differently while the database was down")
            elif answer.status not in (200, 503):
                ledger.problem(f"game {gid} answered {answer.status} while the database was down")
        page = request(site.base, "GET", "/g/AAAAAAAAAAAAAAAA")
        api = request(site.base, "GET", "/api/v1/games/AAAAAAAAAAAAAAAA")
        for answer in (page, api):
            ledger.count(answer)
        if page.status != 503 or b"database" not in page.body:
            ledger.problem(f"an unknown game's page answered {page.status} while the database was "
                           f"down: {page.body[:200]!r}")
        if api.status != 503 or ((api.json() or {}).get("error") or {}).get("code") != "store-unavailable":
            ledger.problem(f"the API answered {api.status} while the database was down: {api.body[:200]!r}")
        postgres.start()
        # Full recovery without restarting the site: the first upload that works, then all.
        wait_until(lambda: upload(site.base, ledger, texts[0]).status in (200, 201), 120, 0.5,
                   "the site to recover after the database came back")
        burst(site.base, ledger, texts, clients)
        lost = verify_all(site.base, ledger, clients)
        return {"uploads_during_outage": len(during), "answers_during_outage": dict(statuses),
                "reads_during_outage": dict(reads), "unknown_game_during_outage": [page.status, api.status],
                "lost": lost}
    # SQLite: another process takes the write lock for a few seconds.
    holder = sqlite3.connect(sqlite_path, timeout=30, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    ledger.faults["database write lock held"] += 1
    release = threading.Timer(3.0, lambda: holder.execute("ROLLBACK"))
    release.start()
    try:
        during = burst(site.base, ledger, texts, clients)
    finally:
        release.join()
        holder.close()
    statuses = Counter(a.status for a in during)
    if statuses[0] or any(status >= 500 for status in statuses):
        ledger.problem(f"while the write lock was held: {dict(statuses)}")
    lost = verify_all(site.base, ledger, clients)
    return {"uploads_during_lock": len(during), "answers_during_lock": dict(statuses), "lost": lost}


def run(database: str, games: int, clients: int, kills: int, workers: int, keep: bool) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix=f"lcn-loadfault-{database}-"))
    ledger = Ledger()
    postgres = None
    sqlite_path = work / "data" / "lcn.sqlite3"
    try:
        if database == "postgresql":
            postgres = Postgres(work)
            postgres.start()
            url = postgres.url
        else:
            url = f"sqlite:///{sqlite_path}"
        site = Site(work, url, workers)
        site.start()
        try:
            report: dict[str, Any] = {"database": database}
            report["load"] = phase_load(site, ledger, games, clients)
            report["kill"] = phase_kill(site, ledger, games, clients, kills)
            report["outage"] = phase_outage(site, ledger, database, postgres, sqlite_path, clients)
        finally:
            site.stop()
        rows = postgres.rows() if postgres is not None else sqlite_rows(sqlite_path)
        ids = [gid for gid, _ in rows]
        if len(ids) != len(set(ids)) or len({text for _, text in rows}) != len(rows):
            ledger.problem("the database holds the same game twice")
        for gid, text in rows:
            if game_id(text) != gid:
                ledger.problem(f"row {gid} holds a text whose ID is {game_id(text)}")
        missing = set(ledger.acknowledged) - set(ids)
        if missing:
            ledger.problem(f"{len(missing)} acknowledged games are not in the database")
        lost = len(missing) + sum(1 for gid, text in rows
                                  if gid in ledger.acknowledged and ledger.acknowledged[gid] != text)
        report.update({
            "requests": ledger.requests,
            "answers": {str(k): v for k, v in sorted(ledger.statuses.items())},
            "faults_injected": dict(ledger.faults),
            "games_acknowledged": len(ledger.acknowledged),
            "rows_in_database": len(rows),
            "games_lost": lost,
            "problems": ledger.problems[:20],
            "ok": not ledger.problems and lost == 0,
        })
        return report
    finally:
        if postgres is not None:
            with contextlib.suppress(SystemExit):
                postgres.stop("immediate")
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--games", type=int, default=60, help="distinct games per burst")
    parser.add_argument("--clients", type=int, default=12, help="concurrent clients")
    parser.add_argument("--kills", type=int, default=3, help="SIGKILL rounds")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--report", type=Path, help="also write the report here (JSON)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs, databases)")
    options = parser.parse_args(argv)
    databases = ["sqlite", "postgresql"] if options.database == "both" else [options.database]
    reports = [run(db, options.games, options.clients, options.kills, options.workers, options.keep)
               for db in databases]
    text = json.dumps(reports, indent=2)
    print(text)
    if options.report is not None:
        options.report.write_text(text + "\n")
    return 0 if all(r["ok"] for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())

"""The documented deployment for several servers, for real: nginx in front of two gunicorn servers
over one PostgreSQL and one memcached, all started here on loopback (docs/deployment.md).

What it shows: uploads through the load balancer are all kept, whichever server took them; a
game stored through one server is served by the other; a server killed with SIGKILL in the
middle of a burst and restarted loses nothing that was acknowledged; with the database
stopped, /healthz answers 503 (and uploads 503, never 500) until it is back, then 200;
PostgreSQL never holds more connections from the site than the configured pools allow; and
300 slow clients held open against nginx do not keep normal requests from their answers
(nginx buffers requests and answers, so gunicorn's sync workers never wait on a client).
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import lcn

pytestmark = pytest.mark.cluster

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
WORKERS = 2  # sync gunicorn workers per server, as the README's command (with fewer workers)
POOL_SIZE, MAX_OVERFLOW = 2, 1
#: What PostgreSQL may see from the site: every worker of both servers with a full pool.
CONNECTION_BOUND = 2 * WORKERS * (POOL_SIZE + MAX_OVERFLOW)
APPLICATION = "lcn_cluster"


def _loadfault() -> Any:
    spec = importlib.util.spec_from_file_location("loadfault", ROOT / "scripts" / "loadfault.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["loadfault"] = module
    spec.loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _wait(check: Callable[[], bool], what: str, tries: int = 600) -> None:
    for _ in range(tries):
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"gave up waiting for {what}")


@dataclass
class Answer:
    status: int
    body: bytes = b""

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            return None


def _request(port: int, method: str, path: str, body: bytes | None = None,
             content_type: str = "text/plain") -> Answer:
    """One request; status 0 when the connection failed (refused, reset, no answer in 60 s)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": content_type} if body else {})
        response = conn.getresponse()
        return Answer(response.status, response.read())
    except (OSError, http.client.HTTPException):
        return Answer(0)
    finally:
        conn.close()


class Gunicorn:
    """One server: gunicorn with sync workers, in a process group of its own (SIGKILL reaches all)."""

    def __init__(self, work: Path, name: str, env: dict[str, str]) -> None:
        self.work, self.name, self.env = work, name, env
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log = (self.work / f"{self.name}-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-b", f"{HOST}:{self.port}", "-w", str(WORKERS),
             "--timeout", "60", "--graceful-timeout", "5", "replay_server:create_app()"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        _wait(lambda: _request(self.port, "GET", "/healthz").status == 200, f"server {self.name}")

    def kill(self) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)


NGINX_CONF = """\
{user}
worker_processes 1;
daemon off;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 2048; }}
http {{
    access_log {work}/nginx-access.log;
    client_body_temp_path {work}/nginx-body;
    proxy_temp_path {work}/nginx-proxy;
    fastcgi_temp_path {work}/nginx-fastcgi;
    uwsgi_temp_path {work}/nginx-uwsgi;
    scgi_temp_path {work}/nginx-scgi;
{site}
}}
"""


def _nginx_site(listen: int, servers: list[int]) -> str:
    """The site's part of the configuration: the same text as docs/deployment.md's, with ports."""
    text = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
    start = text.index("# nginx: the site (begin)")
    end = text.index("# nginx: the site (end)")
    site = text[start:end]
    upstreams = "\n".join(f"    server {HOST}:{port} max_fails=1 fail_timeout=2s;" for port in servers)
    site = site.replace("    server 127.0.0.1:8001 max_fails=1 fail_timeout=2s;\n"
                        "    server 127.0.0.1:8002 max_fails=1 fail_timeout=2s;", upstreams)
    return site.replace("listen 80;", f"listen {HOST}:{listen};")


@pytest.fixture
def memcached(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    process = subprocess.Popen([shutil.which("memcached") or "memcached", "-l", HOST, "-p", str(port),
                                "-U", "0", "-u", "nobody", "-m", "16"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait(lambda: _connects(port), "memcached")
    yield f"memcached://{HOST}:{port}"
    process.kill()
    process.wait(timeout=10)


def _connects(port: int) -> bool:
    try:
        socket.create_connection((HOST, port), timeout=1).close()
        return True
    except OSError:
        return False


@dataclass
class Ledger:
    """What clients were told: every acknowledged upload's id and the text the site must hold."""

    acknowledged: dict[str, str] = field(default_factory=dict)
    statuses: dict[int, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def upload(self, port: int, text: str, tries: int = 50) -> str | None:
        """Send until acknowledged (a 502 or a dropped connection means: not acknowledged)."""
        for _ in range(tries):
            answer = _request(port, "POST", "/api/v1/games", text.encode())
            with self.lock:
                self.statuses[answer.status] = self.statuses.get(answer.status, 0) + 1
            if answer.status in (200, 201):
                gid = str(answer.json()["id"])
                with self.lock:
                    self.acknowledged[gid] = str(lcn.write_games(lcn.read_games(text)))
                return gid
            time.sleep(0.05)
        return None


def _games(count: int, offset: int) -> list[str]:
    return [f'[Player1 "Ada {offset + i}"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d *\n' for i in range(count)]


class ConnectionWatch:
    """Counts the site's connections in pg_stat_activity, again and again, from its own session."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self.samples: list[int] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        import psycopg

        while not self.stop.is_set():
            try:
                with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5) as conn:
                    while not self.stop.is_set():
                        row = conn.execute("SELECT COUNT(*) FROM pg_stat_activity "
                                           "WHERE application_name = %s", (APPLICATION,)).fetchone()
                        self.samples.append(int(row[0]) if row else 0)
                        time.sleep(0.02)
            except psycopg.Error:
                time.sleep(0.2)  # the database is stopped on purpose for a while

    def __enter__(self) -> ConnectionWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


def _metrics(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    from prometheus_client.parser import text_string_to_metric_families

    answer = _request(port, "GET", "/metrics")
    assert answer.status == 200
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.body.decode())
            for sample in family.samples}


def labels_status(labels: tuple[tuple[str, str], ...]) -> str:
    return dict(labels).get("status", "")


def _hold_slow_clients(port: int, count: int) -> list[socket.socket]:
    """``count`` clients that send the start of an upload and then nothing more."""
    held = []
    for index in range(count):
        sock = socket.create_connection((HOST, port), timeout=30)
        sock.sendall(b"POST /api/v1/validate HTTP/1.1\r\nHost: lcn\r\nContent-Type: text/plain\r\n"
                     b"Content-Length: 100000\r\n\r\n[Player1 \"Slow " + str(index).encode() + b"\"]\n")
        held.append(sock)
    return held


def test_two_servers_behind_nginx_over_one_postgresql(tmp_path: Path, memcached: str) -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(nginx).exists(), "nginx is not installed (apt-get install nginx-light)"
    # As root, PostgreSQL runs as ``postgres``, which must reach its folder: under /tmp, not
    # under pytest's private temporary directory.
    work = Path(tempfile.mkdtemp(prefix="lcn-cluster-", dir="/tmp"))
    work.chmod(0o711)
    postgres = _loadfault().Postgres(work)
    postgres.start()
    servers: list[Gunicorn] = []
    proxy: subprocess.Popen[bytes] | None = None
    try:
        url = f"{postgres.url}?application_name={APPLICATION}"
        deploy = subprocess.run([sys.executable, "-c", "from lcn_cli.main import main; main()", "db",
                                 "upgrade", "--database-url", url],
                                capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert deploy.returncode == 0, deploy.stdout + deploy.stderr
        env = dict(os.environ, LCN_DATABASE_URL=url, LCN_DB_POOL_SIZE=str(POOL_SIZE),
                   LCN_DB_MAX_OVERFLOW=str(MAX_OVERFLOW), LCN_DB_UPGRADE="0",
                   LCN_RATELIMIT_STORAGE_URI=memcached, LCN_RATELIMIT="100000 per minute",
                   LCN_TRUSTED_PROXIES="1", LCN_REQUEST_LOG="0", LCN_METRICS="1")
        for name in ("a", "b"):
            (work / f"metrics-{name}").mkdir()
            server = Gunicorn(work, name, dict(env, LCN_DATA_DIR=str(work / name),
                                               PROMETHEUS_MULTIPROC_DIR=str(work / f"metrics-{name}")))
            server.start()
            servers.append(server)
        listen = _free_port()
        user = "user root;" if os.geteuid() == 0 else ""
        (work / "nginx.conf").write_text(NGINX_CONF.format(
            user=user, work=work, site=_nginx_site(listen, [s.port for s in servers])))
        proxy = subprocess.Popen([nginx, "-p", str(work), "-c", str(work / "nginx.conf")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _wait(lambda: _request(listen, "GET", "/healthz").status == 200, "nginx")
        a, b = servers
        ledger = Ledger()

        with ConnectionWatch(postgres.url) as watch:
            # A game stored through one server is served by the other.
            gid = ledger.upload(a.port, _games(1, 100000)[0])
            assert gid is not None
            served = _request(b.port, "GET", f"/g/{gid}.lcn")
            assert served.status == 200 and served.body.decode() == ledger.acknowledged[gid]

            # Hundreds of uploads through nginx; server a is killed in the middle and restarted.
            texts = _games(240, 0)
            killed = threading.Event()

            def kill_midway() -> None:
                _wait(lambda: len(ledger.acknowledged) >= 60, "the burst to be under way", tries=3000)
                a.kill()
                killed.set()
                a.start()

            killer = threading.Thread(target=kill_midway)
            killer.start()
            with ThreadPoolExecutor(8) as pool:
                ids = list(pool.map(lambda text: ledger.upload(listen, text), texts))
            killer.join()
            assert killed.is_set() and a.starts == 2
            assert None not in ids

            # The database goes away: 503 from health checks and uploads, never a 500.
            postgres.stop()
            for port in (listen, a.port, b.port):
                _wait(lambda port=port: _request(port, "GET", "/healthz").status == 503,
                      f"/healthz to say 503 on port {port}")
            down = _request(listen, "GET", "/healthz")
            assert down.status == 503 and down.json()["database"] == "unavailable"
            during = _request(listen, "POST", "/api/v1/games", _games(1, 200000)[0].encode())
            assert during.status == 503, during.body[:300]
            assert during.json()["error"]["code"] == "store-unavailable"
            postgres.start()
            for port in (listen, a.port, b.port):
                _wait(lambda port=port: _request(port, "GET", "/healthz").status == 200,
                      f"/healthz to say 200 again on port {port}")
            assert _request(listen, "GET", "/healthz").json() == {"status": "ok", "database": "ok"}
            with ThreadPoolExecutor(8) as pool:
                assert None not in pool.map(lambda text: ledger.upload(listen, text), _games(120, 1000))

        # Every acknowledged game is there, exactly as acknowledged, through either server.
        rows = dict(postgres.rows())
        assert len(ledger.acknowledged) == 1 + 240 + 120
        # Metrics add up every worker of a server (prometheus_client's multiprocess mode).
        answered = 0
        for server in servers:
            metrics = _metrics(server.port)
            assert metrics[("lcn_games_stored", ())] == len(rows)
            answered += sum(value for (name, labels), value in metrics.items()
                            if name == "lcn_http_requests_total" and ("route", "/api/v1/games") in labels
                            and ("method", "POST") in labels and labels_status(labels) in ("200", "201"))
        assert answered >= len(ledger.acknowledged)
        for gid, text in ledger.acknowledged.items():
            assert rows.get(gid) == text, gid
        for gid in list(ledger.acknowledged)[::40]:
            assert _request(listen, "GET", f"/g/{gid}.lcn").body.decode() == ledger.acknowledged[gid]
        assert 500 not in ledger.statuses, ledger.statuses
        # Uploads in flight on the killed server were answered 502 by nginx, and sent again.
        assert ledger.statuses.get(502, 0) + ledger.statuses.get(0, 0) > 0, ledger.statuses
        assert watch.samples and max(watch.samples) >= 2
        assert max(watch.samples) <= CONNECTION_BOUND, (max(watch.samples), CONNECTION_BOUND)

        # 300 slow clients held open against nginx: normal requests still get their answers.
        held = _hold_slow_clients(listen, 300)
        try:
            answers = [_request(listen, "GET", "/healthz").status for _ in range(5)]
            stored = ledger.upload(listen, _games(1, 300000)[0], tries=1)
            validated = _request(listen, "POST", "/api/v1/validate", _games(1, 300001)[0].encode())
            replay = _request(listen, "GET", f"/g/{stored}")
            assert answers == [200] * 5
            assert stored is not None and validated.status == 200 and replay.status == 200
            # The slow clients are still waiting for their answer, held by nginx, not by a worker.
            for sock in held[::30]:
                sock.setblocking(False)
                with pytest.raises(BlockingIOError):
                    sock.recv(1)
        finally:
            for sock in held:
                sock.close()
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(timeout=30)
        for server in servers:
            server.stop()
        postgres.stop("immediate")
        shutil.rmtree(work, ignore_errors=True)

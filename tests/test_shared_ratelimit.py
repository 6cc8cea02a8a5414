"""Several servers share one rate-limit budget through a shared store (a real memcached).

The site keeps no state of its own outside its stores: with ``LCN_RATELIMIT_STORAGE_URI``
pointing at one memcached, two servers behind a load balancer count a client's writes
together, and a store that goes away never turns a write into a 500.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from site_support import make_app

GAME = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d *\n'


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture()
def memcached() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    binary = shutil.which("memcached")
    if binary is None:
        pytest.fail("memcached is not installed: scripts/test installs Debian's memcached package")
    port = _free_port()
    process = subprocess.Popen([binary, "-l", "127.0.0.1", "-p", str(port), "-U", "0",
                                "-u", "nobody", "-m", "16"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"memcached did not start: {process.stderr.read().decode()[:500]}")
            time.sleep(0.05)
    yield f"memcached://127.0.0.1:{port}", process
    process.kill()
    process.wait(timeout=10)


def _servers(tmp_path: Path, storage: str) -> list[Any]:
    """Two servers on one database, as behind a load balancer, with a budget of 3 writes."""
    database = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    return [make_app(tmp_path / name, {"DATABASE_URL": database, "RATELIMIT": "3 per minute",
                                       "RATELIMIT_ENABLED": True,
                                       "RATELIMIT_STORAGE_URI": storage}).test_client()
            for name in ("a", "b")]


def _statuses(clients: list[Any], count: int) -> list[int]:
    return [clients[i % 2].post("/api/v1/validate", data=GAME, content_type="text/plain").status_code
            for i in range(count)]


def test_two_servers_count_one_client_s_writes_together(tmp_path: Path, memcached: Any) -> None:
    uri, _process = memcached
    assert _statuses(_servers(tmp_path, uri), 5) == [200, 200, 200, 429, 429]


def test_without_a_shared_store_each_server_counts_alone(tmp_path: Path) -> None:
    """The control: the same requests against in-process counters pass the budget twice over."""
    assert _statuses(_servers(tmp_path, "memory://"), 6) == [200] * 6


def test_a_shared_store_that_goes_away_never_makes_a_write_fail(tmp_path: Path, memcached: Any) -> None:
    uri, process = memcached
    clients = _servers(tmp_path, uri)
    assert _statuses(clients, 1) == [200]
    process.kill()
    process.wait(timeout=10)
    statuses = _statuses(clients, 4)
    assert all(status in (200, 429) for status in statuses), statuses
    assert statuses[0] == 200

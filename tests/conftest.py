"""Shared fixtures: a real, throwaway PostgreSQL server for the storage and site tests.

The server is Debian's PostgreSQL (scripts/test installs it when missing), started once per
test session on a free loopback port with its data under a temporary directory, and stopped
at the end. PostgreSQL refuses to run as root, so as root it runs as the ``postgres`` system
user (created by Debian's package). Each test that asks for ``postgres_url`` gets a schema
of its own, so tests never see each other's games.

A missing PostgreSQL is a failure, not a skip: the suite is meant to test both databases.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

# The tests read the command's English: a German (or any) LANG on the machine running them must
# not change it. LANGUAGE comes first in gettext's order, and the commands run by the tests
# inherit it; tests of other languages set their own environment.
os.environ["LANGUAGE"] = "en"
# ``lcn analyse`` keeps its analyses under $XDG_CACHE_HOME: the tests must meet the engine as
# it is, never an answer stored by an earlier run (or an older engine) on the same machine.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="lcn-test-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], ignore_errors=True)

_PG_USER = "lcn"
_schema_numbers = itertools.count(1)


def _pg_bin() -> Path:
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit()
                        else 0)
    if not candidates:
        pytest.fail("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run scripts/test, "
                    "which installs it, or apt-get install postgresql", pytrace=False)
    return Path(candidates[-1]).parent


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_server_user() -> list[str]:
    """The command prefix that runs PostgreSQL's tools as a user it accepts."""
    if os.geteuid() != 0:
        return []
    try:
        import pwd

        pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                        "postgres"], check=True, capture_output=True)
    return ["runuser", "-u", "postgres", "--"]


def _run(command: list[str], what: str, cwd: Path) -> None:
    result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=120, cwd=cwd)
    if result.returncode != 0:
        pytest.fail(f"{what} failed ({result.returncode}): {' '.join(command)}\n"
                    f"{result.stdout}\n{result.stderr}", pytrace=False)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A running PostgreSQL for the session; yields the URL of its ``postgres`` database."""
    bindir = _pg_bin()
    prefix = _as_server_user()
    # As root the server runs as ``postgres``, which must reach its directory: /tmp, not a
    # TMPDIR that may sit in root's home. Short paths also keep the socket path legal.
    root = Path(tempfile.mkdtemp(prefix="lcn-pg-", dir="/tmp" if prefix else None))
    data, sockets, logfile = root / "data", root / "sock", root / "server.log"
    sockets.mkdir()
    if prefix:
        shutil.chown(root, "postgres")
        shutil.chown(sockets, "postgres")
    _run([*prefix, str(bindir / "initdb"), "-D", str(data), "-U", _PG_USER, "--auth=trust",
          "-E", "UTF8", "--no-locale", "--no-sync"], "initdb", root)
    # The free port may be taken between finding it and starting: try a few.
    for attempt in range(3):
        port = _free_port()
        options = (f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off")
        started = subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(logfile), "-o", options,
             "-w", "-t", "60", "start"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=120, cwd=root)
        if started.returncode == 0:
            break
        if attempt == 2:
            log = logfile.read_text(errors="replace") if logfile.exists() else ""
            shutil.rmtree(root, ignore_errors=True)
            pytest.fail(f"starting PostgreSQL failed: {started.stdout}{started.stderr}\n{log}",
                        pytrace=False)
    try:
        yield f"postgresql://{_PG_USER}@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w",
                        "stop"], stdin=subprocess.DEVNULL, capture_output=True, timeout=60, cwd=root)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_database(postgres_server: str) -> str:
    """The session's test database (tests get a schema of their own in it)."""
    import psycopg

    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute("CREATE DATABASE lcn_tests")
    return postgres_server.rsplit("/", 1)[0] + "/lcn_tests"


@pytest.fixture
def postgres_url(postgres_database: str) -> str:
    """The URL of a new, empty schema on the session's PostgreSQL server.

    A schema (chosen through the connection's search_path) is as good as a database for
    isolating tests, and much quicker to create.
    """
    import psycopg

    name = f"t{os.getpid()}_{next(_schema_numbers)}"
    with psycopg.connect(postgres_database, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    return f"{postgres_database}?options=-csearch_path%3D{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind in turn: tests using it run on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lcn.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))

"""What the store does with damaged data, text no database takes, and rolling deploys.

Damage is done for real: bytes of a real SQLite file overwritten, a row changed with sqlite3
or psycopg behind the server's back. The rollback tests run release 1.0's store
(tests/release_1_0_storage.py, verbatim) against databases this release migrated.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
import release_1_0_storage as release_1_0
from click.testing import CliRunner
from site_support import make_app

from replay_server.config import ConfigError
from replay_server.storage import (
    SCHEMA_NEEDED,
    SCHEMA_VERSION,
    StoreCorrupt,
    StoreError,
    StoreUnavailable,
    UnstorableText,
    game_id,
    open_store,
)

GAME = '[Player1 "Ada"]\n[Player2 "Bo"]\n\nR5/d xB2/d *\n'
OTHER = '[Player1 "Ada"]\n[Player2 "Bo"]\n\nR6/d xB2/d *\n'


def _count(url: str) -> int:
    return _sql(url, "SELECT COUNT(*) FROM games")[0][0]


def _sql(url: str, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run SQL on the database directly, as an operator (or an attacker) with psql would."""
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url[len("sqlite:///"):]) as conn:
            return conn.execute(statement.replace("%s", "?"), params).fetchall()
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


# -- text no database stores -----------------------------------------------------------------

def test_a_lone_surrogate_in_a_json_body_is_a_400_on_every_database(tmp_path: Path,
                                                                    database_url: str) -> None:
    client = make_app(tmp_path, {"DATABASE_URL": database_url, "REQUEST_LOG": False}).test_client()
    body = b'{"lcn": "[Player1 \\"\\ud800\\"]\\n\\nR5/d xB2/d *\\n"}'.ljust(55)
    response = client.post("/api/v1/games", data=body, content_type="application/json")
    assert response.status_code == 400, response.get_data(as_text=True)
    message = response.get_json()["error"]["message"]
    assert "lone surrogate (U+D800)" in message and "line 1, column" in message
    assert _count(database_url) == 0


def test_a_nul_in_a_game_is_the_same_400_on_every_database(tmp_path: Path, database_url: str) -> None:
    client = make_app(tmp_path, {"DATABASE_URL": database_url, "REQUEST_LOG": False}).test_client()
    text = GAME.replace("Ada", "A\x00da")
    response = client.post("/api/v1/games", data=text.encode(), content_type="text/plain")
    assert response.status_code == 400, response.get_data(as_text=True)
    assert "NUL character (U+0000)" in response.get_json()["error"]["message"]
    page = client.post("/", data={"text": text})
    assert page.status_code == 400 and "NUL character" in page.get_data(as_text=True)
    assert _count(database_url) == 0


def test_the_store_refuses_unstorable_text_itself(database_url: str) -> None:
    store = open_store(database_url)
    try:
        with pytest.raises(UnstorableText, match=r"line 2, column 3: .*NUL"):
            store.put("ab\ncd\x00")
        with pytest.raises(UnstorableText, match=r"line 1, column 2: .*U\+DFFF"):
            store.put("a\udfff")
    finally:
        store.close()


# -- damaged data ----------------------------------------------------------------------------

def _page_of(path: Path, table: str) -> tuple[int, int]:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    return size, root


def _overwrite_page(path: Path, page_size: int, page: int) -> None:
    with path.open("r+b") as handle:
        handle.seek((page - 1) * page_size)
        handle.write(bytes(range(256)) * (page_size // 256))


def test_a_damaged_sqlite_file_answers_503_and_is_logged(tmp_path: Path, caplog: Any) -> None:
    path = tmp_path / "lcn.sqlite3"
    app = make_app(tmp_path, {"REQUEST_LOG": False})
    client = app.test_client()
    gid = client.post("/api/v1/games", data=GAME, content_type="text/plain").get_json()["id"]
    app.extensions["lcn_store"].engine.dispose()  # close the pool: the WAL is written back
    page_size, root = _page_of(path, "games")
    _overwrite_page(path, page_size, root)
    with caplog.at_level(logging.ERROR):
        api = client.get(f"/api/v1/games/{gid}")
        upload = client.post("/api/v1/games", data=OTHER, content_type="text/plain")
        health = client.get("/healthz")
    assert api.status_code == 503, api.get_data(as_text=True)
    assert api.get_json()["error"]["code"] == "store-unavailable"
    assert upload.status_code == 503
    assert health.status_code == 503 and health.get_json()["database"] == "unavailable"
    assert any("is damaged" in record.getMessage() for record in caplog.records)


def test_a_damaged_schema_page_stops_the_start_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "lcn.sqlite3"
    store = open_store(f"sqlite:///{path}")
    store.put(GAME)
    store.close()
    page_size, _ = _page_of(path, "games")
    with path.open("r+b") as handle:  # the schema table, after the file header
        handle.seek(100)
        handle.write(b"\xff" * (page_size - 100))
    with pytest.raises(ConfigError, match=r"is damaged|cannot open") as caught:
        make_app(tmp_path)
    assert "\n" not in str(caught.value) and "restore it from a backup" in str(caught.value)
    from lcn_cli.main import cli

    result = CliRunner().invoke(cli, ["serve", "--data-dir", str(tmp_path), "--port", "0"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output and result.output.count("\n") == 1
    assert result.output.startswith("Error: LCN_DATABASE_URL:")


def test_a_row_changed_behind_the_servers_back_is_refused_not_served(
        tmp_path: Path, database_url: str, caplog: Any) -> None:
    config = {"DATABASE_URL": database_url, "REQUEST_LOG": False}
    client = make_app(tmp_path / "a", config).test_client()
    gid = client.post("/api/v1/games", data=GAME, content_type="text/plain").get_json()["id"]
    ((original,),) = _sql(database_url, "SELECT lcn FROM games WHERE id = %s", (gid,))
    _sql(database_url, "UPDATE games SET lcn = replace(lcn, 'R5', 'R6') WHERE id = %s", (gid,))
    fresh = make_app(tmp_path / "b", config).test_client()  # nothing cached in this process
    with caplog.at_level(logging.ERROR):
        for path in (f"/g/{gid}.lcn", f"/api/v1/games/{gid}", f"/g/{gid}"):
            response = fresh.get(path)
            assert response.status_code == 503, (path, response.status_code)
            assert "R6/d" not in response.get_data(as_text=True)
    assert any(f"stored game {gid} does not match its id" in r.getMessage() for r in caplog.records)
    store = open_store(database_url)
    try:
        with pytest.raises(StoreCorrupt):
            store.get(gid)
        # Storing the original again does not hide the damage either.
        with pytest.raises(StoreCorrupt):
            store.put(original)
    finally:
        store.close()


# -- schema versions, rolling deploys, rollbacks -----------------------------------------------

def test_release_1_0_keeps_working_on_the_upgraded_schema(database_url: str) -> None:
    """Rollback: a 1.0 server started against a database this release migrated."""
    new = open_store(database_url)
    new_id, _ = new.put(GAME)
    assert new.versions() == (SCHEMA_VERSION, 1)
    old = release_1_0.open_store(database_url)
    try:
        assert old.migrate() == 1  # 1.0 sees its own schema and has nothing to do
        assert old.get(new_id) == GAME
        old_id, created = old.put(OTHER)
        assert created and old_id == game_id(OTHER)
        assert new.get(old_id) == OTHER  # the newer servers read what the old one stored
        assert new.put(OTHER) == (old_id, False)
    finally:
        old.close()
        new.close()


def test_a_database_made_by_release_1_0_is_migrated_with_its_games(database_url: str) -> None:
    old = release_1_0.open_store(database_url)
    old_id, _ = old.put(GAME)
    old.close()
    new = open_store(database_url)
    try:
        assert new.versions() == (1, 1)
        assert new.migrate() == 1
        assert new.versions() == (SCHEMA_VERSION, 1)
        assert new.get(old_id) == GAME
        assert _sql(database_url, "SELECT version FROM schema_version") == [(1,)]
    finally:
        new.close()


def test_without_upgrade_at_start_the_server_needs_lcn_db_upgrade(tmp_path: Path, database_url: str) -> None:
    config = {"DATABASE_URL": database_url, "DB_UPGRADE": False, "REQUEST_LOG": False}
    with pytest.raises(ConfigError, match=f"needs {SCHEMA_NEEDED} or newer: run `lcn db upgrade` first"):
        make_app(tmp_path, config)
    from lcn_cli.main import cli

    runner = CliRunner()
    result = runner.invoke(cli, ["db", "upgrade", "--database-url", database_url])
    assert result.exit_code == 0, result.output
    assert f"schema version 0 -> {SCHEMA_VERSION}" in result.output
    again = runner.invoke(cli, ["db", "upgrade", "--database-url", database_url])
    assert again.exit_code == 0 and "nothing to do" in again.output
    client = make_app(tmp_path, config).test_client()
    assert client.post("/api/v1/games", data=GAME, content_type="text/plain").status_code == 201
    status = runner.invoke(cli, ["db", "status", "--database-url", database_url])
    assert status.exit_code == 0 and "usable: yes" in status.output


def test_migrations_from_many_processes_at_once_run_once(database_url: str) -> None:
    stores = [open_store(database_url) for _ in range(4)]
    barrier = threading.Barrier(len(stores))
    befores: list[int] = []
    errors: list[BaseException] = []

    def migrate(store: Any) -> None:
        try:
            barrier.wait()
            befores.append(store.migrate())
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=migrate, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in stores:
        store.close()
    assert errors == []
    assert sorted(befores) == [0] + [SCHEMA_VERSION] * 3
    assert _sql(database_url, "SELECT version, compatible_from FROM lcn_schema") == [(SCHEMA_VERSION, 1)]


# -- connections -------------------------------------------------------------------------------

def test_the_pool_bounds_the_connections_of_a_process(postgres_url: str) -> None:
    """Many threads at once share at most pool size + overflow connections; none fails."""
    import psycopg

    store = open_store(postgres_url + "&application_name=lcn_pool_test", pool_size=2, max_overflow=1)
    store.ensure_schema()
    seen: list[int] = []
    done = threading.Event()

    def watch() -> None:
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            while not done.is_set():
                row = admin.execute("SELECT COUNT(*) FROM pg_stat_activity "
                                    "WHERE application_name = 'lcn_pool_test'").fetchone()
                seen.append(int(row[0]) if row else 0)

    errors: list[BaseException] = []

    def work(index: int) -> None:
        try:
            for turn in range(5):
                text = GAME.replace("Ada", f"Ada{index}x{turn}")
                gid, _ = store.put(text)
                assert store.get(gid) == text
        except BaseException as exc:  # reported below
            errors.append(exc)

    watcher = threading.Thread(target=watch)
    watcher.start()
    workers = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    done.set()
    watcher.join()
    store.close()
    assert errors == []
    assert seen and max(seen) <= 3
    assert _count(postgres_url) == 16 * 5


def test_the_password_never_reaches_messages_or_logs(tmp_path: Path, caplog: Any) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"postgresql://lcn:hunter2@127.0.0.1:{port}/lcn"
    store = open_store(url)
    assert "hunter2" not in repr(store) and "hunter2" not in store.where
    with pytest.raises(StoreUnavailable) as caught:
        store.put(GAME)
    assert "hunter2" not in str(caught.value) and "***" in str(caught.value)
    store.close()
    with caplog.at_level(logging.DEBUG):
        client = make_app(tmp_path, {"DATABASE_URL": url, "REQUEST_LOG": False}).test_client()
        assert client.post("/api/v1/games", data=GAME, content_type="text/plain").status_code == 503
        assert client.get("/healthz").status_code == 503
    assert caplog.records and not any("hunter2" in r.getMessage() for r in caplog.records)


def test_a_newer_schema_that_drops_what_this_code_needs_is_refused(database_url: str) -> None:
    store = open_store(database_url)
    store.migrate()
    _sql(database_url, "UPDATE lcn_schema SET version = %s, compatible_from = %s",
         (SCHEMA_VERSION + 3, SCHEMA_VERSION + 1))
    try:
        with pytest.raises(StoreError, match=f"works only with programs of schema {SCHEMA_VERSION + 1}"):
            store.check_schema()
    finally:
        store.close()


# -- the database taken away under a running site (issue #32) ----------------------------------

def _games(count: int, tag: str) -> list[str]:
    """Distinct valid games: the names differ, so every text has an id of its own."""
    return [f'[Player1 "Ada {tag} {i}"]\n[Player2 "Bo"]\n\nR5/d xB2/d *\n' for i in range(count)]


def _upload_all(client: Any, texts: list[str]) -> tuple[list[int], list[str]]:
    """Statuses of the uploads and the ids of the acknowledged ones."""
    statuses, acknowledged = [], []
    for text in texts:
        response = client.post("/api/v1/games", data=text, content_type="text/plain")
        statuses.append(response.status_code)
        if response.status_code in (200, 201):
            acknowledged.append(response.get_json()["id"])
    return statuses, acknowledged


@pytest.mark.parametrize("how", ["deleted", "renamed-over"])
def test_a_sqlite_file_taken_away_under_the_site_acknowledges_nothing(tmp_path: Path, how: str) -> None:
    """The open connections go on writing into the file they hold: deleted, its inode lives on
    until they close, and every game "stored" there is gone at the next start. The site sees
    that the path no longer names the file it opened and answers 503 instead."""
    path = tmp_path / "lcn.sqlite3"
    app = make_app(tmp_path, {"REQUEST_LOG": False})
    client = app.test_client()
    first = client.post("/api/v1/games", data=GAME, content_type="text/plain")
    assert first.status_code == 201 and client.get("/healthz").status_code == 200
    if how == "deleted":
        path.unlink()
    else:
        other = tmp_path / "other.sqlite3"
        sqlite3.connect(other).close()
        other.replace(path)
    statuses, acknowledged = _upload_all(client, _games(10, how))
    health = client.get("/healthz")
    read = client.get(f"/api/v1/games/{first.get_json()['id']}")
    app.extensions["lcn_store"].close()
    recreated = path.exists()
    # A restart: whatever was acknowledged after the file went away must be there.
    restarted = make_app(tmp_path, {"REQUEST_LOG": False})
    after = restarted.test_client()
    kept = [gid for gid in acknowledged if after.get(f"/api/v1/games/{gid}").status_code == 200]
    restarted.extensions["lcn_store"].close()
    assert kept == acknowledged, f"{len(acknowledged) - len(kept)} of {len(acknowledged)} acknowledged lost"
    assert statuses == [503] * 10
    assert health.status_code == 503 and health.get_json() == {"status": "unavailable",
                                                               "database": "unavailable"}
    assert read.status_code == 503 and read.get_json()["error"]["code"] == "store-unavailable"
    if how == "deleted":
        assert not recreated, "the site made a new, empty file in place of the one deleted"


def test_a_sqlite_file_deleted_under_gunicorn_loses_no_acknowledged_game(tmp_path: Path) -> None:
    """The same under the real server: gunicorn with two workers, then a restart."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    path = tmp_path / "data" / "lcn.sqlite3"
    env = dict(os.environ, LCN_DATA_DIR=str(tmp_path / "data"), LCN_DATABASE_URL=f"sqlite:///{path}",
               LCN_RATELIMIT_ENABLED="0", LCN_REQUEST_LOG="0")

    def call(method: str, where: str, body: bytes | None = None) -> tuple[int, Any]:
        req = urllib.request.Request(base + where, data=body, method=method,
                                     headers={"Content-Type": "text/plain"})
        try:
            with urllib.request.urlopen(req, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")
        except OSError:
            return 0, None

    def start() -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-b", f"127.0.0.1:{port}", "-w", "2",
             "replay_server:create_app()"], env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
        for _ in range(300):
            if call("GET", "/healthz")[0] == 200:
                return process
            time.sleep(0.1)
        stop(process)
        pytest.fail("gunicorn did not start")

    def stop(process: subprocess.Popen[bytes]) -> None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)

    server = start()
    try:
        assert call("POST", "/api/v1/games", GAME.encode())[0] == 201
        path.unlink()
        answers = [call("POST", "/api/v1/games", text.encode()) for text in _games(10, "gunicorn")]
        health = [call("GET", "/healthz")[0] for _ in range(4)]  # both workers, most likely
    finally:
        stop(server)
    acknowledged = [body["id"] for status, body in answers if status in (200, 201)]
    server = start()
    try:
        kept = [gid for gid in acknowledged if call("GET", f"/api/v1/games/{gid}")[0] == 200]
    finally:
        stop(server)
    assert kept == acknowledged, f"{len(acknowledged) - len(kept)} of {len(acknowledged)} acknowledged lost"
    assert [status for status, _ in answers] == [503] * 10
    assert health == [503] * 4


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def own_postgres_database(postgres_server: str) -> Any:
    """A database of the test's own on the session's server, which the test may drop."""
    import os

    import psycopg

    name = f"lcn_dropped_{os.getpid()}"
    admin_url = postgres_server
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    yield admin_url, name, admin_url.rsplit("/", 1)[0] + f"/{name}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _until_ok(client: Any, method: str, where: str, tries: int = 5, **kwargs: Any) -> list[Any]:
    """The answers to the same request sent until one succeeds (``tries`` at most)."""
    answers = []
    for _ in range(tries):
        answers.append(getattr(client, method)(where, **kwargs))
        if answers[-1].status_code < 300:
            break
    return answers


@pytest.mark.parametrize("how", ["database recreated", "tables dropped"])
def test_a_postgresql_database_emptied_under_the_site_answers_503_then_recovers(
        tmp_path: Path, own_postgres_database: Any, how: str) -> None:
    """An empty database is what the site migrates at start; found empty while it runs, it is
    "unavailable" (503, never a 500 page) and migrated again, without a restart."""
    import psycopg

    admin_url, name, url = own_postgres_database
    client = make_app(tmp_path, {"DATABASE_URL": url, "REQUEST_LOG": False}).test_client()
    assert client.post("/api/v1/games", data=GAME, content_type="text/plain").status_code == 201
    if how == "database recreated":
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
    else:
        _sql(url, "DROP TABLE games, lcn_schema, schema_version, alembic_version")
    health = client.get("/healthz")
    assert health.status_code in (200, 503) and health.is_json, health.get_data(as_text=True)[:200]
    assert set(health.get_json()) == {"status", "database"}
    uploads = _until_ok(client, "post", "/api/v1/games", data=OTHER, content_type="text/plain")
    statuses = [answer.status_code for answer in uploads]
    assert set(statuses[:-1]) <= {503} and statuses[-1] == 201, statuses
    assert _until_ok(client, "get", "/healthz")[-1].status_code == 200
    assert client.get(f"/api/v1/games/{uploads[-1].get_json()['id']}").status_code == 200


def test_a_postgresql_games_table_dropped_alone_is_reported_not_recreated(
        tmp_path: Path, postgres_url: str, caplog: Any) -> None:
    """The schema record says the games are there, and they are not: damage to restore from
    a backup, not an empty database to start afresh on."""
    client = make_app(tmp_path, {"DATABASE_URL": postgres_url, "REQUEST_LOG": False}).test_client()
    assert client.post("/api/v1/games", data=GAME, content_type="text/plain").status_code == 201
    _sql(postgres_url, "DROP TABLE games")
    with caplog.at_level(logging.WARNING):
        answers = [client.post("/api/v1/games", data=OTHER, content_type="text/plain") for _ in range(3)]
        health = client.get("/healthz")
    assert [a.status_code for a in answers] == [503] * 3
    assert answers[0].get_json()["error"]["code"] == "store-unavailable"
    assert health.status_code == 503 and health.get_json() == {"status": "unavailable",
                                                               "database": "unavailable"}
    assert any("the table games is missing" in record.getMessage() for record in caplog.records)
    tables = _sql(postgres_url, "SELECT table_name FROM information_schema.tables "
                                "WHERE table_schema = current_schema()")
    assert "games" not in {row[0] for row in tables}


# -- a read-only copy ------------------------------------------------------------------------------

def _as_unprivileged(code: str, *args: str) -> Any:
    """Run ``code`` in a child that directory permissions apply to: as root (here and in CI),
    root without the capabilities that let it write anywhere."""
    import os
    import subprocess
    import sys

    prefix: list[str] = []
    if os.geteuid() == 0:
        prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
    return subprocess.run([*prefix, sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, LCN_REQUEST_LOG="0"))


_READ_COPY = """
import json, sys
sys.path.insert(0, sys.argv[3])
from site_support import make_app
app = make_app(sys.argv[1], {"DATABASE_URL": "sqlite:///" + sys.argv[1] + "/lcn.sqlite3",
                             "REQUEST_LOG": False})
client = app.test_client()
read = client.get("/api/v1/games/" + sys.argv[2])
upload = client.post("/api/v1/games", data='[Player1 "X"]\\n[Player2 "Y"]\\n\\nR5/d xB2/d *\\n',
                     content_type="text/plain")
print(json.dumps({"read": read.status_code, "lcn": (read.get_json() or {}).get("lcn"),
                  "health": client.get("/healthz").status_code, "upload": upload.status_code}))
"""


def test_a_wal_copy_without_shm_in_a_read_only_directory_is_read(tmp_path: Path) -> None:
    """SQLite reads a WAL database through its -shm file, which it cannot create in a
    read-only directory: the copy is opened as an unchanging file instead."""
    import os
    import shutil

    source = tmp_path / "site"
    app = make_app(source, {"REQUEST_LOG": False})
    gid = app.test_client().post("/api/v1/games", data=GAME, content_type="text/plain").get_json()["id"]
    app.extensions["lcn_store"].close()
    copy = tmp_path / "copy"
    copy.mkdir()
    with sqlite3.connect(source / "lcn.sqlite3") as conn:
        conn.execute(f"VACUUM INTO '{copy / 'lcn.sqlite3'}'")
    # A WAL database stays one on disk: VACUUM INTO writes the mode in the header.
    with sqlite3.connect(copy / "lcn.sqlite3") as conn:
        conn.execute("PRAGMA journal_mode=WAL")
    for name in os.listdir(copy):
        if name != "lcn.sqlite3":
            (copy / name).unlink()
    assert (copy / "lcn.sqlite3").read_bytes()[18:20] == b"\x02\x02"  # WAL mode in the header
    tests_dir = str(Path(__file__).resolve().parent)
    copy.chmod(0o555)
    try:
        result = _as_unprivileged(_READ_COPY, str(copy), gid, tests_dir)
    finally:
        copy.chmod(0o755)
    assert result.returncode == 0, result.stderr[-2000:]
    answer = json.loads(result.stdout.strip().splitlines()[-1])
    assert answer["read"] == 200 and game_id(answer["lcn"]) == gid and answer["health"] == 200, answer
    assert answer["upload"] == 503
    assert sorted(os.listdir(copy)) == ["lcn.sqlite3"]
    shutil.rmtree(copy)


def test_a_wal_copy_with_an_unreadable_log_is_refused_at_start(tmp_path: Path) -> None:
    """A -wal file holds committed games that only its -shm makes readable: opening the file
    without it would show an older database, so the start stops and says what to do."""
    import os

    source = tmp_path / "site"
    app = make_app(source, {"REQUEST_LOG": False})
    client = app.test_client()
    client.post("/api/v1/games", data=GAME, content_type="text/plain")
    copy = tmp_path / "copy"
    copy.mkdir()
    holder = sqlite3.connect(source / "lcn.sqlite3")  # keeps the log from being checkpointed
    holder.execute("PRAGMA wal_autocheckpoint=0")
    gid = client.post("/api/v1/games", data=OTHER, content_type="text/plain").get_json()["id"]
    for name in ("lcn.sqlite3", "lcn.sqlite3-wal"):
        (copy / name).write_bytes((source / name).read_bytes())
    holder.close()
    app.extensions["lcn_store"].close()
    assert (copy / "lcn.sqlite3-wal").stat().st_size > 0
    copy.chmod(0o555)
    try:
        result = _as_unprivileged(_READ_COPY, str(copy), gid, str(Path(__file__).resolve().parent))
    finally:
        copy.chmod(0o755)
    assert result.returncode != 0
    assert "ConfigError" in result.stderr and "-wal" in result.stderr and "-shm" in result.stderr, \
        result.stderr[-2000:]
    assert sorted(os.listdir(copy)) == ["lcn.sqlite3", "lcn.sqlite3-wal"]


# -- metrics -----------------------------------------------------------------------------------

def _series(client: Any) -> set[tuple[str, tuple[tuple[str, str], ...]]]:
    from prometheus_client.parser import text_string_to_metric_families

    text = client.get("/metrics").get_data(as_text=True)
    # A series is a metric and its labels (a histogram's buckets and a counter's _created
    # belong to it).
    return {(family.name.removesuffix("_created"),
             tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le")))
            for family in text_string_to_metric_families(text) for sample in family.samples}


def test_made_up_methods_and_paths_add_at_most_one_series(tmp_path: Path) -> None:
    """Every label value a client chooses is a new series kept for the life of the process:
    the method is one of HTTP's or "other", the route the matched rule or "unmatched"."""
    client = make_app(tmp_path, {"METRICS": True, "REQUEST_LOG": False}).test_client()
    client.open("/", method="FROB0")
    client.get(f"/no-such-page-{0}")
    _series(client)  # the scrape's own series, counted from the next one on
    before = _series(client)
    for i in range(1, 300):
        client.open("/", method=f"FROB{i}")
        client.open(f"/no-such-page-{i}", method=f"XYZ{i}")
        client.get(f"/no-such-page-{i}")
    after = _series(client)
    assert len(after - before) <= 1, sorted(after - before)[:5]
    methods = {dict(labels).get("method") for _, labels in after} - {None}
    assert methods <= {"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT",
                       "other"}

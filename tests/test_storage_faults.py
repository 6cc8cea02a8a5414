"""What the store does with damaged data, text no database takes, and rolling deploys.

Damage is done for real: bytes of a real SQLite file overwritten, a row changed with sqlite3
or psycopg behind the server's back. The rollback tests run release 1.0's store
(tests/release_1_0_storage.py, verbatim) against databases this release migrated.
"""

from __future__ import annotations

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

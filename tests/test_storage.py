"""The game store, on SQLite and on a real PostgreSQL: the same tests run against both."""

from __future__ import annotations

import base64
import hashlib
import threading
from pathlib import Path
from typing import Any

import pytest

import lcn
from replay_server import storage
from replay_server.storage import (
    SCHEMA_VERSION,
    PostgresStore,
    SQLiteStore,
    StoreError,
    StoreUnavailable,
    game_id,
    open_store,
)

GAME = '[Player1 "Ada"]\n[Player2 "Bo"]\n\nR5/d xB2/d *\n'
OTHER = '[Player1 "Ada"]\n[Player2 "Bo"]\n\nR6/d xB2/d *\n'


def test_game_id_is_96_bits_of_sha256_in_url_safe_base64() -> None:
    expected = base64.urlsafe_b64encode(hashlib.sha256(GAME.encode()).digest()[:12]).decode()
    assert game_id(GAME) == expected
    assert len(game_id(GAME)) == 16
    assert "=" not in game_id(GAME)
    assert game_id(GAME) != game_id(OTHER)
    # Non-ASCII text hashes its UTF-8 bytes.
    assert game_id("Jürgen") == base64.urlsafe_b64encode(
        hashlib.sha256("Jürgen".encode()).digest()[:12]).decode()


def test_open_store_picks_the_kind_from_the_url(tmp_path: Path) -> None:
    sqlite = open_store(f"sqlite:///{tmp_path}/a.sqlite3")
    assert isinstance(sqlite, SQLiteStore) and sqlite.path == f"{tmp_path}/a.sqlite3"
    assert isinstance(open_store("postgresql://u@localhost/db"), PostgresStore)
    assert isinstance(open_store("postgres://u@localhost/db"), PostgresStore)
    with pytest.raises(ValueError, match="expected sqlite:///<path> or postgresql://") as caught:
        open_store("mysql://u:secret@host/db")
    assert "secret" not in str(caught.value)  # passwords stay out of messages
    with pytest.raises(ValueError, match="expected a file path"):
        open_store("sqlite:///")


def test_same_game_twice_gets_one_id(database_url: str) -> None:
    store = open_store(database_url)
    try:
        first = store.put(GAME)
        second = store.put(GAME)
        assert first == (game_id(GAME), True)
        assert second == (game_id(GAME), False)
        assert store.get(first[0]) == GAME
        assert store.put(OTHER)[0] != first[0]
    finally:
        store.close()


def test_unknown_and_malformed_ids_are_absent(database_url: str) -> None:
    store = open_store(database_url)
    try:
        assert store.get(game_id(GAME)) is None
        assert store.get("") is None
        assert store.get("'; DROP TABLE games; --") is None
        assert store.get("x" * 5000) is None
    finally:
        store.close()


def test_a_stored_game_survives_reopening_the_store(database_url: str) -> None:
    store = open_store(database_url)
    gid, _ = store.put(GAME)
    store.close()
    reopened = open_store(database_url)
    try:
        assert reopened.get(gid) == GAME
        assert reopened.put(GAME) == (gid, False)
        assert reopened.schema_version() == SCHEMA_VERSION
    finally:
        reopened.close()


def test_a_stored_game_never_changes(database_url: str) -> None:
    store = open_store(database_url)
    try:
        gid, _ = store.put(GAME)
        store.put(OTHER)
        store.put(GAME)
        assert store.get(gid) == GAME
    finally:
        store.close()


def test_a_hash_collision_never_replaces_a_stored_game(database_url: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(database_url)
    try:
        monkeypatch.setattr(storage, "game_id", lambda text: "AAAAAAAAAAAAAAAA")
        store.put(GAME)
        with pytest.raises(StoreError, match="collision"):
            store.put(OTHER)
        assert store.get("AAAAAAAAAAAAAAAA") == GAME
    finally:
        store.close()


def test_concurrent_puts_of_the_same_text_create_exactly_one_row(database_url: str) -> None:
    store = open_store(database_url)
    store.ensure_schema()
    results: list[tuple[str, bool]] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def put() -> None:
        try:
            barrier.wait()
            results.append(store.put(GAME))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=put) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert errors == []
        assert sorted(created for _, created in results) == [False] * 7 + [True]
        assert {gid for gid, _ in results} == {game_id(GAME)}
        assert _count_rows(database_url) == 1
    finally:
        store.close()


def _count_rows(url: str) -> int:
    if url.startswith("sqlite:///"):
        import sqlite3

        with sqlite3.connect(url[len("sqlite:///"):]) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT COUNT(*) FROM games").fetchone()
        assert row is not None
        return int(row[0])


def test_migration_creates_the_schema_once_and_records_its_version(database_url: str) -> None:
    store = open_store(database_url)
    try:
        assert store.schema_version() == 0
        assert store.migrate() == 0
        assert store.schema_version() == SCHEMA_VERSION
        assert store.migrate() == SCHEMA_VERSION  # nothing left to do
        assert store.schema_version() == SCHEMA_VERSION
    finally:
        store.close()


def test_a_database_from_a_newer_program_is_used_unless_it_says_otherwise(database_url: str) -> None:
    """A rollback: the database was migrated further by a newer release. This code keeps
    working on it as long as the newer schema says code of this version still works."""
    store = open_store(database_url)
    try:
        gid, _ = store.put(GAME)
        _set_version(database_url, SCHEMA_VERSION + 1, compatible_from=SCHEMA_VERSION)
        assert store.migrate() == SCHEMA_VERSION + 1  # nothing done, nothing refused
        reopened = open_store(database_url)
        assert reopened.get(gid) == GAME and reopened.put(OTHER)[1] is True
        reopened.close()
        _set_version(database_url, SCHEMA_VERSION + 2, compatible_from=SCHEMA_VERSION + 1)
        with pytest.raises(StoreError, match="newer than this program"):
            store.migrate()
    finally:
        store.close()


def _set_version(url: str, version: int, *, compatible_from: int) -> None:
    """What a newer release's migration would record."""
    if url.startswith("sqlite:///"):
        import sqlite3

        with sqlite3.connect(url[len("sqlite:///"):]) as conn:
            conn.execute("UPDATE lcn_schema SET version = ?, compatible_from = ?", (version, compatible_from))
        return
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE lcn_schema SET version = %s, compatible_from = %s", (version, compatible_from))


def test_sqlite_uses_wal_and_a_file_in_the_given_directory(tmp_path: Path) -> None:
    path = tmp_path / "deeper" / "lcn.sqlite3"
    store = open_store(f"sqlite:///{path}")
    try:
        store.put(GAME)
        assert path.is_file()
        import sqlite3

        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()


def test_an_unreachable_database_raises_store_unavailable(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    sqlite = open_store(f"sqlite:///{tmp_path}/file/lcn.sqlite3")
    with pytest.raises(StoreUnavailable, match="cannot open the SQLite database"):
        sqlite.get(game_id(GAME))
    port = _closed_port()
    postgres = open_store(f"postgresql://nobody:hunter2@127.0.0.1:{port}/nothing")
    with pytest.raises(StoreUnavailable, match="cannot connect to the PostgreSQL database") as caught:
        postgres.put(GAME)
    assert "hunter2" not in str(caught.value)


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_postgres_reconnects_after_the_connection_breaks(postgres_url: str) -> None:
    import psycopg

    store = open_store(postgres_url, pool_size=1, max_overflow=0)
    try:
        gid, _ = store.put(GAME)
        assert isinstance(store, PostgresStore)
        with store.engine.connect() as conn:
            pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        # The pooled connection is checked before use (pre-ping): the broken one is replaced.
        assert store.get(gid) == GAME
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT pg_backend_pid()").scalar() != pid
    finally:
        store.close()


def test_two_servers_share_one_database(tmp_path: Path, database_url: str) -> None:
    """Servers behind a load balancer: what one stores, the other serves; one row per game."""
    from site_support import make_app

    apps = [make_app(tmp_path / name, {"DATABASE_URL": database_url}) for name in ("one", "two")]
    clients = [app.test_client() for app in apps]
    statuses: list[int] = []
    ids: list[str] = []

    def post(client: Any) -> None:
        response = client.post("/api/v1/games", data=GAME, content_type="text/plain")
        statuses.append(response.status_code)
        ids.append(response.get_json().get("id") or str(response.get_json()))

    # One server stores the game first, then both store it at once, again and again.
    post(clients[0])
    threads = [threading.Thread(target=post, args=(clients[i % 2],)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert statuses == [201] + [200] * 8, ids
        assert len(set(ids)) == 1
        canonical = lcn.write_games(lcn.read_games(GAME))
        assert ids[0] == game_id(str(canonical))
        for client in clients:
            assert client.get(f"/g/{ids[0]}.lcn").get_data(as_text=True) == canonical
        assert _count_rows(database_url) == 1
    finally:
        for app in apps:
            app.extensions["lcn_store"].close()


def test_the_site_refuses_to_start_on_a_bad_url_or_a_newer_schema(tmp_path: Path, database_url: str) -> None:
    from site_support import make_app

    from replay_server.config import ConfigError

    with pytest.raises(ConfigError, match="LCN_DATABASE_URL: database URL 'mysql://u:\\*\\*\\*@h/d'"):
        make_app(tmp_path, {"DATABASE_URL": "mysql://u:pw@h/d"})
    store = open_store(database_url)
    store.migrate()
    store.close()
    _set_version(database_url, SCHEMA_VERSION + 1, compatible_from=SCHEMA_VERSION + 1)
    with pytest.raises(ConfigError, match="newer than this program"):
        make_app(tmp_path, {"DATABASE_URL": database_url})


def test_threads_that_come_and_go_leave_no_connections_behind(postgres_url: str) -> None:
    """The development server starts a thread per request: connections must not pile up."""
    import psycopg

    store = open_store(postgres_url + "&application_name=lcn_thread_test")
    gid, _ = store.put(GAME)
    try:
        for _ in range(30):
            thread = threading.Thread(target=store.get, args=(gid,))
            thread.start()
            thread.join()
        with psycopg.connect(postgres_url) as admin:
            row = admin.execute("SELECT COUNT(*) FROM pg_stat_activity "
                                "WHERE application_name = 'lcn_thread_test'").fetchone()
        assert row is not None and row[0] <= 1
    finally:
        store.close()
    assert store.engine.pool.checkedin() == 0


def test_a_forked_worker_opens_its_own_connections(database_url: str) -> None:
    """gunicorn --preload forks workers after the app (and its store) was created."""
    import os

    store = open_store(database_url)
    gid, _ = store.put(GAME)
    assert store.engine.pool.checkedin() >= 1
    store.ping()  # the health check's thread runs in the parent
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: read through its own connection, report, leave at once
        try:
            ok = store.engine.pool.checkedin() == 0 and store.get(gid) == GAME
            store.ping()  # a thread of its own: the parent's did not survive the fork
        except BaseException:
            ok = False
        os.write(write, b"1" if ok else b"0")
        os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.close(read)
    os.waitpid(pid, 0)
    try:
        assert answer == b"1"
        assert store.get(gid) == GAME  # the parent's connections still work
    finally:
        store.close()

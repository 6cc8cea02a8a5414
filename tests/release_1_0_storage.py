"""Release 1.0's game store, verbatim (replay_server/storage.py as released): the rollback test runs
it against databases that the current release migrated, as a 1.0 server would after a rollback.

Where the site keeps games: SQLite (embedded default) or PostgreSQL, behind one interface.

A game's ID is derived from its canonical LCN text, so the same game always gets the same
link, storing it twice is harmless, and a stored text can never be replaced by another one:
a different text has a different ID. The site keeps no other state, which is what lets any
number of servers share one PostgreSQL database.

The schema is created and migrated by the application on start: ``MIGRATIONS`` lists every
step in order and the ``schema_version`` table records which ones a database has had.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Flask, current_app, jsonify, render_template_string, request
from flask.typing import ResponseReturnValue

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Length of an ID: 12 bytes of SHA-256 (96 bits) in URL-safe base64 without padding.
ID_LENGTH = 16
_ID_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

#: Schema steps, in order. A step is never edited once released: add a new one instead, so a
#: database at any earlier version can be brought up to date. Each step is a list of
#: statements written in the SQL both SQLite and PostgreSQL accept.
MIGRATIONS: list[list[str]] = [
    [
        "CREATE TABLE games ("
        " id VARCHAR(16) PRIMARY KEY,"
        " lcn TEXT NOT NULL,"
        " created_at VARCHAR(32) NOT NULL)",
    ],
]

#: The schema version this code expects.
SCHEMA_VERSION = len(MIGRATIONS)


class StoreUnavailable(Exception):
    """The database cannot be reached (or answered with an error that is not the request's fault).

    The site answers 503 for it: the request may succeed later, and nothing was lost.
    """


class StoreError(Exception):
    """The database is reachable but not usable as it is (for example a newer schema)."""


def game_id(canonical_text: str) -> str:
    """The permalink ID of a canonical LCN text: the first 96 bits of its SHA-256, URL-safe.

    96 bits keep links short while making an accidental collision between two games
    practically impossible (one in 2^48 after 2^24 stored games).
    """
    digest = hashlib.sha256(canonical_text.encode("utf-8")).digest()[:12]
    return base64.urlsafe_b64encode(digest).decode("ascii")


def is_game_id(text: str) -> bool:
    """Whether ``text`` has the shape of an ID (so lookups of junk never reach the database)."""
    return len(text) == ID_LENGTH and set(text) <= _ID_ALPHABET


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Store(ABC):
    """A place to keep canonical LCN texts under their IDs. Safe to share between threads."""

    def __init__(self) -> None:
        self._schema_ready = False
        self._schema_lock = threading.Lock()

    def put(self, text: str) -> tuple[str, bool]:
        """Store ``text`` under ``game_id(text)``; return the ID and whether it was new.

        Idempotent: storing a text that is already there changes nothing and returns False.
        """
        if not isinstance(text, str) or not text:
            raise ValueError("a stored game must be a non-empty text")
        self.ensure_schema()
        gid = game_id(text)
        created = self._insert(gid, text)
        if not created:
            existing = self._select(gid)
            if existing is not None and existing != text:
                # Two different texts with the same 96-bit hash: never overwrite the first.
                raise StoreError(f"ID collision for {gid}: refusing to replace a stored game")
        return gid, created

    def get(self, id: str) -> str | None:
        """The text stored under ``id``, or None when there is none (or ``id`` is not an ID)."""
        if not is_game_id(id):
            return None
        self.ensure_schema()
        return self._select(id)

    def ensure_schema(self) -> None:
        """Create or migrate the schema once; retried on the next use if the database was down."""
        if self._schema_ready:
            return
        with self._schema_lock:
            if not self._schema_ready:
                self.migrate()
                self._schema_ready = True

    @abstractmethod
    def migrate(self) -> int:
        """Bring the schema to ``SCHEMA_VERSION``; return the version found before."""

    @abstractmethod
    def schema_version(self) -> int:
        """The schema version of the database (0 for an empty one)."""

    @abstractmethod
    def ping(self) -> None:
        """Raise StoreUnavailable unless the database answers."""

    @abstractmethod
    def close(self) -> None:
        """Release every connection this store holds."""

    @abstractmethod
    def _insert(self, gid: str, text: str) -> bool: ...

    @abstractmethod
    def _select(self, gid: str) -> str | None: ...


class _Pool:
    """Idle connections kept for reuse, at most ``keep`` of them; each one used by one thread
    at a time.

    Servers may start a thread per request (the development server does), so connections
    are borrowed per operation rather than tied to threads: a finished thread leaves nothing
    open behind it, and a busy server holds one connection per request in progress.
    """

    def __init__(self, open_connection: Callable[[], Any], keep: int = 8) -> None:
        self._open = open_connection
        self._keep = keep
        self._idle: list[Any] = []
        self._lock = threading.Lock()
        self._closed = False
        self._pid = os.getpid()

    def take(self) -> Any:
        with self._lock:
            if self._closed:
                raise StoreUnavailable("the game store has been closed")
            if self._pid != os.getpid():
                # A worker forked from the process that opened these (gunicorn --preload):
                # their sockets belong to the parent, so forget them without closing them.
                self._idle, self._pid = [], os.getpid()
            if self._idle:
                return self._idle.pop()
        return self._open()

    def give_back(self, conn: Any) -> None:
        with self._lock:
            if not self._closed and self._pid == os.getpid() and len(self._idle) < self._keep:
                self._idle.append(conn)
                return
        self.discard(conn)

    @staticmethod
    def discard(conn: Any) -> None:
        with suppress(Exception):
            conn.close()

    @contextmanager
    def connection(self, broken: Callable[[BaseException], bool]) -> Iterator[Any]:
        """Borrow a connection; it goes back to the pool unless ``broken(error)`` says not."""
        conn = self.take()
        try:
            yield conn
        except BaseException as exc:
            if broken(exc):
                self.discard(conn)
            else:
                self.give_back(conn)
            raise
        self.give_back(conn)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            self.discard(conn)


class SQLiteStore(Store):
    """A single file in the data directory, in WAL mode so readers never wait for a writer."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self._pool = _Pool(self._open)

    def __repr__(self) -> str:
        return f"SQLiteStore({self.path!r})"

    def _open(self) -> sqlite3.Connection:
        try:
            if self.path == ":memory:":
                # Shared cache, so every connection sees the same in-memory database.
                target, uri = f"file:lcn-memory-{id(self)}?mode=memory&cache=shared", True
            else:
                os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
                target, uri = self.path, False
            conn = sqlite3.connect(target, timeout=30, isolation_level=None,
                                   check_same_thread=False, uri=uri)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA synchronous=NORMAL")
        except (sqlite3.Error, OSError) as exc:
            raise StoreUnavailable(f"cannot open the SQLite database {self.path}: {exc}") from exc
        return conn

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        try:
            with self._pool.connection(lambda exc: isinstance(exc, sqlite3.Error)) as conn:
                yield conn
        except sqlite3.OperationalError as exc:
            raise StoreUnavailable(f"the SQLite database {self.path} failed: {exc}") from exc

    def schema_version(self) -> int:
        with self._connection() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0] or 0)

    def migrate(self) -> int:
        with self._connection() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            # IMMEDIATE takes the write lock now, so two processes starting together migrate
            # one after the other instead of both applying the same step.
            conn.execute("BEGIN IMMEDIATE")
            try:
                before = int(conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0)
                _check_not_newer(before)
                for version in range(before + 1, SCHEMA_VERSION + 1):
                    for statement in MIGRATIONS[version - 1]:
                        conn.execute(statement)
                    conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return before

    def ping(self) -> None:
        with self._connection() as conn:
            conn.execute("SELECT 1").fetchone()

    def _insert(self, gid: str, text: str) -> bool:
        with self._connection() as conn:
            cur = conn.execute("INSERT OR IGNORE INTO games (id, lcn, created_at) VALUES (?, ?, ?)",
                               (gid, text, _now()))
            return cur.rowcount == 1

    def _select(self, gid: str) -> str | None:
        with self._connection() as conn:
            row = conn.execute("SELECT lcn FROM games WHERE id = ?", (gid,)).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        self._pool.close()


class PostgresStore(Store):
    """PostgreSQL through psycopg 3: the store to use when several servers share one database.

    Connections are in autocommit mode and pooled; one that broke (server restarted, network)
    is dropped, the operation answers StoreUnavailable, and the next one connects again.
    """

    def __init__(self, url: str, *, connect_timeout: int = 10) -> None:
        super().__init__()
        self.url = url
        self.connect_timeout = connect_timeout
        self._pool = _Pool(self._open)

    def __repr__(self) -> str:
        return f"PostgresStore({_redact(self.url)!r})"

    def _open(self) -> Any:
        import psycopg

        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=self.connect_timeout)
        except psycopg.Error as exc:
            raise StoreUnavailable(
                f"cannot connect to the PostgreSQL database {_redact(self.url)}: "
                f"{str(exc).strip() or type(exc).__name__}") from exc

    def _run(self, work: Callable[[Any], T]) -> T:
        """Run ``work(connection)``, turning connection failures into StoreUnavailable."""
        import psycopg

        def broken(exc: BaseException) -> bool:
            return isinstance(exc, psycopg.OperationalError) or not isinstance(exc, psycopg.Error)

        try:
            with self._pool.connection(broken) as conn:
                if conn.closed or conn.broken:
                    raise psycopg.OperationalError("the connection was closed")
                return work(conn)
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(
                f"the PostgreSQL database {_redact(self.url)} failed: {str(exc).strip()}") from exc

    def schema_version(self) -> int:
        def work(conn: Any) -> int:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
            return int(row[0] or 0)

        return self._run(work)

    def migrate(self) -> int:
        def work(conn: Any) -> int:
            with conn.transaction():
                # One migration at a time across every server sharing this database.
                conn.execute("SELECT pg_advisory_xact_lock(hashtext('lcn schema migration'))")
                conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                before = int(conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] or 0)
                _check_not_newer(before)
                for version in range(before + 1, SCHEMA_VERSION + 1):
                    for statement in MIGRATIONS[version - 1]:
                        conn.execute(statement)
                    conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (version,))
            return before

        return self._run(work)

    def ping(self) -> None:
        self._run(lambda conn: conn.execute("SELECT 1").fetchone())

    def _insert(self, gid: str, text: str) -> bool:
        def work(conn: Any) -> bool:
            cur = conn.execute(
                "INSERT INTO games (id, lcn, created_at) VALUES (%s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING", (gid, text, _now()))
            return bool(cur.rowcount == 1)

        return self._run(work)

    def _select(self, gid: str) -> str | None:
        def work(conn: Any) -> str | None:
            row = conn.execute("SELECT lcn FROM games WHERE id = %s", (gid,)).fetchone()
            return None if row is None else str(row[0])

        return self._run(work)

    def close(self) -> None:
        self._pool.close()


def _check_not_newer(version: int) -> None:
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"the database has schema version {version}, newer than this program's "
            f"{SCHEMA_VERSION}: upgrade the program before pointing it at this database")


def _redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def open_store(url: str) -> Store:
    """The store for a database URL: ``sqlite:///path`` or ``postgresql://...``.

    ``sqlite:///relative/path`` and ``sqlite:////absolute/path`` follow the usual convention
    (the path is what follows the third slash); ``sqlite://`` alone is an in-memory database.
    """
    if url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        return PostgresStore(url.replace("postgresql+psycopg://", "postgresql://", 1))
    if url == "sqlite://" or url == "sqlite:///:memory:":
        return SQLiteStore(":memory:")
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if not path:
            raise ValueError(f"database URL {url!r}: expected a file path after sqlite:///")
        return SQLiteStore(path)
    raise ValueError(
        f"database URL {_redact(url)!r}: expected sqlite:///<path> or postgresql://<user>@<host>/<db>")


def get_store() -> Store:
    """The store of the current application."""
    store: Store = current_app.extensions["lcn_store"]
    return store


_UNAVAILABLE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Database unavailable · LCN</title></head>
<body><h1>The game database is unavailable</h1>
<p>{{ message }}</p><p>Nothing was lost; please try again in a moment.</p></body></html>
"""


def _unavailable(exc: StoreUnavailable) -> ResponseReturnValue:
    log.error("game store unavailable: %s", exc)
    message = "The game database cannot be reached right now."
    try:
        from .errors import error_response
    except ImportError:
        error_response = None
    if error_response is not None:
        return error_response(503, message + " Nothing was lost; please try again in a moment.",
                              code="store-unavailable")
    if request.path.startswith("/api/"):
        return jsonify({"error": {"status": 503, "code": "store-unavailable",
                                  "message": message + " Please try again later."}}), 503
    return render_template_string(_UNAVAILABLE_PAGE, message=message), 503


def init_app(app: Flask) -> None:
    """Open the store for ``DATABASE_URL``, create or migrate its schema, register it on ``app``.

    A database that is down at start is not fatal: the server starts, answers 503 for what
    needs the database, and migrates on the first request that reaches it.
    """
    from .config import ConfigError

    url = app.config.get("DATABASE_URL")
    if not url:
        raise ConfigError("LCN_DATABASE_URL is empty: the site needs a database (sqlite:/// or postgresql://)")
    try:
        store = open_store(str(url))
    except ValueError as exc:
        raise ConfigError(f"LCN_DATABASE_URL: {exc}") from None
    try:
        store.ensure_schema()
    except StoreUnavailable as exc:
        log.warning("game store not reachable at start, will retry on first use: %s", exc)
    except StoreError as exc:
        store.close()
        raise ConfigError(f"LCN_DATABASE_URL: {exc}") from None
    app.extensions["lcn_store"] = store
    app.register_error_handler(StoreUnavailable, _unavailable)

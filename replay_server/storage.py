"""Where the site keeps games: SQLite (embedded default) or PostgreSQL, on SQLAlchemy Core.

A game's ID is derived from its canonical LCN text, so the same game always gets the same
link, storing it twice is harmless, and a stored text can never be replaced by another one:
a different text has a different ID. The site keeps no other state, which is what lets any
number of servers share one PostgreSQL database. Reading a game checks its text against its
ID, so a row changed behind the site's back is refused (503, logged) rather than served.

The tables are declared once (``metadata``); SQLAlchemy speaks each database's dialect, and
its pool bounds the connections of a process (``DB_POOL_SIZE`` + ``DB_MAX_OVERFLOW``; a
request that finds every connection busy waits, then answers 503). The schema is migrated
by Alembic (``replay_server/migrations``; ``lcn db upgrade``), expand then contract, and the
database records two numbers in ``lcn_schema``: its schema version and the oldest schema
version whose code still works on it. A server older than the database therefore keeps
running (a rollback works) until a contracting step says otherwise.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import logging
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask, current_app
from flask.typing import ResponseReturnValue
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine, make_url

from .config import ConfigError
from .errors import error_response

log = logging.getLogger(__name__)

#: Length of an ID: 12 bytes of SHA-256 (96 bits) in URL-safe base64 without padding.
ID_LENGTH = 16
_ID_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

#: The schema version this code migrates a database to (Alembic's head revision records it).
SCHEMA_VERSION = 2
#: The oldest schema version this code runs on: it needs only the ``games`` table.
SCHEMA_NEEDED = 1

DEFAULT_POOL_SIZE = 5
DEFAULT_MAX_OVERFLOW = 5
#: Seconds a request waits for a free pooled connection before answering 503.
DEFAULT_POOL_TIMEOUT = 10.0
#: Seconds the health check waits for the database.
HEALTH_TIMEOUT = 1.0

metadata = sa.MetaData()

#: Every stored file: its ID (the hash of ``lcn``), its canonical text, when it was stored.
games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.String(ID_LENGTH), primary_key=True),
    sa.Column("lcn", sa.Text, nullable=False),
    sa.Column("created_at", sa.String(32), nullable=False),
)

#: The schema version of the database and the oldest version whose code works on it.
lcn_schema = sa.Table(
    "lcn_schema", metadata,
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("compatible_from", sa.Integer, nullable=False),
)

#: 1.0's record of its schema, frozen at 1: 1.0 servers read it at start and refuse a
#: larger number, so it stays as it is until no 1.0 server can be running (a later
#: contracting step drops it).
legacy_schema_version = sa.Table(
    "schema_version", metadata,
    sa.Column("version", sa.Integer, nullable=False),
)


class StoreUnavailable(Exception):
    """The database cannot be reached (or answered with an error that is not the request's fault).

    The site answers 503 for it: the request may succeed later, and nothing was lost.
    """


class StoreCorrupt(StoreUnavailable):
    """The data is damaged: a file SQLite cannot read, or a row that no longer matches its ID
    (changed on disk). Refused and logged, never served; waiting will not mend it."""


class StoreError(Exception):
    """The database is reachable but not usable as it is (for example a newer schema)."""


class UnstorableText(ValueError):
    """A text no database stores as it is (a NUL character, a lone surrogate): the input's fault."""


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


def check_storable(text: str) -> None:
    """Refuse what one database would store and the other not, with the place and the fix.

    PostgreSQL's text cannot hold U+0000 (SQLite can), and a lone surrogate has no UTF-8
    form at all; refusing both here gives the same answer on every database.
    """
    position = text.find("\x00")
    what = "a NUL character (U+0000)"
    if position < 0:
        try:
            text.encode("utf-8")
            return
        except UnicodeEncodeError as exc:
            position = exc.start
            what = f"a lone surrogate (U+{ord(text[position]):04X}), which is not a character"
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    raise UnstorableText(f"line {line}, column {column}: the text holds {what}; game records "
                         "are text: remove it and send the file again")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _reason(exc: BaseException) -> str:
    """The driver's message, first line only: never the statement or its parameters."""
    original = getattr(exc, "orig", None) or exc
    text = str(original).strip().splitlines()
    return text[0] if text else type(original).__name__


def _after_fork(ref: weakref.ReferenceType[Store]) -> None:
    """In a forked worker (gunicorn --preload), drop the parent's pooled connections unclosed
    (their sockets belong to the parent, which goes on using them) and its health thread
    (threads do not survive a fork)."""
    store = ref()
    if store is not None:
        store.engine.dispose(close=False)
        store._health = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lcn-health")
        store._health_pending = None


class Store:
    """A place to keep canonical LCN texts under their IDs. Safe to share between threads.

    ``kind`` names the database in messages, ``where`` is its URL without the password.
    """

    kind = "SQL"
    #: Whether the database can only be read (an SQLite copy in a read-only directory).
    read_only = False

    def __init__(self, engine: Engine, where: str, *, upgrade: bool = True) -> None:
        self.engine = engine
        self.where = where
        #: Whether ``ensure_schema`` migrates (True) or only checks the schema (False).
        self.upgrade = upgrade
        self._schema_ready = False
        #: Whether the tables were found gone after the schema had been ready: from then on a
        #: schema this code cannot use is an outage of the running site (503), not a start error.
        self._schema_lost = False
        self._schema_lock = threading.Lock()
        self._health = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lcn-health")
        self._health_lock = threading.Lock()
        self._health_pending: Future[None] | None = None
        os.register_at_fork(after_in_child=functools.partial(_after_fork, weakref.ref(self)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.where!r})"

    # -- connections -------------------------------------------------------------------------

    def _unavailable_error(self, exc: sa_exc.DBAPIError) -> bool:
        """Whether a driver error means the database is not usable now (503), not a bug."""
        return bool(exc.connection_invalidated) or isinstance(
            exc, sa_exc.OperationalError | sa_exc.InterfaceError)

    def _check_same_database(self) -> None:
        """Raise StoreUnavailable when the database is no longer the one this store opened."""

    @contextmanager
    def _begin(self, **options: Any) -> Iterator[Connection]:
        """A pooled connection in a transaction; failures of the database become StoreUnavailable."""
        self._check_same_database()
        try:
            conn = self.engine.connect()
        except sa_exc.TimeoutError:
            raise StoreUnavailable(
                f"every connection to the {self.kind} database {self.where} is busy "
                f"({self.engine.pool.status()})") from None
        except (sa_exc.DBAPIError, OSError) as exc:
            damaged = isinstance(exc, sa_exc.DBAPIError) and self._damaged(exc)
            raise (StoreCorrupt if damaged else StoreUnavailable)(
                f"cannot {self._connect_verb} the {self.kind} database {self.where}: {_reason(exc)}") from exc
        try:
            if options:
                conn = conn.execution_options(**options)
            with conn.begin():
                yield conn
        except sa_exc.DBAPIError as exc:
            if _table_missing(exc):
                # Dropped (or the database recreated empty) under the running site: what
                # ensure_schema finds next time decides, as at a start (an empty database is
                # migrated, a partial one reported).
                self._schema_ready = False
                self._schema_lost = True
                raise StoreUnavailable(f"a table of the {self.kind} database {self.where} is gone: "
                                       f"{_reason(exc)}") from exc
            if self._damaged(exc):
                log.error("the %s database %s is damaged: %s", self.kind, self.where, _reason(exc))
                raise StoreCorrupt(
                    f"the {self.kind} database {self.where} is damaged: {_reason(exc)}") from exc
            if not self._unavailable_error(exc):
                raise
            raise StoreUnavailable(f"the {self.kind} database {self.where} failed: {_reason(exc)}") from exc
        finally:
            conn.close()

    _connect_verb = "connect to"

    def _damaged(self, exc: sa_exc.DBAPIError) -> bool:
        """Whether a driver error says the stored data itself is damaged."""
        return False

    # -- games -------------------------------------------------------------------------------

    def put(self, text: str) -> tuple[str, bool]:
        """Store ``text`` under ``game_id(text)``; return the ID and whether it was new.

        Idempotent: storing a text that is already there changes nothing and returns False.
        """
        if not isinstance(text, str) or not text:
            raise ValueError("a stored game must be a non-empty text")
        check_storable(text)
        if self.read_only:
            raise StoreUnavailable(f"the {self.kind} database {self.where} is open read-only "
                                   "(its directory cannot be written): no game is stored")
        self.ensure_schema()
        gid = game_id(text)
        statement = self._insert().values(id=gid, lcn=text, created_at=_now()).on_conflict_do_nothing(
            index_elements=[games.c.id]).returning(games.c.id)
        with self._begin() as conn:
            # RETURNING says whether the row was inserted (rowcount is not reliable for
            # INSERT ... ON CONFLICT with every driver).
            created = conn.execute(statement).first() is not None
        # Committed, but into the file this store opened: if the path names another one now
        # (deleted, renamed over), the game is lost at the next start: never acknowledged.
        self._check_same_database()
        if not created:
            existing = self._select(gid)
            if existing is not None and existing != text:
                self._verify(gid, existing)
                # Two different texts with the same 96-bit hash: never overwrite the first.
                raise StoreError(f"ID collision for {gid}: refusing to replace a stored game")
        return gid, created

    def get(self, id: str) -> str | None:
        """The text stored under ``id``, or None when there is none (or ``id`` is not an ID).

        Raises StoreCorrupt when the stored text does not hash to ``id``.
        """
        if not is_game_id(id):
            return None
        self.ensure_schema()
        text = self._select(id)
        if text is not None:
            self._verify(id, text)
        return text

    def count(self) -> int:
        """How many files are stored."""
        self.ensure_schema()
        with self._begin() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(games)).scalar_one())

    def _verify(self, gid: str, text: str) -> None:
        if game_id(text) != gid:
            log.error("stored game %s does not match its id (changed on disk?): refused", gid)
            raise StoreCorrupt(f"the stored game {gid} in the {self.kind} database {self.where} does "
                               "not match its id: it was changed outside the site")

    def _select(self, gid: str) -> str | None:
        with self._begin() as conn:
            row = conn.execute(sa.select(games.c.lcn).where(games.c.id == gid)).first()
        return None if row is None else str(row[0])

    def _insert(self) -> Any:
        raise NotImplementedError

    # -- schema ------------------------------------------------------------------------------

    def ensure_schema(self) -> None:
        """Migrate (or, when ``upgrade`` is off, check) the schema once; retried after an outage."""
        if self._schema_ready:
            return
        with self._schema_lock:
            if not self._schema_ready:
                try:
                    if self.upgrade:
                        self.migrate()
                    else:
                        self.check_schema()
                except StoreError as exc:
                    if self._schema_lost:
                        raise StoreUnavailable(str(exc)) from exc
                    raise
                self._schema_ready = True

    def versions(self) -> tuple[int, int]:
        """The database's schema version and the oldest version whose code works on it."""
        with self._begin() as conn:
            return _database_versions(conn, self.where)

    def schema_version(self) -> int:
        """The schema version of the database (0 for an empty one)."""
        return self.versions()[0]

    def check_schema(self) -> None:
        """Raise StoreError unless this code can run on the database as it is."""
        _check_usable(*self.versions(), where=self.where)

    def migrate(self) -> int:
        """Bring the schema to ``SCHEMA_VERSION`` with Alembic; return the version found before.

        One migration at a time across every process sharing the database (a PostgreSQL
        advisory lock, SQLite's write lock). A database newer than this code is left alone
        when this code still works on it, refused otherwise.
        """
        from alembic import command
        from alembic.config import Config

        with self._begin(lcn_write_lock=True) as conn:
            self._lock_for_migration(conn)
            before, compatible_from = _database_versions(conn, self.where)
            _check_usable(before, compatible_from, where=self.where, upgrading=True)
            if before < SCHEMA_VERSION:
                config = Config()
                config.set_main_option("script_location", "replay_server:migrations")
                config.attributes["connection"] = conn
                try:
                    command.upgrade(config, "head")
                except sa_exc.DBAPIError:
                    raise
                except Exception as exc:  # Alembic's own errors (an unknown revision...)
                    raise StoreError(f"cannot migrate the {self.kind} database {self.where}: {exc}") from exc
        return before

    def _lock_for_migration(self, conn: Connection) -> None:
        """Nothing: SQLite's migration transaction starts with BEGIN IMMEDIATE (its write lock)."""

    # -- operations --------------------------------------------------------------------------

    def ping(self, timeout: float = HEALTH_TIMEOUT) -> None:
        """Raise StoreUnavailable unless the database answers a read within ``timeout`` seconds.

        The read runs on a thread of its own, so a database that hangs costs the caller
        ``timeout`` at most; while one check hangs, the next ones answer at once.
        """
        with self._health_lock:
            pending = self._health_pending
            if pending is None or pending.done():
                pending = self._health_pending = self._health.submit(self._read_one)
            else:
                raise StoreUnavailable(f"the {self.kind} database {self.where} has not answered "
                                       "the previous health check yet")
        try:
            pending.result(timeout=timeout)
        except FutureTimeout:
            raise StoreUnavailable(f"the {self.kind} database {self.where} did not answer within "
                                   f"{timeout:g} s") from None
        except StoreError as exc:
            raise StoreUnavailable(str(exc)) from None

    def _read_one(self) -> None:
        self.ensure_schema()
        with self._begin() as conn:
            # The length of a text, so the table itself is read (not only its primary key).
            conn.execute(sa.select(sa.func.length(games.c.lcn)).limit(1)).all()

    def close(self) -> None:
        """Release every connection this store holds."""
        self._health.shutdown(wait=False)
        self.engine.dispose()


class SQLiteStore(Store):
    """A single file in the data directory, in WAL mode so readers never wait for a writer.

    pysqlite's own transaction handling is turned off and each transaction starts with an
    explicit BEGIN (SQLAlchemy's documented recipe), so that a migration can take the write
    lock first (BEGIN IMMEDIATE) and two processes starting together migrate one at a time.

    The store remembers which file it opened (device and inode). An open connection goes on
    writing into a file deleted or renamed over under it, and whatever it writes there is
    gone at the next start; so every transaction, and every write before it is acknowledged,
    first checks that the path still names that file, and a new connection never creates a
    file in place of the one that went away.

    An existing file in a directory this process cannot write is opened read-only: SQLite
    cannot create a WAL database's ``-shm`` there, so the file is read as unchanging
    (``immutable``). A non-empty ``-wal`` beside it cannot be read that way (its games would
    silently be missing): that is refused when the store is opened.
    """

    kind = "SQLite"
    _connect_verb = "open"

    def __init__(self, path: str, *, pool_size: int = DEFAULT_POOL_SIZE,
                 max_overflow: int = DEFAULT_MAX_OVERFLOW, pool_timeout: float = DEFAULT_POOL_TIMEOUT,
                 upgrade: bool = True) -> None:
        self.path = path
        self._identity: tuple[int, int] | None = None
        self._uri: str | None = None
        if path != ":memory:" and self._read_only_directory():
            self._uri = self._read_only_uri()
            self.read_only = True
            upgrade = False
        if path == ":memory:":
            # Shared cache, so every pooled connection sees the same in-memory database.
            url = f"sqlite:///file:lcn-memory-{os.getpid()}-{id(self)}?mode=memory&cache=shared&uri=true"
        else:
            url = f"sqlite:///{path}"
        engine = sa.create_engine(url, poolclass=sa.QueuePool, pool_size=pool_size,
                                  max_overflow=max_overflow, pool_timeout=pool_timeout,
                                  connect_args={"timeout": 30, "check_same_thread": False})
        event.listen(engine, "do_connect", self._before_connect)
        event.listen(engine, "connect", self._on_connect)
        event.listen(engine, "begin", _sqlite_on_begin)
        super().__init__(engine, path, upgrade=upgrade)

    def _read_only_directory(self) -> bool:
        path = Path(self.path)
        return path.is_file() and not os.access(path.absolute().parent, os.W_OK)

    def _read_only_uri(self) -> str:
        from urllib.parse import quote

        log_file = Path(self.path + "-wal")
        if log_file.exists() and log_file.stat().st_size > 0 and not Path(self.path + "-shm").exists():
            raise ValueError(
                f"the SQLite database {self.path} has a write-ahead log ({log_file.name}) but no "
                f"{Path(self.path).name}-shm, and its directory cannot be written, so SQLite cannot "
                "read the log: copy the database with its -wal file to a directory the server can "
                "write, or make the copy with `sqlite3 <database> \".backup <copy>\"`")
        # With the -shm there, SQLite reads the log through it; without it (a checkpointed
        # copy), the file alone is the whole database and is read as unchanging.
        options = "mode=ro" if Path(self.path + "-shm").exists() else "mode=ro&immutable=1"
        return f"file:{quote(str(Path(self.path).absolute()))}?{options}"

    def _identity_now(self) -> tuple[int, int] | None:
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            return None
        return status.st_dev, status.st_ino

    def _check_same_database(self) -> None:
        if self._identity is None:
            return  # not opened yet (or in memory)
        now = self._identity_now()
        if now == self._identity:
            return
        what = "deleted" if now is None else "replaced by another file"
        log.error("the SQLite database %s was %s while the site was running: nothing more is "
                  "read or stored until it is restored and the site restarted", self.path, what)
        raise StoreUnavailable(f"the SQLite database {self.path} was {what} while the site was "
                               "running: restore it and restart the site")

    def _before_connect(self, _dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> None:
        if self.path == ":memory:":
            return
        # Once a file was opened, a missing one is never created afresh in its place.
        self._check_same_database()
        if self._uri is not None:
            cargs[:1] = [self._uri]
            cparams["uri"] = True
        else:
            Path(self.path).absolute().parent.mkdir(parents=True, exist_ok=True)

    def _on_connect(self, dbapi_connection: Any, record: Any) -> None:
        _sqlite_on_connect(dbapi_connection, record, wal=not self.read_only)
        if self.path != ":memory:" and self._identity is None:
            self._identity = self._identity_now()

    def _damaged(self, exc: sa_exc.DBAPIError) -> bool:
        # A damaged file ("database disk image is malformed", "file is not a database") is
        # sqlite3.DatabaseError itself, where a busy or missing file is an OperationalError.
        return type(exc) is sa_exc.DatabaseError

    def _insert(self) -> Any:
        return sqlite_insert(games)


def _sqlite_on_connect(dbapi_connection: Any, _record: Any, *, wal: bool = True) -> None:
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA busy_timeout=30000")
        if not wal:  # a read-only file: its journal mode is what it is
            return
        # Turning WAL on needs the file's exclusive lock, and SQLite answers "database is
        # locked" at once, without its busy handler, to a connection that could deadlock by
        # waiting (several processes opening a new file together): try again for a while.
        deadline = time.monotonic() + 30
        while True:
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


def _sqlite_on_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("lcn_write_lock")
                         else "BEGIN")


class PostgresStore(Store):
    """PostgreSQL through psycopg 3: the store to use when several servers share one database.

    Pooled connections are checked before use (pre-ping), so one that broke while idle
    (server restarted, network) is replaced instead of failing the request.
    """

    kind = "PostgreSQL"

    def __init__(self, url: str, *, pool_size: int = DEFAULT_POOL_SIZE,
                 max_overflow: int = DEFAULT_MAX_OVERFLOW, pool_timeout: float = DEFAULT_POOL_TIMEOUT,
                 connect_timeout: int = 10, upgrade: bool = True) -> None:
        parsed = make_url(url).set(drivername="postgresql+psycopg")
        self.url = parsed.render_as_string(hide_password=True)
        connect_args = {} if "connect_timeout" in parsed.query else {"connect_timeout": connect_timeout}
        engine = sa.create_engine(parsed, pool_size=pool_size, max_overflow=max_overflow,
                                  pool_timeout=pool_timeout, pool_pre_ping=True,
                                  connect_args=connect_args, hide_parameters=True)
        super().__init__(engine, self.url, upgrade=upgrade)

    def _insert(self) -> Any:
        return postgresql_insert(games)

    def _lock_for_migration(self, conn: Connection) -> None:
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext('lcn schema migration'))"))


def _database_versions(conn: Connection, where: str) -> tuple[int, int]:
    tables = set(sa.inspect(conn).get_table_names())
    if "lcn_schema" in tables:
        row = conn.execute(sa.select(lcn_schema.c.version, lcn_schema.c.compatible_from)).first()
        if row is not None:
            if "games" not in tables:
                # Not an empty database to start afresh on: the games were there and are gone.
                log.error("the database %s has schema version %s but no games table", where, row[0])
                raise StoreUnavailable(
                    f"the table games is missing from the database {where}, whose schema says "
                    f"version {row[0]}: restore the database from a backup")
            return int(row[0]), int(row[1])
    if "games" in tables:
        return 1, 1  # 1.0's schema (its own record, schema_version, says 1)
    return 0, 0


def _table_missing(exc: sa_exc.DBAPIError) -> bool:
    """Whether the driver says a table does not exist (PostgreSQL's undefined_table, SQLite's
    "no such table")."""
    return (getattr(exc.orig, "sqlstate", None) == "42P01"
            or str(exc.orig).startswith("no such table"))


def _check_usable(version: int, compatible_from: int, *, where: str, upgrading: bool = False) -> None:
    if compatible_from > SCHEMA_VERSION:
        raise StoreError(
            f"the database {where} has schema version {version}, which works only with programs of "
            f"schema {compatible_from} or newer, newer than this program's {SCHEMA_VERSION}: "
            "upgrade the program before pointing it at this database")
    if version < SCHEMA_NEEDED and not upgrading:
        raise StoreError(
            f"the database {where} has schema version {version}; this program needs "
            f"{SCHEMA_NEEDED} or newer: run `lcn db upgrade` first")


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (sa_exc.ArgumentError, ValueError):
        return "<unreadable URL>"


def open_store(url: str, *, pool_size: int = DEFAULT_POOL_SIZE, max_overflow: int = DEFAULT_MAX_OVERFLOW,
               pool_timeout: float = DEFAULT_POOL_TIMEOUT, upgrade: bool = True) -> Store:
    """The store for a database URL: ``sqlite:///path`` or ``postgresql://...``.

    ``sqlite:///relative/path`` and ``sqlite:////absolute/path`` follow the usual convention
    (the path is what follows the third slash); ``sqlite://`` alone is an in-memory database.
    ``postgresql://``, ``postgres://`` and ``postgresql+psycopg://`` all use psycopg 3.
    """
    options: dict[str, Any] = {"pool_size": pool_size, "max_overflow": max_overflow,
                               "pool_timeout": pool_timeout, "upgrade": upgrade}
    if url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        if url.startswith("postgres://"):
            url = "postgresql://" + url[len("postgres://"):]
        try:
            return PostgresStore(url, **options)
        except (sa_exc.ArgumentError, ValueError) as exc:
            raise ValueError(f"database URL {redact(url)!r}: {_reason(exc)}") from None
    if url in ("sqlite://", "sqlite:///:memory:"):
        return SQLiteStore(":memory:", **options)
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if not path:
            raise ValueError(f"database URL {url!r}: expected a file path after sqlite:///")
        return SQLiteStore(path, **options)
    raise ValueError(
        f"database URL {redact(url)!r}: expected sqlite:///<path> or postgresql://<user>@<host>/<db>")


def store_options(config: Mapping[str, Any]) -> dict[str, Any]:
    """The pool and upgrade settings of an application's configuration, for ``open_store``."""
    return {"pool_size": int(config.get("DB_POOL_SIZE", DEFAULT_POOL_SIZE)),
            "max_overflow": int(config.get("DB_MAX_OVERFLOW", DEFAULT_MAX_OVERFLOW)),
            "pool_timeout": float(config.get("DB_POOL_TIMEOUT", DEFAULT_POOL_TIMEOUT)),
            "upgrade": bool(config.get("DB_UPGRADE", True))}


def get_store() -> Store:
    """The store of the current application."""
    store: Store = current_app.extensions["lcn_store"]
    return store


def _unavailable(exc: StoreUnavailable) -> ResponseReturnValue:
    if not isinstance(exc, StoreCorrupt):  # the store logged the damage when it found it
        log.error("game store unavailable: %s", exc)
    return error_response(503, "The game database cannot be reached right now. Nothing was lost; "
                          "please try again in a moment.", code="store-unavailable")


def _unstorable(exc: UnstorableText) -> ResponseReturnValue:
    return error_response(400, f"The game cannot be stored: {exc}", code="bad-input")


def init_app(app: Flask) -> None:
    """Open the store for ``DATABASE_URL``, migrate (or check) its schema, register it on ``app``.

    A database that is down at start is not fatal: the server starts, answers 503 for what
    needs the database, and migrates on the first request that reaches it. A database that
    cannot be used (damaged, too new, not upgraded) stops the start with a one-line error.
    """
    url = app.config.get("DATABASE_URL")
    if not url:
        raise ConfigError("LCN_DATABASE_URL is empty: the site needs a database (sqlite:/// or postgresql://)")
    try:
        store = open_store(str(url), **store_options(app.config))
    except ValueError as exc:
        raise ConfigError(f"LCN_DATABASE_URL: {exc}") from None
    try:
        store.ensure_schema()
    except StoreCorrupt as exc:
        store.close()
        raise ConfigError(f"LCN_DATABASE_URL: {exc}: restore it from a backup") from None
    except StoreUnavailable as exc:
        log.warning("game store not reachable at start, will retry on first use: %s", exc)
    except StoreError as exc:
        store.close()
        raise ConfigError(f"LCN_DATABASE_URL: {exc}") from None
    if store.read_only:
        log.warning("the game store %s is open read-only (its directory cannot be written): "
                    "games are served, uploads answer 503", store.where)
    app.extensions["lcn_store"] = store
    app.register_error_handler(StoreUnavailable, _unavailable)
    app.register_error_handler(UnstorableText, _unstorable)

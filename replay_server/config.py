"""The site's configuration: defaults, then ``LCN_*`` environment variables, then overrides.

Everything an operator sets comes from the environment so that the same code runs under
``lcn serve`` on a laptop and under gunicorn behind a proxy; tests pass a mapping instead.
Flask reads the variables (``Config.from_prefixed_env("LCN")``: ``LCN_DATA_DIR`` is
``DATA_DIR``, values that read as JSON become numbers or booleans); this module adds the
defaults and checks every value, naming the variable and what it expects.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any

from flask import Config

#: Two mebibytes: far above any real game file, small enough to refuse abuse early.
DEFAULT_MAX_CONTENT_LENGTH = 2 * 1024 * 1024
DEFAULT_RATELIMIT = "30 per minute"
#: At most this many games are validated for one request, and at most this many diagnostics
#: listed in one answer: the answer stays bounded whatever a request holds (a body of
#: two-byte games would otherwise answer hundreds of times its size).
DEFAULT_MAX_GAMES = 1000
DEFAULT_MAX_DIAGNOSTICS = 2000
#: Database connections per process: a pool of this many, plus this many more at peaks.
DEFAULT_DB_POOL_SIZE = 5
DEFAULT_DB_MAX_OVERFLOW = 5
DEFAULT_DB_POOL_TIMEOUT = 10

#: Settings that are texts even when they look like numbers.
_TEXTS = ("DATA_DIR", "DATABASE_URL", "RATELIMIT", "RATELIMIT_STORAGE_URI", "SAMPLES_DIR",
          "READ_RATELIMIT", "MOVES_RATELIMIT", "PREVIEW_RATELIMIT", "MOVES_TURNS_RATELIMIT", "BASE_URL",
          "QUEUE_URL")
#: The longest game the site replays (the notation allows 100,000 turns), and the most
#: positions one JSON document of every position may hold: what one read costs stays bounded.
DEFAULT_MAX_REPLAY_TURNS = 50_000
DEFAULT_MAX_DOCUMENT_POSITIONS = 20_000
#: The budget of reads that cost CPU (replays of long files not yet rendered), per client.
DEFAULT_READ_RATELIMIT = "60 per minute"
#: The budget of the legal moves (POST /api/v1/moves) in turns read, per client: each request
#: reads and replays its whole record (half a second of CPU at 100,000 turns), so requests
#: alone are no measure of the work. A recorder at the table asks for a few thousand turns a
#: minute; this budget is about half a second of CPU a minute.
DEFAULT_MOVES_TURNS_RATELIMIT = "100000 per minute"
#: The site's budget of an analysis (POST /api/v1/analysis): playouts a decision and the seed,
#: so that a job costs a bounded time and a game always gets the same analysis; and the most
#: jobs waiting on the queue before more are refused (503).
DEFAULT_ANALYSIS_PLAYOUTS = 300
DEFAULT_ANALYSIS_SEED = 1
DEFAULT_ANALYSIS_QUEUE = 50


class ConfigError(ValueError):
    """An environment variable whose value cannot be used; the message names it."""


def default_data_dir(environ: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/lcn``, or ``~/.local/share/lcn`` when XDG_DATA_HOME is unset."""
    base = environ.get("XDG_DATA_HOME")
    if base:
        return Path(base) / "lcn"
    return Path.home() / ".local" / "share" / "lcn"


def _int(name: str, value: Any, *, minimum: int = 1, what: str = "bytes") -> int:
    if isinstance(value, bool):
        number = -1
    elif isinstance(value, int):
        number = value
    else:
        try:
            number = int(str(value).strip().replace("_", ""))
        except ValueError:
            raise ConfigError(f"LCN_{name}={value!r}: expected a whole number of {what}") from None
    if number < minimum:
        least = "a positive" if minimum == 1 else f"at least {minimum}, a"
        raise ConfigError(f"LCN_{name}={value!r}: expected {least} number of {what}")
    return number


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off", "", "none"):
        return False
    raise ConfigError(f"LCN_{name}={value!r}: expected 1/0, true/false, yes/no or on/off")


def check_config(config: MutableMapping[str, Any], *, form_limit_set: bool = False) -> None:
    """Fill in the defaults and check every value of ``config`` in place.

    The data directory is created when missing, since the default SQLite database lives
    there.
    """
    for name in _TEXTS:
        if config.get(name) is not None:
            config[name] = str(config[name])
    data_dir = Path(config["DATA_DIR"]) if config.get("DATA_DIR") else default_data_dir(os.environ)
    data_dir = data_dir.expanduser()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"LCN_DATA_DIR={str(data_dir)!r}: cannot create the data directory: "
                          f"{exc.strerror or exc}") from None
    config["DATA_DIR"] = str(data_dir)
    if not config.get("DATABASE_URL"):
        config["DATABASE_URL"] = f"sqlite:///{data_dir / 'lcn.sqlite3'}"

    numbers = (("MAX_CONTENT_LENGTH", DEFAULT_MAX_CONTENT_LENGTH, 1, "bytes"),
               ("MAX_GAMES", DEFAULT_MAX_GAMES, 1, "games"),
               ("MAX_DIAGNOSTICS", DEFAULT_MAX_DIAGNOSTICS, 1, "diagnostics"),
               ("MAX_REPLAY_TURNS", DEFAULT_MAX_REPLAY_TURNS, 1, "turns"),
               ("MAX_DOCUMENT_POSITIONS", DEFAULT_MAX_DOCUMENT_POSITIONS, 1, "positions"),
               ("DB_POOL_SIZE", DEFAULT_DB_POOL_SIZE, 1, "connections"),
               ("DB_MAX_OVERFLOW", DEFAULT_DB_MAX_OVERFLOW, 0, "connections"),
               ("DB_POOL_TIMEOUT", DEFAULT_DB_POOL_TIMEOUT, 1, "seconds"),
               ("ANALYSIS_PLAYOUTS", DEFAULT_ANALYSIS_PLAYOUTS, 1, "playouts"),
               ("ANALYSIS_SEED", DEFAULT_ANALYSIS_SEED, 0, "seed"),
               ("ANALYSIS_QUEUE", DEFAULT_ANALYSIS_QUEUE, 1, "jobs"))
    for name, default, minimum, what in numbers:
        value = config.get(name)
        config[name] = default if value is None else _int(name, value, minimum=minimum, what=what)
    for name, default in (("RATELIMIT_ENABLED", True), ("DB_UPGRADE", True), ("METRICS", False),
                          ("REQUEST_LOG", True)):
        value = config.get(name)
        config[name] = default if value is None else _bool(name, value)
    if not config.get("RATELIMIT"):
        config["RATELIMIT"] = DEFAULT_RATELIMIT
    if not config.get("RATELIMIT_STORAGE_URI"):
        config["RATELIMIT_STORAGE_URI"] = "memory://"
    if not config.get("READ_RATELIMIT"):
        config["READ_RATELIMIT"] = DEFAULT_READ_RATELIMIT
    if not config.get("MOVES_TURNS_RATELIMIT"):
        config["MOVES_TURNS_RATELIMIT"] = DEFAULT_MOVES_TURNS_RATELIMIT
    # The site's address as people reach it (https://lcn.example.org): share, embed and
    # permalink links are made with it; unset, pages carry relative links.
    config["BASE_URL"] = str(config.get("BASE_URL") or "").strip().rstrip("/") or None
    # The analyses' task queue: empty is an SQLite file in the data directory
    # (replay_server.queue); redis://... or postgresql://... in production.
    config["QUEUE_URL"] = str(config.get("QUEUE_URL") or "").strip()
    if config["ANALYSIS_PLAYOUTS"] > 1_000_000:
        raise ConfigError(f"LCN_ANALYSIS_PLAYOUTS={config['ANALYSIS_PLAYOUTS']!r}: expected at most "
                          "1000000 playouts")
    if not config.get("SAMPLES_DIR"):
        config["SAMPLES_DIR"] = None
    # A pasted game is a form field: let it be as large as an uploaded file may be (Flask's
    # own limit for form fields is far smaller).
    if not form_limit_set:
        config["MAX_FORM_MEMORY_SIZE"] = config["MAX_CONTENT_LENGTH"]


def load_config(overrides: Mapping[str, Any] | None = None, config: Config | None = None) -> Config:
    """The configuration of one app: defaults < ``LCN_*`` variables < ``overrides``, checked.

    ``config`` is the application's (``app.config``), or a new one. Unknown ``LCN_*``
    variables are kept (without the prefix) so that parts of the site can read their own
    settings.
    """
    if config is None:
        config = Config(os.getcwd())
    config.from_prefixed_env("LCN")
    config.update(overrides or {})
    check_config(config, form_limit_set="MAX_FORM_MEMORY_SIZE" in (overrides or {})
                 or "LCN_MAX_FORM_MEMORY_SIZE" in os.environ)
    return config

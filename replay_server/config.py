"""The site's configuration: defaults, then ``LCN_*`` environment variables, then overrides.

Everything an operator sets comes from the environment so that the same code runs under
``lcn serve`` on a laptop and under gunicorn behind a proxy; tests pass a mapping instead.
Keys in the mapping and in ``app.config`` drop the ``LCN_`` prefix (``LCN_DATA_DIR`` is
``DATA_DIR``).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: Two mebibytes: far above any real game file, small enough to refuse abuse early.
DEFAULT_MAX_CONTENT_LENGTH = 2 * 1024 * 1024
DEFAULT_RATELIMIT = "30 per minute"
#: At most this many games are validated for one request, and at most this many diagnostics
#: listed in one answer: the answer stays bounded whatever a request holds (a body of
#: two-byte games would otherwise answer hundreds of times its size).
DEFAULT_MAX_GAMES = 1000
DEFAULT_MAX_DIAGNOSTICS = 2000
#: The longest game the site replays (the notation allows 100,000 turns), and the most
#: positions one JSON document of every position may hold: what one read costs stays bounded.
DEFAULT_MAX_REPLAY_TURNS = 50_000
DEFAULT_MAX_DOCUMENT_POSITIONS = 20_000
#: The budget of reads that cost CPU (replays of long files not yet rendered), per client.
DEFAULT_READ_RATELIMIT = "60 per minute"


class ConfigError(ValueError):
    """An environment variable whose value cannot be used; the message names it."""


def default_data_dir(environ: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/lcn``, or ``~/.local/share/lcn`` when XDG_DATA_HOME is unset."""
    base = environ.get("XDG_DATA_HOME")
    if base:
        return Path(base) / "lcn"
    return Path.home() / ".local" / "share" / "lcn"


def _int(name: str, value: str) -> int:
    try:
        number = int(value.strip().replace("_", ""))
    except ValueError:
        raise ConfigError(f"{name}={value!r}: expected a whole number of bytes") from None
    if number <= 0:
        raise ConfigError(f"{name}={value!r}: expected a positive number of bytes")
    return number


def _bool(name: str, value: str) -> bool:
    text = value.strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off", ""):
        return False
    raise ConfigError(f"{name}={value!r}: expected 1/0, true/false, yes/no or on/off")


def _secret_key(data_dir: Path) -> str:
    """A key kept in the data directory, so every worker and every restart shares it."""
    path = data_dir / "secret_key"
    try:
        existing = path.read_text(encoding="utf-8").strip()
    except OSError:
        existing = ""
    if existing:
        return existing
    key = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another worker wrote it first: use theirs
        return path.read_text(encoding="utf-8").strip() or key
    except OSError:
        return key
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(key + "\n")
    return key


def load_config(overrides: Mapping[str, Any] | None = None,
                environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The configuration of one app: defaults < ``LCN_*`` variables < ``overrides``.

    The data directory is created when missing, since the default SQLite database lives
    there. Unknown ``LCN_*`` variables are passed through as strings (without the prefix)
    so that parts of the site can read their own settings.
    """
    env = os.environ if environ is None else environ
    overrides = dict(overrides or {})
    config: dict[str, Any] = {}
    for name, value in env.items():
        if name.startswith("LCN_") and len(name) > 4:
            config[name[4:]] = value

    if "DATA_DIR" in overrides:
        data_dir = Path(overrides["DATA_DIR"])
    elif config.get("DATA_DIR"):
        data_dir = Path(config["DATA_DIR"])
    else:
        data_dir = default_data_dir(env)
    data_dir = data_dir.expanduser()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"LCN_DATA_DIR={str(data_dir)!r}: cannot create the data directory: "
                          f"{exc.strerror or exc}") from None
    config["DATA_DIR"] = str(data_dir)

    config.setdefault("DATABASE_URL", f"sqlite:///{data_dir / 'lcn.sqlite3'}")
    if "MAX_CONTENT_LENGTH" in config:
        config["MAX_CONTENT_LENGTH"] = _int("LCN_MAX_CONTENT_LENGTH", config["MAX_CONTENT_LENGTH"])
    else:
        config["MAX_CONTENT_LENGTH"] = DEFAULT_MAX_CONTENT_LENGTH
    if not config.get("RATELIMIT"):
        config["RATELIMIT"] = DEFAULT_RATELIMIT
    if not config.get("RATELIMIT_STORAGE_URI"):
        config["RATELIMIT_STORAGE_URI"] = "memory://"
    if "RATELIMIT_ENABLED" in config:
        config["RATELIMIT_ENABLED"] = _bool("LCN_RATELIMIT_ENABLED", config["RATELIMIT_ENABLED"])
    else:
        config["RATELIMIT_ENABLED"] = True
    if not config.get("READ_RATELIMIT"):
        config["READ_RATELIMIT"] = DEFAULT_READ_RATELIMIT
    # The site's address as people reach it (https://lcn.example.org): share, embed and
    # permalink links are made with it; unset, pages carry relative links.
    config["BASE_URL"] = str(config.get("BASE_URL") or "").strip().rstrip("/") or None
    for name, default in (("MAX_GAMES", DEFAULT_MAX_GAMES),
                          ("MAX_DIAGNOSTICS", DEFAULT_MAX_DIAGNOSTICS),
                          ("MAX_REPLAY_TURNS", DEFAULT_MAX_REPLAY_TURNS),
                          ("MAX_DOCUMENT_POSITIONS", DEFAULT_MAX_DOCUMENT_POSITIONS)):
        config[name] = _int(f"LCN_{name}", config[name]) if name in config else default
    if not config.get("SAMPLES_DIR"):
        config["SAMPLES_DIR"] = None

    config.update(overrides)
    # A pasted game is a form field: let it be as large as an uploaded file may be (Flask's
    # own limit for form fields is far smaller).
    config.setdefault("MAX_FORM_MEMORY_SIZE", config["MAX_CONTENT_LENGTH"])
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = _secret_key(data_dir)
    return config

"""The replay site: paste, upload or import a game and replay it turn by turn.

``create_app()`` is the application factory (``gunicorn 'replay_server:create_app()'``).
Configuration comes from ``LCN_*`` environment variables (see :mod:`replay_server.config`);
a mapping passed to the factory overrides them (tests use this).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.routing import BaseConverter

from .config import load_config

PACKAGE_DIR = Path(__file__).resolve().parent


class GameIdConverter(BaseConverter):
    """A stored game's id: URL-safe base64 without dots, so ``/g/<id>.lcn`` is unambiguous."""

    regex = r"[A-Za-z0-9_-]{1,64}"


def _asset_version() -> str:
    """A short hash of the templates and static files.

    It tags static URLs and the ETags of cached pages, so that a new release never serves
    pages or assets cached under the old one.
    """
    digest = hashlib.sha256()
    for folder in ("templates", "static"):
        root = PACKAGE_DIR / folder
        for path in sorted(root.rglob("*")) if root.is_dir() else ():
            if path.is_file() and not path.name.startswith("_bench_"):
                digest.update(str(path.relative_to(PACKAGE_DIR)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the site: configuration, storage, security, error pages and the blueprints."""
    app = Flask(__name__)
    load_config(config, app.config)
    app.config.setdefault("ASSET_VERSION", _asset_version())
    app.url_map.converters["gid"] = GameIdConverter
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.json.sort_keys = False  # type: ignore[attr-defined]

    # The site's modules are imported when an application is made, not with the package: the
    # command imports replay_server.config and replay_server.storage alone (lcn db, lcn serve's
    # checks), without the blueprints and what they load (Pillow, apispec, Pygments, Babel).
    # Nothing below imports this package back: the modules import downward only
    # (tests/test_site_layers.py).
    from . import i18n, security, storage

    i18n.init_app(app)

    storage.init_app(app)
    security.init_app(app)

    from . import api, errors, moves_api, ops, pages, preview, record, sharing  # noqa: F401 (moves_api adds a route to api.bp)

    errors.init_app(app)
    ops.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(sharing.bp)
    app.register_blueprint(preview.bp)
    app.register_blueprint(record.bp)
    return app


__all__ = ["create_app"]

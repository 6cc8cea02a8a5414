"""Support for the site's tests: an app on a temporary data directory, a live server in a
thread, and a real browser (Debian's chromium driven by Playwright) that records every
console error and page error so a test can assert there were none.

Plain functions and context managers, so any test module can use them with its own
fixtures::

    from site_support import browser_page, live_server, make_app

    app = make_app(tmp_path)
    with live_server(app) as base, browser_page() as (page, errors):
        page.goto(base + "/")
        assert errors.messages == []
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werkzeug.serving import WSGIRequestHandler, make_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "samples"


def make_app(data_dir: Path | str, config: Mapping[str, Any] | None = None) -> Any:
    """An app on its own data directory and SQLite database, in testing mode.

    Rate limits are off unless the config turns them on, so that tests that post many
    games do not trip them.
    """
    from replay_server import create_app

    data_dir = Path(data_dir)
    settings: dict[str, Any] = {
        "TESTING": True,
        "DATA_DIR": str(data_dir),
        "DATABASE_URL": f"sqlite:///{data_dir / 'lcn.sqlite3'}",
        "SECRET_KEY": "test-secret",
        "RATELIMIT_ENABLED": False,
        "RATELIMIT_STORAGE_URI": "memory://",
    }
    settings.update(config or {})
    return create_app(settings)


class _QuietHandler(WSGIRequestHandler):
    """No access log lines in the test output."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return None


@contextmanager
def live_server(app: Any) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 on a free port in a thread; yields the base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@dataclass
class ConsoleErrors:
    """Console messages of type error and uncaught page errors, as text."""

    messages: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.on("console", self._console)
        page.on("pageerror", self._page_error)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            location = message.location or {}
            where = location.get("url", "")
            self.messages.append(f"console: {message.text} ({where})")

    def _page_error(self, error: Any) -> None:
        self.messages.append(f"page error: {error}")


def require_chromium() -> None:
    """Fail (not skip) with a clear message when the browser is missing: scripts/test installs it."""
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        raise AssertionError(f"{CHROMIUM} is missing: run scripts/test, which installs Debian's "
                             "chromium, or apt-get install chromium")


@contextmanager
def browser() -> Iterator[Any]:
    """A headless chromium driven by Playwright's sync API."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                              headless=True)
        try:
            yield instance
        finally:
            instance.close()


@contextmanager
def browser_page(instance: Any = None, *, java_script: bool = True,
                 viewport: tuple[int, int] = (1280, 900)) -> Iterator[tuple[Any, ConsoleErrors]]:
    """A fresh page (its own context) and the collector of its console errors.

    Pass a browser from :func:`browser` to share one across pages; without one, a browser
    is started for this page alone.
    """
    with contextmanager(_own_browser)(instance) as chosen:
        context = chosen.new_context(java_script_enabled=java_script,
                                     viewport={"width": viewport[0], "height": viewport[1]})
        try:
            page = context.new_page()
            errors = ConsoleErrors()
            errors.attach(page)
            yield page, errors
        finally:
            context.close()


def _own_browser(instance: Any) -> Iterator[Any]:
    if instance is not None:
        yield instance
        return
    with browser() as started:
        yield started


def sample_text(relative: str) -> str:
    """The text of a sample file, e.g. ``sample_text("classic/rulebook-scoring.lcn")``."""
    return (SAMPLES / relative).read_text(encoding="utf-8")

"""Security headers, framing, size limits and the write rate limit."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import lcn
from replay_server.security import CSP, CSP_FRAMEABLE
from replay_server.sharing import encode_link

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
GAME = lcn.write_games(lcn.read_games((SAMPLES / "classic" / "rulebook-scoring.lcn").read_text()))
assert GAME is not None


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    from site_support import make_app

    application = make_app(tmp_path)
    yield application
    application.extensions["lcn_store"].close()


def _limited_app(tmp_path: Path, limit: str, **config: Any) -> Any:
    from site_support import make_app

    return make_app(tmp_path, {"RATELIMIT_ENABLED": True, "RATELIMIT": limit, **config})


def _pages(app: Any) -> dict[str, str]:
    gid, _ = app.extensions["lcn_store"].put(GAME)
    token = encode_link(GAME)
    return {"home": "/", "replay": f"/g/{gid}?turn=3", "link": f"/v?g={token}",
            "download": f"/g/{gid}.lcn", "api": f"/api/v1/games/{gid}", "missing": "/g/AAAAAAAAAAAAAAAA",
            "bad link": "/v?g=AAAA", "static": "/static/share.js"}


def test_every_response_has_the_security_headers(app: Any) -> None:
    client = app.test_client()
    for name, path in _pages(app).items():
        response = client.get(path)
        assert response.status_code < 500, name
        headers = response.headers
        assert headers["Content-Security-Policy"] == CSP, name
        assert headers["X-Frame-Options"] == "DENY", name
        assert headers["X-Content-Type-Options"] == "nosniff", name
        assert headers["Referrer-Policy"] == "same-origin", name


def test_the_policy_forbids_inline_code_and_foreign_frames() -> None:
    for policy in (CSP, CSP_FRAMEABLE):
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == "'self'"
        assert directives["style-src"] == "'self'"
        assert directives["default-src"] == "'self'"
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in CSP
    assert "frame-ancestors *" in CSP_FRAMEABLE


def test_only_embeds_may_be_framed(app: Any) -> None:
    gid, _ = app.extensions["lcn_store"].put(GAME)
    client = app.test_client()
    for path in (f"/embed/{gid}", f"/embed/{gid}?turn=4", f"/embed/v?g={encode_link(GAME)}"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["Content-Security-Policy"] == CSP_FRAMEABLE
        assert "X-Frame-Options" not in response.headers
    for path in (f"/g/{gid}", f"/v?g={encode_link(GAME)}", "/"):
        assert "frame-ancestors 'none'" in client.get(path).headers["Content-Security-Policy"]


class _InlineFinder(HTMLParser):
    """Collects what the policy would block: inline scripts, inline styles, handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "style":
            self.problems.append("<style> block")
        if "style" in names:
            self.problems.append(f"style= on <{tag}>")
        self.problems.extend(f"{k}= on <{tag}>" for k in names if k.startswith("on"))
        if tag == "script":
            data_only = names.get("type") == "application/json"
            if not names.get("src") and not data_only:
                self.problems.append("inline <script>")
        for key in ("href", "src", "action"):
            value = names.get(key) or ""
            if value.strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL in <{tag} {key}>")


def test_no_page_relies_on_inline_code(app: Any) -> None:
    gid, _ = app.extensions["lcn_store"].put(GAME)
    client = app.test_client()
    for path in ("/", f"/g/{gid}?turn=3", f"/embed/{gid}", f"/v?g={encode_link(GAME)}",
                 "/v?g=AAAA", "/g/AAAAAAAAAAAAAAAA"):
        response = client.get(path)
        finder = _InlineFinder()
        finder.feed(response.get_data(as_text=True))
        assert finder.problems == [], path


def test_writes_over_the_size_limit_are_413(tmp_path: Path) -> None:
    from site_support import make_app

    app = make_app(tmp_path, {"MAX_CONTENT_LENGTH": 4096})
    client = app.test_client()
    big = "x" * 8192
    cases = [
        ("/annotate", {"data": {"g": encode_link(GAME), "comment-1": big}}),
        ("/", {"data": {"text": big}}),
        ("/api/v1/games", {"data": big, "content_type": "text/plain"}),
        ("/api/v1/validate", {"data": big, "content_type": "text/plain"}),
    ]
    for path, kwargs in cases:
        response = client.post(path, **kwargs)
        assert response.status_code == 413, path
        body = response.get_data(as_text=True)
        assert "4096" in body, path
        if path.startswith("/api/"):
            assert response.get_json()["error"]["status"] == 413
    app.extensions["lcn_store"].close()


def test_write_paths_share_one_rate_limit_per_client(tmp_path: Path) -> None:
    app = _limited_app(tmp_path, "3 per minute")
    client = app.test_client()
    token = encode_link(GAME)
    statuses = [
        client.post("/annotate", data={"g": token, "comment-1": "one"}).status_code,
        client.post("/api/v1/validate", data=GAME, content_type="text/plain").status_code,
        client.post("/annotate", data={"g": token, "comment-1": "three"}).status_code,
    ]
    assert 429 not in statuses
    page = client.post("/annotate", data={"g": token, "comment-1": "four"})
    assert page.status_code == 429
    assert "Too many writes" in page.get_data(as_text=True)
    assert "3 per 1 minute" in page.get_data(as_text=True)
    assert int(page.headers["Retry-After"]) > 0
    api = client.post("/api/v1/games", data=GAME, content_type="text/plain")
    assert api.status_code == 429
    assert api.get_json()["error"]["code"] == "rate-limited"
    # Reading is never limited.
    assert client.get("/").status_code == 200
    assert client.get(f"/v?g={token}").status_code == 200
    # Another client has its own budget.
    other = client.post("/annotate", data={"g": token, "comment-1": "other"},
                        environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 303
    app.extensions["lcn_store"].close()


def test_behind_a_trusted_proxy_the_forwarded_client_is_counted(tmp_path: Path) -> None:
    app = _limited_app(tmp_path, "1 per minute", TRUSTED_PROXIES=1)
    client = app.test_client()
    token = encode_link(GAME)

    def post(client_ip: str) -> int:
        return int(client.post("/annotate", data={"g": token},
                               headers={"X-Forwarded-For": client_ip}).status_code)

    assert post("198.51.100.1") == 303
    assert post("198.51.100.1") == 429
    assert post("198.51.100.2") == 303
    app.extensions["lcn_store"].close()


@pytest.mark.parametrize("value", ["many", "-1", "1.5"])
def test_a_bad_proxy_count_is_a_clear_error(tmp_path: Path, value: str) -> None:
    from site_support import make_app

    with pytest.raises(ValueError, match=r"LCN_TRUSTED_PROXIES=.*expected the number of reverse proxies"):
        make_app(tmp_path, {"TRUSTED_PROXIES": value})


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_unavailable_database_is_a_clear_503(tmp_path: Path, kind: str) -> None:
    import socket

    from site_support import make_app

    if kind == "sqlite":
        (tmp_path / "file").write_text("not a directory")
        url = f"sqlite:///{tmp_path}/file/lcn.sqlite3"
    else:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        url = f"postgresql://nobody:secret@127.0.0.1:{port}/lcn"
    app = make_app(tmp_path, {"DATABASE_URL": url})  # starts: the database may come back
    client = app.test_client()
    page = client.get("/g/AAAAAAAAAAAAAAAA")
    assert page.status_code == 503
    assert "database" in page.get_data(as_text=True)
    api = client.post("/api/v1/games", data=GAME, content_type="text/plain")
    assert api.status_code == 503
    assert api.get_json()["error"]["code"] == "store-unavailable"
    assert re.search("try again", api.get_json()["error"]["message"])
    assert "secret" not in page.get_data(as_text=True) + api.get_data(as_text=True)


def test_another_site_can_frame_an_embed_but_no_other_page(tmp_path: Path) -> None:
    from flask import Flask
    from site_support import browser_page, live_server, make_app

    app = make_app(tmp_path)
    gid, _ = app.extensions["lcn_store"].put(GAME)
    with live_server(app) as site:
        # Another origin (another port): a page of a blog that frames two pages of the site.
        blog = Flask("blog")

        @blog.get("/")
        def framing_page() -> str:
            return (f'<!doctype html><title>blog</title>'
                    f'<iframe name="embed" src="{site}/embed/{gid}?turn=3" width="600" height="400"></iframe>'
                    f'<iframe name="page" src="{site}/g/{gid}?turn=3" width="600" height="400"></iframe>')

        with live_server(blog) as other, browser_page() as (page, errors):
            assert other.rsplit(":", 1)[1] != site.rsplit(":", 1)[1]
            page.goto(other + "/")
            page.frame_locator("iframe[name=embed]").locator("#replay").wait_for(state="attached")
            embed = page.frame(name="embed")
            assert embed is not None and embed.url.startswith(f"{site}/embed/")
            assert embed.evaluate("document.querySelector('#replay') !== null")
            blocked = page.frame(name="page")
            assert blocked is not None
            # Chromium replaces a refused frame with its error page: the site's page is not there.
            blocked.wait_for_load_state()
            assert not blocked.url.startswith(f"{site}/g/") or \
                not blocked.evaluate("document.querySelector('#replay') !== null")
            assert any("frame-ancestors" in message for message in errors.messages), errors.messages
    app.extensions["lcn_store"].close()

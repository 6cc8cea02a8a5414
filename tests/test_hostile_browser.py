"""Script payloads in names, tags and comments never run in a real browser.

Games whose player names, tags and comments carry HTML and script payloads are stored, linked,
embedded, annotated and pasted back (as a broken game, so the page shows its source), and each
page is opened in Debian's chromium twice: as served, and with the Content-Security-Policy
header stripped, so that escaping alone must keep every payload inert. A payload that runs sets
``window.__pwned`` (or opens a dialog); one that is parsed as HTML leaves an element with an
event handler in the DOM. A control page shows that the same payloads do run when they are
not escaped, and another that the policy blocks an inline script the escaping would not.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from site_support import browser, browser_page, live_server, make_app

from lcn import write_game, write_games
from lcn.variants import classic_play

PAYLOADS = [
    '<script>window.__pwned="script"</script>',
    '<img src=x onerror="window.__pwned=\'img\'">',
    '<svg onload="window.__pwned=\'svg\'"></svg>',
    '"><script>window.__pwned="attribute"</script>',
    "'><img src=x onerror=window.__pwned='quote'>",
    '</textarea><script>window.__pwned="textarea"</script>',
    '</title><script>window.__pwned="title"</script>',
    '<a href="javascript:window.__pwned=\'href\'" id="pwn-link">x</a>',
    '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
    "{{ 7*191 }}{% if 1 %}jinja{% endif %}",
    '<details open ontoggle="window.__pwned=\'details\'">',
    '<body onload="window.__pwned=\'body\'">',
    '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=1">',
    "javascript:window.__pwned='bare'",
]

#: Elements and attributes a payload would leave if it were parsed as HTML.
PARSED = """() => {
    const handlers = [...document.querySelectorAll('*')].filter(
        el => [...el.attributes].some(a => a.name.startsWith('on')));
    return {
        handlers: handlers.map(el => el.outerHTML.slice(0, 120)),
        iframes: document.querySelectorAll('iframe[srcdoc]').length,
        links: document.querySelectorAll('#pwn-link, a[href^="javascript:"]').length,
        metas: document.querySelectorAll('meta[http-equiv]').length,
        inline: [...document.scripts].filter(s => !s.src).map(s => s.text.slice(0, 80)),
        pwned: window.__pwned === undefined ? null : String(window.__pwned),
    };
}"""


def hostile_game(seed: int, first: str, second: str) -> str:
    record = classic_play.random_game(seed, names=(first, second))
    record.tags["Event"] = PAYLOADS[0]
    record.tags["Site"] = PAYLOADS[6]
    record.tags["Annotator"] = PAYLOADS[9]
    record.tags["Remark"] = PAYLOADS[5]
    record.intro_comments = [PAYLOADS[2], PAYLOADS[8]]
    for index, turn in enumerate(record.turns[:len(PAYLOADS)]):
        turn.comments = [PAYLOADS[index]]
    record.closing_comments = [PAYLOADS[10]]
    return write_game(record)


GAME = hostile_game(21, PAYLOADS[0], PAYLOADS[1])
SECOND = hostile_game(22, PAYLOADS[3], PAYLOADS[4])


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as instance:
        yield instance


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """The live site with the hostile games stored, and the pages to visit."""
    from replay_server.sharing import encode_link

    app = make_app(tmp_path_factory.mktemp("browser"))
    client = app.test_client()
    one = client.post("/api/v1/games", json={"lcn": GAME})
    assert one.status_code == 201, one.get_data(as_text=True)[:500]
    both = client.post("/api/v1/games", json={"lcn": write_games([_record(GAME), _record(SECOND)])})
    assert both.status_code == 201, both.get_data(as_text=True)[:500]
    game_id, file_id = one.get_json()["id"], both.get_json()["id"]
    annotated = client.post("/annotate", data={
        "source": game_id, "game": "1", "annotator": PAYLOADS[7], "game_comment": PAYLOADS[12],
        "comment-1": PAYLOADS[11], "comment-2": PAYLOADS[13], "format": "json"})
    assert annotated.status_code == 201, annotated.get_data(as_text=True)[:500]
    annotated_id = annotated.get_json()["id"]
    token = encode_link(client.get(f"/g/{game_id}.lcn").get_data(as_text=True))
    pages = {
        "replay": f"/g/{game_id}",
        "replay at a turn": f"/g/{game_id}?turn=7&view=1",
        "file of two games": f"/g/{file_id}",
        "second game": f"/g/{file_id}?game=2&turn=3",
        "annotated": f"/g/{annotated_id}",
        "embed": f"/embed/{game_id}?turn=4",
        "self-contained link": f"/v?g={token}",
        "embedded link": f"/embed/v?g={token}",
        "API document": f"/api/v1/games/{game_id}",
        "not found": "/" + quote(PAYLOADS[0]) + "?x=" + quote(PAYLOADS[1]),
        "bad query": f"/g/{game_id}?turn=" + quote(PAYLOADS[1]),
    }
    with live_server(app) as base:
        yield base, pages


def _record(text: str) -> Any:
    from lcn import read_game

    return read_game(text)


def _strip_policy(page: Any) -> None:
    """Serve every page without its Content-Security-Policy: escaping alone must hold."""
    from playwright.sync_api import Error

    def handle(route: Any) -> None:
        try:
            response = route.fetch()
            headers = {k: v for k, v in response.headers.items()
                       if k.lower() != "content-security-policy"}
            route.fulfill(response=response, body=response.body(), headers=headers)
        except Error:  # the page moved on (or closed) while this request was in flight
            return

    page.route("**/*", handle)


def _inspect(page: Any) -> dict[str, Any]:
    dialogs: list[str] = []

    def dismiss(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.wait_for_load_state("load")
    for element in page.query_selector_all("details, summary, button[aria-expanded]")[:5]:
        try:
            element.click(timeout=500)
        except Exception:  # hidden or detached: clicking is only to trigger toggle handlers
            continue
    found: dict[str, Any] = page.evaluate(PARSED)
    page.remove_listener("dialog", dismiss)
    found["dialogs"] = dialogs
    return found


@pytest.mark.parametrize("policy", ["as served", "without CSP"])
def test_no_payload_runs_on_any_page(chromium: Any, site: tuple[str, dict[str, str]], policy: str) -> None:
    base, pages = site
    problems: dict[str, Any] = {}
    with browser_page(chromium) as (page, _errors):
        if policy == "without CSP":
            _strip_policy(page)
        for name, path in pages.items():
            page.goto(base + path)
            found = _inspect(page)
            bad = {k: v for k, v in found.items() if v and k != "inline"}
            if found["inline"]:
                bad["inline scripts"] = found["inline"]
            if bad:
                problems[name] = bad
        page.unroute_all(behavior="ignoreErrors")
    assert not problems, problems


def test_payloads_show_as_text(chromium: Any, site: tuple[str, dict[str, str]]) -> None:
    base, pages = site
    with browser_page(chromium) as (page, errors):
        page.goto(base + pages["replay"])
        body = page.inner_text("body")
        assert PAYLOADS[0] in body, "the first player's name is shown as written"
        assert "1337" not in body, "a template expression in a tag is not evaluated"
        assert errors.messages == []


def test_a_pasted_broken_game_shows_its_source_as_text(chromium: Any,
                                                       site: tuple[str, dict[str, str]]) -> None:
    """The home page echoes a refused paste with its problems: the payloads must stay text."""
    base, _pages = site
    broken = GAME.replace("*", "").replace("/d", "/q", 3) + PAYLOADS[1] + "\n"
    for policy in ("as served", "without CSP"):
        with browser_page(chromium) as (page, _errors):
            if policy == "without CSP":
                _strip_policy(page)
            page.goto(base + "/")
            page.fill("textarea[name=text]", broken)
            with page.expect_navigation():
                page.locator("form:has(textarea[name=text]) [type=submit]").first.click()
            found = _inspect(page)
            assert "problem" in page.inner_text("body")
        assert not found["pwned"] and not found["handlers"] and not found["dialogs"], (policy, found)


def test_control_the_payloads_run_when_not_escaped(chromium: Any) -> None:
    """Without this, a detector that never fires would pass every test above."""
    with browser_page(chromium) as (page, _errors):
        page.set_content("<html><body>" + PAYLOADS[1] + PAYLOADS[2] + "</body></html>")
        page.wait_for_function("window.__pwned !== undefined", timeout=5000)
        assert page.evaluate(PARSED)["handlers"]


def test_the_policy_blocks_inline_scripts(chromium: Any, site: tuple[str, dict[str, str]]) -> None:
    base, pages = site
    for policy in ("as served", "without CSP"):
        with browser_page(chromium) as (page, _errors):
            if policy == "without CSP":
                _strip_policy(page)
            response = page.goto(base + pages["replay"])
            assert response is not None
            header = response.headers.get("content-security-policy", "")
            page.evaluate("""() => {
                window.__violations = 0;
                document.addEventListener('securitypolicyviolation', () => { window.__violations += 1; });
                const s = document.createElement('script');
                s.textContent = 'window.__inline = 1';
                document.head.appendChild(s);
                const a = document.createElement('div');
                a.innerHTML = '<img src=x onerror="window.__handler = 1">';
                document.body.appendChild(a);
            }""")
            if policy == "as served":
                page.wait_for_function("window.__violations >= 2", timeout=10_000)
            else:
                page.wait_for_function("window.__inline === 1 && window.__handler === 1", timeout=10_000)
            ran = page.evaluate("[window.__inline === 1, window.__handler === 1]")
        if policy == "as served":
            assert "script-src 'self'" in header and "unsafe-inline" not in header, header
            assert ran == [False, False], "the policy lets an inline script or handler run"
        else:
            assert ran == [True, True], "control: without the policy the same script runs"


def test_a_forged_host_never_reaches_the_share_links(chromium: Any, tmp_path: Path) -> None:
    """A page first rendered for a forged Host header (and cached as public) shows every
    reader links to the address they really used."""
    import http.client

    app = make_app(tmp_path)
    stored = app.test_client().post("/api/v1/games", json={"lcn": GAME})
    game_id = stored.get_json()["id"]
    with live_server(app) as base, browser_page(chromium) as (page, errors):
        host, port = base.removeprefix("http://").split(":")
        for path in (f"/g/{game_id}?turn=3", f"/embed/{game_id}?turn=3"):
            conn = http.client.HTTPConnection(host, int(port), timeout=60)
            conn.request("GET", path, headers={"Host": "evil.example"})
            forged = conn.getresponse()
            assert forged.status == 200 and b"evil.example" not in forged.read()
            conn.close()
        page.goto(f"{base}/g/{game_id}?turn=3")
        assert page.locator("#share-permalink").input_value() == f"{base}/g/{game_id}"
        assert page.locator("#share-turn").input_value() == f"{base}/g/{game_id}?turn=3"
        assert f'src="{base}/embed/{game_id}?turn=3"' in page.locator("#share-embed").input_value()
        assert "evil.example" not in page.content()
        page.goto(f"{base}/embed/{game_id}?turn=3")
        assert page.locator("a.embed-open").get_attribute("href") == f"{base}/g/{game_id}?turn=3"
        assert errors.messages == []


def test_a_short_link_to_an_endless_game_opens_and_steps(chromium: Any, tmp_path: Path) -> None:
    """A link of about 700 characters carries a legal 20,000-turn game: its page holds one
    position and a page of moves, and stepping fetches bounded chunks."""
    from test_site_long_games import long_game

    from replay_server.pages import POSITIONS_CHUNK
    from replay_server.sharing import encode_link

    turns = 20_000
    token = encode_link(long_game(turns))
    app = make_app(tmp_path)
    with live_server(app) as base, browser_page(chromium) as (page, errors):
        page.set_default_timeout(120_000)
        answer = page.goto(f"{base}/v?g={token}&turn={turns - 2}")
        assert answer is not None and answer.status == 200
        assert len(answer.body()) < 600_000
        page.wait_for_selector("#replay[data-ready]", state="attached")
        page.keyboard.press("End")
        page.wait_for_selector(f'section.position[data-turn="{turns}"]:not([hidden])')
        page.keyboard.press("Home")
        page.wait_for_selector('section.position[data-turn="0"]:not([hidden])')
        page.wait_for_selector('.moves .mv.current[data-turn="0"]')
        assert page.locator("section.position").count() <= 3 * POSITIONS_CHUNK + 1
        assert errors.messages == []

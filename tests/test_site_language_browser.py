"""The language switch in a real browser (Debian's chromium): a replay page in English, then
German by the switch's form with the turn kept (also one reached by stepping in the page),
the next pages German by the cookie, and back to English; German pages pass axe-core."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from site_support import browser, browser_page, live_server, make_app, sample_text
from test_site_replay_ux import axe_violations, open_replay, visible

from lcn.describe import describe_text

SAMPLE = "classic/rulebook-scoring"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = make_app(tmp_path_factory.mktemp("site"))
    with live_server(app) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as instance:
        yield instance


def _turn_in_url(page: Any) -> str | None:
    values = parse_qs(urlsplit(page.url).query).get("turn")
    return values[0] if values else None


def _switch(page: Any, name: str) -> None:
    with page.expect_navigation():
        page.locator(".language-switch button", has_text=name).click()
    page.wait_for_selector("#replay[data-ready]", state="attached") \
        if page.locator("#replay").count() else None


def _lang_cookie(page: Any) -> str | None:
    return next((c["value"] for c in page.context.cookies() if c["name"] == "lang"), None)


def test_the_switch_turns_a_replay_german_keeps_the_turn_and_is_remembered(
        base: str, chromium: Any) -> None:
    told = describe_text(sample_text(SAMPLE + ".lcn"))
    with browser_page(chromium) as (page, errors):
        page.context.set_extra_http_headers({"Accept-Language": "en-US,en;q=0.9"})
        open_replay(page, f"{base}/samples/{SAMPLE}?turn=5")
        assert page.locator("html").get_attribute("lang") == "en"
        assert visible(page).locator(".turn-line").inner_text() == str(told[5].line)
        assert page.locator(".site-nav").inner_text().startswith("Paste or upload")

        # Stepped in the page (no new request): the switch must return to the turn shown.
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert _turn_in_url(page) == "7"
        _switch(page, "Deutsch")
        assert page.locator("html").get_attribute("lang") == "de"
        assert _turn_in_url(page) == "7"
        german = told[7].line.said_in("de")
        assert german != str(told[7].line)
        assert visible(page).locator(".turn-line").inner_text() == german
        assert page.locator('.mv-told[data-turn="7"]').inner_text() == german
        assert page.locator(".site-nav").inner_text().startswith("Einfügen oder hochladen")
        assert page.locator(".language-switch button[lang=de]").get_attribute("aria-pressed") \
            == "true"
        assert _lang_cookie(page) == "de"
        assert axe_violations(page) == []

        # The cookie makes the next pages German, whatever the browser prefers.
        page.goto(f"{base}/")
        assert page.locator("html").get_attribute("lang") == "de"
        assert page.locator("h1").inner_text() == "Eine Partie Lost Cities nachspielen"
        assert page.locator("option[value=brdgme]").inner_text() == \
            "Protokoll oder Befehle von brdg.me"
        open_replay(page, f"{base}/samples/rivals/three-players?turn=3")
        rivals = describe_text(sample_text("rivals/three-players.lcn"))
        assert visible(page).locator(".turn-line").inner_text() == rivals[3].line.said_in("de")

        # And back to English, on the same replay at the same turn.
        _switch(page, "English")
        assert page.locator("html").get_attribute("lang") == "en"
        assert _turn_in_url(page) == "3"
        assert visible(page).locator(".turn-line").inner_text() == str(rivals[3].line)
        assert _lang_cookie(page) == "en"
        page.goto(f"{base}/")
        assert page.locator("h1").inner_text() == "Replay a game of Lost Cities"
        assert errors.messages == []

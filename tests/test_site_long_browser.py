"""A long game in a real browser: the page holds one position and a page of moves, and the
reader steps across chunks of positions and pages of the move list as on a short game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from site_support import browser, browser_page, live_server, make_app
from test_site_long_games import long_game

from replay_server import pages

TURNS = 1_100


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as instance:
        yield instance


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = make_app(Path(tmp_path_factory.mktemp("long")))
    with live_server(app) as url:
        yield url


def _moves() -> list[str]:
    return long_game(TURNS).split("\n\n", 1)[1].split()[:-1]


def _visible(page: Any, turn: int) -> Any:
    """Wait for turn ``turn``'s position to be shown (fetched in its chunk if need be)."""
    page.wait_for_selector(f'section.position[data-turn="{turn}"]:not([hidden])', timeout=60_000)
    section = page.locator("section.position:not([hidden])")
    assert section.count() == 1
    return section


def _check(page: Any, turn: int) -> None:
    section = _visible(page, turn)
    moves = _moves()
    if turn:
        assert section.locator(".move-text").inner_text().strip().endswith(moves[turn - 1])
    assert section.locator(".turn-count").inner_text().strip() == f"{turn} / {TURNS}"
    page.wait_for_selector(f'.moves .mv.current[data-turn="{turn}"]', timeout=60_000)
    assert page.url.endswith(f"turn={turn}")


def test_stepping_through_a_long_game_across_chunks_and_move_pages(base: str, chromium: Any) -> None:
    chunk = pages.POSITIONS_CHUNK
    with browser_page(chromium) as (page, errors):
        stored = page.request.post(f"{base}/api/v1/games", data=long_game(TURNS),
                                   headers={"Content-Type": "text/plain"})
        assert stored.status == 201
        url = base + stored.json()["url"]
        start = chunk - 4
        page.goto(f"{url}?turn={start}")
        page.wait_for_selector("#replay[data-ready]", state="attached")
        page.evaluate("window.__sameDocument = true")
        assert page.locator("section.position").count() <= 2 * chunk + 1  # its chunk and the next
        _check(page, start)
        for step in range(1, 9):  # across the first chunk's end
            page.keyboard.press("ArrowRight")
            _check(page, start + step)
        for _ in range(6):  # and back
            page.keyboard.press("ArrowLeft")
        _check(page, start + 2)
        page.keyboard.press("End")  # another chunk, another page of the move list
        _check(page, TURNS)
        assert int(page.locator("#moves").get_attribute("data-first")) > 1
        page.keyboard.press("ArrowLeft")
        _check(page, TURNS - 1)
        # The move list's "earlier turns" link brings the page before, on the same document.
        page.locator("#moves a.more-moves").first.click()
        _check(page, int(page.url.rsplit("turn=", 1)[1]))
        assert int(page.locator("#moves").get_attribute("data-last") or 0) < TURNS
        page.keyboard.press("Home")
        _check(page, 0)
        assert page.evaluate("window.__sameDocument") is True  # no page load while stepping
        # However far the reader went, the page keeps a bounded number of positions.
        assert page.locator("section.position").count() <= 6 * chunk + 1
        assert errors.messages == []


def test_a_long_game_works_without_javascript(base: str, chromium: Any) -> None:
    with browser_page(chromium, java_script=False) as (page, errors):
        stored = page.request.post(f"{base}/api/v1/games", data=long_game(TURNS),
                                   headers={"Content-Type": "text/plain"})
        url = base + stored.json()["url"]
        page.goto(f"{url}?turn=499")
        page.locator('.steps a[data-step="next"]').click()
        page.locator('.steps a[data-step="next"]').click()
        assert page.url.endswith("turn=501")
        assert page.locator("section.position:not([hidden])").get_attribute("data-turn") == "501"
        assert page.locator(".moves .mv.current").get_attribute("data-turn") == "501"
        page.locator("#moves a.more-moves").first.click()
        assert page.url.endswith("turn=500")
        assert page.locator(".moves .mv.current").get_attribute("data-turn") == "500"
        assert errors.messages == []

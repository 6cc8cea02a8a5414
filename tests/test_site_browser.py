"""The replay site in a real browser (Debian's chromium driven by Playwright).

For a sample of every variant: step with the keys, compare the scores shown after N turns
with the engine's, open a ``?turn=N`` URL, click the move list and the graph, switch the
hands, and check that nothing is logged to the console. Without JavaScript every turn is a
plain link.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from site_support import browser, browser_page, live_server, make_app, sample_text

import lcn

VARIANT_SAMPLES = ["classic/rulebook-scoring", "rivals/three-players", "rollwrite/three-players"]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = make_app(tmp_path_factory.mktemp("site"))
    with live_server(app) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as instance:
        yield instance


def engine_running(name: str) -> list[list[int]]:
    """Totals after each turn, straight from the variant's engine (not through the site)."""
    record = lcn.read_game(sample_text(name + ".lcn"))
    assert record is not None
    report = lcn.validate_record(record, keep_running=True)
    assert report.valid and report.running is not None
    return report.running


def shown(page: Any) -> tuple[int, list[int]]:
    """The turn of the visible position and the totals it shows."""
    section = page.locator("section.position:not([hidden])")
    assert section.count() == 1
    turn = int(section.get_attribute("data-turn"))
    totals = [int(t) for t in section.locator(".totals .total").all_inner_texts()]
    return turn, totals


def wait_ready(page: Any) -> None:
    """Wait until every position is in the page (fetched once by replay.js)."""
    page.wait_for_selector("#replay[data-ready]", state="attached")


@pytest.mark.parametrize("name", VARIANT_SAMPLES)
def test_keys_step_through_the_game_with_the_engines_scores(base: str, chromium: Any, name: str) -> None:
    running = engine_running(name)
    last = len(running) - 1
    with browser_page(chromium) as (page, errors):
        page.goto(f"{base}/samples/{name}")
        wait_ready(page)
        page.evaluate("window.__sameDocument = true")
        assert shown(page) == (0, running[0])
        steps = min(12, last)
        for _ in range(steps):
            page.keyboard.press("ArrowRight")
        assert shown(page) == (steps, running[steps])
        assert page.url.endswith(f"turn={steps}")
        assert page.locator(".moves .mv.current").get_attribute("data-turn") == str(steps)
        page.keyboard.press("ArrowLeft")
        assert shown(page) == (steps - 1, running[steps - 1])
        page.keyboard.press("End")
        assert shown(page) == (last, running[last])
        page.keyboard.press("ArrowRight")
        assert shown(page)[0] == last
        page.keyboard.press("Home")
        assert shown(page) == (0, running[0])
        page.keyboard.press("ArrowLeft")
        assert shown(page)[0] == 0
        assert page.evaluate("window.__sameDocument") is True  # no page load while stepping
        assert errors.messages == []


@pytest.mark.parametrize("name", VARIANT_SAMPLES)
def test_a_turn_url_opens_at_that_turn(base: str, chromium: Any, name: str) -> None:
    running = engine_running(name)
    turn = (len(running) - 1) * 2 // 3
    with browser_page(chromium) as (page, errors):
        page.goto(f"{base}/samples/{name}?turn={turn}")
        assert shown(page) == (turn, running[turn])
        assert page.locator(".moves .mv.current").get_attribute("data-turn") == str(turn)
        wait_ready(page)
        page.keyboard.press("ArrowRight")
        assert shown(page) == (turn + 1, running[turn + 1])
        page.locator('.steps a[data-step="prev"]').click()
        page.locator('.steps a[data-step="prev"]').click()
        assert shown(page) == (turn - 1, running[turn - 1])
        assert errors.messages == []


def test_clicking_the_move_list_and_the_graph(base: str, chromium: Any) -> None:
    name = "rivals/two-players"
    running = engine_running(name)
    with browser_page(chromium) as (page, errors):
        page.goto(f"{base}/samples/{name}")
        wait_ready(page)
        page.evaluate("window.__sameDocument = true")
        page.locator('.moves a.mv[data-turn="7"]').click()
        assert shown(page) == (7, running[7])
        assert page.url.endswith("turn=7")
        page.locator('#graph a[data-turn="40"] rect').click(force=True)
        assert shown(page) == (40, running[40])
        marker = float(page.locator("#graph-marker").get_attribute("x1"))
        left = float(page.locator("#graph").get_attribute("data-left"))
        step = float(page.locator("#graph").get_attribute("data-step"))
        assert abs(marker - (left + 40 * step)) < 0.2
        assert page.evaluate("window.__sameDocument") is True
        assert errors.messages == []


def test_the_hands_switch(base: str, chromium: Any) -> None:
    with browser_page(chromium) as (page, errors):
        page.goto(f"{base}/samples/classic/rulebook-scoring?turn=10")
        wait_ready(page)
        visible = page.locator("section.position:not([hidden]) .hand .hand-cards")
        assert visible.nth(0).is_visible() and visible.nth(1).is_visible()
        page.locator('.views a[data-view="none"]').click()
        assert not visible.nth(0).is_visible() and not visible.nth(1).is_visible()
        assert "view=none" in page.url
        page.locator('.views a[data-view="1"]').click()  # Ada's view: seat 0 shown, seat 1 hidden
        ada = page.locator("section.position:not([hidden]) .hand.seat-0 .hand-cards")
        bo = page.locator("section.position:not([hidden]) .hand.seat-1 .hand-cards")
        assert ada.is_visible() and not bo.is_visible()
        page.keyboard.press("ArrowRight")
        assert ada.is_visible() and not bo.is_visible()
        assert errors.messages == []


def test_without_javascript_every_turn_is_a_link(base: str, chromium: Any) -> None:
    name = "classic/rulebook-scoring"
    running = engine_running(name)
    with browser_page(chromium, java_script=False) as (page, errors):
        page.goto(f"{base}/samples/{name}?turn=5")
        assert shown(page) == (5, running[5])
        page.locator('.steps a[data-step="next"]').click()
        page.wait_for_url("**turn=6")
        assert shown(page) == (6, running[6])
        page.locator('.moves a.mv[data-turn="20"]').click()
        page.wait_for_url("**turn=20")
        assert shown(page) == (20, running[20])
        assert errors.messages == []


def test_home_page_paste_shows_problems_then_replays(base: str, chromium: Any) -> None:
    bad = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. B2/d R4/d *\n'
    with browser_page(chromium) as (page, errors):
        page.goto(base + "/")
        assert page.locator('a[href^="/samples/rollwrite/"]').count() >= 1
        page.fill("#text", bad)
        page.click("button[type=submit]")
        problem = page.locator("#problems mark.error")
        assert problem.first.inner_text() == "B2"
        assert "card-elsewhere" in page.locator("#problems").inner_text()
        # The browser logs the 400 status of that page itself; nothing else may be logged.
        assert [m for m in errors.messages if "status of 400" not in m] == []
        errors.messages.clear()
        page.fill("#text", sample_text("rivals/rulebook-auction.lcn"))
        page.click("button[type=submit]")
        page.wait_for_url("**/g/*")
        assert shown(page)[0] == 0
        assert errors.messages == []


def test_screenshot_of_each_board_is_taken(base: str, chromium: Any, tmp_path: Path) -> None:
    # The boards render at a phone's width too, without errors (and leave a picture to look at).
    for name in VARIANT_SAMPLES:
        with browser_page(chromium, viewport=(420, 900)) as (page, errors):
            page.goto(f"{base}/samples/{name}?turn=9")
            target = tmp_path / (name.replace("/", "-") + ".png")
            page.screenshot(path=str(target), full_page=True)
            assert target.stat().st_size > 10_000
            assert page.locator("section.position:not([hidden]) .board").is_visible()
            assert errors.messages == []


def test_autoplay_steps_on_and_any_step_stops_it(base: str, chromium: Any) -> None:
    name = "rivals/rulebook-auction"
    running = engine_running(name)
    with browser_page(chromium) as (page, errors):
        page.goto(f"{base}/samples/{name}?turn=1")
        wait_ready(page)
        play = page.locator("#play")
        assert play.is_visible() and play.get_attribute("aria-pressed") == "false"
        play.click()
        assert play.get_attribute("aria-pressed") == "true"
        page.wait_for_selector('section.position[data-turn="2"]:not([hidden])')
        page.keyboard.press("Home")
        assert play.get_attribute("aria-pressed") == "false"
        assert shown(page) == (0, running[0])
        assert errors.messages == []

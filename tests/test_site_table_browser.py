"""The replay page at the table's sizes, in Debian's chromium: a phone of 360 and of 390 px
(touch, no hover), a laptop of 1366×650, in English and in German.

Measured with bounding boxes, not read from the style sheet: the step bar and what each of its
buttons says stay inside the screen and inside their buttons (German "Abspielen" is twice
"Play"); a touch screen gets no keyboard help nor speed menu in the bar, and no hover colour
left on a tapped step; the skip link is the first stop of the keyboard and lands on the game;
the final scores' Total is in view on a phone, or the table scrolls with a shadow at its edge
and the players' column kept; a result reads as scores, not as a clock; a game saved by the
recorder opens at the position just recorded; the annotation form's buttons are big enough to
tap; axe-core finds nothing on these pages.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest
from site_support import ConsoleErrors, browser, live_server, make_app, sample_text
from test_site_replay_ux import axe_violations

import lcn

PHONES = [(360, 740), (390, 844)]
LAPTOP = (1366, 650)
SIZES = [(360, 740, True), (390, 844, True), (360, 740, False), (1366, 650, False)]
LANGUAGES = ["en", "de"]
MID_GAME = "classic/rulebook-scoring?turn=20"
WORDS = {"en": {"skip": "Skip to the game", "total": "Total", "play": "Play", "pause": "Pause"},
         "de": {"skip": "Zum Spiel springen", "total": "Summe", "play": "Abspielen", "pause": "Pause"}}
#: The hover colour of a step (--current in site.css), as getComputedStyle says it.
HOVER = "rgb(255, 224, 138)"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = make_app(tmp_path_factory.mktemp("site"))
    with live_server(app) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as instance:
        yield instance


@contextmanager
def screen(chromium: Any, width: int, height: int, touch: bool,
           language: str) -> Iterator[tuple[Any, ConsoleErrors]]:
    """A page of its own context: a touch phone (no hover, coarse pointer) or a mouse, in
    ``language`` by the browser's Accept-Language."""
    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=touch,
                                   is_mobile=touch,
                                   extra_http_headers={"Accept-Language": f"{language};q=1.0"})
    try:
        page = context.new_page()
        errors = ConsoleErrors()
        errors.attach(page)
        yield page, errors
    finally:
        context.close()


def open_replay(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#replay[data-ready]", state="attached")


#: Each control of the bar that is drawn: its box, and the box of what it says (the union
#: of its text's rectangles; a word hidden on a phone has none, and the words only read
#: aloud are left out).
_BAR = """() => Array.from(document.querySelectorAll('.steps > *'))
  .filter((e) => getComputedStyle(e).display !== 'none')
  .map((e) => {
    const box = e.getBoundingClientRect();
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    const text = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.visually-hidden') || !node.textContent.trim()) { continue; }
      const range = document.createRange();
      range.selectNodeContents(node);
      text.push(...Array.from(range.getClientRects()).filter((r) => r.width > 0));
    }
    const content = text.length ? {left: Math.min(...text.map((r) => r.left)),
      right: Math.max(...text.map((r) => r.right)), top: Math.min(...text.map((r) => r.top)),
      bottom: Math.max(...text.map((r) => r.bottom))} : null;
    return {name: e.getAttribute('data-step') || e.id || e.className, box: {left: box.left,
      right: box.right, top: box.top, bottom: box.bottom}, content: content,
      overflow: e.scrollWidth > e.clientWidth};
  })"""


def bar(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate(_BAR))


def inside(inner: Mapping[str, float], outer: Mapping[str, float], slack: float = 0.5) -> bool:
    return (inner["left"] >= outer["left"] - slack and inner["right"] <= outer["right"] + slack
            and inner["top"] >= outer["top"] - slack and inner["bottom"] <= outer["bottom"] + slack)


def assert_bar_fits(page: Any, width: int, height: int) -> list[str]:
    viewport = {"left": 0, "right": width, "top": 0, "bottom": height}
    controls = bar(page)
    for control in controls:
        assert inside(control["box"], viewport), f"{control['name']} leaves the screen: {control}"
        assert not control["overflow"], f"{control['name']} is too narrow for its text: {control}"
        if control["content"] is not None:
            assert inside(control["content"], control["box"]), \
                f"what {control['name']} says spills out of it: {control}"
    return [control["name"] for control in controls]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("width", "height", "touch"), SIZES)
def test_every_step_button_and_its_words_lie_inside_the_screen(
        base: str, chromium: Any, width: int, height: int, touch: bool, language: str) -> None:
    with screen(chromium, width, height, touch, language) as (page, errors):
        open_replay(page, f"{base}/samples/{MID_GAME}")
        assert page.locator("html").get_attribute("lang") == language
        play = page.locator("#play")
        assert play.inner_text() == WORDS[language]["play"]
        names = assert_bar_fits(page, width, height)
        assert names[:5] == ["first", "prev", "next", "last", "play"]
        keys = page.locator(".steps .keys-button")
        speed = page.locator(".steps .speed")
        if touch:
            # Of no use without a keyboard nor a hover: the bar is the steps and Play.
            assert keys.is_hidden() and speed.is_hidden()
            assert names == ["first", "prev", "next", "last", "play"]
        elif width >= 480:
            assert keys.is_visible() and speed.is_visible()
        else:
            assert keys.is_visible()
        # Play turns to Pause in the same place: the steps do not move.
        before = [control["box"] for control in bar(page)]
        play.click()
        assert play.inner_text() == WORDS[language]["pause"]
        assert [control["box"] for control in bar(page)] == before
        assert_bar_fits(page, width, height)
        play.click()
        assert play.get_attribute("aria-pressed") == "false"
        assert errors.messages == []


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_a_tapped_step_keeps_no_hover_colour_on_a_touch_screen(
        base: str, chromium: Any, width: int, height: int) -> None:
    with screen(chromium, width, height, True, "en") as (page, errors):
        open_replay(page, f"{base}/samples/{MID_GAME}")
        step = page.locator('.steps a[data-step="next"]')
        step.tap()
        page.wait_for_selector('section.position[data-turn="21"]:not([hidden])')
        assert step.evaluate("(e) => getComputedStyle(e).backgroundColor") != HOVER
        assert errors.messages == []
    # The check can fail: a mouse over the same step does colour it.
    with screen(chromium, *LAPTOP, False, "en") as (page, errors):
        open_replay(page, f"{base}/samples/{MID_GAME}")
        step = page.locator('.steps a[data-step="next"]')
        step.hover()
        assert step.evaluate("(e) => getComputedStyle(e).backgroundColor") == HOVER


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("width", "height", "touch"), [(390, 844, True), (1366, 650, False)])
def test_the_skip_link_is_the_first_stop_and_moves_the_focus_to_the_game(
        base: str, chromium: Any, width: int, height: int, touch: bool, language: str) -> None:
    with screen(chromium, width, height, touch, language) as (page, errors):
        open_replay(page, f"{base}/samples/{MID_GAME}")
        skip = page.locator("a.skip-link")
        box = skip.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 0  # out of sight until focused
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => [document.activeElement.className, document.activeElement.textContent]")
        assert focused == ["skip-link", WORDS[language]["skip"]]
        box = skip.bounding_box()
        assert box is not None and box["y"] >= 0 and box["x"] >= 0
        assert box["x"] + box["width"] <= width and box["height"] >= 44
        page.keyboard.press("Enter")
        assert page.evaluate("() => document.activeElement.id") == "game"
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.getAttribute('data-step')") == "first"
        if language == "de":  # the same page in either language; axe-core takes seconds
            assert axe_violations(page) == []
        assert errors.messages == []


#: The final scores' scroll box, its Total heading and its first player's heading, as boxes.
_SCORES = """() => {
  const box = document.querySelector('section.final .scores-scroll');
  const rect = (e) => { const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  return {scroll: box.scrollWidth, client: box.clientWidth, box: rect(box),
          total: rect(box.querySelector('thead th.sum')),
          player: rect(box.querySelector('tbody th[scope=row]')),
          totalText: box.querySelector('thead th.sum').textContent};
}"""


def edge_darkness(page: Any, where: Mapping[str, float]) -> float:
    """How much darker than the panel the scroll box's last pixels on the right are: the mean
    of the panel's grey minus each pixel's, over a strip 3 px wide inside the last cell's
    padding (no text there; the rows' rules cross it) down the box's height."""
    from PIL import Image

    strip = page.screenshot(clip={"x": where["right"] - 4, "y": where["top"] + 2, "width": 3,
                                  "height": where["bottom"] - where["top"] - 4})
    pixels = Image.open(io.BytesIO(strip)).convert("L").tobytes()
    panel = 253  # --panel, #fffdf8, in grey
    return sum(max(0, panel - p) for p in pixels) / len(pixels)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", ["classic/rulebook-scoring", "rivals/three-players",
                                  "rollwrite/three-players"])
def test_the_final_total_is_in_view_or_reachable_with_a_cue_at_360(
        base: str, chromium: Any, name: str, language: str) -> None:
    with screen(chromium, 360, 740, True, language) as (page, errors):
        open_replay(page, f"{base}/samples/{name}")
        section = page.locator("section.final")
        section.scroll_into_view_if_needed()
        found = page.evaluate(_SCORES)
        assert found["totalText"] == WORDS[language]["total"]
        assert found["box"]["right"] <= 360
        if found["scroll"] <= found["client"]:
            assert inside(found["total"], found["box"]), found
        else:
            # Wider than the phone: a shadow on the right says there is more ...
            cue = edge_darkness(page, found["box"])
            page.locator("section.final .scores-scroll").evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
            scrolled = page.evaluate(_SCORES)
            # ... Total comes into the box, beside the players' column that stays ...
            assert inside(scrolled["total"], scrolled["box"]), scrolled
            assert abs(scrolled["player"]["left"] - found["player"]["left"]) < 1
            assert scrolled["total"]["left"] >= scrolled["player"]["right"]
            # ... and the shadow goes once there is no more.
            end = edge_darkness(page, scrolled["box"])
            assert cue > end + 10 and end < 6, (cue, end)
        assert errors.messages == []


def test_a_result_reads_as_scores_with_a_real_minus(base: str, chromium: Any) -> None:
    name = "classic/one-player-view"
    record = lcn.read_game(sample_text(name + ".lcn"))
    assert record is not None and record.termination is not None and ":-" in record.termination
    scores = [int(part) for part in record.termination.split(":")]
    with screen(chromium, 390, 844, True, "de") as (page, errors):
        open_replay(page, f"{base}/samples/{name}")
        badge = page.locator(".game-head .result").inner_text()
        assert ":" not in badge
        assert [int(s.replace("\u2212", "-")) for s in badge.split(" \u2013 ")] == scores
        assert "\u2212" in badge and "-" not in badge
        assert axe_violations(page) == []
        assert errors.messages == []


def record_turns(page: Any, base: str, turns: int) -> None:
    """A classic game started in the recorder and ``turns`` turns tapped (each a card and a
    draw, the first offered), then the card of one more turn: a turn left half written."""
    page.goto(base + "/record")
    page.evaluate("window.localStorage.clear()")
    page.goto(base + "/record")
    page.check("input[name=variant][value=classic5]")
    page.fill("#player-1", "Ada")
    page.fill("#player-2", "Bo")
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#recording:not([hidden])")
    done = 0
    while True:
        page.wait_for_selector("#recorder:not([data-busy])", state="attached")
        buttons = page.locator("#choice-groups [data-lcn]:not([data-lcn^='='])")
        words = buttons.evaluate_all("(all) => all.map((b) => b.getAttribute('data-lcn'))")
        draws = [i for i, word in enumerate(words) if word.startswith("/")]
        if draws:
            buttons.nth(draws[0]).click()
            done += 1
            continue
        buttons.nth(next(i for i, word in enumerate(words) if not word.startswith("/"))).click()
        if done == turns:
            page.wait_for_selector("#recorder:not([data-busy])", state="attached")
            return


def test_a_game_saved_by_the_recorder_opens_at_its_last_turn(base: str, chromium: Any) -> None:
    turns = 5
    with screen(chromium, 390, 844, True, "de") as (page, errors):
        record_turns(page, base, turns)
        page.click("#save")
        page.wait_for_selector("#permalink-line:not([hidden])")
        permalink = str(page.locator("#permalink").get_attribute("href"))
        opens = str(page.locator("#open-replay").get_attribute("href"))
        assert "turn=" not in permalink  # the link to share names no turn
        assert re.fullmatch(re.escape(permalink) + rf"\?turn={turns}", opens), (permalink, opens)
        assert axe_violations(page) == []
        # After a reload the recorder offers the same link.
        page.reload()
        page.wait_for_selector("#permalink-line:not([hidden])")
        assert page.locator("#open-replay").get_attribute("href") == opens
        page.locator("#open-replay").click()
        page.wait_for_selector("#replay[data-ready]", state="attached")
        shown = page.locator("section.position:not([hidden])")
        assert shown.get_attribute("data-turn") == str(turns)
        assert page.locator("#replay").get_attribute("data-last") == str(turns)
        assert errors.messages == []


@pytest.mark.parametrize(("width", "height", "touch"), [(390, 844, True), (1366, 650, False)])
def test_the_annotation_and_share_buttons_are_big_enough_to_tap(
        base: str, chromium: Any, width: int, height: int, touch: bool) -> None:
    with screen(chromium, width, height, touch, "de") as (page, errors):
        open_replay(page, f"{base}/samples/{MID_GAME}")
        buttons = page.locator("#annotate button:visible, #share button:visible")
        assert buttons.count() >= 3
        for index in range(buttons.count()):
            box = buttons.nth(index).bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44, \
                (buttons.nth(index).inner_text(), box)
        assert axe_violations(page) == []
        assert errors.messages == []

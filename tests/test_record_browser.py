"""The recorder (/record) in a real browser (Debian's chromium driven by Playwright).

Whole games of every variant are recorded only by tapping the ``[data-lcn]`` buttons the page
offers, a seeded random one each time, with an undo and a page reload in the middle; then the
record is saved, and the stored game must validate, be over and hold exactly the moves
tapped. On the way, the page must never scroll sideways at phone widths and axe-core must
find no violation at each step.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from site_support import ConsoleErrors, browser, live_server, make_app

import lcn
from lcn.model import GameRecord, Tags, Turn

AXE = Path(__file__).resolve().parent / "axe" / "axe.min.js"
PHONE = (390, 844)
NARROW = (360, 740)
DESKTOP = (1280, 800)
#: Taps in one game at most: a bound on the test, not a rule (random classic games take
#: some 300 taps, Roll & Write ones some 400).
MAX_TAPS = 1500


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = make_app(tmp_path_factory.mktemp("record"))
    with live_server(app) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as instance:
        yield instance


@contextmanager
def phone_page(chromium: Any, viewport: tuple[int, int] = PHONE) -> Iterator[tuple[Any, ConsoleErrors]]:
    """A page of its own context at a phone's size. The context bypasses the site's CSP only
    so that the test can add axe-core to the page; the page's own scripts run as they are."""
    context = chromium.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                   bypass_csp=True, has_touch=True)
    try:
        page = context.new_page()
        errors = ConsoleErrors()
        errors.attach(page)
        yield page, errors
    finally:
        context.close()


def no_sideways_scroll(page: Any) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"


def axe_violations(page: Any) -> list[str]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']}: {v['help']} "
            f"({[(n['target'], n.get('failureSummary')) for n in v['nodes']][:3]})"
            for v in result["violations"]]


def check_page(page: Any) -> None:
    """At this step: no sideways scroll at 390 and at 360 px, and no axe violation."""
    no_sideways_scroll(page)
    assert axe_violations(page) == []
    page.set_viewport_size({"width": NARROW[0], "height": NARROW[1]})
    no_sideways_scroll(page)
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})


#: What the page says of a button that a tap did not reach: whether the document is shown,
#: whether the recorder is busy, the button's box, and whether the page still draws frames
#: (the click waits for two frames to find the button still).
_TAP_STATE = """(button) => new Promise((resolve) => {
  const box = button.getBoundingClientRect();
  const state = {visibility: document.visibilityState, connected: button.isConnected,
                 disabled: button.disabled, box: [box.x, box.y, box.width, box.height],
                 style: getComputedStyle(button).visibility,
                 busy: document.getElementById("recorder").hasAttribute("data-busy"),
                 problem: document.getElementById("problem").textContent};
  const settle = (frame) => { if (state.frame === undefined) { state.frame = frame; resolve(state); } };
  requestAnimationFrame(() => settle(true));
  setTimeout(() => settle(false), 1000);
})"""


def tap_button(button: Any, word: str) -> None:
    """Tap a button; when the tap does not happen in time, fail with what the page says of
    the button, so that a failure says why (hidden, busy, moved, or no frame drawn)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        button.click()
    except PlaywrightTimeout as error:
        try:
            state = str(button.evaluate(_TAP_STATE, timeout=5000))
        except PlaywrightTimeout:
            state = "the page did not answer within 5 s"
        raise AssertionError(f"the tap on {word} did not happen: {state}; {error}") from error


def ready(page: Any) -> None:
    page.wait_for_selector("#recorder:not([data-busy])", state="attached")


def start(page: Any, base: str, variant: str, players: list[str], *,
          wagers: list[tuple[str, str]] | None = None, match: bool = False) -> None:
    page.goto(base + "/record")
    page.evaluate("window.localStorage.clear()")
    page.goto(base + "/record")
    check_page(page)
    page.check(f"input[name=variant][value={variant}]")
    if variant in ("rivals", "rollwrite"):
        page.select_option("#player-count", str(len(players)))
    for seat, name in enumerate(players, 1):
        page.fill(f"#player-{seat}", name)
        if wagers:
            page.select_option(f"#wager-{seat}-a", wagers[seat - 1][0])
            page.select_option(f"#wager-{seat}-b", wagers[seat - 1][1])
    if match:
        page.check("#match")
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#recording:not([hidden])")
    ready(page)


def extend(text: str, piece: str) -> str:
    """A piece added to its turn's text, as the recorder writes it (lcn.moves.extend, and a
    classic draw ``/d`` after its card; the card drawn, ``=R7``, after ``/d``)."""
    if piece.startswith("/"):
        return text + piece
    return lcn.moves.extend(text, piece)


def turns_of(pieces: list[tuple[str, bool]]) -> list[str]:
    turns: list[str] = []
    for piece, starts in pieces:
        if starts or not turns:
            turns.append(piece)
        else:
            turns[-1] = extend(turns[-1], piece)
    return turns


def play(page: Any, rng: random.Random, classic: bool, *, undo_at: int, reload_at: int,
         check_at: int, pieces: list[tuple[str, bool]]) -> None:
    """Tap random offered buttons until the game is over; ``pieces`` gets what was tapped."""
    for tap in range(MAX_TAPS):
        ready(page)
        if page.locator("#recorder[data-over]").count():
            return
        assert page.locator("#problem").inner_text() == ""
        buttons = page.locator("#choice-groups [data-lcn]")
        count = buttons.count()
        assert count > 0, "no move offered and the game is not over"
        if tap == check_at:
            check_page(page)
        if tap == reload_at:
            page.reload()
            page.wait_for_selector("#recording:not([hidden])")
            ready(page)
            assert page.locator("#choice-groups [data-lcn]").count() == count
        if tap == undo_at and pieces:
            page.click("#undo")
            pieces.pop()
            ready(page)
            continue
        chosen = buttons.nth(rng.randrange(count))
        word = chosen.get_attribute("data-lcn")
        assert word
        if classic:
            starts = not word.startswith(("/", "="))
        else:
            starts = int(page.locator("#choices").get_attribute("data-turn")) > \
                len(turns_of(pieces))
        tap_button(chosen, word)
        pieces.append((word, starts))
        if not classic or not starts:
            assert page.locator("#last-move").inner_text().endswith(turns_of(pieces)[-1])
    raise AssertionError(f"the game did not end in {MAX_TAPS} taps")


def save(page: Any) -> str:
    page.click("#save")
    page.wait_for_selector("#permalink-line:not([hidden])")
    return str(page.locator("#permalink").get_attribute("href"))


def stored_games(page: Any, link: str) -> list[Any]:
    game_id = link.rstrip("/").rsplit("/", 1)[-1]
    text = page.request.get(link.rsplit("/g/", 1)[0] + f"/g/{game_id}.lcn").text()
    return list(lcn.read_games(text))


def canonical(game: Any, turns: list[str]) -> list[str]:
    """Turns as the store writes them (the writer's canonical form: a roll's colour dice in
    their fixed order, for one)."""
    record = GameRecord(tags=Tags(), turns=[Turn(text) for text in turns], termination="*")
    for name, value in game.tags.items():
        if name != "Result":
            record.tags[name] = value
    return [turn.text for turn in lcn.read_game(lcn.write_game(record)).turns]


def assert_recorded(game: Any, pieces: list[tuple[str, bool]]) -> None:
    report = lcn.validate_record(game)
    assert report.valid, [d.format() for d in report.diagnostics][:3]
    assert report.over
    tapped = turns_of(pieces)
    assert len(game.turns) == len(tapped)
    assert [turn.text for turn in game.turns] == canonical(game, tapped)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players", "wagers", "seed"), [
    ("classic5", ["Ada", "Bo"], None, 1),
    ("rivals", ["Ada", "Bo", "Cy"], [("R", "B"), ("Y", "G"), ("W", "R")], 2),
    ("rollwrite", ["Ada", "Bo"], None, 3),
])
def test_a_whole_game_is_recorded_by_taps_alone_and_saved(
        site: str, chromium: Any, variant: str, players: list[str],
        wagers: list[tuple[str, str]] | None, seed: int) -> None:
    rng = random.Random(seed)
    with phone_page(chromium) as (page, errors):
        start(page, site, variant, players, wagers=wagers)
        check_page(page)
        pieces: list[tuple[str, bool]] = []
        play(page, rng, variant.startswith("classic"), undo_at=9, reload_at=14, check_at=5,
             pieces=pieces)
        # A comment and a glyph on the second turn.
        page.select_option("#note-turn", "1")
        page.select_option("#note-glyph", "!?")
        page.fill("#note-comment", "a bold start")
        check_page(page)
        link = save(page)
        games = stored_games(page, link)
        assert len(games) == 1
        assert_recorded(games[0], pieces)
        assert games[0].turns[1].glyphs == ["!?"]
        assert games[0].turns[1].comments == ["a bold start"]
        assert [games[0].tags[f"Player{seat + 1}"] for seat in range(len(players))] == players
        # The permalink opens the replay of the game recorded.
        page.goto(link)
        assert page.locator("#replay").count() == 1
        assert errors.messages == []


@pytest.mark.slow
def test_a_match_of_three_games_keeps_the_running_totals(site: str, chromium: Any) -> None:
    rng = random.Random(7)
    with phone_page(chromium) as (page, errors):
        start(page, site, "classic5", ["Hana", "Ivo"], match=True)
        every: list[list[tuple[str, bool]]] = []
        for number in range(1, 4):
            assert page.locator("#game-title").inner_text().endswith(f"{number} of 3")
            pieces: list[tuple[str, bool]] = []
            play(page, rng, True, undo_at=-1, reload_at=3 if number == 2 else -1,
                 check_at=-1, pieces=pieces)
            every.append(pieces)
            if number < 3:
                assert page.locator("#next-game").is_visible()
                page.click("#next-game")
                ready(page)
        assert page.locator("#next-game").is_hidden()
        assert "Hana" in page.locator("#match-line").inner_text()
        games = stored_games(page, save(page))
        assert len(games) == 3
        totals = {"Hana": 0, "Ivo": 0}
        for number, (game, pieces) in enumerate(zip(games, every, strict=True), 1):
            assert game.tags["Game"] == str(number)
            assert game.tags["Match"] == games[0].tags["Match"]
            if number > 1:
                best = max(totals.values())
                leaders = [name for name, total in totals.items() if total == best]
                if len(leaders) == 1:
                    assert game.tags["Player1"] == leaders[0]
            assert_recorded(game, pieces)
            report = lcn.validate_record(game)
            assert report.totals is not None
            for seat in range(2):
                totals[game.tags[f"Player{seat + 1}"]] += report.totals[seat]
        shown = page.locator("#match-line").inner_text()
        for name, total in totals.items():
            assert f"{name} {total}" in shown
        assert errors.messages == []


def test_the_record_survives_without_the_server_and_says_so(site: str, chromium: Any) -> None:
    with phone_page(chromium) as (page, errors):
        start(page, site, "classic6", ["Ada", "Bo"])
        page.wait_for_selector("#recorder[data-offline-ready]", state="attached")
        buttons = page.locator("#choice-groups [data-lcn]")
        assert buttons.first.get_attribute("data-lcn") == "Yw"
        assert page.locator("#choice-groups [data-lcn='Pw']").count() == 1  # six colours
        page.click("#choice-groups [data-lcn='Yw']")
        page.click("#choice-groups [data-lcn='/d']")
        ready(page)
        page.context.set_offline(True)
        page.click("#choice-groups [data-lcn='B2']")
        page.click("#choice-groups [data-lcn='/d']")
        ready(page)
        assert page.locator("#net-status").is_visible()
        assert "No connection" in page.locator("#net-status").inner_text()
        check_page(page)
        page.reload()  # from the service worker's cache
        page.wait_for_selector("#recording:not([hidden])")
        ready(page)
        assert page.locator("#net-status").is_visible()
        kept = json.loads(page.evaluate("window.localStorage.getItem('lcn-record-v1')"))
        assert [p["lcn"] for p in kept["games"][0]["pieces"]] == ["Yw", "/d", "B2", "/d"]
        assert "1. Yw/d B2/d" in (page.locator("#lcn-text").text_content() or "")
        page.context.set_offline(False)
        # Back online, the page asks again by itself ("online"); the button asks too.
        page.evaluate("document.getElementById('retry').click()")
        page.wait_for_selector("#net-status[hidden]", state="attached")
        ready(page)
        assert page.locator("#net-status").is_hidden()
        assert page.locator("#choices").get_attribute("data-turn") == "3"
        errors.messages[:] = [m for m in errors.messages if "ERR_INTERNET_DISCONNECTED" not in m
                              and "Failed to fetch" not in m and "Failed to load" not in m]
        assert errors.messages == []


def test_german_page_and_bad_setup(site: str, chromium: Any) -> None:
    with phone_page(chromium, NARROW) as (page, errors):
        page.context.add_cookies([{"name": "lang", "value": "de", "url": site}])
        page.goto(site + "/record")
        page.evaluate("window.localStorage.clear()")
        assert page.locator("h1").inner_text() == "Eine Partie am Tisch aufzeichnen"
        page.check("input[name=variant][value=rivals]")
        page.fill("#player-1", "Ada")
        page.fill("#player-2", "Ada")
        page.click("#setup-form button[type=submit]")
        assert "Namen" in page.locator("#problem").inner_text()
        page.fill("#player-2", "Bo")
        page.select_option("#wager-2-a", "Y")
        page.select_option("#wager-2-b", "Y")
        page.click("#setup-form button[type=submit]")
        assert "zwei" in page.locator("#problem").inner_text()
        check_page(page)
        assert errors.messages == []


def test_with_the_hands_entered_the_cards_offered_are_the_hand(site: str, chromium: Any) -> None:
    hand1, hand2 = "B5 G6 G8 B3 B6 Y3 B7 Y9", "G10 G7 Yw W4 R10 G3 W9 W7"
    with phone_page(chromium) as (page, errors):
        page.goto(site + "/record")
        page.evaluate("window.localStorage.clear()")
        page.goto(site + "/record")
        page.fill("#player-1", "Hana")
        page.fill("#player-2", "Ivo")
        page.fill("#hand-1", hand1)
        page.fill("#hand-2", hand2)
        page.click("#setup-form button[type=submit]")
        page.wait_for_selector("#recording:not([hidden])")
        ready(page)
        offered = page.locator("#choice-groups [data-lcn]").evaluate_all(
            "buttons => buttons.map(b => b.getAttribute('data-lcn'))")
        cards = set(hand1.split())
        assert set(offered) == cards | {"x" + card for card in cards}
        page.click("#choice-groups [data-lcn='xB5']")
        sources = page.locator("#choice-groups [data-lcn]").evaluate_all(
            "buttons => buttons.map(b => b.getAttribute('data-lcn'))")
        assert sources == ["/d"]  # every discard pile is empty
        page.click("#choice-groups [data-lcn='/d']")
        ready(page)
        assert "Ivo" in page.locator("#choices-title").inner_text()
        assert page.locator("#board .hand").count() == 2
        assert 'Hand1 "B5 G6 G8 B3 B6 Y3 B7 Y9"' in (page.locator("#lcn-text").text_content() or "")
        check_page(page)
        assert errors.messages == []


def offered(page: Any, selector: str = "#choice-groups [data-lcn]") -> list[str]:
    return list(page.locator(selector).evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('data-lcn'))"))


@pytest.mark.slow
@pytest.mark.parametrize(("viewport", "language"), [(DESKTOP, "en"), (PHONE, "de")])
def test_the_card_drawn_may_be_named_from_the_cards_unseen(
        site: str, chromium: Any, viewport: tuple[int, int], language: str) -> None:
    drawn_group = "#choice-groups .drawn-group [data-lcn]"
    with phone_page(chromium, viewport) as (page, errors):
        if language != "en":
            page.context.add_cookies([{"name": "lang", "value": language, "url": site}])
        start(page, site, "classic5", ["Ada", "Bo"])
        assert offered(page, drawn_group) == []  # nothing drawn yet
        page.click("#choice-groups [data-lcn='R5']")
        assert offered(page, drawn_group) == []  # the card waits for its draw
        page.click("#choice-groups [data-lcn='/d']")
        ready(page)
        # The names offered are the library's, validated by the engine: every kind of card
        # but the one just placed.
        text = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d *\n'
        expected = lcn.legal_moves(text, draws=True).draws
        assert offered(page, drawn_group) == [move.lcn for move in expected]
        assert "=R5" not in offered(page, drawn_group) and len(expected) == 49
        button = page.locator("#choice-groups .drawn-group [data-lcn='=R4']")
        label = button.get_attribute("aria-label")
        assert label == ("Ada zog R4 vom Nachziehstapel" if language == "de"
                         else "Ada drew R4 from the draw pile")
        heading = page.locator("#choice-groups .drawn-group h3").inner_text()
        assert "R5/d" in heading and ("Freiwillig" if language == "de" else "Optional") in heading
        # Bo's turn is offered at the same time: naming is optional.
        assert "Bo" in page.locator("#choices-title").inner_text()
        assert page.locator("#choice-groups [data-lcn='R4']").count() == 1
        no_sideways_scroll(page)
        assert axe_violations(page) == []
        check_page(page)
        page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
        button.click()
        ready(page)
        assert "1. R5/d=R4" in (page.locator("#lcn-text").text_content() or "")
        assert page.locator("#last-move").inner_text().endswith("R5/d=R4")
        assert offered(page, drawn_group) == []  # named: nothing left to name
        # R4 is now known to be in Ada's hand: Bo cannot play it.
        assert page.locator("#choice-groups [data-lcn='R4']").count() == 0
        assert page.locator("#choice-groups [data-lcn='R6']").count() == 1
        page.click("#choice-groups [data-lcn='xB2']")
        page.click("#choice-groups [data-lcn='/d']")
        ready(page)
        after = offered(page, drawn_group)
        assert after and not {"=R4", "=R5", "=B2"} & set(after)
        # Undo takes the name back first, then the draw.
        page.click("#choice-groups .drawn-group [data-lcn='=G7']")
        ready(page)
        assert "xB2/d=G7" in (page.locator("#lcn-text").text_content() or "")
        page.click("#undo")
        ready(page)
        assert offered(page, drawn_group) == after
        page.reload()
        page.wait_for_selector("#recording:not([hidden])")
        ready(page)
        assert offered(page, drawn_group) == after
        games = stored_games(page, save(page))
        assert [turn.text for turn in games[0].turns] == ["R5/d=R4", "xB2/d"]
        assert lcn.validate_record(games[0]).valid
        assert errors.messages == []

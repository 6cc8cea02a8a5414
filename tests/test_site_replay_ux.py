"""The replay as players see it, in Debian's chromium: each turn told and marked, steady
controls, phones, embeds, errors in view, and axe-core's WCAG 2.1 A/AA rules.

axe-core is vendored under ``tests/vendor/axe-core`` (see its README) and evaluated in each
page through the DevTools protocol, which the site's Content-Security-Policy does not cover
(a ``<script>`` tag would be refused, as it should be).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest
from site_support import SAMPLES, browser, browser_page, live_server, make_app, sample_text

import lcn
from lcn.describe import describe_text
from lcn.replay import replay_text

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_VERSION = "4.14.1"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
GAMES = ["classic/rulebook-scoring", "rivals/three-players", "rollwrite/three-players"]
ALL_SAMPLES = sorted(str(p.relative_to(SAMPLES).with_suffix("")) for p in SAMPLES.glob("*/*.lcn"))
BROKEN = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. B2/d R4/d\n3. R7/d Q5/d *\n'


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = make_app(tmp_path_factory.mktemp("site"))
    with live_server(app) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as instance:
        yield instance


def open_replay(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#replay[data-ready]", state="attached")


def last_turn(name: str) -> int:
    record = lcn.read_game(sample_text(name + ".lcn"))
    assert record is not None
    report = lcn.validate_record(record, keep_running=True)
    assert report.running is not None
    return len(report.running) - 1


def at_turn(url: str, turn: int) -> str:
    """``url`` with ``?turn=`` set to ``turn`` (its other arguments kept)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "turn"] + [("turn", str(turn))]
    return urlunsplit(parts._replace(query=urlencode(query)))


def visible(page: Any) -> Any:
    return page.locator("section.position:not([hidden])")


# -- each turn told and shown --------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_each_turn_is_told_above_the_board_in_the_move_list_and_aloud(
        base: str, chromium: Any, name: str) -> None:
    told = describe_text(sample_text(name + ".lcn"))
    with browser_page(chromium) as (page, errors):
        open_replay(page, f"{base}/samples/{name}")
        for turn in range(1, 7):
            page.keyboard.press("ArrowRight")
            line = str(told[turn].line)
            assert visible(page).locator(".turn-line").inner_text() == line
            assert page.locator(f'.mv-told[data-turn="{turn}"]').inner_text() == line
            # The live region says the line of the turn just shown, and nothing else.
            assert page.locator("#turn-announce").get_attribute("aria-live") == "polite"
            assert page.locator("#turn-announce").inner_text() == line
        assert errors.messages == []


def test_a_german_reader_is_told_the_turns_in_german(base: str, chromium: Any) -> None:
    told = describe_text(sample_text("classic/rulebook-scoring.lcn"))
    with browser_page(chromium) as (page, errors):
        page.context.set_extra_http_headers({"Accept-Language": "de"})
        open_replay(page, f"{base}/samples/classic/rulebook-scoring?turn=38")
        line = told[38].line.said_in("de")
        assert "vom Ablagestapel Grün" in line
        assert visible(page).locator(".turn-line").inner_text() == line
        assert page.locator('.mv-told[data-turn="38"]').inner_text() == line
        assert errors.messages == []


def test_classic_marks_the_card_played_and_the_pile_drawn_from(base: str, chromium: Any) -> None:
    name = "classic/rulebook-scoring"
    told = describe_text(sample_text(name + ".lcn"))
    with browser_page(chromium) as (page, errors):
        for turn in (1, 4, 8, 38, 44):
            marks = told[turn].marks
            open_replay(page, f"{base}/samples/{name}?turn={turn}")
            board = visible(page).locator(".board")
            marked = board.locator(".card.marked")
            assert marked.count() == 1, turn
            label = marked.get_attribute("aria-label")
            # Named in full, with its mark in words (not by colour alone).
            assert label.startswith(str(lcn.describe.card_name(marks["placed"]))), label
            word = "discarded" if marks["discarded"] else "played"
            assert label.endswith(f"({word})")
            assert marked.locator(".mark-tag").inner_text().lower() == word
            where = ".piles" if marks["discarded"] else ".expeditions"
            assert marked.locator(f"xpath=ancestor::div[contains(@class, '{where[1:]}')]").count() == 1
            drawn = board.locator(".drawn-from")
            assert drawn.count() == 1
            if marks["from"] == "d":
                assert "draw-pile" in drawn.get_attribute("class")
                assert drawn.locator(".pile-mark").inner_text() == "drawn"
            else:
                assert drawn.locator(".pile-mark").inner_text() == \
                    f"taken: {lcn.describe.card_name(marks['taken'])}"
        open_replay(page, f"{base}/samples/{name}?turn=0")
        assert visible(page).locator(".card.marked, .drawn-from").count() == 0
        assert errors.messages == []


def test_rivals_marks_the_auction_its_winner_price_and_cards(base: str, chromium: Any) -> None:
    name = "rivals/three-players"
    told = describe_text(sample_text(name + ".lcn"))
    auctions = [n for n, t in told.items() if t.marks["auction"]][:3]
    assert auctions
    with browser_page(chromium) as (page, errors):
        for turn in [1, *auctions]:
            marks = told[turn].marks
            open_replay(page, f"{base}/samples/{name}?turn={turn}")
            board = visible(page).locator(".board")
            uncovered = board.locator(".display .card.marked")
            assert uncovered.count() == 1
            assert uncovered.get_attribute("aria-label") == \
                f"{lcn.describe.card_name(marks['uncovered'])} (uncovered)"
            if not marks["auction"]:
                assert board.locator(".mark-badge").count() == 0
                continue
            badge = board.locator(f".side.seat-{marks['winner']} .mark-badge")
            assert badge.inner_text().lower() == f"won the auction for {marks['price']} gold"
            taken = board.locator(f".side.seat-{marks['winner']} .expeditions .card.marked")
            assert sorted(t.split(" (")[0] for t in
                          (taken.nth(i).get_attribute("aria-label") for i in range(taken.count()))) \
                == sorted(str(lcn.describe.card_name(c)) for c in marks["placed"])
            assert board.locator(".expeditions .card.marked").count() == len(marks["placed"])
        assert errors.messages == []


def test_roll_and_write_marks_the_boxes_written_and_has_a_legend(base: str, chromium: Any) -> None:
    name = "rollwrite/three-players"
    replay = replay_text(sample_text(name + ".lcn"))[0]
    told = describe_text(sample_text(name + ".lcn"))
    with browser_page(chromium) as (page, errors):
        for turn in (1, 3, 4):
            open_replay(page, f"{base}/samples/{name}?turn={turn}")
            board = visible(page).locator(".board")
            boxes = [b for choice in replay["positions"][turn]["choices"] for b in choice["boxes"]]
            assert board.locator("td.box.new").count() == len(boxes)
            accelerated = sum(max(0, len(c["boxes"]) - 1) for c in replay["positions"][turn]["choices"])
            assert board.locator("td.box.new.accelerated").count() == accelerated
            # Each mark carries a sign and words for screen readers, not only an outline.
            assert board.locator("td.box.new .new-mark").count() == len(boxes)
            assert board.locator("td.box.new .visually-hidden").count() == len(boxes)
            artefacts = sum(c.get("artefacts", 0) for c in told[turn].marks["choices"])
            shaded = board.locator("td.space.new .visually-hidden")
            refusals = sum(1 for c in told[turn].marks["choices"] if c["kind"] == "refuse")
            assert shaded.count() == artefacts + refusals
        legend = page.locator(".legend-panel")
        assert legend.is_visible() and "artefact" in legend.inner_text()
        assert errors.messages == []


# -- steady controls, phones, embeds ---------------------------------------------------------

@pytest.mark.parametrize("size", [(1366, 900), (390, 844)])
@pytest.mark.parametrize("name", GAMES)
def test_next_stays_in_its_place_over_a_whole_replay(base: str, chromium: Any, name: str,
                                                     size: tuple[int, int]) -> None:
    last = last_turn(name)
    with browser_page(chromium, viewport=size) as (page, errors):
        open_replay(page, f"{base}/samples/{name}")
        button = page.locator('.steps a[data-step="next"]')
        start = button.bounding_box()
        assert start is not None
        # Reachable: in the screen, thumb-sized on a phone.
        assert start["y"] >= 0 and start["y"] + start["height"] <= size[1]
        assert start["height"] >= 44
        for turn in range(1, last + 1):
            button.click()
            place = button.bounding_box()
            assert place is not None
            assert abs(place["x"] - start["x"]) <= 2 and abs(place["y"] - start["y"]) <= 2, \
                f"turn {turn}: {place} moved from {start}"
        assert visible(page).get_attribute("data-turn") == str(last)
        assert errors.messages == []


# The narrowest phone in a quick local run (-m 'not slow'); a wider one in the whole suite.
@pytest.mark.parametrize("width, height", [(360, 740), pytest.param(390, 844, marks=pytest.mark.slow)])
def test_no_page_is_wider_than_a_phone(base: str, chromium: Any, width: int, height: int) -> None:
    with browser_page(chromium, viewport=(width, height)) as (page, errors):
        page.goto(f"{base}/")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for name in ALL_SAMPLES:
            for turn in (0, 5, last_turn(name)):
                open_replay(page, f"{base}/samples/{name}?turn={turn}")
                wide = page.evaluate("document.documentElement.scrollWidth")
                assert wide <= width, f"{name} at turn {turn} is {wide} px wide"
        assert errors.messages == []


@pytest.mark.parametrize("width, height", [(720, 480), (480, 360)])
@pytest.mark.parametrize("name", GAMES)
def test_an_embed_shows_its_board_and_controls_without_scrolling(
        base: str, chromium: Any, name: str, width: int, height: int) -> None:
    with browser_page(chromium, viewport=(width, height)) as (page, errors):
        open_replay(page, f"{base}/samples/{name}")
        embed = page.locator("#share").get_attribute("data-embed")
        for turn in (0, 3, last_turn(name)):
            open_replay(page, at_turn(embed, turn))
            assert page.evaluate("document.documentElement.scrollHeight") <= height
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            steps = page.locator(".steps").bounding_box()
            board = visible(page).locator(".board").bounding_box()
            assert steps is not None and board is not None
            assert steps["y"] >= 0 and steps["y"] + steps["height"] <= height
            assert board["y"] >= 0 and board["y"] + board["height"] <= steps["y"] + 1
            for step in ("first", "prev", "next", "last"):
                assert page.locator(f'.steps a[data-step="{step}"]').is_visible()
            page.locator('.steps a[data-step="next"]').click()
            assert visible(page).get_attribute("data-turn") == str(min(turn + 1, last_turn(name)))
        assert errors.messages == []


# -- errors in view ----------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(1366, 900), (390, 844)])
def test_a_broken_paste_shows_its_first_error_in_view_and_focused(
        base: str, chromium: Any, size: tuple[int, int]) -> None:
    with browser_page(chromium, viewport=size) as (page, errors):
        page.goto(f"{base}/")
        page.fill("#text", BROKEN)
        page.click("button[type=submit]")
        page.wait_for_selector("#problems")
        # autofocus is applied at the browser's next rendering opportunity, not when the element
        # is parsed: wait for it (a page that never focuses the panel still fails, after 5 s)
        page.wait_for_function("() => document.activeElement && document.activeElement.id === 'problems'",
                               timeout=5000)
        assert page.evaluate("document.activeElement.id") == "problems"
        first = page.locator("#problems .diag.error").first
        box = first.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= size[1]
        assert page.locator("#text").get_attribute("aria-invalid") == "true"
        assert [m for m in errors.messages if "400" not in m] == []


# -- keyboard ----------------------------------------------------------------------------------

def test_keyboard_help_and_letter_shortcuts_that_can_be_turned_off(base: str, chromium: Any) -> None:
    with browser_page(chromium) as (page, errors):
        open_replay(page, f"{base}/samples/classic/rulebook-scoring")
        assert page.locator("#keys-help").is_hidden()
        page.keyboard.press("?")
        assert page.locator("#keys-help").is_visible()
        assert page.locator("#keys-button").get_attribute("aria-expanded") == "true"
        page.keyboard.press("Escape")
        assert page.locator("#keys-help").is_hidden()
        page.keyboard.press("p")
        assert page.locator("#play").get_attribute("aria-pressed") == "true"
        page.keyboard.press("p")
        assert page.locator("#play").get_attribute("aria-pressed") == "false"
        page.click("#keys-button")
        page.uncheck("#letter-keys")
        page.click("#keys-close")
        page.keyboard.press("p")
        assert page.locator("#play").get_attribute("aria-pressed") == "false"
        page.keyboard.press("?")
        assert page.locator("#keys-help").is_hidden()
        # The choice is kept: a page opened later has letter shortcuts off too.
        open_replay(page, f"{base}/samples/classic/rulebook-scoring")
        page.keyboard.press("p")
        assert page.locator("#play").get_attribute("aria-pressed") == "false"
        page.keyboard.press("ArrowRight")  # arrows are no letters: they always step
        assert visible(page).get_attribute("data-turn") == "1"
        assert errors.messages == []


def test_autoplay_has_a_speed(base: str, chromium: Any) -> None:
    with browser_page(chromium) as (page, errors):
        open_replay(page, f"{base}/samples/classic/rulebook-scoring")
        page.select_option("#speed", "700")
        page.click("#play")
        page.wait_for_function("() => window.lcnReplay.turn() >= 2")
        page.click("#play")
        assert page.locator("#play").get_attribute("aria-pressed") == "false"
        assert errors.messages == []


# -- accessibility -----------------------------------------------------------------------------

def test_the_vendored_axe_core_is_the_published_file() -> None:
    data = AXE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == AXE_SHA256
    assert data.startswith(f"/*! axe v{AXE_VERSION}".encode())


def axe_violations(page: Any) -> list[str]:
    """axe-core's violations of the WCAG 2.1 A and AA rules on the page as it stands."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    found = page.evaluate(
        """async (tags) => {
             const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
             return result.violations.map(v => v.id + ' (' + v.impact + '): ' +
               v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '));
           }""", WCAG_TAGS)
    return list(found)


def test_axe_finds_what_it_is_asked_to(base: str, chromium: Any) -> None:
    """The check can fail: a page with an image without a text alternative is reported."""
    with browser_page(chromium) as (page, _errors):
        page.goto(f"{base}/")
        page.evaluate("document.querySelector('main').appendChild(document.createElement('img'))")
        assert any(v.startswith("image-alt") for v in axe_violations(page))


def test_axe_finds_no_violation_on_the_home_error_and_broken_paste_pages(
        base: str, chromium: Any) -> None:
    with browser_page(chromium) as (page, _errors):
        page.goto(f"{base}/")
        assert axe_violations(page) == []
        page.goto(f"{base}/samples/no-such-sample")
        assert page.locator(".error-page").count() == 1
        assert axe_violations(page) == []
        page.goto(f"{base}/")
        page.fill("#text", BROKEN)
        page.click("button[type=submit]")
        page.wait_for_selector("#problems")
        assert axe_violations(page) == []


@pytest.mark.parametrize("name", [
    # One sample of each game in a quick local run (-m 'not slow'); every sample in the suite.
    name if name in GAMES else pytest.param(name, marks=pytest.mark.slow) for name in ALL_SAMPLES])
def test_axe_finds_no_violation_on_a_replay_at_several_turns(base: str, chromium: Any,
                                                             name: str) -> None:
    last = last_turn(name)
    with browser_page(chromium) as (page, errors):
        for turn in sorted({0, min(3, last), last}):
            open_replay(page, f"{base}/samples/{name}?turn={turn}")
            assert axe_violations(page) == [], f"{name} at turn {turn}"
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        assert axe_violations(page) == [], f"{name} after stepping"
        assert errors.messages == []


@pytest.mark.parametrize("size", [(720, 480), (480, 360)])
def test_axe_finds_no_violation_on_an_embed(base: str, chromium: Any, size: tuple[int, int]) -> None:
    with browser_page(chromium, viewport=size) as (page, errors):
        open_replay(page, f"{base}/samples/rivals/three-players")
        embed = page.locator("#share").get_attribute("data-embed")
        open_replay(page, at_turn(embed, 3))
        assert axe_violations(page) == []
        assert errors.messages == []


# -- downloads and shared links ------------------------------------------------------------

@pytest.fixture()
def client(tmp_path: Path) -> Any:
    return make_app(tmp_path).test_client()


def store(client: Any, text: str) -> str:
    answer = client.post("/", data={"text": text, "format": "auto"})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    return str(answer.headers["Location"]).rsplit("/", 1)[-1]


def test_downloads_are_named_from_the_date_and_the_players(client: Any) -> None:
    gid = store(client, sample_text("classic/annotated.lcn"))
    lcn_file = client.get(f"/g/{gid}.lcn")
    assert lcn_file.headers["Content-Disposition"] == \
        'attachment; filename="2026-07-12-pia-vs-sami.lcn"'
    assert client.get(f"/g/{gid}.json").headers["Content-Disposition"] == \
        'attachment; filename="2026-07-12-pia-vs-sami.json"'
    # Accents are dropped, an unknown date is left out, and without names the id is the name.
    accented = store(client, '[Date "????.??.??"]\n[Player1 "Zoë"]\n[Player2 "Ærø Ünal"]\n\n'
                             '1. R5/d R6/d *\n')
    assert client.get(f"/g/{accented}.lcn").headers["Content-Disposition"] == \
        'attachment; filename="zoe-vs-r-unal.lcn"'
    from replay_server.pages import download_name

    assert download_name("[Event \"x\"]\n\n*\n", "lcn", "abc") == "abc.lcn"
    # A self-contained link's page offers its record under the same name.
    from replay_server.sharing import encode_link

    page = client.get(f"/v?g={encode_link(sample_text('classic/annotated.lcn'))}")
    assert 'download="2026-07-12-pia-vs-sami.lcn"' in page.get_data(as_text=True)


def test_shared_links_keep_the_hands_view(client: Any) -> None:
    gid = store(client, sample_text("classic/rulebook-scoring.lcn"))
    html = client.get(f"/g/{gid}?turn=3&view=2").get_data(as_text=True)
    assert f'value="/g/{gid}?turn=3&amp;view=2"' in html
    assert f"/embed/{gid}?turn=3&amp;view=2" in html
    # The permalink is the game's; the default view adds nothing.
    assert f'id="share-permalink" class="share-link" value="/g/{gid}"' in html
    plain = client.get(f"/g/{gid}?turn=3&view=bogus").get_data(as_text=True)
    assert f'value="/g/{gid}?turn=3"' in plain


def test_shared_links_follow_the_view_chosen_in_the_page(base: str, chromium: Any) -> None:
    with browser_page(chromium) as (page, errors):
        open_replay(page, f"{base}/samples/classic/rulebook-scoring?turn=4")
        page.locator('.views a[data-view="1"]').click()
        assert page.url.endswith("turn=4&view=1")
        assert page.locator("#share-turn").input_value().endswith("turn=4&view=1")
        page.keyboard.press("ArrowRight")
        assert page.locator("#share-turn").input_value().endswith("turn=5&view=1")
        assert "view=1" in page.locator("#share-embed").input_value()
        page.locator('.views a[data-view="all"]').click()
        assert page.locator("#share-turn").input_value().endswith("turn=5")
        assert errors.messages == []

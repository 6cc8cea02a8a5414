"""The page cache is keyed on what a page reads, and a stored game's JSON is cached too.

A replay page's cache was keyed on the raw query string: ``?turn=20&r=1`` missed the entry
of ``?turn=20``, and anyone could flush the cache with made-up arguments. The key is now the
normalised arguments the page uses (``pages._page_key``): other arguments are ignored (the
page's links do not keep them), spellings of the same value share an entry, and turns past
the end share the end's entry. ``GET /api/v1/games/<id>`` (a stored game never changes) is
kept the same way. These tests count renders, never time, and compare every cached answer
with the answer of an app that keeps nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from site_support import SAMPLES, make_app

from replay_server import api, pages

MATCH = (SAMPLES / "classic" / "match.lcn").read_text(encoding="utf-8")
ONE = (SAMPLES / "classic" / "full-deal.lcn").read_text(encoding="utf-8")


@pytest.fixture()
def apps(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """Two apps on one database: one with the page cache, one that keeps no page."""
    pages.DATA_CACHE.clear()
    cached = make_app(tmp_path)
    uncached = make_app(tmp_path, {"PAGE_CACHE_BYTES": 0})
    yield cached, uncached
    for app in (cached, uncached):
        app.extensions["lcn_store"].close()


class Counter:
    def __init__(self) -> None:
        self.calls = 0


@pytest.fixture()
def renders(monkeypatch: pytest.MonkeyPatch) -> Counter:
    """Counts replay renders (pages and fragments) and stored-game documents built."""
    counter = Counter()
    render_replay, game_document = pages.render_replay, api.game_document

    def counted_render(*args: Any, **kwargs: Any) -> str:
        counter.calls += 1
        return render_replay(*args, **kwargs)

    def counted_document(*args: Any, **kwargs: Any) -> Any:
        counter.calls += 1
        return game_document(*args, **kwargs)

    monkeypatch.setattr(pages, "render_replay", counted_render)
    monkeypatch.setattr(api, "game_document", counted_document)
    return counter


def _store(app: Any, text: str) -> str:
    return str(app.extensions["lcn_store"].put(text)[0])


def _cache(app: Any) -> Any:
    return app.extensions["lcn_page_cache"]


def test_junk_arguments_hit_the_same_entry(apps: tuple[Any, Any], renders: Counter) -> None:
    app, _ = apps
    game_id = _store(app, ONE)
    client = app.test_client()
    first = client.get(f"/g/{game_id}?turn=20")
    assert first.status_code == 200 and renders.calls == 1
    entries, size = len(_cache(app)), _cache(app).size
    for query in ("turn=20&r=1", "r=1&turn=20", "turn=020", "turn=20&turn=3", "turn=20&view=junk",
                  "turn=20&part=junk", "turn=20&utm_source=x&fbclid=y", "turn=20&game=",
                  "turn=20&saved=", "turn=+20"):
        again = client.get(f"/g/{game_id}?{query}")
        assert again.status_code == 200, query
        assert again.get_data() == first.get_data(), query
        assert again.headers["ETag"] == first.headers["ETag"]
    assert renders.calls == 1
    assert (len(_cache(app)), _cache(app).size) == (entries, size)


def test_junk_arguments_cannot_grow_the_cache(apps: tuple[Any, Any], renders: Counter) -> None:
    app, uncached = apps
    game_id = _store(app, ONE)
    client = app.test_client()
    assert client.get(f"/g/{game_id}").status_code == 200
    assert client.get(f"/g/{game_id}?turn=99999").status_code == 200
    entries, size, made = len(_cache(app)), _cache(app).size, renders.calls
    for n in range(200):
        assert client.get(f"/g/{game_id}?x{n}={n}&cachebust={n * 7919}").status_code == 200
        assert client.get(f"/g/{game_id}?turn={10**6 + n}&junk={n}").status_code == 200
        assert client.get(f"/g/{game_id}?turn=-{n + 1}&view=v{n}").status_code == 200
    # Negative turns open before the first turn: one more page (turn 0), kept once.
    assert len(_cache(app)) <= entries + 1 and renders.calls <= made + 1
    start = uncached.test_client().get(f"/g/{game_id}?turn=0").get_data()
    # That page, and the bookkeeping of one entry (its ETag and the objects that hold it).
    assert _cache(app).size <= size + len(start) + 1024


def test_a_turn_past_the_end_is_the_last_turns_page(apps: tuple[Any, Any]) -> None:
    app, uncached = apps
    game_id = _store(app, ONE)
    client = app.test_client()
    turns = pages.overview_of(ONE)[0]["turns"]
    end = client.get(f"/g/{game_id}?turn={turns}").get_data()
    for turn in (turns + 1, turns + 50, 10**9):
        assert client.get(f"/g/{game_id}?turn={turn}").get_data() == end
        assert uncached.test_client().get(f"/g/{game_id}?turn={turn}").get_data() == end


def test_the_stored_games_json_is_served_from_the_cache(apps: tuple[Any, Any],
                                                          renders: Counter) -> None:
    app, uncached = apps
    game_id = _store(app, MATCH)
    client = app.test_client()
    first = client.get(f"/api/v1/games/{game_id}")
    assert first.status_code == 200 and first.mimetype == "application/json"
    assert renders.calls == 1
    second = client.get(f"/api/v1/games/{game_id}")
    assert renders.calls == 1 and second.get_data() == first.get_data()
    assert client.get(f"/api/v1/games/{game_id}?junk=1&x=2").get_data() == first.get_data()
    assert renders.calls == 1
    one = client.get(f"/api/v1/games/{game_id}?game=2")
    assert renders.calls == 2 and one.get_json()["games"] == [first.get_json()["games"][1]]
    assert client.get(f"/api/v1/games/{game_id}?game=2&junk=1").get_data() == one.get_data()
    assert renders.calls == 2
    # What the cache answers is what an app that keeps nothing answers, byte for byte.
    fresh = uncached.test_client()
    assert fresh.get(f"/api/v1/games/{game_id}").get_data() == first.get_data()
    assert fresh.get(f"/api/v1/games/{game_id}?game=2").get_data() == one.get_data()
    # A conditional request is answered 304 with the ETag.
    etag = first.headers["ETag"].strip('"')
    assert client.get(f"/api/v1/games/{game_id}", headers={"If-None-Match": f'"{etag}"'}).status_code == 304
    # Errors are not kept: a game the file does not have stays a 404.
    assert client.get(f"/api/v1/games/{game_id}?game=99").status_code == 404
    assert client.get(f"/api/v1/games/{game_id}?game=99").status_code == 404


QUERIES = ["", "turn=0", "turn=7", "turn=7&view=1", "turn=7&view=none", "turn=7&view=junk",
           "turn=12&part=positions", "turn=250&part=moves", "turn=3&part=junk", "turn=-4",
           "turn=100000", "saved=1", "saved=1&turn=5", "saved=", "utm_source=x&turn=9",
           "turn=9&utm_source=x", "game=2", "game=2&turn=5", "game=2&turn=5&x=1", "game=1",
           "game=3&turn=400&part=positions&junk=1"]


@pytest.mark.parametrize("text", [ONE, MATCH], ids=["one-game", "match"])
def test_answers_are_byte_identical_to_uncached_ones(apps: tuple[Any, Any], text: str) -> None:
    app, uncached = apps
    game_id = _store(app, text)
    client, fresh = app.test_client(), uncached.test_client()
    for round_ in range(2):  # the first round fills the cache, the second reads it
        for query in QUERIES:
            url = f"/g/{game_id}?{query}"
            answer, expected = client.get(url), fresh.get(url)
            assert answer.status_code == expected.status_code, (round_, url)
            assert answer.get_data() == expected.get_data(), (round_, url)
    assert len(_cache(uncached)) == 0


def test_sample_pages_are_keyed_the_same_way(apps: tuple[Any, Any], renders: Counter) -> None:
    app, uncached = apps
    client, fresh = app.test_client(), uncached.test_client()
    url = "/samples/classic/full-deal?turn=5"
    first = client.get(url)
    made = renders.calls
    for junk in ("&r=1", "&utm_source=x", "&turn=9"):
        assert client.get(url + junk).get_data() == first.get_data()
    assert renders.calls == made
    assert fresh.get(url + "&r=1").get_data() == first.get_data()


def test_self_contained_links_keep_their_token_in_their_links(apps: tuple[Any, Any]) -> None:
    """/v?g=... is not keyed here: its links must keep ``g``, which the stored pages drop."""
    from replay_server.sharing import encode_link

    app, _ = apps
    token = encode_link(ONE)
    page = app.test_client().get(f"/v?g={token}&turn=3").get_data(as_text=True)
    assert f"g={token}" in page

"""What one request costs is bounded by what it shows, not by the game or the body.

Nothing in the classic rules forces a draw from the draw pile, so a legal game can pass cards
through the discard piles for tens of thousands of turns (a 978-character self-contained link
inflated to a 43,683-turn game and a 143 MB page). These tests bound bytes and memory, never
time: a replay page holds one position and a page of moves, positions come in bounded chunks,
every cache stays within its budget in bytes, game counts are checked while the input is read.
"""

from __future__ import annotations

import http.client
import re
import sqlite3
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from site_support import SAMPLES, live_server, make_app

from lcn.replay import replay_outline, replay_positions, replay_text
from replay_server import pages
from replay_server.caches import ByteCache
from replay_server.sharing import encode_link


def long_game(turns: int) -> str:
    """A legal classic game of ``turns`` turns that never ends: after two draws from the
    draw pile, the players pass four cards round through the discard piles for ever."""
    moves = ["xR5/d", "xB5/d", "xY5/B", "xG5/R"]
    cycle = ["xB5/Y", "xR5/G", "xY5/B", "xG5/R"]
    while len(moves) < turns:
        moves.append(cycle[(len(moves) - 4) % 4])
    return '[Player1 "Ada"]\n[Player2 "Bo"]\n\n' + " ".join(moves[:turns]) + " *\n"


def _stored_count(data_dir: Path) -> int:
    with sqlite3.connect(data_dir / "lcn.sqlite3") as conn:
        return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Any]:
    pages.DATA_CACHE.clear()
    application = make_app(tmp_path)
    yield application
    application.extensions["lcn_store"].close()


def _store(app: Any, text: str) -> str:
    return str(app.extensions["lcn_store"].put(text)[0])


def test_the_long_game_is_legal_and_long() -> None:
    data = replay_outline(long_game(4000), 1)
    assert data is not None and data["valid"] and data["applied"] == 4000


@pytest.mark.parametrize("path", sorted(SAMPLES.rglob("*.lcn")), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_positions_on_demand_are_the_full_replays(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for game, full in enumerate(replay_text(text), 1):
        outline = replay_outline(text, game)
        assert outline is not None
        assert outline["positions"] == []
        assert {k: v for k, v in outline.items() if k != "positions"} == \
            {k: v for k, v in full.items() if k != "positions"}
        chunk = replay_positions(text, game, range(3, 40), full["applied"])
        assert chunk == {n: full["positions"][n] for n in range(3, min(40, full["applied"] + 1))}


def _parts(html: str) -> dict[str, int]:
    sizes = {}
    for name, pattern in (("moves", r'<ol class="moves".*?</ol>'),
                          ("graph", r'<figure class="graph-box">.*?</figure>'),
                          ("annotate", r'<section class="annotate-panel".*?</section>'),
                          ("position", r'<section class="position".*?</section>')):
        found = re.search(pattern, html, re.S)
        sizes[name] = len(found.group(0)) if found else 0
    return sizes


def test_a_long_games_page_costs_one_position_and_a_page_of_moves(app: Any) -> None:
    client = app.test_client()
    sizes = {}
    for turns in (4_000, 40_000):
        gid = _store(app, long_game(turns))
        page = client.get(f"/g/{gid}?turn={turns // 2}")
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert html.count('<section class="position"') == 1
        assert 'class="mv seat-' in html and f'data-turn="{turns // 2}"' in html
        sizes[turns] = len(html)
        fragment = client.get(f"/g/{gid}?turn={turns - 3}&part=positions").get_data(as_text=True)
        shown = [int(n) for n in re.findall(r'<section class="position" data-turn="(\d+)"', fragment)]
        first = (turns - 3) // pages.POSITIONS_CHUNK * pages.POSITIONS_CHUNK
        assert shown == list(range(first, min(first + pages.POSITIONS_CHUNK, turns + 1)))
        assert len(fragment) < pages.POSITIONS_CHUNK * 8_000
        moves = client.get(f"/g/{gid}?turn={turns - 3}&part=moves").get_data(as_text=True)
        assert len(moves) < pages.MOVES_PAGE_BYTES and f'data-turn="{turns - 3}"' in moves
    # Beyond the move list's page, the page does not grow with the game.
    assert sizes[40_000] < 400_000, sizes
    assert abs(sizes[40_000] - sizes[4_000]) < 8_000, sizes


def test_a_self_contained_link_to_a_long_game_stays_small_in_bytes_and_memory(app: Any) -> None:
    text = long_game(40_000)
    token = encode_link(text)
    assert len(token) < 1_500  # what a link can carry, as the audit found
    client = app.test_client()
    tracemalloc.start()
    try:
        page = client.get(f"/v?g={token}&turn=39999")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    # Every link of the page carries the token: the move list holds fewer turns.
    assert len(html) < 600_000
    for name, size in _parts(html).items():
        assert size < 250_000, (name, size)
    assert peak < 120 * 2**20, peak // 2**20
    assert pages.DATA_CACHE.size <= pages.DATA_CACHE.budget


def test_games_longer_than_the_site_replays_get_a_clear_422(tmp_path: Path) -> None:
    app = make_app(tmp_path, {"MAX_REPLAY_TURNS": 1_000})
    client = app.test_client()
    answer = client.get(f"/v?g={encode_link(long_game(1_001))}")
    assert answer.status_code == 422
    body = answer.get_data(as_text=True)
    assert "1001 turns" in body and "at most 1000 turns" in body and "<html" in body
    assert client.get(f"/v?g={encode_link(long_game(1_000))}").status_code == 200


def test_a_document_of_every_position_is_refused_past_its_limit(tmp_path: Path) -> None:
    app = make_app(tmp_path, {"MAX_DOCUMENT_POSITIONS": 500})
    gid = _store(app, long_game(600))
    client = app.test_client()
    for path in (f"/api/v1/games/{gid}", f"/g/{gid}.json", f"/api/v1/games/{gid}?game=1"):
        answer = client.get(path)
        assert answer.status_code == 422, path
    assert client.get(f"/g/{gid}").status_code == 200
    app.extensions["lcn_store"].close()


def test_renders_of_long_files_count_against_the_read_limit(tmp_path: Path) -> None:
    app = make_app(tmp_path, {"RATELIMIT_ENABLED": True, "READ_RATELIMIT": "3 per minute"})
    long_id = _store(app, long_game(8_000))
    short = (SAMPLES / "classic" / "rulebook-scoring.lcn").read_text(encoding="utf-8")
    short_id = _store(app, short)
    client = app.test_client()
    statuses = [client.get(f"/g/{long_id}?turn={n}").status_code for n in (1, 2, 3, 4)]
    assert statuses == [200, 200, 200, 429]
    assert "Too many reads of long games" in client.get(f"/g/{long_id}?turn=5").get_data(as_text=True)
    # A page already rendered is free, and so are games of usual length.
    assert client.get(f"/g/{long_id}?turn=1").status_code == 200
    assert all(client.get(f"/g/{short_id}?turn={n}").status_code == 200 for n in range(10))
    app.extensions["lcn_store"].close()


def test_byte_caches_stay_within_their_budget() -> None:
    cache: ByteCache[str] = ByteCache(1_000, len)
    for n in range(50):
        cache.put(n, "x" * 90)
        assert cache.size <= 1_000
    assert len(cache) == 11 and cache.get(0) is None and cache.get(49) == "x" * 90
    cache.put("big", "y" * 600)  # more than half the budget: given back, not kept
    assert cache.get("big") is None and cache.size <= 1_000


def test_the_caches_of_pages_stay_within_budget_after_many_long_links(app: Any) -> None:
    client = app.test_client()
    for n in range(6):
        assert client.get(f"/v?g={encode_link(long_game(20_000 + n))}&turn={n}").status_code == 200
    assert pages.DATA_CACHE.size <= pages.DATA_CACHE.budget
    assert pages.SOURCE_CACHE.size <= pages.SOURCE_CACHE.budget
    page_cache = app.extensions.get("lcn_page_cache")
    assert page_cache is None or page_cache.size <= page_cache.budget


# -- game counts checked while reading -----------------------------------------------------

ONE_LINE = "R5/d R4/d *\n"


@pytest.mark.parametrize("route", ["/api/v1/games", "/"])
def test_a_body_of_many_one_line_games_is_refused_before_it_is_validated(app: Any, route: str) -> None:
    body = ONE_LINE * 12_000  # 144 kB: once 123 MiB of memory before its 413
    client = app.test_client()
    tracemalloc.start()
    try:
        if route == "/":
            answer = client.post(route, data={"text": body, "format": "auto"})
        else:
            answer = client.post(route, data=body, content_type="text/plain")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer.status_code == 413
    assert "more than the 1000" in answer.get_data(as_text=True)
    assert peak < 40 * 2**20, peak // 2**20
    assert _stored_count(Path(app.config["DATA_DIR"])) == 0


def test_annotating_a_link_of_more_games_than_allowed_stores_nothing(app: Any) -> None:
    token = encode_link(ONE_LINE * 1_001)
    answer = app.test_client().post("/annotate", data={"g": token, "annotator": "Ann"})
    assert answer.status_code == 413
    assert "more than the 1000" in answer.get_data(as_text=True)
    assert _stored_count(Path(app.config["DATA_DIR"])) == 0
    within = app.test_client().post("/annotate", data={"g": encode_link(ONE_LINE * 3), "annotator": "A"})
    assert within.status_code == 303
    assert _stored_count(Path(app.config["DATA_DIR"])) == 1


# -- a chunked body over the size cap --------------------------------------------------------

LIMIT = 64 * 1024


def _games_filling(size: int) -> bytes:
    """Valid games whose text is exactly ``size`` bytes (the last one padded by a comment)."""
    head = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n{'
    tail = '} 1. R5/d R4/d *\n\n'
    game = head + "x" * 2000 + tail
    count = size // len(game) - 1
    rest = size - count * len(game) - len(head) - len(tail)
    return (game * count + head + "y" * rest + tail).encode()


def _post_chunked(base: str, body: bytes) -> tuple[int, bytes]:
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        parts = (body[i:i + 4096] for i in range(0, len(body), 4096))
        conn.request("POST", "/api/v1/games", body=parts, encode_chunked=True,
                     headers={"Content-Type": "text/plain"})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def test_a_chunked_body_over_the_cap_is_refused_not_cut(tmp_path: Path) -> None:
    app = make_app(tmp_path, {"MAX_CONTENT_LENGTH": LIMIT})
    # The first LIMIT bytes are whole valid games: cut there, the body once stored them (201)
    # and dropped the game after.
    within = _games_filling(LIMIT)
    assert len(within) == LIMIT
    over = within + b'[Player1 "Cy"]\n[Player2 "Di"]\n\n1. B5/d B6/d *\n'
    with live_server(app) as base:
        status, body = _post_chunked(base, over)
        assert status == 413, body[:200]
        assert b"too-large" in body
        assert _stored_count(tmp_path) == 0
        status, body = _post_chunked(base, within)
        assert status == 201, body[:200]
        assert _stored_count(tmp_path) == 1
    # The test client, with the same environment a server gives a chunked body.
    answer = app.test_client().post(
        "/api/v1/games", data=over, content_type="text/plain",
        environ_overrides={"wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked",
                           "CONTENT_LENGTH": ""})
    assert answer.status_code == 413
    assert _stored_count(tmp_path) == 1
    app.extensions["lcn_store"].close()


def test_a_link_of_thousands_of_games_lists_those_around_the_one_shown(app: Any) -> None:
    """Each entry of a file's list of games is a link that carries the whole file."""
    token = encode_link(ONE_LINE * 5_000)
    client = app.test_client()
    sizes = []
    for game in (1, 2_500, 5_000):
        answer = client.get(f"/v?g={token}&game={game}")
        assert answer.status_code == 200
        html = answer.get_data(as_text=True)
        listed = re.findall(r'<a href="[^"]*game=(\d+)"', html.split('<nav class="game-list"')[1]
                            .split("</nav>")[0])
        assert str(game) in listed and "1" in listed and "5000" in listed
        assert len(listed) <= 2 * pages.GAMES_AROUND + 3
        sizes.append(len(html))
    assert max(sizes) < 200_000, sizes

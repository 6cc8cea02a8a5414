"""The recorder's routes without a browser: the page, the table of a record so far, the
service worker, and the links to the recorder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from site_support import make_app, sample_text

import lcn

GAME = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d\n*\n'


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    return make_app(tmp_path).test_client()


def test_the_page_offers_every_game_and_its_urls(client: Any) -> None:
    page = client.get("/record")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for value in ("classic5", "classic6", "rivals", "rollwrite"):
        assert f'value="{value}"' in html
    assert 'data-moves-url="/api/v1/moves"' in html
    assert 'data-position-url="/record/position"' in html
    assert 'data-save-url="/api/v1/games"' in html
    assert "record.js" in html and "record.css" in html
    assert "no-cache" in page.headers["Cache-Control"]


def test_the_numbers_of_players_are_the_games_own(client: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The recorder asks each game how many may play: its labels, the seats it offers and
    the limits its script applies all follow, with nothing of a game written in the page."""
    import html
    import json
    import re

    from lcn.variants import find_variant

    page = client.get("/record").get_data(as_text=True)
    limits = json.loads(html.unescape(re.search(r'data-players="([^"]*)"', page)[1]))
    assert limits == {"classic": [2, 2], "rivals": [2, 4], "rollwrite": [2, 5]}
    assert "Rivals (2-4 players)" in page and 'data-seat="5"' in page and 'data-seat="6"' not in page
    rollwrite = find_variant("rollwrite")
    monkeypatch.setattr(type(rollwrite), "max_players", 6)
    page = client.get("/record").get_data(as_text=True)
    assert "Roll & Write (2-6 players)" in page and 'data-seat="6"' in page
    assert json.loads(html.unescape(re.search(r'data-players="([^"]*)"', page)[1]))["rollwrite"] == [2, 6]


def test_the_page_speaks_german(client: Any) -> None:
    html = client.get("/record", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert '<html lang="de">' in html
    assert "Eine Partie am Tisch aufzeichnen" in html
    assert "Keine Verbindung" in html  # the script's words come with the page


def test_home_and_header_link_to_the_recorder(client: Any) -> None:
    html = client.get("/").get_data(as_text=True)
    assert html.count('href="/record"') == 2


def test_the_table_of_a_record_so_far(client: Any) -> None:
    answer = client.post("/record/position", json={"lcn": GAME})
    assert answer.status_code == 200
    data = answer.json
    report = lcn.validate_record(lcn.read_game(GAME), keep_running=True)
    assert report.running is not None
    assert data["turn"] == 2 and data["totals"] == list(report.running[-1])
    assert data["over"] is False and data["valid"] is True and data["match"] is None
    assert data["players"] == ["Ada", "Bo"]
    assert 'class="position" data-turn="2"' in data["html"]
    assert "board-classic" in data["html"] and " hidden" not in data["html"].split(">")[0]


def test_the_table_of_each_game_of_a_match(client: Any) -> None:
    text = sample_text("classic/match.lcn")
    games = list(lcn.read_games(text))
    second = client.post("/record/position", json={"lcn": text, "game": 2}).json
    assert second["over"] is True and second["match"]["game"] == 2
    totals = {"Hana": 0, "Ivo": 0}
    for game in games[:2]:
        scored = lcn.validate_record(game).totals
        assert scored is not None
        for seat in range(2):
            totals[game.tags[f"Player{seat + 1}"]] += scored[seat]
    assert second["match"]["totals"] == totals
    assert second["totals"] == [int(v) for v in games[1].termination.split(":")]


@pytest.mark.parametrize("name", ["rivals/two-players", "rollwrite/three-players"])
def test_the_table_of_every_variant(client: Any, name: str) -> None:
    text = sample_text(name + ".lcn")
    data = client.post("/record/position", json={"lcn": text}).json
    game = lcn.read_game(text)
    assert data["over"] is True and data["turn"] == len(game.turns)
    assert data["totals"] == [int(v) for v in game.termination.split(":")]
    assert f"board-{name.split('/')[0]}" in data["html"]


def test_a_record_that_breaks_a_rule_still_shows_where(client: Any) -> None:
    data = client.post("/record/position", json={"lcn": GAME.replace("*", "2. R4/d *")}).json
    assert data["valid"] is False
    assert data["diagnostics"][0]["code"] == "not-ascending"


@pytest.mark.parametrize("body", [b"{bad", b"[1]", b'{"lcn": 1}', b'{"game": 1}',
                                  b'{"lcn": "*", "game": 0}', b'{"lcn": "*", "game": true}',
                                  b'{"lcn": "x", "game": "2"}', b"\xff"])
def test_bad_bodies_are_400(client: Any, body: bytes) -> None:
    answer = client.post("/record/position", data=body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json["error"]["code"] == "bad-input"
    assert "lcn" in answer.json["error"]["message"] or "game" in answer.json["error"]["message"]


def test_a_game_that_is_not_there_is_400(client: Any) -> None:
    answer = client.post("/record/position", json={"lcn": GAME, "game": 3})
    assert answer.status_code == 400 and "no game 3" in answer.json["error"]["message"]


def test_the_body_size_limit_holds(tmp_path: Path) -> None:
    small = make_app(tmp_path, {"MAX_CONTENT_LENGTH": 200}).test_client()
    assert small.post("/record/position", json={"lcn": GAME * 10}).status_code == 413


def test_the_service_worker_may_control_the_recorder(client: Any) -> None:
    answer = client.get("/record/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype in ("text/javascript", "application/javascript")
    assert answer.headers["Service-Worker-Allowed"] == "/record"
    assert "no-cache" in answer.headers["Cache-Control"]
    assert b"addEventListener(\"fetch\"" in answer.get_data()

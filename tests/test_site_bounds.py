"""The recorder's and the API's surfaces cost what the replay page costs, and say so as clearly.

Every surface that reads a game's turns (the replay page, its picture, the recorder's board,
the legal moves, the annotation form) refuses a game longer than ``MAX_REPLAY_TURNS`` with the
same 422; the legal moves are budgeted by the turns they read, not by requests alone; the
refusal of a hostile annotation form stays small whatever the form holds; and a line longer
than the reader takes is an error, never the opening position's moves. No wall-clock time is
measured: the budget is counted in requests and the work of a refused request in calls.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli
from site_support import make_app

from replay_server import pages
from replay_server.sharing import encode_link
from tests.test_linear_cost import calls
from tests.test_site_long_games import long_game

HEAD = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
#: A record whose one movetext line is longer than the reader takes (lcn.reader.MAX_LINE).
LONG_LINE = HEAD + "xR5/d " + "x" * (1 << 20) + " *\n"


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Any]:
    pages.DATA_CACHE.clear()
    application = make_app(tmp_path, {"MAX_REPLAY_TURNS": 300, "REQUEST_LOG": False})
    yield application
    application.extensions["lcn_store"].close()


def _json(text: str) -> dict[str, str]:
    return {"data": json.dumps({"lcn": text}), "content_type": "application/json"}


def test_long_records_spend_the_work_budget_of_the_moves_long_before_600_requests(
        tmp_path: Path) -> None:
    """600 requests of 10,000 turns a minute were 600 reads and replays (a 99,998-turn record
    costs half a second): the budget in turns stops them after a few, and a request past it is
    refused before its record is read."""
    application = make_app(tmp_path, {"RATELIMIT_ENABLED": True, "REQUEST_LOG": False})
    client = application.test_client()
    body = _json(long_game(10_000))
    accepted = calls(lambda _: client.post("/api/v1/moves", **body), "")
    statuses = [200]
    while statuses[-1] == 200 and len(statuses) < 60:
        statuses.append(client.post("/api/v1/moves", **body).status_code)
    assert statuses[-1] == 429 and len(statuses) <= 20, statuses
    answer = client.post("/api/v1/moves", **body)
    assert answer.status_code == 429
    assert answer.get_json()["error"]["code"] == "rate-limited"
    assert "turns" in answer.get_json()["error"]["message"]
    refused = calls(lambda _: client.post("/api/v1/moves", **body), "")
    assert refused * 10 < accepted, (refused, accepted)
    application.extensions["lcn_store"].close()


def test_a_recorder_at_the_table_is_not_stopped_by_the_work_budget(tmp_path: Path) -> None:
    application = make_app(tmp_path, {"RATELIMIT_ENABLED": True, "REQUEST_LOG": False})
    client = application.test_client()
    body = _json(long_game(80))
    assert all(client.post("/api/v1/moves", **body).status_code == 200 for _ in range(120))
    application.extensions["lcn_store"].close()


def test_a_game_over_the_cap_is_refused_as_too_long_even_when_it_spends_the_budget(
        tmp_path: Path) -> None:
    """A game whose reading costs more than the whole budget of turns is still a game too long
    to replay (422, which says why), not a 429 that invites asking again; the budget is spent
    all the same, so the next request is refused before its record is read."""
    application = make_app(tmp_path, {"RATELIMIT_ENABLED": True, "REQUEST_LOG": False,
                                      "MAX_REPLAY_TURNS": 300,
                                      "MOVES_TURNS_RATELIMIT": "500 per minute"})
    client = application.test_client()
    answer = client.post("/api/v1/moves", **_json(long_game(800)))
    assert answer.status_code == 422, answer.get_data()[:300]
    assert answer.get_json()["error"]["code"] == "too-long"
    assert client.post("/api/v1/moves", **_json(long_game(10))).status_code == 429
    application.extensions["lcn_store"].close()


def _replay_page(client: Any, text: str) -> Any:
    return client.get(f"/v?g={encode_link(text)}")


def _picture(client: Any, text: str) -> Any:
    return client.get(f"/v.png?g={encode_link(text)}")


def _board(client: Any, text: str) -> Any:
    return client.post("/record/position", **_json(text))


def _moves(client: Any, text: str) -> Any:
    return client.post("/api/v1/moves", **_json(text))


def _annotate(client: Any, text: str) -> Any:
    return client.post("/annotate", data={"g": encode_link(text), "format": "json",
                                          "comment-3": "A bold start."})


SURFACES: dict[str, tuple[Callable[[Any, str], Any], int]] = {
    "replay page": (_replay_page, 200), "picture": (_picture, 200),
    "recorder's board": (_board, 200), "legal moves": (_moves, 200),
    "annotation": (_annotate, 201)}


@pytest.mark.parametrize("surface", SURFACES)
def test_every_surface_refuses_a_game_over_the_one_turn_cap(app: Any, surface: str) -> None:
    ask, fine = SURFACES[surface]
    client = app.test_client()
    assert ask(client, long_game(300)).status_code == fine
    refused = ask(client, long_game(301))
    assert refused.status_code == 422
    said = refused.get_data(as_text=True)
    assert "301 turns" in said and "300 turns" in said, said[:400]
    if refused.is_json:
        assert refused.get_json()["error"]["code"] == "too-long"


def test_a_hostile_annotation_form_gets_a_bounded_refusal(app: Any) -> None:
    """A form of 120,000 unknown fields (969 kB) was answered with a page of 6.6 MB, one
    sentence per field: the page names the first problems and counts the rest."""
    gid = app.extensions["lcn_store"].put(long_game(100))[0]
    client = app.test_client()
    for fields in (1_000, 120_000):
        body = f"source={gid}" + "".join(f"&z{i}=" for i in range(fields))
        answer = client.post("/annotate", data=body,
                             content_type="application/x-www-form-urlencoded")
        page = answer.get_data(as_text=True)
        assert answer.status_code == 400
        assert "unknown field &#39;z0&#39;" in page
        assert f"{fields - 20} more" in page, page[-2000:]
        assert len(answer.get_data()) < 32 * 1024, len(answer.get_data())


def test_a_line_too_long_is_an_error_of_the_moves_api_not_the_opening_moves(app: Any) -> None:
    answer = app.test_client().post("/api/v1/moves", **_json(LONG_LINE))
    assert answer.status_code == 400, answer.get_data()[:300]
    codes = [d["code"] for d in answer.get_json()["diagnostics"]]
    assert "line-too-long" in codes
    assert "moves" not in answer.get_json()


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_a_line_too_long_is_an_error_of_lcn_moves(tmp_path: Path, source: str) -> None:
    path = tmp_path / "long.lcn"
    path.write_text(LONG_LINE, encoding="utf-8")
    runner = CliRunner()
    for fmt in ("text", "json"):
        args = ["moves", str(path) if source == "file" else "-", "--format", fmt]
        result = runner.invoke(cli, args, input=None if source == "file" else LONG_LINE)
        assert result.exit_code == 1, result.output[:300]
        assert "line-too-long" in result.output or "longer than" in result.output
        assert "Yw/d" not in result.output
        assert len(result.output) < 10_000


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))

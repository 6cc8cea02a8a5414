"""Answers stay bounded whatever a request holds: a cap on games per request (413) and on the
diagnostics listed in one answer, with exact counts of what was left out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from site_support import make_app

#: A game of one turn that breaks a rule: R4 after R5 in Ada's red expedition.
BAD = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. R4/d *\n'
#: The same with no tags: valid, with three warnings (no tags, no Player1, no Player2).
TINY = "*\n"
#: A short valid game, recognised as LCN by the import detection of the store and the form.
SHORT = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d *\n'


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    return make_app(tmp_path, {"MAX_GAMES": 5, "MAX_DIAGNOSTICS": 4}).test_client()


def test_validation_of_more_games_than_allowed_is_a_413(client: Any) -> None:
    response = client.post("/api/v1/validate", data=TINY * 6, content_type="text/plain")
    assert response.status_code == 413
    message = response.get_json()["error"]["message"]
    assert "more than 5 games" in message and "lcn validate" in message


def test_as_many_games_as_allowed_are_validated(client: Any) -> None:
    response = client.post("/api/v1/validate", data=TINY * 5, content_type="text/plain")
    assert response.status_code == 200
    assert response.get_json()["summary"]["games"] == 5


def test_diagnostics_past_the_budget_are_counted_not_listed(client: Any) -> None:
    response = client.post("/api/v1/validate", data=TINY * 3, content_type="text/plain")
    body = response.get_json()
    listed = [len(g["diagnostics"]) for g in body["games"]]
    assert listed == [3, 1, 0]
    assert [g.get("diagnostics_omitted", 0) for g in body["games"]] == [0, 2, 3]
    assert body["summary"]["diagnostics_omitted"] == 5
    assert all(g["valid"] for g in body["games"]), "validity is exact even when cut"


def test_an_answer_within_the_budget_is_whole(client: Any) -> None:
    body = client.post("/api/v1/validate", data=BAD, content_type="text/plain").get_json()
    assert "diagnostics_omitted" not in body["summary"]
    assert [d["code"] for d in body["games"][0]["diagnostics"]] == ["not-ascending"]


def test_storing_more_games_than_allowed_is_a_413_and_stores_nothing(client: Any) -> None:
    response = client.post("/api/v1/games", data=json.dumps({"lcn": "\n".join([SHORT] * 6)}),
                           content_type="application/json")
    assert response.status_code == 413
    assert "more than the 5" in response.get_json()["error"]["message"]


def test_a_refused_store_lists_a_bounded_number_of_diagnostics(client: Any) -> None:
    text = "\n".join([BAD] * 5)
    response = client.post("/api/v1/games", data=text, content_type="text/plain")
    assert response.status_code == 400
    body = response.get_json()
    assert len(body["diagnostics"]) == 4 and body["diagnostics_omitted"] == 1
    assert sum(len(g["diagnostics"]) for g in body["games"]) == 4


def test_the_home_form_refuses_more_games_than_allowed(client: Any) -> None:
    response = client.post("/", data={"text": "\n".join([SHORT] * 6), "format": "auto"})
    assert response.status_code == 413
    assert "more than the 5 one upload may hold" in response.get_data(as_text=True)


def test_the_home_form_shows_the_first_diagnostics_and_says_so(client: Any) -> None:
    response = client.post("/", data={"text": "\n".join([BAD] * 5), "format": "auto"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "The first 4 are shown." in page
    assert page.count("cannot follow R5") == 4


def test_the_limits_come_from_the_environment(tmp_path: Path, monkeypatch: Any) -> None:
    from replay_server.config import load_config

    monkeypatch.setenv("LCN_MAX_GAMES", "7")
    monkeypatch.setenv("LCN_MAX_DIAGNOSTICS", "9")
    config = load_config({"DATA_DIR": str(tmp_path)})
    assert (config["MAX_GAMES"], config["MAX_DIAGNOSTICS"]) == (7, 9)
    monkeypatch.setenv("LCN_MAX_GAMES", "many")
    from replay_server.config import ConfigError

    with pytest.raises(ConfigError, match="LCN_MAX_GAMES"):
        load_config({"DATA_DIR": str(tmp_path)})


def test_validation_refuses_a_format_it_would_not_use(client: Any) -> None:
    """The route checks LCN: a format it would ignore is a 400 that says what to do."""
    for fmt, why in (("openspiel", "another site or engine"), ("klingon", "not a known format")):
        response = client.post("/api/v1/validate", data=json.dumps({"lcn": BAD, "format": fmt}),
                               content_type="application/json")
        assert response.status_code == 400, fmt
        message = response.get_json()["error"]["message"]
        assert why in message and "POST /api/v1/games" in message
    for fmt in ("lcn", "auto"):
        response = client.post("/api/v1/validate", data=json.dumps({"lcn": BAD, "format": fmt}),
                               content_type="application/json")
        assert response.status_code == 200, fmt

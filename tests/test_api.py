"""The JSON API: validate, store, fetch, errors as JSON, and the OpenAPI document."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli
from site_support import SAMPLES, make_app, sample_text

import lcn
from replay_server.storage import game_id

CLASSIC = "classic/rulebook-scoring.lcn"
INVALID = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. B2/d R4/d *\n'


@pytest.fixture(autouse=True)
def every_answer_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app of these tests checks each API answer against the served OpenAPI document
    (tests/openapi_check.py): an undeclared field or status fails the test that met it."""
    from openapi_check import install

    import replay_server

    create = replay_server.create_app

    def checking_app(config: Any = None) -> Any:
        app = create(config)
        app.extensions["openapi_checked"] = install(app)
        return app

    monkeypatch.setattr(replay_server, "create_app", checking_app)


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return make_app(tmp_path)


@pytest.fixture()
def client(app: Any) -> Any:
    return app.test_client()


def _cli_json(path: Path) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["validate", "--format", "json", str(path)])
    return json.loads(result.output)


@pytest.mark.parametrize("sample", [CLASSIC, "rivals/annotated.lcn", "classic/match.lcn"])
def test_validate_answers_as_the_cli_does(client: Any, sample: str) -> None:
    expected = _cli_json(SAMPLES / sample)
    for game in expected["games"]:
        game["file"] = "<input>"
    for entry in expected["files"]:
        entry["file"] = "<input>"
    text = sample_text(sample)
    as_text = client.post("/api/v1/validate", data=text.encode(), content_type="text/plain")
    as_json = client.post("/api/v1/validate", json={"lcn": text})
    assert as_text.status_code == as_json.status_code == 200
    assert as_text.json == as_json.json == expected


def test_validate_reports_rule_errors_with_their_place(client: Any) -> None:
    answer = client.post("/api/v1/validate", data=INVALID, content_type="text/plain")
    assert answer.status_code == 200
    assert answer.json["summary"] == {"games": 1, "valid": 0, "invalid": 1}
    problem = answer.json["games"][0]["diagnostics"][0]
    assert problem["line"] == 4 and problem["turn"] == 3 and problem["severity"] == "error"


@pytest.mark.parametrize(("body", "content_type", "expected"), [
    (b'{"lcn": ', "application/json", "not valid JSON"),
    (b'{"text": "x"}', "application/json", "lcn"),
    (b'["x"]', "application/json", "expected a JSON object"),
    (b'{"lcn": 5}', "application/json", "lcn"),
    (b"[Player1 \"\xff\"]\n", "text/plain", "UTF-8"),
])
def test_bad_bodies_are_400_with_a_clear_json_error(client: Any, body: bytes, content_type: str,
                                                    expected: str) -> None:
    for path in ("/api/v1/validate", "/api/v1/games"):
        answer = client.post(path, data=body, content_type=content_type)
        assert answer.status_code == 400, path
        assert answer.json["error"]["status"] == 400
        assert expected in answer.json["error"]["message"]


def test_store_then_fetch_a_game(client: Any) -> None:
    text = sample_text(CLASSIC)
    first = client.post("/api/v1/games", json={"lcn": text})
    assert first.status_code == 201
    gid = first.json["id"]
    canonical = lcn.write_games(lcn.read_games(text))
    assert gid == game_id(canonical) and len(gid) == 16
    assert first.json["url"] == f"/g/{gid}" and first.headers["Location"] == f"/g/{gid}"
    again = client.post("/api/v1/games", data=text, content_type="text/plain")
    assert again.status_code == 200 and again.json["id"] == gid and again.json["created"] is False

    document = client.get(f"/api/v1/games/{gid}")
    assert document.status_code == 200
    body = document.json
    assert body["id"] == gid and body["lcn"] == canonical
    (game,) = body["games"]
    report = next(iter(lcn.validate(text)))
    assert ["Player1", "Ada"] in game["tags"]
    assert len(game["turns"]) == len(report.record.turns) == game["applied"]
    assert len(game["positions"]) == len(game["running"]) == game["applied"] + 1
    assert game["running"][-1] == game["scores"]["totals"] == report.score.totals
    assert game["positions"][-1]["over"] is True


def test_a_file_of_several_games_is_stored_whole(client: Any) -> None:
    text = sample_text("classic/match.lcn")
    gid = client.post("/api/v1/games", json={"lcn": text}).json["id"]
    games = client.get(f"/api/v1/games/{gid}").json["games"]
    assert [g["index"] for g in games] == list(range(1, len(games) + 1))
    assert len(games) == len(list(lcn.read_games(text))) >= 2
    assert games[-1]["match"]["totals"]


def test_an_invalid_game_is_refused_with_every_diagnostic(client: Any) -> None:
    answer = client.post("/api/v1/games", json={"lcn": INVALID})
    assert answer.status_code == 400
    assert answer.json["error"]["code"] == "bad-input"
    assert answer.json["diagnostics"][0]["line"] == 4
    assert answer.json["games"][0]["valid"] is False
    canonical = lcn.write_games(lcn.read_games(INVALID))
    assert client.get(f"/api/v1/games/{game_id(canonical)}").status_code == 404


def test_other_formats_are_imported_with_detection(client: Any) -> None:
    narrated = ("Ada plays the red 7\nAda draws from the draw pile\nBo plays the red 8\n"
                "Bo draws from the draw pile\n")
    answer = client.post("/api/v1/games", json={"lcn": narrated})
    assert answer.status_code == 201, answer.json
    assert answer.json["format"] == "text"
    stored = client.get(f"/api/v1/games/{answer.json['id']}").json
    assert [t["text"] for t in stored["games"][0]["turns"]][:2] == ["R7/d", "R8/d"]
    unknown = client.post("/api/v1/games", json={"lcn": narrated, "format": "nope"})
    assert unknown.status_code == 400 and "unknown format" in unknown.json["error"]["message"]
    undetected = client.post("/api/v1/games", json={"lcn": "hello there, general kenobi"})
    assert undetected.status_code == 400 and "not in any format" in undetected.json["error"]["message"]


def test_unknown_games_routes_and_methods_are_json_errors(client: Any) -> None:
    missing = client.get("/api/v1/games/AAAAAAAAAAAAAAAA")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not-found"
    assert client.get("/api/v1/nothing").json["error"]["status"] == 404
    wrong = client.get("/api/v1/validate")
    assert wrong.status_code == 405 and wrong.json["error"]["code"] == "method-not-allowed"
    assert "POST" in wrong.headers["Allow"]


def test_over_the_size_limit_is_413_as_json(tmp_path: Path) -> None:
    client = make_app(tmp_path, {"MAX_CONTENT_LENGTH": 1000}).test_client()
    big = sample_text(CLASSIC) * 3
    for path in ("/api/v1/validate", "/api/v1/games"):
        answer = client.post(path, data=big, content_type="text/plain")
        assert answer.status_code == 413
        assert answer.json["error"]["status"] == 413


def test_write_routes_are_rate_limited(tmp_path: Path) -> None:
    client = make_app(tmp_path, {"RATELIMIT_ENABLED": True, "RATELIMIT": "2 per minute"}).test_client()
    statuses = [client.post("/api/v1/validate", data=INVALID).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert client.post("/api/v1/games", json={"lcn": INVALID}).json["error"]["status"] == 429
    assert client.get("/api/v1/openapi.json").status_code == 200  # reads are not limited


def test_the_openapi_document_lists_every_route(app: Any) -> None:
    document = app.test_client().get("/api/v1/openapi.json").json
    assert document["openapi"].startswith("3.")
    paths = document["paths"]
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = rule.rule
        for converter in ("gid:", "path:"):
            path = path.replace("<" + converter, "<")
        path = path.replace("<", "{").replace(">", "}")
        assert path in paths, path
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            assert method.lower() in paths[path], (path, method)
    validate = paths["/api/v1/validate"]["post"]
    assert validate["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/ValidateResult")
    assert "413" in validate["responses"] and "400" in validate["responses"]
    assert paths["/api/v1/games/{game_id}"]["get"]["responses"]["404"]
    schemas = document["components"]["schemas"]
    assert {"Diagnostic", "Replay", "GameDocument", "Stored", "LCNInput", "Error"} <= set(schemas)
    assert set(schemas["Diagnostic"]["properties"]) >= {"code", "severity", "message", "line",
                                                         "column", "turn", "rule", "length"}


def test_one_game_of_a_stored_file(client: Any) -> None:
    text = sample_text("classic/match.lcn")
    gid = client.post("/api/v1/games", json={"lcn": text}).json["id"]
    every = client.get(f"/api/v1/games/{gid}").json["games"]
    second = client.get(f"/api/v1/games/{gid}?game=2").json["games"]
    assert second == [every[1]]
    assert client.get(f"/api/v1/games/{gid}?game=99").status_code == 404
    for bad in ("0", "two", "-1"):
        answer = client.get(f"/api/v1/games/{gid}?game={bad}")
        assert answer.status_code == 400 and "game number" in answer.json["error"]["message"]


def test_multipart_forms_and_curls_default_content_type(client: Any) -> None:
    text = sample_text(CLASSIC)
    as_file = client.post("/api/v1/games", data={"lcn": (io.BytesIO(text.encode()), "game.lcn")},
                          content_type="multipart/form-data")
    as_field = client.post("/api/v1/validate", data={"lcn": text}, content_type="multipart/form-data")
    assert as_file.status_code == 201 and as_field.json["summary"]["valid"] == 1
    missing = client.post("/api/v1/validate", data={"other": "x"}, content_type="multipart/form-data")
    assert missing.status_code == 400 and '"lcn"' in missing.json["error"]["message"]
    # curl --data-binary @game.lcn sends the file as it is, labelled as a form.
    raw = client.post("/api/v1/validate", data=text.encode(),
                      content_type="application/x-www-form-urlencoded")
    assert raw.json["summary"]["valid"] == 1


def test_the_document_declares_what_the_answers_hold(app: Any) -> None:
    """``diagnostics[].game`` and ``diagnostics_omitted`` are sent: they are declared, and the
    check of every answer refuses a field that is not."""
    import jsonschema
    from openapi_check import _strict

    schemas = app.test_client().get("/api/v1/openapi.json").json["components"]["schemas"]
    assert "game" in schemas["Diagnostic"]["properties"]
    assert "diagnostics_omitted" in schemas["Error"]["properties"]
    assert "diagnostics_omitted" in schemas["ValidatedGame"]["properties"]
    assert "diagnostics_omitted" in schemas["Summary"]["properties"]
    stored = _strict(schemas["Stored"])
    jsonschema.validate({"id": "AAAAAAAAAAAAAAAA", "url": "/g/AAAAAAAAAAAAAAAA", "created": True}, stored)
    with pytest.raises(jsonschema.ValidationError, match="'surprise' was unexpected"):
        jsonschema.validate({"id": "AAAAAAAAAAAAAAAA", "url": "/g/A", "surprise": 1}, stored)

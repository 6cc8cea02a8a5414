"""Hostile requests to the site: a clear 4xx every time, never a 500, no stored game touched.

Oversized bodies get 413, malformed JSON and LCN get 400, unknown routes 404 and wrong
methods 405, on every route that takes input. Then seeded fuzzing sends damaged games,
damaged JSON and raw bytes to every POST route under every content type, and junk query
strings to every page, and checks that a game stored before is still served byte for byte.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from site_support import make_app

from fuzz import strategies as fs
from fuzz import targets
from lcn import write_game
from lcn.variants import classic_play

LIMIT = 64 * 1024
VALID = write_game(classic_play.random_game(11))
POST_ROUTES = ["/", "/api/v1/validate", "/api/v1/games", "/annotate"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    app = make_app(tmp_path_factory.mktemp("hostile"), {"MAX_CONTENT_LENGTH": LIMIT})
    yield app


@pytest.fixture(scope="module")
def client(site: Any) -> Any:
    return site.test_client()


@pytest.fixture(scope="module")
def stored(client: Any) -> tuple[str, bytes]:
    """A game stored before any hostile request, and its bytes as first served."""
    response = client.post("/api/v1/games", json={"lcn": VALID})
    assert response.status_code == 201, response.get_data(as_text=True)
    game_id = response.get_json()["id"]
    return game_id, client.get(f"/g/{game_id}.lcn").get_data()


def _error(response: Any) -> dict[str, Any]:
    body = response.get_json()
    assert isinstance(body, dict) and "error" in body, response.get_data(as_text=True)[:300]
    return body["error"]


# -- 413 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("route", POST_ROUTES)
@pytest.mark.parametrize("kind", ["raw", "json", "form", "multipart"])
def test_oversized_bodies_get_413(client: Any, route: str, kind: str) -> None:
    big = "R5/d " * (LIMIT // 4)
    if kind == "raw":
        response = client.post(route, data=big.encode(), content_type="text/plain")
    elif kind == "json":
        response = client.post(route, data=json.dumps({"lcn": big}), content_type="application/json")
    elif kind == "form":
        response = client.post(route, data={"text": big, "lcn": big, "source": big})
    else:
        from io import BytesIO

        response = client.post(route, data={"file": (BytesIO(big.encode()), "big.lcn"),
                                            "lcn": (BytesIO(big.encode()), "big.lcn")},
                               content_type="multipart/form-data")
    assert response.status_code == 413, (route, kind, response.status_code)
    if route.startswith("/api/"):
        assert _error(response)["status"] == 413


@pytest.mark.parametrize("route", POST_ROUTES)
def test_thousands_of_form_parts_are_never_a_500(client: Any, route: str) -> None:
    from io import BytesIO

    many = {f"f{i}": "x" for i in range(3000)}
    multipart = client.post(route, data={**many, "file": (BytesIO(b"R5/d *"), "g.lcn")},
                            content_type="multipart/form-data")
    assert 400 <= multipart.status_code < 500, multipart.status_code
    urlencoded = client.post(route, data="&".join(f"f{i}=x" for i in range(8000)),
                             content_type="application/x-www-form-urlencoded")
    # /api/v1/validate takes any text as a file to check (a 200 with its diagnostics).
    assert urlencoded.status_code < 500, urlencoded.status_code


# -- 400 ----------------------------------------------------------------------------------

MALFORMED_JSON = [
    b"{", b'{"lcn": ', b'{"lcn": "R5/d *"', b"{'lcn': 'x'}",
    # Found here: json.loads's RecursionError and its ValueError for a number of more than
    # 4300 digits were not caught (a 500).
    b"[" * 50_000, b'{"lcn": ' + b"[" * 50_000, b'{"lcn": ' + b"9" * 5000 + b"}",
    b'{"lcn": 5}', b'{"lcn": null}', b'{"lcn": ["R5/d"]}', b"\xff\xfe{}", b'{"lcn": "x", "format": 7}',
    b"[]", b"null", b"5", b'{"format": "lcn"}', b'{"lcn": "R5/d *", "extra": ' + b"[1]" * 100 + b"}",
]


@pytest.mark.parametrize("body", MALFORMED_JSON, ids=range(len(MALFORMED_JSON)))
@pytest.mark.parametrize("route", ["/api/v1/validate", "/api/v1/games"])
def test_malformed_json_gets_400(client: Any, route: str, body: bytes) -> None:
    response = client.post(route, data=body, content_type="application/json")
    assert response.status_code == 400, (response.status_code, response.get_data(as_text=True)[:300])
    assert _error(response)["message"]


def test_an_unknown_format_is_a_400(client: Any) -> None:
    response = client.post("/api/v1/games", json={"lcn": VALID, "format": "nope"})
    assert response.status_code == 400
    assert "unknown format" in _error(response)["message"]


@pytest.mark.parametrize("route", ["/api/v1/validate", "/api/v1/games"])
def test_a_lone_surrogate_in_json_is_never_a_500(client: Any, route: str) -> None:
    """Valid JSON, but not text that UTF-8 can hold: checked like any other text."""
    response = client.post(route, data=b'{"lcn": "R5/d \\ud800 *"}', content_type="application/json")
    assert response.status_code in (200, 400), response.status_code


def test_invalid_utf8_is_a_400(client: Any) -> None:
    for route in ("/api/v1/games", "/api/v1/validate"):
        response = client.post(route, data=b"R5/d \xff\xfe *", content_type="text/plain")
        assert response.status_code == 400
        assert "UTF-8" in _error(response)["message"]


# -- 404 and 405 --------------------------------------------------------------------------------

UNKNOWN = [
    "/nope", "/g/", "/g/AAAAAAAAAAAAAAAA", "/g/AAAAAAAAAAAAAAAA.lcn", "/g/AAAAAAAAAAAAAAAA.json",
    "/g/" + "A" * 64, "/g/..%2F..%2Fetc%2Fpasswd", "/samples/..%2F..%2Fpyproject.toml",
    "/samples/nope.lcn", "/embed/AAAAAAAAAAAAAAAA", "/embed/%3Cscript%3E", "/api/v1/nope",
    "/api/v1/games/AAAAAAAAAAAAAAAA", "/api/v2/games", "/static/nope.js", "/static/../pyproject.toml",
    "/%00", "/g/%F0%9F%92%A9", "/" + "a" * 5000,
]


@pytest.mark.parametrize("path", UNKNOWN)
def test_unknown_routes_get_404(client: Any, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404, (path, response.status_code)
    if path.startswith("/api/"):
        assert _error(response)["status"] == 404


@pytest.mark.parametrize(("method", "path"), [("PUT", "/api/v1/games"), ("DELETE", "/api/v1/games"),
                                              ("GET", "/annotate"), ("PATCH", "/"),
                                              ("POST", "/g/AAAAAAAAAAAAAAAA")])
def test_wrong_methods_get_405(client: Any, method: str, path: str) -> None:
    assert client.open(path, method=method).status_code == 405


# -- seeded fuzzing of every route --------------------------------------------------------------

FUZZ = settings(derandomize=True, deadline=None, database=None, max_examples=80,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

bodies = st.one_of(fs.damaged(fs.valid_lcn(), most=4), fs.damaged_json(), fs.damaged(fs.importer_inputs()),
                   st.binary(max_size=300))
content_types = st.sampled_from(["text/plain", "application/json", "application/x-www-form-urlencoded",
                                 "application/octet-stream", "", "multipart/form-data; boundary=x",
                                 "text/plain; charset=latin-1"])


@FUZZ
@given(st.sampled_from(POST_ROUTES), bodies, content_types)
def test_any_body_on_any_route_is_never_a_500(client: Any, stored: tuple[str, bytes], route: str,
                                              body: bytes, content_type: str) -> None:
    with targets.watchdog():
        response = client.post(route, data=body, content_type=content_type)
    assert response.status_code < 500, (route, content_type, response.status_code,
                                         response.get_data(as_text=True)[:500])


@FUZZ
@given(bodies, st.sampled_from(["text", "file"]), st.sampled_from(["auto", "lcn", "json", "text",
                                                                   "openspiel", "brdgme", "x"]))
def test_any_form_is_never_a_500(client: Any, stored: tuple[str, bytes], body: bytes, field: str,
                                 fmt: str) -> None:
    from io import BytesIO

    if field == "file":
        data: dict[str, Any] = {"file": (BytesIO(body), "game.lcn"), "format": fmt}
    else:
        data = {"text": body.decode("utf-8", "replace"), "format": fmt}
    with targets.watchdog():
        response = client.post("/", data=data, content_type="multipart/form-data")
    assert response.status_code < 500, response.get_data(as_text=True)[:500]


junk = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30)


@FUZZ
@given(st.sampled_from(["/g/{id}", "/g/{id}.json", "/embed/{id}", "/samples/classic/public-only.lcn",
                        "/v", "/embed/v", "/"]),
       st.dictionaries(st.sampled_from(["game", "turn", "view", "g", "part", "saved", "x"]), junk,
                       max_size=4))
def test_any_query_string_is_never_a_500(client: Any, stored: tuple[str, bytes], path: str,
                                         query: dict[str, str]) -> None:
    with targets.watchdog():
        response = client.get(path.format(id=stored[0]), query_string=query)
    assert response.status_code < 500, (path, query, response.status_code)


def test_the_game_stored_first_is_unchanged_after_everything(client: Any,
                                                             stored: tuple[str, bytes]) -> None:
    game_id, first = stored
    again = client.get(f"/g/{game_id}.lcn")
    assert again.status_code == 200
    assert again.get_data() == first
    assert first.decode() == VALID


#: A validation answer once listed every game and every diagnostic: 200 kB of one-line games
#: (`*` lines) answered 70 MB. Now a request may hold at most MAX_GAMES games (413 past that)
#: and an answer lists at most MAX_DIAGNOSTICS diagnostics, so it stays bounded.
def test_a_validation_answer_stays_within_fifty_times_its_request(client: Any) -> None:
    body = b"*\n" * 20_000
    response = client.post("/api/v1/validate", data=body, content_type="text/plain")
    assert response.status_code < 500
    assert len(response.get_data()) < 50 * len(body), len(response.get_data())


#: Share, embed and permalink links once took their host from the request's Host header, on
#: pages cached as public and immutable: one forged request poisoned the page for everyone.
FORGED_HOSTS = ["evil.example", "evil.example:8443", "attacker.test"]


def test_a_forged_host_header_never_appears_in_a_page(client: Any, stored: tuple[str, bytes]) -> None:
    from replay_server.sharing import encode_link

    game_id, _ = stored
    token = encode_link(VALID)
    paths = [f"/g/{game_id}", f"/g/{game_id}?turn=3", f"/embed/{game_id}", f"/v?g={token}",
             f"/embed/v?g={token}&turn=2", "/samples/classic/rulebook-scoring", "/",
             f"/g/{game_id}?turn=3&part=positions", f"/g/{game_id}?part=moves",
             f"/api/v1/games/{game_id}"]
    for host in FORGED_HOSTS:
        for path in paths:
            answer = client.get(path, headers={"Host": host})
            assert answer.status_code == 200, (host, path)
            body = answer.get_data(as_text=True)
            assert host.split(":")[0] not in body, (host, path)
        saved = client.post("/annotate", data={"source": game_id, "annotator": "Ann",
                                               "format": "json"}, headers={"Host": host})
        assert saved.status_code == 201
        assert host.split(":")[0] not in saved.get_data(as_text=True)
    # The cached page served to a later, honest reader holds no forged host either.
    honest = client.get(f"/g/{game_id}?turn=3").get_data(as_text=True)
    assert all(host.split(":")[0] not in honest for host in FORGED_HOSTS)


def test_a_body_of_more_games_than_allowed_is_refused_while_read(client: Any) -> None:
    """Cut at the game limit (1,000) before any game is validated: 413, nothing stored."""
    body = "R5/d R4/d *\n" * 5_000  # 60 kB, under the size cap of this site
    for route, kwargs in (("/api/v1/games", {"data": body, "content_type": "text/plain"}),
                          ("/", {"data": {"text": body}})):
        answer = client.post(route, **kwargs)
        assert answer.status_code == 413, route
    from replay_server.sharing import encode_link

    answer = client.post("/annotate", data={"g": encode_link(body), "annotator": "A"})
    assert answer.status_code == 413

"""Self-contained links (/v?g=...), permalinks and embeds: the link codec and the routes."""

from __future__ import annotations

import base64
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lcn
from replay_server.sharing import MAX_LINK_TEXT, MAX_TOKEN_LENGTH, LinkError, decode_link, encode_link

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
_TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _canonical(path: Path) -> str:
    text = lcn.write_games(lcn.read_games(path.read_text(encoding="utf-8")))
    assert text is not None
    return text


def _samples() -> list[Path]:
    paths = sorted(SAMPLES.rglob("*.lcn"))
    assert paths, "the samples are missing"
    return paths


@pytest.mark.parametrize("path", _samples(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_sample_round_trips_through_a_link(path: Path) -> None:
    text = _canonical(path)
    token = encode_link(text)
    assert decode_link(token) == text
    assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert len(token) < len(text)  # the point of compressing


def test_non_ascii_text_round_trips() -> None:
    text = '[Player1 "Jürgen"]\n[Player2 "Zoë"]\n\n{Überraschung: ß} R5/d *\n'
    assert decode_link(encode_link(text)) == text


def test_every_single_character_change_is_refused_or_harmless() -> None:
    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    token = encode_link(text)
    refused = 0
    for i, char in enumerate(token):
        replacement = "A" if char != "A" else "B"
        damaged = token[:i] + replacement + token[i + 1:]
        try:
            decoded = decode_link(damaged)
        except LinkError as exc:
            assert exc.status == 400
            assert exc.message.startswith("the link")
            refused += 1
        else:
            # Only the unused low bits of the last character can change without changing
            # the bytes; then the game is exactly the same.
            assert decoded == text, f"a change at {i} gave a different game"
    assert refused >= len(token) - 1


@pytest.mark.parametrize("cut", [1, 2, 3, 4, 10, 100])
def test_a_cut_link_is_refused(cut: int) -> None:
    token = encode_link(_canonical(SAMPLES / "classic" / "rulebook-scoring.lcn"))
    with pytest.raises(LinkError, match=r"damaged|cut short|ends too early"):
        decode_link(token[:-cut])


@pytest.mark.parametrize(("token", "message"), [
    ("", "carries no game"),
    ("   ", "carries no game"),
    ("abc def", "contains ' '"),
    ("abc=", "contains '='"),
    ("abc%2F", "contains '%'"),
    ("é", "contains 'é'"),
    ("A", "impossible length"),
    ("AAAA", "does not decompress"),
    (base64.urlsafe_b64encode(zlib.compress(b"\xff\xfe")).decode().rstrip("="), "not valid UTF-8"),
    (base64.urlsafe_b64encode(zlib.compress(b"  \n ")).decode().rstrip("="), "empty game"),
    (base64.urlsafe_b64encode(zlib.compress(b"x") + b"junk").decode().rstrip("="), "extra data"),
])
def test_malformed_tokens_get_a_clear_error(token: str, message: str) -> None:
    with pytest.raises(LinkError, match=message) as caught:
        decode_link(token)
    assert caught.value.status == 400


def test_an_oversized_token_is_414() -> None:
    with pytest.raises(LinkError, match="too long") as caught:
        decode_link("A" * (MAX_TOKEN_LENGTH + 1))
    assert caught.value.status == 414


def test_a_small_token_cannot_expand_without_bound() -> None:
    bomb = base64.urlsafe_b64encode(zlib.compress(b" " * (MAX_LINK_TEXT * 4), 9)).decode().rstrip("=")
    assert len(bomb) <= MAX_TOKEN_LENGTH
    with pytest.raises(LinkError, match="expands to more than"):
        decode_link(bomb)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.text(alphabet=_TOKEN_ALPHABET, max_size=200))
def test_any_string_decodes_to_text_or_a_link_error(token: str) -> None:
    try:
        assert isinstance(decode_link(token), str)
    except LinkError as exc:
        assert exc.status in (400, 414) and exc.message


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_any_compressed_bytes_decode_to_text_or_a_link_error(data: bytes) -> None:
    token = base64.urlsafe_b64encode(zlib.compress(data)).decode().rstrip("=")
    try:
        assert decode_link(token) == data.decode("utf-8")
    except LinkError as exc:
        assert exc.status == 400


# --- the routes ----------------------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Any]:
    from site_support import make_app

    application = make_app(tmp_path, {"DATABASE_URL": database_url})
    yield application
    application.extensions["lcn_store"].close()


def _store(app: Any, text: str) -> str:
    gid, _ = app.extensions["lcn_store"].put(text)
    return str(gid)


def test_a_self_contained_link_renders_the_same_replay_as_the_stored_game(app: Any) -> None:
    from replay_server.pages import render_replay

    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    gid = _store(app, text)
    client = app.test_client()
    stored = client.get(f"/g/{gid}?turn=5")
    linked = client.get(f"/v?g={encode_link(text)}&turn=5")
    assert stored.status_code == linked.status_code == 200
    with app.test_request_context("/"):
        stored_replay = render_replay(text, game_id=gid, turn=5)
        linked_replay = render_replay(text, game_id=None, turn=5)
    # The pages differ only in their links (the permalink and downloads exist only for the
    # stored game); the replay itself (board, moves, scores at every turn) is the same.
    token = encode_link(text)
    assert _replay_part(stored.get_data(as_text=True)) == _replay_part(linked.get_data(as_text=True), token)
    assert _replay_part(stored_replay) == _replay_part(linked_replay)


def _replay_part(page: str, token: str | None = None) -> str:
    """The replay of a page: from the replay's root to the first panel that holds links.

    The turn links of a self-contained link's page carry the game (``?g=<token>&turn=N``);
    without the token they are the stored game's (``?turn=N``).
    """
    if token is not None:
        page = page.replace(f"?g={token}&amp;", "?").replace(f"?g={token}", "?")
    start = page.index('id="replay"')
    ends = [page.find(marker, start) for marker in ('class="panel downloads-panel"', 'id="share"')]
    end = min(e for e in ends if e >= 0)
    part = page[start:end]
    assert len(part) > 1000, "the replay part of the page is missing"
    return part


@pytest.mark.parametrize("query", ["g=AAAA", "g=not-a-token!", "g=", "", "g=" + "A" * 10])
def test_a_damaged_link_is_a_clear_400_page(app: Any, query: str) -> None:
    response = app.test_client().get(f"/v?{query}")
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert "link" in body
    assert "Traceback" not in body


def test_garbage_links_are_never_a_server_error(app: Any) -> None:
    client = app.test_client()
    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    token = encode_link(text)
    garbage = [token[:-7], token[7:], token[::-1], token.upper(), "%00", "%FF%FE", "\u2603",
               encode_link("not a game at all"), encode_link("[Player1 \"Ada\"]\n"),
               encode_link("{" * 5000)]
    for value in garbage:
        for path in ("/v", "/embed/v"):
            response = client.get(path, query_string={"g": value, "turn": "3"})
            assert response.status_code < 500, (path, value[:40], response.status_code)


def test_an_oversized_link_is_414(app: Any) -> None:
    response = app.test_client().get("/v?g=" + "A" * (MAX_TOKEN_LENGTH + 1))
    assert response.status_code == 414
    assert "too long" in response.get_data(as_text=True)


@pytest.mark.parametrize("query", ["turn=abc", "turn=-1", "game=x", "game=99"])
def test_bad_turn_or_game_in_a_link_is_a_4xx(app: Any, query: str) -> None:
    token = encode_link(_canonical(SAMPLES / "classic" / "rulebook-scoring.lcn"))
    response = app.test_client().get(f"/v?g={token}&{query}")
    assert 400 <= response.status_code < 500


def test_the_embed_of_a_stored_game_is_compact_and_frameable(app: Any) -> None:
    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    gid = _store(app, text)
    client = app.test_client()
    embed = client.get(f"/embed/{gid}?turn=3")
    assert embed.status_code == 200
    assert "frame-ancestors *" in embed.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in embed.headers
    body = embed.get_data(as_text=True)
    assert 'id="annotate-form"' not in body and 'id="share"' not in body
    page = client.get(f"/g/{gid}?turn=3")
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Frame-Options"] == "DENY"
    assert 'id="share"' in page.get_data(as_text=True)


def test_link_and_embed_pages_can_be_cached_and_revalidated(app: Any) -> None:
    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    gid = _store(app, text)
    client = app.test_client()
    for path in (f"/v?g={encode_link(text)}&turn=2", f"/embed/{gid}?turn=2"):
        first = client.get(path)
        assert first.status_code == 200
        assert "public" in first.headers["Cache-Control"]
        again = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304, path


def test_the_embed_of_a_link_and_of_a_missing_game(app: Any) -> None:
    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    client = app.test_client()
    linked = client.get(f"/embed/v?g={encode_link(text)}")
    assert linked.status_code == 200
    assert "frame-ancestors *" in linked.headers["Content-Security-Policy"]
    assert client.get("/embed/AAAAAAAAAAAAAAAA").status_code == 404
    assert client.get("/embed/v?g=AAAA").status_code == 400


def _share_links_in(body: str, base: str, gid: str, text: str) -> None:
    assert f'value="{base}/g/{gid}"' in body
    assert f'value="{base}/g/{gid}?turn=7"' in body
    assert f"{base}/v?g={encode_link(text)}&amp;turn=7" in body
    assert f"&lt;iframe src=&#34;{base}/embed/{gid}?turn=7&#34;" in body or \
        f"&lt;iframe src=&quot;{base}/embed/{gid}?turn=7&quot;" in body


def test_the_share_panel_offers_every_link(app: Any) -> None:
    """Relative links (share.js makes them absolute from the address the reader used)."""
    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    gid = _store(app, text)
    body = app.test_client().get(f"/g/{gid}?turn=7").get_data(as_text=True)
    _share_links_in(body, "", gid, text)
    assert "http://localhost" not in body


def test_the_share_links_use_the_configured_base_url(tmp_path: Path) -> None:
    from site_support import make_app

    app = make_app(tmp_path, {"BASE_URL": "https://lcn.example.org/"})
    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    gid = _store(app, text)
    client = app.test_client()
    body = client.get(f"/g/{gid}?turn=7", headers={"Host": "evil.example"}).get_data(as_text=True)
    _share_links_in(body, "https://lcn.example.org", gid, text)
    assert "evil.example" not in body
    saved = client.post("/annotate", data={"source": gid, "annotator": "Ann", "format": "json"},
                        headers={"Host": "evil.example"})
    assert saved.status_code == 201
    assert saved.get_json()["url"].startswith("https://lcn.example.org/g/")


def test_a_game_is_unlisted(app: Any) -> None:
    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    gid = _store(app, text)
    client = app.test_client()
    for path in ("/", "/api/v1/games", "/g/", "/embed/"):
        response = client.get(path)
        assert gid not in response.get_data(as_text=True), path
    # Search engines are asked not to index games, even when a link to one is published.
    for path in (f"/g/{gid}", f"/g/{gid}.lcn", f"/v?g={encode_link(text)}", f"/embed/{gid}",
                 f"/api/v1/games/{gid}"):
        assert client.get(path).headers.get("X-Robots-Tag") == "noindex, nofollow", path
    assert "X-Robots-Tag" not in client.get("/").headers


def test_a_stored_game_survives_a_restart_of_the_server(tmp_path: Path, database_url: str) -> None:
    from site_support import make_app

    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    first = make_app(tmp_path, {"DATABASE_URL": database_url})
    gid = _store(first, text)
    first.extensions["lcn_store"].close()
    second = make_app(tmp_path, {"DATABASE_URL": database_url})
    try:
        assert second.test_client().get(f"/g/{gid}").status_code == 200
        assert second.test_client().get(f"/g/{gid}.lcn").get_data(as_text=True) == text
    finally:
        second.extensions["lcn_store"].close()


def test_the_share_panel_follows_the_turn_in_the_browser(tmp_path: Path) -> None:
    from site_support import browser_page, live_server, make_app

    app = make_app(tmp_path)
    text = _canonical(SAMPLES / "classic" / "rulebook-scoring.lcn")
    token = encode_link(text)
    with live_server(app) as base, browser_page() as (page, errors):
        page.goto(f"{base}/v?g={token}&turn=6")
        assert page.locator("#share-permalink").count() == 0  # nothing stored, no permalink
        assert page.locator("#share button[data-copy]").first.is_visible()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.getElementById('share-turn').value.endsWith('turn=7')")
        assert page.locator("#share-self-contained").input_value() == f"{base}/v?g={token}&turn=7"
        assert f'src="{base}/embed/v?g={token}&amp;turn=7"' in page.locator("#share-embed").input_value()
        assert page.locator("#annotate-at-turn").input_value() == "7"
        assert page.locator("#annotate-turn-7").is_visible()
        assert page.locator("#annotate-turn-6").is_hidden()
        # The embed code works: the page it names is the compact replay at that turn.
        page.goto(f"{base}/embed/v?g={token}&turn=7")
        assert page.locator("#share").count() == 0
        assert page.locator("a.embed-open").get_attribute("href") == f"{base}/v?g={token}&turn=7"
        assert errors.messages == []
    app.extensions["lcn_store"].close()

"""Link previews: the PNG of a position named in every replay page's Open Graph tags, the GIF."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from site_support import make_app

SAMPLES = ["classic/rulebook-scoring", "classic/six-expeditions", "rivals/four-players",
           "rollwrite/five-players"]


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return make_app(tmp_path)


@pytest.fixture()
def client(app: Any) -> Any:
    return app.test_client()


def _meta(html: str, name: str) -> str | None:
    found = re.search(rf'<meta (?:property|name)="{re.escape(name)}" content="([^"]*)">', html)
    return found.group(1).replace("&amp;", "&") if found else None


def _image(data: bytes, kind: str) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == kind
    return image


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_replay_page_names_a_png_of_its_turn(client: Any, sample: str) -> None:
    html = client.get(f"/samples/{sample}?turn=5").get_data(as_text=True)
    url = _meta(html, "og:image")
    assert url is not None and ".png?" in url and "turn=5" in url
    assert _meta(html, "twitter:image") == url
    assert _meta(html, "twitter:card") == "summary_large_image"
    answer = client.get(url)
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    image = _image(answer.data, "PNG")
    assert image.size == (1200, 630)
    assert "public" in answer.headers["Cache-Control"]


def test_the_picture_changes_with_the_turn_and_clamps_past_the_end(client: Any) -> None:
    html = client.get("/samples/classic/rulebook-scoring").get_data(as_text=True)
    url = _meta(html, "og:image")
    assert url is not None and "turn=" not in url  # no ?turn=: the game's last position
    base = url.split("?")[0]
    start = client.get(f"{base}?turn=0").data
    middle = client.get(f"{base}?turn=20").data
    last = client.get(base).data
    assert len({start, middle, last}) == 3
    assert client.get(f"{base}?turn=100000").data == last


@pytest.mark.parametrize("query", ["turn=abc", "turn=1e3", "turn=%20", "game=x"])
def test_bad_arguments_are_400(client: Any, query: str) -> None:
    html = client.get("/samples/classic/rulebook-scoring").get_data(as_text=True)
    base = (_meta(html, "og:image") or "").split("?")[0]
    assert client.get(f"{base}?{query}").status_code == 400


def test_unknown_games_and_links_are_404_or_400(client: Any) -> None:
    assert client.get("/g/nothing-here.png").status_code == 404
    assert client.get("/g/nothing-here.gif").status_code == 404
    assert client.get("/v.png?g=not-a-token!").status_code in (400, 404)
    html = client.get("/samples/classic/rulebook-scoring").get_data(as_text=True)
    base = (_meta(html, "og:image") or "").split("?")[0]
    assert client.get(f"{base}?game=2").status_code == 404


def test_self_contained_links_have_their_picture_too(client: Any) -> None:
    from replay_server.sharing import encode_link

    text = Path("samples/rivals/two-players.lcn").read_text(encoding="utf-8")
    token = encode_link(text)
    html = client.get(f"/v?g={token}&turn=3").get_data(as_text=True)
    url = _meta(html, "og:image")
    assert url is not None and url.startswith("/v.png?") and "turn=3" in url
    assert _image(client.get(url).data, "PNG").size == (1200, 630)


def test_with_a_base_url_the_picture_address_is_absolute(tmp_path: Path) -> None:
    client = make_app(tmp_path, {"BASE_URL": "https://lcn.example.org"}).test_client()
    html = client.get("/samples/classic/rulebook-scoring?turn=2",
                      headers={"Host": "evil.example"}).get_data(as_text=True)
    url = _meta(html, "og:image")
    assert url is not None and url.startswith("https://lcn.example.org/g/")


def test_the_game_gif_has_a_frame_per_position(client: Any) -> None:
    html = client.get("/samples/classic/six-expeditions").get_data(as_text=True)
    gif = re.search(r'href="([^"]+\.gif[^"]*)"', html)
    assert gif is not None
    answer = client.get(gif.group(1).replace("&amp;", "&"))
    assert answer.status_code == 200 and answer.mimetype == "image/gif"
    image = _image(answer.data, "GIF")
    turns = int(re.search(r'data-last="(\d+)"', html).group(1))  # type: ignore[union-attr]
    assert image.n_frames == turns + 1


def test_a_game_too_long_for_a_gif_is_refused_clearly(client: Any, monkeypatch: Any) -> None:
    from replay_server import preview

    monkeypatch.setattr(preview, "MAX_GIF_POSITIONS", 10)
    html = client.get("/samples/classic/rulebook-scoring").get_data(as_text=True)
    base = (_meta(html, "og:image") or "").split("?")[0]
    answer = client.get(base.replace(".png", ".gif"))
    assert answer.status_code == 422
    assert b"at most 10" in answer.data


def test_pictures_are_drawn_once(client: Any, monkeypatch: Any) -> None:
    from replay_server import preview

    drawn: list[int] = []
    real = preview.draw_position

    def counting(data: Any, position: Any, turn: int) -> Any:
        drawn.append(turn)
        return real(data, position, turn)

    monkeypatch.setattr(preview, "draw_position", counting)
    html = client.get("/samples/rivals/four-players?turn=9").get_data(as_text=True)
    url = _meta(html, "og:image")
    first = client.get(url).data
    again = client.get(url).data
    assert first == again and drawn == [9]


def test_the_share_panel_offers_the_picture(client: Any) -> None:
    html = client.get("/samples/classic/rulebook-scoring?turn=4").get_data(as_text=True)
    link = re.search(r'<a href="([^"]+\.png[^"]*)" download data-follow-turn>', html)
    assert link is not None and "turn=4" in link.group(1)


def test_a_german_page_names_a_german_picture(client: Any) -> None:
    english = client.get("/samples/rivals/four-players?turn=9").get_data(as_text=True)
    german = client.get("/samples/rivals/four-players?turn=9",
                        headers={"Accept-Language": "de"}).get_data(as_text=True)
    url_en, url_de = _meta(english, "og:image"), _meta(german, "og:image")
    assert url_en is not None and url_de is not None and "lang=de" in url_de
    assert "lang=" not in url_en
    assert client.get(url_en).data != client.get(url_de).data

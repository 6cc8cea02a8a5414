"""A replay page made from the parts it shares with the game's other turns is, byte for byte,
the page rendered whole: every turn of every sample, in English and in German, by an app
with ``RENDER_CACHE`` on and one with it off (both without the page cache), and a card
drawn by ``pages.card`` as the Jinja macro it replaced drew it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markupsafe import Markup
from site_support import SAMPLES, make_app

from lcn import Reader

#: The Jinja macro ``pages.card`` replaced, as it was.
CARD_MACRO = """\
{% macro card(code, extra='', mark='') -%}
{% set parts = card_parts(code) -%}
<span class="card c-{{ parts[0] }}{% if extra %} {{ extra }}{% endif %}{% if mark %} marked{% endif %}" \
role="img" aria-label="{{ parts[2] }}{% if mark %} ({{ mark }}){% endif %}">{{ parts[0] }}\
<b>{{ '×' if parts[1] == 'w' else parts[1] }}</b>{% if mark %}<span class="mark-tag" \
aria-hidden="true">{{ mark }}</span>{% endif %}</span>
{%- endmacro %}
{{ card(code, extra, mark) }}"""


def _pages(client: object, url: str, games: int) -> dict[str, bytes]:
    pages: dict[str, bytes] = {}
    for game in range(1, games + 1):
        base = f"{url}?game={game}&" if games > 1 else f"{url}?"
        first = client.get(base + "turn=0")  # type: ignore[attr-defined]
        assert first.status_code == 200
        last = int(re.search(rb'data-last="(\d+)"', first.data).group(1))  # type: ignore[union-attr]
        wanted = [f"turn={turn}" for turn in range(last + 2)]
        wanted += [f"turn={turn}&view={view}" for turn in (0, last) for view in ("1", "none")]
        wanted += [f"turn={turn}&part=moves" for turn in (0, last)]
        for query in wanted:
            page = client.get(base + query)  # type: ignore[attr-defined]
            assert page.status_code == 200, (url, query)
            pages[base + query] = page.data
    return pages


# German in the whole suite only: the same pages with another catalog (a quick local run,
# -m 'not slow', renders every turn in English).
@pytest.mark.parametrize("language", ["en", pytest.param("de", marks=pytest.mark.slow)])
def test_every_turn_of_every_sample_is_the_page_rendered_whole(tmp_path: Path, language: str) -> None:
    whole = make_app(tmp_path / "whole", {"PAGE_CACHE_BYTES": 0, "RENDER_CACHE": False})
    parts = make_app(tmp_path / "parts", {"PAGE_CACHE_BYTES": 0})
    compared = 0
    for sample in sorted(SAMPLES.glob("*/*.lcn")):
        text = sample.read_text(encoding="utf-8")
        games = len(list(Reader(text)))
        rendered = []
        for app in (whole, parts):
            client = app.test_client()
            client.set_cookie("lang", language)
            url = client.post("/api/v1/games", json={"lcn": text}).json["url"]
            # With the parts, every page after a game's first takes them from the cache.
            rendered.append(_pages(client, url, games))
        assert rendered[0].keys() == rendered[1].keys()
        for query, page in rendered[0].items():
            assert rendered[1][query] == page, (sample.name, query)
            compared += 1
    assert compared > 1000


def test_a_card_is_drawn_as_the_macro_drew_it(tmp_path: Path) -> None:
    from replay_server.pages import card

    app = make_app(tmp_path)
    macro = app.jinja_env.from_string(CARD_MACRO)
    codes = [f"{colour}{value}" for colour in "YBWGRPOybx" for value in (*range(2, 11), "w", "")]
    for language in ("en", "de"):
        with app.test_request_context("/", headers={"Cookie": f"lang={language}"}):
            for code in codes:
                for extra in ("", "deduced", "a<b"):
                    for mark in ("", "played", "R&D <b>", Markup("taken &amp; kept")):
                        assert card(code, extra, mark) == macro.render(
                            code=code, extra=extra, mark=mark), (code, extra, mark)


def test_the_marks_byte_never_reaches_a_move_list(tmp_path: Path) -> None:
    """The move list made once for every turn marks each turn's link with a NUL-delimited
    number; a record holding a NUL is refused before any page is made of it (and
    ``pages.moves_list`` makes such a list whole, should one come)."""
    text = ('[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
            '1. R5/d {look: \x001\x00 and \x002\x00} xB2/d 2. Y3/d *\n')
    client = make_app(tmp_path, {"PAGE_CACHE_BYTES": 0}).test_client()
    refused = client.post("/api/v1/games", json={"lcn": text})
    assert refused.status_code == 400 and "NUL" in refused.json["error"]["message"]
    from replay_server.pages import moves_list

    with make_app(tmp_path / "other").test_request_context("/"):
        assert moves_list({}, text, 1, "") is None

"""A replay page rendered without the page cache makes its turn-independent parts once.

The annotation form's rows and the score graph's click targets do not depend on the turn the
page shows: they are made once per game, links and language (replay_server.pages), and every
other render of the game reuses them. Counted by Flask's ``template_rendered`` signal, not by
time; the pages must stay what they were (tests/test_site_*.py check their content).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import template_rendered
from site_support import make_app

from replay_server.services.games import DATA_CACHE

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("_annotate_turns.html", "_graph_hits.html", "_moves.html")


@contextmanager
def rendered(app: Any) -> Iterator[Counter[str]]:
    counts: Counter[str] = Counter()

    def record(sender: Any, template: Any, context: Any, **extra: Any) -> None:
        counts[template.name] += 1

    template_rendered.connect(record, app)
    try:
        yield counts
    finally:
        template_rendered.disconnect(record, app)


def test_turn_independent_parts_are_made_once_per_game_and_language(tmp_path: Path) -> None:
    app = make_app(tmp_path, {"PAGE_CACHE_BYTES": 0})
    # The computed parts are kept per process: an earlier test's render of the same sample
    # (same links, same language) would leave nothing to count.
    DATA_CACHE.clear()
    client = app.test_client()
    text = (ROOT / "samples" / "classic" / "full-deal.lcn").read_text(encoding="utf-8")
    answer = client.post("/api/v1/games", json={"lcn": text}).json
    url = (answer["games"][0] if "games" in answer else answer)["url"]
    with rendered(app) as counts:
        first = client.get(f"{url}?turn=20")
        assert first.status_code == 200
    assert all(counts[part] == 1 for part in PARTS), counts
    with rendered(app) as counts:
        for turn in (0, 5, 20, 44):
            page = client.get(f"{url}?turn={turn}")
            assert page.status_code == 200
            assert f'data-turn="{turn}"' in page.get_data(as_text=True)
    assert counts["replay.html"] == 4  # no page cache: each request renders its page
    assert all(counts[part] == 0 for part in PARTS), counts
    # The rows are the same whatever the turn; the form remembers the turn shown.
    body = client.get(f"{url}?turn=7").get_data(as_text=True)
    assert 'id="annotate-turn-44"' in body and 'id="annotate-at-turn"' in body
    assert 'value="7" id="annotate-at-turn"' in body
    # Another language makes its own, in its words.
    client.set_cookie("lang", "de")
    with rendered(app) as counts:
        german = client.get(f"{url}?turn=20").get_data(as_text=True)
    assert all(counts[part] == 1 for part in PARTS), counts
    assert "Zeichen für Zug 1" in german
    assert "Glyph for turn 1" not in german
    # Another view keeps its own links in the graph.
    with rendered(app) as counts:
        viewed = client.get(f"{url}?turn=20&view=1").get_data(as_text=True)
    assert counts["_graph_hits.html"] == 1 and counts["_annotate_turns.html"] == 0
    assert "?turn=3&amp;view=1" in viewed

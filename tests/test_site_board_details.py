"""Details of the replay page that no other test pins down.

The Roll & Write sheet: the bridges stand where the printed sheet has them.

The rulebook's bridge is passed by filling the seventh box; the printed sheet draws it
between the sixth and the seventh box (seeds/rollwrite.md RW-BRIDGE-PASS), so the board must
show boxes 9, 8 and 7 above it and boxes 6 down to 1 below it, as `lcn show` does.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from site_support import make_app

from lcn.variants.rollwrite import BRIDGE_BOX


def test_each_sheet_draws_its_bridge_between_the_sixth_and_the_seventh_box(tmp_path: Path) -> None:
    client: Any = make_app(tmp_path).test_client()
    page = client.get("/samples/rollwrite/three-players?turn=30")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    bodies = re.findall(r'<table class="sheet">.*?<tbody>(.*?)</tbody>', html, re.S)
    assert len(bodies) == 3, "one sheet per player"
    for body in bodies:
        rows = re.findall(r"<tr( class=\"bridge-row\")?>", body)
        bridge = [i for i, cls in enumerate(rows) if cls]
        assert len(bridge) == 1, "one row of bridges per sheet"
        above, below = bridge[0], len(rows) - bridge[0] - 1
        assert (above, below) == (9 - BRIDGE_BOX + 1, BRIDGE_BOX - 1) == (3, 6)


def test_every_replay_page_announces_address_changes_once(tmp_path: Path) -> None:
    """location.js patches the history API: loaded twice, every turn would be announced twice."""
    client: Any = make_app(tmp_path).test_client()
    text = (Path(__file__).resolve().parent.parent / "samples" / "classic" / "match.lcn").read_text()
    stored = client.post("/api/v1/games", data=text, content_type="text/plain").get_json()["id"]
    for url in (f"/g/{stored}?game=2&turn=3", f"/embed/{stored}?game=2&turn=3",
                "/samples/rivals/two-players"):
        page = client.get(url)
        assert page.status_code == 200, url
        assert page.get_data(as_text=True).count("/static/location.js") == 1, url

#!/usr/bin/env python3
"""Screenshots of the replay of each game and of the recorder, on a desktop and on a phone
(the top 1,700 pixels of the whole page), for docs/site.md and docs/recording.md.

    scripts/screenshots.py    # writes docs/screenshots/<game|record>-<desktop|phone>.png

The site runs in a thread on 127.0.0.1 on a temporary data directory, and Debian's chromium
(driven by Playwright, as in the browser tests) opens each sample at a turn that shows what
the turn did: the card played and the pile drawn from, an auction, boxes written. The
recorder is shown after a first classic turn drawn from the pile, with the optional group that
names the card drawn.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from site_support import browser, browser_page, live_server, make_app  # noqa: E402

#: (game, sample, turn shown)
SHOTS = [("classic", "classic/rulebook-scoring", 38), ("rivals", "rivals/three-players", 3),
         ("rollwrite", "rollwrite/three-players", 3)]
SIZES = {"desktop": (1366, 900), "phone": (390, 844)}


def shoot(page: Any, target: Path, size: tuple[int, int]) -> None:
    if size[0] < 500:  # a phone: the top of the whole page
        page.screenshot(path=str(target), full_page=True,
                        clip={"x": 0, "y": 0, "width": size[0], "height": 1700})
    else:
        page.screenshot(path=str(target))
    print(target.relative_to(REPO))


def record(page: Any, base: str) -> None:
    """The recorder after ``1. R5/d``: the next player's cards and the card-drawn group."""
    page.goto(base + "/record")
    page.evaluate("window.localStorage.clear()")
    page.goto(base + "/record")
    page.check("input[name=variant][value=classic5]")
    page.fill("#player-1", "Ada")
    page.fill("#player-2", "Bo")
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#recording:not([hidden])")
    for choice in ("R5", "/d"):
        page.wait_for_selector("#recorder:not([data-busy])", state="attached")
        page.click(f"#choice-groups [data-lcn='{choice}']")
    page.wait_for_selector("#choice-groups .drawn-group [data-lcn]")


def main() -> None:
    out = REPO / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    app = make_app(tempfile.mkdtemp(prefix="lcn-shots-"))
    with live_server(app) as base, browser() as chromium:
        for game, sample, turn in SHOTS:
            for size_name, size in SIZES.items():
                with browser_page(chromium, viewport=size) as (page, errors):
                    page.goto(f"{base}/samples/{sample}?turn={turn}")
                    page.wait_for_selector("#replay[data-ready]", state="attached")
                    shoot(page, out / f"{game}-{size_name}.png", size)
                    if errors.messages:
                        raise SystemExit(f"{sample}: {errors.messages}")
        for size_name, size in SIZES.items():
            with browser_page(chromium, viewport=size) as (page, errors):
                record(page, base)
                shoot(page, out / f"record-{size_name}.png", size)
                if errors.messages:
                    raise SystemExit(f"record: {errors.messages}")


if __name__ == "__main__":
    main()

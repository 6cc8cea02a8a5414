#!/usr/bin/env python3
"""Screenshots of the replay of each game, on a desktop and on a phone (the top 1,700 pixels
of the whole page), for docs/site.md.

    scripts/screenshots.py              # writes docs/screenshots/<game>-<desktop|phone>.png

The site runs in a thread on 127.0.0.1 on a temporary data directory, and Debian's chromium
(driven by Playwright, as in the browser tests) opens each sample at a turn that shows what
the turn did: the card played and the pile drawn from, an auction, boxes written.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from site_support import browser, browser_page, live_server, make_app  # noqa: E402

#: (game, sample, turn shown)
SHOTS = [("classic", "classic/rulebook-scoring", 38), ("rivals", "rivals/three-players", 3),
         ("rollwrite", "rollwrite/three-players", 3)]
SIZES = {"desktop": (1366, 900), "phone": (390, 844)}


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
                    target = out / f"{game}-{size_name}.png"
                    if size_name == "phone":  # the top of the whole page: the turn and the board
                        page.screenshot(path=str(target), full_page=True,
                                        clip={"x": 0, "y": 0, "width": size[0], "height": 1700})
                    else:
                        page.screenshot(path=str(target))
                    if errors.messages:
                        raise SystemExit(f"{sample}: {errors.messages}")
                    print(target.relative_to(REPO))


if __name__ == "__main__":
    main()

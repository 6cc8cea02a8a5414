"""Play seeded legal games of brdgme's Lost Cities (Rust) as brdgme's web site does, and keep
its web page's log.

Usage::

    python scripts/real/brdgme_web_driver.py CLI RENDER WEB_BUILD OUT_DIR NAME SEED
        [--players Mick,Steve] [--colors Green,Blue] [--take 0.3] [--stop-after N] [--half]
        [--start 2018-03-01T09:00:00] [--view-at 2018-04-01T12:00:00]

brdgme's web site runs a game through the game's JSON command line (brdgme/cmd's protocol,
``src/bin/cli.rs`` of brdgme/lost-cities): its API server (brdgme/api) sends ``New`` and
then each player's command as ``Play`` with the game's state, and stores the log entries the
answer carries (``content``, the markup; ``at``, the game's clock; ``public``; ``to``) as
rows of ``game_logs``. This driver does the same with the program ``CLI``, one process per
command, as the server does. The game's clock is the machine's, so each command runs under
``faketime`` at a time the driver chooses (seeded: most moves minutes apart, some hours or
days, as players of a web game answer), which is what gives the page its separators.

The page shows a player the public rows and the rows addressed to them, ordered by
``logged_at`` (``find_game_logs_for_player``); a spectator the public ones. Each row's HTML
is the API's ``GameLog::render``, run by ``RENDER`` (``scripts/real/brdgme_web_render``, the
markup crate's own ``from_string``/``transform``/``html``). The log panel is then rendered by
the web front end's own component (brdgme/web ``src/components/game/show.tsx``, compiled with
its TypeScript; ``WEB_BUILD`` is the compiled ``src``) through ``brdgme_web_logs.js``, and
loaded in Chromium, which gives the text a user copies from the panel.

Written per game NAME and viewer (each player, and ``public``, a spectator, whose page is
looked at 400 days later): ``NAME.logs.json`` (the rows as the server stores them),
``NAME.<viewer>.web.html`` (the page's side panel with the log, as React renders it),
``NAME.<viewer>.web.txt`` (the log's text as copied in the browser), ``NAME.state.json``
(the program's own state, as the REPL driver writes it: deals, deck order, turns, scores).
The HTML and the rows are gzipped (``gzip -9 -n``) when kept in tests/data/real/brdgme.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

from brdgme_driver import card, legal

HERE = Path(__file__).resolve().parent


class Clock:
    """The time of each command: seeded gaps, as players of a web game answer."""

    def __init__(self, start: dt.datetime, rng: random.Random) -> None:
        self.now = start
        self.rng = rng

    def advance(self) -> str:
        roll = self.rng.random()
        if roll < 0.7:
            seconds = self.rng.randint(15, 8 * 60)
        elif roll < 0.92:
            seconds = self.rng.randint(11 * 60, 6 * 3600)
        else:
            seconds = self.rng.randint(6 * 3600, 3 * 86400)
        self.now += dt.timedelta(seconds=seconds)
        return self.now.strftime("@%Y-%m-%d %H:%M:%S")


def request(cli: str, when: str, body: dict[str, Any]) -> dict[str, Any]:
    env = {**os.environ, "TZ": "UTC"}
    answer = subprocess.run(["faketime", "-f", when, cli], input=json.dumps(body).encode(),
                            capture_output=True, check=True, env=env)
    out: dict[str, Any] = json.loads(answer.stdout)
    if "UserError" in out or "SystemError" in out:
        raise SystemExit(f"the game refused {body}: {out}")
    return out


def copied_text(panel: str, css: Path) -> str:
    """The log panel's text as a user copies it: the panel in Chromium with the site's style
    sheet (brdgme/web's ``src/style.less`` compiled by its ``lessc``), its log box selected
    (a range over ``.game-meta-logs-content``) and the selection's text, which is what the
    browser puts on the clipboard. The panel's ``innerText`` is checked to be the same."""
    from playwright.sync_api import sync_playwright

    html = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{css.read_text()}"
            f"</style></head><body><div class='game-container'>{panel}</div></body></html>")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page()
        page.set_content(html)
        text: str = page.evaluate("""() => {
            const box = document.querySelector('.game-meta-logs-content');
            const range = document.createRange();
            range.selectNodeContents(box);
            const selection = window.getSelection();
            selection.removeAllRanges();
            selection.addRange(range);
            const copied = selection.toString();
            if (copied !== box.innerText) throw new Error('selection and innerText differ');
            return copied;
        }""")
        browser.close()
    return text if text.endswith("\n") else text + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cli")
    parser.add_argument("render")
    parser.add_argument("web_build")
    parser.add_argument("out", type=Path)
    parser.add_argument("name")
    parser.add_argument("seed", type=int)
    parser.add_argument("--players", default="Mick,Steve")
    parser.add_argument("--colors", default="Green,Blue")
    parser.add_argument("--stop-after", type=int, default=0)
    parser.add_argument("--half", action="store_true")
    parser.add_argument("--play", type=float, default=0.6)
    parser.add_argument("--take", type=float, default=0.3)
    parser.add_argument("--start", default="2018-03-01T09:00:00")
    parser.add_argument("--view-at", default="", help="when the page is looked at (default: "
                        "an hour after the last entry)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    clock = Clock(dt.datetime.fromisoformat(args.start), random.Random(args.seed + 1000))
    players = args.players.split(",")
    rows: list[dict[str, Any]] = []

    def store(logs: list[dict[str, Any]]) -> None:
        for log in logs:
            rows.append({"body": log["content"], "is_public": log["public"],
                         "logged_at": log["at"], "to": log["to"]})

    new = request(args.cli, clock.now.strftime("@%Y-%m-%d %H:%M:%S"),
                  {"New": {"players": len(players)}})["New"]
    store(new["logs"])
    raw: str = new["game"]["state"]
    rounds: list[dict[str, Any]] = []
    dump: dict[str, Any] = {"program": "brdgme/lost-cities (Rust) cli, as brdgme's web site",
                            "seed": args.seed, "players": players, "rounds": rounds,
                            "finished": False}
    turns = 0
    pending: dict[str, Any] | None = None
    finished = False

    def play(player: int, command: str) -> tuple[dict[str, Any], bool]:
        nonlocal raw
        out = request(args.cli, clock.advance(), {"Play": {
            "player": player, "command": command, "names": players, "game": raw}})["Play"]
        store(out["logs"])
        raw = out["game"]["state"]
        state: dict[str, Any] = json.loads(raw)
        return state, "Finished" in json.dumps(out["game"]["status"])

    state: dict[str, Any] = json.loads(raw)
    while not finished:
        if not rounds or state["round"] != rounds[-1]["number"]:
            rounds.append({"number": state["round"], "starter": players[state["current_player"]],
                           "hands": {n: [card(c) for c in state["hands"][i]]
                                     for i, n in enumerate(players)},
                           "draw_order": [card(c) for c in state["deck"]], "turns": []})
        if args.stop_after and turns >= args.stop_after and not args.half:
            break
        p = state["current_player"]
        plays, discards = legal(state)
        rng.shuffle(plays)
        rng.shuffle(discards)
        first = plays[:1] if plays and rng.random() < args.play else []
        place = (first or discards or plays)[0]
        if not first and rng.random() < 0.1 and plays:
            place = plays[0]
        state, _ = play(p, place)
        verb, shown = place.split()
        turn: dict[str, Any] = {"player": players[p], "action": verb, "card": shown}
        if args.stop_after and turns >= args.stop_after:
            pending = turn
            break
        _, takes = legal(state)
        rng.shuffle(takes)
        draw = takes[0] if takes and rng.random() < args.take else "draw"
        deck_before = [card(c) for c in state["deck"]]
        expeditions = {n: [card(c) for c in state["expeditions"][i]]
                       for i, n in enumerate(players)}
        round_number = state["round"]
        turn["draw"] = "deck" if draw == "draw" else draw.split()[1]
        if draw == "draw":
            turn["drawn"] = deck_before[0]
        else:
            turn["drawn"] = next(c for c in reversed(
                [card(c) for c in state["discards"]]) if c[0] == turn["draw"])
        state, finished = play(p, draw)
        rounds[-1]["turns"].append(turn)
        turns += 1
        if state["round"] != round_number:
            rounds[-1]["scores"] = {n: state["scores"][i][-1] for i, n in enumerate(players)}
            rounds[-1]["expeditions"] = expeditions
    dump["finished"] = finished
    if pending is not None:
        dump["pending"] = pending
    dump["totals"] = {n: sum(r["scores"][n] for r in rounds if "scores" in r) for n in players}
    dump["colors"] = dict(zip(players, args.colors.split(","), strict=True))
    last = dt.datetime.fromisoformat(rows[-1]["logged_at"][:19])
    view_at = args.view_at or (last + dt.timedelta(hours=1)).isoformat()
    dump["viewed_at"] = view_at
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{args.name}.logs.json").write_text(json.dumps(rows, indent=1) + "\n")
    (args.out / f"{args.name}.state.json").write_text(json.dumps(dump, indent=2) + "\n")

    markup_players = [{"name": n, "color": c} for n, c in zip(players, args.colors.split(","),
                                                               strict=True)]
    viewers: list[tuple[str, int | None]] = [(n.lower(), i) for i, n in enumerate(players)]
    viewers.append(("public", None))
    for viewer, position in viewers:
        visible = [r for r in rows if r["is_public"] or position in r["to"]]
        visible.sort(key=lambda r: r["logged_at"])  # the query's ORDER BY logged_at
        html = json.loads(subprocess.run(
            [args.render], input=json.dumps({"players": markup_players,
                                             "bodies": [r["body"] for r in visible]}).encode(),
            capture_output=True, check=True).stdout)
        # The spectator's page is looked at a year and more later, when the separators
        # carry the year (``- 2018-3-1, 9:00 AM -``).
        seen_at = view_at if position is not None else (
            dt.datetime.fromisoformat(view_at) + dt.timedelta(days=400)).isoformat()
        page = {"view_at": seen_at, "finished": finished, "players": markup_players, "viewer": position,
                "game_logs": [{"game_log": {"id": str(i), "body": r["body"],
                                            "is_public": r["is_public"],
                                            "logged_at": r["logged_at"]}, "html": h}
                              for i, (r, h) in enumerate(zip(visible, html, strict=True))]}
        panel = subprocess.run(
            ["node", str(HERE / "brdgme_web_logs.js"), args.web_build],
            input=json.dumps(page).encode(), capture_output=True, check=True,
            env={**os.environ, "TZ": "UTC"}).stdout.decode()
        (args.out / f"{args.name}.{viewer}.web.html").write_text(panel)
        (args.out / f"{args.name}.{viewer}.web.txt").write_text(
            copied_text(panel, Path(args.web_build) / "style.css"))


if __name__ == "__main__":
    main()

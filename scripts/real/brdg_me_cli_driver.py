"""Play seeded legal games of brdg.me's Lost Cities (Go) with brdg.me's own command line.

Usage::

    python scripts/real/brdg_me_cli_driver.py PATH/TO/brdgme OUT_DIR NAME SEED
        [--players mick,steve] [--take 0.35] [--stop-after N] [--half]

``brdgme`` is brdg.me's ``cmd/main.go`` (Miniand/brdg.me) built as it is (see
docs/importers.md). It keeps the game in ``.game`` in its working directory (a temporary
directory here) and prints, for each player it shows, a ``--- OUTPUT FOR <player> ---``
section: ``Since last time:`` and the log messages new to that player, then the board (in
terminal colours, its default renderer), then the commands, and a last line ``Current turn:
...`` or ``Game finished!  Winners: ...``. The transcript ``NAME.cli.txt`` is what a user at a
shell sees: each command after a ``$ `` prompt, then everything the program printed.

Moves are random and legal: the candidate commands (``play r5``, ``discard gx``, ``draw``,
``take g``, ...) are tried in a seeded random order (``random.Random(SEED)``) and the first the
program accepts is the move; a refused try changes nothing (the program saves the game only
after a command succeeds) and is left out of the transcript. The state is read from the
program's own ``dump`` command (its ``spew.Dump`` of the game): each round's deal, deck order
(brdg.me draws from the end of its pile), every turn and the scores, written as
``NAME.state.json`` in the form the other brdg.me fixtures use.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

SUITS = "RGBWY"  # brdg.me's suit numbers, in the order of lost_cities.SuitShortNames
_LINE = re.compile(r"(?:(\w+): )?(.*?),?$")


def spew(text: str) -> Any:
    """The value that ``spew.Dump`` printed: structs as dicts, slices and arrays as lists."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]

    def scalar(rest: str) -> Any:
        m = re.fullmatch(r"\((?:string)\) \(len=\d+\) (\".*\")", rest)
        if m:
            return json.loads(m.group(1))
        m = re.fullmatch(r"\([\w.]+\) (-?\d+)", rest)
        if m:
            return int(m.group(1))
        m = re.fullmatch(r"\(bool\) (true|false)", rest)
        if m:
            return m.group(1) == "true"
        return rest

    def block(i: int) -> tuple[Any, int]:
        named: dict[str, Any] = {}
        items: list[Any] = []
        while i < len(lines):
            line = lines[i]
            i += 1
            if line in ("}", "},", "})", "}),"):
                return (named if named else items), i
            m = _LINE.fullmatch(line)
            assert m is not None, line
            name, rest = m.groups()
            if rest.endswith("{"):
                value, i = block(i)
            else:
                value = scalar(rest)
            if name:
                named[name] = value
            else:
                items.append(value)
        return (named if named else items), i

    value, _ = block(1)
    return value


def card(c: dict[str, int]) -> str:
    return SUITS[c["Suit"]] + ("X" if c["Rank"] == 0 else str(c["Rank"]))


class Cli:
    """The program, run in its own directory, and the transcript of what it printed."""

    def __init__(self, program: str, where: Path) -> None:
        self.program = program
        self.where = where
        self.transcript: list[str] = []

    def run(self, *args: str, keep: bool = True) -> tuple[int, str]:
        done = subprocess.run([self.program, *args], cwd=self.where, capture_output=True,
                              check=False)
        out = done.stdout.decode("utf-8")
        if done.returncode == 0 and keep:
            self.transcript.append("$ brdgme " + " ".join(args) + "\n" + out)
        return done.returncode, out

    def state(self) -> Any:
        code, out = self.run("dump", keep=False)
        assert code == 0, out
        return spew(out)

    def try_commands(self, player: str, candidates: list[str]) -> str:
        for command in candidates:
            code, _ = self.run("play", player, *command.split())
            if code == 0:
                return command
        raise SystemExit(f"no legal move among {candidates}")


def start_round(state: Any) -> dict[str, Any]:
    players = state["Players"]
    return {"number": state["Round"] + 1, "starter": players[state["CurrentlyMoving"]],
            "hands": {n: [card(c) for c in state["Board"]["PlayerHands"][i]]
                      for i, n in enumerate(players)},
            "draw_order": [card(c) for c in reversed(state["Board"]["DrawPile"])],
            "turns": []}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("program")
    parser.add_argument("out", type=Path)
    parser.add_argument("name")
    parser.add_argument("seed", type=int)
    parser.add_argument("--players", default="mick,steve")
    parser.add_argument("--take", type=float, default=0.35)
    parser.add_argument("--stop-after", type=int, default=0)
    parser.add_argument("--half", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = args.players.split(",")
    with tempfile.TemporaryDirectory() as where:
        cli = Cli(str(Path(args.program).resolve()), Path(where))
        code, out = cli.run("new", "lost_cities", *players)
        assert code == 0, out
        state = cli.state()
        rounds = [start_round(state)]
        dump: dict[str, Any] = {"program": "brdg.me (Go) cmd/main.go, the command line",
                                "seed": args.seed, "players": players, "rounds": rounds,
                                "finished": False}
        turns = 0
        finished = False
        while not finished:
            if args.stop_after and turns >= args.stop_after and not args.half:
                break
            p = state["CurrentlyMoving"]
            player = players[p]
            hand = [card(c).lower() for c in state["Board"]["PlayerHands"][p]]
            plays = [f"play {c}" for c in hand]
            discards = [f"discard {c}" for c in hand]
            rng.shuffle(plays)
            rng.shuffle(discards)
            candidates = plays + discards if rng.random() < 0.55 else discards + plays
            placed = cli.try_commands(player, candidates)
            verb, shown = placed.split()
            turn: dict[str, Any] = {"player": player, "command": placed, "action": verb,
                                    "card": shown.upper()}
            if args.stop_after and turns >= args.stop_after:
                dump["pending"] = turn
                break
            state = cli.state()
            before = [card(c) for c in state["Board"]["PlayerHands"][p]]
            deck = [card(c) for c in reversed(state["Board"]["DrawPile"])]
            takes = [f"take {s.lower()}" for s in SUITS]
            rng.shuffle(takes)
            draws = [*takes, "draw"] if rng.random() < args.take else ["draw", *takes]
            drew = cli.try_commands(player, draws)
            turn["command"] += "; " + drew
            turn["draw"] = "deck" if drew == "draw" else drew.split()[1].upper()
            round_before = state["Round"]
            state = cli.state()
            if state["Round"] == round_before:
                after = [card(c) for c in state["Board"]["PlayerHands"][p]]
                for c in before:
                    after.remove(c)
                turn["drawn"] = after[0]
            else:
                turn["drawn"] = deck[0]
            rounds[-1]["turns"].append(turn)
            turns += 1
            if state["Round"] != round_before:
                rounds[-1]["scores"] = {n: state["RoundScores"][i][round_before]
                                        for i, n in enumerate(players)}
                finished = state["Round"] >= 3
                if not finished:
                    rounds.append(start_round(state))
        dump["finished"] = finished
        dump["totals"] = {n: sum(r["scores"][n] for r in rounds if "scores" in r)
                          for n in players}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{args.name}.cli.txt").write_text("".join(cli.transcript), encoding="utf-8")
    (args.out / f"{args.name}.state.json").write_text(json.dumps(dump, indent=2) + "\n")


if __name__ == "__main__":
    main()

"""Play seeded legal games of brdgme's Lost Cities (Rust, brdgme/lost-cities) in its REPL.

Usage::

    python scripts/real/brdgme_driver.py PATH/TO/repl PATH/TO/cli OUT_DIR NAME SEED [--stop-after N]
        [--half] [--players Mick,Steve]

``repl`` is the program's own ``src/bin/repl.rs`` built from brdgme/lost-cities (see
docs/importers.md for how it was built here). The REPL is driven through pipes, as a user
typing would, and everything it prints is kept byte for byte in ``NAME.repl.txt``.

Moves are legal by construction: before each command the driver types the REPL's own
``:json`` and reads the program's state from it (hand, expeditions, discard piles, phase),
then picks a random legal command with ``random.Random(SEED)``. The ``:json`` answer is
not part of a game's output: the REPL prints it and then the same board and prompt again,
so the driver cuts exactly that stretch (from the ``:json`` answer up to the repeated
prompt) out of the saved transcript, which is then what the session prints without it.
The states read that way are the dump ``NAME.state.json``: each round's hands and deck
order as the program dealt them, every turn, the round scores and the totals.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
from pathlib import Path
from typing import Any

PROMPT = b": \x1b[K"
LETTER = {"Red": "R", "Green": "G", "White": "W", "Blue": "B", "Yellow": "Y"}


def card(c: dict[str, Any]) -> str:
    value = c["value"]
    return LETTER[c["expedition"]] + ("X" if value == "Investment" else str(value["N"]))


def number(c: dict[str, Any]) -> int:
    value = c["value"]
    return 0 if value == "Investment" else int(value["N"])


class Repl:
    """The REPL process, read up to each prompt."""

    def __init__(self, program: str, players: list[str]) -> None:
        self.proc = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.out = bytearray()
        self.raw = ""
        for name in [*players, ""]:
            self.read_prompt()
            self.send(name)
        self.read_prompt()

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def read_prompt(self) -> bytes | None:
        """Read to the next prompt; the text read, or None when the program ended."""
        assert self.proc.stdout is not None
        chunk = bytearray()
        while not chunk.endswith(PROMPT):
            byte = self.proc.stdout.read(1)
            if not byte:
                self.out += chunk
                return None
            chunk += byte
        self.out += chunk
        return bytes(chunk)

    def state(self) -> dict[str, Any]:
        """The program's state through ``:json``; its answer is cut from the transcript."""
        mark = len(self.out)
        self.send(":json")
        text = self.read_prompt()
        assert text is not None
        del self.out[mark:]
        start = text.index(b"{")
        end = text.index(b"\n}\n", start) + 2
        self.raw = json.loads(text[start:end])["state"]
        state: dict[str, Any] = json.loads(self.raw)
        return state


def after(cli: str, player: int, command: str, names: list[str], raw: str) -> dict[str, Any]:
    """The program's state after a command, through its JSON command-line interface."""
    request = {"Play": {"player": player, "command": command, "names": names, "game": raw}}
    answer = subprocess.run([cli], input=json.dumps(request).encode(), capture_output=True,
                            check=True)
    state: dict[str, Any] = json.loads(json.loads(answer.stdout)["Play"]["game"]["state"])
    return state


def legal(state: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The legal placements and draws of the player to move, by brdgme's rules."""
    p = state["current_player"]
    if state["phase"] == "PlayOrDiscard":
        plays, discards = [], []
        for c in state["hands"][p]:
            top = max((number(e) for e in state["expeditions"][p]
                       if e["expedition"] == c["expedition"]), default=None)
            if top is None or (number(c) > top if number(c) else top == 0):
                plays.append(f"play {card(c)}")
            discards.append(f"discard {card(c)}")
        return sorted(set(plays)), sorted(set(discards))
    takes = sorted({f"take {LETTER[c['expedition']]}" for c in state["discards"]
                    if c["expedition"] != state["discarded_expedition"]})
    return ["draw"], takes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("program", help="the REPL (src/bin/repl.rs)")
    parser.add_argument("cli", help="the JSON command line (src/bin/cli.rs)")
    parser.add_argument("out", type=Path)
    parser.add_argument("name")
    parser.add_argument("seed", type=int)
    parser.add_argument("--players", default="Mick,Steve")
    parser.add_argument("--stop-after", type=int, default=0, help="whole turns, then stop")
    parser.add_argument("--half", action="store_true", help="then place a card, no draw")
    parser.add_argument("--play", type=float, default=0.6, help="chance to try a play first")
    parser.add_argument("--take", type=float, default=0.3, help="chance to take a discard")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = args.players.split(",")
    repl = Repl(args.program, players)
    rounds: list[dict[str, Any]] = []
    dump: dict[str, Any] = {"program": "brdgme/lost-cities (Rust) repl", "seed": args.seed,
                            "players": players, "rounds": rounds, "finished": False}
    turns = 0
    state = repl.state()
    pending: dict[str, Any] | None = None
    while True:
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
        repl.send(place)
        repl.read_prompt()
        state = repl.state()
        verb, shown = place.split()
        turn: dict[str, Any] = {"player": players[p], "action": verb, "card": shown}
        if args.stop_after and turns >= args.stop_after:
            pending = turn
            break
        _, takes = legal(state)
        rng.shuffle(takes)
        draw = takes[0] if takes and rng.random() < args.take else "draw"
        deck_before = [card(c) for c in state["deck"]]
        if draw == "draw" and len(deck_before) == 1:
            # The round ends with this draw: its scores, from the program's own state.
            end = after(args.cli, p, draw, players, repl.raw)
            rounds[-1]["scores"] = {n: end["scores"][i][-1] for i, n in enumerate(players)}
            rounds[-1]["expeditions"] = {n: [card(c) for c in end["expeditions"][i]]
                                         for i, n in enumerate(players)}
        repl.send(draw)
        ended = repl.read_prompt() is None
        turn["draw"] = "deck" if draw == "draw" else draw.split()[1]
        if draw == "draw":
            turn["drawn"] = deck_before[0]
        else:
            turn["drawn"] = next(c for c in reversed(
                [card(c) for c in state["discards"]]) if c[0] == turn["draw"])
        rounds[-1]["turns"].append(turn)
        turns += 1
        if ended:
            break
        state = repl.state()
    if args.stop_after:
        repl.send(":q")
        repl.read_prompt()
    # A finished game ends the REPL by itself.
    dump["finished"] = repl.proc.wait() == 0 and not args.stop_after
    if pending is not None:
        dump["pending"] = pending
    dump["totals"] = {n: sum(r["scores"][n] for r in rounds if "scores" in r) for n in players}
    (args.out / f"{args.name}.repl.txt").write_bytes(bytes(repl.out))
    (args.out / f"{args.name}.state.json").write_text(json.dumps(dump, indent=2) + "\n")


if __name__ == "__main__":
    main()

"""Make the OpenSpiel fixtures of tests/data/real/openspiel/ with the real programs.

Two programs are driven, both built from the awlego/open_spiel fork (see the README next
to the fixtures for how):

* ``cc``: the C++ game ``lost_cities``, through ``openspiel_driver.cc`` (next to this file)
  linked against one build of the game; ``--driver NAME=PATH`` names each built binary;
* ``py``: the Python game ``python_lost_cities``, run by the ``open_spiel`` wheel from PyPI;
  ``--game-dir`` is the directory holding the fork's ``lost_cities.py``.

Every game is played with seeded random legal moves. Each game writes what the program
prints, exactly: ``.actions.txt`` (ActionToString, one a line), ``.history.txt``
(HistoryString), ``.serialized.txt`` (SerializeGameAndState), ``.tostring.txt``
(ToString), ``.observation.txt`` (observation and information state strings of both
players), and ``.state.json``, what the program itself holds or reports at the end.

    python scripts/real/openspiel_driver.py cc --driver cc-8e49ca9=/path/driver_b1e ...
    python scripts/real/openspiel_driver.py py --game-dir /path/to/fork/python/games
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "real" / "openspiel"
#: A number card named 1 (the earlier builds' name of a 2).
ONE = re.compile(r"[bgprwy]1\b")
#: (game string, seed, turns to stop after or 0) of the complete games of each C++ build.
CC_GAMES = [("lost_cities", 1, 0), ("lost_cities", 2, 0)]
CC_ENRICHED = [("lost_cities(enriched_obs=false)", 3, 0)]


def run_cc(name: str, binary: str, game: str, seed: int, stop: int, stem: str) -> dict:
    prefix = OUT / stem
    subprocess.run([binary, game, str(seed), str(stop), str(prefix)], check=True)
    state = json.loads(prefix.with_suffix(".state.json").read_text())
    state["build"] = name
    prefix.with_suffix(".state.json").write_text(json.dumps(state, indent=1) + "\n")
    return state


def partial_seed(make, start: int, bad: re.Pattern[str]) -> int:
    """The first seed from ``start`` whose partial history holds no card matching ``bad``."""
    seed = start
    while True:
        actions = make(seed)
        if not bad.search(actions):
            return seed
        seed += 1


def cc(drivers: list[str]) -> None:
    for item in drivers:
        name, binary = item.split("=", 1)
        games = CC_GAMES + (CC_ENRICHED if name != "cc-5a7f424" else [])
        for game, seed, stop in games:
            run_cc(name, binary, game, seed, stop, f"{name}-{seed}")
        # A partial history that cannot tell the naming: no `1` card (and no `10`).
        naming_b1 = name != "cc-00d6632"
        bad = ONE if naming_b1 else re.compile(r"[bgprwy]10\b")

        def make(seed: int, name: str = name, binary: str = binary) -> str:
            run_cc(name, binary, "lost_cities", seed, 10, f"{name}-partial")
            return (OUT / f"{name}-partial.actions.txt").read_text()

        seed = partial_seed(make, 100, bad)
        print(f"{name}: partial history with seed {seed}")
        first = (OUT / f"{name}-1.serialized.txt").read_text()
        second = (OUT / f"{name}-2.serialized.txt").read_text()
        (OUT / f"{name}-two-games.serialized.txt").write_text(first + second)


def play_py(game_module, seed: int, stop: int) -> tuple[object, object, list[str], int]:
    import pyspiel

    game = pyspiel.load_game("python_lost_cities")
    state = game.new_initial_state()
    rng = random.Random(seed)
    strings: list[str] = []
    turns = 0
    drew = False  # a draw was chosen and its card is not yet in the hand
    while not state.is_terminal():
        if stop and turns == stop and not state.is_chance_node():
            break
        player = state.current_player()
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            legal = state.legal_actions()
            draw_phase = legal[0] >= 144
            if draw_phase and legal[0] == 144 and (len(legal) == 1 or rng.randrange(4) > 0):
                action = 144
            else:
                action = rng.choice([a for a in legal if not (draw_phase and a == 144)])
            drew = draw_phase
        strings.append(state.action_to_string(player, action))
        state.apply_action(action)
        if drew and not state.is_chance_node():
            turns += 1
            drew = False
    return game, state, strings, turns


def write_py(game, state, strings: list[str], turns: int, seed: int, stem: str) -> None:
    import pyspiel

    prefix = OUT / stem
    (prefix.with_suffix(".actions.txt")).write_text("".join(s + "\n" for s in strings))
    prefix.with_suffix(".history.txt").write_text(state.history_str() + "\n")
    prefix.with_suffix(".serialized.txt").write_text(pyspiel.serialize_game_and_state(game, state))
    prefix.with_suffix(".tostring.txt").write_text(str(state) + "\n")
    prefix.with_suffix(".observation.txt").write_text("".join(
        f"{state.observation_string(p)}\n{state.information_state_string(p)}\n" for p in (0, 1)))
    dump = {
        "build": "py-71a6dc2", "game": str(game), "seed": seed, "terminal": state.is_terminal(),
        "turns": turns, "history": state.history(), "action_strings": strings,
        "returns": state.returns(),
        # The program's own state, read from the game object.
        "hands": [list(h) for h in state._hands],
        "expeditions": [[list(e) for e in p] for p in state._expeditions],
        "discard_piles": [list(d) for d in state._discard_piles],
        "deck": list(state._deck),
        "scores": [state._total_score(p) for p in (0, 1)] if state.is_terminal() else None,
    }
    prefix.with_suffix(".state.json").write_text(json.dumps(dump, indent=1) + "\n")


def py(game_dir: str) -> None:
    sys.path.insert(0, game_dir)
    module = importlib.import_module("lost_cities")
    for seed in (1, 2):
        game, state, strings, turns = play_py(module, seed, 0)
        write_py(game, state, strings, turns, seed, f"py-71a6dc2-{seed}")
    seed = 100
    while True:
        game, state, strings, turns = play_py(module, seed, 10)
        if not ONE.search("\n".join(strings)):
            break
        seed += 1
    write_py(game, state, strings, turns, seed, "py-71a6dc2-partial")
    print(f"py-71a6dc2: partial history with seed {seed}")
    first = (OUT / "py-71a6dc2-1.serialized.txt").read_text()
    second = (OUT / "py-71a6dc2-2.serialized.txt").read_text()
    (OUT / "py-71a6dc2-two-games.serialized.txt").write_text(first + second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="program", required=True)
    c = sub.add_parser("cc")
    c.add_argument("--driver", action="append", required=True, help="NAME=PATH of a built driver")
    p = sub.add_parser("py")
    p.add_argument("--game-dir", required=True)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    if args.program == "cc":
        cc(args.driver)
    else:
        py(args.game_dir)


if __name__ == "__main__":
    main()

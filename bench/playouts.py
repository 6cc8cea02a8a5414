"""``python -m bench.playouts``: how fast each game's core plays and deals.

A search over information sets deals the unseen cards (``InfoSet.sample``) and plays the
game out from there many times per decision, so these rates bound how deep it can look.
The position is a mid-game one of a seeded game, seen by one seat; every figure is CPU time
of this process (one core), the best of a few runs because the machine is shared. Classic's
rows also play the same deals on a plain engine of the published bots' shape
(``bench.plain_classic``: cards as strings, a list of every legal move) and give the ratio.
"""

from __future__ import annotations

import random
import time

from bench.plain_classic import PlainGame
from lcn.games.classic import ClassicCore, InfoSet, infoset_from_record
from lcn.games.rivals import InfoSet as RivalsInfoSet
from lcn.games.rivals import infoset_from_record as rivals_infoset
from lcn.games.rollwrite import InfoSet as RollWriteInfoSet
from lcn.games.rollwrite import infoset_from_record as rollwrite_infoset
from lcn.variants.classic_play import random_game
from lcn.variants.rivals_play import random_game as rivals_game
from lcn.variants.rollwrite_play import random_game as rollwrite_game

#: The issue's goals per core, printed beside what is measured.
PLAYOUT_GOAL = 100_000
SAMPLER_GOAL = 50_000


def _position(expeditions: int) -> InfoSet:
    record = random_game(2026, expeditions=expeditions)
    return infoset_from_record(record, 0, turns=len(record.turns) // 2)


def _plain(core: ClassicCore) -> PlainGame:
    names = core.tables.names
    game = PlainGame(core.tables.config.colours, [[names[c] for c in core.hand(0)],
                                                  [names[c] for c in core.hand(1)]],
                     [names[c] for c in core.pile])
    for player in range(2):
        for index, colour in enumerate(game.colours):
            cell = player * len(game.colours) + index
            # The expedition's cards as the plain engine needs them: wagers, then the
            # values up to the top (which values lie under the top does not change a playout).
            wagers = [colour + "w"] * core.wagers[cell]
            numbers = core.count[cell] - core.wagers[cell]
            values = core.tables.config.values[:core.top[cell]][-numbers:] if numbers else ()
            game.expeditions[player][colour] = wagers + [f"{colour}{v}" for v in values]
    for index, colour in enumerate(game.colours):
        game.discards[colour] = [names[c] for c in core.piles[index]]
    game.player = core.player
    return game


def playout_rate(infoset: InfoSet, seconds: float = 1.0, *, heuristic: bool = False,
                 plain: bool = False) -> float:
    """Turns per CPU second of playouts, each from a fresh deal: uniformly random legal moves
    or the rule-based player, on the core or (``plain``) on the plain engine."""
    rng = random.Random(1)
    turns = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(50):
            state = infoset.sample(rng)
            if plain:
                game = _plain(state)
                turns += game.heuristic_playout(rng) if heuristic else game.random_playout(rng)
            else:
                turns += state.heuristic_playout(rng) if heuristic else state.playout(rng)
    return turns / (time.process_time() - start)


def sampler_rate(infoset: InfoSet, seconds: float = 1.0) -> float:
    """Consistent deals per CPU second."""
    rng = random.Random(2)
    deals = 0
    sample = infoset.sample
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(1000):
            sample(rng)
        deals += 1000
    return deals / (time.process_time() - start)


def measure(runs: int = 3) -> list[tuple[str, float, int]]:
    """Print and return (row, best rate, goal) for 5 and 6 expeditions."""
    rows: list[tuple[str, float, int]] = []
    for expeditions in (5, 6):
        infoset = _position(expeditions)
        where = f"classic {expeditions}, mid-game ({infoset.pile_size} cards in the pile)"
        for heuristic, what in ((False, "random"), (True, "heuristic")):
            core = max(playout_rate(infoset, heuristic=heuristic) for _ in range(runs))
            plain = max(playout_rate(infoset, heuristic=heuristic, plain=True) for _ in range(runs))
            rows.append((f"{where}: {what} playout turns/s", core, PLAYOUT_GOAL))
            print(f"{where}: {what} playouts on the plain engine {plain:,.0f} turns/s; the core "
                  f"plays {core / plain:.1f}x as many")
        rows.append((f"{where}: sampler deals/s", max(sampler_rate(infoset) for _ in range(runs)),
                     SAMPLER_GOAL))
    for row, rate, goal in rows:
        verdict = "meets" if rate >= goal else "misses"
        print(f"{row:<70} {rate:>10,.0f}  ({verdict} the goal of {goal:,})")
    return rows


# -- Lost Cities: Rivals ------------------------------------------------------------------

#: Rivals decides word by word (a call, a placement, an uncover): its goal is in words.
RIVALS_PLAYOUT_GOAL = 30_000


def _rivals_position(players: int) -> RivalsInfoSet:
    record = rivals_game(2026, players=players)
    return rivals_infoset(record, 0, turns=len(record.turns) // 2)


def rivals_playout_rate(infoset: RivalsInfoSet, heuristic: bool, seconds: float = 1.0) -> float:
    """Words (decisions) per CPU second of playouts, each from a fresh deal of the piles:
    uniformly random legal words, or the core's heuristic player."""
    rng = random.Random(3)
    words = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(20):
            state = infoset.sample(rng)
            words += state.heuristic_playout(rng) if heuristic else state.playout(rng)
    return words / (time.process_time() - start)


def rivals_sampler_rate(infoset: RivalsInfoSet, seconds: float = 1.0) -> float:
    """Consistent deals of the piles per CPU second."""
    rng = random.Random(4)
    deals = 0
    sample = infoset.sample
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(1000):
            sample(rng)
        deals += 1000
    return deals / (time.process_time() - start)


def measure_rivals(runs: int = 3) -> list[tuple[str, float, int]]:
    """Print and return (row, best rate, goal) for two and four players."""
    rows: list[tuple[str, float, int]] = []
    for players in (2, 4):
        infoset = _rivals_position(players)
        where = f"rivals {players}p, mid-game ({len(infoset.unseen)} cards to uncover)"
        for heuristic, what in ((False, "random"), (True, "heuristic")):
            rows.append((f"{where}: {what} playout words/s",
                         max(rivals_playout_rate(infoset, heuristic) for _ in range(runs)),
                         RIVALS_PLAYOUT_GOAL))
        rows.append((f"{where}: sampler deals/s",
                     max(rivals_sampler_rate(infoset) for _ in range(runs)), SAMPLER_GOAL))
    for row, rate, goal in rows:
        verdict = "meets" if rate >= goal else "misses"
        print(f"{row:<70} {rate:>10,.0f}  ({verdict} the goal of {goal:,})")
    return rows



# -- Lost Cities: Roll & Write ------------------------------------------------------------

#: Roll & Write decides word by word (a choice, an acceleration's expedition): its goal is
#: in words too.
ROLLWRITE_PLAYOUT_GOAL = 30_000


def _rollwrite_position(players: int) -> RollWriteInfoSet:
    record = rollwrite_game(2026, players=players)
    return rollwrite_infoset(record, 0, turns=len(record.turns) // 2)


def rollwrite_playout_rate(infoset: RollWriteInfoSet, heuristic: bool, seconds: float = 1.0) -> float:
    """Words (decisions) per CPU second of playouts, each from fresh rolls to come:
    uniformly random legal words, or the core's heuristic player."""
    rng = random.Random(5)
    words = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(20):
            state = infoset.sample(rng)
            words += state.heuristic_playout(rng) if heuristic else state.playout(rng)
    return words / (time.process_time() - start)


def rollwrite_sampler_rate(infoset: RollWriteInfoSet, seconds: float = 1.0) -> float:
    """Samples (the position with every roll to come drawn) per CPU second."""
    rng = random.Random(6)
    samples = 0
    sample = infoset.sample
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(1000):
            sample(rng)
        samples += 1000
    return samples / (time.process_time() - start)


def measure_rollwrite(runs: int = 3) -> list[tuple[str, float, int]]:
    """Print and return (row, best rate, goal) for two and five players."""
    rows: list[tuple[str, float, int]] = []
    for players in (2, 5):
        infoset = _rollwrite_position(players)
        where = f"roll & write {players}p, mid-game (turn {infoset.turn + 1})"
        for heuristic, what in ((False, "random"), (True, "heuristic")):
            rows.append((f"{where}: {what} playout words/s",
                         max(rollwrite_playout_rate(infoset, heuristic) for _ in range(runs)),
                         ROLLWRITE_PLAYOUT_GOAL))
        rows.append((f"{where}: sampler samples/s",
                     max(rollwrite_sampler_rate(infoset) for _ in range(runs)), SAMPLER_GOAL))
    for row, rate, goal in rows:
        verdict = "meets" if rate >= goal else "misses"
        print(f"{row:<70} {rate:>10,.0f}  ({verdict} the goal of {goal:,})")
    return rows


if __name__ == "__main__":
    measure()
    measure_rivals()
    measure_rollwrite()

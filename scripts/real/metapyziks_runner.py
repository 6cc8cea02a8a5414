"""A re-implementation of the Metapyziks/lost-cities runner, to make the fixtures of
tests/data/real/metapyziks/.

The runner (``LostCities.Game``, C#) needs .NET, which this machine does not have, so the
parts of it that decide what it prints are re-implemented here from its source (commit
60b4633 of github.com/Metapyziks/lost-cities), line for line:

* ``System.Random`` as .NET seeds it (the Knuth subtractive generator of
  ``Net5CompatSeedImpl``: ``Next(n)`` is ``(int)(Sample() * n)``);
* ``DeckGenerator`` (eight Randoms seeded from the 32-byte game seed, used in turn) and
  ``ShuffleInPlace``; ``GameState.New`` (the deal: 8 cards each from the front, the rest is
  the draw pile, drawn from its end) and ``GameState.WithAction``;
* ``PlayerView.ValidActions`` in its insertion order and ``RandomBot`` (the example bot:
  ``actions[Random.Next(actions.Length)]`` with ``new Random(seed)``);
* ``GameString.Encode`` (version 3), ``Helpers.CalculateScore`` (no 8-card bonus);
* the console output of ``Program.Main`` (``Game: N``, ``End: {GameSummary}``, the single
  game's seeds and expeditions, ``=== Final Results ===``) and the ``--output`` file
  (``GameResults``), both through System.Text.Json with the runner's options: PascalCase,
  enums as strings, nulls left out, and the default encoder, which writes ``+`` as
  ``\\u002B``.

Seeds the runner would take from ``RandomNumberGenerator`` (a game seed, player seeds, the
start player) are given on the command line or drawn from a seeded ``random.Random``.

    python scripts/real/metapyziks_runner.py            # writes every fixture
"""

from __future__ import annotations

import base64
import json
import random
import struct
from dataclasses import dataclass, field
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "real" / "metapyziks"
INT_MAX = 2**31 - 1
COLORS = ["Red", "Green", "Blue", "White", "Yellow", "Purple"]  # enum values 1-6
VALUES = {0: "Wager", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
          8: "Eight", 9: "Nine", 10: "Ten"}
PLAYERS = ["None", "Player1", "Player2"]


def _int32(value: int) -> int:
    return (value + 2**31) % 2**32 - 2**31


class NetRandom:
    """``new System.Random(seed)`` of .NET (the seeded, Net5-compatible generator)."""

    def __init__(self, seed: int) -> None:
        seeds = [0] * 56
        subtraction = INT_MAX if seed == -2**31 else abs(seed)
        mj = 161803398 - subtraction
        seeds[55] = mj
        mk = 1
        for i in range(1, 55):
            ii = (21 * i) % 55
            seeds[ii] = mk
            mk = mj - mk
            if mk < 0:
                mk += INT_MAX
            mj = seeds[ii]
        for _ in range(4):
            for i in range(1, 56):
                seeds[i] = _int32(seeds[i] - seeds[1 + (i + 30) % 55])
                if seeds[i] < 0:
                    seeds[i] += INT_MAX
        self.seeds = seeds
        self.inext = 0
        self.inextp = 21

    def _internal(self) -> int:
        a = self.inext + 1 if self.inext + 1 < 56 else 1
        b = self.inextp + 1 if self.inextp + 1 < 56 else 1
        value = self.seeds[a] - self.seeds[b]
        if value == INT_MAX:
            value -= 1
        if value < 0:
            value += INT_MAX
        self.seeds[a] = value
        self.inext, self.inextp = a, b
        return value

    def sample(self) -> float:
        return self._internal() * (1.0 / INT_MAX)

    def next(self, low: int, high: int | None = None) -> int:
        if high is None:
            return int(self.sample() * low)
        return int(self.sample() * (high - low)) + low


class DeckGenerator:
    def __init__(self, seed: bytes) -> None:
        self.randoms = [NetRandom(struct.unpack_from("<i", seed, 4 * i)[0]) for i in range(8)]
        self.index = 0

    def next(self, low: int, high: int) -> int:
        value = self.randoms[self.index & 7].next(low, high)
        self.index += 1
        return value


Card = tuple[int, int]  # (colour 1-6, value 0 or 2-10)


@dataclass(frozen=True)
class Action:
    played: Card
    discarded: bool
    drawn: Card | None


@dataclass
class PlayerState:
    seed: int
    hand: list[Card]
    expeditions: dict[int, list[Card]]

    @property
    def score(self) -> int:
        return sum(calculate_score(cards) for cards in self.expeditions.values())


@dataclass
class GameState:
    current: int
    players: dict[int, PlayerState]
    deck: list[Card]
    discarded: dict[int, list[Card]]
    last: Action | None = None

    def copy(self) -> GameState:
        return GameState(self.current, {
            p: PlayerState(s.seed, list(s.hand), {c: list(v) for c, v in s.expeditions.items()})
            for p, s in self.players.items()}, list(self.deck),
            {c: list(v) for c, v in self.discarded.items()}, self.last)


def calculate_score(cards: list[Card]) -> int:
    wagers = sum(1 for _, v in cards if v == 0)
    value = sum(v for _, v in cards)
    if wagers == 0 and value == 0:
        return 0
    return (value - 20) * (1 + wagers)


def new_game(seed: bytes, seed1: int, seed2: int, start: int, sixth: bool = False) -> GameState:
    """``GameState.New``."""
    generator = DeckGenerator(seed)
    colours = list(range(1, 7 if sixth else 6))
    deck: list[Card] = []
    for colour in colours:
        deck += [(colour, 0)] * 3 + [(colour, v) for v in range(2, 11)]
    for i in range(len(deck) - 1):  # ShuffleInPlace
        j = generator.next(i, len(deck))
        deck[i], deck[j] = deck[j], deck[i]
    players = {1: PlayerState(seed1, deck[0:8], {c: [] for c in colours}),
               2: PlayerState(seed2, deck[8:16], {c: [] for c in colours})}
    return GameState(start, players, deck[16:], {c: [] for c in colours})


def with_action(state: GameState, action: Action) -> GameState:
    """``GameState.WithAction``: the state after a legal action (illegal ones raise)."""
    new = state.copy()
    me = new.players[new.current]
    if action.played not in me.hand:
        raise ValueError("Played card is not in hand.")
    colour = action.played[0]
    if not action.discarded:
        expedition = me.expeditions[colour]
        if expedition and expedition[-1][1] > action.played[1]:
            raise ValueError("Played card can't be added to an expedition.")
        expedition.append(action.played)
    else:
        new.discarded[colour].append(action.played)
    me.hand.remove(action.played)
    if action.drawn is not None:
        if action.discarded and action.drawn[0] == colour:
            raise ValueError("Can't draw the card that was just discarded.")
        pile = new.discarded[action.drawn[0]]
        if not pile or pile[-1] != action.drawn:
            raise ValueError("Unable to draw the given card.")
        me.hand.append(pile.pop())
    else:
        me.hand.append(new.deck.pop())
    new.current = 0 if not new.deck else 3 - new.current
    new.last = action
    return new


def valid_actions(state: GameState) -> list[Action]:
    """``PlayerView.ValidActions``: a HashSet, enumerated in insertion order."""
    me = state.players[state.current]
    seen: dict[Action, None] = {}
    for card in me.hand:
        exp = me.expeditions[card[0]]
        can_play = not exp or exp[-1][1] <= card[1]
        seen.setdefault(Action(card, True, None))
        if can_play:
            seen.setdefault(Action(card, False, None))
        for colour, pile in state.discarded.items():
            if not pile:
                continue
            if card[0] != colour:
                seen.setdefault(Action(card, True, pile[-1]))
            if can_play:
                seen.setdefault(Action(card, False, pile[-1]))
    return list(seen)


class RandomBot:
    """The example bot ``Examples/Random``; ``quit_after`` turns makes it stop answering."""

    def __init__(self, quit_after: int | None = None) -> None:
        self.random: NetRandom | None = None
        self.turns = 0
        self.quit_after = quit_after

    def take_turn(self, state: GameState) -> Action | None:
        if self.random is None:
            self.random = NetRandom(state.players[state.current].seed)
        self.turns += 1
        if self.quit_after is not None and self.turns > self.quit_after:
            return None  # the bot's process ended: the runner reads no answer
        actions = valid_actions(state)
        return actions[self.random.next(len(actions))]


@dataclass
class GameResult:
    initial: GameState
    final: GameState
    actions: list[Action]
    disqualified: int

    @property
    def winner(self) -> int:
        if self.disqualified:
            return 3 - self.disqualified
        a, b = self.final.players[1].score, self.final.players[2].score
        return 1 if a > b else 2 if b > a else 0


def run_game(state: GameState, bots: dict[int, RandomBot]) -> GameResult:
    """``LostCities.ContinueGameAsync``."""
    initial = state
    actions: list[Action] = []
    while state.current:
        action = bots[state.current].take_turn(state)
        if action is None:
            return GameResult(initial, state, actions, state.current)
        actions.append(action)
        state = with_action(state, action)
    return GameResult(initial, state, actions, 0)


def encode(result: GameResult) -> str:
    """``GameString.Encode``."""
    out = bytearray([3, len(result.initial.discarded), result.winner, result.disqualified])
    if result.disqualified:
        out += struct.pack("<ii", result.final.players[1].score, result.final.players[2].score)

    def cards(items: list[Card]) -> bytes:
        return bytes([len(items)]) + bytes(c << 4 | v for c, v in items)

    s = result.initial
    out.append(s.current)
    out += cards(s.deck)
    out += cards([c for pile in s.discarded.values() for c in pile])
    out += cards([c for e in s.players[1].expeditions.values() for c in e])
    out += cards(s.players[1].hand)
    out += cards([c for e in s.players[2].expeditions.values() for c in e])
    out += cards(s.players[2].hand)
    out += struct.pack("<i", len(result.actions))
    state = s
    for action in result.actions:
        index = state.players[state.current].hand.index(action.played)
        if index >= 8:
            raise NotImplementedError
        drawn = action.drawn[0] if action.drawn else 0
        out.append(index | (8 if action.discarded else 0) | drawn << 4)
        state = with_action(state, action)
    return base64.b64encode(bytes(out)).decode("ascii")


def net_json(value: object) -> str:
    """System.Text.Json's compact text with the default encoder (``+`` as ``\\u002B``)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=True)
    for char in "+<>&'`":
        text = text.replace(char, f"\\u{ord(char):04X}")
    return text


@dataclass
class Config:
    game_seed: bytes
    seed1: int
    seed2: int
    start: int
    sixth: bool = False
    quit: dict[int, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {"GameSeed": self.game_seed.hex(), "Player1Seed": self.seed1,
                "Player2Seed": self.seed2, "StartPlayer": PLAYERS[self.start]}


def summary(config: Config, result: GameResult) -> dict[str, object]:
    """``GameSummary.FromResult``, nulls left out as the runner's options do."""
    data: dict[str, object] = {"Config": config.to_json(),
                               "FirstTurn": PLAYERS[result.initial.current],
                               "Winner": PLAYERS[result.winner],
                               "Disqualified": PLAYERS[result.disqualified]}
    if not result.disqualified:
        data["Player1Score"] = result.final.players[1].score
        data["Player2Score"] = result.final.players[2].score
    data["Replay"] = encode(result)
    return data


def net_double(value: float) -> str:
    """A double as .NET's ToString() writes it (shortest round trip, no ``.0``)."""
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text


def console(configs: list[Config], results: list[GameResult]) -> str:
    """What ``Program.Main`` prints on standard output (a redirected console: no colours)."""
    lines: list[str] = []
    for index, (config, result) in enumerate(zip(configs, results, strict=True), 1):
        lines.append(f"Game: {index}")
        lines.append(f"End: {net_json(summary(config, result))}")
    lines.append("")
    if len(configs) == 1:
        config, result = configs[0], results[0]
        lines += [f"Game Seed: {config.game_seed.hex()}", f"Player1 Seed: {config.seed1}",
                  f"Player2 Seed: {config.seed2}", ""]
        if result.disqualified:
            lines.append(f"{PLAYERS[result.disqualified]} Disqualified!")
        else:
            for player in (1, 2):
                state = result.final.players[player]
                lines.append(f"{PLAYERS[player]}: {state.score} Points")
                for colour, cards in state.expeditions.items():
                    score = 0 if not cards else (sum(v for _, v in cards) - 20) * (
                        1 + sum(1 for _, v in cards if v == 0))
                    names = ", ".join(VALUES[v] for _, v in cards)
                    lines.append(f"  {COLORS[colour - 1]}: {names} ({score})")
        lines.append("")
    lines += ["", "=== Final Results ===", ""]
    for player in (1, 2):
        scores = [r.final.players[player].score for r in results]
        lines += [f"{PLAYERS[player]}:",
                  f"  Went First: {sum(1 for r in results if r.initial.current == player)}",
                  f"  Wins: {sum(1 for r in results if r.winner == player)}",
                  f"  Ties: {sum(1 for r in results if r.winner == 0)}",
                  f"  Losses: {sum(1 for r in results if r.winner not in (0, player))}",
                  f"  Disqualified: {sum(1 for r in results if r.disqualified == player)}",
                  f"  Best Score: {max(scores)}", f"  Worst Score: {min(scores)}",
                  f"  Mean Score: {net_double(sum(scores) / len(scores))}", ""]
    return "\n".join(lines) + "\n"


def dump(config: Config, result: GameResult) -> dict[str, object]:
    """The runner's own state of a game, to compare an import against."""
    def name(card: Card) -> str:
        return f"{COLORS[card[0] - 1]} {VALUES[card[1]]}"

    initial, final = result.initial, result.final
    return {
        "config": config.to_json(), "first": initial.current,
        "hands": {str(p): [name(c) for c in initial.players[p].hand] for p in (1, 2)},
        # The draw pile as it is drawn: from its end.
        "draw_order": [name(c) for c in reversed(initial.deck)],
        "actions": [{"played": name(a.played), "discarded": a.discarded,
                     "drawn": name(a.drawn) if a.drawn else None} for a in result.actions],
        "final_hands": {str(p): [name(c) for c in final.players[p].hand] for p in (1, 2)},
        "expeditions": {str(p): {COLORS[c - 1]: [name(x) for x in cards]
                                 for c, cards in final.players[p].expeditions.items()}
                        for p in (1, 2)},
        "discarded": {COLORS[c - 1]: [name(x) for x in pile] for c, pile in final.discarded.items()},
        "deck_left": len(final.deck),
        "scores_without_bonus": {str(p): final.players[p].score for p in (1, 2)},
        "winner": result.winner, "disqualified": result.disqualified,
    }


def play(config: Config) -> GameResult:
    state = new_game(config.game_seed, config.seed1, config.seed2, config.start, config.sixth)
    bots = {p: RandomBot(config.quit.get(p)) for p in (1, 2)}
    return run_game(state, bots)


def write_run(stem: str, configs: list[Config]) -> None:
    """One run of the runner: its console output, its --output file, and the state dumps."""
    results = [play(c) for c in configs]
    (OUT / f"{stem}.console.txt").write_text(console(configs, results))
    summaries = [summary(c, r) for c, r in zip(configs, results, strict=True)]
    (OUT / f"{stem}.output.json").write_text(net_json({"Summaries": summaries}))
    (OUT / f"{stem}.state.json").write_text(json.dumps(
        [dump(c, r) for c, r in zip(configs, results, strict=True)], indent=1) + "\n")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2024)

    def config(start: int, **extra: object) -> Config:
        return Config(rng.randbytes(32), rng.randint(-2**31, 2**31 - 1),
                      rng.randint(-2**31, 2**31 - 1), start, **extra)  # type: ignore[arg-type]

    # One game, every seed given: `--game-seed .. --player1-seed .. --player2-seed ..
    # --start-player 2 --player1 Random --player2 Random --output single.output.json`.
    write_run("single", [config(2)])
    # Three games in a row, start player alternating: `--games 3`.
    write_run("three-games", [config(1), config(2), config(1)])
    # Player 2's bot stops answering after 12 turns: disqualified.
    write_run("disqualified", [config(1, quit={2: 12})])
    # Six colours: `GameState.New(.., sixthColor: true)`, which the library has and the runner
    # does not offer; the game string is what GameString.Encode writes of it.
    six = config(1, sixth=True)
    result = play(six)
    replay = encode(result)
    (OUT / "six-colours.gamestring.txt").write_text(replay + "\n")
    (OUT / "six-colours.link.txt").write_text(
        f"https://metapyziks.github.io/lost-cities/#{replay}\n")
    (OUT / "six-colours.state.json").write_text(json.dumps([dump(six, result)], indent=1) + "\n")


if __name__ == "__main__":
    main()

"""Seeded corpora for the benchmarks: the same seeds give the same bytes on every machine."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import lcn
from lcn.variants.classic_play import random_game, strip_deal


def classic(games: int, *, expeditions: int = 5, deal: bool = True, seed: int = 1) -> str:
    """LCN text of ``games`` random classic games, with or without their deal."""
    out = []
    for index in range(games):
        record = random_game(seed * 1_000_003 + index, expeditions=expeditions)
        out.append(lcn.write_game(record if deal else strip_deal(record)))
    return "\n".join(out)


def variant_corpus(name: str, games: int, seed: int = 1) -> str | None:
    """LCN text of random games of another variant, when its engine and player exist."""
    module_name = {"rivals": "lcn.variants.rivals_play", "rollwrite": "lcn.variants.rollwrite_play"}[name]
    try:
        module = __import__(module_name, fromlist=["random_game"])
    except ModuleNotFoundError:
        return None
    make = getattr(module, "random_game", None)
    if make is None:
        return None
    rng = random.Random(seed)
    out = []
    for index in range(games):
        players = rng.choice([2, 3, 4]) if name == "rivals" else rng.choice([2, 3, 4, 5])
        try:
            record = make(seed * 1_000_003 + index, players=players)
        except TypeError:
            record = make(seed * 1_000_003 + index)
        out.append(lcn.write_game(record))
    return "\n".join(out)


def chess_pgn(plies: int, seed: int = 1) -> tuple[str, int, int]:
    """A PGN corpus of random legal chess games holding about ``plies`` plies in all.

    Returns the text, the number of games and the exact number of plies.
    """
    import chess
    import chess.pgn

    rng = random.Random(seed)
    chunks = []
    total = games = 0
    while total < plies:
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers["Event"] = "Bench"
        game.headers["White"] = f"W{games}"
        game.headers["Black"] = f"B{games}"
        node = game
        for _ in range(rng.randint(40, 100)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
            total += 1
        game.headers["Result"] = board.result(claim_draw=True) if board.is_game_over() else "*"
        chunks.append(str(game))
        games += 1
    return "\n\n".join(chunks) + "\n", games, total


@functools.lru_cache(maxsize=4)
def big_block(seed: int = 7) -> bytes:
    """500 distinct games without their deal, the unit that big files repeat."""
    return classic(500, deal=False, seed=seed).encode() + b"\n"


def write_big(path: Path, size: int, seed: int = 7) -> int:
    """Write a file of at least ``size`` bytes by repeating a block of distinct games."""
    block = big_block(seed)
    written = 0
    with path.open("wb") as handle:
        while written < size:
            handle.write(block)
            written += len(block)
    return written

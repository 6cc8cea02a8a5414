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


#: Comments a hand-annotated record might hold (colons, stars and brackets included, which
#: a reader must not take for a termination or a tag).
_REMARKS = ("good", "a risky wager", "Clara: why not the 7?", "** the key turn **",
            "keeps [red] open", "the draw pile runs low", "forced", "she waits for the 10")


def _spell(turn: str, case: float, rng: random.Random) -> str:
    """A turn in the letter case a person might type (the reader takes any): as written
    (``case`` < 0.6), in lower case (< 0.9), or now and then any case letter by letter."""
    if case < 0.6:
        return turn
    if case < 0.9 or rng.random() < 0.8:
        return turn.lower()
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in turn)


def hand_format(text: str, seed: int) -> str:
    """A canonical record as a person might write and annotate it: the same game.

    Move numbers written, left out, glued to the turn or as ``N...`` before the second
    player's turn; turns in any letter case; suffix glyphs glued or alone and numeric
    glyphs; brace comments before the first turn and after turns, ``;`` comments at the
    end of lines; tabs and runs of spaces between words, indented lines, lines of any
    length. Every spelling is one the spec allows, so the game stays valid.
    """
    head, _, movetext = text.partition("\n\n")
    words = movetext.split()
    termination = words.pop()
    turns = [word for word in words if not word[0].isdigit()]
    rng = random.Random(seed)
    case = rng.random()  # how this writer spells the cards
    out: list[str] = []
    if rng.random() < 0.5:
        out.append("{" + rng.choice(_REMARKS) + "}")
    for index, turn in enumerate(turns):
        word = _spell(turn, case, rng)
        roll = rng.random()
        if index % 2 == 0:
            if roll < 0.55:
                out.append(f"{index // 2 + 1}.")
            elif roll < 0.75:
                word = f"{index // 2 + 1}.{word}"
        elif roll < 0.15:
            out.append(f"{index // 2 + 1}...")
        roll = rng.random()
        if roll < 0.08:
            word += rng.choice(("!", "?", "!!", "??", "!?", "?!"))
        out.append(word)
        if roll > 0.96:
            out.append(rng.choice(("!", "?", "$1", "$2", "$14", "$146")))
        elif roll > 0.88:
            out.append("{" + rng.choice(_REMARKS) + "}")
    out.append(termination)
    lines: list[str] = []
    line: list[str] = []
    width = rng.randint(30, 100)
    for word in out:
        line.append(word)
        if sum(len(w) + 1 for w in line) >= width and word != termination:
            lines.append(_join(line, rng))
            line = []
            width = rng.randint(30, 100)
    lines.append(_join(line, rng))
    return head + "\n\n" + "\n".join(lines) + "\n"


def _join(words: list[str], rng: random.Random) -> str:
    """One line of words with the blanks a person might leave, and perhaps a `;` comment."""
    text = words[0]
    for word in words[1:]:
        text += rng.choice((" ", " ", " ", "  ", "\t", " \t")) + word
    lead = rng.choice(("", "", "", "  ", "\t"))
    tail = ""
    if ":" not in words[-1] and "*" not in words[-1] and rng.random() < 0.15:
        tail = " ; " + rng.choice(_REMARKS)
    return lead + text + tail


def hand_formatted(games: int, *, expeditions: int = 5, deal: bool = False, seed: int = 11) -> str:
    """``games`` random classic games, each written by hand (``hand_format``).

    The seed differs from the other corpora's, so that a process that has read those has
    not seen these games.
    """
    out = []
    for index in range(games):
        record = random_game(seed * 1_000_003 + index, expeditions=expeditions)
        text = lcn.write_game(record if deal else strip_deal(record))
        out.append(hand_format(text, seed * 7_919 + index))
    return "\n".join(out)


def rollwrite_format(text: str, seed: int) -> str:
    """A Roll & Write record as other programs and people write it: the same game.

    The layout in the ``Sheet`` tag whole, in part (boxes or whole expeditions left out as
    unknown) or not at all; seats by their names or as ``P2``; now and then a turn in lower
    case or its bridges in another order; several turns on one line; and a fifth of the
    games cut short, ended with ``*``. Every spelling is one the spec allows, so a legal game
    stays legal.
    """
    from lcn.variants.rollwrite import player_tokens

    rng = random.Random(seed)
    head, _, movetext = text.strip("\n").partition("\n\n")
    tags = head.split("\n")
    names = [line.split('"')[1] for line in tags if line.startswith("[Player")]
    tokens = player_tokens(names)
    words = movetext.split()
    termination = words.pop()
    turns: list[str] = []
    for word in words:  # a turn from its move number on (the writer may wrap a long one)
        if word[:-1].isdigit() and word[-1] == ".":
            turns.append("")
        else:
            turns[-1] = f"{turns[-1]} {word}".lstrip()
    sheet = rng.random()
    if sheet < 0.4:
        tags = [tag for tag in tags if not tag.startswith("[Sheet ")]
    elif sheet < 0.7:
        for index, tag in enumerate(tags):
            if tag.startswith("[Sheet "):
                words = [word for word in tag[8:-2].split() if rng.random() < 0.7]
                words = ["".join(c if k < 2 or rng.random() < 0.7 else "?" for k, c in enumerate(word))
                         for word in words]
                tags[index] = f'[Sheet "{" ".join(words)}"]'
    seat_form = rng.random() < 0.3
    if rng.random() < 0.2:
        cut = rng.randrange(len(turns) + 1)
        turns = turns[:cut]
        termination = "*"
        tags = [tag for tag in tags if not tag.startswith("[Result ")]
    written = []
    for turn in turns:
        words = turn.split()
        for index, word in enumerate(words):
            who, colon, rest = word.partition(":")
            if colon and who in tokens and (seat_form or rng.random() < 0.05):
                words[index] = f"P{tokens.index(who) + 1}:{rest}"
            elif who == "bridge" and "," in rest and rng.random() < 0.3:
                words[index] = "bridge:" + ",".join(rng.sample(rest.split(","), rest.count(",") + 1))
        turn = " ".join(words)
        written.append(turn.lower() if rng.random() < 0.05 else turn)
    out: list[str] = []
    per_line = rng.choice((1, 1, 2, 3, 4))
    for start in range(0, len(written), per_line):
        out.append(" ".join(f"{start + k + 1}. {turn}"
                            for k, turn in enumerate(written[start:start + per_line])))
    return "\n".join(tags) + "\n\n" + "\n".join([*out, termination]) + "\n"


def rollwrite_corpus(games: int, seed: int = 1) -> str:
    """``games`` random Roll & Write games of 2-5 players, written in the ways that
    ``rollwrite_format`` lists, a quarter of them without the annotations the rules decide."""
    from lcn.variants.rollwrite_play import random_game

    rng = random.Random(seed)
    out = []
    for index in range(games):
        record = random_game(seed * 1_000_003 + index, players=rng.choice([2, 3, 4, 5]),
                             sheet_tag=True, annotate=rng.random() < 0.75)
        out.append(rollwrite_format(lcn.write_game(record), seed * 7_919 + index))
    return "\n".join(out)


def rivals_format(text: str, seed: int) -> str:
    """A Rivals record as other programs and people write it: the same game.

    The piles in their ``Pile`` tags all, some or none; calls by the players' names or in
    the seat form (``P2-``, ``P13``), now and then a turn in lower case or with ``N...`` for
    its move number; several turns on one line; and a fifth of the games cut short between
    two turns, ended with ``*``. Every spelling is one the spec allows, so a legal game stays
    legal.
    """
    from lcn.variants.rivals import player_tokens

    rng = random.Random(seed)
    head, _, movetext = text.strip("\n").partition("\n\n")
    tags = head.split("\n")
    names = [line.split('"')[1] for line in tags if line.startswith("[Player")]
    tokens = player_tokens(names)
    turns: list[str] = []
    words = movetext.split()
    termination = words.pop()
    for word in words:  # a turn from its move number on
        if word[:-1].isdigit() and word[-1] == ".":
            turns.append("")
        else:
            turns[-1] = f"{turns[-1]} {word}".lstrip()
    piles = rng.random()
    if piles < 0.3:
        tags = [tag for tag in tags if not tag.startswith("[Pile")]
    elif piles < 0.6:
        tags = [tag for tag in tags if not tag.startswith("[Pile") or rng.random() < 0.5]
    seat_form = rng.random() < 0.3
    if rng.random() < 0.2:
        turns = turns[:rng.randrange(len(turns) + 1)]
        termination = "*"
        tags = [tag for tag in tags if not tag.startswith("[Result ")]
    written = []
    for turn in turns:
        words = turn.split()
        for index, word in enumerate(words):
            if word[-1] == "-" or (word[-1].isdigit() and ":" not in word):
                who = word.rstrip("-0123456789")
                if who in tokens and (seat_form or rng.random() < 0.05):
                    words[index] = f"P{tokens.index(who) + 1}{word[len(who):]}"
        turn = " ".join(words)
        written.append(turn.lower() if rng.random() < 0.05 else turn)
    out: list[str] = []
    per_line = rng.choice((1, 1, 2, 3, 4))
    for start in range(0, len(written), per_line):
        out.append(" ".join(f"{start + k + 1}{'...' if rng.random() < 0.05 else '.'} {turn}"
                            for k, turn in enumerate(written[start:start + per_line])))
    return "\n".join(tags) + "\n\n" + "\n".join([*out, termination]) + "\n"


def rivals_corpus(games: int, seed: int = 1) -> str:
    """``games`` random Rivals games of 2-4 players, written in the ways that ``rivals_format``
    lists, a quarter of them without the notes of what the rules decide (``>box``, the
    share-outs) and one in ten with players whose names are written in the seat form."""
    from lcn.variants.rivals_play import random_game

    rng = random.Random(seed)
    out = []
    for index in range(games):
        players = rng.choice([2, 3, 4])
        names = [f"Player {seat + 1}" for seat in range(players)] if rng.random() < 0.1 else None
        record = random_game(seed * 1_000_003 + index, players=players, names=names,
                             annotate=rng.random() < 0.75)
        out.append(rivals_format(lcn.write_game(record), seed * 7_919 + index))
    return "\n".join(out)


def variant_corpus(name: str, games: int, seed: int = 1) -> str | None:
    """LCN text of random games of another variant, when its engine and player exist."""
    if name == "rollwrite":
        return rollwrite_corpus(games, seed)
    if name == "rivals":
        return rivals_corpus(games, seed)
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
        node: chess.pgn.GameNode = game
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


def variant_block(name: str, seed: int = 7) -> bytes | None:
    """250 distinct games of Rivals or Roll & Write, the unit that their big files repeat."""
    text = variant_corpus(name, 250, seed=seed)
    return None if text is None else text.encode() + b"\n"


def write_big(path: Path, size: int, seed: int = 7, block: bytes | None = None) -> int:
    """Write a file of at least ``size`` bytes by repeating a block of distinct games
    (``big_block`` unless another is given)."""
    block = big_block(seed) if block is None else block
    written = 0
    with path.open("wb") as handle:
        while written < size:
            handle.write(block)
            written += len(block)
    return written

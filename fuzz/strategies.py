"""Hypothesis strategies for fuzzing LCN: valid records, and the ways input gets damaged.

Random bytes almost never get past the first tag line, so most inputs start from a valid
record (played by the seeded random players) and are damaged a little: a token inserted
where it does not belong, a span cut or copied, a line dropped or swapped, a byte flipped.
That keeps most inputs close enough to LCN (or JSON, or a play-site log) to reach deep into
the reader, the engines and the importers.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st

from lcn import jsonform, write_game
from lcn.importers import export_records, output_formats
from lcn.model import GameRecord
from lcn.variants import classic_play, rivals_play, rollwrite_play

from . import long_inputs

#: Fragments that mean something to some part of LCN, or to a parser in general.
TOKENS: list[bytes] = [
    b"{", b"}", b";", b"[", b"]", b'"', b"\\", b"*", b"1.", b"3...", b"$5", b"$300", b"!!", b"?!",
    b"-", b":", b"\n", b"\r", b"\r\n", b"\t", b" ", b"\x00", b"\xff", b"\xef\xbb\xbf", b"\xc3",
    b"/d", b"/d=R5", b"x", b"R10", b"Pw", b"Yw", b"0:0", b"57:-12", b"%", b"up:", b"place:",
    b"share:", b">box", b"Ada1", b"-", b'[Variant "rivals"]\n', b'[Variant "classic"]\n',
    b'[Variant "nope"]\n', b'[Expeditions "6"]\n', b'[Hand1 "R5 R5"]\n', b'[Deck ""]\n',
    b'[Result "1:2:3"]\n', b'{"games": [', b'"turns"', b"null", b"[[[[[[[[", b"]]]]",
    b"<script>alert(1)</script>", b"\xc2\xb2", b"\xd9\xa3", b"\xe2\x80\xa8", "\u0301".encode(),
    b"9" * 4400, b"Ada" + b"9" * 4400, b"$" + b"1" * 4400, b"x" * 3000, b"1." * 500,
    b"Ada plays the red 7\n", b"Bo draws from the draw pile\n", b"Spieler", b"discards",
]


@lru_cache(maxsize=256)
def classic_text(seed: int, expeditions: int, reveal: bool, view: int) -> str:
    """A classic game in canonical LCN; ``view`` -1 keeps the deal, 0/1 keeps a view, 2 none."""
    record = classic_play.random_game(seed, expeditions=expeditions, reveal_draws=reveal)
    if view >= 0 and expeditions == 5:
        record = classic_play.strip_deal(record, None if view == 2 else view)
    return write_game(record)


@lru_cache(maxsize=256)
def rivals_text(seed: int, players: int, piles: bool, annotate: bool) -> str:
    return write_game(rivals_play.random_game(seed, players=players, piles=piles, annotate=annotate))


@lru_cache(maxsize=256)
def rollwrite_text(seed: int, players: int, sheet_tag: bool, annotate: bool) -> str:
    return write_game(rollwrite_play.random_game(seed, players=players, sheet_tag=sheet_tag,
                                                 annotate=annotate))


def valid_lcn() -> st.SearchStrategy[str]:
    """Complete, valid records of every variant with a random player."""
    return st.one_of(
        st.builds(classic_text, st.integers(0, 60), st.sampled_from([5, 6]), st.booleans(),
                  st.sampled_from([-1, -1, 0, 1, 2])),
        st.builds(rivals_text, st.integers(0, 40), st.integers(2, 4), st.booleans(), st.booleans()),
        st.builds(rollwrite_text, st.integers(0, 40), st.integers(2, 5), st.booleans(), st.booleans()),
    )


def record_of(text: str) -> GameRecord:
    from lcn import read_game

    record = read_game(text)
    assert record is not None
    return record


@lru_cache(maxsize=128)
def exported(seed: int, fmt: str) -> str:
    """A classic game written in one of the output formats (LCN, JSON, Metapyziks, narrated)."""
    record = classic_play.random_game(seed, reveal_draws=seed % 2 == 0)
    return export_records([record], fmt).text


def importer_inputs() -> st.SearchStrategy[str]:
    """Valid inputs of every format the importers write, as starting points."""
    names = [name for name, _ in output_formats()]
    return st.builds(exported, st.integers(0, 30), st.sampled_from(names))


def _mutation() -> st.SearchStrategy[tuple[Any, ...]]:
    position = st.floats(0, 1, allow_nan=False)
    return st.one_of(
        st.tuples(st.just("insert"), position, st.sampled_from(TOKENS)),
        st.tuples(st.just("insert-bytes"), position, st.binary(min_size=1, max_size=8)),
        st.tuples(st.just("delete"), position, st.integers(1, 40)),
        st.tuples(st.just("flip"), position, st.integers(0, 255)),
        st.tuples(st.just("copy"), position, position, st.integers(1, 60)),
        st.tuples(st.just("drop-line"), position),
        st.tuples(st.just("swap-lines"), position, position),
        st.tuples(st.just("truncate"), position),
        st.tuples(st.just("repeat"), position, st.integers(1, 40), st.integers(2, 50)),
    )


def apply_mutations(data: bytes, mutations: list[tuple[Any, ...]]) -> bytes:
    """Damage ``data`` step by step; every step works on any input, even an empty one."""
    buffer = bytearray(data)
    for kind, *args in mutations:
        at = int(args[0] * len(buffer))
        if kind == "insert" or kind == "insert-bytes":
            buffer[at:at] = args[1]
        elif kind == "delete":
            del buffer[at:at + args[1]]
        elif kind == "flip" and buffer:
            buffer[min(at, len(buffer) - 1)] = args[1]
        elif kind == "copy":
            start = int(args[1] * len(buffer))
            buffer[at:at] = buffer[start:start + args[2]]
        elif kind == "truncate":
            del buffer[at:]
        elif kind == "repeat":
            chunk = bytes(buffer[at:at + args[1]])
            buffer[at:at] = chunk * args[2]
        elif kind in ("drop-line", "swap-lines"):
            lines = bytes(buffer).split(b"\n")
            first = min(int(args[0] * len(lines)), len(lines) - 1)
            if kind == "drop-line":
                del lines[first]
            else:
                second = min(int(args[1] * len(lines)), len(lines) - 1)
                lines[first], lines[second] = lines[second], lines[first]
            buffer = bytearray(b"\n".join(lines))
    return bytes(buffer)


def damaged(base: st.SearchStrategy[str], most: int = 6) -> st.SearchStrategy[bytes]:
    """Inputs made from ``base`` by up to ``most`` mutations."""
    return st.builds(lambda text, steps: apply_mutations(text.encode("utf-8"), steps),
                     base, st.lists(_mutation(), min_size=1, max_size=most))


#: Any JSON value, small enough to build quickly.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _replace_at(data: Any, path: list[int], value: Any) -> Any:
    """``data`` with the node picked by ``path`` (indices folded into each level) replaced."""
    if not path or not isinstance(data, dict | list) or not data:
        return value
    if isinstance(data, dict):
        keys = sorted(data)
        key = keys[path[0] % len(keys)]
        return {**data, key: _replace_at(data[key], path[1:], value)}
    index = path[0] % len(data)
    return [*data[:index], _replace_at(data[index], path[1:], value), *data[index + 1:]]


def damaged_json() -> st.SearchStrategy[bytes]:
    """JSON documents of valid records with one part replaced by any JSON value."""
    def build(text: str, path: list[int], value: Any, wrap: int) -> bytes:
        document = jsonform.document([record_of(text)])
        document = _replace_at(document, path, value)
        out: Any = document
        if wrap == 1:
            out = document["games"] if isinstance(document, dict) and "games" in document else document
        return json.dumps(out).encode("utf-8")

    return st.builds(build, valid_lcn(), st.lists(st.integers(0, 1000), max_size=6), json_values,
                     st.integers(0, 1))


# -- long runs, repeated tokens, every character class (linear cost) -------------------------

def _long_line(fmt: str, size: int, kind: int, pick: int, char: str) -> str:
    """One long line for ``fmt``: a run inside a line, a token of its format, or every class."""
    if kind == 0:
        return "a" + char * size + "x"
    if kind == 1:
        tokens = long_inputs.TOKENS[fmt]
        return long_inputs.repeated(tokens[pick % len(tokens)], size)
    return long_inputs.repeated(long_inputs.CHARACTER_CLASSES[pick % 40:], size)


def long_lines(fmt: str | None = None, most: int = 20_000) -> st.SearchStrategy[bytes]:
    """Long runs, repeated tokens and every character class, per importer, inside a valid log.

    A pattern that backtracks more than linearly, or a loop that copies the rest of a line at
    each step, shows on lines of tens of thousands of characters: the seeded tests give them a
    few thousand (the watchdog turns quadratic work into a Hang), the long run up to ``most``.
    The line replaces or joins a line of a valid log of the format, so that it reaches the
    parser's deeper states (after a tag, in the middle of a game), or stands alone.
    """
    formats = [fmt] if fmt is not None else list(long_inputs.TOKENS)
    runs = st.sampled_from(long_inputs.RUNS) | st.sampled_from(long_inputs.CHARACTER_CLASSES)

    def build(name: str, size: int, kind: int, pick: int, char: str, seed: int, where: float,
              alone: bool) -> bytes:
        line = _long_line(name, size, kind, pick, char)
        if alone:
            return line.encode("utf-8")
        base = exported(seed % 31, name if name in ("lcn", "json", "metapyziks", "text") else "text")
        lines = base.split("\n")
        at = int(where * len(lines))
        lines[at:at] = [line]
        return "\n".join(lines).encode("utf-8")

    return st.builds(build, st.sampled_from(formats), st.integers(1, most), st.integers(0, 2),
                     st.integers(0, 1000), runs, st.integers(0, 30),
                     st.floats(0, 1, allow_nan=False, exclude_max=True), st.booleans())

"""Make the golden corpus of ``tests/test_golden.py``: records of every game, most of them
damaged, and what today's validation says of each.

The corpus pins the behaviour of validation (verdicts, diagnostics, scores) before the rules
engines are rewritten, so it is made from the code as it is and then only read. Run it
again only when a result is meant to change (see the docstring of ``tests/test_golden.py``)::

    .venv/bin/python scripts/make_golden.py             # writes tests/data/golden/*.jsonl.xz
    .venv/bin/python scripts/make_golden.py --compare   # lists the records whose results changed

Each game's file is xz-compressed JSON lines: a header (the commit, the parameters, counts),
then one record a line: its index ``n``, ``family`` (how the game was played and written),
``base`` (the index of the valid record it was damaged from, or null), ``damage`` (the kinds
applied, in order), ``text``, and ``result`` (``tests/test_golden.py``'s ``observe``,
packed). A valid record is followed by the damaged records made from it, so that the
compressor stores their text nearly for free.

The games come from the random players (``lcn/variants/*_play.py``) with seeds fixed here;
the texts are stored, not the seeds, since the players are part of the rewrite. The slips of
``tests/test_resync.py`` (a turn dropped, written twice, swapped, a wrong card, colour, seat or
keyword) are reused from it; the other damage is the kind that editors, copying and
transmission do to a file (lines lost or swapped, characters flipped, a tag altered, the
record cut short, comments and glyphs where they do not belong).
"""

from __future__ import annotations

import argparse
import json
import lzma
import random
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_golden import DATA, GAMES, observe, pack, path_of, unpack  # noqa: E402
from test_resync import KINDS, _mangle, _movetext, _tokens  # noqa: E402

import lcn  # noqa: E402
from bench.corpora import hand_format  # noqa: E402
from lcn.model import GameRecord, Tags, Turn  # noqa: E402
from lcn.validate import ExpressReport  # noqa: E402
from lcn.variants import classic_play, rivals_play, rollwrite_play  # noqa: E402

#: Valid games per game; each is followed by ``DAMAGED`` damaged copies.
BASES = {"classic": 5000, "rivals": 4000, "rollwrite": 4000}
DAMAGED = 2
#: How many kinds of damage a damaged record gets, and how often.
DAMAGE_COUNTS = ((1, 0.72), (2, 0.2), (3, 0.08))
#: The share of first damages taken from the slips of ``tests/test_resync.py``.
SLIP_SHARE = 0.45
SEED_BASE = {"classic": 1_000_000, "rivals": 2_000_000, "rollwrite": 3_000_000}


# -- valid games ----------------------------------------------------------------------------

def _unfinished(record: GameRecord, rng: random.Random) -> GameRecord:
    """The record stopped after a random turn and ended with ``*``: an unfinished game."""
    tags = Tags()
    for name, value in record.tags.items():
        tags[name] = value
    tags["Result"] = "*"
    keep = rng.randrange(1, max(len(record.turns), 2))
    return GameRecord(tags=tags, turns=[Turn(t.text) for t in record.turns[:keep]],
                      termination="*")


def _classic(index: int, rng: random.Random) -> tuple[str, GameRecord | None, str]:
    seed = SEED_BASE["classic"] + index
    skill = rng.choice((0.85, 0.85, 0.6, 0.3, 1.0))
    kind = index % 12
    expeditions = 6 if kind in (6, 7, 8, 11) else 5
    reveal = kind == 1
    record = classic_play.random_game(seed, expeditions=expeditions, skill=skill,
                                      reveal_draws=reveal)
    family = f"{expeditions}-deal" + ("-revealed" if reveal else "")
    if kind in (2, 7):
        record, family = classic_play.strip_deal(record), f"{expeditions}-no-deal"
    elif kind in (3, 4, 8):
        keep = kind % 2 if expeditions == 5 else index // 12 % 2
        record, family = classic_play.strip_deal(record, keep), f"{expeditions}-view{keep + 1}"
    elif kind in (9, 10):
        stripped = kind == 10
        text = lcn.write_game(classic_play.strip_deal(record) if stripped else record)
        return (f"5-hand-written-{'no-deal' if stripped else 'deal'}", None,
                hand_format(text, seed))
    elif kind == 11 or (kind == 5 and rng.random() < 0.5):
        if rng.random() < 0.5:
            record = classic_play.strip_deal(record)
            family = f"{expeditions}-no-deal"
        record, family = _unfinished(record, rng), family + "-unfinished"
    return family, record, lcn.write_game(record)


def _rivals(index: int, rng: random.Random) -> tuple[str, GameRecord | None, str]:
    players = 2 + index % 3
    piles = rng.random() < 0.35
    annotate = rng.random() < 0.6
    record = rivals_play.random_game(SEED_BASE["rivals"] + index, players=players,
                                     skill=rng.choice((0.85, 0.85, 0.5, 1.0)), annotate=annotate)
    if not piles:
        record = rivals_play.strip_piles(record)
    family = f"{players}p-{'piles' if piles else 'no-piles'}-{'annotated' if annotate else 'plain'}"
    if rng.random() < 0.1:
        record, family = _unfinished(record, rng), family + "-unfinished"
    return family, record, lcn.write_game(record)


def _rollwrite(index: int, rng: random.Random) -> tuple[str, GameRecord | None, str]:
    players = 2 + index % 4
    sheet = rng.random() < 0.5
    annotate = rng.random() < 0.6
    record = rollwrite_play.random_game(SEED_BASE["rollwrite"] + index, players=players,
                                        skill=rng.choice((0.8, 0.8, 0.5, 1.0)), sheet_tag=sheet,
                                        annotate=annotate)
    family = f"{players}p-{'sheet' if sheet else 'no-sheet'}-{'annotated' if annotate else 'plain'}"
    if rng.random() < 0.1:
        record, family = _unfinished(record, rng), family + "-unfinished"
    return family, record, lcn.write_game(record)


MAKERS: dict[str, Callable[[int, random.Random], tuple[str, GameRecord | None, str]]] = {
    "classic": _classic, "rivals": _rivals, "rollwrite": _rollwrite}


# -- the slips of tests/test_resync.py --------------------------------------------------------

def _slip(game: str, record: GameRecord, kind: str, rng: random.Random) -> str | None:
    """One slip of ``tests/test_resync.py`` (its ``corruptions``, for one game and kind)."""
    texts = [turn.text for turn in record.turns]
    if len(texts) < 5:
        return None
    at = rng.randrange(1, len(texts) - 2)
    numbers = list(range(1, len(texts) + 1))
    changed = list(texts)
    if kind == "drop":
        del changed[at]
        numbers.pop()
    elif kind == "drop-line":
        del changed[at]
        del numbers[at]
    elif kind == "duplicate":
        changed.insert(at, texts[at])
        numbers.append(len(numbers) + 1)
    elif kind == "swap":
        if changed[at] == changed[at + 1]:
            return None
        changed[at], changed[at + 1] = changed[at + 1], changed[at]
    else:
        tokens = _tokens(game, record)
        mangled = None
        for _attempt in range(10):
            mangled = _mangle(game, rng, texts[at], kind, tokens)
            if mangled is not None and mangled != texts[at]:
                break
            at = rng.randrange(1, len(texts) - 2)
        if mangled is None or mangled == texts[at]:
            return None
        changed[at] = mangled
    return _movetext(game, record, changed, numbers)


# -- damage to the text -------------------------------------------------------------------------

Damage = Callable[[str, random.Random, str], "str | None"]
_CARD = re.compile(r"(?<![A-Za-z])([ROYGBPW])(10|[0-9]|w)(?![0-9])")
_LETTERS = {"classic": "YBWGRP", "rivals": "YBWGR", "rollwrite": "ROYGBP"}
_KEYWORDS = ("place:", "up:", "box:", ">box", "share:", "rest:", "bridge:", "exhausted:", "end",
             "/d", "Player", "Variant", "Expeditions", "Hand", "Deck", "Wagers", "Pile", "Sheet",
             "Result", "rivals", "rollwrite", "Event")
_KEYBOARD = {"a": "sq", "b": "vn", "c": "xv", "d": "sf", "e": "wr", "g": "fh", "h": "gj", "i": "uo",
             "l": "k", "n": "bm", "o": "ip", "p": "o", "r": "et", "s": "ad", "t": "ry", "u": "yi",
             "v": "cb", "w": "qe", "x": "zc", "y": "tu"}
_REMARKS = ("{a remark}", "{good}", "{unclosed", "}", "{nested {x}}", "; a remark\n", "!", "?!",
            "!!", "$12", "$", "{Ada: 5/d?}", "{[Result \"1:2\"]}", "%", "1.", "3...")
_FLIPS = ("x", "1", "0", ":", ",", "-", "/", "*", "[", "\"", "{", "\t", "\x00", "\u00a0", "\u200b",
          "é", "０", "\r", "\n", " ", "R", "w", "+", ">")


def _body(text: str) -> int:
    at = text.find("\n\n")
    return 0 if at < 0 else at + 2


def _words(text: str) -> list[re.Match[str]]:
    start = _body(text)
    return [m for m in re.finditer(r"\S+", text) if m.start() >= start]


def _splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _misspell(word: str, rng: random.Random) -> str:
    """A typo of a word: letters swapped, dropped, doubled, hit beside, or in another case."""
    letters = [i for i, c in enumerate(word) if c.isalpha()]
    if not letters:
        return word + word[-1:]
    i = rng.choice(letters)
    how = rng.randrange(5)
    if how == 0 and i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if how == 1 and len(word) > 1:
        return word[:i] + word[i + 1:]
    if how == 2:
        return word[:i] + word[i] + word[i:]
    if how == 3 and word[i].lower() in _KEYBOARD:
        near = rng.choice(_KEYBOARD[word[i].lower()])
        return word[:i] + (near.upper() if word[i].isupper() else near) + word[i + 1:]
    return word[:i] + word[i].swapcase() + word[i + 1:]


def near_miss(text: str, rng: random.Random, game: str) -> str | None:
    """A card replaced by one near it (a value or colour beside it), or a turn by another."""
    words = _words(text)
    if rng.random() < 0.25 and len(words) > 3:
        target, other = rng.sample(words[:-1], 2)
        if target.group() == other.group() or target.group()[0].isdigit():
            return None
        return _splice(text, target.start(), target.end(), other.group())
    cards = [m for m in _CARD.finditer(text) if m.start() >= _body(text)]
    if not cards:
        return None
    card = rng.choice(cards)
    colour, value = card.group(1), card.group(2)
    if rng.random() < 0.5 or value == "w":
        if value == "w":
            value = rng.choice(("1", "2", "W", "ww", "0"))
        else:
            value = str(int(value) + rng.choice((-2, -1, 1, 2)))
    else:
        colour = rng.choice([c for c in _LETTERS[game] + "X" if c != colour])
    return _splice(text, card.start(), card.end(), colour + value)


def off_by_one(text: str, rng: random.Random, game: str) -> str | None:
    """A number anywhere (a card, a move number, a score, a die, a date) one off."""
    numbers = list(re.finditer(r"\d+", text))
    if not numbers:
        return None
    number = rng.choice(numbers)
    return _splice(text, number.start(), number.end(),
                   str(int(number.group()) + rng.choice((-1, 1))))


def misspelling(text: str, rng: random.Random, game: str) -> str | None:
    """A keyword, tag name, variant name or colour letter misspelt."""
    if rng.random() < 0.3:
        cards = [m for m in _CARD.finditer(text) if m.start() >= _body(text)]
        if cards:
            card = rng.choice(cards)
            wrong = rng.choice(("Q", "K", "V", card.group(1).lower(), "8", "Bl"))
            return _splice(text, card.start(1), card.end(1), wrong)
    present = [m for word in _KEYWORDS for m in re.finditer(re.escape(word), text)]
    if not present:
        return None
    found = rng.choice(present)
    typo = _misspell(found.group(), rng)
    return None if typo == found.group() else _splice(text, found.start(), found.end(), typo)


def space_in_word(text: str, rng: random.Random, game: str) -> str | None:
    """A space typed inside a word of the movetext (or now and then of a tag)."""
    if rng.random() < 0.15:
        candidates = [m for m in re.finditer(r"[^\s\"\[\]]{2,}", text[:_body(text)])]
    else:
        candidates = [m for m in _words(text) if len(m.group()) >= 2]
    if not candidates:
        return None
    word = rng.choice(candidates)
    at = rng.randrange(word.start() + 1, word.end())
    return text[:at] + " " + text[at:]


def drop_line(text: str, rng: random.Random, game: str) -> str | None:
    lines = text.split("\n")
    if len(lines) < 3:
        return None
    del lines[rng.randrange(len(lines) - 1)]
    return "\n".join(lines)


def swap_lines(text: str, rng: random.Random, game: str) -> str | None:
    lines = text.split("\n")
    if len(lines) < 3:
        return None
    first = rng.randrange(len(lines) - 2)
    second = first + 1 if rng.random() < 0.7 else rng.randrange(len(lines) - 1)
    if lines[first] == lines[second]:
        return None
    lines[first], lines[second] = lines[second], lines[first]
    return "\n".join(lines)


def duplicate_turn(text: str, rng: random.Random, game: str) -> str | None:
    """A turn written twice as it stands in the text: a word (classic) or a line."""
    if game == "classic":
        words = [m for m in _words(text)[:-1] if not m.group()[0].isdigit()]
        if not words:
            return None
        word = rng.choice(words)
        return _splice(text, word.end(), word.end(), " " + word.group())
    lines = text.split("\n")
    start = text[:_body(text)].count("\n")
    turns = [i for i in range(start, len(lines)) if re.match(r"\d+\.", lines[i])]
    if not turns:
        return None
    at = rng.choice(turns)
    lines.insert(at + 1, lines[at])
    return "\n".join(lines)


def insert_comment(text: str, rng: random.Random, game: str) -> str | None:
    """A comment, glyph or stray mark put between words, or glued to one."""
    words = _words(text)
    if not words:
        return None
    word = rng.choice(words)
    mark = rng.choice(_REMARKS)
    if rng.random() < 0.3:
        return _splice(text, word.end(), word.end(), mark)
    return _splice(text, word.start(), word.start(), mark + " ")


def alter_tag(text: str, rng: random.Random, game: str) -> str | None:
    """A tag removed, renamed, repeated, broken, or given another value."""
    tags = list(re.finditer(r"^\[(\w+) \"([^\"]*)\"\]$", text[:_body(text)], re.M))
    if not tags:
        return None
    tag = rng.choice(tags)
    name, value = tag.group(1), tag.group(2)
    how = rng.randrange(8)
    if how == 0:
        return _splice(text, tag.start(), tag.end() + 1, "")
    if how == 1:
        renamed = rng.choice((name.lower(), name.upper(), re.sub(r"\d", lambda d: str(int(d.group()) % 5 + 1),
                                                                  name), _misspell(name, rng)))
        return _splice(text, tag.start(1), tag.end(1), renamed)
    if how == 2:
        return _splice(text, tag.end(), tag.end(), "\n" + tag.group())
    if how == 3:
        broken = rng.choice((f"[{name} \"{value}]", f"[{name} {value}]", f"{name} \"{value}\"]",
                             f"[{name} \"{value}\"", f"[{name}\"{value}\"]"))
        return _splice(text, tag.start(), tag.end(), broken)
    items = value.split()
    if how == 4 and len(items) > 1:  # a card or score left out of a list
        del items[rng.randrange(len(items))]
        return _splice(text, tag.start(2), tag.end(2), " ".join(items))
    if how == 5 and len(items) > 1:  # two items exchanged, or one repeated
        i, j = rng.sample(range(len(items)), 2)
        if rng.random() < 0.5:
            items[i], items[j] = items[j], items[i]
        else:
            items[i] = items[j]
        return _splice(text, tag.start(2), tag.end(2), " ".join(items))
    new = rng.choice(("", "*", "5", "6", "7", "rivals", "rollwrite", "classic", "0:0", "Ada",
                      value + " R5", value[:-1], value.replace(":", "-")))
    return None if new == value else _splice(text, tag.start(2), tag.end(2), new)


def cut_short(text: str, rng: random.Random, game: str) -> str | None:
    """The record cut short: mid-word, mid-line or at a line's end, perhaps ended with ``*``."""
    start = _body(text) if rng.random() < 0.85 else 0
    if len(text) - start < 4:
        return None
    at = rng.randrange(start + 1, len(text) - 2)
    if rng.random() < 0.4:
        at = text.rfind("\n", 0, at) + 1 or at
    return text[:at] + rng.choice(("", "", "\n", " *\n", "*"))


def flip_characters(text: str, rng: random.Random, game: str) -> str | None:
    """One to four characters replaced by others, anywhere."""
    out = list(text)
    for _ in range(rng.randint(1, 4)):
        out[rng.randrange(len(out))] = rng.choice(_FLIPS)
    changed = "".join(out)
    return None if changed == text else changed


def termination(text: str, rng: random.Random, game: str) -> str | None:
    """The result at the end replaced, left out, or given the wrong number of scores."""
    words = _words(text)
    if not words:
        return None
    last = words[-1]
    scores = last.group().split(":")
    new = rng.choice(("*", "", "1-0", "0:0", ":".join(scores[:-1]), last.group() + ":0",
                      ":".join(reversed(scores)), "000" + last.group(), "**"))
    return None if new == last.group() else _splice(text, last.start(), last.end(), new)


def letter_case(text: str, rng: random.Random, game: str) -> str | None:
    """The movetext, a line or a word in another letter case."""
    start = _body(text)
    how = rng.randrange(3)
    if how == 0:
        return text[:start] + (text[start:].lower() if rng.random() < 0.7 else text[start:].upper())
    words = _words(text)
    if not words:
        return None
    word = rng.choice(words)
    return _splice(text, word.start(), word.end(), word.group().swapcase())


def whitespace(text: str, rng: random.Random, game: str) -> str | None:
    """The blanks changed: CRLF, tabs, blank or indented lines, a byte-order mark."""
    how = rng.randrange(6)
    if how == 0:
        return text.replace("\n", "\r\n")
    if how == 1:
        return "\ufeff" + text
    words = _words(text)
    if not words:
        return None
    word = rng.choice(words)
    blank = rng.choice(("\t", "\n\n", "\n   ", "  \t ", "\r", " \n"))
    return _splice(text, word.start(), word.start(), blank)


DAMAGES: dict[str, Damage] = {
    "near-miss": near_miss, "off-by-one": off_by_one, "misspelling": misspelling,
    "space-in-word": space_in_word, "drop-line": drop_line, "swap-lines": swap_lines,
    "duplicate-turn": duplicate_turn, "insert-comment": insert_comment, "alter-tag": alter_tag,
    "cut-short": cut_short, "flip-characters": flip_characters, "termination": termination,
    "letter-case": letter_case, "whitespace": whitespace,
}


def damage(game: str, record: GameRecord | None, text: str,
           rng: random.Random) -> tuple[str, list[str]]:
    """``text`` damaged one to three times; the kinds applied, in order."""
    draw = rng.random()
    count = next(n for n, share in _cumulative(DAMAGE_COUNTS) if draw < share)
    kinds: list[str] = []
    if record is not None and rng.random() < SLIP_SHARE:
        for _attempt in range(5):
            kind = rng.choice(KINDS[game])
            slipped = _slip(game, record, kind, rng)
            if slipped is not None:
                text = slipped
                kinds.append(f"slip:{kind}")
                break
    while len(kinds) < count:
        name = rng.choice(sorted(DAMAGES))
        changed = DAMAGES[name](text, rng, game)
        if changed is not None and changed != text:
            text = changed
            kinds.append(name)
    return text, kinds


def _cumulative(shares: tuple[tuple[int, float], ...]) -> list[tuple[int, float]]:
    out, total = [], 0.0
    for value, share in shares:
        total += share
        out.append((value, total))
    out[-1] = (out[-1][0], 2.0)
    return out


# -- the corpus -------------------------------------------------------------------------------

def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


def _valid(result: dict[str, Any]) -> bool:
    express = result["express"]
    return "error" not in express and bool(express["games"]) \
        and all(game["valid"] for game in express["games"]) \
        and not any(d["severity"] == "error" for d in express["file"])


def _codes(result: dict[str, Any]) -> list[str]:
    codes = []
    for ask in ("express", "full"):
        answer = result[ask]
        codes += [d["code"] for d in answer.get("file", [])]
        codes += [d["code"] for game in answer.get("games", []) for d in game["diagnostics"]]
    return codes


def make(game: str, bases: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The records of one game and the statistics of its header."""
    records: list[dict[str, Any]] = []
    stats: dict[str, Counter[str]] = {name: Counter() for name in
                                      ("families", "damage", "codes", "verdicts")}
    express_decided = 0
    with_diagnostics = 0
    for index in range(bases):
        rng = random.Random(f"golden-{game}-{index}")
        family, record, text = MAKERS[game](index, rng)
        texts: list[tuple[str, int | None, list[str]]] = [(text, None, [])]
        for copy in range(DAMAGED):
            damaged, kinds = damage(game, record, text, random.Random(f"golden-{game}-{index}-{copy}"))
            texts.append((damaged, len(records), kinds))
        for body, base, kinds in texts:
            observed = observe(body)
            valid = _valid(observed)
            codes = _codes(observed)
            records.append({"n": len(records), "family": family, "base": base, "damage": kinds,
                            "text": body, "result": pack(observed)})
            stats["families"][family] += 1
            stats["damage"].update(kinds)
            stats["verdicts"][f"{'damaged' if base is not None else 'undamaged'}-"
                              f"{'valid' if valid else 'invalid'}"] += 1
            stats["codes"].update(set(codes))
            with_diagnostics += bool(codes)
            express_decided += any(isinstance(r, ExpressReport) for r in lcn.ValidationRun(body))
    header = {
        "game": game,
        "records": len(records),
        "valid_records": sum(n for key, n in stats["verdicts"].items() if key.endswith("-valid")),
        "with_diagnostics": with_diagnostics,
        "decided_by_the_express_check": express_decided,
        **{name: dict(sorted(counter.items())) for name, counter in stats.items()},
    }
    return records, header


def write(game: str, records: list[dict[str, Any]], header: dict[str, Any],
          params: dict[str, Any]) -> int:
    DATA.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"header": {**header, **params}}, ensure_ascii=False)]
    lines += [json.dumps(record, ensure_ascii=False, separators=(",", ":")) for record in records]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    filters = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": 1 << 26}]
    packed = lzma.compress(data, format=lzma.FORMAT_XZ, filters=filters)
    path_of(game).write_bytes(packed)
    return len(packed)


def compare(game: str) -> int:
    """List the records whose results differ from the stored ones; how many."""
    with lzma.open(path_of(game), "rt", encoding="utf-8") as handle:
        lines = handle.read().splitlines()[1:]
    changed = 0
    for line in lines:
        record = json.loads(line)
        if unpack(record["result"]) != unpack(pack(observe(record["text"]))):
            changed += 1
            print(f"{game} {record['n']} ({record['family']}, {', '.join(record['damage'])})")
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", choices=GAMES, default=list(GAMES))
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply the number of games (for a quick trial; not for the fixture)")
    parser.add_argument("--compare", action="store_true",
                        help="only list the records whose results differ from the stored ones")
    args = parser.parse_args(argv)
    if args.compare:
        return 1 if sum(compare(game) for game in args.games) else 0
    dirty = _git("status", "--porcelain", "--", "lcn")
    for game in args.games:
        started = time.perf_counter()
        bases = max(1, round(BASES[game] * args.scale))
        records, header = make(game, bases)
        params = {"commit": _git("rev-parse", "HEAD"), "uncommitted_in_lcn": dirty.splitlines(),
                  "python": sys.version.split()[0], "generator": "scripts/make_golden.py",
                  "params": {"bases": bases, "damaged_per_base": DAMAGED,
                             "damage_counts": DAMAGE_COUNTS, "slip_share": SLIP_SHARE,
                             "seed_base": SEED_BASE[game], "rng": "random.Random(f'golden-{game}-{i}')"}}
        size = write(game, records, header, params)
        print(f"{game}: {len(records)} records, {header['valid_records']} valid, "
              f"{header['with_diagnostics']} with diagnostics, {len(header['codes'])} codes, "
              f"{size / 1e6:.2f} MB, {time.perf_counter() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

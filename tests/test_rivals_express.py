"""The express check of Rivals gives the same answers as full validation.

``lcn.validate`` keeps plain Rivals movetext unread and lets the quick verdict
(``lcn.games.rivals.verdict``) decide the game from its words, played on the core of
``lcn.games.rivals.core``; whenever it is not sure, the game is validated in full by the
engine of ``rivals.py``. These tests run both ways over the samples, seeded random games
(with and without the piles, with and without the written share-outs), the same games as
other programs and people write them (``bench.corpora.rivals_format``) and many single
corruptions of each, and compare everything a caller can see. They check that the express
check does decide the games it is meant for (a check that always gave up would fail), and
that each rule check it stands on is needed: the core's play or the verdict's reading with
any one of them taken out disagrees with the engine somewhere on the same corpus.
"""

from __future__ import annotations

import inspect
import random
import re
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import lcn
from bench.corpora import rivals_corpus
from lcn.games.rivals import core as rivals_core
from lcn.games.rivals import verdict
from lcn.games.rivals.core import AMOUNT_OF, BID, BOX, MORE, NAMES, PLACE, SEAT_OF, TO_BOX, UP
from lcn.validate import ExpressReport, ValidationRun
from lcn.variants.rivals import (
    TOTAL_GOLD,
    RivalsVariant,
    format_move,
    parse_move,
    player_tokens,
)
from lcn.variants.rivals_play import random_game, strip_piles

SAMPLES = sorted((Path(__file__).parent.parent / "samples" / "rivals").glob("*.lcn"))


def _summary(report: lcn.GameReport) -> tuple[object, ...]:
    return (report.to_json(), report.valid, report.totals, report.players,
            [d.to_json() for d in report.record.diagnostics], report.extra)


def _differences(text: str) -> list[str]:
    """Where validating ``text`` with the express check differs from the engine alone."""
    fast = ValidationRun(text)
    full = ValidationRun(text, express=False)
    fast_reports, full_reports = list(fast), list(full)
    found = []
    if [d.to_json() for d in fast.file_diagnostics] != [d.to_json() for d in full.file_diagnostics]:
        found.append("file diagnostics")
    if len(fast_reports) != len(full_reports):
        return [*found, "number of games"]
    for express, reference in zip(fast_reports, full_reports, strict=True):
        if _summary(express) != _summary(reference):
            found.append(f"game {reference.index}: {_summary(express)} != {_summary(reference)}")
        elif express.record != reference.record or express.turn_count != reference.turn_count:
            found.append(f"game {reference.index}: the record as read")
    return found


def _same(text: str) -> list[lcn.GameReport]:
    """Validate both ways, assert the same outcome, and return the express run's reports."""
    assert _differences(text) == []
    return list(ValidationRun(text))


def _games(count: int, seed: int = 0) -> list[str]:
    texts = []
    for index in range(count):
        game_seed = seed * 10_000 + index
        record = random_game(game_seed, players=2 + index % 3, annotate=index % 4 != 1)
        texts.append(lcn.write_game(record))
        if index % 3 == 0:
            bare = random_game(game_seed, players=2 + index % 3, annotate=False)
            texts.append(lcn.write_game(strip_piles(bare)))
    return texts


GAMES = _games(30)


def test_samples_agree() -> None:
    for path in SAMPLES:
        _same(path.read_text())


def test_generated_games_are_decided_by_the_express_check() -> None:
    reports = _same("\n".join(GAMES))
    assert len(reports) == len(GAMES)
    assert all(isinstance(r, ExpressReport) for r in reports)
    assert all(r.valid and r.over for r in reports)


def test_express_reports_give_the_full_state_and_score_on_demand() -> None:
    text = "\n".join(GAMES[:6])
    full = list(ValidationRun(text, express=False))
    for express, reference in zip(ValidationRun(text), full, strict=True):
        assert isinstance(express, ExpressReport)
        variant = reference.variant
        assert isinstance(variant, RivalsVariant)
        assert variant.snapshot(express.state) == variant.snapshot(reference.state)
        assert express.score == reference.score


# -- corruptions -------------------------------------------------------------------------

CARDS = [f"{c}{v}" for c in "YBWGR" for v in ("w", *range(2, 11))]
_CARD = re.compile(r"\b[YBWGR](?:10|[2-9]|w)\b")
_AMOUNT = re.compile(r"(?<=[A-Za-z])([0-9]+)\b")

#: A corruption of a game's text (tags and turn lines) → the new text, or None.
Mutation = Callable[[list[str], list[str], random.Random], str | None]


def _text(tags: list[str], lines: list[str]) -> str:
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + "\n"


def _split(text: str) -> tuple[list[str], list[str]]:
    head, _, movetext = text.strip("\n").partition("\n\n")
    return head.split("\n"), movetext.split("\n")


def _card(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    i = rng.randrange(len(lines) - 1)
    spots = list(_CARD.finditer(lines[i]))
    if not spots:
        return None
    spot = rng.choice(spots)
    out = list(lines)
    out[i] = lines[i][:spot.start()] + rng.choice(CARDS) + lines[i][spot.end():]
    return _text(tags, out)


def _bid(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    i = rng.randrange(len(lines) - 1)
    spots = list(_AMOUNT.finditer(lines[i]))
    if not spots:
        return None
    spot = rng.choice(spots)
    out = list(lines)
    out[i] = lines[i][:spot.start()] + str(rng.choice((0, 1, 2, 3, 5, 9, 13, 40))) \
        + lines[i][spot.end():]
    return _text(tags, out)


def _word(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A word of a turn dropped, doubled, moved or spelt otherwise."""
    i = rng.randrange(len(lines) - 1)
    number, *words = lines[i].split()
    if not words:
        return None
    j = rng.randrange(len(words))
    how = rng.randrange(6)
    if how == 0:
        del words[j]
    elif how == 1:
        words.insert(j, words[j])
    elif how == 2:
        words.insert(rng.randrange(len(words) + 1), words.pop(j))
    elif how == 3:
        words[j] = words[j].upper() if rng.random() < 0.5 else words[j].lower()
    elif how == 4:
        words[j] = words[j].replace(">box", "") if ">box" in words[j] else words[j] + ">box"
    else:
        words.insert(j, rng.choice(("share:1", "rest:0", "box:Yw", "place:R4", "P1-", "P23",
                                    "share:01", "Rest:1")))
    out = list(lines)
    out[i] = " ".join([number, *words])
    return _text(tags, out)


def _turn(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A turn dropped, doubled or swapped with the next (move numbers as they were)."""
    i = rng.randrange(len(lines) - 2)
    out = list(lines)
    how = rng.randrange(3)
    if how == 0:
        del out[i]
    elif how == 1:
        out.insert(i, out[i])
    else:
        out[i], out[i + 1] = out[i + 1], out[i]
    return _text(tags, out)


def _number(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    i = rng.randrange(len(lines) - 1)
    number, _, rest = lines[i].partition(" ")
    out = list(lines)
    out[i] = f"{rng.choice((f'{rng.randint(0, 90)}.', number + '.', number[:-1]))} {rest}".strip()
    return _text(tags, out)


def _termination(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    end = lines[-1]
    scores = end.split(":")
    choices = ["*", ":".join(reversed(scores)), "0" + end, end + ":0",
               ":".join([*scores[:-1], str(int(scores[-1]) + 1)])]
    wrong = rng.choice(choices)
    out_tags = [f'[Result "{wrong}"]' if t.startswith("[Result ") and rng.random() < 0.5 else t
                for t in tags]
    return _text(out_tags, [*lines[:-1], wrong])


def _truncate(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    cut = rng.randint(0, len(lines) - 1)
    out_tags = [t for t in tags if not t.startswith("[Result ")]
    return _text(out_tags, [*lines[:cut], rng.choice(("*", lines[-1]))])


def _tag(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A tag dropped, changed, added or spelt in another case."""
    out = list(tags)
    i = rng.randrange(len(out))
    how = rng.randrange(5)
    name, _, value = out[i][1:-1].partition(" ")
    if how == 0:
        del out[i]
    elif how == 1:
        out[i] = f"[{name.lower()} {value}]"
    elif how == 2:
        spots = list(_CARD.finditer(value))
        if not spots:
            return None
        spot = rng.choice(spots)
        out[i] = f"[{name} {value[:spot.start()]}{rng.choice(CARDS)}{value[spot.end():]}]"
    elif how == 3:
        out.append(rng.choice(('[PileSizes "20 20 20 20"]', '[Player5 "Zed"]',
                               '[PileSizes "21 19 20 20"]', '[Wagers9 "Rw Bw"]',
                               '[Player3 "Zed"]', '[Wagers1 "Rw Rw"]')))
    else:
        cards = value.strip('"').split()
        rng.shuffle(cards)
        out[i] = f'[{name} "{" ".join(cards)}"]'
    return _text(out, lines)


def _auction(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """Bids written into an uncover: the first player's at the first turn (the display is
    empty then), anyone's elsewhere."""
    names = [t.split('"')[1] for t in tags if re.match(r"\[Player[0-9] ", t)]
    tokens = player_tokens(names)
    first = rng.choice([0] + [i for i, line in enumerate(lines[:-1]) if " up:" in line
                              and line.count(" ") == 1])
    opener = 0 if first == 0 else rng.randrange(len(tokens))
    order = [tokens[(opener + step) % len(tokens)] for step in range(len(tokens))]
    calls = [f"{order[0]}{rng.choice((1, 2))}", *(f"{token}-" for token in order[1:])]
    number, _, rest = lines[first].partition(" ")
    out = list(lines)
    out[first] = " ".join([number, *calls, rest])
    return _text(tags, out)


def _calls(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """The first turn made an auction whose calls break one rule of auctions (an opening
    pass, a call missing, a call after the end); a card uncovered before it, so that the
    display is not empty."""
    names = [t.split('"')[1] for t in tags if re.match(r"\[Player[0-9] ", t)]
    seats = player_tokens(names)
    tokens = [*seats[1:], seats[0]]  # the second player's turn: the calls go from there
    proper = [f"{tokens[0]}1", *(f"{token}-" for token in tokens[1:])]
    how = rng.randrange(3)
    if how == 0:
        calls = [f"{tokens[0]}-", f"{tokens[1]}1", *(f"{token}-" for token in tokens[2:])]
    elif how == 1:
        calls = proper[:-1]
    else:
        calls = [*proper, f"{tokens[0]}-"]
    first = lines[0].split()[1]
    out = ["1. up:Y2" if first != "up:Y2" else "1. up:Y3", f"2. {' '.join(calls)} {first}",
           *(f"{n}. {line.partition(' ')[2]}" for n, line in enumerate(lines[1:-1], 3)), "*"]
    return _text([t for t in tags if not t.startswith(("[Pile", "[Result "))], out)


def _place_order(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """The cards an auction's winner places, in another order."""
    spots = [i for i, line in enumerate(lines[:-1]) if re.search(r"place:\S+,", line)]
    if not spots:
        return None
    i = rng.choice(spots)
    words = lines[i].split()
    j = next(k for k, word in enumerate(words) if word.startswith("place:"))
    cards = words[j][6:].split(",")
    words[j] = "place:" + ",".join(reversed(cards))
    out = list(lines)
    out[i] = " ".join(words)
    return _text(tags, out)


def _share_early(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A share-out written where no pile ran out."""
    i = rng.choice([i for i, line in enumerate(lines[:-1]) if "share:" not in line])
    out = list(lines)
    out[i] = lines[i] + rng.choice((" share:0", " rest:0", " share:1 rest:0"))
    return _text(tags, out)


def _uneven(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """Three cards of the last pile moved to the end of the third: the same order of cards,
    piles of uneven sizes."""
    piles = {t.split()[0][1:]: t.split('"')[1].split() for t in tags if t.startswith("[Pile")}
    if len(piles) != 4:
        return None
    moved = piles["Pile4"][:3]
    piles["Pile3"] += moved
    piles["Pile4"] = piles["Pile4"][3:]
    out = [f'[{t.split()[0][1:]} "{" ".join(piles[t.split()[0][1:]])}"]' if t.startswith("[Pile")
           else t for t in tags]
    return _text(out, lines)


def _late_card(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A card of the last pile changed (the piles then hold a copy too many of a card) in a
    game cut short before that pile: only the deal says that something is wrong."""
    if not all(any(t.startswith(f"[Pile{index} ") for t in tags) for index in (1, 4)):
        return None
    pile = next(t for t in tags if t.startswith("[Pile4 ")).split('"')[1].split()
    first = next(t for t in tags if t.startswith("[Pile1 ")).split('"')[1].split()
    other = next(card for card in first if card != pile[-1])
    out = [f'[Pile4 "{" ".join([*pile[:-1], other])}"]' if t.startswith("[Pile4 ") else t
           for t in tags if not t.startswith("[Result ")]
    return _text(out, [*lines[:10], "*"])


def _share_wrong(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A written share-out with a coin more or less than the pile's end gives."""
    spots = [i for i, line in enumerate(lines[:-1]) if "share:" in line]
    if not spots:
        return None
    i = rng.choice(spots)
    out = list(lines)
    out[i] = re.sub(r"share:([0-9]+)", lambda m: f"share:{abs(int(m[1]) + rng.choice((-1, 1)))}", lines[i])
    return _text(tags, out)


def _after_end(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A turn written after the last card."""
    return _text(tags, [*lines[:-1], f"{len(lines)}. up:Y2", lines[-1]])


TARGETED: list[Mutation] = [_calls, _calls, _calls, _place_order, _share_early, _uneven,
                            _after_end, _late_card, _share_wrong]

MUTATIONS: list[Mutation] = [_auction, _card, _card, _bid, _word, _word, _turn, _number, _termination,
                             _truncate, _tag]


def _mutants(texts: list[str], per_game: int, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    for text in texts:
        tags, lines = _split(text)
        for _ in range(per_game):
            mutant = rng.choice(MUTATIONS)(tags, lines, rng)
            if mutant is not None and rng.random() < 0.3:
                mutant = _star(mutant)
            if mutant is not None:
                yield mutant


def _star(text: str) -> str:
    """The game ended with `*` (no Result tag): a rule broken that changes no score shows."""
    head, body = _split(text)
    return _text([t for t in head if not t.startswith("[Result ")], [*body[:-1], "*"])


def _targeted(texts: list[str], seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    for text in texts:
        tags, lines = _split(text)
        for mutation in TARGETED:
            mutant = mutation(tags, lines, rng)
            if mutant is not None:
                yield mutant
                yield _star(mutant)


MUTANTS = list(_mutants(GAMES, 6, seed=1)) + list(_targeted(GAMES[:8], seed=2))


def _each_game(text: str) -> list[str]:
    return ["[Event" + game for game in text.split("[Event")[1:]]


#: The same kind of games as other programs and people write them: the piles all, some or
#: none, calls in the seat form, turns in lower case, several turns on a line, games cut
#: short with `*` (``bench.corpora.rivals_format``).
VARIED = _each_game(rivals_corpus(40, seed=3))
VARIED_MUTANTS = list(_mutants(VARIED[:20], 3, seed=4)) + list(_targeted(VARIED[:12], seed=5))

_HEAD = '[Variant "rivals"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Wagers1 "Rw Bw"]\n[Wagers2 "Gw Yw"]\n\n'
#: Short games, without the piles, each legal or breaking one rule (named beside it).
CASES = [_HEAD + movetext + "\n*\n" for movetext in (
    "1. up:R4\n2. Bo1 Ada- place:R4 up:R5",  # legal
    "1. up:R4\n2. up:R4\n3. Ada1 Bo- place:R4,R4 up:R6",  # legal: equal numbers follow
    "1. up:R4\n2. up:Y2\n3. Ada2 Bo3 Ada- place:R4,Y2 box:R4 up:G5",  # box:R4 (V-AUCTION-BOX)
    "1. up:R4\n2. Bo- Ada1 up:R5",  # V-AUCTION-OPEN
    "1. up:R4\n2. Bo1 up:R5",  # V-AUCTION-END: Ada has not passed
    "1. up:R4\n2. Bo1 Ada- Bo- up:R5",  # V-AUCTION-END: a call after the end
    "1. up:R4\n2. Bo2 Ada2 Bo- up:R5",  # V-AUCTION-RAISE
    "1. up:R4\n2. Bo19 Ada- up:R5",  # V-AUCTION-FUNDS
    "1. up:R4\n2. Ada1 Bo- up:R5",  # V-TURN-ORDER
    "1. up:R4\n2. Bo1 Ada2 Ada- up:R5",  # V-AUCTION-ORDER
    "1. Ada1 Bo- up:R4",  # V-AUCTION-DISPLAY
    "1. up:R6\n2. up:R4\n3. Ada1 Bo- place:R6,R4 up:Y2",  # V-PLACE-ASCENDING
    "1. up:R4\n2. up:Rw\n3. Ada1 Bo- place:R4,Rw up:Y2",  # V-PLACE-WAGER-FIRST
    "1. up:R4\n2. Bo1 Ada- place:R5 up:Y2",  # V-PLACE-DISPLAY
    "1. up:R4\n2. Bo1 Ada- box:R5 up:Y2",  # V-AUCTION-BOX
    "1. up:R10\n2. up:R10",  # V-SETUP-CARDS: one R10
    "1. up:R4>box",  # V-UNCOVER-USELESS
    "1. up:R4\n2. Bo1 Ada- place:R4 up:R5\n3. Ada1 Bo- place:R5 up:R3>box",  # legal: no use
    "1. up:R4\n2. Bo1 Ada- place:R4 up:R5\n3. Ada1 Bo- place:R5 up:R3",  # legal: unsaid
    "1. up:R4 share:0",  # a share-out without piles: left to the engine
    "1. up:R4\n2.",  # an empty turn
    "1. up:R4\n3. up:R5",  # LCN-MOVE-NUMBER
    "1. up:R4\n2. Bo- Ada1 Bo- place:R4 up:R5",  # V-AUCTION-OPEN, then an auction's end
    "1. up:R4 Share:0",  # V-PILE-SHARE (no pile ran out), in another letter case
    "1. up:R4\n2. up:R5\n3. Ada1 Bo- place:R4 ,R5 up:R6",  # LCN-RIVALS-TURN: a word `,R5`
    "1. up:R4\n2. up:R5\n3. Ada1 Bo- place:R4,R5, up:R6",  # V-SETUP-CARDS: a comma at the end
)] + [_HEAD.replace("\n\n", '\n[Player3 "Cy"]\n[Wagers3 "Ww Rw"]\n\n') + movetext + "\n*\n"
      for movetext in (
    "1. up:R4\n2. Bo1 Ada- Cy- place:R4 up:R5",  # V-AUCTION-ORDER: Cy calls after Bo
    "1. up:R4\n2. Bo- Cy1 Ada- up:R5",  # V-AUCTION-OPEN
    "1. up:R4\n2. Bo1 Cy- Ada2 Bo- up:R5",  # legal
)]


def test_games_written_otherwise_are_decided_alike() -> None:
    reports = _same("\n".join(VARIED))
    assert len(reports) == len(VARIED)
    assert all(isinstance(r, ExpressReport) and r.valid for r in reports)
    assert sum(not r.over for r in reports) >= 3  # games cut short, ended with `*`


def _shape(seed: int, players: int, change: Callable[[list[str], list[str]], tuple[list[str], str]],
           annotate: bool = True, names: list[str] | None = None) -> str:
    """A seeded game with its tags and its movetext changed: the new text."""
    text = lcn.write_game(random_game(seed, players=players, annotate=annotate, names=names))
    tags, lines = _split(text)
    tags, movetext = change(tags, lines)
    return "\n".join(tags) + "\n\n" + movetext + "\n"


def _drop(*prefixes: str) -> Callable[[list[str], list[str]], tuple[list[str], str]]:
    return lambda tags, lines: ([t for t in tags if not t.startswith(prefixes)], "\n".join(lines))


def _one_line(tags: list[str], lines: list[str]) -> tuple[list[str], str]:
    return tags, " ".join(lines)


def _cut(tags: list[str], lines: list[str]) -> tuple[list[str], str]:
    return [t for t in tags if not t.startswith("[Result ")], "\n".join([*lines[:37], "*"])


def _seats(tags: list[str], lines: list[str]) -> tuple[list[str], str]:
    names = [t.split('"')[1] for t in tags if re.match(r"\[Player[0-9] ", t)]
    tokens = player_tokens(names)
    seat = {token: f"P{index + 1}" for index, token in enumerate(tokens)}
    return tags, "\n".join(re.sub(r"\b([A-Z][a-z]+)(?=[0-9]+\b|-)", lambda m: seat.get(m[1], m[1]), line)
                           for line in lines)


def _lower(tags: list[str], lines: list[str]) -> tuple[list[str], str]:
    return tags, "\n".join(line.lower() if index % 3 == 0 else line for index, line in enumerate(lines))


def _dots(tags: list[str], lines: list[str]) -> tuple[list[str], str]:
    return tags, "\n".join(re.sub(r"^([0-9]+)\.", r"\1...", line) if index % 2 else line
                           for index, line in enumerate(lines))


def _sizes(tags: list[str], lines: list[str]) -> tuple[list[str], str]:
    kept = [t for t in tags if not t.startswith(("[Pile1 ", "[Pile3 "))]
    return [*kept, '[PileSizes "20 20 20 20"]'], "\n".join(lines)


#: Each shape of record that the quick verdict decides (named beside it).
SHAPES = [
    _shape(1, 2, _drop("[Pile")),  # no piles, the share-outs written
    _shape(2, 3, _drop("[Pile")),
    _shape(3, 4, _drop("[Pile2 ", "[Pile4 ")),  # some of the piles
    _shape(4, 2, _drop("[Pile1 ")),
    _shape(5, 3, _drop("[Pile3 "), annotate=False),
    _shape(6, 3, _sizes),  # PileSizes beside two of the piles
    _shape(7, 4, _one_line),  # every turn on one line
    _shape(8, 2, _cut),  # cut short, ended with `*`
    _shape(9, 3, _seats),  # calls in the seat form
    _shape(10, 2, _lower),  # turns in lower case
    _shape(11, 4, _dots),  # `7...` for a move number
    _shape(12, 3, _drop("[Pile"), names=["Player 1", "Player 2", "Player 3"]),  # names with digits
]


def test_each_shape_of_record_is_decided() -> None:
    for index, text in enumerate(SHAPES):
        (report,) = _same(text)
        assert isinstance(report, ExpressReport) and report.valid, (index, text[:300])


def test_short_games_agree() -> None:
    decided = [isinstance(report, ExpressReport) for case in CASES for report in _same(case)]
    assert decided[:3] == [True, True, False] and decided[17:19] == [True, True]
    assert sum(decided) == 5 and decided[-2:] == [False, True]


def test_corrupted_games_agree() -> None:
    decided = invalid = 0
    for mutant in MUTANTS:
        for report in _same(mutant):
            decided += isinstance(report, ExpressReport)
            invalid += not report.valid
    # Both kinds are there: games the check decides and games it leaves to the engine.
    assert decided > len(MUTANTS) // 10
    assert invalid > len(MUTANTS) // 3


def test_corrupted_games_agree_in_one_file() -> None:
    # One file of many games: what one game leaves behind does not change the next.
    _same("\n".join(MUTANTS[:120]))


# -- each check is needed ------------------------------------------------------------------

#: Each rule check the quick verdict stands on, by the module that makes it and the code
#: that makes it: a condition of the core's ``play`` or its deal, or a ``return`` of the
#: verdict's reading, as the comment beside it names it.
CHECKS: list[tuple[str, str]] = [
    ("core", "            if not display:\n                code = Rule.AUCTION_DISPLAY"),
    ("core", "            elif seat != player:\n                code = Rule.TURN_ORDER"),
    ("core", "            elif amount > self.gold[seat]:\n                code = Rule.AUCTION_FUNDS"),
    ("core", "                if seat != self.expected:\n"),
    ("core", "                elif amount <= self.high:\n                    code = Rule.AUCTION_RAISE"),
    ("core", "                if phase == CALLS:\n                    code = Rule.AUCTION_END"),
    ("core", "                if card not in display:\n                    code = Rule.PLACE_DISPLAY"),
    ("core", "                    if rank < top:\n                        code = Rule.PLACE_ASCENDING"),
    ("core", "                    if top:\n                        code = Rule.PLACE_WAGER_FIRST"),
    ("core", "                    if phase == BOXED or card not in display:\n"),
    ("core", "                    if top != UNKNOWN:\n                        code = Rule.UNCOVER_TOP"),
    ("core", "                    if not self.free[card]:\n                        code = Rule.SETUP_CARDS"),
    ("core", "                    if move >= TO_BOX:\n                        code = Rule.UNCOVER_USELESS"),
    ("core", "        if len(known) != len(DECK) or min(free) < 0 or not unknown:\n"),
    ("verdict", "return False  # V-PILE-SHARE: no pile ran out"),
    ("verdict", "return False  # V-PILE-SHARE: not the coins"),
    ("verdict", "return None  # V-PILE-SHARE: no pile ran out (or the last did), word by word"),
    ("verdict", "return None  # no word of a turn"),
    ("verdict", "return None  # no number, or not this turn's"),
]


def _module(name: str, source: str) -> types.ModuleType:
    module = types.ModuleType(f"lcn.games.rivals.{name}_without")
    module.__package__ = "lcn.games.rivals"
    exec(compile(source, f"<{name} without a check>", "exec"), module.__dict__)
    return module


def _without(where: str, code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick verdict with one check taken out: a condition made False, or a ``return``
    of the verdict's made a ``pass``; the module so changed put in the original's place."""
    source = inspect.getsource(rivals_core if where == "core" else verdict)
    assert source.count(code) == 1, code
    if code.lstrip().startswith("return"):
        changed = source.replace(code, "pass  # taken out" + code[code.index("  #"):])
    else:
        head, colon, rest = code.partition(":\n")
        keyword = "elif " if head.lstrip().startswith("elif ") else "if "
        indent = head[:len(head) - len(head.lstrip())]
        changed = source.replace(code, f"{indent}{keyword}False{colon}{rest}")
    module = _module(where, changed)
    if where == "core":
        monkeypatch.setattr(verdict, "RivalsCore", module.RivalsCore)
        monkeypatch.setattr(verdict, "tables_for", module.tables_for)
        monkeypatch.setattr(verdict, "_TABLES", {})
    else:
        monkeypatch.setattr(verdict, "express_check", module.express_check)


@pytest.mark.parametrize(("where", "code"), CHECKS)
def test_each_check_is_needed(where: str, code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _without(where, code, monkeypatch)
    corpus = [*CASES, *MUTANTS, *GAMES, *VARIED, *VARIED_MUTANTS]
    for text in corpus:
        try:
            if _differences(text):
                return
        except (AssertionError, AttributeError, IndexError, KeyError, TypeError, ValueError):
            return  # the check's absence breaks the run outright: found too
    pytest.fail(f"no game needs the check {code!r}")


def test_scoring_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # Three footprints on a 10 (two is right), in the table the core's play reads.
    steps = [3 if name[1:] == "10" else steps for name, steps in zip(NAMES, rivals_core.FOOT_OF, strict=True)]
    monkeypatch.setattr(rivals_core, "FOOT_OF", steps)
    assert _differences("\n".join(_star(text) for text in GAMES[:10]))


def test_a_tag_name_in_another_case_is_left_to_full_validation() -> None:
    # Full validation warns of it (tag names are case-sensitive); the express path of any
    # game gives the game up to it.
    classic = '[Player1 "A"]\n[Player2 "B"]\n[result "*"]\n\nR5/d R4/d *\n'
    rivals = GAMES[0].replace("[Event ", "[event ", 1)
    for text in (classic, rivals):
        (report,) = _same(text)
        assert [d.code for d in report.diagnostics] == ["tag-case"]


# -- the tables: every word they hold means what the engine reads -------------------------

#: Players' names of every kind: their own tokens, the seat form, letters kept from a name.
NAME_SETS = [["Ada", "Bo"], ["Ada", "Bo", "Cy", "Di"], ["Ada", "ada"], ["P", "Bo"], ["p", "Bo", "Cy"],
             ["Mary Ann", "Bo"], ["Player 1", "Bo"], ["R2D2", "Bo", "Cy"], ["Zoë", "Bo"],
             ["", "Bo"], ["Ada", "ADA", "Bo", "bo"], ["Up", "Place", "Box"], ["Pp", "PP"]]


def test_tokens_are_the_engines() -> None:
    for names in NAME_SETS:
        if 2 <= len(names) <= 4:
            assert verdict._words_for(tuple(names)).tables.tokens == tuple(player_tokens(names)), names


def _engine_calls(text: str, tokens: list[str]) -> list[tuple[int, int]]:
    """The calls of a turn as the engine reads them: (seat, amount), -1 for a pass."""
    return [(bid.seat, -1 if bid.amount is None else bid.amount) for bid in parse_move(text, tokens).bids]


def _call(move: int) -> tuple[int, int]:
    assert BID <= move < TO_BOX
    return SEAT_OF[move], AMOUNT_OF[move]


def test_every_call_in_the_tables_is_the_engines() -> None:
    for names in NAME_SETS:
        if not 2 <= len(names) <= 4:
            continue
        tokens = player_tokens(names)
        table = verdict._words_for(tuple(names))
        assert len(table.calls) == (TOTAL_GOLD + 3) * len(tokens)
        folded = table.fold()
        for word, move in [*table.calls.items(), *((w, m) for w, m in folded.items() if BID <= m < TO_BOX)]:
            assert _engine_calls(f"{word} up:Y2", tokens) == [_call(move)], (names, word)
        for seat, token in enumerate(tokens):
            for other in (f"{token}00", f"{token}01", f"{token}010", f"{token}{TOTAL_GOLD + 2}",
                          f"{token}100", token, f"{token}--", f"{token.lower()}1", f"{token.upper()}-",
                          f"P{seat + 1}{TOTAL_GOLD + 2}", f"P{len(tokens) + 1}-"):
                found = table.calls.get(other, folded.get(other.casefold()))
                if found is not None:  # read, then as the engine reads it
                    assert _engine_calls(f"{other} up:Y2", tokens) == [_call(found)], (names, other)


def test_every_card_word_in_the_tables_is_the_engines() -> None:
    tokens = ["Ada", "Bo"]
    for word, move in [*verdict._CARD_WORDS.items(), *verdict._FOLDED_CARDS.items()]:
        if move < PLACE or move >= TO_BOX:
            parsed = parse_move(word, tokens)
            card = move - TO_BOX if move >= TO_BOX else move - UP
            assert (parsed.up.value, parsed.up_box) == (NAMES[card], move >= TO_BOX), word
        elif move < MORE:
            parsed = parse_move(f"Ada1 Bo- {word} up:Y2", tokens)
            assert [item.value for item in parsed.place] == [NAMES[move - PLACE]], word
        else:
            assert BOX <= move < BID
            parsed = parse_move(f"Ada1 Bo- {word} up:Y2", tokens)
            assert parsed.box is not None and parsed.box.value == NAMES[move - BOX], word
    assert len(verdict._CARD_WORDS) == len(verdict._FOLDED_CARDS) == 4 * len(NAMES) == 200
    for text, move in verdict._MORE.items():
        parsed = parse_move(f"Ada1 Bo- place:Yw,{text} up:Y2", tokens)
        assert parsed.place[1].value == NAMES[move - MORE]
    for word, code in verdict._CODES.items():
        if code >= verdict._SHARE:
            parsed = parse_move(f"up:Y2 {word}", tokens)
            item = parsed.share if code < verdict._REST else parsed.rest
            assert item is not None and item.value == code % 100 and format_move(parsed) == f"up:Y2 {word}"
    assert verdict._NUMBERS[:3] == ["1.", "2.", "3."]
    for text, move in verdict._MORE.items():
        assert verdict._CODES["," + text] == move  # read only where a `place:` word is cut


_TWO = '[Variant "rivals"]\n[Player1 "{a}"]\n[Player2 "{b}"]\n[Wagers1 "Rw Bw"]\n[Wagers2 "Gw Yw"]\n\n'


@pytest.mark.parametrize(("names", "movetext", "decided", "valid"), [
    (("Ada", "Bo"), "1. up:R4\n2. Bo12 Ada13 Bo- place:R4 up:R5", True, True),
    (("Ada", "Bo"), "1. up:R4\n2. Bo18 Ada- place:R4 up:R5\n3. Ada10 Bo- place:R5 up:R6", True, True),
    (("Ada", "Bo"), "1. up:R4\n2. Bo19 Ada- place:R4 up:R5", False, False),  # V-AUCTION-FUNDS
    (("Ada", "Bo"), "1. up:R4\n2. Bo12 Ada12 Bo- place:R4 up:R5", False, False),  # V-AUCTION-RAISE
    (("Ada", "Bo"), "1. up:R4\n2. Bo012 Ada- place:R4 up:R5", False, True),  # not as written
    (("Ada", "ada"), "1. up:R4\n2. P212 P113 P2- place:R4 up:R5", True, True),  # the seat form
    (("Ada", "ada"), "1. up:R4\n2. P212 P1- place:R4 up:R5", True, True),
    (("Ada", "ada"), "1. up:R4\n2. P112 P2- place:R4 up:R5", False, False),  # V-TURN-ORDER
])
def test_bids_of_two_digits(names: tuple[str, str], movetext: str, decided: bool, valid: bool) -> None:
    (report,) = _same(_TWO.format(a=names[0], b=names[1]) + movetext + "\n*\n")
    assert isinstance(report, ExpressReport) is decided
    assert report.valid is valid


# -- every word damaged in turn ---------------------------------------------------------------

def _damaged(words: list[str], at: int, rng: random.Random) -> list[str]:
    """The movetext's words with the one at ``at`` damaged, or the words cut after it."""
    out = list(words)
    word = out[at]
    how = rng.randrange(8)
    if how == 0:
        del out[at]
    elif how == 1:
        out.insert(at, word)
    elif how == 2 and at + 1 < len(out):
        out[at], out[at + 1] = out[at + 1], out[at]
    elif how == 3:
        out[at] = word.swapcase() if rng.random() < 0.5 else word.upper()
    elif how == 4 and any(ch.isdigit() for ch in word):
        spots = [i for i, ch in enumerate(word) if ch.isdigit()]
        i = rng.choice(spots)
        out[at] = word[:i] + rng.choice("0123456789") + word[i + 1:]
    elif how == 5:
        out[at] = rng.choice(words)
    elif how == 6:
        out[at] = word + rng.choice((">box", "-", "0", ",R4", ":"))
    else:
        out = out[:at + 1]
    return out


@pytest.mark.parametrize("seed", [3, 4])
def test_each_word_damaged_agrees(seed: int) -> None:
    rng = random.Random(seed)
    piles = seed % 2 == 1
    record = random_game(seed, players=2 + seed % 3, annotate=piles)
    text = lcn.write_game(record if piles else strip_piles(record))
    tags, lines = _split(text)
    tags = [tag for tag in tags if not tag.startswith("[Result ")]
    words = " ".join(lines[:-1]).split()
    decided = 0
    for at in range(len(words)):
        damaged = _damaged(words, at, rng)
        reports = _same("\n".join(tags) + "\n\n" + " ".join(damaged) + " *\n")
        decided += sum(isinstance(report, ExpressReport) for report in reports)
    assert 0 < decided < len(words)

"""The express check of Rivals gives the same answers as full validation.

``lcn.validate`` keeps plain Rivals movetext unread and lets ``rivals_express`` decide the
game from its words; whenever it is not sure, the game is validated in full by the engine
of ``rivals.py``. These tests run both ways over the samples, seeded random games (with and
without the piles, with and without the written share-outs) and many single corruptions of
each, and compare everything a caller can see. They check that the express check does decide
the games it is meant for (a check that always gave up would fail), and that each of its
rule checks is needed: the express check with any one of them taken out disagrees with the
engine somewhere on the same corpus.
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
from lcn.validate import ExpressReport, ValidationRun
from lcn.variants import rivals_express
from lcn.variants.rivals import (
    TOTAL_GOLD,
    RivalsVariant,
    card_value,
    footprints,
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


def _after_end(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A turn written after the last card."""
    return _text(tags, [*lines[:-1], f"{len(lines)}. up:Y2", lines[-1]])


TARGETED: list[Mutation] = [_calls, _calls, _calls, _place_order, _share_early, _uneven,
                            _after_end]

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
)] + [_HEAD.replace("\n\n", '\n[Player3 "Cy"]\n[Wagers3 "Ww Rw"]\n\n') + movetext + "\n*\n"
      for movetext in (
    "1. up:R4\n2. Bo- Cy1 Ada- up:R5",  # V-AUCTION-OPEN
    "1. up:R4\n2. Bo1 Cy- Ada2 Bo- up:R5",  # legal
)]


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

#: Each rule check of the express check, as the comment beside its ``return None`` names it.
CHECKS = ["V-AUCTION-DISPLAY", "the opening call out of turn", "V-AUCTION-OPEN",
          "the opening bid beyond", "V-TURN-ORDER, V-AUCTION-ORDER", "V-AUCTION-RAISE",
          "V-AUCTION-END: someone", "V-PLACE-DISPLAY", "V-PLACE-ASCENDING",
          "V-PLACE-WAGER-FIRST", "V-AUCTION-BOX", "no uncover", "V-UNCOVER-TOP",
          "V-SETUP-CARDS: every copy", "V-UNCOVER-USELESS", "V-PILE-SHARE, V-PILE-REMAINDER",
          "V-SETUP-CARDS; sizes", "an empty turn"]


def _without(check: str) -> Callable[..., object]:
    """The express check with the ``return None`` of one check taken out."""
    source = inspect.getsource(rivals_express)
    pattern = re.compile(r"return None  # " + re.escape(check))
    assert len(pattern.findall(source)) == 1, check
    module = types.ModuleType("rivals_express_without")
    module.__package__ = "lcn.variants"
    exec(compile(pattern.sub("pass  # taken out", source), "<without>", "exec"), module.__dict__)
    check_function: Callable[..., object] = module.express_check
    return check_function


@pytest.mark.parametrize("check", CHECKS)
def test_each_check_is_needed(check: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rivals_express, "express_check", _without(check))
    corpus = [*CASES, *MUTANTS, *GAMES]
    for text in corpus:
        try:
            if _differences(text):
                return
        except (AssertionError, IndexError, KeyError, TypeError, ValueError):
            return  # the check's absence breaks the run outright: found too
    pytest.fail(f"no game needs the check {check!r}")


def test_scoring_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # Three footprints on a 10 (two is right), in the table the check reads.
    placed = {text: (card, colour, value, 3 if value == 10 else footprints)
              for text, (card, colour, value, footprints) in rivals_express.PLACED.items()}
    monkeypatch.setattr(rivals_express, "PLACED", placed)
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
        assert rivals_express._tokens(names) == player_tokens(names), names


def _bids(text: str, tokens: list[str]) -> list[tuple[int, int]]:
    return [(bid.seat, bid.amount or 0) for bid in parse_move(text, tokens).bids]


def test_every_call_in_the_tables_is_the_engines() -> None:
    for names in NAME_SETS:
        tokens = player_tokens(names)
        table = rivals_express._call_table(tokens)
        assert len(table) == 10 * len(tokens)
        for word, call in table.items():
            assert _bids(f"{word} up:Y2", tokens) == [call], (names, word)
        for seat, token in enumerate(tokens):
            for amount in range(10, TOTAL_GOLD + 1):
                word = f"{token}{amount}"
                assert word not in table
                assert rivals_express._long_bid(word, tokens) == (seat, amount)
                assert _bids(f"{word} up:Y2", tokens) == [(seat, amount)]
            for other in (f"{token}0", f"{token}00", f"{token}01", f"{token}010",
                          f"{token}{TOTAL_GOLD + 1}", f"{token}100", token,
                          f"{token}--", f"{token.lower()}1", f"{token.upper()}-"):
                if other not in (f"{t}{e}" for t in tokens for e in ("-", *"123456789")):
                    assert other not in table and rivals_express._long_bid(other, tokens) is None


def test_every_card_word_in_the_tables_is_the_engines() -> None:
    tokens = ["Ada", "Bo"]
    for word, (card, colour, value, to_box, text) in rivals_express.UPS.items():
        move = parse_move(word, tokens)
        assert format_move(move) == word
        assert (move.up.value, move.up_box) == (text, to_box)
        assert (rivals_express.CARDS[text], "YBWGR"[colour], value) == (card, text[0], card_value(text))
    assert len(rivals_express.UPS) == 2 * len(rivals_express.CARDS) == 100
    for text, (card, colour, value, steps) in rivals_express.PLACED.items():
        move = parse_move(f"Ada1 Bo- place:{text} up:Y2", tokens)
        assert [item.value for item in move.place] == [text]
        assert (card, "YBWGR"[colour], value, steps) == (
            rivals_express.CARDS[text], text[0], card_value(text), footprints(text))
    for word, card in rivals_express.BOXES.items():
        move = parse_move(f"Ada1 Bo- {word} up:Y2", tokens)
        assert move.box is not None and rivals_express.CARDS[move.box.value] == card
    for table, what in ((rivals_express.SHARES, "share"), (rivals_express.RESTS, "rest")):
        assert len(table) == TOTAL_GOLD + 1
        for word, coins in table.items():
            move = parse_move(f"up:Y2 {word}", tokens)
            item = move.share if what == "share" else move.rest
            assert item is not None and item.value == coins and format_move(move) == f"up:Y2 {word}"
    for pair, (first, second) in rivals_express.WAGERS.items():
        assert pair == f"{'YBWGR'[first]}w {'YBWGR'[second]}w" and first != second
    assert rivals_express.NUMBERS[:3] == ["1.", "2.", "3."]


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

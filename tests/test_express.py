"""The express check of classic games gives the same answers as full validation.

``lcn.validate`` reads plain classic movetext without building turns and lets
``classic_express`` decide the game from its words (``docs/performance.md``); whenever it is
not sure, the game is validated in full. These tests run both ways over seeded random games,
their views without the deal and many single corruptions of each, and compare everything a
caller can see: the JSON report, every diagnostic, the record as read (its turns made on
demand), the final state and the score sheet. They also check that the express check does
decide the games it is meant for, so that a check that always gave up would fail here.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lcn
from lcn.reader import MAX_DEFERRED, Reader
from lcn.validate import ExpressReport, ValidationRun
from lcn.variants.classic_play import random_game, strip_deal


def _summary(report: lcn.GameReport) -> tuple[object, ...]:
    return (report.to_json(), report.valid, report.totals, report.players,
            [d.to_json() for d in report.record.diagnostics], report.extra)


def _both(text: str) -> tuple[list[lcn.GameReport], list[lcn.GameReport]]:
    fast = ValidationRun(text)
    full = ValidationRun(text, express=False)
    fast_reports, full_reports = list(fast), list(full)
    assert [d.to_json() for d in fast.file_diagnostics] == [d.to_json() for d in full.file_diagnostics]
    return fast_reports, full_reports


def _same(text: str) -> list[lcn.GameReport]:
    """Validate both ways, assert the same outcome, and return the express run's reports."""
    fast, full = _both(text)
    assert [_summary(r) for r in fast] == [_summary(r) for r in full]
    for express, reference in zip(fast, full, strict=True):
        assert express.record == reference.record  # the turns, made on demand, as read at once
        assert express.turn_count == reference.turn_count
    return fast


def _games(count: int, seed: int = 0) -> list[str]:
    texts = []
    for index in range(count):
        record = random_game(seed * 10_000 + index, expeditions=6 if index % 4 == 3 else 5)
        texts.append(lcn.write_game(record))
        texts.append(lcn.write_game(strip_deal(record)))
    return texts


GAMES = _games(60)


def test_canonical_games_are_decided_by_the_express_check() -> None:
    reports = _same("\n".join(GAMES))
    assert len(reports) == len(GAMES)
    assert all(isinstance(r, ExpressReport) for r in reports)
    assert all(r.valid and r.over for r in reports)


def test_express_reports_give_the_full_state_and_score_on_demand() -> None:
    text = "\n".join(GAMES[:12])
    full = list(ValidationRun(text, express=False))
    for express, reference in zip(ValidationRun(text), full, strict=True):
        assert isinstance(express, ExpressReport)
        variant = reference.variant
        assert variant is not None
        assert variant.snapshot(express.state) == variant.snapshot(reference.state)
        assert express.score == reference.score


def test_each_players_view_and_written_draws_agree() -> None:
    for index in range(20):
        record = random_game(500 + index)
        for keep in (0, 1):
            _same(lcn.write_game(strip_deal(record, keep=keep)))
        _same(lcn.write_game(random_game(700 + index, reveal_draws=True)))


def _split(text: str) -> tuple[list[str], list[str]]:
    head, _, movetext = text.partition("\n\n")
    return head.split("\n"), movetext.split()


def _join(tags: list[str], words: list[str]) -> str:
    lines, line = [], ""
    for word in words:
        if len(line) + len(word) + 1 > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + "\n"


CARDS = [f"{c}{v}" for c in "YBWGRP" for v in ("w", *range(2, 11))]

#: Single corruptions of a game's words (index, random source) → new words, or None.
Mutation = Callable[[list[str], random.Random], list[str] | None]


def _moves(words: list[str]) -> list[int]:
    return [i for i, w in enumerate(words[:-1]) if "/" in w]


def _swap(words: list[str], rng: random.Random) -> list[str]:
    i = rng.choice(_moves(words)[:-1])
    j = min(i + rng.choice((1, 2, 3)), len(words) - 2)
    out = list(words)
    out[i], out[j] = out[j], out[i]
    return out


def _card(words: list[str], rng: random.Random) -> list[str]:
    out = list(words)
    i = rng.choice(_moves(words))
    left, _, right = out[i].partition("/")
    prefix = "x" if left.startswith("x") else ""
    out[i] = f"{prefix}{rng.choice(CARDS)}/{right}"
    return out


def _draw(words: list[str], rng: random.Random) -> list[str]:
    out = list(words)
    i = rng.choice(_moves(words))
    out[i] = out[i].split("/")[0] + "/" + rng.choice("dYBWGRPdd")
    return out


def _delete(words: list[str], rng: random.Random) -> list[str]:
    out = list(words)
    del out[rng.choice(_moves(words))]
    return out


def _repeat(words: list[str], rng: random.Random) -> list[str]:
    out = list(words)
    i = rng.choice(_moves(words))
    out.insert(i, out[i])
    return out


def _number(words: list[str], rng: random.Random) -> list[str] | None:
    numbers = [i for i, w in enumerate(words) if w.endswith(".")]
    if not numbers:
        return None
    out = list(words)
    i = rng.choice(numbers)
    out[i] = rng.choice((f"{rng.randint(0, 40)}.", out[i][:-1] + "...", out[i] + "."))
    return out


def _drop_numbers(words: list[str], rng: random.Random) -> list[str]:
    keep = rng.random()
    return [w for w in words if not w.endswith(".") or rng.random() < keep * 0.5]


def _lower(words: list[str], rng: random.Random) -> list[str]:
    out = list(words)
    i = rng.choice(_moves(words))
    out[i] = out[i].lower()
    return out


def _termination(words: list[str], rng: random.Random) -> list[str]:
    a, _, b = words[-1].partition(":")
    choices = ["*", f"{b}:{a}", f"0{a}:{b}", f"{a}:{b}:0", "0:0", f"{a}:{int(b or 0) + 1}"]
    return [*words[:-1], rng.choice(choices)]


def _truncate(words: list[str], rng: random.Random) -> list[str]:
    cut = rng.randint(1, len(words) - 1)
    return [*words[:cut], rng.choice(("*", words[-1]))]


def _extend(words: list[str], rng: random.Random) -> list[str]:
    extra = [rng.choice(CARDS[:55]) + "/" + rng.choice("dYBWGR") for _ in range(rng.randint(1, 3))]
    return words[:-1] + extra + words[-1:]


def _trailing_number(words: list[str], rng: random.Random) -> list[str]:
    return [*words[:-1], f"{len(words)}.", *words[-1:]]


MUTATIONS: list[Mutation] = [_swap, _card, _draw, _delete, _repeat, _number, _drop_numbers,
                             _lower, _termination, _truncate, _extend, _trailing_number]


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__.strip("_"))
def test_corrupted_movetext_gets_the_same_report(mutation: Mutation) -> None:
    rng = random.Random(mutation.__name__)
    express_ones = 0
    for text in GAMES:
        tags, words = _split(text)
        changed = mutation(words, rng)
        if changed is None:
            continue
        reports = _same(_join(tags, changed))
        express_ones += sum(isinstance(r, ExpressReport) for r in reports)
    if mutation in (_drop_numbers,):
        assert express_ones > 0  # games without move numbers are still decided quickly


TAG_EDITS: list[tuple[str, Callable[[list[str]], list[str]]]] = [
    ("no Player2", lambda tags: [t for t in tags if not t.startswith("[Player2 ")]),
    ("a Player3", lambda tags: [*tags, '[Player3 "Cleo"]']),
    ("no Hand1", lambda tags: [t for t in tags if not t.startswith("[Hand1 ")]),
    ("no Deck", lambda tags: [t for t in tags if not t.startswith("[Deck ")]),
    ("Expeditions 7", lambda tags: [*tags, '[Expeditions "7"]']),
    ("Expeditions 6", lambda tags: [t for t in tags if not t.startswith("[Expeditions ")]
     + ['[Expeditions "6"]']),
    ("Expeditions padded", lambda tags: [t.replace('"6"', '" 6 "') for t in tags]),
    ("Result differs", lambda tags: [t for t in tags if not t.startswith("[Result ")]
     + ['[Result "1:2"]']),
    ("no Result", lambda tags: [t for t in tags if not t.startswith("[Result ")]),
    ("a dealt card twice", lambda tags: [t.replace("2 ", "3 ", 1) if t.startswith("[Hand1 ") else t
                                         for t in tags]),
    ("a lower-case deal", lambda tags: [t.lower() if t.startswith("[Deck ") else t for t in tags]),
    ("a short hand", lambda tags: [t.replace('"', '" ', 1).rsplit(" ", 2)[0] + '"]'
                                   if t.startswith("[Hand2 ") else t for t in tags]),
    ("a duplicate tag", lambda tags: [*tags, tags[-1]]),
    ("Variant classic", lambda tags: [*tags, '[Variant "Classic"]']),
    ("Variant rivals", lambda tags: [*tags, '[Variant "rivals"]']),
    ("a Match", lambda tags: [*tags, '[Match "M"]', '[Game "1"]']),
    ("Player6", lambda tags: [*tags, '[Player6 "Cy"]']),
]


@pytest.mark.parametrize("edit", TAG_EDITS, ids=[name for name, _ in TAG_EDITS])
def test_changed_tags_get_the_same_report(edit: tuple[str, Callable[[list[str]], list[str]]]) -> None:
    _, change = edit
    for text in GAMES[:40]:
        tags, words = _split(text)
        _same(_join(change(tags), words))


LAYOUTS: list[tuple[str, Callable[[str], str]]] = [
    ("comment before the turns", lambda t: t.replace("\n\n", "\n\n{Before.}\n", 1)),
    ("comment lines before the turns", lambda t: t.replace("\n\n", "\n\n{Before\nthe game}\n; too\n", 1)),
    ("comment among the turns", lambda t: t.replace(" ", " {here} ", 30)),
    ("comment after the end", lambda t: t.rstrip("\n") + " {The end.}\n"),
    ("comment line after the end", lambda t: t + "{The end.}\n"),
    ("open comment", lambda t: t.rstrip("\n") + " {never closed\n"),
    ("glyphs", lambda t: t.replace("/d ", "/d! ", 3)),
    ("trailing spaces", lambda t: t.replace("\n", "  \n")),
    ("tabs", lambda t: t.replace(" ", "\t", 5)),
    ("blank line in the movetext", lambda t: t.replace(" ", "\n\n", 40)[:len(t) + 2]),
    ("Windows line endings", lambda t: t.replace("\n", "\r\n")),
    ("no blank line after the tags", lambda t: t.replace("\n\n", "\n", 1)),
    ("no tags", lambda t: t.split("\n\n", 1)[1]),
    ("indented movetext", lambda t: t.replace("\n", "\n ")),
    ("escape line", lambda t: t + "%escaped\n"),
    ("termination mid-line", lambda t: t.rstrip("\n") + " R5/d\n"),
    ("no termination", lambda t: t.rsplit(" ", 1)[0] + "\n"),
    ("no termination, a bad glyph", lambda t: t.rsplit(" ", 1)[0] + " ???\n"),
    ("no termination, a stray brace", lambda t: t.rsplit(" ", 1)[0] + " }\n"),
    ("no-break space", lambda t: t.replace(" ", "\u00a0", 1)),
    ("bad byte", lambda t: t.replace("1.", "1\udcff.", 1)),
    ("number glued to a turn", lambda t: t.replace("1. ", "1.", 1)),
]


@pytest.mark.parametrize("layout", LAYOUTS, ids=[name for name, _ in LAYOUTS])
def test_other_layouts_get_the_same_report(layout: tuple[str, Callable[[str], str]]) -> None:
    _, change = layout
    for first, second in zip(GAMES[:16:2], GAMES[1:17:2], strict=True):
        text = change(first) + "\n" + change(second)
        data = text.encode("utf-8", "surrogateescape")
        fast, full = list(ValidationRun(data)), list(ValidationRun(data, express=False))
        assert [_summary(r) for r in fast] == [_summary(r) for r in full]
        assert [r.record for r in fast] == [r.record for r in full]


def test_a_game_too_long_to_keep_is_read_as_usual() -> None:
    tags, words = _split(GAMES[0])
    text = _join(tags, words[:-1] + ["R5/d"] * (MAX_DEFERRED // 4) + words[-1:])
    (report,) = _same(text)
    assert not isinstance(report, ExpressReport) and not report.valid


def test_records_read_for_the_express_check_read_the_same() -> None:
    text = "\n".join(GAMES[:20]) + "\n" + "".join(
        change(GAMES[20]) + "\n" for _, change in LAYOUTS if "bad byte" not in _)
    plain = list(Reader(text))
    deferred = list(Reader(text, express=True))
    assert any(record.deferred is not None for record in deferred)
    assert deferred == plain


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_edit_of_a_file_gets_the_same_report(data: st.DataObject) -> None:
    text = "\n".join(GAMES[:3])
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 12))
        insert = data.draw(st.sampled_from(["", " ", "\n", "\n\n", "{", "}", ";", "1.", "*", ":",
                                             "x", "R5/d", "Yw/Y", "[", '[Deck "R5"]\n', "25:13"]))
        text = text[:at] + insert + text[at + cut:]
    _same(text)


def _hand_formatted() -> list[str]:
    """Seeded games written and annotated as a person might (``bench.corpora.hand_format``)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.corpora import hand_format

    return [hand_format(text, seed) for seed, text in enumerate(GAMES)]


HAND = _hand_formatted()


def test_annotated_hand_formatted_games_are_decided_by_the_express_check() -> None:
    text = "\n".join(HAND)
    # Everything the spelling allows is there: comments of both kinds, glyphs glued and
    # alone, numeric glyphs, tabs, indented lines, numbers glued, with three dots or left
    # out, turns in lower case.
    for part in ("{", "; ", "!", "$", "\t", "\n\t", "\n  ", "...", "r", "w/d"):
        assert part in text
    assert re.search(r"\b[0-9]+\.[xXA-Za-z]", text)
    reports = _same(text)
    assert len(reports) == len(HAND)
    assert all(isinstance(r, ExpressReport) for r in reports)
    assert all(r.valid and r.over for r in reports)


def test_annotated_records_keep_their_comments_when_decided_quickly() -> None:
    text = "\n".join(HAND[:30])
    fast = list(ValidationRun(text))
    full = list(ValidationRun(text, express=False))
    assert all(isinstance(r, ExpressReport) for r in fast)
    for express, reference in zip(fast, full, strict=True):
        assert express.record.intro_comments == reference.record.intro_comments
        assert express.record.closing_comments == reference.record.closing_comments
        assert [t.comments for t in express.record.turns] == [t.comments for t in reference.record.turns]
        assert [t.glyphs for t in express.record.turns] == [t.glyphs for t in reference.record.turns]
    assert any(r.record.intro_comments for r in full)
    assert any(t.comments for r in full for t in r.record.turns)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__.strip("_"))
def test_corrupted_annotated_movetext_gets_the_same_report(mutation: Mutation) -> None:
    rng = random.Random("hand " + mutation.__name__)
    for text in HAND[:60]:
        head, _, movetext = text.partition("\n\n")
        words = movetext.split(" ")
        changed = mutation(words, rng)
        if changed is not None:
            _same(head + "\n\n" + " ".join(changed))


#: Words and marks an annotated record may hold, well placed or not.
ANNOTATIONS = ["", " ", "\t", "\n", "\n\t", "{", "}", "{a: b*}", ";", "; c\n", "!", "?", "!!", "!?",
               "!!!", "$1", "$255", "$256", "$", "1.", "2...", "3..", "1.r5/d", "R5/d!", "xrw/d",
               "YW/D", "7.", "*", ":", "25:13", "%", "[", "\u00a0", "R5/d=G2", "01."]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_edit_of_an_annotated_file_gets_the_same_report(data: st.DataObject) -> None:
    first = data.draw(st.integers(0, len(HAND) - 3))
    text = "\n".join(HAND[first:first + 2])
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 12))
        text = text[:at] + data.draw(st.sampled_from(ANNOTATIONS)) + text[at + cut:]
    _same(text)


@pytest.mark.parametrize("source", ["d", "pile"])
def test_a_turn_after_the_last_draw_is_left_to_the_full_engine(source: str) -> None:
    """A turn otherwise legal, after the one that drew the last card (C-END-LAST-DRAW), from
    the draw pile or from a discard pile: the express check finds it from the count of draws
    once its loop is over, and full validation reports the rule alone."""
    found = 0
    for text in GAMES[:24]:
        tags, words = _split(text)
        for card in CARDS[:55]:
            for pile in ("d",) if source == "d" else tuple("YBWGR"):
                if pile.lower() == card[0].lower():
                    continue
                changed = [*words[:-1], f"x{card}/{pile}", words[-1]]
                fast, full = _both(_join(tags, changed))
                rules = {d.rule for d in full[0].diagnostics if d.is_error}
                if rules == {"C-END-LAST-DRAW"}:
                    assert not isinstance(fast[0], ExpressReport)
                    assert [_summary(r) for r in fast] == [_summary(r) for r in full]
                    found += 1
                    break
    assert found >= 12

"""The resynchronisation holds on slips that ``tests/test_resync.py`` does not make.

``test_resync.py`` corrupts seeded legal games with eight kinds of slip, and the engines were
tuned until one slip gives few errors there. The slips here are others that people make when
they copy a game by hand, so the figures say whether the engines resynchronise in general
rather than on the eight kinds they were shown: a value off by one, a colour letter in lower
case, a space inside a word, a word written twice, a move number left out, a whole line of
the record dropped or two lines swapped, a draw from the wrong pile or a discard written as a
placement (classic), a bid one too high or too low, a pass left out and a misspelt name
(Rivals), marks of the sheet added or left out and the wrong expedition accelerated (Roll &
Write).

Each corrupted game is validated and its errors counted. Nearly every one gives at most
three (a dropped line of classic, which loses a dozen turns at once, at most a handful), and
the first error is at the slip or after it. The slips the notation allows (a lower-case
letter, a move number left out where numbers are optional) give no error at all.

Run the module as a script to print the distribution of error counts per game and kind.
"""

from __future__ import annotations

import functools
import random
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_resync import _CARD, BOUND, SHARE, _games, _tokens, errors

import lcn
from lcn.model import GameRecord

#: Corruptions per game and kind (the seeds are fixed, and differ from test_resync.py's).
TRIES = 2
#: A dropped line of classic loses a dozen turns; its errors stay within a handful.
HANDFUL = 5
#: Width of a classic record's lines, as people (and the writer) wrap them.
WIDTH = 79


@dataclass
class Turn:
    """One turn as written: its move number (None when it has none) and its words."""

    number: str | None
    words: list[str]


@dataclass
class Record:
    """A record as lines of turns, so that slips can act on words, turns or lines."""

    variant: str
    head: str
    result: str
    turns: list[Turn]
    #: The turns of each line, as indices into ``turns``.
    lines: list[list[int]] = field(default_factory=list)

    def line_of(self, turn: int) -> int:
        """The line of the text where the 0-based turn stands (the one after it if gone)."""
        first = self.head.count("\n") + 3
        rows = [line for line in self.lines if line]
        for row, line in enumerate(rows):
            if any(index >= turn for index in line):
                return first + row
        return first + len(rows)

    def text(self) -> str:
        rows = []
        for line in self.lines:
            words: list[str] = []
            for index in line:
                turn = self.turns[index]
                if turn.number is not None:
                    words.append(turn.number)
                words.extend(turn.words)
            if words:
                rows.append(" ".join(words))
        return f"{self.head}\n\n" + "\n".join(rows) + f" {self.result}\n"


def _record(variant: str, game: GameRecord) -> Record:
    head = lcn.write_game(GameRecord(tags=game.tags)).split("\n\n")[0]
    texts = [turn.text for turn in game.turns]
    turns: list[Turn] = []
    for index, text in enumerate(texts):
        if variant == "classic":
            number = f"{index // 2 + 1}." if index % 2 == 0 else None
        else:
            number = f"{index + 1}."
        turns.append(Turn(number, text.split()))
    record = Record(variant, head, game.termination or "*", turns)
    if variant == "classic":
        width = 0
        for index, turn in enumerate(turns):
            size = sum(len(w) + 1 for w in ([turn.number] if turn.number else []) + turn.words)
            if not record.lines or width + size > WIDTH:
                record.lines.append([])
                width = 0
            record.lines[-1].append(index)
            width += size
    else:
        record.lines = [[index] for index in range(len(turns))]
    return record


@dataclass
class Corrupted:
    text: str
    #: The 1-based turn of the original game where the slip is.
    turn: int
    kind: str
    #: The line of the text where the slip is.
    line: int


#: A slip: the record changed in place at a turn chosen by ``rng``, and the 1-based turn it
#: changed; None when the record has no place for it.
Slip = Callable[[Record, random.Random, list[str]], int | None]

_ROLLWRITE_COLOURS = "ROYGBP"


def _pick(rng: random.Random, record: Record, test: Callable[[int, str], bool]) -> tuple[int, int] | None:
    """A (turn, word) pair whose word passes ``test``, away from the first and last turns."""
    last = len(record.turns) - 3
    found = [(t, w) for t in range(1, last) for w, word in enumerate(record.turns[t].words)
             if test(t, word)]
    return rng.choice(found) if found else None


def _card_slip(change: Callable[[random.Random, str, str, str], str | None]) -> Slip:
    def slip(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
        pattern = _CARD[record.variant]
        place = _pick(rng, record, lambda _t, word: bool(pattern.search(word)))
        if place is None:
            return None
        t, w = place
        word = record.turns[t].words[w]
        match = rng.choice(list(pattern.finditer(word)))
        new = change(rng, record.variant, match.group(1), match.group(2))
        if new is None:
            return None
        record.turns[t].words[w] = word[:match.start()] + new + word[match.end():]
        return t + 1
    return slip


def _off_by_one(rng: random.Random, variant: str, colour: str, value: str) -> str | None:
    if value == "w":
        return None
    low, high = (1, 10) if variant == "rollwrite" else (2, 10)
    number = int(value) + rng.choice((-1, 1))
    if not low <= number <= high:
        number = int(value) * 2 - number
    return f"{colour}{number}"


def _lower(rng: random.Random, variant: str, colour: str, value: str) -> str:
    return colour.lower() + value


def _space(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
    place = _pick(rng, record, lambda _t, word: len(word) >= 3)
    if place is None:
        return None
    t, w = place
    word = record.turns[t].words[w]
    at = rng.randrange(1, len(word))
    record.turns[t].words[w:w + 1] = [word[:at], word[at:]]
    return t + 1


def _double(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
    if record.variant == "classic":
        # One word a turn: the word written twice is the move number of a pair.
        numbered = [t for t in range(2, len(record.turns) - 3) if record.turns[t].number]
        if not numbered:
            return None
        t = rng.choice(numbered)
        number = record.turns[t].number
        assert number is not None
        record.turns[t].number = f"{number} {number}"
        return t + 1
    place = _pick(rng, record, lambda _t, _word: True)
    if place is None:
        return None
    t, w = place
    record.turns[t].words.insert(w, record.turns[t].words[w])
    return t + 1


def _no_number(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
    numbered = [t for t in range(2, len(record.turns) - 3) if record.turns[t].number]
    if not numbered:
        return None
    t = rng.choice(numbered)
    record.turns[t].number = None
    return t + 1


def _drop_line(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
    if record.variant == "classic":
        if len(record.lines) < 4:
            return None
        at = rng.randrange(1, len(record.lines) - 2)
        first = record.lines[at][0]
        del record.lines[at]
        return first + 1
    # One turn a line: several turns written on one line are two or three turns.
    size = rng.choice((2, 3))
    at = rng.randrange(1, len(record.turns) - 3 - size)
    del record.lines[at:at + size]
    return at + 1


def _swap_lines(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
    if len(record.lines) < 5:
        return None
    at = rng.randrange(1, len(record.lines) - 3)
    words = [" ".join(record.turns[i].words) for i in record.lines[at] + record.lines[at + 1]]
    if record.variant != "classic" and words[0] == words[1]:
        return None
    record.lines[at], record.lines[at + 1] = record.lines[at + 1], record.lines[at]
    return record.lines[at + 1][0] + 1


def _wrong_pile(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
    place = _pick(rng, record, lambda _t, word: "/" in word)
    if place is None:
        return None
    t, w = place
    word = record.turns[t].words[w]
    card, source = word.split("/", 1)
    options = [c for c in "dYBWGR" if c != source[:1]]
    record.turns[t].words[w] = f"{card}/{rng.choice(options)}"
    return t + 1


def _discard_mark(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
    place = _pick(rng, record, lambda _t, word: "/" in word)
    if place is None:
        return None
    t, w = place
    word = record.turns[t].words[w]
    record.turns[t].words[w] = word[1:] if word.startswith("x") else "x" + word
    return t + 1


def _bid(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
    bid = re.compile(r"^([A-Za-z]\w*?)(\d+)$")
    place = _pick(rng, record, lambda _t, word: bool(bid.match(word)) and
                  bid.match(word).group(1) in tokens)  # type: ignore[union-attr]
    if place is None:
        return None
    t, w = place
    match = bid.match(record.turns[t].words[w])
    assert match is not None
    value = int(match.group(2)) + rng.choice((-1, 1))
    if value < 1:
        value = 2
    record.turns[t].words[w] = f"{match.group(1)}{value}"
    return t + 1


def _pass(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
    place = _pick(rng, record, lambda _t, word: word.endswith("-") and word[:-1] in tokens)
    if place is None:
        return None
    t, w = place
    del record.turns[t].words[w]
    return t + 1


def _misspell(name: str, rng: random.Random) -> str:
    """A name as people misspell it: a letter left out, doubled or two letters swapped."""
    how = rng.choice(("drop", "double", "swap")) if len(name) > 2 else "double"
    at = rng.randrange(1, len(name) - 1) if len(name) > 2 else 1
    if how == "drop":
        return name[:at] + name[at + 1:]
    if how == "double":
        return name[:at] + name[at] + name[at:]
    swapped = name[:at] + name[at + 1] + name[at] + name[at + 2:]
    return swapped if swapped != name else name[:at] + name[at] + name[at:]


def _name(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
    named = re.compile(r"^([A-Za-z]\w*?)(?=\d|-|:)")
    letters = [t for t in tokens if not re.fullmatch(r"P\d", t)]
    place = _pick(rng, record, lambda _t, word: bool(named.match(word))
                  and named.match(word).group(1) in letters)  # type: ignore[union-attr]
    if place is None:
        return None
    t, w = place
    word = record.turns[t].words[w]
    match = named.match(word)
    assert match is not None
    record.turns[t].words[w] = _misspell(match.group(1), rng) + word[match.end():]
    return t + 1


_CHOICE = re.compile(r"^([A-Za-z]\w*):([ROYGBP])(10|[1-9])((?:[+>^][ROYGBP-]?)*)$")


def _choice_slip(test: Callable[[str], bool], change: Callable[[random.Random, str], str]) -> Slip:
    def slip(record: Record, rng: random.Random, tokens: list[str]) -> int | None:
        def fits(_t: int, word: str) -> bool:
            match = _CHOICE.match(word)
            return match is not None and test(match.group(4))
        place = _pick(rng, record, fits)
        if place is None:
            return None
        t, w = place
        word = record.turns[t].words[w]
        match = _CHOICE.match(word)
        assert match is not None
        record.turns[t].words[w] = word[:match.start(4)] + change(rng, match.group(4))
        return t + 1
    return slip


def _other_colour(rng: random.Random, marks: str) -> str:
    colours = re.findall(r">([ROYGBP])", marks)
    colour = rng.choice(colours)
    at = marks.index(">" + colour)
    other = rng.choice([c for c in _ROLLWRITE_COLOURS if c != colour])
    return marks[:at + 1] + other + marks[at + 2:]


SLIPS: dict[str, dict[str, Slip]] = {
    "classic": {
        "off-by-one": _card_slip(_off_by_one),
        "lower-case": _card_slip(_lower),
        "space": _space,
        "double-word": _double,
        "no-number": _no_number,
        "drop-line": _drop_line,
        "swap-lines": _swap_lines,
        "wrong-pile": _wrong_pile,
        "discard-mark": _discard_mark,
    },
    "rivals": {
        "off-by-one": _card_slip(_off_by_one),
        "lower-case": _card_slip(_lower),
        "space": _space,
        "double-word": _double,
        "no-number": _no_number,
        "drop-line": _drop_line,
        "swap-lines": _swap_lines,
        "bid": _bid,
        "pass": _pass,
        "name": _name,
    },
    "rollwrite": {
        "off-by-one": _card_slip(_off_by_one),
        "lower-case": _card_slip(_lower),
        "space": _space,
        "double-word": _double,
        "no-number": _no_number,
        "drop-line": _drop_line,
        "swap-lines": _swap_lines,
        "name": _name,
        "artefact-added": _choice_slip(lambda marks: marks == "", lambda _r, _m: "+"),
        "arrow-added": _choice_slip(lambda marks: marks == "", lambda _r, _m: ">-"),
        "arrow-left-out": _choice_slip(lambda marks: marks.endswith(">-"),
                                       lambda _r, marks: marks[:-2]),
        "artefact-left-out": _choice_slip(lambda marks: marks.startswith("+"),
                                          lambda _r, marks: marks[1:]),
        "accelerated": _choice_slip(lambda marks: bool(re.search(r">[ROYGBP]", marks)),
                                    _other_colour),
    },
}

#: Kinds whose slip the notation allows: they must give no error at all.
LEGAL = {"classic": ("lower-case", "no-number"), "rivals": ("lower-case",),
         "rollwrite": ("lower-case",)}
#: The kinds grouped as the assertions count them.
GROUPS = {
    "cards": ("off-by-one", "wrong-pile", "discard-mark", "bid", "pass"),
    "words": ("space", "double-word", "no-number", "name"),
    "lost-lines": ("drop-line",),
    "swapped-lines": ("swap-lines",),
    "sheet": ("artefact-added", "arrow-added", "arrow-left-out", "artefact-left-out",
              "accelerated"),
}


def corruptions(variant: str) -> list[Corrupted]:
    """Every corrupted game of a variant, the same on every run."""
    out: list[Corrupted] = []
    for index, game in enumerate(_games(variant)):
        tokens = _tokens(variant, game)
        for kind, slip in SLIPS[variant].items():
            rng = random.Random(f"holdout-{variant}-{index}-{kind}")
            for _ in range(TRIES):
                record = _record(variant, game)
                turn = slip(record, rng, tokens)
                if turn is None:
                    continue
                out.append(Corrupted(record.text(), turn, kind, record.line_of(turn - 1)))
    return out


#: What is found only at the end: a slip that changed only the scores (an artefact left out,
#: a bid one higher that still won) leaves no other trace.
END = ("game-unfinished", "result-mismatch")


def bound(variant: str, kind: str) -> int:
    return HANDFUL if kind == "drop-line" and variant == "classic" else BOUND


def distribution(variant: str) -> list[tuple[Corrupted, list[lcn.Diagnostic]]]:
    return [(case, errors(case.text)) for case in corruptions(variant)]


VARIANTS = ("classic", "rivals", "rollwrite")


@pytest.fixture(params=VARIANTS)
def measured(request: pytest.FixtureRequest) -> tuple[str, list[tuple[Corrupted, list[lcn.Diagnostic]]]]:
    return request.param, _measured(request.param)


def test_the_records_as_laid_out_here_are_valid() -> None:
    for variant in VARIANTS:
        for game in _games(variant)[:3]:
            assert errors(_record(variant, game).text()) == []


def test_the_slips_the_notation_allows_give_no_error(
        measured: tuple[str, list[tuple[Corrupted, list[lcn.Diagnostic]]]]) -> None:
    variant, results = measured
    legal = [(case, found) for case, found in results if case.kind in LEGAL[variant]]
    assert legal
    assert all(not found for _, found in legal), [(c.kind, f[0].format()) for c, f in legal if f]


#: Where the engines do not resynchronise yet, with the share measured.
XFAIL: dict[tuple[str, str], str] = {}


def _groups() -> list[object]:
    return [pytest.param(variant, group, marks=pytest.mark.xfail(strict=True, reason=XFAIL[key]))
            if (key := (variant, group)) in XFAIL else pytest.param(variant, group)
            for variant in VARIANTS for group, kinds in GROUPS.items()
            if any(kind in SLIPS[variant] and kind not in LEGAL[variant] for kind in kinds)]


@functools.cache
def _measured(variant: str) -> list[tuple[Corrupted, list[lcn.Diagnostic]]]:
    return distribution(variant)


@pytest.mark.parametrize(("variant", "group"), _groups())
def test_one_slip_gives_few_errors(variant: str, group: str) -> None:
    results = _measured(variant)
    cases = [(case, found) for case, found in results
             if case.kind in GROUPS[group] and case.kind not in LEGAL[variant]]
    assert cases
    flagged = [(case, found) for case, found in cases if found]
    # A slip may happen to give another legal game (a bid one higher that still wins); never most.
    assert len(flagged) >= 0.75 * len(cases), (len(flagged), len(cases))
    few = sum(1 for case, found in flagged if len(found) <= bound(variant, case.kind))
    assert few >= SHARE * len(flagged), f"{few}/{len(flagged)} = {few / len(flagged):.1%}"


def test_the_first_error_is_at_the_slip_or_after_it(
        measured: tuple[str, list[tuple[Corrupted, list[lcn.Diagnostic]]]]) -> None:
    _variant, results = measured
    for case, found in results:
        if not found:
            continue
        first = found[0]
        if first.code in END:
            continue  # the slip changed only the scores, or the turns were all read
        if first.turn is None:
            # What the reader finds (two move numbers in a row) has a line and no turn.
            assert first.line is not None and first.line >= case.line - 1, (case.kind, case.line,
                                                                            first.format())
            continue
        assert first.turn >= case.turn - 1, (case.kind, case.turn, first.format())


def main() -> None:
    for variant in VARIANTS:
        results = distribution(variant)
        table: Counter[tuple[str, int]] = Counter()
        for case, found in results:
            table[(case.kind, min(len(found), 9))] += 1
        for group, kinds in GROUPS.items():
            cases = [(c, f) for c, f in results if c.kind in kinds and c.kind not in LEGAL[variant]
                     and f]
            if cases:
                few = sum(1 for c, f in cases if len(f) <= bound(variant, c.kind))
                print(f"{variant} {group}: {few}/{len(cases)} within bound ({few / len(cases):.1%})")
        for kind in SLIPS[variant]:
            row = {n: k for (name, n), k in table.items() if name == kind}
            print(f"  {kind:18} " + " ".join(f"{n}:{row[n]}" for n in sorted(row)))


if __name__ == "__main__":
    main()

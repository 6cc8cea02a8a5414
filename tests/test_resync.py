"""One slip in a hand-written record gives one error and few consequences.

Seeded legal games of each game (from the random players of ``lcn/variants/*_play.py``) get
one corruption of a kind people make when they write a record by hand: a turn dropped (its
line gone, or renumbered), a turn written twice, two turns swapped, a wrong card value, a
wrong colour, a wrong seat, a typo in a keyword, a missing draw source... Each corrupted game
is validated and its errors counted. After an error the engines resynchronise (they apply
the most likely intent, or skip what cannot be applied, and keep quiet about what the first
error already explains), so that nearly every such game gives at most three errors, and the
first error is at the corrupted turn.

Run the module as a script to print the distribution of error counts per game and kind.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass

import pytest

import lcn
from lcn.model import GameRecord
from lcn.variants import classic_play, rivals_play, rollwrite_play
from lcn.variants.rivals import player_tokens as rivals_tokens
from lcn.variants.rollwrite import player_tokens as rollwrite_tokens

#: Games per variant, and corruptions per game and kind (the seeds are fixed).
GAMES = 24
TRIES = 2
BOUND = 3
SHARE = 0.95


@dataclass
class Corrupted:
    """A corrupted record's text, the 1-based turn that was corrupted, and how."""

    text: str
    turn: int
    kind: str
    #: Whether the slip may leave no trace before the end (a turn of Rivals left out: every
    #: card is public and any card may come next, so only the count of cards tells).
    quiet: bool = False


def _movetext(variant: str, record: GameRecord, texts: list[str],
              numbers: list[int] | None = None) -> str:
    """A record with the given turn texts, written as a person would (numbers as given)."""
    head = lcn.write_game(GameRecord(tags=record.tags)).split("\n\n")[0]
    result = record.termination or "*"
    if variant == "classic":
        words = []
        for index, text in enumerate(texts):
            if index % 2 == 0:
                words.append(f"{index // 2 + 1}.")
            words.append(text)
        body = " ".join(words)
    else:
        numbers = numbers or list(range(1, len(texts) + 1))
        body = "\n".join(f"{n}. {t}" for n, t in zip(numbers, texts, strict=True))
    return f"{head}\n\n{body} {result}\n"


def _tokens(variant: str, record: GameRecord) -> list[str]:
    names = [record.tags[f"Player{i}"] for i in range(1, 6) if f"Player{i}" in record.tags]
    if variant == "rivals":
        return rivals_tokens(names)
    if variant == "rollwrite":
        return rollwrite_tokens(names)
    return []


_CARD = {
    "classic": re.compile(r"(?<![A-Za-z])([YBWGR])(10|[2-9]|w)"),
    "rivals": re.compile(r"(?<=[:,])([YBWGR])(10|[2-9]|w)"),
    "rollwrite": re.compile(r"(?<=:)([ROYGBP])(10|[0-9])"),
}
_COLOURS = {"classic": "YBWGR", "rivals": "YBWGR", "rollwrite": "ROYGBP"}
_KEYWORDS = {"classic": ("/d",), "rivals": ("place:", "up:", "box:", "share:"),
             "rollwrite": ("bridge:", "exhausted:")}


def _mangle(variant: str, rng: random.Random, text: str, kind: str,
            tokens: list[str]) -> str | None:
    """The turn's text with one token changed the way ``kind`` says, or None if it cannot."""
    if kind in ("value", "colour"):
        found = list(_CARD[variant].finditer(text))
        if not found:
            return None
        match = rng.choice(found)
        colour, value = match.group(1), match.group(2)
        if kind == "colour":
            colour = rng.choice([c for c in _COLOURS[variant] if c != colour])
        elif value == "w":
            return None
        else:
            low = 0 if variant == "rollwrite" else 2
            value = str(rng.choice([v for v in range(low, 11) if str(v) != value]))
        return text[:match.start()] + colour + value + text[match.end():]
    if kind == "seat":
        found = [m for m in re.finditer(r"(?<![\w:])([A-Za-z]\w*?)(?=\d|-|:)", text)
                 if m.group(1) in tokens]
        if not found:
            return None
        match = rng.choice(found)
        other = rng.choice([t for t in tokens if t != match.group(1)])
        return text[:match.start()] + other + text[match.end():]
    if kind == "keyword":
        words = [k for k in _KEYWORDS[variant] if k in text]
        if not words:
            return None
        word = rng.choice(words)
        at = text.index(word)
        typo = word[:1] + word[2:] if len(word) > 2 else word[::-1]
        return text[:at] + typo + text[at + len(word):]
    if kind == "draw":  # classic: the draw source left out
        return text.split("/")[0] if "/" in text else None
    raise ValueError(kind)


KINDS = {
    "classic": ("drop", "duplicate", "swap", "value", "colour", "keyword", "draw"),
    "rivals": ("drop", "drop-line", "duplicate", "swap", "value", "colour", "seat", "keyword"),
    "rollwrite": ("drop", "drop-line", "duplicate", "swap", "value", "colour", "seat",
                  "keyword"),
}


def _games(variant: str) -> list[GameRecord]:
    if variant == "classic":
        return [classic_play.random_game(1000 + seed) for seed in range(GAMES)]
    if variant == "rivals":
        return [rivals_play.strip_piles(rivals_play.random_game(2000 + seed,
                                                               players=2 + seed % 3))
                for seed in range(GAMES)]
    return [rollwrite_play.random_game(3000 + seed, players=2 + seed % 4) for seed in range(GAMES)]


def corruptions(variant: str) -> list[Corrupted]:
    """Every corrupted game of a variant, the same on every run."""
    out: list[Corrupted] = []
    for index, record in enumerate(_games(variant)):
        texts = [turn.text for turn in record.turns]
        tokens = _tokens(variant, record)
        for kind in KINDS[variant]:
            rng = random.Random(f"{variant}-{index}-{kind}")
            for _ in range(TRIES):
                # The last turns are left alone: a slip there changes only the end.
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
                        continue
                    changed[at], changed[at + 1] = changed[at + 1], changed[at]
                else:
                    mangled = None
                    for _attempt in range(10):
                        mangled = _mangle(variant, rng, texts[at], kind, tokens)
                        if mangled is not None:
                            break
                        at = rng.randrange(1, len(texts) - 2)
                    if mangled is None or mangled == texts[at]:
                        continue
                    changed[at] = mangled
                # A dropped turn is noticed at the turn that now stands in its place.
                quiet = variant == "rivals" and kind.startswith("drop")
                out.append(Corrupted(_movetext(variant, record, changed, numbers), at + 1, kind,
                                     quiet))
    return out


def errors(text: str) -> list[lcn.Diagnostic]:
    report = lcn.validate_record(lcn.read_game(text), express=False)
    return [d for d in report.diagnostics if d.is_error]


def distribution(variant: str) -> tuple[Counter[str], list[tuple[Corrupted, list[lcn.Diagnostic]]]]:
    counts: Counter[str] = Counter()
    results = []
    for case in corruptions(variant):
        found = errors(case.text)
        results.append((case, found))
        counts[f"{case.kind}:{min(len(found), 9)}"] += 1
    return counts, results


VARIANTS = ("classic", "rivals", "rollwrite")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_uncorrupted_games_are_valid(variant: str) -> None:
    for record in _games(variant)[:4]:
        texts = [turn.text for turn in record.turns]
        assert errors(_movetext(variant, record, texts)) == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_slip_gives_few_errors_and_the_first_is_at_the_slip(variant: str) -> None:
    _, results = distribution(variant)
    assert len(results) >= GAMES * len(KINDS[variant])
    silent = [case for case, found in results if not found]
    # A slip may happen to give another legal game (a swap of two uncovers); never most.
    assert len(silent) < len(results) * 0.2
    flagged = [(case, found) for case, found in results if found]
    few = sum(1 for _, found in flagged if len(found) <= BOUND)
    assert few >= SHARE * len(flagged), (few, len(flagged))
    for case, found in flagged:
        first = found[0]
        if first.turn is None and case.quiet:
            assert first.code in ("game-unfinished", "result-mismatch"), first.format()
            continue
        assert first.turn is not None and first.turn >= case.turn - 1, (case.kind, case.turn,
                                                                         first.format())


if __name__ == "__main__":
    for name in VARIANTS:
        table, cases = distribution(name)
        total = len(cases)
        flagged_cases = [found for _, found in cases if found]
        within = sum(1 for found in flagged_cases if len(found) <= BOUND)
        print(f"{name}: {total} games, {len(flagged_cases)} with errors, "
              f"{within} with at most {BOUND} ({within / max(len(flagged_cases), 1):.1%})")
        for kind in KINDS[name]:
            row = {int(key.split(':')[1]): n for key, n in table.items()
                   if key.split(':')[0] == kind}
            print(f"  {kind:10} " + " ".join(f"{k}:{row[k]}" for k in sorted(row)))


def _rivals_game(seed: int) -> GameRecord:
    return rivals_play.strip_piles(rivals_play.random_game(seed))


def test_pile_sizes_are_inferred_from_the_share_outs_of_a_whole_game() -> None:
    record = _rivals_game(7)
    texts = [turn.text for turn in record.turns]
    shares = [i for i, text in enumerate(texts) if "share:" in text]
    assert shares and len(texts) == 80
    # The first pile ran out one card later than 20: move its share-out one turn on.
    at = shares[0]
    words = texts[at].split()
    kept = [w for w in words if not w.startswith(("share:", "rest:"))]
    moved = [w for w in words if w.startswith(("share:", "rest:"))]
    texts[at] = " ".join(kept)
    texts[at + 1] = " ".join([*texts[at + 1].split(), *moved])
    report = lcn.validate_record(lcn.read_game(_movetext("rivals", record, texts)), express=False)
    inferred = [d for d in report.diagnostics if d.code == "pile-sizes-inferred"]
    assert len(inferred) == 1 and inferred[0].severity.value == "info"
    assert "21 19 20 20" in inferred[0].message and "PileSizes" in (inferred[0].hint or "")


def test_a_share_out_where_no_pile_ran_out_points_at_pile_sizes_in_text_and_json() -> None:
    from click.testing import CliRunner
    from lcn_cli.main import cli

    record = _rivals_game(7)
    texts = [turn.text for turn in record.turns]
    del texts[3]  # one turn fewer: the share-outs come a card early by the count
    text = _movetext("rivals", record, texts)
    found = lcn.validate_record(lcn.read_game(text), express=False).diagnostics
    assert any(d.code == "no-share" and "PileSizes" in (d.hint or "") for d in found)
    runner = CliRunner()
    out = runner.invoke(cli, ["validate", "-"], input=text)
    assert "hint: " in out.output and "PileSizes" in out.output
    data = runner.invoke(cli, ["validate", "--format", "json", "-"], input=text)
    import json

    diagnostics = json.loads(data.output)["games"][0]["diagnostics"]
    assert any("PileSizes" in (d.get("hint") or "") for d in diagnostics)
    assert all({"code", "severity", "message", "line", "column", "turn", "rule",
                "length"} <= set(d) for d in diagnostics)


RIVALS_HEAD = ('[Variant "rivals"]\n[Player1 "Jean-Luc"]\n[Player2 "Bo"]\n[Wagers1 "Rw Bw"]\n'
               '[Wagers2 "Gw Yw"]\n\n')


@pytest.mark.parametrize(("movetext", "code", "advice"), [
    ("1. up:R4 2. up:R5 3. JeanLuc1 Bo- place:R4, R5 up:R6 *", "bad-card", "`place:R4,R5`"),
    ("1. up:R4 2. up:R6 >box *", "move-syntax", "`up:R6>box`"),
    ("1. up:R4 2. Bo1 Jean-Luc- place:R4 up:R5 *", "unknown-player", "written `JeanLuc`"),
    ("1. up:R4 2. Bo1 JeanLuc2 place:R4 up:R5 *", "auction-unfinished", "write `Bo-`"),
    ("1. up:R4 2. Bo1 JeanLuc- plce:R4 up:R5 *", "move-syntax", "`place:`"),
    ("1. up:R4 2. Bo1 JeanLc- place:R4 up:R5 *", "unknown-player", "`JeanLuc`"),
])
def test_hints_for_the_slips_of_rivals_records(movetext: str, code: str, advice: str) -> None:
    report = lcn.validate_record(lcn.read_game(RIVALS_HEAD + movetext + "\n"))
    [found] = [d for d in report.diagnostics if d.code == code]
    assert found.hint is not None and advice in found.hint, found.format()
    assert found.format().endswith(f"; hint: {found.hint}")
    assert found.to_json()["hint"] == found.hint


def test_hints_for_a_zero_on_a_started_expedition_and_a_tag_in_another_case() -> None:
    text = ('[Variant "rollwrite"]\n[Player1 "Ada"]\n[player2 "Bo"]\n\n'
            "1. RRR111 Ada:R1 P2:R1\n2. RRR000 P2:R0 Ada:R10\n*\n")
    report = lcn.validate_record(lcn.read_game(text))
    [zero] = [d for d in report.diagnostics if d.code == "circle-too-late"]
    assert zero.hint is not None and "`R10`" in zero.hint
    [case] = [d for d in report.diagnostics if d.code == "tag-case"]
    assert case.severity.value == "warning" and case.line == 3
    assert case.hint is not None and "[Player2 ...]" in case.hint


def test_a_diagnostic_without_a_hint_keeps_the_fixed_json_keys() -> None:
    report = lcn.validate_record(lcn.read_game(RIVALS_HEAD + "1. up:R4 2. up:R44 *\n"))
    [found] = report.diagnostics
    assert found.hint is None and "hint" not in found.to_json()
    assert set(found.to_json()) == {"code", "severity", "message", "line", "column", "turn",
                                    "rule", "length"}


def test_one_wrong_move_number_is_reported_once() -> None:
    text = RIVALS_HEAD + "1. up:R4\n2. up:R5\n4. up:R6\n5. up:R7\n6. up:R8\n*\n"
    found = errors(text)
    assert [(d.code, d.turn) for d in found] == [("move-number", 3)]
    assert found[0].hint is not None and "read on from 4" in found[0].hint


def test_a_keyword_of_roll_and_write_with_a_typo_gets_a_hint() -> None:
    text = ('[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
            "1. RRR111 Ada:R1 Bo:R1 brdge:R\n*\n")
    [found] = lcn.validate_record(lcn.read_game(text)).diagnostics
    assert found.code == "unknown-player" and found.hint == "did you mean `bridge:`?"


@pytest.mark.parametrize(("written", "width"), [("3.", 2), ("03.", 3), ("003...", 6), ("13...", 5)])
@pytest.mark.parametrize("express", [True, False])
def test_a_wrong_move_number_is_underlined_as_written(written: str, width: int, express: bool) -> None:
    # The caret covers the number as it stands in the text, leading zeros and dots included,
    # whether the game was read at once or a line at a time, glued to its turn or not.
    for sep in (" ", ""):
        text = f'[Player1 "A"]\n[Player2 "B"]\n\n1. R5/d R4/d {written}{sep}R6/d *\n'
        report = lcn.validate_record(lcn.read_game(text), express=express)
        [found] = [d for d in report.diagnostics if d.code == "move-number"]
        assert (found.line, found.column, found.length) == (4, 14, width)

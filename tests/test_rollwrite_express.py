"""The express check of Roll & Write gives the same answers as full validation.

``lcn.validate`` keeps plain Roll & Write movetext unread and lets the quick verdict
(``lcn.games.rollwrite.verdict``: the record's words read into the core's moves and played on
the core) decide the game; whenever it is not sure, the game is validated in full by the
engine of ``rollwrite.py``. These tests run both ways over the samples, seeded random games of
every player count (with and without the annotations ``bridge:``, ``exhausted:`` and ``end``,
with and without the ``Sheet`` tag), the same games written as other programs and people write
them (``bench.corpora.rollwrite_corpus``), many single corruptions of each, and short games
that each break one rule, and compare everything a caller can see. They check that the express
check does decide the games it is meant for (a check that always gave up would fail), and that
each of its checks is needed: the verdict with any one of its reading checks taken out, or the
core with any one of its rules taken out, disagrees with the engine somewhere on the same
corpus.
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
from bench.corpora import rollwrite_corpus, rollwrite_format
from lcn.games.rollwrite import core as rollwrite_core
from lcn.games.rollwrite import verdict
from lcn.validate import ExpressReport, ValidationRun
from lcn.variants import rollwrite
from lcn.variants.rollwrite import LAYOUT_ENV, RollWriteVariant, format_layout, player_tokens
from lcn.variants.rollwrite_play import random_game, random_layout

SAMPLES = sorted((Path(__file__).parent.parent / "samples" / "rollwrite").glob("*.lcn"))


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
    """Generated games of every player count, half of them without the annotations."""
    return [lcn.write_game(random_game(seed * 10_000 + index, players=2 + index % 4,
                                       annotate=index % 4 != 3))
            for index in range(count)]


GAMES = _games(40)


def test_samples_agree() -> None:
    for path in SAMPLES:
        (report,) = _same(path.read_text())
        assert isinstance(report, ExpressReport) and report.valid


def test_generated_games_are_decided_by_the_express_check() -> None:
    reports = _same("\n".join(GAMES))
    assert len(reports) == len(GAMES)
    assert all(isinstance(r, ExpressReport) for r in reports)
    assert all(r.valid and r.over for r in reports)
    assert {len(r.players) for r in reports} == {2, 3, 4, 5}


def test_express_reports_give_the_full_state_and_score_on_demand() -> None:
    text = "\n".join(GAMES[:6])
    full = list(ValidationRun(text, express=False))
    for express, reference in zip(ValidationRun(text), full, strict=True):
        assert isinstance(express, ExpressReport)
        variant = reference.variant
        assert isinstance(variant, RollWriteVariant)
        assert variant.snapshot(express.state) == variant.snapshot(reference.state)
        assert express.score == reference.score


def test_a_layout_given_outside_the_record_leaves_the_game_to_the_engine(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The Sheet tag, a layout file and the engine's option all give a layout, which the
    # marks are checked against. The core holds a layout given as the engine does, and the
    # verdict reads the Sheet tag; a layout file or the engine's option is left to the
    # engine.
    tagged = lcn.write_game(random_game(7, players=3, sheet_tag=True))
    (report,) = _same(tagged)
    assert report.valid and isinstance(report, ExpressReport)
    layout = random_layout(random.Random(3))
    path = tmp_path / "sheet.txt"
    path.write_text(format_layout(layout))
    monkeypatch.setenv(LAYOUT_ENV, str(path))
    (report,) = _same(GAMES[0])
    assert not isinstance(report, ExpressReport)
    monkeypatch.delenv(LAYOUT_ENV)
    record = lcn.read_game(GAMES[0])
    assert record is not None
    assert RollWriteVariant(layout=layout).express_check(record, GAMES[0].split()) is None


@pytest.mark.parametrize(("old", "new"), [("[Event ", "[event "), ("[Result ", "[RESULT "),
                                          ("[Site ", "[sITE ")])
def test_a_tag_name_in_another_case_is_left_to_full_validation(old: str, new: str) -> None:
    # Tag names are case-sensitive: full validation warns of a known one in another case,
    # and the express check gives the game up to it; the spellings of the specifications
    # and unknown names do not.
    (report,) = _same(GAMES[0].replace(old, new, 1))
    assert not isinstance(report, ExpressReport)
    assert [d.code for d in report.diagnostics] == ["tag-case"]
    (report,) = _same(GAMES[0].replace("[Site ", '[Round "3"]\n[Table "2"]\n[Site ', 1))
    assert isinstance(report, ExpressReport) and report.valid


# -- corruptions -------------------------------------------------------------------------

_CHOICE = re.compile(r"(?<=:)([ROYGBP])(10|[0-9])")
_ROLL = re.compile(r"(?<=\. )[ROYGBP]{3}[0-9]{3}\b")

#: A corruption of a game's text (tags and turn lines) → the new text, or None.
Mutation = Callable[[list[str], list[str], random.Random], str | None]


def _text(tags: list[str], lines: list[str]) -> str:
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + "\n"


def _split(text: str) -> tuple[list[str], list[str]]:
    head, _, movetext = text.strip("\n").partition("\n\n")
    return head.split("\n"), movetext.split("\n")


def _replace_word(lines: list[str], rng: random.Random,
                  change: Callable[[str, list[str]], str | None]) -> list[str] | None:
    """One word of one turn (not the move number) changed by ``change(word, words)``."""
    i = rng.randrange(len(lines) - 1)
    number, *words = lines[i].split()
    if not words:
        return None
    j = rng.randrange(len(words))
    new = change(words[j], words)
    if new is None or new == words[j]:
        return None
    words[j] = new
    out = list(lines)
    out[i] = " ".join([number, *words])
    return out


def _die(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A die of a roll, or the number of a choice, changed: a wrong die."""
    i = rng.randrange(len(lines) - 1)
    if rng.random() < 0.5:
        spots = list(_ROLL.finditer(lines[i]))
        k = rng.randrange(6)
        faces = "ROYGBP" if k < 3 else "0123456789"
    else:
        spots = list(_CHOICE.finditer(lines[i]))
        k = 1
        faces = "0123456789"
    if not spots:
        return None
    spot = rng.choice(spots)
    text = spot.group()
    if k == 1 and spots[0].re is _CHOICE:
        new = spot.group(1) + rng.choice(("10", *faces))
    else:
        new = text[:k] + rng.choice(faces) + text[k + 1:]
    out = list(lines)
    out[i] = lines[i][:spot.start()] + new + lines[i][spot.end():]
    return _text(tags, out)


def _box(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """The colour of a choice changed, or the marks of the box it fills: a wrong box."""
    def change(word: str, words: list[str]) -> str | None:
        who, colon, rest = word.partition(":")
        if not colon or who in ("bridge", "exhausted") or rest == "-":
            return None
        how = rng.randrange(5)
        if how == 0:
            return f"{who}:{rng.choice('ROYGBP')}{rest[1:]}"
        if how == 1:
            return word + rng.choice(("+", "^", ">-", ">R", ">G^", "+>-", ">"))
        if how == 2:
            return word.replace("+", "", 1) if "+" in word else word.replace(">-", "", 1)
        if how == 3:
            return re.sub(r">[ROYGBP]", lambda m: ">" + rng.choice("ROYGBP-"), word, count=1)
        return f"{who}:-"
    out = _replace_word(lines, rng, change)
    return None if out is None else _text(tags, out)


def _twice(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A choice written twice, or one player's choice given to another: a box filled twice."""
    i = rng.randrange(len(lines) - 1)
    number, roll, *words = lines[i].split()
    choices = [w for w in words if not w.startswith(("bridge:", "exhausted:", "end"))]
    if not choices:
        return None
    j = rng.randrange(len(choices))
    if rng.random() < 0.5:
        words.insert(j, choices[j])
    else:
        k = rng.randrange(len(choices))
        words[j] = choices[j].partition(":")[0] + ":" + choices[k].partition(":")[2]
    out = list(lines)
    out[i] = " ".join([number, roll, *words])
    return _text(tags, out)


def _word(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A word of a turn dropped, moved, spelt in another case or an annotation changed."""
    i = rng.randrange(len(lines) - 1)
    number, *words = lines[i].split()
    j = rng.randrange(len(words))
    how = rng.randrange(5)
    if how == 0:
        del words[j]
    elif how == 1:
        words.insert(rng.randrange(len(words) + 1), words.pop(j))
    elif how == 2:
        words[j] = words[j].upper() if rng.random() < 0.5 else words[j].lower()
    elif how == 3:
        words.append(rng.choice(("end", "bridge:R", "bridge:D,A", "bridge:A,D", "exhausted:P1",
                                 "bridge:O", "End")))
    else:
        words = [w for w in words if not w.startswith(("bridge:", "exhausted:", "end"))]
    out = list(lines)
    out[i] = " ".join([number, *words])
    return _text(tags, out)


def _turn(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A turn dropped, doubled or swapped with the next (move numbers as they were, or
    renumbered)."""
    i = rng.randrange(len(lines) - 2)
    out = list(lines)
    how = rng.randrange(3)
    if how == 0:
        del out[i]
    elif how == 1:
        out.insert(i, out[i])
    else:
        out[i], out[i + 1] = out[i + 1], out[i]
    if rng.random() < 0.5:
        out = [f"{n}. {line.partition(' ')[2]}" for n, line in enumerate(out[:-1], 1)] + out[-1:]
    return _text(tags, out)


def _extra(tags: list[str], lines: list[str], rng: random.Random) -> str | None:
    """A turn added after the last one: after the end, or where the game goes on."""
    cut = rng.choice((len(lines) - 1, rng.randrange(1, len(lines))))
    body = lines[:cut]
    players = sum(1 for t in tags if re.match(r"\[Player[0-9] ", t))
    tokens = [w.partition(":")[0] for w in body[0].split()[2:2 + players]]
    roller = cut % players
    order = [tokens[(roller + step) % players] for step in range(players)]
    extra = f"{cut + 1}. RRR111 " + " ".join(f"{token}:-" for token in order)
    return _text([t for t in tags if not t.startswith("[Result ")], [*body, extra, "*"])


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
               ":".join([*scores[:-1], str(int(scores[-1]) + 5)])]
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
    how = rng.randrange(4)
    name, _, value = out[i][1:-1].partition(" ")
    if how == 0:
        del out[i]
    elif how == 1:
        out[i] = f"[{name.lower()} {value}]"
    elif how == 2:
        out[i] = f'[{name} "{rng.choice(("Bridge", "P1", "Ada", "Zed", "", "Player 3"))}"]'
    else:
        out.append(rng.choice(('[Player6 "Zed"]', '[Player9 "Zed"]', '[Sheet "R:........."]',
                               '[Sheet "bad"]', '[Player1 "Ada"]', '[Players "2"]')))
    return _text(out, lines)


MUTATIONS: list[Mutation] = [_die, _die, _box, _box, _twice, _word, _turn, _extra, _number,
                             _termination, _truncate, _tag]


def _mutants(texts: list[str], per_game: int, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    for text in texts:
        tags, lines = _split(text)
        for _ in range(per_game):
            try:
                mutant = rng.choice(MUTATIONS)(tags, lines, rng)
            except (IndexError, ValueError):
                continue  # a game too short for the corruption drawn
            if mutant is not None and rng.random() < 0.3:
                mutant = _star(mutant)
            if mutant is not None:
                yield mutant


def _star(text: str) -> str:
    """The game ended with `*` (no Result tag): a rule broken that changes no score shows."""
    head, body = _split(text)
    return _text([t for t in head if not t.startswith("[Result ")], [*body[:-1], "*"])


MUTANTS = list(_mutants(GAMES, 8, seed=1))
#: Games written as other programs and people write them (``rollwrite_format``), and
#: corruptions of them.
VARIED = [rollwrite_format(lcn.write_game(random_game(30_000 + index, players=2 + index % 4,
                                                     sheet_tag=True, annotate=index % 4 != 1)),
                           index) for index in range(40)]
VARIED_MUTANTS = list(_mutants(VARIED, 4, seed=2))

_HEAD = '[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
#: Two players refusing every die: the dice bridge at turn 7, both exhausted at turn 9.
_REFUSALS = [f"{n}. ROG037 {'Ada:- Bo:-' if n % 2 else 'Bo:- Ada:-'}" for n in range(1, 10)]
_REFUSALS[6] += " bridge:D"
_REFUSALS[8] += " exhausted:Ada,Bo end"
#: Ada fills her red expedition with 1s in nine turns, Bo refusing; red bridge at turn 7.
_REDS = [f"{n}. RRR111 {'Ada:R1 Bo:-' if n % 2 else 'Bo:- Ada:R1'}" for n in range(1, 10)]
_REDS[6] += " bridge:R,D"
_REDS[8] += " exhausted:Bo"


#: The same players on a sheet whose red boxes carry nothing.
_SHEETED = _HEAD.replace("\n\n", '\n[Sheet "R:........."]\n\n')


def _case(*turns: str, termination: str = "*") -> str:
    return _HEAD + "\n".join(turns) + f"\n{termination}\n"


#: Short games, each legal or breaking one rule (named beside it).
CASES = [
    _case("1. ROG037 Ada:R3 Bo:O7"),  # legal
    _case("1. ROG037 Ada:R3>R Bo:O7>-"),  # legal: an acceleration into the same expedition
    _case("1. ROG037 Ada:- Bo:R0\n2. RGB012 Bo:R1+>G>- Ada:-"),  # legal: the circle, a chain
    _case(*_REFUSALS, termination="20:20"),  # legal: every player exhausted
    _case(*_REDS, "10. RRR111 Bo:- Ada:R1^"),  # legal: the top artefact
    _case("1. ROG037 Ada:R3"),  # RW-TURN-ORDER: a choice missing
    _case("1. ROG037 Bo:R3 Ada:O7"),  # RW-TURN-ORDER: Bo does not roll turn 1
    _case("1. ROG037 Ada:R3 Ada:O7"),  # RW-TURN-ORDER: Ada twice
    _case("1. ROG037 Ada:R3 Bo:O7").replace("Bo", "Bea").replace("Ada:R3 Bea:O7",
                                                                 "Bea:R3 Ada:O7"),  # the same
    _case("1. ROG037 Ada:Y3 Bo:O7"),  # RW-TURN-ROLLER-DICE
    _case("1. ROG037 Ada:R3 Bo:R7"),  # RW-TURN-OTHERS-DICE
    _case("1. ROG037 Ada:R0>G Bo:-"),  # marks after the circle
    _case("1. ROG037 Ada:R3 Bo:-\n2. RGB012 Bo:- Ada:R0"),  # RW-CIRCLE: too late
    _case("1. ROG037 Ada:R0 Bo:-\n2. RGB012 Bo:- Ada:R0"),  # RW-CIRCLE: twice
    _case("1. ROG037 Ada:R10 Bo:-"),  # RW-WRITE-ZERO-START
    _case("1. ROG037 Ada:R3 Bo:-\n2. RGB012 Bo:- Ada:R2"),  # RW-WRITE-ASCENDING
    _case("1. ROG037 Ada:R3^>G Bo:-"),  # marks after `^`
    _case("1. ROG037 Ada:R3>X Bo:-"),  # not a box
    _case("1. ROG037 Ada:R3>->G Bo:-"),  # a box after a declined acceleration
    _case("1. ROG037 Ada:R3>G^>R Bo:-"),  # a box after a top artefact
    _case(*_REDS, "10. RRR111 Bo:- Ada:R1"),  # RW-WRITE-FULL
    _case(*_REDS, "10. RRR111 Bo:- Ada:R1^", "11. RRR111 Ada:R1^ Bo:-"),  # RW-TOP-ARTEFACT
    _case(*_REDS, "10. RRG111 Bo:- Ada:G1>R"),  # RW-ACCEL-FULL
    _case("1. ROG037 Ada:R3^ Bo:-"),  # RW-TOP-ARTEFACT: not full
    _case("1. ROG037 Ada:R3>- Bo:-\n2. RGB012 Bo:R1 Ada:-"),  # RW-LAYOUT-CONSISTENT: arrow
    _case("1. ROG037 Ada:R3+ Bo:-\n2. RGB012 Bo:R1 Ada:-"),  # RW-LAYOUT-CONSISTENT: artefact
    _case(*_REFUSALS[:6], _REFUSALS[6].replace("bridge:D", "bridge:R")),  # RW-BRIDGE-FIRST
    _case(*_REFUSALS[:8], _REFUSALS[8].replace("Ada,Bo", "Ada")),  # RW-DICE-EXHAUSTED
    _case(*_REFUSALS[:7], _REFUSALS[7] + " end"),  # RW-END-CONDITION: not the end
    _case(*_REFUSALS, "10. ROG037 Bo:- Ada:-"),  # RW-END-CONDITION: a turn after the end
    _case("1. ROG037 Ada:R3 Bo:O7", "3. ROG037 Bo:- Ada:-"),  # LCN-MOVE-NUMBER
    _case("1. ROX037 Ada:- Bo:-"),  # RW-SETUP-DICE
    _case("1."),  # an empty turn
    _case("1. ROG037 Ada:R3 Bo:O7 bridge:R,R"),  # a column twice
    _case("1. ROG037 Ada:R3 Bo:O7 bridge:X"),  # not a column
    _case("1. ROG037 Ada:R3 Bo:O7 exhausted:Zed"),  # an unknown player
    _case("1. ROG037 Ada:R3 Bo:O7 exhausted:Ada,ada"),  # a player twice
    _case("1. ROG037 Ada:R3 bridge:D Bo:O7"),  # a choice after an annotation
    _case("1. ROG037 Ada:R3 Bo:O7 end end"),  # `end` twice
    _case(*_REFUSALS[:8], _REFUSALS[8].replace("exhausted:Ada,Bo end", "end exhausted:Ada,Bo"),
          termination="20:20"),  # the annotations out of their order
    _case(*_REFUSALS[:6], _REFUSALS[6] + " bridge:D"),  # an annotation twice
    _case("1. ROG037 Ada:R3 Xy:O7"),  # an unknown player
    _case("1. ROG037 Ada:R3 Bo:O7 2. ROG037 Bo:- Ada:- bridge:O end exhausted:Bo"),  # out of order
    _case("1. ROG037 bridge:D"),  # a turn without choices
    _case("1. ROG037 ADA:R3^>G Bo:-"),  # marks after `^`, the seat in another case
    _case("1. ROG037 Ada:R3 Bo:O7\n2. RGB012"),  # a turn of a roll alone
    _case(*_REFUSALS[:7], "8. ROG037 bridge:D"),  # a turn without choices, after a bridge
    _SHEETED + "1. ROG037 Ada:R3+ Bo:-\n*\n",  # RW-ARTEFACT-BOX
    _SHEETED + "1. ROG037 Ada:R3>- Bo:-\n*\n",  # RW-ACCEL-ARROW
    _case(),  # no turn at all: legal
]


def test_short_games_agree() -> None:
    decided = [isinstance(report, ExpressReport) for case in CASES for report in _same(case)]
    assert decided[:5] == [True] * 5 and decided[-1]
    assert sum(decided) == 6


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


# -- records written in other ways --------------------------------------------------------

#: One legal game of three players, then the same game as others write it: each spelling
#: is read by the engine without a word, and the verdict decides it.
_THREE = ('[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n[Player3 "Cy"]\n\n'
          "1. ROG037 Ada:R3 Bo:O7 Cy:-\n2. RGB012 Bo:G1+>B Cy:B2 Ada:-\n"
          "3. YYP456 Cy:Y4 Ada:P5 Bo:-\n*\n")
SPELLINGS = {
    "several turns on a line": _THREE.replace("\n2.", " 2.").replace("\n3.", " 3."),
    "seats as P2": _THREE.replace("Bo:", "P2:").replace("Cy:Y4", "p3:Y4"),
    "seats in another case": _THREE.replace("Ada:", "ADA:").replace("Bo:", "bo:"),
    "turns in lower case": _THREE.replace("RGB012 Bo:G1+>B Cy:B2 Ada:-", "rgb012 bo:g1+>b cy:b2 ada:-"),
    "dice in another order": _THREE.replace("ROG037", "GOR730"),
    "no Result tag, unfinished": _THREE.replace("3. YYP456 Cy:Y4 Ada:P5 Bo:-\n", ""),
    "a whole Sheet tag": _THREE.replace("[Player3", '[Sheet "R:..>...... O:......... G:*........ '
                                        'B:>........ Y:......... P:........."]\n[Player3'),
    "a partial Sheet tag": _THREE.replace("[Player3", '[Sheet "R:??>?????? G:*????????"]\n[Player3'),
    "a longer acceleration": _THREE.replace("Bo:G1+>B", "Bo:G1+>O>B"),
}
_REFUSING = ('[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
             + "\n".join([*_REFUSALS[:6], _REFUSALS[6].replace("bridge:D", "BRIDGE:d"), _REFUSALS[7],
                                      _REFUSALS[8].replace("exhausted:Ada,Bo end", "exhausted:P2,ada End")])
             + "\n20:20\n")
SPELLINGS["annotations spelt otherwise"] = _REFUSING


@pytest.mark.parametrize("name", SPELLINGS)
def test_records_written_in_other_ways_are_decided(name: str) -> None:
    (report,) = _same(SPELLINGS[name])
    assert isinstance(report, ExpressReport) and report.valid


def test_a_corpus_written_in_other_ways_agrees_and_is_decided() -> None:
    text = rollwrite_corpus(40, seed=5)
    reports = _same(text)
    assert len(reports) == 40 and all(isinstance(r, ExpressReport) and r.valid for r in reports)
    # Each shape is there: 2-5 players, unfinished games, seats as P2, several turns on a
    # line, no Sheet tag, a whole one and a partial one.
    assert {len(r.players) for r in reports} == {2, 3, 4, 5}
    assert any(not r.over for r in reports) and any(r.over for r in reports)
    assert re.search(r" P[1-5]:", text) and re.search(r" [0-9]+\. .* [0-9]+\. ", text)
    sheets = [r.record.tags.get("Sheet") for r in reports]
    assert None in sheets and any(s and "?" in s for s in sheets) \
        and any(s and "?" not in s and len(s.split()) == 6 for s in sheets)


def test_games_written_in_other_ways_and_corrupted_agree() -> None:
    decided = invalid = 0
    for text in [*VARIED, *VARIED_MUTANTS]:
        for report in _same(text):
            decided += isinstance(report, ExpressReport)
            invalid += not report.valid
    assert decided > len(VARIED) and invalid > len(VARIED_MUTANTS) // 3


# -- each check is needed ------------------------------------------------------------------

#: Each reading check of the verdict, as the comment beside its ``return None`` names it.
CHECKS = ["the seats as the engine would say something of them (RW-SETUP-PLAYERS)",
          "a Sheet tag the engine cannot read (RW-SETUP-LAYOUT)",
          "not a word of a turn (LCN-RW-TURN)",
          "not a choice the engine reads",
          "not a column, or one twice (LCN-RW-TURN)",
          "an unknown player, or one twice (LCN-RW-PLAYER)",
          "a word the engine would say something about",
          "a rule broken: the engine says which, where and why"]
#: Each rule of the core a record's words can break (a word of a choice is read whole, so
#: an acceleration is never left without its box, and the verdict's core knows no roll).
RULES = [rule for rule in rollwrite_core.Rule if rule.name not in ("ACCEL_COPY", "SETUP_DICE")]


def _corpus() -> list[str]:
    tagged = lcn.write_game(random_game(7, players=3, sheet_tag=True))
    return [*CASES, *SPELLINGS.values(), tagged, *MUTANTS, *GAMES, *VARIED_MUTANTS, *VARIED]


def _needed() -> None:
    for text in _corpus():
        try:
            if _differences(text):
                return
        except (AssertionError, AttributeError, IndexError, KeyError, TypeError, ValueError):
            return  # the check's absence breaks the run outright: found too
    pytest.fail("no game needs the check")


def _module_without(module: types.ModuleType, pattern: re.Pattern[str], name: str) -> types.ModuleType:
    """A copy of ``module`` with the code that ``pattern`` finds taken out."""
    source = inspect.getsource(module)
    assert pattern.findall(source), pattern
    copy = types.ModuleType(name)
    copy.__package__ = module.__package__
    exec(compile(pattern.sub("pass  # taken out", source), f"<{name}>", "exec"), copy.__dict__)
    return copy


@pytest.mark.parametrize("check", CHECKS)
def test_each_check_is_needed(check: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pattern = re.compile(r"return None  # " + re.escape(check) + "$", re.MULTILINE)
    assert len(pattern.findall(inspect.getsource(verdict))) == 1, check
    monkeypatch.setattr(rollwrite, "_VERDICT",
                        _module_without(verdict, pattern, "verdict_without").express_check)
    _needed()


@pytest.mark.parametrize("rule", [rule.name for rule in RULES])
def test_each_rule_is_needed(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every check of the rule taken out of the core's loop: the rule's code never comes.
    pattern = re.compile(rf"code = Rule\.{rule}\n\s+break|return Rule\.{rule}, part_art, part_arrow, False")
    core = _module_without(rollwrite_core, pattern, "core_without")
    monkeypatch.setattr(verdict, "RollWriteCore", core.RollWriteCore)
    monkeypatch.setattr(verdict, "_STARTS", {})
    _needed()


def test_scoring_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # One point more for each expedition with a box filled: the totals must show it.
    points = tuple(value + (boxes > 0) for boxes, value in enumerate(rollwrite_core.EXPEDITION_POINTS))
    monkeypatch.setattr(rollwrite_core, "EXPEDITION_POINTS", points)
    assert _differences("\n".join(_star(text) for text in GAMES[:10]))


# -- the tables made at import ---------------------------------------------------------------

@pytest.mark.parametrize("names", [
    ["Ada", "Bo"], ["Ada", "ada"], ["Ada", "End"], ["P", "Bo"], ["Ada", "Bridge", "Cy"],
    ["Ada", ""], ["Mary Ann", "Bo"], ["Jean-Luc", "Bo"], ["Zoë", "Bo"], ["Player 3", "Bo"],
    ["Ada", "Bo", "Cy", "Di", "Exhausted"], ["Pa", "Pb"], ["ADA", "Bo", "ada"]])
def test_seat_tokens_are_player_tokens(names: list[str]) -> None:
    assert verdict.seat_tokens(names) == player_tokens(names)


def test_plain_names_are_their_own_tokens() -> None:
    names = ["Ada", "Bo", "Cy"]
    assert verdict.seat_tokens(names) is names
    assert verdict.seat_tokens(["Ada", "ADA"]) == ["P1", "P2"]


def test_usual_accelerations_read_as_any_other() -> None:
    # Every choice in the table is what ``_read_body`` reads from it; a longer one is read as
    # it comes.
    assert len(verdict._BODIES) > 3000
    for text, moves in verdict._BODIES.items():
        assert verdict._read_body(text) == moves
        assert verdict._read_body(text.lower()) == moves
    assert "R3>G>B" not in verdict._BODIES
    assert verdict._read_body("R3>G>B") is not None
    assert verdict._read_body("R0>G") is None
    assert verdict._read_body("R3^>G") is None
    assert verdict._read_body("R3>G>") is None
    long = _case("1. ROG037 Ada:R3>G>B+>Y Bo:-\n2. RGB345 Bo:- Ada:R4>O>G>B>-")
    reports = _same(long)
    assert isinstance(reports[0], ExpressReport) and reports[0].valid
    for broken in ("Ada:R3>G>B^>Y", "Ada:R3>G>B>-Y", "Ada:R3>G>B>X"):
        assert not _same(long.replace("Ada:R3>G>B+>Y", broken))[0].valid

"""The express check of Roll & Write gives the same answers as full validation.

``lcn.validate`` keeps plain Roll & Write movetext unread and lets ``rollwrite_express``
decide the game from its words; whenever it is not sure, the game is validated in full by the
engine of ``rollwrite.py``. These tests run both ways over the samples, seeded random games of
every player count (with and without the annotations ``bridge:``, ``exhausted:`` and ``end``,
with and without the ``Sheet`` tag), many single corruptions of each, and short games that
each break one rule, and compare everything a caller can see. They check that the express
check does decide the games it is meant for (a check that always gave up would fail), and that
each of its rule checks is needed: the express check with any one of them taken out disagrees
with the engine somewhere on the same corpus.
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
from lcn.variants import rollwrite_express
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


def test_a_layout_given_leaves_the_game_to_the_engine(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    # The Sheet tag, a layout file and the engine's option all give a layout, which the
    # engine checks the marks against: the express check leaves such games alone.
    tagged = lcn.write_game(random_game(7, players=3, sheet_tag=True))
    (report,) = _same(tagged)
    assert report.valid and not isinstance(report, ExpressReport)
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
            mutant = rng.choice(MUTATIONS)(tags, lines, rng)
            if mutant is not None and rng.random() < 0.3:
                mutant = _star(mutant)
            if mutant is not None:
                yield mutant


def _star(text: str) -> str:
    """The game ended with `*` (no Result tag): a rule broken that changes no score shows."""
    head, body = _split(text)
    return _text([t for t in head if not t.startswith("[Result ")], [*body[:-1], "*"])


MUTANTS = list(_mutants(GAMES, 8, seed=1))

_HEAD = '[Variant "rollwrite"]\n[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
#: Two players refusing every die: the dice bridge at turn 7, both exhausted at turn 9.
_REFUSALS = [f"{n}. ROG037 {'Ada:- Bo:-' if n % 2 else 'Bo:- Ada:-'}" for n in range(1, 10)]
_REFUSALS[6] += " bridge:D"
_REFUSALS[8] += " exhausted:Ada,Bo end"
#: Ada fills her red expedition with 1s in nine turns, Bo refusing; red bridge at turn 7.
_REDS = [f"{n}. RRR111 {'Ada:R1 Bo:-' if n % 2 else 'Bo:- Ada:R1'}" for n in range(1, 10)]
_REDS[6] += " bridge:R,D"
_REDS[8] += " exhausted:Bo"


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


# -- each check is needed ------------------------------------------------------------------

#: Each rule check of the express check, as the comment beside its ``return None`` names it.
CHECKS = ["a turn after the end", "a choice missing", "another player, or spelt otherwise",
          "RW-TURN-ROLLER-DICE", "RW-TURN-OTHERS-DICE", "not a box, or marks after",
          "RW-CIRCLE: too late", "RW-WRITE-ZERO-START", "RW-WRITE-ASCENDING",
          "not a box, or a box after", "RW-WRITE-FULL, RW-ACCEL-FULL",
          "RW-TOP-ARTEFACT: not full", "RW-LAYOUT-CONSISTENT", "RW-BRIDGE-FIRST (or another",
          "RW-DICE-EXHAUSTED", "RW-END-CONDITION: `end`", "RW-SETUP-LAYOUT"]


def _without(check: str) -> Callable[..., object]:
    """The express check with the ``return None`` of one check taken out."""
    source = inspect.getsource(rollwrite_express)
    pattern = re.compile(r"return None  # " + re.escape(check))
    assert len(pattern.findall(source)) == 1, check
    module = types.ModuleType("rollwrite_express_without")
    module.__package__ = "lcn.variants"
    exec(compile(pattern.sub("pass  # taken out", source), "<without>", "exec"), module.__dict__)
    check_function: Callable[..., object] = module.express_check
    return check_function


@pytest.mark.parametrize("check", CHECKS)
def test_each_check_is_needed(check: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rollwrite_express, "express_check", _without(check))
    tagged = lcn.write_game(random_game(7, players=3, sheet_tag=True))
    corpus = [*CASES, tagged, *MUTANTS, *GAMES]
    for text in corpus:
        try:
            if _differences(text):
                return
        except (AssertionError, IndexError, KeyError, TypeError, ValueError):
            return  # the check's absence breaks the run outright: found too
    pytest.fail(f"no game needs the check {check!r}")


def test_scoring_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # One point more for each expedition with a box filled: the totals must show it.
    points = [[value + (boxes > 0) for boxes, value in enumerate(row)]
              for row in rollwrite_express._POINTS]
    monkeypatch.setattr(rollwrite_express, "_POINTS", points)
    assert _differences("\n".join(_star(text) for text in GAMES[:10]))


# -- the tables made at import ---------------------------------------------------------------

@pytest.mark.parametrize("names", [
    ["Ada", "Bo"], ["Ada", "ada"], ["Ada", "End"], ["P", "Bo"], ["Ada", "Bridge", "Cy"],
    ["Ada", ""], ["Mary Ann", "Bo"], ["Jean-Luc", "Bo"], ["Zoë", "Bo"], ["Player 3", "Bo"],
    ["Ada", "Bo", "Cy", "Di", "Exhausted"], ["Pa", "Pb"], ["ADA", "Bo", "ada"]])
def test_seat_tokens_are_player_tokens(names: list[str]) -> None:
    assert rollwrite_express.seat_tokens(names) == player_tokens(names)


def test_plain_names_are_their_own_tokens() -> None:
    names = ["Ada", "Bo", "Cy"]
    assert rollwrite_express.seat_tokens(names) is names
    assert rollwrite_express.seat_tokens(["Ada", "ADA"]) == ["P1", "P2"]


def test_usual_accelerations_read_as_any_other() -> None:
    # Every tail in the table is what ``_tail`` reads from it; a longer one is read as it comes.
    assert len(rollwrite_express._TAILS) > 300
    for text, steps in rollwrite_express._TAILS.items():
        assert rollwrite_express._tail(text) == steps
    assert "G>B>Y" not in rollwrite_express._TAILS
    # The accelerations of one box, looked up whole, are what ``_acceleration`` makes of them.
    whole = [text for text in rollwrite_express._FIRST
             if (">" in text and not text.endswith(">-")) or text.count(">") > 1]
    assert len(whole) > 3000
    for text in whole:
        assert rollwrite_express._FIRST[text] == rollwrite_express._acceleration(text)
    assert rollwrite_express._acceleration("R3>G>B") is not None
    assert "R3>G>B" not in rollwrite_express._FIRST
    assert rollwrite_express._acceleration("R0>G") is None
    assert rollwrite_express._acceleration("R3^>G") is None
    long = _case("1. ROG037 Ada:R3>G>B+>Y Bo:-\n2. RGB345 Bo:- Ada:R4>O>G>B>-")
    reports = _same(long)
    assert isinstance(reports[0], ExpressReport) and reports[0].valid
    for broken in ("Ada:R3>G>B^>Y", "Ada:R3>G>B>-Y", "Ada:R3>G>B>X"):
        assert not _same(long.replace("Ada:R3>G>B+>Y", broken))[0].valid

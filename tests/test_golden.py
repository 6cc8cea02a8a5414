"""Validation says today exactly what it said when the golden corpus was made.

Why: each game has three rules implementations (the engine, its express check, the random
player), and they are to merge into one fast core plus an explainer. That rewrite must not
change a single verdict, diagnostic (code, rule, severity, message, hint, line, column,
length, turn) or score, and the unit tests name only the cases someone thought of. The
corpus in ``tests/data/golden/`` holds tens of thousands of records of every game (classic
with 5 and 6 expeditions, with the deal, without it and with one player's view; Rivals for
2-4 players; Roll & Write for 2-5), two in three damaged the ways people and programs
damage records, each with what the library said of it when the corpus was made, asked both
ways: as ``lcn validate`` asks (``ValidationRun``, the express check where it applies, then
the score sheet that reading ``.score`` forces) and in full (no express check, with the
running scores the replay shows). The texts are stored rather than seeds, since the random
players that made them are part of the rewrite.

Regenerating: only ever on purpose, when a diagnostic's wording, place or code is meant to
change (or a score was wrong), and never to make this test pass after a change that was
meant to keep behaviour: ``.venv/bin/python scripts/make_golden.py`` writes the corpus anew
from the code of the work tree (about seven minutes), with the commit it was made at in each
file's header; review the diff of what changed (``--compare`` lists the records whose
results differ from the stored ones) before committing it.

A sample of one record in ten is checked by default; the rest is ``slow``.
"""

from __future__ import annotations

import functools
import json
import lzma
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import lcn
from lcn.variants.base import Score

DATA = Path(__file__).parent / "data" / "golden"
GAMES = ("classic", "rivals", "rollwrite")
#: Records per parametrized case: a failure names its game and chunk.
CHUNK = 1000
#: The default run checks the records whose index is a multiple of this.
SAMPLE = 10
#: Stands for an express answer (or score sheet) equal to the full one at the same place.
SAME = "="
#: What only the full answer holds.
FULL_ONLY = ("complete", "running", "match")


# -- the ways of asking (the generator asks through these too) -----------------------------

def _sheet(score: Score | None) -> dict[str, Any] | None:
    if score is None:
        return None
    return {"totals": list(score.totals), "breakdown": [dict(b) for b in score.breakdown],
            "details": list(score.details)}


def _failure(exc: Exception) -> dict[str, Any]:
    return {"error": f"{type(exc).__name__}: {exc}"}


def ask_express(text: str) -> dict[str, Any]:
    """What ``lcn validate`` says (the JSON form), then the score sheet read from each report.

    The JSON form is taken before the score is read, so that an express report answers it
    without the engine; reading ``.score`` then makes it validate in full and check that both
    agree.
    """
    try:
        run = lcn.ValidationRun(text)
        games = []
        for report in run:
            entry = report.to_json()
            entry["sheet"] = _sheet(report.score)
            games.append(entry)
        return {"file": [d.to_json() for d in run.file_diagnostics], "games": games}
    except Exception as exc:  # a crash is a result too: the rewrite must not add or lose one
        return _failure(exc)


def ask_full(text: str) -> dict[str, Any]:
    """What the engine says with no express check: the replay's way, with running scores."""
    try:
        run = lcn.ValidationRun(text, express=False, keep_running=True)
        games = []
        for report in run:
            entry = report.to_json()
            entry["complete"] = report.complete
            entry["sheet"] = _sheet(report.score)
            entry["running"] = report.running
            if "match" in report.extra:
                entry["match"] = report.extra["match"]
            games.append(entry)
        return {"file": [d.to_json() for d in run.file_diagnostics], "games": games}
    except Exception as exc:
        return _failure(exc)


def observe(text: str) -> dict[str, Any]:
    """Both answers for one record, as plain JSON values (tuples become lists)."""
    result = {"express": ask_express(text), "full": ask_full(text)}
    plain: dict[str, Any] = json.loads(json.dumps(result))
    return plain


def pack(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` as stored: an express answer equal to the full one at the same place (most
    are) is written ``=``, and so is an express score sheet equal to the full one."""
    full_games = result["full"].get("games", [])
    games = result["express"].get("games", [])
    for index, entry in enumerate(games):
        if index < len(full_games):
            full = full_games[index]
            if entry == {key: value for key, value in full.items() if key not in FULL_ONLY}:
                games[index] = SAME
            elif entry["sheet"] == full["sheet"]:
                entry["sheet"] = SAME
    return result


def unpack(stored: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(stored))
    full_games = result["full"].get("games", [])
    games = result["express"].get("games", [])
    for index, entry in enumerate(games):
        full = full_games[index] if index < len(full_games) else {}
        if entry == SAME:
            games[index] = {key: value for key, value in full.items() if key not in FULL_ONLY}
        elif entry.get("sheet") == SAME:
            entry["sheet"] = full["sheet"]
    return result


# -- the fixture ---------------------------------------------------------------------------

def path_of(game: str) -> Path:
    return DATA / f"{game}.jsonl.xz"


def header(game: str) -> dict[str, Any]:
    with lzma.open(path_of(game), "rt", encoding="utf-8") as handle:
        head: dict[str, Any] = json.loads(handle.readline())["header"]
    return head


@functools.lru_cache(maxsize=1)
def _lines(game: str) -> list[str]:
    """The records of a game as stored lines, parsed only when their chunk is checked."""
    with lzma.open(path_of(game), "rt", encoding="utf-8") as handle:
        return handle.read().splitlines()[1:]


def _cases() -> list[tuple[str, int]]:
    cases: list[tuple[str, int]] = []
    for game in GAMES:
        if path_of(game).exists():
            count = header(game)["records"]
            cases.extend((game, start) for start in range(0, count, CHUNK))
    return cases


CASES = _cases()


def _first_difference(expected: Any, got: Any, where: str = "") -> tuple[str, Any, Any] | None:
    """Where two results first differ, and what each holds there.

    In a list of diagnostics the whole diagnostic is shown, not only its differing key.
    """
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in [*expected, *(k for k in got if k not in expected)]:
            found = _first_difference(expected.get(key, "<absent>"), got.get(key, "<absent>"),
                                      f"{where}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(expected, list) and isinstance(got, list):
        whole = where.endswith(("diagnostics", ".file"))
        for index in range(max(len(expected), len(got))):
            left = expected[index] if index < len(expected) else "<absent>"
            right = got[index] if index < len(got) else "<absent>"
            if left != right:
                if whole:
                    return f"{where}[{index}]", left, right
                found = _first_difference(left, right, f"{where}[{index}]")
                if found is not None:
                    return found
        return None
    return None if expected == got else (where or ".", expected, got)


def check(game: str, start: int, keep: Callable[[int], bool]) -> None:
    """Validate the records of one chunk that ``keep(index)`` picks; fail naming the first
    that differs (with the first differing diagnostic) and counting the others."""
    lines = _lines(game)
    failures: list[tuple[int, dict[str, Any], tuple[str, Any, Any]]] = []
    for index in range(start, min(start + CHUNK, len(lines))):
        if not keep(index):
            continue
        record = json.loads(lines[index])
        assert record["n"] == index
        expected = unpack(record["result"])
        got = observe(record["text"])
        if got != expected:
            found = _first_difference(expected, got)
            assert found is not None
            failures.append((index, record, found))
    if failures:
        index, record, (where, left, right) = failures[0]
        text = record["text"]
        shown = text if len(text) <= 1500 else text[:1500] + "…"
        pytest.fail(
            f"{len(failures)} record(s) of {game} differ from the golden results; the first is "
            f"record {index} ({record['family']}, damage: {', '.join(record['damage']) or 'none'})"
            f"\nat {where}\nexpected: {json.dumps(left, ensure_ascii=False)}"
            f"\ngot:      {json.dumps(right, ensure_ascii=False)}"
            f"\nother records: {[i for i, _, _ in failures[1:11]]}\ntext:\n{shown}",
            pytrace=False)


def test_the_corpus_is_there_and_covers_every_game() -> None:
    for game in GAMES:
        head = header(game)
        assert head["game"] == game
        assert head["records"] >= 1000
        assert 0 < head["valid_records"] < head["records"]


@pytest.mark.parametrize(("game", "start"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_a_sample_says_what_it_said(game: str, start: int) -> None:
    check(game, start, lambda index: index % SAMPLE == 0)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "start"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_every_other_record_says_what_it_said(game: str, start: int) -> None:
    check(game, start, lambda index: index % SAMPLE != 0)

"""Where the time of full validation goes, part by part, against the floor.

Each part is timed over the same classic corpus in the same rounds as the floor (CPU time,
medians), so that the table reads as multiples of one regex pass over the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import lcn
from lcn.reader import _Lines
from lcn.validate import ExpressReport, ValidationRun

if TYPE_CHECKING:
    from .__main__ import Table


def _count(iterable: Any) -> int:
    return sum(1 for _ in iterable)


def _lines(data: bytes) -> int:
    return _count(_Lines(data))


def _read_deferred(data: bytes) -> int:
    return _count(lcn.Reader(data, express=True))


def _read(data: bytes) -> int:
    return _count(lcn.read_games(data))


def _validate(data: bytes, *, express: bool) -> int:
    return sum(1 for report in ValidationRun(data, express=express) if not report.valid)


def express_share(data: bytes) -> tuple[int, int]:
    """Games of a corpus the express check decides, and games in all."""
    decided = games = 0
    for report in ValidationRun(data):
        games += 1
        decided += isinstance(report, ExpressReport)
    return decided, games


def bench_parts(table: Table, corpus: dict[str, bytes], runs: int,
                interleaved: Callable[[dict[str, Callable[[], Any]], int], dict[str, float]],
                floor: Callable[[bytes], int]) -> None:
    """Reading and validating the classic 5 corpora, part by part, in µs per turn."""
    table.section("Where the time goes (classic 5, CPU time per turn, medians)")
    for label in ("full deal", "no deal"):
        data = corpus[f"classic 5, {label}"]
        turns = sum(len(record.turns) for record in lcn.read_games(data))
        parts: dict[str, Callable[[], Any]] = {
            "floor: one regex pass": partial(floor, data),
            "the lines, decoded and split": partial(_lines, data),
            "reading as the validator does (plain movetext kept unread)": partial(_read_deferred, data),
            "reading into turns (lcn.read_games)": partial(_read, data),
            "full validation (lcn.validate: the express check)": partial(_validate, data, express=True),
            "full validation, express check off (the full engine)":
                partial(_validate, data, express=False),
        }
        seconds = interleaved(parts, runs)
        base = seconds["floor: one regex pass"]
        decided, games = express_share(data)
        for name, took in seconds.items():
            note = f"{took / base:.2f} x the floor"
            if "express check)" in name:
                note += f"; {decided:,} of {games:,} games decided by the express check"
            table.add(f"{label}: {name}", f"{took / turns * 1e6:.3f} us/turn", note)

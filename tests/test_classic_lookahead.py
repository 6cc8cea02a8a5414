"""The classic resynchronisation reads a bounded number of turns ahead, however long the record.

When a fully known hand plays a card it does not hold, the classic engine guesses the card
meant (``ClassicVariant._meant``): a number card the record plays later was not meant here,
so it reads the turns that follow, at most ``_LOOKAHEAD`` of them. Without that bound a
record of n turns with an error every few turns would cost n² to check. These tests count
the turn texts the guess reads (each turn text is a probe that notes when it is read), on
records thousands of turns long: no time is measured.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import lcn
from lcn.variants import classic
from lcn.variants.classic import _LOOKAHEAD, ClassicVariant

HAND1 = "R5 Y5 W5 W6 W7 W8 R6 R7"
HAND2 = "B5 G5 W2 W3 W9 W10 B6 G6"
CYCLE = ["xB5/Y", "xR5/G", "xY5/B", "xG5/R"]
#: Cards drawn from the draw pile by the turns of the slips: never the card meant by a slip.
DRAWS = ["G2", "G3", "Y2", "Y3", "R2", "R3", "Gw", "Yw"]


def long_record(turns: int, slips: int = 0, every: int = 400) -> str:
    """A legal classic game of ``turns`` turns with both hands known (Hand tags, draws
    written out), four cards passed round through four discard piles for ever.

    ``slips`` pairs of turns are inserted, ``every`` turns apart: in each, a player writes
    W4, a card nobody holds, meaning one of the white cards of the hand (Ada's W5 to W8,
    Bo's W2, W3, W9 and W10), which the record never plays: the engine reads the turns after the
    slip to see whether a candidate is played later, then discards the nearest onto the
    white pile, which the cycle never touches, so the game goes on as written.
    """
    moves = ["xR5/d=B2", "xB5/d=B3", "xY5/B", "xG5/R"]
    while len(moves) < turns:
        moves.append(CYCLE[(len(moves) - 4) % 4])
    for slip in reversed(range(slips)):
        at = 20 + slip * every
        moves[at:at] = [f"xW4/d={DRAWS[2 * slip]}", f"xW4/d={DRAWS[2 * slip + 1]}"]
    return (f'[Player1 "Ada"]\n[Player2 "Bo"]\n[Hand1 "{HAND1}"]\n[Hand2 "{HAND2}"]\n\n'
            + " ".join(moves) + " *\n")


class Probe(str):
    """A turn text that notes its index in ``reads`` when the look-ahead reads it."""

    index: int
    reads: list[int] | None = None  # set while the look-ahead runs

    def __new__(cls, text: str, index: int) -> Probe:
        probe = super().__new__(cls, text)
        probe.index = index
        return probe

    def lstrip(self, chars: str | None = None) -> str:
        if Probe.reads is not None:
            Probe.reads.append(self.index)
        return str(self).lstrip(chars)

    def startswith(self, *args: Any) -> bool:
        if Probe.reads is not None:
            Probe.reads.append(self.index)
        return str(self).startswith(*args)


class Calls:
    """What each call of the look-ahead read: (the turn being played, indices read)."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, list[int]]] = []


@pytest.fixture()
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Calls]:
    seen = Calls()
    setup, meant = ClassicVariant.setup, ClassicVariant._meant

    def probed_setup(self: ClassicVariant, record: Any) -> Any:
        state, problems = setup(self, record)
        if state.texts is not None:
            state.texts = tuple(Probe(text, index) for index, text in enumerate(state.texts))
        return state, problems

    def counted_meant(state: Any, move: Any, player: int) -> str | None:
        reads: list[int] = []
        Probe.reads = reads
        try:
            return meant(state, move, player)
        finally:
            Probe.reads = None
            seen.calls.append((state.turn, reads))

    monkeypatch.setattr(ClassicVariant, "setup", probed_setup)
    monkeypatch.setattr(ClassicVariant, "_meant", staticmethod(counted_meant))
    yield seen


def _errors(text: str) -> list[lcn.Diagnostic]:
    record = lcn.read_game(text)
    assert record is not None
    return [d for d in lcn.validate_record(record).diagnostics if d.is_error]


def test_the_long_record_is_legal_and_each_slip_gives_one_error() -> None:
    assert _errors(long_record(4000)) == []
    errors = _errors(long_record(6000, slips=4, every=1000))
    assert [(d.turn, d.code) for d in errors] == [
        (turn, "not-in-hand") for slip in range(4) for turn in (21 + 1002 * slip, 22 + 1002 * slip)]
    meant = [d.hint for d in errors]
    assert meant == [f"did you mean `{card}`?"
                     for card in ("W5", "W3", "W6", "W2", "W7", "W9", "W8", "W10")]


def test_the_look_ahead_reads_at_most_the_bound_of_turns(calls: Calls) -> None:
    turns = 4000
    _errors(long_record(turns, slips=1))
    assert [turn for turn, _reads in calls.calls] == [20, 21]  # Ada's slip, then Bo's
    for turn, reads in calls.calls:
        assert turns - turn > 10 * _LOOKAHEAD  # far more turns follow than are read
        assert reads, "the look-ahead read no turn: the probe no longer sees it"
        assert min(reads) > turn and max(reads) <= turn + _LOOKAHEAD
        # No candidate is played later, so each reads the whole window, and only it.
        assert len(set(reads)) == _LOOKAHEAD
        assert len(reads) <= len(HAND1.split()) * 2 * _LOOKAHEAD


def test_many_slips_cost_the_bound_each_not_the_rest_of_the_record(calls: Calls) -> None:
    turns, slips = 6000, 4
    _errors(long_record(turns, slips=slips, every=1000))
    assert len(calls.calls) == 2 * slips
    for turn, reads in calls.calls:
        assert reads and all(turn < index <= turn + _LOOKAHEAD for index in reads)
    total = sum(len(reads) for _turn, reads in calls.calls)
    assert total <= len(calls.calls) * len(HAND1.split()) * 2 * _LOOKAHEAD
    # Reading to the end instead would read more than ten times as many turns.
    assert sum(turns - turn for turn, _reads in calls.calls) > 10 * len(calls.calls) * _LOOKAHEAD


def test_the_bound_is_the_documented_constant() -> None:
    assert classic._LOOKAHEAD == 120

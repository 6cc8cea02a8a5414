"""Seeded fuzzing with long runs, repeated tokens and every character class, per importer.

The structured inputs of ``fuzz.strategies.long_lines`` (from ``fuzz/long_inputs.py``) go
through every importer, detection, the reader and the highlighter (``fuzz.targets.long_lines``).
Lines of up to 20,000 characters are enough for the watchdog to catch a pattern or a loop whose
work grows with the square of a line; the same inputs, built from a fuzzer's bytes, are the
``long`` target of the coverage-guided harness (``python3 -m fuzz.run long``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz import long_inputs, targets
from fuzz import strategies as fs

LONG = settings(derandomize=True, deadline=None, database=None, max_examples=40,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("fmt", list(long_inputs.TOKENS))
def test_long_lines_of_each_format(fmt: str) -> None:
    @LONG
    @given(fs.long_lines(fmt))
    def check(data: bytes) -> None:
        with targets.watchdog():
            targets.long_lines(data)

    check()


def test_the_harness_builds_long_structured_inputs() -> None:
    built = long_inputs.from_bytes(bytes([5, 15, 255, 0]) + b"Ada plays the red 7")
    assert len(built) > 65_000 and b"a  " in built  # a run of spaces, in the middle of a line
    with targets.watchdog():
        targets.long_structured(bytes([5, 16, 0, 1]) + b"Ada plays the red 7\nAda draws\n")

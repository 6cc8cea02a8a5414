"""Seeded fuzzing of the library and the CLI: whatever the input, a result or diagnostics.

The inputs are valid records of every variant (from the seeded random players), the same
records damaged in small ways, the JSON form with parts replaced by any JSON, every
importer's own format damaged, and raw bytes. Each input goes through the targets in
``fuzz/targets.py``: the reader (bytes, text, a stream; strict and lenient), validation by
every engine, the writer's round trip on what reads cleanly, the JSON form, every importer
(detected and named) and the ``lcn`` commands. Nothing may raise but the documented clear
errors, and a watchdog turns a hang into a failure.

The budget is fixed and derandomized, so CI runs the same inputs every time; the
coverage-guided harness in ``fuzz/run.py`` is the place for long runs (docs/reliability.md).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz import strategies as fs
from fuzz import targets

FUZZ = settings(derandomize=True, deadline=None, database=None, max_examples=100,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])


def run(target: Callable[[bytes], None], data: bytes) -> None:
    with targets.watchdog():
        target(data)


# -- the reader, the engines and the writer -------------------------------------------------

@settings(FUZZ, max_examples=50)
@given(fs.valid_lcn())
def test_valid_records_read_validate_and_round_trip(text: str) -> None:
    report = next(iter(targets.lcn.validate(text)))
    assert report.valid, [d.format() for d in report.diagnostics if d.is_error]
    run(targets.reader, text.encode("utf-8"))


@FUZZ
@given(fs.damaged(fs.valid_lcn()))
def test_damaged_records_reader(data: bytes) -> None:
    run(targets.reader, data)


@FUZZ
@given(fs.damaged(fs.valid_lcn()))
def test_damaged_records_every_engine(data: bytes) -> None:
    run(targets.engines, data)


@settings(FUZZ, max_examples=150)
@given(st.binary(max_size=400) | st.lists(st.sampled_from(fs.TOKENS), max_size=30).map(b"".join))
def test_raw_bytes_and_token_soup(data: bytes) -> None:
    run(targets.reader, data)
    run(targets.engines, data)
    run(targets.json_form, data)


# -- the JSON form -----------------------------------------------------------------------

@settings(FUZZ, max_examples=60)
@given(fs.damaged_json())
def test_json_form_with_any_part_replaced(data: bytes) -> None:
    run(targets.json_form, data)
    run(targets.importers, data)


@settings(FUZZ, max_examples=60)
@given(fs.damaged(fs.valid_lcn().map(lambda text: targets.jsonform.dumps([fs.record_of(text)]))))
def test_json_form_damaged_as_text(data: bytes) -> None:
    run(targets.json_form, data)


# -- the importers -------------------------------------------------------------------------

@FUZZ
@given(fs.damaged(fs.importer_inputs()))
def test_importers_on_damaged_logs(data: bytes) -> None:
    run(targets.importers, data)


@settings(FUZZ, max_examples=60)
@given(fs.damaged(fs.valid_lcn(), most=3))
def test_importers_on_damaged_lcn(data: bytes) -> None:
    run(targets.importers, data)


# -- the command line --------------------------------------------------------------------------

@settings(FUZZ, max_examples=50)
@given(fs.damaged(fs.valid_lcn() | fs.importer_inputs(), most=4))
def test_cli_exit_codes_never_a_traceback(data: bytes) -> None:
    run(targets.cli, data)


# -- the watchdog itself ----------------------------------------------------------------------
def test_the_watchdog_stops_work_that_runs_on_and_not_a_process_that_waits() -> None:
    """A loop that computes is stopped; waiting (here a sleep longer than the limit, as a
    process waits for a processor on a busy machine) is no hang, because the limit is CPU time."""
    with pytest.raises(targets.Hang, match="CPU time"), targets.watchdog(0.2):
        end = time.monotonic() + 120  # the loop's own bound, should the watchdog fail
        while time.monotonic() < end:
            sum(range(1000))
    with targets.watchdog(0.2):
        time.sleep(0.5)

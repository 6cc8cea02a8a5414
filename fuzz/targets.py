"""What "never crashes" means for each entry point of LCN, as functions of raw input.

Both the seeded Hypothesis tests (``tests/test_fuzz*.py``, run in CI) and the
coverage-guided harness (``fuzz/run.py``, run for hours outside CI) drive these same
functions, so a crash found by one is checked the same way by the other.

Each target takes bytes, as an attacker would send them, and either returns or raises.
It may only raise :class:`FuzzFailure` (a property broken: a wrong answer rather than an
exception) or an unexpected exception (the crash itself); the exceptions the API documents
for bad input (``JSONFormError``, ``ImportError_``, ``LCNError`` in strict mode) are the
clear errors the property asks for and are caught here.
"""

from __future__ import annotations

import io
import json
import math
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

import lcn
from lcn import jsonform
from lcn.importers import (
    ImportError_,
    detect,
    export_records,
    formats,
    get_importer,
    import_text,
    output_formats,
)
from lcn.model import GameRecord
from lcn.validate import validate_record
from lcn.variants import MoveSyntaxError, find_variant, variant_names


class FuzzFailure(AssertionError):
    """A property broken without an exception: a wrong or inconsistent answer."""


class Hang(AssertionError):
    """One input ran longer than the watchdog allows."""


@contextmanager
def watchdog(seconds: float = 60) -> Iterator[None]:
    """Fail with Hang when the block uses more than ``seconds`` of CPU time (main thread, Unix).

    Inputs take milliseconds; the limit is a guard against endless loops and work that
    grows with the square of the input, not a speed requirement. It counts the process's
    CPU time (``ITIMER_PROF``), not wall time: on a machine shared with other jobs a
    process may wait for a processor longer than it runs, and that waiting is no hang.
    """
    def expire(_signum: int, _frame: FrameType | None) -> None:
        raise Hang(f"one input used more than {seconds} s of CPU time")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def text_of(data: bytes) -> str:
    """The input as text, the way a lenient caller would decode it (bad bytes replaced)."""
    return data.decode("utf-8", "replace")


def _check_report(report: lcn.GameReport) -> None:
    """Everything a report offers must be usable: JSON, formatted diagnostics, players."""
    json.dumps(report.to_json())
    for d in report.diagnostics:
        d.format("fuzz.lcn")
        json.dumps(d.to_json())
        if d.line is not None and d.line < 0:
            raise FuzzFailure(f"diagnostic with a negative line: {d}")
    if report.score is not None and report.complete:
        players = report.players
        if len(report.score.totals) != len(players):
            raise FuzzFailure(f"{len(report.score.totals)} totals for {len(players)} players")


def _clean(record: GameRecord) -> bool:
    return not any(d.is_error for d in record.diagnostics)


def _verdict(record: GameRecord, before: int | None = None) -> list[tuple[str, int | None]]:
    """The errors of a record, but for move numbers (the writer renumbers, by design), and
    only those of turns before ``before`` when given."""
    return [(d.code, d.turn) for d in validate_record(record).diagnostics
            if d.is_error and d.code != "move-number"
            and (before is None or d.turn is None or d.turn < before)]


def _first_wrong_number(record: GameRecord) -> int | None:
    """The turn of the record's first wrong move number, if any."""
    return min((d.turn for d in validate_record(record).diagnostics
                if d.is_error and d.code == "move-number" and d.turn is not None), default=None)


def _check_write_round_trip(record: GameRecord) -> None:
    """Canonical form is a fixpoint and keeps the game: write(read(write(r))) == write(r)."""
    first = lcn.write_game(record)
    again = list(lcn.read_games(first))
    if len(again) != 1:
        raise FuzzFailure(f"the canonical form of one game reads as {len(again)} games:\n{first}")
    reread = again[0]
    if not _clean(reread):
        problems = "; ".join(d.format() for d in reread.diagnostics if d.is_error)
        raise FuzzFailure(f"the canonical form does not read cleanly ({problems}):\n{first}")
    second = lcn.write_game(reread)
    if second != first:
        raise FuzzFailure(f"writing is not idempotent:\n--- first\n{first}--- second\n{second}")
    # The engines read a record's own move numbers as evidence of turns lost or swapped (and
    # follow the turns after a wrong number accordingly); the writer renumbers, so the
    # canonical form is held to the same verdict up to the first wrong number.
    wrong = _first_wrong_number(record)
    before = _verdict(record, wrong)
    after = _verdict(reread, wrong)
    if before != after:
        raise FuzzFailure(f"the canonical form changes the verdict: {before} became {after}")


def _check_json_round_trip(record: GameRecord) -> None:
    data = jsonform.to_json(record)
    text = json.dumps(data)
    back = jsonform.from_json(json.loads(text))
    if jsonform.to_json(back) != data:
        raise FuzzFailure("LCN → JSON → LCN changed the record")


def reader(data: bytes) -> None:
    """The reader on bytes and on text, every game validated, clean games round-tripped."""
    for source in (data, text_of(data), io.BytesIO(data)):
        run = lcn.ValidationRun(source, keep_snapshots=True, keep_running=True)
        for report in run:
            _check_report(report)
            record = report.record
            if _clean(record) and report.variant is not None:
                _check_write_round_trip(record)
                _check_json_round_trip(record)
        for d in run.file_diagnostics:
            d.format()
    for _tags, line in lcn.read_headers(data):
        if line < 1:
            raise FuzzFailure(f"a header at line {line}")
    try:
        for _ in lcn.read_games(data, strict=True):
            pass
    except lcn.LCNError as exc:
        if not exc.diagnostic.is_error:
            raise FuzzFailure(f"strict reading stopped on a warning: {exc}") from None


def engines(data: bytes) -> None:
    """Every registered variant validates the input's games as its own (Variant tag forced).

    The reader picks the engine from the Variant tag; forcing each engine on every input
    makes every input reach every engine, whatever its tags say.
    """
    records = list(lcn.read_games(data))
    for name in variant_names():
        variant = find_variant(name)
        assert variant is not None
        for record in records[:4]:
            report = validate_record(record, variant=variant, keep_snapshots=True, keep_running=True)
            _check_report(report)
            if report.state is not None:
                variant.render_text(report.state, report.players)
                variant.render_text(report.state, report.players, view=0)
                json.dumps(variant.snapshot(report.state))
        # Single turns straight into the engine, from its initial position.
        if records:
            state, _ = variant.setup(records[0])
            for turn in records[0].turns[:50]:
                try:
                    move = variant.parse_move(state, turn.text)
                except MoveSyntaxError as exc:
                    if not isinstance(exc.offset, int) or exc.offset < 0:
                        raise FuzzFailure(f"MoveSyntaxError with offset {exc.offset!r}") from None
                    continue
                variant.format_move(move)


def json_form(data: bytes) -> None:
    """The JSON form: JSONFormError for anything that is not a document of records."""
    text = text_of(data)
    try:
        records = jsonform.loads(text)
    except jsonform.JSONFormError as exc:
        str(exc)
        return
    for record in records[:8]:
        _check_json_round_trip(record)
        _check_report(validate_record(record))
        lcn.write_game(record)


def importers(data: bytes) -> None:
    """Detection never raises; every format either converts or raises ImportError_."""
    text = text_of(data)
    for name, confidence in detect(text):
        if not (0.0 <= confidence <= 1.0) or math.isnan(confidence):
            raise FuzzFailure(f"{name} detection gave {confidence}")
    # The registry forgives a faulty plugin's detection; the built-in ones must not need it.
    for name, _title in formats():
        confidence = get_importer(name).detect(text)
        if not isinstance(confidence, float | int) or not 0.0 <= confidence <= 1.0:
            raise FuzzFailure(f"{name} detection gave {confidence!r}")
    names = [None] + [name for name, _title in formats()]
    for fmt in names:
        try:
            result = import_text(data, fmt)
        except ImportError_ as exc:
            str(exc)
            for d in exc.diagnostics:
                d.format()
            continue
        json.dumps(result.to_json())
        if len(result.reports) != len(result.records):
            raise FuzzFailure(f"{len(result.records)} games but {len(result.reports)} reports")
        for out, _title in output_formats():
            export_records(result.records[:4], out)


#: Command lines run on each input (given on standard input), with the exit codes allowed.
CLI_COMMANDS: list[list[str]] = [
    ["validate", "-"], ["validate", "--format", "json", "-"], ["score", "-"],
    ["score", "--format", "json", "-"], ["fmt", "-"], ["fmt", "--check", "-"], ["show", "-"],
    ["show", "--turn", "3", "--view", "1", "-"], ["show", "--format", "json", "-"],
    ["deal", "-"], ["deal", "--keep", "2", "-"], ["convert", "-"], ["convert", "--to", "json", "-"],
    ["convert", "--to", "text", "-"], ["convert", "--to", "metapyziks", "-"],
]


def cli(data: bytes, commands: list[list[str]] | None = None) -> None:
    """The ``lcn`` command: exit 0, 1 or 2 with a message, never a traceback."""
    from click.testing import CliRunner
    from lcn_cli.main import cli as command

    runner = CliRunner()
    for args in commands if commands is not None else CLI_COMMANDS:
        result = runner.invoke(command, args, input=data, catch_exceptions=True)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            exc = result.exception
            raise FuzzFailure(f"lcn {' '.join(args)} raised {type(exc).__name__}: {exc}") from exc
        if result.exit_code not in (0, 1, 2):
            raise FuzzFailure(f"lcn {' '.join(args)} exited {result.exit_code}")
        if "Traceback" in result.output:
            raise FuzzFailure(f"lcn {' '.join(args)} printed a traceback:\n{result.output}")


def long_lines(data: bytes) -> None:
    """Every importer, detection, the reader and the highlighter on an input, whatever it holds.

    Meant for long runs, repeated tokens and every character class (``fuzz.long_inputs``):
    the watchdog turns work that grows faster than the input into a Hang.
    """
    importers(data)
    reader(data)
    from lcn.pygments_lexer import LCNLexer

    text = text_of(data)
    if "".join(value for _, _, value in LCNLexer().get_tokens_unprocessed(text)) != text:
        raise FuzzFailure("the highlighter's tokens do not give back the text")


def long_structured(data: bytes) -> None:
    """:func:`long_lines` on a long input built from the fuzzer's bytes (``from_bytes``)."""
    from .long_inputs import from_bytes

    long_lines(from_bytes(data))


#: The targets by name, for the harness's command line.
TARGETS: dict[str, Callable[[bytes], None]] = {
    "reader": reader,
    "engines": engines,
    "json": json_form,
    "importers": importers,
    "cli": cli,
    "long": long_structured,
}

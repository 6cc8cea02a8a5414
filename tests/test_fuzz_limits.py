"""Huge and deeply nested inputs: bounded memory, bounded work, and a clear error each time.

Memory is measured with tracemalloc on inputs streamed from a generator, so the input itself
is never in memory: what is measured is what the library keeps. The checks compare with the
documented limits (a line, a comment, a turn) or between a small and a ten times larger
input, never against a clock; the only time limit is the hang watchdog.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

import lcn
from lcn import jsonform, reader
from lcn.importers import ImportError_, import_text
from lcn.model import Turn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz import targets

TAGS = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n'
MB = 1 << 20


class Stream:
    """A binary stream whose lines are made on demand: gigabytes of input, none of it kept."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks
        self.buffer = b""

    def readline(self, limit: int = -1) -> bytes:
        while b"\n" not in self.buffer and (limit < 0 or len(self.buffer) < limit):
            chunk = next(self.chunks, b"")
            if not chunk:
                break
            self.buffer += chunk
        end = self.buffer.find(b"\n") + 1 or len(self.buffer)
        if limit >= 0:
            end = min(end, limit)
        line, self.buffer = self.buffer[:end], self.buffer[end:]
        return line

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            raise ValueError("this stream is only read in pieces")
        while len(self.buffer) < size:
            chunk = next(self.chunks, b"")
            if not chunk:
                break
            self.buffer += chunk
        piece, self.buffer = self.buffer[:size], self.buffer[size:]
        return piece


def peak_memory(work: Callable[[], object]) -> int:
    """Bytes allocated at the peak while ``work`` runs (beyond what was there before)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        with targets.watchdog():
            work()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def games(count: int) -> Iterator[bytes]:
    game = (TAGS + "1. R5/d B4/d 2. xG3/d Y2/d *\n\n").encode()
    for _ in range(count):
        yield game


def validate_stream(chunks: Iterator[bytes]) -> list[str]:
    """Validate a stream game by game, keeping only the error codes (as a streaming caller)."""
    codes: list[str] = []
    run = lcn.ValidationRun(Stream(chunks))  # type: ignore[arg-type]
    for report in run:
        codes.extend(d.code for d in report.diagnostics if d.is_error)
        del codes[100:]
    codes.extend(d.code for d in run.file_diagnostics)
    return codes


_STREAM_PEAK = """
import sys, tracemalloc
sys.path[:0] = [{tests!r}, {root!r}]
from test_fuzz_limits import games, validate_stream
validate_stream(games(50))
tracemalloc.start()
validate_stream(games({count}))
print(tracemalloc.get_traced_memory()[1])
"""


def stream_peak(count: int) -> int:
    """Peak memory of validating ``count`` streamed games, in a fresh interpreter (so what other
    tests left in this one, caches or a large heap, does not blur the figure)."""
    tests = Path(__file__).resolve().parent
    code = _STREAM_PEAK.format(tests=str(tests), root=str(tests.parent), count=count)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return int(result.stdout.split()[-1])


def test_reading_ten_times_more_games_does_not_take_ten_times_the_memory() -> None:
    small, large = stream_peak(300), stream_peak(3000)
    assert large < 2 * small + 256 * 1024, (small, large)


def test_a_line_of_fifty_megabytes_is_skipped_in_bounded_memory() -> None:
    def chunks() -> Iterator[bytes]:
        yield TAGS.encode()
        for _ in range(50):
            yield b"R5/d " * (MB // 5)
        yield b"\nB4/d *\n"

    codes: list[str] = []
    peak = peak_memory(lambda: codes.extend(validate_stream(chunks())))
    assert "line-too-long" in codes
    assert peak < 12 * reader.MAX_LINE, peak


def test_an_unclosed_comment_of_twenty_megabytes_is_kept_in_bounded_memory() -> None:
    def chunks() -> Iterator[bytes]:
        yield (TAGS + "R5/d {").encode()
        for _ in range(20 * 16):
            yield b"never closed " * (MB // 16 // 13) + b"\n"

    codes: list[str] = []
    peak = peak_memory(lambda: codes.extend(validate_stream(chunks())))
    assert "unterminated-comment" in codes
    assert peak < 8 * reader.MAX_COMMENT, peak


def test_a_game_of_too_many_turns_stops_at_the_turn_limit() -> None:
    def chunks() -> Iterator[bytes]:
        yield TAGS.encode()
        for _ in range(30):
            yield b"R5/d B4/d " * 2500 + b"\n"  # 150,000 turns
        yield b"*\n"

    codes: list[str] = []
    with targets.watchdog():
        record = next(lcn.read_games(Stream(chunks())))  # type: ignore[arg-type]
        codes.extend(d.code for d in lcn.validate_record(record).diagnostics)
    assert len(record.turns) == reader.MAX_TURNS
    assert "game-too-long" in codes
    assert "after-game-end" in codes


@pytest.mark.parametrize(("variant", "word"), [("rivals", "Ada1"), ("rollwrite", "Ada:B0")])
def test_a_turn_of_a_million_characters_is_cut_and_checked_in_linear_time(variant: str,
                                                                           word: str) -> None:
    """Found by fuzzing: each word copied the turn so far, and each problem searched all words."""
    start = "1. ROB004 " if variant == "rollwrite" else "1. "
    lines = "".join(f"{word} " * 20_000 + "\n" for _ in range(10))
    text = f'[Variant "{variant}"]\n' + TAGS + start + lines + "*\n"
    with targets.watchdog():
        report = next(lcn.validate(text))
    turn = report.record.turns[0]
    assert len(turn.text) < reader.MAX_TURN_TEXT
    codes = [d.code for d in report.diagnostics]
    assert codes.count("turn-too-long") == 1
    assert not report.valid


def test_carets_of_a_turn_of_many_words_land_on_each_word() -> None:
    turn = Turn("a bb ccc", line=3, column=5, parts=[(0, 3, 5), (2, 4, 1), (5, 4, 9)])
    assert turn.position_of(0) == (3, 5)
    assert turn.position_of(1) == (3, 6)
    assert turn.position_of(2) == (4, 1)
    assert turn.position_of(4) == (4, 3)
    assert turn.position_of(6) == (4, 10)
    assert Turn("R5/d", line=2, column=7).position_of(3) == (2, 10)


@pytest.mark.parametrize("opening", ["[", '{"games": ', '{"a": '])
def test_json_nested_twenty_thousand_deep_is_a_clear_error(opening: str) -> None:
    text = opening * 20_000
    with targets.watchdog():
        with pytest.raises(jsonform.JSONFormError, match=r"nested too deeply|not valid JSON"):
            jsonform.loads(text)
        with pytest.raises(ImportError_):
            import_text(text)
        for fmt in ("json", "openspiel", "metapyziks", "brdgme", "text", "lcn"):
            with contextlib.suppress(ImportError_):
                import_text(text, fmt)
    result = CliRunner().invoke(cli, ["convert", "-"], input=text)
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


def test_braces_and_brackets_by_the_thousand_are_read_as_lcn() -> None:
    text = TAGS + "{" * 20_000 + "\n" + "}" * 20_000 + "\n" + "[" * 20_000 + "\n*\n"
    targets.reader(text.encode())
    targets.cli(text.encode(), [["validate", "-"], ["fmt", "--check", "-"]])

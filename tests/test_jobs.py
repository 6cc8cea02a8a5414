"""Validation in several processes: the same reports, in the same order, as in one.

``lcn.parallel`` cuts a file between games; these tests cut it very finely, so that every
kind of place a cut could go wrong is met: comments over empty lines and tag-like lines,
games without a termination, Windows line endings, matches across parts, an empty file,
and a file with no place to cut at all.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

import lcn
from lcn.parallel import ParallelRun, SentReport
from lcn.variants.classic_play import random_game, strip_deal

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _summary(report: lcn.GameReport | SentReport) -> list[Any]:
    """What ``lcn validate`` and the checks that span games read of a report (all that a
    report of several processes keeps)."""
    record = report.record
    match = "Match" in record.tags
    return [report.index, report.to_json(), report.valid, report.complete, report.over, report.extra,
            report.players, report.variant.name if report.variant else None, report.totals,
            report.turn_count, [d.to_json() for d in report.diagnostics], record.line,
            record.variant_name, record.tags.items() if match else None,
            sorted(record.tags.lines.items()) if match else None]


def _same_as_one_process(data: bytes, part_size: int, jobs: int = 2) -> int:
    """Compare ``jobs`` processes with one on ``data``, given as bytes and as a file (read by
    range in every process), and with the parts all validated in the first process (one
    job); the number of games."""
    one = lcn.ValidationRun(data)
    expected = [_summary(r) for r in one]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.lcn"
        path.write_bytes(data)
        for source, count in ((data, jobs), (path, jobs), (data, 1)):
            several = ParallelRun(source, count, part_size=part_size)
            got = [_summary(r) for r in several]
            assert got == expected
            assert [d.to_json() for d in several.file_diagnostics] == [
                d.to_json() for d in one.file_diagnostics]
        # Counting plain games only (`lcn validate -q`): every game with something to say is
        # given out, the same; the rest are counted (a game whose only diagnostic is a
        # repeated Windows line ending warning is given out, with nothing left to say).
        counted = ParallelRun(path, jobs, part_size=part_size, report_plain=False)
        got = [_summary(r) for r in counted]
        assert [s for s in got if s[10] or s[13] is not None] == [
            s for s in expected if s[10] or s[13] is not None]
        assert all(s == expected[s[0] - 1] for s in got)
        assert counted.unreported == len(expected) - len(got)
        assert [d.to_json() for d in counted.file_diagnostics] == [
            d.to_json() for d in one.file_diagnostics]
    return len(expected)


def _games(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for index in range(count):
        record = random_game(seed * 1000 + index, expeditions=rng.choice([5, 6]))
        texts.append(lcn.write_game(record if rng.random() < 0.5 else strip_deal(record)))
    return texts


def _damaged(text: str, rng: random.Random) -> str:
    """A game with a problem a cut must not hide or invent."""
    pieces = ["{ a comment\n\n[Event \"inside the comment\"]\n}", "R5/d ", "\n\n[Event \"x\"]\n", "{",
              "}", "; note\n", "$999 ", "12. ", "\r\n", "\n", "xYw/d ", "*"]
    at = rng.randrange(len(text))
    return text[:at] + rng.choice(pieces) + text[at:]


@pytest.mark.parametrize("part_size", [40, 700, 5000])
def test_valid_games_cut_anywhere_give_the_same_reports(part_size: int) -> None:
    data = "\n".join(_games(24, 1)).encode()
    assert _same_as_one_process(data, part_size) == 24


@pytest.mark.parametrize("seed", range(6))
def test_damaged_games_cut_finely_give_the_same_reports(seed: int) -> None:
    rng = random.Random(seed)
    texts = [_damaged(t, rng) if rng.random() < 0.5 else t for t in _games(16, seed + 10)]
    data = "\n".join(texts).encode()
    if seed % 2:
        data = data.replace(b"\n", b"\r\n")
    _same_as_one_process(data, rng.choice([30, 200, 1500]), jobs=2 + seed % 2)


def test_the_samples_of_every_variant_give_the_same_reports() -> None:
    texts = [path.read_bytes() for path in sorted(SAMPLES.glob("*/*.lcn"))]
    assert texts
    _same_as_one_process(b"\n\n".join(texts), 300)


def test_a_match_split_across_parts_is_checked_as_one() -> None:
    text = (SAMPLES / "classic" / "match.lcn").read_text(encoding="utf-8")
    data = "\n".join([*_games(3, 5), text, text]).encode()
    count = _same_as_one_process(data, 50)
    reports = list(ParallelRun(data, 2, part_size=50))
    assert len(reports) == count
    assert any("match" in r.extra for r in reports)
    assert any(d.code.startswith("match") for r in reports for d in r.diagnostics)


def test_one_windows_line_ending_warning_per_file() -> None:
    data = "\n".join(_games(6, 2)).replace("\n", "\r\n").encode()
    reports = list(ParallelRun(data, 2, part_size=100))
    assert sum(d.code == "crlf" for r in reports for d in r.diagnostics) == 1
    _same_as_one_process(data, 100)


@pytest.mark.parametrize("data", [b"", b"\n\n\n", b"R5/d *\n", b"{ never closed\n\n[Event \"x\"]\n"])
def test_files_with_few_or_no_games(data: bytes) -> None:
    _same_as_one_process(data, 16)


@pytest.mark.parametrize("seed", range(3))
def test_bytes_that_are_not_utf8_and_a_byte_order_mark_give_the_same_reports(seed: int) -> None:
    # Every part is read by its own reader: a byte order mark counts only at the start of
    # the file, and a bad byte is reported where it is, whichever part holds it.
    rng = random.Random(seed)
    texts = [t.encode() for t in _games(12, 20 + seed)]
    for _ in range(4):
        at = rng.randrange(len(texts))
        cut = rng.randrange(len(texts[at]))
        bad = rng.choice([b"\xff", b"\xc3(", b"\x00", b"\xef\xbb\xbf"])
        texts[at] = texts[at][:cut] + bad + texts[at][cut:]
    _same_as_one_process(b"\xef\xbb\xbf" + b"\n".join(texts), rng.choice([60, 400, 2000]))


def test_a_file_with_nowhere_to_cut_is_read_on_in_one_process() -> None:
    # One game whose comment holds every empty line: no cut is possible, and the reader
    # goes on from the last good cut in this process, without reading it all into memory.
    head = "\n".join(_games(3, 3))
    comment = "{" + "\n\n[Event \"not a game\"]\n" * 200 + "}"
    tail = "\n".join(_games(3, 4))
    data = f"{head}\n\n{comment}\n\n{tail}".encode()
    _same_as_one_process(data, 64)


def test_a_comment_left_open_over_many_games_is_read_on_in_one_process() -> None:
    # Every part ends inside the comment, so none can be cut: after a few joined parts the
    # rest is read here, streaming, instead of joining (and validating again) ever more.
    data = ("{ never closed\n\n" + "\n".join(_games(30, 12))).encode()
    assert _same_as_one_process(data, 200) == 1
    data = ("\n".join(_games(5, 13)) + "\n\n{ never closed\n\n" + "\n".join(_games(30, 14))).encode()
    assert _same_as_one_process(data, 200) == 5  # the comment closes the fifth game


def test_reports_keep_what_is_printed_and_leave_the_rest() -> None:
    data = "\n".join(_games(40, 6)).encode()
    one = list(lcn.ValidationRun(data))
    several = list(ParallelRun(data, 2, part_size=200))
    assert len(several) == len(one) == 40
    for report in several:
        assert isinstance(report, SentReport)
        whole = one[report.index - 1]
        assert report.turn_count == len(whole.record.turns) > 0
        assert report.totals == whole.totals is not None
        assert not hasattr(report, "state") and not hasattr(report, "score")
        assert not hasattr(report.record, "turns")


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["validate", *args])
    return result.exit_code, result.stdout


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_lcn_validate_jobs_prints_the_same_as_one_job(tmp_path: Path, fmt: str) -> None:
    rng = random.Random(9)
    good = tmp_path / "good.lcn"
    good.write_text("\n".join(_games(60, 7)), encoding="utf-8")
    bad = tmp_path / "bad.lcn"
    bad.write_text("\n".join(_damaged(t, rng) for t in _games(30, 8)), encoding="utf-8")
    for path, status in ((good, 0), (bad, 1)):
        one = _cli("--format", fmt, str(path))
        assert one[0] == status
        assert _cli("--format", fmt, "--jobs", "2", str(path)) == one
        assert _cli("--format", fmt, "-q", "-j", "3", str(path)) == _cli("--format", fmt, "-q", str(path))
    both = _cli("--format", fmt, "-j", "2", str(good), str(bad))
    assert both == _cli("--format", fmt, str(good), str(bad))
    if fmt == "json":
        assert json.loads(both[1])["summary"]["games"] >= 90  # a damage may start a game


def test_lcn_validate_jobs_reads_standard_input_and_refuses_below_zero(tmp_path: Path) -> None:
    text = "\n".join(_games(10, 11))
    one = CliRunner().invoke(cli, ["validate", "-"], input=text)
    several = CliRunner().invoke(cli, ["validate", "-j", "2", "-"], input=text)
    assert (several.exit_code, several.stdout) == (one.exit_code, one.stdout) == (0, one.stdout)
    per_core = CliRunner().invoke(cli, ["validate", "-j", "0", "-"], input=text)
    assert (per_core.exit_code, per_core.stdout) == (0, one.stdout)
    refused = CliRunner().invoke(cli, ["validate", "-j", "-1", "-"], input=text)
    assert refused.exit_code == 2
    assert "--jobs" in refused.stderr
    missing = CliRunner().invoke(cli, ["validate", "-j", "2", str(tmp_path / "none.lcn")])
    assert missing.exit_code == 2


def test_a_worker_killed_midway_leaves_its_parts_to_this_process(tmp_path: Path) -> None:
    # A worker killed (out of memory, by hand) loses the part it held: the run must not wait
    # for it for ever, and must still give every report.
    import multiprocessing
    import os
    import signal

    def stuck(signum: int, frame: Any) -> None:
        raise TimeoutError("the run waited for a worker that is gone")

    path = tmp_path / "games.lcn"
    path.write_text("\n".join(_games(60, 5)), encoding="utf-8")
    expected = [_summary(r) for r in lcn.ValidationRun(path.read_bytes())]
    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(60)
    try:
        got = []
        for report in ParallelRun(path, 3, part_size=1500):
            if not got:
                for child in multiprocessing.active_children():
                    os.kill(child.pid, signal.SIGKILL)  # type: ignore[arg-type]
            got.append(_summary(report))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert got == expected

"""The importer registry: format list, detection, clear errors, plugins, placed diagnostics."""

from __future__ import annotations

import functools
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lcn.importers as importers
from lcn.diagnostics import Severity
from lcn.importers import (
    Conversion,
    DetectionError,
    Importer,
    ImportError_,
    UnknownFormatError,
    export_records,
    formats,
    import_text,
    output_formats,
)
from lcn.model import GameRecord, Tags, Turn
from lcn.variants.classic_play import random_game

DATA = Path(__file__).resolve().parent / "data" / "imports"


def test_the_built_in_formats_are_listed_with_titles() -> None:
    names = [name for name, _ in formats()]
    assert names[:6] == ["lcn", "json", "openspiel", "metapyziks", "brdgme", "text"]
    assert all(title for _, title in formats())
    assert [name for name, _ in output_formats()][:4] == ["lcn", "json", "metapyziks", "text"]


def test_each_written_format_is_detected_again() -> None:
    games = [random_game(21), random_game(22)]
    for fmt, _ in output_formats():
        text = export_records(games, fmt).text
        result = import_text(text)
        assert result.format == fmt
        assert len(result.records) == 2
        assert result.valid, [d.format() for d in result.diagnostics]


def test_detection_failure_lists_every_format_tried() -> None:
    with pytest.raises(DetectionError) as caught:
        import_text("Dear diary, today we played a card game.\nIt was fun.\n")
    message = str(caught.value)
    for name, _ in formats():
        assert name in message
    assert isinstance(caught.value, ImportError_) and isinstance(caught.value, ValueError)
    assert [name for name, _ in caught.value.tried] == sorted(
        [name for name, _ in formats()], key=lambda n: -dict(caught.value.tried)[n])


def test_empty_input_is_a_clear_error() -> None:
    with pytest.raises(DetectionError, match="empty"):
        import_text(b"  \n\n")


@pytest.mark.parametrize("name", ["coolrl-toy.json", "bga-envelope.json"])
def test_real_logs_of_other_formats_are_refused_clearly(name: str) -> None:
    """Saved research examples: JSON, but neither holds an LCN-convertible game."""
    data = (DATA / name).read_bytes()
    with pytest.raises(DetectionError) as caught:
        import_text(data)
    assert "tried" in str(caught.value)
    with pytest.raises(ImportError_) as forced:
        import_text(data, "json")
    assert forced.value.diagnostics and all(d.is_error for d in forced.value.diagnostics)
    assert "Unknown field" in str(forced.value) or "Missing data" in str(forced.value)


def test_unknown_format_names_are_refused_with_the_list() -> None:
    with pytest.raises(UnknownFormatError, match="lcn, json, openspiel"):
        import_text("x", "bga")
    with pytest.raises(UnknownFormatError, match="output formats are lcn, json, metapyziks, text"):
        export_records([], "openspiel")


def test_bytes_are_utf8_with_or_without_a_byte_order_mark() -> None:
    text = "[Player1 \"Zoë\"]\n[Player2 \"Bo\"]\n\nR5/d *\n"
    assert import_text(b"\xef\xbb\xbf" + text.encode()).records[0].tags["Player1"] == "Zoë"
    assert import_text(text.replace("\n", "\r\n").encode()).records[0].tags["Player1"] == "Zoë"
    with pytest.raises(ImportError_) as caught:
        import_text(b"Ada plays the red 7\nBo pl\xe4ys\n")
    (problem,) = caught.value.diagnostics
    assert (problem.line, problem.column) == (2, 6)
    assert "UTF-8" in problem.message


def test_rule_problems_point_at_the_source_line() -> None:
    log = ("Ada plays the red 7\n"
           "Ada draws from the draw pile\n"
           "Bo plays the red 5\n"
           "Bo draws from the draw pile\n"
           "Ada plays the red 6\n"
           "Ada takes from the blue discard pile\n")
    result = import_text(log)
    assert not result.valid
    placed = {(d.code, d.line, d.extra["game"]) for d in result.diagnostics if d.is_error}
    assert ("not-ascending", 5, 1) in placed
    assert ("draw-empty-pile", 6, 1) in placed
    report = result.reports[0]
    assert {d.line for d in report.diagnostics if d.is_error} == {5, 6}
    data = result.to_json()
    assert data["format"] == "text" and data["valid"] is False
    assert {d["game"] for d in data["diagnostics"]} == {1}


def test_lcn_input_keeps_its_own_lines() -> None:
    result = import_text('[Player1 "A"]\n[Player2 "B"]\n\n1. R5/d R4/d 2. R4/d *\n')
    problems = [d for d in result.diagnostics if d.is_error]
    assert {d.code for d in problems} == {"card-elsewhere", "not-ascending"}
    assert {(d.line, d.column, d.turn) for d in problems} == {(4, 17, 3)}


class _Tally(Importer):
    """A third-party format: one game per line of `tally:` marks (a test double)."""

    name = "tally"
    title = "Tally marks"

    def detect(self, text: str) -> float:
        return 1.0 if text.startswith("tally:") else 0.0

    def read(self, text: str) -> Conversion:
        record = GameRecord(tags=Tags({"Player1": "A", "Player2": "B"}), turns=[Turn("R5/d")],
                            termination="*")
        return Conversion([record])


class _EntryPoint:
    def __init__(self, name: str, value: Any) -> None:
        self.name, self.value, self._value = name, f"tests:{name}", value

    def load(self) -> Any:
        if isinstance(self._value, Exception):
            raise self._value
        return self._value


def test_third_party_formats_register_through_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    def entry_points(group: str) -> list[_EntryPoint]:
        assert group == "lcn.importers"
        return [_EntryPoint("tally", _Tally), _EntryPoint("broken", ImportError("no module"))]

    monkeypatch.setattr(importers, "_REGISTRY", {})
    monkeypatch.setattr(importers, "_LOADED", False)
    monkeypatch.setattr(metadata, "entry_points", entry_points)
    with pytest.warns(RuntimeWarning, match="'broken' cannot be loaded"):
        names = [name for name, _ in formats()]
    assert names[-1] == "tally" and "broken" not in names
    result = import_text("tally: ||")
    assert result.format == "tally" and result.records[0].turns[0].text == "R5/d"
    with pytest.raises(ValueError, match="taken by a built-in"):
        importers.register_importer(type("Fake", (_Tally,), {"name": "lcn"})())


def test_two_formats_equally_sure_is_an_ambiguity(monkeypatch: pytest.MonkeyPatch) -> None:
    twin = type("Twin", (_Tally,), {"name": "tally2", "title": "Twin"})()
    monkeypatch.setattr(importers, "_REGISTRY", {})
    monkeypatch.setattr(importers, "_LOADED", False)
    monkeypatch.setattr(metadata, "entry_points", lambda group: [_EntryPoint("t", _Tally()),
                                                                 _EntryPoint("t2", twin)])
    with pytest.raises(DetectionError, match="could be tally or tally2"):
        import_text("tally: |")


def test_export_failures_are_per_game() -> None:
    stripped = GameRecord(tags=Tags({"Player1": "A", "Player2": "B"}), turns=[Turn("R5/d")],
                          termination="*")
    result = export_records([random_game(3), stripped], "metapyziks")
    assert len(result.text.splitlines()) == 1
    (problem,) = result.diagnostics
    assert problem.severity is Severity.ERROR and problem.extra["game"] == 2
    assert "needs the whole deal" in problem.message and not result.complete


@functools.cache
def _inputs() -> dict[str, str]:
    games = [random_game(41), random_game(42, expeditions=6)]
    return {fmt: export_records(games, fmt).text for fmt, _ in output_formats()}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_input_never_raises_anything_but_a_clear_error(data: st.DataObject) -> None:
    inputs = _inputs()
    fmt = data.draw(st.sampled_from(sorted(inputs)))
    text = inputs[fmt]
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        at = data.draw(st.integers(min_value=0, max_value=len(text) - 1))
        cut = data.draw(st.integers(min_value=0, max_value=40))
        insert = data.draw(st.sampled_from(["", "{", "}", "[", "\n", ";", "R10", "plays", "draws",
                                            "Round 2", "Deal:bx0", "\u00e4", "==", "-", "9"]))
        text = text[:at] + insert + text[at + cut:]
    forced = data.draw(st.sampled_from([None, fmt, "text", "brdgme", "openspiel"]))
    try:
        result = import_text(text, forced)
    except ImportError_ as exc:
        assert str(exc)
        for problem in exc.diagnostics:
            assert problem.message and (problem.line is None or problem.line >= 1)
        return
    for problem in result.diagnostics:
        assert problem.message and (problem.line is None or problem.line >= 1)


def test_concurrent_first_uses_all_see_every_format() -> None:
    """A server's first requests come from several threads at once; none may see a half-filled
    registry (it used to answer "not in any format known here (tried )")."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import importlib, threading, time
        real = importlib.import_module
        def slow(name, *args, **kwargs):
            if name.startswith("lcn.importers."):
                time.sleep(0.05)  # widen the window in which the registry is being filled
            return real(name, *args, **kwargs)
        importlib.import_module = slow
        import lcn.importers as registry
        seen = []
        def use():
            seen.append(len(registry.formats()))
        threads = [threading.Thread(target=use) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(sorted(set(seen)), len(registry.BUILTIN))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    counts, builtin = out[:-1], int(out[-1])
    assert len(counts) == 1 and int(counts[0].strip("[],")) >= builtin, out


def test_an_input_no_format_recognises_is_placed_at_its_first_line() -> None:
    with pytest.raises(DetectionError) as caught:
        import_text("\n\n   Dear diary, we played cards.\n")
    (problem,) = caught.value.diagnostics
    assert (problem.line, problem.column) == (3, 4) and "not in any format" in problem.message


def test_a_damaged_input_gets_the_errors_of_the_most_likely_format() -> None:
    """Action strings with a line of garbage every other line: OpenSpiel is unsure (below the
    threshold) but the likeliest, so its errors come, placed, with a note on the others."""
    strings = ["Deal:bx0", "Deal:g5", "Deal:b3", "Deal:g6", "Deal:b4", "Deal:g7"]
    text = "\n".join(f"{s}\noops" for s in strings)
    with pytest.raises(DetectionError) as caught:
        import_text(text)
    error = caught.value
    assert error.format == "openspiel" and error.tried[0][0] == "openspiel"
    problems = [d for d in error.diagnostics if d.is_error]
    assert problems and all(d.line and d.column for d in problems)
    assert any(d.line == 2 and "`oops` is not an action string" in d.message for d in problems)
    (detection,) = [d for d in error.diagnostics if d.code == "detection"]
    assert "openspiel, the most likely format" in detection.message and "metapyziks" in detection.message

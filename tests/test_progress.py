"""The progress line of ``lcn validate``: only on a terminal, and erased before other output."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from lcn_cli import progress
from lcn_cli.main import cli
from lcn_cli.progress import Progress, TrackedRun

import lcn
from lcn.variants.classic_play import random_game


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.lcn"
    path.write_text("\n".join(lcn.write_game(random_game(seed)) for seed in range(40)), encoding="utf-8")
    return path


def test_no_progress_line_when_standard_error_is_not_a_terminal(games: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    for args in (["-q"], [], ["-j", "2"], ["--format", "json"]):
        result = CliRunner().invoke(cli, ["validate", *args, str(games)])
        assert result.exit_code == 0
        assert result.stderr == ""
        assert "\r" not in result.stdout


def test_the_line_is_drawn_on_a_terminal_and_erased(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    terminal = Terminal()
    bar = Progress("big.lcn", 2_000_000, stream=terminal)
    bar.update(500_000, 120)
    drawn = terminal.getvalue()
    assert drawn.startswith("\rbig.lcn: [")
    assert "25%" in drawn and "120 games" in drawn and "2 MB" in drawn
    bar.clear()
    assert terminal.getvalue().endswith("\r\x1b[K")
    bar.clear()  # nothing shown: nothing to erase
    assert terminal.getvalue().count("\r\x1b[K") == 1


def test_short_inputs_never_show_it_and_no_progress_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = Terminal()
    Progress("a.lcn", 100, stream=terminal).update(100, 1)  # before the delay
    assert terminal.getvalue() == ""
    monkeypatch.setattr(progress, "DELAY", 0.0)
    off = Progress("a.lcn", 100, stream=terminal, enabled=False)
    off.update(50, 1)
    off.clear()
    assert terminal.getvalue() == ""


def test_standard_input_shows_megabytes_without_a_percentage() -> None:
    line = Progress("<stdin>", None, stream=Terminal()).line(3_000_000, 7, 1.5)
    assert "%" not in line and "3 MB" in line and "7 games" in line and "MB/s" in line


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_position_reaches_the_end_of_the_input(games: Path, jobs: int) -> None:
    run = TrackedRun(games, jobs)
    positions = []
    for _report in run:
        positions.append(run.position)
    assert positions == sorted(positions)
    assert 0 < positions[-1] <= run.size == games.stat().st_size
    assert run.file_diagnostics == []


@pytest.mark.parametrize("jobs", [1, 2])
def test_games_counted_and_not_given_out_still_move_the_progress(tmp_path: Path, jobs: int) -> None:
    # `lcn validate -q` lets valid games be counted where they are validated; the progress
    # line must go on moving over a long run of them.
    path = tmp_path / "many.lcn"
    path.write_text("\n".join(lcn.write_game(random_game(seed)) for seed in range(300)), encoding="utf-8")
    run = TrackedRun(path, jobs, only_problems=True)
    if run._parallel is not None:
        run._parallel.part_size = 4096  # several parts, so several runs of counted games
    ticks: list[int] = []
    run.on_counted = ticks.append
    assert list(run) == []
    assert run.unreported == 300
    assert len(ticks) >= 4 and ticks == sorted(ticks) and ticks[-1] <= 300

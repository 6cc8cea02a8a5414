"""The ``lcn`` command: validate, score, fmt and show, their exit statuses, standard input,
compiler-style diagnostics with carets, and the fixed JSON shapes of ``docs/spec.md`` §11."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from lcn_cli.main import cli

import lcn

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "samples" / "classic"
SAMPLES = sorted(str(p) for p in CLASSIC.glob("*.lcn"))

VALID = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. R7/B B4/d *\n'
INVALID = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d 2. R7/d B4/G\n3. R4/d *\n'
UNREADABLE = '[Player1 "Ada"\n[Player2 "Bo"]\n\n1. R5/d *\n'


def run(*args: str, input: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "valid.lcn").write_text(VALID, encoding="utf-8")
    (tmp_path / "invalid.lcn").write_text(INVALID, encoding="utf-8")
    (tmp_path / "unreadable.lcn").write_text(UNREADABLE, encoding="utf-8")
    return tmp_path


# -- validate --------------------------------------------------------------------------------
def test_validate_the_samples() -> None:
    result = run("validate", *SAMPLES)
    assert result.exit_code == 0, result.output
    assert f"{sum(len(list(lcn.read_games(Path(s)))) for s in SAMPLES)} games:" in result.output


def test_validate_exit_statuses(folder: Path) -> None:
    assert run("validate", str(folder / "valid.lcn")).exit_code == 0
    assert run("validate", str(folder / "valid.lcn"), str(folder / "invalid.lcn")).exit_code == 1
    missing = run("validate", str(folder / "valid.lcn"), str(folder / "nope.lcn"))
    assert missing.exit_code == 2 and "cannot read" in missing.stderr
    assert run("validate", str(folder)).exit_code == 1  # a directory: its .lcn files
    assert run("validate").exit_code == 2  # no file
    assert run("validate", "--format", "xml", str(folder / "valid.lcn")).exit_code == 2


def test_validate_prints_compiler_style_diagnostics(folder: Path) -> None:
    name = str(folder / "invalid.lcn")
    result = run("validate", name)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    head = (f"{name}:4:25: error[draw-empty-pile] Bo cannot draw from the green discard pile: it is "
            "empty [turn 4] (C-DRAW-PILE)")
    at = lines.index(head)
    assert lines[at + 1] == "    4 | 1. R5/d xB2/d 2. R7/d B4/G"
    assert lines[at + 2] == "      | " + " " * 24 + "^^"
    head = (f"{name}:5:4: error[not-ascending] R4 cannot follow R7 in Ada's red expedition: each "
            "card must be higher than the one before [turn 5] (C-PLACE-ASCENDING)")
    at = lines.index(head)
    assert lines[at + 1:at + 3] == ["    5 | 3. R4/d *", "      |    ^^"]
    assert lines[-1] == f"{name}: game 1 (classic: Ada vs Bo, line 1): 2 errors"


def test_validate_reads_standard_input() -> None:
    result = run("validate", "-", input=INVALID.encode())
    assert result.exit_code == 1
    assert "<stdin>:4:25: error[draw-empty-pile]" in result.output
    assert run("validate", "-", input=VALID).exit_code == 0


def test_validate_quiet_and_without_warnings() -> None:
    text = '[Player1 "Ada"]\n1. R5/d *\n'
    loud = run("validate", "-", input=text)
    assert loud.exit_code == 0 and "warning[missing-blank-line]" in loud.output
    quiet = run("validate", "--no-warnings", "-q", "-", input=text)
    assert quiet.exit_code == 0 and "warning" not in quiet.output
    assert quiet.output.strip() == "1 game: 1 valid, 0 invalid"


def test_validate_json_has_the_fixed_shape(folder: Path) -> None:
    result = run("validate", "--format", "json", str(folder / "invalid.lcn"), str(folder / "valid.lcn"))
    assert result.exit_code == 1
    data = json.loads(result.output)
    games = data["games"]
    assert [(g["index"], g["valid"]) for g in games] == [(1, False), (1, True)]
    first = games[0]
    assert first["diagnostics"] == [
        {"code": "draw-empty-pile", "severity": "error",
         "message": "Bo cannot draw from the green discard pile: it is empty", "line": 4,
         "column": 25, "turn": 4, "rule": "C-DRAW-PILE", "length": 2},
        {"code": "not-ascending", "severity": "error",
         "message": "R4 cannot follow R7 in Ada's red expedition: each card must be higher than "
                    "the one before", "line": 5, "column": 4, "turn": 5, "rule": "C-PLACE-ASCENDING",
         "length": 2}]
    assert games[1]["diagnostics"] == []
    assert first["file"].endswith("invalid.lcn") and first["players"] == ["Ada", "Bo"]
    assert data["summary"] == {"games": 2, "valid": 1, "invalid": 1}


def test_validate_json_turn_is_null_when_not_about_a_turn() -> None:
    text = VALID.replace("Bo\"]\n", "Bo\"]\n[Expeditions \"9\"]\n").replace("*", "10:0")
    data = json.loads(run("validate", "--format", "json", "-", input=text).output)
    diagnostics = data["games"][0]["diagnostics"]
    assert {d["code"] for d in diagnostics} == {"tag-value", "game-unfinished"}
    assert all(d["turn"] is None for d in diagnostics)
    assert [d["line"] for d in diagnostics if d["code"] == "tag-value"] == [3]


@pytest.mark.parametrize("inputs", [["-"], ["valid.lcn"], ["invalid.lcn", "valid.lcn"],
                                    ["valid.lcn", "-", "invalid.lcn"]])
def test_validate_json_is_written_as_it_goes_in_the_one_canonical_layout(
        folder: Path, inputs: list[str]) -> None:
    # Written a game at a time, the text is what json.dumps(indent=2) gives for the whole.
    args = [name if name == "-" else str(folder / name) for name in inputs]
    result = run("validate", "--format", "json", *args, input=b"" if "-" in inputs else None)
    data = json.loads(result.output)
    assert result.output == json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    assert len(data["games"]) == sum(name != "-" for name in inputs)


def test_validate_json_of_an_empty_file() -> None:
    result = run("validate", "--format", "json", "-", input=b"")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["games"] == []
    assert [d["code"] for d in data["files"][0]["diagnostics"]] == ["empty-file"]


# -- score -----------------------------------------------------------------------------------
def test_score_the_match() -> None:
    result = run("score", str(CLASSIC / "match.lcn"))
    assert result.exit_code == 0
    assert 'match "Hana vs Ivo" after game 3: Hana 80, Ivo 82' in result.output


def test_score_json_has_the_fixed_shape() -> None:
    result = run("score", "--format", "json", str(CLASSIC / "rulebook-scoring.lcn"),
                 str(CLASSIC / "match.lcn"))
    assert result.exit_code == 0
    games = json.loads(result.output)["games"]
    assert [g["index"] for g in games] == [1, 1, 2, 3]
    first = games[0]
    assert first["players"] == ["Ada", "Bo"] and first["scores"] == [18, 67]
    assert first["expeditions"][0] == {"Y": 3, "B": 0, "W": -40, "G": -10, "R": 65}
    for game in games:
        assert all(isinstance(s, int) for s in game["scores"])
        assert [sum(e.values()) for e in game["expeditions"]] == game["scores"]
    assert games[-1]["match"] == {"name": "Hana vs Ivo", "game": 3, "totals": {"Hana": 80, "Ivo": 82}}


def test_score_of_an_invalid_or_missing_file(folder: Path) -> None:
    assert run("score", str(folder / "invalid.lcn")).exit_code == 1
    assert run("score", str(folder / "nope.lcn")).exit_code == 2
    result = run("score", "-", input=VALID)
    assert result.exit_code == 0 and "game not over" in result.output


# -- fmt -------------------------------------------------------------------------------------
def test_fmt_check_the_samples() -> None:
    assert run("fmt", "--check", *SAMPLES).exit_code == 0


def test_fmt_prints_the_canonical_form() -> None:
    result = run("fmt", "-", input="[Player1 \"Ada\"]\n[Player2 \"Bo\"]\n\nr5/D   xb2/d *\n")
    assert result.exit_code == 0
    assert result.output == '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d *\n'


def test_fmt_check_and_write(folder: Path) -> None:
    messy = folder / "messy.lcn"
    messy.write_text("[Player1 \"Ada\"]\r\n[Player2 \"Bo\"]\r\n\r\nr5/D   xb2/d *\r\n", encoding="utf-8")
    os.chmod(messy, 0o640)
    result = run("fmt", "--check", str(messy), str(folder / "valid.lcn"))
    assert result.exit_code == 1 and f"{messy}: not in canonical form" in result.stderr
    assert run("fmt", "--check", str(folder / "valid.lcn")).exit_code == 0
    result = run("fmt", "--write", str(messy))
    assert result.exit_code == 0
    assert messy.read_bytes() == b'[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d *\n'
    assert stat.S_IMODE(messy.stat().st_mode) == 0o640
    assert sorted(p.name for p in folder.iterdir()) == ["invalid.lcn", "messy.lcn", "unreadable.lcn",
                                                         "valid.lcn"]
    assert run("fmt", "--check", str(messy)).exit_code == 0
    before = messy.stat().st_mtime_ns
    assert run("fmt", "--write", str(messy)).exit_code == 0
    assert messy.stat().st_mtime_ns == before  # already canonical: not rewritten


def test_fmt_never_rewrites_a_file_it_cannot_read(folder: Path) -> None:
    path = folder / "unreadable.lcn"
    result = run("fmt", "--write", str(path))
    assert result.exit_code == 1
    assert "error[tag-syntax]" in result.stderr and "not formatted" in result.stderr
    assert path.read_text(encoding="utf-8") == UNREADABLE
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
    # Nothing reaches standard output either, even when the error comes after good games.
    shown = run("fmt", "-", input=VALID + "\n" + UNREADABLE)
    assert shown.exit_code == 1 and shown.stdout == ""


def test_fmt_many_games(tmp_path: Path) -> None:
    match = (CLASSIC / "match.lcn").read_text(encoding="utf-8")
    messy = tmp_path / "match.lcn"
    messy.write_text(match.replace("/d ", "/D ").replace("\n\n[Event", "\n\n\n[Event"),
                     encoding="utf-8")
    assert run("fmt", "--check", str(messy)).exit_code == 1
    assert run("fmt", str(messy)).output == match
    assert run("fmt", "--write", str(messy)).exit_code == 0
    assert messy.read_text(encoding="utf-8") == match
    # A trailing blank line is not canonical either.
    messy.write_text(match + "\n", encoding="utf-8")
    assert run("fmt", "--check", str(messy)).exit_code == 1


def test_fmt_usage_errors(folder: Path) -> None:
    assert run("fmt", "--check", "--write", str(folder / "valid.lcn")).exit_code == 2
    assert run("fmt", str(folder / "nope.lcn")).exit_code == 2


# -- show ------------------------------------------------------------------------------------
def test_show_a_turn() -> None:
    result = run("show", str(CLASSIC / "rulebook-scoring.lcn"), "--turn", "2")
    assert result.exit_code == 0
    assert result.output.startswith("After turn 2: Ada to move; draw pile: 42 cards\n")
    # Ada placed Gw and drew R3 (the Deck's top card); Bo placed Ww and drew Rw.
    assert "\nAda:  hand Y6 B3 B9 Ww Rw Rw R2 R3\n" in result.output
    assert "\nBo:   hand Yw W5 W7 W8 W9 G3 G10 Rw\n" in result.output


def test_show_json_follows_the_turns() -> None:
    path = str(CLASSIC / "full-deal.lcn")
    game = lcn.read_game(Path(path))
    report = lcn.validate_record(game, keep_snapshots=True)
    for turn in (0, 1, 17, len(game.turns)):
        result = run("show", path, "--turn", str(turn), "--format", "json")
        assert result.exit_code == 0
        data = json.loads(result.output)
        expected = report.snapshots[turn]
        assert data["turn"] == turn
        assert data["expeditions"] == expected["expeditions"]
        assert data["hands"] == expected["hands"] and data["scores"] == expected["scores"]
        assert data["errors"] == []


def test_show_hides_other_hands_and_checks_its_arguments() -> None:
    path = str(CLASSIC / "full-deal.lcn")
    shown = run("show", path, "--turn", "4", "--view", "1")
    assert shown.exit_code == 0 and "8 cards, hidden" in shown.output
    assert run("show", path, "--turn", "999").exit_code == 2
    assert run("show", path, "--game", "2").exit_code == 2
    assert run("show", str(CLASSIC / "nope.lcn")).exit_code == 2


def test_show_an_invalid_game_notes_its_errors(folder: Path) -> None:
    result = run("show", str(folder / "invalid.lcn"))
    assert result.exit_code == 1
    assert "note: " in result.output and "error[not-ascending]" in result.output


# -- the installed command -------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("lcn") is None, reason="the lcn command is not installed")
def test_the_installed_command_with_standard_input() -> None:
    process = subprocess.run(["lcn", "validate", "-"], input=INVALID.encode(), capture_output=True,
                             timeout=60, check=False)
    assert process.returncode == 1
    assert b"<stdin>:5:4: error[not-ascending]" in process.stdout
    assert b"Traceback" not in process.stderr
    module = subprocess.run([sys.executable, "-m", "lcn_cli.main", "score", "-"], input=VALID.encode(),
                            capture_output=True, timeout=60, check=False)
    assert module.returncode == 0 and b"Ada" in module.stdout


def test_source_lines_for_a_whole_run_agree_with_a_fresh_read(tmp_path: Path) -> None:
    from lcn_cli.io import SourceLines, source_lines

    path = tmp_path / "lines.lcn"
    path.write_bytes(b"".join(f"line {n} ".encode() * (n % 7 * 400 + 1) + b"\n" for n in range(1, 301)))
    for source in (path, path.read_bytes()):
        lines = SourceLines(source)
        # In order, with a line shared by two requests, then a line far back.
        for wanted in ([1, 3], [3, 4, 40], [40, 41], [100], [299, 300, 301], [2, 250]):
            assert lines.get(wanted) == source_lines(source, wanted), wanted
        lines.close()
    assert all(len(text) <= 2000 for text in source_lines(path, range(1, 301)).values())


def test_validate_many_invalid_games_shows_each_source_line(tmp_path: Path) -> None:
    path = tmp_path / "many.lcn"
    games = [INVALID.replace("Ada", f"Ada{n}") for n in range(50)]
    path.write_text("\n".join(games), encoding="utf-8")
    result = run("validate", "-q", str(path))
    assert result.exit_code == 1
    lines = path.read_text(encoding="utf-8").splitlines()
    shown = [line for line in result.output.splitlines() if line[5:8] == " | " and line[:5].strip()]
    assert len(shown) == 100
    for line in shown:
        assert lines[int(line[:5]) - 1] == line[8:]


def test_show_notes_what_the_reader_could_not_read() -> None:
    text = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d xB2/d {never closed\n2. R7/d B4/d *\n'
    result = run("show", "-", input=text)
    assert result.exit_code == 1
    assert "note: <stdin>:4:15: error[unterminated-comment]" in result.output
    fine = run("show", "-", "--turn", "1", input=VALID + "\n" + UNREADABLE)
    assert fine.exit_code == 0 and "note:" not in fine.output
    assert run("show", "-", "--view", "3", input=VALID).exit_code == 2


@pytest.mark.skipif(shutil.which("lcn") is None, reason="the lcn command is not installed")
def test_every_command_of_the_readme_works(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## The command line", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]
    assert len(commands) >= 8 and any("match.lcn" in c for c in commands)
    (tmp_path / "samples").symlink_to(ROOT / "samples", target_is_directory=True)
    shutil.copy(CLASSIC / "full-deal.lcn", tmp_path / "game.lcn")
    (tmp_path / "games.lcn.gz").write_bytes(gzip.compress((CLASSIC / "match.lcn").read_bytes()))
    shutil.copy(ROOT / "tests" / "data" / "imports" / "narrated-en.txt", tmp_path / "log.txt")
    for command in commands:
        process = subprocess.run(command, shell=True, cwd=tmp_path, capture_output=True, timeout=120,
                                 check=False)
        assert process.returncode == 0, (command, process.stderr)
        assert b"Traceback" not in process.stderr


def test_the_readme_library_example_runs(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = readme.split("## The library", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    shutil.copy(CLASSIC / "match.lcn", tmp_path / "games.lcn")
    process = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                             text=True, timeout=120, check=False)
    assert process.returncode == 0, process.stderr
    assert process.stdout.splitlines()[:3] == ["1 True [13, 42]", "2 True [32, 24]", "3 True [8, 43]"]
    assert "1. R5/d xB2/d *" in process.stdout


@pytest.mark.parametrize("content", [b"", b"\n\n", b"\x00" * (2 * 1024 * 1024)])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_score_of_a_file_without_a_game_says_so_and_fails(tmp_path: Path, content: bytes, fmt: str) -> None:
    path = tmp_path / "nothing.lcn"
    path.write_bytes(content)
    result = run("score", "--format", fmt, str(path))
    assert result.exit_code == 1
    assert "error[empty-file] no game found" in result.stderr
    if fmt == "json":
        assert json.loads(result.stdout) == {"games": []}

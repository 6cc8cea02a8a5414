"""The library as a Python user meets it: str and repr of a game, reading games one at a
time from an open file, Tags as a mapping, the warning for a file name given as text."""

from __future__ import annotations

import io
import subprocess
import sys
import warnings
from collections.abc import MutableMapping
from pathlib import Path

import pytest

import lcn
from lcn import reader as reader_module

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
SAMPLE_FILES = sorted(SAMPLES.rglob("*.lcn"))


def _big_file(tmp_path: Path) -> tuple[Path, list[str]]:
    """Every sample, several times over, separated by blank lines: many times the reader's
    block, with games of all three variants, comments after terminations and tag sections
    of every size. Returns the file and each game's canonical text, as read_games reads it."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in SAMPLE_FILES)
    path = tmp_path / "big.lcn"
    path.write_text("\n".join([text] * 8), encoding="utf-8")
    assert path.stat().st_size > 8 * reader_module._BLOCK
    expected = [lcn.write_game(game) for game in lcn.read_games(path)]
    assert len(expected) > 100
    return path, expected


def _loop(handle: io.IOBase) -> list[str]:
    games = []
    while (game := lcn.read_game(handle)) is not None:  # type: ignore[arg-type]
        games.append(lcn.write_game(game))
    return games


def test_str_of_a_game_is_its_canonical_lcn_and_repr_is_short() -> None:
    for path in SAMPLE_FILES:
        for game in lcn.read_games(path):
            assert str(game) == lcn.write_game(game)
            assert lcn.write_game(lcn.read_game(str(game))) == str(game)
            shown = repr(game)
            assert shown.startswith("<GameRecord ") and len(shown) < 200, shown
            assert "\n" not in shown


def test_read_game_loop_reads_every_game_from_a_binary_handle(tmp_path: Path) -> None:
    path, expected = _big_file(tmp_path)
    with path.open("rb") as handle:
        assert _loop(handle) == expected
    with path.open("rb", buffering=0) as raw:  # unbuffered: reads as they come
        assert _loop(raw) == expected


def test_read_game_loop_reads_every_game_from_a_text_handle(tmp_path: Path) -> None:
    path, expected = _big_file(tmp_path)
    with path.open(encoding="utf-8") as handle:
        games = _loop(handle)
    assert games == expected
    # The first tag line of every game after the first is there (it was lost once).
    match = [g for g in games if '[Match "Hana vs Ivo"]' in g]
    assert match and all(g.startswith('[Event "Spring league, round 3"]\n') for g in match)
    assert _loop(io.StringIO(path.read_text(encoding="utf-8"))) == expected


def test_read_game_leaves_the_handle_just_after_the_game(tmp_path: Path) -> None:
    first = '[Player1 "Ada"]\n[Player2 "Bo"]\n\nR5/d * {after the game}\n'
    rest = '[Player1 "Cy"]\n[Player2 "Di"]\n\nB2/d *\n'
    handle = io.BytesIO((first + rest).encode())
    game = lcn.read_game(handle)
    assert game is not None and game.closing_comments == ["after the game"]
    assert handle.read().decode() == rest


def test_read_game_loop_on_a_stream_that_cannot_seek(tmp_path: Path) -> None:
    path, expected = _big_file(tmp_path)
    with subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE) as cat:
        assert cat.stdout is not None and not cat.stdout.seekable()
        games = _loop(cat.stdout)
    assert games == expected


def _lines_of_loop(handle: io.IOBase) -> list[int]:
    lines = []
    while (game := lcn.read_game(handle)) is not None:  # type: ignore[arg-type]
        lines.append(game.line)
    return lines


def test_read_game_loop_numbers_lines_as_the_file_does(tmp_path: Path) -> None:
    path, _ = _big_file(tmp_path)
    expected = [game.line for game in lcn.read_games(path)]
    assert expected[1] > 1  # games after the first start further down
    with path.open("rb") as handle:
        assert _lines_of_loop(handle) == expected
    with path.open(encoding="utf-8") as text:
        assert _lines_of_loop(text) == expected
    with subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE) as cat:
        assert cat.stdout is not None
        assert _lines_of_loop(cat.stdout) == expected  # type: ignore[arg-type]
    # A diagnostic of the second game names the file's line, not one counted from the game.
    broken = '[Player1 "Ada"]\n[Player2 "Bo"]\n\n1. R5/d B2/d *\n\n' \
             '[Player1 "Cy"]\n[Player2 "Di"]\n\n1. R5/d B2/d\n2. Q9/d *\n'
    handle = io.StringIO(broken)
    assert lcn.read_game(handle) is not None
    second = lcn.read_game(handle)
    assert second is not None
    assert [d.line for d in lcn.validate_record(second).diagnostics if d.is_error][:1] == [10]
    # A file moved by its owner in between is counted from where it then stands.
    handle.seek(0)
    again = lcn.read_game(handle)
    assert again is not None and again.line == 1


def test_tags_is_a_mutable_mapping_that_keeps_the_order() -> None:
    tags = lcn.Tags({"Player1": "Ada", "Player2": "Bo"})
    assert isinstance(tags, MutableMapping)
    tags.update({"Event": "Club"}, Round="2")
    assert list(tags.keys()) == ["Player1", "Player2", "Event", "Round"]
    assert list(tags.values()) == ["Ada", "Bo", "Club", "2"]
    assert tags.pop("Event") == "Club" and "Event" not in tags
    assert tags.setdefault("Site", "Home") == "Home" and list(tags)[-1] == "Site"
    assert tags.popitem() == ("Site", "Home")
    assert tags.get("Missing") is None and tags.get("Missing", "x") == "x"
    assert tags == {"Player1": "Ada", "Player2": "Bo", "Round": "2"}
    assert tags != lcn.Tags({"Player2": "Bo", "Player1": "Ada", "Round": "2"})  # order counts
    with pytest.raises(ValueError, match="line break"):
        tags.update(Event="two\nlines")
    with pytest.raises(ValueError, match="line break"):
        lcn.Tags({"Event": "two\rlines"})
    game = lcn.read_game('[Player1 "Ada"]\n[Player2 "Bo"]\n\nR5/d *\n')
    assert game is not None
    game.tags.update(Event="Club")
    del game.tags["Player2"]
    assert str(game).startswith('[Player1 "Ada"]\n[Event "Club"]\n\n')
    tags.clear()
    assert len(tags) == 0


def test_read_game_warns_when_a_str_looks_like_a_file_name() -> None:
    for name in ("games.lcn", "samples/classic/match.lcn", "C:\\games\\x.lcn", str(SAMPLES)):
        with pytest.warns(UserWarning, match="looks like a file name"):
            lcn.read_game(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lcn.read_game('[Player1 "Ada"]\n[Player2 "Bo"]\n\nR5/d *\n')
        lcn.read_game("R5/d xB2/d *")
        lcn.read_game("R5/d")
        lcn.read_game("xB2/d!")
        lcn.read_game("R5/d 57:-12")
        lcn.read_game(Path(SAMPLE_FILES[0]))


def test_python_m_lcn_runs_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "lcn", "--version"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"lcn, version {lcn.__version__}"
    from importlib.metadata import version

    assert lcn.__version__ == version("lost-cities-notation")


def test_the_command_imports_no_web_framework_and_serve_names_the_extra() -> None:
    # flask made impossible to import: every command but serve works, serve names the extra.
    code = ("import sys; sys.modules['flask'] = None; from lcn_cli.main import cli; "
            "cli(sys.argv[1:])")
    files = [str(p) for p in SAMPLE_FILES]
    done = subprocess.run([sys.executable, "-c", code, "validate", "-q", *files],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and "serve" in done.stdout, done.stderr
    done = subprocess.run([sys.executable, "-c", code, "serve"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1
    assert "pip install 'lost-cities-notation[server]'" in done.stderr
    assert "Traceback" not in done.stderr

"""The command line as shells and users meet it: file name completion, directories of
games, ``--jobs 0``, and help on every option."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from lcn_cli import main as main_module
from lcn_cli.io import jobs_option_value
from lcn_cli.main import cli

import lcn

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SAMPLE_FILES = sorted(SAMPLES.rglob("*.lcn"), key=lambda p: p.relative_to(SAMPLES).parts)


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def _complete(shell: str, words: str, cword: str) -> str:
    env = {**os.environ, "_LCN_COMPLETE": f"{shell}_complete", "COMP_WORDS": words, "COMP_CWORD": cword}
    code = "import sys; from lcn_cli.main import cli; cli(prog_name='lcn')"
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("command", ["validate", "score", "fmt", "show", "deal", "convert"])
def test_shells_complete_file_names_for_every_file_argument(command: str) -> None:
    # Click answers "file" and leaves the listing to the shell (compgen -f in bash); zsh's
    # and fish's answers put the same two fields on one line or two, by Click's version.
    for shell, cword in (("bash", "2"), ("zsh", "2"), ("fish", "sam")):
        answer = _complete(shell, f"lcn {command} sam", cword)
        assert answer.replace(",", "\n").splitlines()[:2] == ["file", "sam"], (shell, answer)


def test_bash_completion_script_is_there() -> None:
    env = {**os.environ, "_LCN_COMPLETE": "bash_source"}
    done = subprocess.run([sys.executable, "-c", "from lcn_cli.main import cli; cli(prog_name='lcn')"],
                          env=env, capture_output=True, text=True, check=False)
    assert "complete -o nosort -F _lcn_completion lcn" in done.stdout


def test_a_directory_is_searched_for_lcn_files_in_sorted_order(tmp_path: Path) -> None:
    shutil.copytree(SAMPLES, tmp_path / "games")
    hidden = tmp_path / "games" / ".hidden"
    hidden.mkdir()
    (hidden / "broken.lcn").write_text("not a game\n", encoding="utf-8")
    (tmp_path / "games" / "notes.txt").write_text("not a game\n", encoding="utf-8")
    result = run("validate", "--format", "json", str(tmp_path / "games"))
    assert result.exit_code == 0, result.output
    files = [entry["file"] for entry in json.loads(result.output)["files"]]
    expected = [str(tmp_path / "games" / p.relative_to(SAMPLES)) for p in SAMPLE_FILES]
    assert files == expected
    games = sum(1 for path in SAMPLE_FILES for _ in lcn.read_headers(path))
    assert json.loads(result.output)["summary"]["games"] == games


def test_validate_samples_directory_validates_every_sample() -> None:
    done = subprocess.run([sys.executable, "-m", "lcn", "validate", "-q", "samples/"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    games = sum(1 for path in SAMPLE_FILES for _ in lcn.read_headers(path))
    assert done.stdout.strip().splitlines()[-1] == f"{games} games: {games} valid, 0 invalid"


def test_glob_chooses_the_files_of_a_directory(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text('[Player1 "A"]\n[Player2 "B"]\n\n1. R5/d *\n', encoding="utf-8")
    broken = '[Player1 "A"]\n[Player2 "B"]\n\n1. R5/d xB2/d 2. R4/d *\n'
    (tmp_path / "b.lcn").write_text(broken, encoding="utf-8")
    assert run("validate", "-q", str(tmp_path)).exit_code == 1  # b.lcn breaks a rule
    result = run("validate", "-q", "--glob", "*.txt", str(tmp_path))
    assert result.exit_code == 0 and "1 game: 1 valid" in result.output
    result = run("score", "--glob", "*.txt", "--format", "json", str(tmp_path))
    assert [g["file"] for g in json.loads(result.output)["games"]] == [str(tmp_path / "a.txt")]
    result = run("fmt", "--check", "--glob", "*.txt", str(tmp_path))
    assert result.exit_code == 0, result.output


def test_a_directory_without_games_is_an_input_error(tmp_path: Path) -> None:
    for command in ("validate", "score", "fmt"):
        result = run(command, str(tmp_path))
        assert result.exit_code == 2
        assert f"no file matching '*.lcn' in the directory '{tmp_path}'" in result.output


def test_jobs_zero_is_one_process_per_core() -> None:
    assert jobs_option_value(0) == len(os.sched_getaffinity(0))
    assert jobs_option_value(3) == 3
    one = run("validate", "--format", "json", str(SAMPLES))
    every = run("validate", "--format", "json", "--jobs", "0", str(SAMPLES))
    assert every.exit_code == one.exit_code == 0
    assert every.output == one.output
    assert "(0: one per core)" in " ".join(run("validate", "--help").output.split())


def test_every_option_of_every_command_has_help() -> None:
    ctx = click.Context(cli)
    missing = []
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None
        for param in command.params:
            if isinstance(param, click.Option) and not param.help:
                missing.append(f"{name} {param.opts[0]}")
    assert missing == []


_OPTION_LISTS = [
    ["-q"], ["-qj2"], ["-j2", "-q"], ["-j", "2", "-q"], ["-q", "-j", "0"], ["-qj"], ["-j"],
    ["-x"], ["-qx"], ["-xq"], ["--quie"], ["-q=1"], ["-j=2"], ["--quiet=1"], ["--jobs=2", "-q"],
    ["--glob", "-q"], ["--glob=-q"], ["--", "-q"], ["-h"], ["-qh"], ["-hq"], ["-"], ["--"],
    ["--no-warnings", "-q"], ["-q", "--format", "json"], ["--format", "-q"], ["-Q"], ["-qq"],
    ["--jobs", "-q"], ["-j-1"], ["-j", "x"], ["--dask"], ["--version"],
]


@pytest.mark.parametrize("options", _OPTION_LISTS)
def test_short_options_are_read_as_click_reads_them(options: list[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The parser that matches short options at once takes the same options and gives the
    same errors as click's own, for the command and the group."""
    sample = str(SAMPLES / "classic" / "annotated.lcn")
    for args in (["validate", *options, sample], [*options, "validate", sample]):
        ours = run(*args)
        with monkeypatch.context() as patched:
            patched.setattr(main_module._Command, "make_parser", click.Command.make_parser)
            clicks = run(*args)
        assert (ours.exit_code, ours.stdout, ours.stderr) == \
            (clicks.exit_code, clicks.stdout, clicks.stderr), args


def test_a_short_option_does_not_import_difflib() -> None:
    """Click's suggestions for a mistyped option (difflib) are left to mistyped options."""
    code = ("import sys\nfrom lcn_cli.main import cli\n"
            f"sys.argv = ['lcn', 'validate', '-qj1', {str(SAMPLES / 'classic' / 'annotated.lcn')!r}]\n"
            "try:\n    cli.main(standalone_mode=False)\nexcept SystemExit:\n    pass\n"
            "print('difflib' in sys.modules)\n"
            "sys.argv = ['lcn', 'validate', '--quie', 'x']\n"
            "try:\n    cli.main(standalone_mode=False)\nexcept Exception as exc:\n"
            "    print(type(exc).__name__, exc.format_message())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-2:] == [
        "False", "NoSuchOption No such option '--quie'. Did you mean '--quiet'?"]

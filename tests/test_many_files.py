"""``lcn validate`` over many files: one pool of workers for the whole command, and the
same output, byte for byte, with the same exit status, as one process.

The corpus has a few hundred small files (valid, damaged, empty, with Windows line endings,
of every variant), a file that cannot be read, a match split over two files and a big file
that is cut into parts among them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.main import cli

import lcn
from lcn import parallel
from lcn.variants.classic_play import random_game, strip_deal


@pytest.fixture(autouse=True)
def _forked_as_in_a_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Earlier tests of the session (Dask's client, the live servers) leave idle threads
    behind, and with another thread running the pool is never forked; these tests are about
    the pool a command gets in a process of its own, where no other thread runs."""
    monkeypatch.setattr(parallel, "_fork_safe", lambda: parallel._FORK)

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _games(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for index in range(count):
        record = random_game(seed * 1000 + index, expeditions=rng.choice([5, 6]))
        texts.append(lcn.write_game(record if rng.random() < 0.5 else strip_deal(record)))
    return texts


def _damaged(text: str, rng: random.Random) -> str:
    pieces = ["R5/d ", "\n\n[Event \"x\"]\n", "{", "12. ", "xYw/d ", "*", "$999 "]
    at = rng.randrange(len(text))
    return text[:at] + rng.choice(pieces) + text[at:]


def _corpus(root: Path, count: int = 300) -> list[str]:
    """The files, in the order given on the command line (a missing one among them)."""
    rng = random.Random(19)
    samples = [path for path in sorted(SAMPLES.glob("*/*.lcn")) if path.name != "match.lcn"]
    texts = _games(count, 3)
    names: list[str] = []
    for index in range(count):
        path = root / f"{index:04d}.lcn"
        if index % 25 == 0:
            path.write_bytes(samples[index // 25 * 5 % len(samples)].read_bytes())
        elif index % 7 == 0:
            path.write_text(_damaged(texts[index], rng), encoding="utf-8")
        elif index % 31 == 0:
            path.write_text(texts[index].replace("\n", "\r\n") + "\r\n" + texts[index - 1].replace(
                "\n", "\r\n"), encoding="utf-8")
        else:
            path.write_text(texts[index] + "\n" + texts[index - 1], encoding="utf-8")
        names.append(str(path))
    (root / "empty.lcn").write_bytes(b"")
    names.insert(40, str(root / "empty.lcn"))
    names.insert(77, str(root / "cannot-be-read.lcn"))  # not there: reported at its place
    # A match over two files, then the whole match again (its games repeated: an error).
    match = (SAMPLES / "classic" / "match.lcn").read_text(encoding="utf-8")
    cut = match.index("\n\n[Event", match.index("[Game \"2\"]"))
    (root / "match-1.lcn").write_text(match[:cut + 1], encoding="utf-8")
    (root / "match-2.lcn").write_text(match[cut + 2:], encoding="utf-8")
    (root / "match-again.lcn").write_text(match, encoding="utf-8")
    names[120:120] = [str(root / "match-1.lcn"), str(root / "match-2.lcn")]
    names.insert(200, str(root / "match-again.lcn"))
    # A big file, cut into parts, among the small ones.
    big = root / "big.lcn"
    big.write_text("\n".join(_games(150, 4)), encoding="utf-8")
    assert big.stat().st_size > parallel.SMALL_FILE
    names.insert(150, str(big))
    return names


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["validate", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return _corpus(tmp_path_factory.mktemp("many"))


@pytest.mark.parametrize("options", [["--format", "text"], ["-q"], ["--no-warnings"],
                                     ["--format", "json"], ["--format", "jsonl"]])
def test_two_jobs_print_what_one_job_prints_over_many_files(corpus: list[str], options: list[str]
                                                            ) -> None:
    one = _run(*options, *corpus)
    assert one[0] == 2  # the file that cannot be read
    assert "cannot-be-read.lcn" in one[2]
    assert _run(*options, "--jobs", "2", *corpus) == one


def test_the_corpus_has_what_the_comparison_needs(corpus: list[str]) -> None:
    out = _run("--format", "json", *corpus)[1]
    data = json.loads(out)
    files = [entry["file"] for entry in data["files"]]
    assert len(files) == len(corpus) - 1 and "cannot-be-read.lcn" not in " ".join(files)
    games = data["games"]
    assert data["summary"]["invalid"] > 10 and data["summary"]["valid"] > 300
    codes = {d["code"] for game in games for d in game["diagnostics"]}
    assert "crlf" in codes
    # The match split over two files is checked as one: it goes on from one file to the
    # next (the second file alone starts a match at its second game); the match again is not.
    split = [game for game in games if Path(game["file"]).name in ("match-1.lcn", "match-2.lcn")]
    assert len(split) == 3 and all(game["valid"] and not game["diagnostics"] for game in split)
    alone = json.loads(_run("--format", "json", split[-1]["file"])[1])["games"]
    assert any(d["code"].startswith("match") for game in alone for d in game["diagnostics"])
    again = [game for game in games if game["file"].endswith("match-again.lcn")]
    assert any(d["code"].startswith("match") for game in again for d in game["diagnostics"])
    assert any(entry["diagnostics"] for entry in data["files"])  # the empty file
    assert {game["variant"] for game in games} >= {"classic", "rivals", "rollwrite"}


def test_small_groups_and_three_jobs_give_the_same_output(corpus: list[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # Groups of two files: many groups in flight, the workers' and this process's mixed.
    one = _run(*corpus)
    monkeypatch.setattr(parallel, "GROUP_FILES", 2)
    assert _run("--jobs", "2", *corpus) == one
    assert _run("--jobs", "3", *corpus) == one


def test_one_big_file_gives_the_same_output(tmp_path: Path) -> None:
    rng = random.Random(5)
    path = tmp_path / "big.lcn"
    path.write_text("\n".join(_damaged(t, rng) if rng.random() < 0.1 else t for t in _games(200, 6)),
                    encoding="utf-8")
    for options in (["--format", "text"], ["-q"], ["--format", "json"], ["--format", "jsonl"]):
        one = _run(*options, str(path))
        assert one[0] == 1
        assert _run(*options, "--jobs", "2", str(path)) == one


@pytest.mark.parametrize("forked", [True, False])
def test_one_pool_serves_every_file(corpus: list[str], monkeypatch: pytest.MonkeyPatch,
                                    forked: bool) -> None:
    """Forked workers, or (where a fork is not safe) a ``concurrent.futures`` pool."""
    monkeypatch.setattr(parallel, "_FORK", forked)
    started = parallel._Workers.started
    one = _run("-q", *corpus)
    assert _run("-q", "--jobs", "2", *corpus) == one
    assert parallel._Workers.started == started + 1
    # One small file: nothing to share out, no pool at all.
    assert _run("--jobs", "2", corpus[1])[0] == 0
    assert parallel._Workers.started == started + 1


def test_jsonl_has_one_line_per_game_the_games_of_json(corpus: list[str]) -> None:
    status, out, err = _run("--format", "jsonl", *corpus)
    lines = out.splitlines()
    games = [json.loads(line) for line in lines]
    whole = json.loads(_run("--format", "json", *corpus)[1])
    assert games == whole["games"]
    assert len(lines) == whole["summary"]["games"]
    assert all(line.startswith("{") and "\n" not in line for line in lines)
    # The problem of a file as a whole (the empty file) is said on standard error.
    empty = next(entry for entry in whole["files"] if entry["diagnostics"])
    assert empty["file"] in err
    assert status == 2


def _reports(runs: parallel.FileRuns, kill: bool = False) -> list[Any]:
    import multiprocessing
    import os
    import signal

    got: list[Any] = []
    for run in runs:
        assert run is not None
        try:
            for report in run:
                if kill and not got:
                    pool = runs._pool
                    pids = [child.pid for child in pool.children] \
                        if isinstance(pool, parallel._Workers) else \
                        [child.pid for child in multiprocessing.active_children()]
                    assert pids
                    for pid in pids:
                        os.kill(pid, signal.SIGKILL)  # type: ignore[arg-type]
                got.append([report.index, report.record.line, report.to_json()])
        except OSError as exc:
            got.append(type(exc).__name__)
        got.append([d.to_json() for d in run.file_diagnostics])
    return got


@pytest.mark.parametrize("forked", [True, False])
def test_a_worker_killed_over_many_files_leaves_the_rest_to_this_process(
        corpus: list[str], monkeypatch: pytest.MonkeyPatch, forked: bool) -> None:
    monkeypatch.setattr(parallel, "_FORK", forked)
    monkeypatch.setattr(parallel, "GROUP_FILES", 4)
    paths: list[Path | None] = [Path(name) for name in corpus]
    expected = _reports(parallel.FileRuns(paths, 1))
    assert "FileNotFoundError" in expected
    given_up: list[int] = []
    give_up = parallel._give_up
    monkeypatch.setattr(parallel, "_give_up", lambda *args: (given_up.append(1), give_up(*args)))
    assert _reports(parallel.FileRuns(paths, 3), kill=True) == expected
    assert given_up  # the pool was found broken, and the rest validated here

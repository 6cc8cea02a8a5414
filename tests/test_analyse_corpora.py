"""``lcn analyse`` over corpora: the store of analyses (a game analysed again is not searched
again, and an entry of another game, engine or budget, or a damaged one, is never served),
several files with an invalid game among them, games spread over processes and over a Dask
cluster on loopback with the same output as one process.

Small budgets (``--playouts 20``, a fixed ``--seed``): every analysis here is repeatable.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lcn_cli.analyse import _Shown
from lcn_cli.main import cli
from test_dask import scheduler  # noqa: F401 - the Dask tests' cluster on loopback, a fixture

import lcn
import lcn.analysis
from lcn import search
from lcn.analysis_cache import AnalysisCache, Budget, Stored, cache_key, canonical_text, default_directory
from lcn.variants import classic_play

BUDGET = ["--seed", "3", "--playouts", "20"]
INVALID = ('[Player1 "Ada"]\n[Player2 "Bo"]\n[Hand1 "R2 R3 R4 R5 R6 R7 R8 R9"]\n\n'
           '1. R5/d xB2/d 2. R4/d *\n')


@pytest.fixture(autouse=True)
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The default store in this test's directory, never the user's."""
    home = tmp_path / "cache-home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


class Searches:
    """Counts the searches the analyses make (in this process)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = lcn.analysis.search

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(lcn.analysis, "search", counted)

    def taken(self) -> int:
        count, self.count = self.count, 0
        return count


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["analyse", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _file(path: Path, *seeds: int, extra: str | None = None) -> str:
    games = [lcn.write_game(classic_play.random_game(seed)) for seed in seeds]
    if extra is not None:
        games.append(extra)
    path.write_text("\n".join(games), encoding="utf-8")
    return str(path)


def _respelled(text: str) -> str:
    """Another spelling of the same game: cards in lower case, the movetext on one line."""
    tags, movetext = text.split("\n\n", 1)
    return tags + "\n\n" + " ".join(movetext.lower().split()) + "\n"


def test_an_analysis_given_again_comes_from_the_store_without_a_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_home: Path) -> None:
    searches = Searches(monkeypatch)
    path = _file(tmp_path / "games.lcn", 60, 61)
    for fmt in ("json", "text"):
        fresh = _run(path, *BUDGET, "--format", fmt)
        assert fresh[0] == 0 and fresh[2] == "", fresh
        assert searches.taken() > 40  # a search per decision of two games
        again = _run(path, *BUDGET, "--format", fmt)
        assert again == fresh
        assert searches.taken() == 0
        # --no-cache searches again, and gives the same analysis (a repeatable budget).
        assert _run(path, *BUDGET, "--format", fmt, "--no-cache") == fresh
        assert searches.taken() > 40
        for entry in (cache_home / "lcn" / "analyses").rglob("*.json"):
            entry.unlink()
    data = json.loads(_run(path, *BUDGET, "--format", "json")[1])
    assert [game["game"] for game in data["games"]] == [1, 2]
    assert data["games"][0]["decisions"] == \
        lcn.analysis.analyse(classic_play.random_game(60), seed=3, playouts=20).to_json()["decisions"]
    # The store is where the XDG base directories put caches; each game has its entry.
    assert default_directory() == cache_home / "lcn" / "analyses"
    assert len(list(default_directory().rglob("*.json"))) == 2


def test_two_spellings_of_a_game_share_an_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    searches = Searches(monkeypatch)
    text = lcn.write_game(classic_play.random_game(62))
    spelled = _respelled(text)
    assert spelled != text and lcn.write_game(lcn.read_game(spelled)) == text
    (tmp_path / "a.lcn").write_text(text, encoding="utf-8")
    (tmp_path / "b.lcn").write_text(spelled, encoding="utf-8")
    first = _run(str(tmp_path / "a.lcn"), *BUDGET, "--format", "json")
    assert first[0] == 0 and searches.taken() > 0
    second = _run(str(tmp_path / "b.lcn"), *BUDGET, "--format", "json")
    assert second == first and searches.taken() == 0


def test_the_key_changes_with_the_engine_the_budget_and_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = canonical_text(classic_play.random_game(63))
    other = canonical_text(classic_play.random_game(64))
    budget = Budget.of(seed=3, seconds=None, playouts=20)
    key = cache_key(text, budget)
    assert key == cache_key(text, Budget.of(seed=3, seconds=1.0, playouts=20))  # playouts rule
    assert Budget.of(seed=None, seconds=1, playouts=None) == Budget(1.0, None, None)
    different = {cache_key(other, budget), cache_key(text, budget, engine=search.ENGINE_VERSION + "x"),
                 cache_key(text, Budget.of(seed=4, seconds=None, playouts=20)),
                 cache_key(text, Budget.of(seed=3, seconds=None, playouts=21)),
                 cache_key(text, Budget.of(seed=None, seconds=None, playouts=20)),
                 cache_key(text, Budget.of(seed=3, seconds=1.0, playouts=None)),
                 cache_key(text, Budget.of(seed=3, seconds=2.0, playouts=None))}
    assert key not in different and len(different) == 7
    # Through the command: a new engine, budget or game is searched; the jobs are not keyed.
    searches = Searches(monkeypatch)
    path = _file(tmp_path / "g.lcn", 63)
    first = _run(path, *BUDGET, "--format", "json")
    assert searches.taken() > 0
    assert _run(path, *BUDGET, "--format", "json", "--jobs", "2") == first
    assert searches.taken() == 0
    _run(path, "--seed", "3", "--playouts", "21", "--format", "json")
    assert searches.taken() > 0
    monkeypatch.setattr(search, "ENGINE_VERSION", search.ENGINE_VERSION + "-next")
    assert _run(path, *BUDGET, "--format", "json") == first
    assert searches.taken() > 0
    _file(tmp_path / "g.lcn", 64)
    _run(path, *BUDGET, "--format", "json")
    assert searches.taken() > 0
    # Every game stored: a cluster is not even reached (here, no scheduler listens).
    code, out, err = _run(path, *BUDGET, "--format", "json", "--dask", "tcp://127.0.0.1:9")
    assert (code, err) == (0, "") and json.loads(out)["games"][0]["decisions"]
    assert searches.taken() == 0


def test_a_damaged_entry_is_searched_again_and_written_anew(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    searches = Searches(monkeypatch)
    record = classic_play.random_game(65)
    path = _file(tmp_path / "g.lcn", 65)
    first = _run(path, *BUDGET, "--format", "json")
    assert searches.taken() > 0
    store = AnalysisCache()
    budget = Budget.of(seed=3, seconds=None, playouts=20)
    entry = store.path(canonical_text(record), budget)
    whole = entry.read_text(encoding="utf-8")
    other = json.loads(whole)
    other["game"] = "0" * 64  # the entry of another game at this name
    shorter = json.loads(whole)
    shorter["analysis"]["decisions"] = "none"
    for damaged in (whole[: len(whole) // 2], "", "[1, 2]", "\xff\xfe not json", json.dumps(other),
                    json.dumps(shorter)):
        entry.write_text(damaged, encoding="utf-8", errors="surrogateescape")
        assert store.get(canonical_text(record), budget) is None
        assert _run(path, *BUDGET, "--format", "json") == first
        assert searches.taken() > 0
        assert json.loads(entry.read_text(encoding="utf-8")) == json.loads(whole)
    entry.write_bytes(b"\x80\x81 not UTF-8")
    assert _run(path, *BUDGET, "--format", "json") == first
    # No temporary file is left beside the entries.
    assert [p.name for p in entry.parent.iterdir()] == [entry.name]


def test_a_store_that_cannot_be_written_is_said_once_and_the_analyses_given(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    path = _file(tmp_path / "g.lcn", 66, 67)
    code, out, err = _run(path, *BUDGET, "--format", "json", "--cache", str(blocked / "store"))
    assert code == 0 and len(json.loads(out)["games"]) == 2
    assert err.count("analyses not stored") == 1 and str(blocked) in err
    assert _run(path, *BUDGET, "--format", "json", "--no-cache")[1] == out
    refused = CliRunner().invoke(cli, ["analyse", path, "--cache", str(tmp_path), "--no-cache"])
    assert refused.exit_code == 2 and "exclude each other" in refused.output


def test_a_stored_analysis_keeps_its_reasons_as_messages(tmp_path: Path) -> None:
    """A reason comes back from the store as a message, said in the reader's language."""
    sample = Path(__file__).resolve().parent.parent / "samples" / "classic" / "full-deal.lcn"
    record = lcn.read_game(sample.read_text(encoding="utf-8"))
    analysis = lcn.analysis.analyse(record, seed=1, playouts=1500, turns=[1])
    store = AnalysisCache(tmp_path)
    budget = Budget.of(seed=1, seconds=None, playouts=1500)
    store.put(canonical_text(record), budget, Stored.of(analysis))
    got = store.get(canonical_text(record), budget)
    assert got is not None and got.analysis == analysis.to_json()
    reason, = got.reasons
    assert reason == analysis.decisions[0].reason == "shuts out the 2 red wager cards in your hand"
    assert reason is not None and lcn.messages.translate(reason, "de") == \
        lcn.messages.translate(analysis.decisions[0].reason, "de") != reason


def test_several_files_with_an_invalid_game_analyse_the_others_and_exit_1(tmp_path: Path) -> None:
    first = _file(tmp_path / "one.lcn", 68)
    second = _file(tmp_path / "two.lcn", 69, extra=INVALID)
    code, out, err = _run(first, second, *BUDGET, "--format", "json")
    assert code == 1
    assert f"{second}:" in err and "error[not-ascending]" in err and "C-PLACE-ASCENDING" in err
    games = json.loads(out)["games"]
    assert [(game["file"], game["game"]) for game in games] == [(first, 1), (second, 1), (second, 2)]
    assert games[2]["error"] == "the record is not valid" and "decisions" not in games[2]
    assert games[2]["diagnostics"][0]["code"] == "not-ascending"
    for game, seed in zip(games[:2], (68, 69), strict=True):
        expected = lcn.analysis.analyse(classic_play.random_game(seed), seed=3, playouts=20).to_json()
        assert {name: game[name] for name in expected} == expected
    # A directory stands for its .lcn files, in sorted order, as with lcn validate.
    assert _run(str(tmp_path), *BUDGET, "--format", "json") == (code, out, err)
    code, text, err = _run(first, second, *BUDGET)
    assert code == 1 and "C-PLACE-ASCENDING" in err
    assert text.count("accuracy") == 2
    assert text.startswith(f"{first}: game 1: accuracy") and f"{second}: game 1: accuracy" in text
    # One file: the JSON has no "file", the text no file name (as before corpora).
    code, out, _ = _run(first, *BUDGET, "--format", "json")
    assert code == 0 and "file" not in json.loads(out)["games"][0]
    # A game that cannot be judged (no player's hand given) is said, and the rest analysed.
    public = _file(tmp_path / "public.lcn", extra=lcn.write_game(
        classic_play.strip_deal(classic_play.random_game(68), keep=None)))
    code, out, err = _run(public, first, *BUDGET, "--format", "json")
    assert code == 2 and f"lcn: {public}, game 1: the record does not tell" in err
    refused, analysed = json.loads(out)["games"]
    assert refused["diagnostics"][0]["code"] == "not-analysable" and "decisions" not in refused
    assert analysed["file"] == first and len(analysed["decisions"]) > 40
    # --game of every file; a file without that game is an input error, the rest is analysed.
    code, out, err = _run(first, second, *BUDGET, "--game", "2", "--format", "json")
    assert code == 2 and "one.lcn has no game 2" in err
    assert [(game["file"], game["game"]) for game in json.loads(out)["games"]] == [(second, 2)]


def test_standard_input_is_one_of_the_files(tmp_path: Path) -> None:
    first = _file(tmp_path / "one.lcn", 70)
    text = lcn.write_game(classic_play.random_game(71))
    result = CliRunner().invoke(cli, ["analyse", first, "-", *BUDGET, "--format", "json"], input=text)
    assert result.exit_code == 0, result.output
    games = json.loads(result.stdout)["games"]
    assert [game["file"] for game in games] == [first, "<stdin>"]


def test_two_jobs_give_what_one_gives(tmp_path: Path) -> None:
    path = _file(tmp_path / "games.lcn", 72, 73, 74, extra=INVALID)
    for fmt in ("json", "text"):
        one = _run(path, *BUDGET, "--format", fmt, "--no-cache")
        assert one[0] == 1
        assert _run(path, *BUDGET, "--format", fmt, "--no-cache", "--jobs", "2") == one
    # A single game: its decisions are spread instead.
    single = _run(path, *BUDGET, "--game", "2", "--format", "json", "--no-cache")
    assert _run(path, *BUDGET, "--game", "2", "--format", "json", "--no-cache", "--jobs", "2") == single
    refused = CliRunner().invoke(cli, ["analyse", path, "--jobs", "2", "--dask", "local"])
    assert refused.exit_code == 2 and "cannot be used together" in refused.output


def test_the_progress_line_counts_games_and_decisions() -> None:
    stream = io.StringIO()
    shown = _Shown(3, True)
    shown.stream = stream
    shown.games_done = 1
    shown.told(1, 40, 40)
    shown.told(2, 5, 50)
    assert shown.line(0, 1, 75.0) == "1 of 3 games, 45 of 90 decisions, 1:15"
    assert not _Shown(3, None).enabled  # standard error is no terminal here
    shown.next_draw = 0
    shown.update(0, 1)
    shown.clear()
    assert stream.getvalue() == "\r1 of 3 games, 45 of 90 decisions, 0:00\x1b[K\r\x1b[K"


@pytest.mark.cluster
@pytest.mark.slow
def test_a_scheduler_and_two_workers_analyse_what_one_process_does(
        scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    searches = Searches(monkeypatch)
    first = _file(tmp_path / "one.lcn", 75, 76)
    second = _file(tmp_path / "two.lcn", 77, extra=INVALID)
    for fmt in ("json", "text"):
        one = _run(first, second, *BUDGET, "--format", fmt, "--no-cache")
        assert one[0] == 1
        searches.taken()
        # The workers are other processes, in another directory: the games are sent.
        assert _run(first, second, *BUDGET, "--format", fmt, "--no-cache", "--dask", scheduler) == one
        assert searches.taken() == 0
    # What the cluster analysed is stored, and served here without the cluster.
    clustered = _run(first, second, *BUDGET, "--format", "json", "--dask", scheduler)
    assert _run(first, second, *BUDGET, "--format", "json") == clustered
    assert searches.taken() == 0


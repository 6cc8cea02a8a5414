"""The bench command: its corpora are seeded and valid, and a small run prints every part.

No timing is asserted: figures depend on the machine; only the shape of the output is.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import lcn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import __main__ as bench_main  # noqa: E402
from bench import corpora, fresh  # noqa: E402


def test_corpora_are_the_same_for_the_same_seed_and_every_game_is_valid() -> None:
    first = corpora.classic(6, expeditions=6, deal=False, seed=4)
    assert first == corpora.classic(6, expeditions=6, deal=False, seed=4)
    assert first != corpora.classic(6, expeditions=6, deal=False, seed=5)
    reports = list(lcn.validate(first))
    assert len(reports) == 6 and all(r.valid and r.over for r in reports)
    for name in ("rivals", "rollwrite"):
        text = corpora.variant_corpus(name, 3)
        if text is None:
            continue
        reports = list(lcn.validate(text))
        assert [r.record.variant_name for r in reports] == [name] * 3
        assert all(r.valid for r in reports)


def test_a_big_file_holds_whole_games_and_at_least_the_size_asked(tmp_path: Path) -> None:
    path = tmp_path / "big.lcn"
    written = corpora.write_big(path, 300_000)
    assert written == path.stat().st_size >= 300_000
    block = corpora.big_block()
    assert written % len(block) == 0
    assert sum(1 for _ in lcn.read_headers(path)) == 500 * (written // len(block))


def test_the_floor_counts_the_tokens_of_a_game() -> None:
    text = b'[Player1 "A"]\n[Player2 "B"]\n\n1. R5/d {a note} xB2/d $1 2. R7/B *\n'
    # two tags, a move number, three words, a comment, a glyph, another number and *
    assert bench_main.floor_pass(text) == 10


def test_a_small_run_prints_every_measure_and_writes_the_markdown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "table.md"
    code = bench_main.main(["--games", "8", "--runs", "1", "--skip", "jobs", "--skip", "site",
                            "--skip", "stream", "--skip", "dask", "--many-files", "12",
                            "--markdown", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    for needle in ("full validation, classic 5, full deal", "full validation, classic 6, no deal",
                   "full validation, rivals", "floor, classic 5, full deal",
                   "ratio: validation time / floor time", "headers-only scan", "us/turn",
                   "Where the time goes", "express check off (the full engine)",
                   "8 of 8 games decided by the express check",
                   "first pass, classic, hand-formatted and annotated", "first pass, rivals",
                   "ratio: first pass / floor over the same bytes, rollwrite",
                   "ratio: hand-formatted turns/s / canonical turns/s",
                   "speed-up of --jobs 2 over 1 job, many files",
                   "lcn validate -q on an empty file (start-up), many files",
                   "python -c pass (the interpreter's own start, in the start-up above)"):
        assert needle in printed
    # The interpreter's own start is named with the site-packages it reads.
    assert re.search(r"interpreter's own start.*\| [0-9.]+ s \| (no virtual environment|a virtual "
                     r"environment (of its own|that sees the system's site-packages));",
                     out.read_text())
    try:
        import chess  # noqa: F401
    except ModuleNotFoundError:
        assert "install the bench extra" in printed
    else:
        assert "python-chess read_game" in printed and "ratio: LCN turns/s / python-chess" in printed
    markdown = out.read_text()
    assert markdown.startswith("`python3 -m bench --games 8")
    assert "| full validation, classic 5, full deal |" in markdown
    # Where a first pass misses its goal against the floor, the profile that says why follows.
    row = r"\| ratio: first pass / floor over the same bytes, ([^|]+) \| ([0-9.]+)x \| target <= ([0-9.]+)x"
    for name, figure, target in re.findall(row, markdown):
        if float(figure) > float(target):
            assert f"more {name} games (tottime" in markdown


def _fake_clock(slow: set[str]) -> tuple[Callable[[Callable[[], object]], float], dict[int, str]]:
    # A "time" of one microsecond per turn for every pass, ten for the kinds in ``slow``:
    # what the bench makes of its timings, without timing anything.
    kinds: dict[int, str] = {}

    def timed(func: Callable[[], object]) -> float:
        assert isinstance(func, functools.partial)
        corpus = func.args[0]
        turns = bench_main.count(corpus)[1]
        factor = 10 if func.func is bench_main.validate_all and kinds[id(corpus)] in slow else 1
        return factor * turns * 1e-6

    return timed, kinds


@pytest.mark.parametrize("slow", [set(), {"rivals"}, {"rollwrite", "hand"}])
def test_a_first_pass_over_its_goal_prints_the_profile_that_says_why(
        monkeypatch: pytest.MonkeyPatch, slow: set[str]) -> None:
    made = fresh.make
    timed, kinds = _fake_clock(slow)

    def make(kind: str, games: int, seed: int) -> bytes:
        corpus = made(kind, games, seed)
        kinds[id(corpus)] = kind
        return corpus

    monkeypatch.setattr(fresh, "ProcessPoolExecutor", lambda workers: ThreadPoolExecutor(workers))
    monkeypatch.setattr(fresh, "make", make)
    table = bench_main.Table()
    fresh.bench_fresh(table, 8, 1, timed, bench_main.floor_pass, bench_main.validate_all,
                      bench_main.count, None)
    rows = {name: figure for name, figure, _ in table.rows}
    share = rows["ratio: hand-formatted turns/s / canonical turns/s"]
    assert share == ("0.100x" if "hand" in slow else "1.000x")
    for kind, (name, _) in fresh.KINDS.items():
        assert rows[f"ratio: first pass / floor over the same bytes, {name}"] == (
            "10.0x" if kind in slow else "1.0x")
    titles = [title for title, _ in table.profiles]
    assert len(titles) == len(slow)
    for kind in slow:
        name, goal = fresh.KINDS[kind]
        why = ("hand-formatted: under 0.8x canonical throughput" if kind == "hand"
               else f"{name}: over {goal:g}x the floor's time")
        (title,) = [t for t in titles if t.startswith(f"Why: {why}.")]
        assert f"more {name} games" in title
    assert all("ncalls" in text for _, text in table.profiles)


def test_the_fast_score_of_classic_gives_the_details_of_score_expedition() -> None:
    # classic's score() builds ExpeditionScore.to_json's dicts directly, for speed: same values
    from lcn.variants.classic import VARIANT, score_expedition
    from lcn.variants.classic_play import random_game, strip_deal

    for seed in range(12):
        record = random_game(seed, expeditions=5 + seed % 2)
        if seed % 3 == 0:
            record = strip_deal(record)
        for upto in (0, 7, len(record.turns) // 2, len(record.turns)):
            shortened = lcn.GameRecord(tags=record.tags, turns=record.turns[:upto], termination="*")
            state = lcn.validate_record(shortened).state
            score = VARIANT.score(state)
            expected = [[score_expedition(c, state.expeditions[p][c], state.config) for c in
                         state.config.colours] for p in range(2)]
            assert score.details == [[column.to_json() for column in row] for row in expected]
            assert score.breakdown == [{c.colour: c.points for c in row} for row in expected]
            assert score.totals == [sum(c.points for c in row) for row in expected]


def test_without_the_bench_extra_the_peer_is_marked_missing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(bench_main, "_peer", lambda: None)
    # The validation part alone: the peer is named there (the other parts have tests of their own).
    skips = ["scaling", "jobs", "site", "stream", "dask", "fresh", "parts", "many"]
    assert bench_main.main(["--games", "4", "--runs", "1", *(f"--skip={part}" for part in skips)]) == 0
    printed = capsys.readouterr().out
    assert "install the bench extra" in printed
    assert "full validation, classic 5, full deal" in printed


def test_the_streaming_part_runs_a_file_of_each_game() -> None:
    table = bench_main.Table()
    bench_main.bench_stream(table, 1)
    rows = [(name, note) for name, _, note in table.rows if name.startswith("peak RSS")]
    assert [name.split(",")[1].strip() for name, _ in rows] == ["classic", "rivals", "rollwrite"]
    for name, note in rows:
        assert note.endswith("exit status 0"), (name, note)
    block = corpora.variant_block("rivals")
    assert block is not None and sum(1 for _ in lcn.read_headers(block)) == 250


@pytest.mark.slow
def test_the_site_part_measures_every_target_and_keeps_the_servers_log_off_its_output(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    from bench import site

    # Short rounds: the shape of the output is checked, not the figures.
    monkeypatch.setattr(site, "DURATION", "1s")
    monkeypatch.setattr(site, "WARM_UP", "1s")
    monkeypatch.setattr(site, "ROUNDS", 1)
    table = bench_main.Table()
    site.bench_site(table)
    rows = {name: (figure, note) for name, figure, note in table.rows if name.startswith("site")}
    assert list(rows) == ["site: replay page", "site: replay page rendered each time (no page cache)",
                          "site: POST /api/v1/validate",
                          next(name for name in rows if name.startswith("site: static file"))]
    for name, (figure, note) in rows.items():
        assert re.fullmatch(r"[0-9,]+ req/s", figure), (name, figure)
        assert "non-2xx" not in note, (name, note)
    printed = capfd.readouterr()
    # The servers log every request (as in production), to their own file.
    assert '"method"' not in printed.out and '"method"' not in printed.err


def _plain_of(core: object) -> object:
    from bench.plain_classic import PlainGame
    from lcn.games.classic import ClassicCore

    assert isinstance(core, ClassicCore)
    names = core.tables.names
    return PlainGame(core.tables.config.colours, [[names[c] for c in core.hand(0)],
                                                  [names[c] for c in core.hand(1)]],
                     [names[c] for c in core.pile])


def test_the_plain_engine_of_the_playout_rows_plays_the_cores_rules_and_players() -> None:
    """The yardstick of the playout rows plays the same game: the same legal moves at every
    position of random games, and its rule-based player makes the core's choices."""
    import random

    from bench.plain_classic import PlainGame
    from lcn.games.classic import ClassicCore
    from lcn.variants.classic import CLASSIC_5, CLASSIC_6

    rng = random.Random(9)
    for seed in range(30):
        config = CLASSIC_6 if seed % 2 else CLASSIC_5
        start = ClassicCore.shuffled(config, random.Random(seed))
        core, plain = start.copy(), _plain_of(start)
        assert isinstance(plain, PlainGame)
        while not core.is_over():
            words = sorted(core.tables.word(m) for m in core.legal_moves())
            moves = plain.legal_moves()
            assert words == sorted(f"{'x' if d else ''}{c}/{s}" for c, d, s in moves)
            card, discard, source = rng.choice(moves)
            assert core.step(core.tables.move(f"{'x' if discard else ''}{card}/{source}")) == 0
            plain.play((card, discard, source))
        assert list(core.score()) == plain.score()
        core, plain = start.copy(), _plain_of(start)
        assert isinstance(plain, PlainGame)
        while not core.is_over():
            card, discard, source = plain.heuristic_move(rng, 0.0)
            assert core.tables.word(core.heuristic_move(rng, 0.0)) == \
                f"{'x' if discard else ''}{card}/{source}", (seed, core.turn)
            core.step(core.heuristic_move(rng, 0.0))
            plain.play((card, discard, source))
        assert list(core.score()) == plain.score()

"""``lcn analyse``: every decision of a game judged from what the deciding player knew.

A shell over :func:`lcn.analysis.analyse`: it reads the games of every file, asks the library
(in this process, in ``--jobs`` processes or on a Dask cluster) and prints the marked moves
with the best move for people, or every analysis as JSON for programs, in the order of the
files and their games. Analyses already made with the same engine and budget come from the
store of :mod:`lcn.analysis_cache` instead of a search.

Exit status 0 when every game was analysed, 1 when a game breaks a rule (its diagnostics are
printed, it is not analysed, and the other games are), 2 for usage and input errors and games
that cannot be judged.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

import lcn
from lcn.analysis import ANALYSIS_SECONDS, GLYPHS, NotAnalysable, refusal
from lcn.analysis_cache import AnalysisCache, Budget, Stored, canonical_text
from lcn.diagnostics import Diagnostic
from lcn.messages import msg
from lcn.parallel import AnalysisOutcome, _unpack_diagnostics, analyse_text

from .io import (
    INPUT_PATH,
    InputError,
    expand_inputs,
    jobs_option_value,
    open_source,
    printable,
    reading,
    render_diagnostic,
    say,
)
from .main import _glob_option, _Interrupts, connect_cluster, refuse_jobs_with_dask
from .moves import show_invalid
from .progress import Progress

if TYPE_CHECKING:
    from lcn.cluster import Cluster
    from lcn.parallel import AnalysisProcesses

#: Seconds between two looks at the workers while the next game in order is not back.
POLL = 0.05


def _display(name: str) -> str:
    return "<stdin>" if name == "-" else name


def _figure(value: Any) -> str:
    """A loss or its error as the text says it: rounded to a tenth (unknown: a question mark,
    where no deal judged the move)."""
    return "?" if not isinstance(value, int | float) else str(round(value, 1))


def _text(number: int, stored: Stored, file: str | None) -> None:
    """A game's analysis for people, from what is stored: a fresh analysis and one from the
    store read the same."""
    data = stored.analysis
    accuracy = ", ".join(f"{printable(str(name))} {value:.1f}" for name, value in data["accuracy"].items())
    head = say(msg("game {number}: accuracy {accuracy}", number=number, accuracy=accuracy))
    if data.get("view") == "open cards":
        head += " " + say(msg("(open cards: judged with every card known, which no player knew)"))
    click.echo(head if file is None else f"{printable(file)}: {head}")
    marked = [(d, reason) for d, reason in zip(data["decisions"], stored.reasons, strict=True)
              if d.get("mark")]
    if not marked:
        click.echo("  " + say(msg("no move marked")))
    for d, reason in marked:
        click.echo("  " + say(msg("turn {turn}, {player}: {played}{glyph}, best {best}: "
                                  "{loss} points lost (± {error})",
                                  turn=d["turn"], player=printable(str(d["player"])),
                                  played=printable(str(d["played"])), glyph=GLYPHS.get(d["mark"], ""),
                                  best=d["best"], loss=_figure(d["loss"]), error=_figure(d["loss_error"]))))
        said = reason if reason is not None else d.get("reason")
        if said is not None:
            click.echo("    " + say(said))


class _Shown(Progress):
    """The progress line of ``lcn analyse`` (on a terminal only, as ``lcn validate``'s):
    games and decisions done, and the time so far."""

    def __init__(self, games: int, enabled: bool | None) -> None:
        super().__init__("lcn analyse", None, enabled=enabled)
        self.games = games
        self.games_done = 0
        #: Each game's decisions judged and to judge, as far as they are known.
        self.decisions: dict[int, tuple[int, int]] = {}

    def told(self, game: int, done: int, total: int) -> None:
        self.decisions[game] = (done, total)
        self.update(0, self.games_done)

    def line(self, position: int, games: int, elapsed: float) -> str:
        done = sum(d for d, _ in self.decisions.values())
        total = sum(t for _, t in self.decisions.values())
        minutes, seconds = divmod(int(elapsed), 60)
        return say(msg("{games} of {total_games} games, {done} of {decisions} decisions, {elapsed}",
                       games=games, total_games=self.games, done=done, decisions=total,
                       elapsed=f"{minutes}:{seconds:02d}"))


@dataclass
class _Game:
    """A game of the corpus on its way to the output."""

    file: str
    source: Path
    index: int
    #: The canonical text, for the search and the store; None for a game not searched.
    text: str | None = None
    #: Diagnostics of a record that breaks a rule, found as it was read (lines of its file).
    invalid: list[Diagnostic] = field(default_factory=list)
    outcome: AnalysisOutcome | None = None
    pending: Any = None


def _prepared(display: str, source: Path, index: int, record: lcn.GameRecord,
              budget: Budget, store: AnalysisCache | None) -> _Game:
    game = _Game(display, source, index)
    # Checked here, as the analysis checks it first: the diagnostics name the lines of the
    # file, where the canonical text a worker is sent would name its own.
    report = lcn.validate_record(record)
    game.invalid = [d for d in report.diagnostics if d.is_error]
    if game.invalid:
        return game
    game.text = canonical_text(record)
    stored = store.get(game.text, budget) if store is not None else None
    if stored is not None:
        game.outcome = ("analysis", stored)
    return game


@click.command("analyse")
@click.argument("files", nargs=-1, required=True, type=INPUT_PATH)
@click.option("--game", "game_no", type=click.IntRange(min=1), default=None,
              help="analyse only this game of each file (default: every game)")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="seed of the search: with --playouts the analysis is repeatable")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True, max=60.0), default=ANALYSIS_SECONDS,
              show_default=True, help="search time per decision")
@click.option("--playouts", type=click.IntRange(min=1, max=1_000_000), default=None,
              help="playouts per decision instead of a time (repeatable with --seed)")
@click.option("-j", "--jobs", type=click.IntRange(min=0, max=64), default=1, show_default=True,
              help="analyse on this many processes (0: one per core): the games of a corpus, or "
                   "the decisions of a single game; the same analysis with --playouts, sooner")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="analyse the games on a Dask cluster: 'local' starts one worker process per "
                   "core, tcp://host:8786 uses a running scheduler (the games are sent, no "
                   "shared file system is needed); needs the cluster extra")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False), default=None,
              help="keep analyses in this directory (default: $XDG_CACHE_HOME/lcn/analyses or "
                   "~/.cache/lcn/analyses): a game analysed again with the same engine, budget "
                   "and seed is not searched again")
@click.option("--no-cache", is_flag=True,
              help="search every game afresh and store nothing (an analysis with --seconds or "
                   "without --seed is not repeatable: the store gives the first one again)")
@click.option("--open-cards", is_flag=True,
              help="judge with every card known (classic's whole deal, Rivals' piles) rather than from what "
                   "each player knew: labelled as such, it says what the deal rewarded")
@click.option("--no-progress", is_flag=True,
              help="never show the progress line (shown on a terminal)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text for people, json for programs")
@_glob_option("analyse")
def analyse_command(files: tuple[str, ...], game_no: int | None, seed: int | None, seconds: float,
                    playouts: int | None, jobs: int, dask_address: str | None, cache_dir: str | None,
                    no_cache: bool, open_cards: bool, no_progress: bool, fmt: str, pattern: str) -> None:
    """Judge every decision of each game of FILES ('-' for standard input, a directory for
    its .lcn files) from what its player knew: best moves, marks, accuracy."""
    files = tuple(expand_inputs(files, pattern))
    refuse_jobs_with_dask(dask_address, jobs)
    if no_cache and cache_dir is not None:
        raise click.UsageError(say(msg("--cache and --no-cache exclude each other")))
    jobs = jobs_option_value(jobs)
    budget = Budget.of(seed=seed, seconds=seconds, playouts=playouts, open_cards=open_cards)
    store = None if no_cache else AnalysisCache(cache_dir)
    status = 0
    games: list[_Game] = []
    for name in files:
        display = _display(name)
        found = False
        try:
            source = open_source(name)
            for index, record in enumerate(reading(lcn.Reader(source), display), 1):
                if game_no is not None and index != game_no:
                    continue
                found = True
                games.append(_prepared(display, source, index, record, budget, store))
                if game_no is not None:
                    break
        except InputError as exc:
            click.echo(f"lcn: {exc.message}", err=True)
            status = 2
            continue
        if not found:
            click.echo("lcn: " + printable(say(msg("{name} has no game {game}", name=display,
                                                   game=game_no or 1))), err=True)
            status = 2
    status = max(status, _Run(games, budget, store, jobs, dask_address, fmt, len(files) > 1,
                              False if no_progress else None).run())
    sys.exit(status)


class _Run:
    """The analyses of the games read, given out in order as they come back."""

    def __init__(self, games: list[_Game], budget: Budget, store: AnalysisCache | None, jobs: int,
                 dask_address: str | None, fmt: str, several: bool, shown: bool | None) -> None:
        self.games, self.budget, self.store, self.jobs = games, budget, store, jobs
        self.dask_address, self.fmt, self.several = dask_address, fmt, several
        self.progress = _Shown(len(games), shown)
        self.entries: list[dict[str, Any]] = []
        self.status = 0
        self.unstored: str | None = None

    def run(self) -> int:
        searched = [game for game in self.games if game.text is not None and game.outcome is None]
        cluster: Cluster | None = None
        processes: AnalysisProcesses | None = None
        pool: Any = None
        _Interrupts.watch(self.dask_address is not None or (self.jobs > 1 and len(searched) > 1))
        try:
            if self.dask_address is not None and searched:
                cluster = connect_cluster(self.dask_address)
                pool = cluster.workers()
            elif self.jobs > 1 and len(searched) > 1:
                from lcn.parallel import AnalysisProcesses

                pool = processes = AnalysisProcesses(min(self.jobs, len(searched)))
            if pool is not None:
                for game in searched:
                    game.pending = pool.submit_analysis(id(game), game.text, self.budget.seed,
                                                        self.budget.seconds, self.budget.playouts,
                                                        self.budget.open_cards)
            for game in self.games:
                self._finish(game, processes)
                self._give_out(game)
                _Interrupts.check()
        finally:
            self.progress.clear()
            with _Interrupts.held():
                if processes is not None:
                    processes.stop()
                if cluster is not None:
                    cluster.close()
            _Interrupts.unwatch()
        _Interrupts.check()
        if pool is not None and getattr(pool, "lost", None):
            click.echo("lcn: " + say(msg("the Dask cluster was lost in the middle of the run: the rest "
                                         "was analysed in this process")), err=True)
        if self.unstored is not None:
            click.echo("lcn: " + printable(say(msg("analyses not stored: {reason}",
                                                   reason=self.unstored))), err=True)
        if self.fmt == "json":
            click.echo(json.dumps({"games": self.entries}, ensure_ascii=True, indent=2))
        return self.status

    def _finish(self, game: _Game, processes: AnalysisProcesses | None) -> None:
        """Wait for the game's outcome (or make it here), and store a new analysis."""
        if game.text is None or game.outcome is not None:  # not valid, or from the store
            self.progress.games_done += 1
            if game.outcome is not None:
                count = len(game.outcome[1].analysis["decisions"])
                self.progress.told(id(game), count, count)
            return
        outcome: AnalysisOutcome | None = None
        if game.pending is not None:
            while not game.pending.done():
                if processes is not None:
                    for number, done, total in processes.reports():
                        self.progress.told(number, done, total)
                self.progress.update(0, self.progress.games_done)
                _Interrupts.check()
                time.sleep(POLL)
            with contextlib.suppress(BrokenProcessPool):  # a worker or the cluster lost: done here
                outcome = game.pending.result()
            game.pending = None
        if outcome is None:
            told: Callable[[int, int, int], None] = self.progress.told
            outcome = analyse_text(game.text, self.budget.seed, self.budget.seconds, self.budget.playouts,
                                   game=id(game), jobs=self.jobs if self.dask_address is None else 1,
                                   progress=told, open_cards=self.budget.open_cards)
        game.outcome = outcome
        self.progress.games_done += 1
        if outcome[0] == "analysis":
            stored: Stored = outcome[1]
            count = len(stored.analysis["decisions"])
            self.progress.told(id(game), count, max(count, self.progress.decisions.get(id(game), (0, 0))[1]))
            if self.store is not None and self.unstored is None:
                try:
                    self.store.put(game.text, self.budget, stored)
                except OSError as exc:  # the analyses are given all the same, and said once
                    self.unstored = f"{self.store.directory}: {exc.strerror or exc}"

    def _give_out(self, game: _Game) -> None:
        self.progress.clear()
        entry: dict[str, Any] = {"game": game.index}
        if self.several:
            entry["file"] = game.file
        outcome = game.outcome
        if game.invalid or (outcome is not None and outcome[0] == "invalid"):
            self.status = max(self.status, 1)
            if game.invalid:
                diagnostics = game.invalid
                show_invalid(diagnostics, game.file, game.source, "text")
            else:  # found only by the worker, on the canonical text: no source lines to show
                assert outcome is not None
                diagnostics = _unpack_diagnostics(outcome[1])
                for d in diagnostics:
                    click.echo(render_diagnostic(d, game.file, {}, False), err=True)
            self.entries.append({**entry, "error": "the record is not valid",
                                 "diagnostics": [d.to_json() for d in diagnostics]})
            return
        assert outcome is not None
        if outcome[0] == "refused":
            self.status = 2
            reason = outcome[1]
            click.echo("lcn: " + printable(say(msg("{name}, game {game}: {error}", name=game.file,
                                                   game=game.index, error=reason))), err=True)
            self.entries.append({**entry, "error": str(reason),
                                 "diagnostics": [d.to_json() for d in refusal(NotAnalysable(reason))]})
            return
        stored = outcome[1]
        if self.fmt == "text":
            _text(game.index, stored, game.file if self.several else None)
        self.entries.append({**entry, **stored.analysis})


COMMANDS = [analyse_command]

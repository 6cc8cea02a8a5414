"""``lcn analyse``: every decision of a game judged from what the deciding player knew.

A thin shell over :func:`lcn.analysis.analyse`: it reads the games, asks the library and prints
the marked moves with the best move for people, or the whole analysis as JSON for programs.
Exit status 0 when every game was analysed, 1 when a game breaks a rule (its diagnostics are
printed and it is not analysed), 2 for usage and input errors and games that cannot be judged.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

import lcn
from lcn.analysis import ANALYSIS_SECONDS, GLYPHS, Analysis, NotAnalysable, analyse
from lcn.messages import msg
from lcn.moves import InvalidRecord

from .io import INPUT_PATH, InputError, jobs_option_value, open_source, printable, reading, say
from .moves import show_invalid


def _display(name: str) -> str:
    return "<stdin>" if name == "-" else name


def _text(number: int, analysis: Analysis) -> None:
    accuracy = ", ".join(f"{printable(name)} {value:.1f}" for name, value in analysis.accuracy.items())
    click.echo(say(msg("game {number}: accuracy {accuracy}", number=number, accuracy=accuracy)))
    marked = [d for d in analysis.decisions if d.mark]
    if not marked:
        click.echo("  " + say(msg("no move marked")))
    for d in marked:
        click.echo("  " + say(msg("turn {turn}, {player}: {played}{glyph}, best {best}: "
                                  "{loss} points lost (± {error})",
                                  turn=d.turn, player=printable(d.player), played=printable(d.played),
                                  glyph=GLYPHS[d.mark or ""], best=d.best, loss=round(d.loss, 1),
                                  error=round(d.loss_error, 1))))
        if d.reason is not None:
            click.echo("    " + say(d.reason))


@click.command("analyse")
@click.argument("file", type=INPUT_PATH)
@click.option("--game", "game_no", type=click.IntRange(min=1), default=None,
              help="analyse only this game of the file (default: every game)")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="seed of the search: with --playouts the analysis is repeatable")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True, max=60.0), default=ANALYSIS_SECONDS,
              show_default=True, help="search time per decision")
@click.option("--playouts", type=click.IntRange(min=1, max=1_000_000), default=None,
              help="playouts per decision instead of a time (repeatable with --seed)")
@click.option("-j", "--jobs", type=click.IntRange(min=0, max=64), default=1, show_default=True,
              help="judge a game's decisions on this many processes (0: one per core): the "
                   "same analysis with --playouts, sooner")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text for people, json for programs")
def analyse_command(file: str, game_no: int | None, seed: int | None, seconds: float,
                    playouts: int | None, jobs: int, fmt: str) -> None:
    """Judge every decision of each game from what its player knew: best moves, marks, accuracy."""
    display = _display(file)
    source = open_source(file)
    games: list[dict[str, Any]] = []
    failed = False
    found = False
    for index, record in enumerate(reading(lcn.Reader(source), display), 1):
        if game_no is not None and index != game_no:
            continue
        found = True
        progress = None
        if sys.stderr.isatty():
            def progress(done: int, total: int, index: int = index) -> None:
                click.echo(f"\rgame {index}: {done}/{total}", err=True, nl=done == total)
        try:
            result = analyse(record, seed=seed, seconds=seconds, playouts=playouts, progress=progress,
                             jobs=jobs_option_value(jobs))
        except InvalidRecord as exc:
            failed = True
            show_invalid(exc.diagnostics, display, source, "text")
            games.append({"game": index, "error": "the record is not valid",
                          "diagnostics": [d.to_json() for d in exc.diagnostics]})
            continue
        except NotAnalysable as exc:
            raise InputError(msg("{name}, game {game}: {error}", name=display, game=index,
                                 error=str(exc))) from exc
        if fmt == "text":
            _text(index, result)
        games.append({"game": index, **result.to_json()})
    if not found:
        raise InputError(msg("{name} has no game {game}", name=display, game=game_no or 1))
    if fmt == "json":
        click.echo(json.dumps({"games": games}, ensure_ascii=True, indent=2))
    if failed:
        sys.exit(1)


COMMANDS = [analyse_command]

"""``lcn moves``: the legal continuations of a game, for a person, a recorder or a bot.

A thin shell over :func:`lcn.legal_moves`: it reads the game, asks the library and prints
the moves (one per line with their labels, or the JSON of ``POST /api/v1/moves``). Exit
status 0 with the moves, 1 when the record up to that point breaks a rule (its diagnostics
are printed), 2 for usage and input errors.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

import lcn
from lcn.messages import msg
from lcn.moves import InvalidRecord

from .io import (
    INPUT_PATH,
    InputError,
    SourceLines,
    open_source,
    printable,
    reading,
    render_diagnostic,
    say,
)


def _display(name: str) -> str:
    return "<stdin>" if name == "-" else name


@click.command("moves")
@click.argument("file", type=INPUT_PATH)
@click.option("--game", "game_no", type=click.IntRange(min=1), default=1, show_default=True,
              help="which game of the file")
@click.option("--turn", type=click.IntRange(min=1), default=None,
              help="the moves of this turn (the turns before it stand); default: the next turn")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True,
              help="text for people, json for programs (as POST /api/v1/moves answers)")
def moves(file: str, game_no: int, turn: int | None, fmt: str) -> None:
    """List the moves that may come next in a game, as LCN words with labels."""
    display = _display(file)
    source = open_source(file)
    record = None
    for index, candidate in enumerate(reading(lcn.Reader(source), display), 1):
        if index == game_no:
            record = candidate
            break
    if record is None:
        raise InputError(msg("{name} has no game {game}", name=display, game=game_no))
    if turn is not None and turn > len(record.turns) + 1:
        raise click.BadParameter(say(msg("the game has {count} turns, so its positions are turns "
                                         "1-{last}", count=len(record.turns),
                                         last=len(record.turns) + 1)), param_hint="--turn")
    try:
        position = lcn.legal_moves(record, turn=turn)
    except InvalidRecord as exc:
        show_invalid(exc.diagnostics, display, source, fmt)
        sys.exit(1)
    except ValueError as exc:
        raise InputError(msg("{name}: {error}",
                             name=display, error=exc.args[0] if exc.args else str(exc))) from exc
    if fmt == "json":
        click.echo(json.dumps(position.to_json(), ensure_ascii=True, indent=2))
        return
    if position.over:
        click.echo(say(msg("turn {turn}: the game is over", turn=position.turn)))
        return
    player = printable(position.player or "")
    count = len(position.moves)
    click.echo(say(msg("turn {turn}: {player} to move, {count} move", turn=position.turn,
                       player=player, count=count) if count == 1 else
                   msg("turn {turn}: {player} to move, {count} moves", turn=position.turn,
                       player=player, count=count)))
    width = max((len(move.lcn) for move in position.moves), default=0)
    for move in position.moves:
        click.echo(f"  {move.lcn:<{width}}  {printable(say(move.label))}")


def show_invalid(diagnostics: list[lcn.Diagnostic], display: str, source: Path, fmt: str) -> None:
    if fmt == "json":
        click.echo(json.dumps({"error": "the record is not valid up to that turn",
                               "diagnostics": [d.to_json() for d in diagnostics]},
                              ensure_ascii=True, indent=2))
        return
    lines = SourceLines(source)
    try:
        shown = lines.get(d.line for d in diagnostics if d.line)
        for d in diagnostics:
            click.echo(render_diagnostic(d, display, shown, False), err=True)
    finally:
        lines.close()


COMMANDS = [moves]

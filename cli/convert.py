"""``lcn convert``: games from play-site logs and engines to LCN, JSON and back.

A thin shell over ``lcn.importers``: read each file, detect or take its format, write the
games in the output format, and report on standard error what could not be carried over
and what the official rules say about each game.

Exit status: 0 when every game converted and is valid; 1 when an input cannot be converted,
a game cannot be written in the output format, or an imported game breaks the rules (it is
still written, with the problems on standard error); 2 for usage and file errors, for an
input larger than ``lcn.importers.MAX_INPUT`` (4 MiB), refused while it is read, and for one
past the importers' bounds on structure (``InputTooComplex``: an e-mail of thousands of
nested parts).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from lcn.diagnostics import Diagnostic
from lcn.importers import (
    DetectionError,
    ImportError_,
    InputTooComplex,
    InputTooLarge,
    export_records,
    formats,
    get_importer,
    import_each,
    output_formats,
    read_limited,
)
from lcn.messages import msg
from lcn.model import GameRecord

from .io import INPUT_PATH, InputError, render_diagnostic, say, source_lines, write_atomically


def _read(name: str) -> bytes:
    """The bytes of one input, up to the importers' limit (MAX_INPUT), read in pieces.

    An input over the limit is a file error (exit 2) found while reading: ``lcn convert
    /dev/zero`` stops after MAX_INPUT bytes instead of filling the memory.
    """
    display = "<stdin>" if name == "-" else name
    try:
        if name == "-":
            return read_limited(sys.stdin.buffer)
        path = Path(name)
        if path.is_dir():
            raise InputError(msg("cannot read '{name}': it is a directory", name=name))
        with path.open("rb") as stream:
            return read_limited(stream)
    except InputTooLarge as exc:
        raise InputError(msg("'{display}' is too large: {message}",
                             display=display, message=exc.message)) from None
    except OSError as exc:
        raise InputError(msg("cannot read '{display}': {reason}",
                             display=display, reason=exc.strerror or exc)) from exc


def _show(diagnostics: list[Diagnostic], display: str, data: bytes, quiet: bool) -> None:
    shown = [d for d in diagnostics if d.is_error or not quiet]
    if not shown:
        return
    lines = source_lines(data, (d.line for d in shown if d.line))
    for d in shown:
        game = d.extra.get("game")
        place = display if d.line is not None or game is None else f"{display} (game {game})"
        click.echo(render_diagnostic(d, place, lines, False), err=True)


@click.command()
@click.argument("files", nargs=-1, required=True, type=INPUT_PATH)
@click.option("--from", "source_format", type=click.Choice([n for n, _ in formats()]),
              default=None, help="the input format (detected when left out)")
@click.option("--to", "target_format", type=click.Choice([n for n, _ in output_formats()]),
              default="lcn", show_default=True, help="the output format")
@click.option("-o", "--output", default="-", show_default=True,
              help="where to write the games ('-': standard output)")
@click.option("-q", "--quiet", is_flag=True, help="report only errors, not notes and warnings")
def convert(files: tuple[str, ...], source_format: str | None, target_format: str, output: str,
            quiet: bool) -> None:
    """Convert game logs in FILES ('-' for standard input) to another format.

    Reads LCN, LCN JSON, OpenSpiel lost_cities histories, Metapyziks game strings, brdg.me
    logs and commands, and narrated logs (English or German); writes lcn, json, metapyziks
    (games with their whole deal) or text (the narrated form). Every imported game is
    checked under the official rules; its problems go to standard error.
    """
    # Each game is written (or, for a format of one document, kept) as soon as it is read
    # and checked: its record and report are dropped then, so that a file of thousands of
    # long games takes memory for its text, not for all its games at once.
    exporter = get_importer(target_format)
    chunks: list[str] = []
    records: list[GameRecord] = []
    problems: list[Diagnostic] = []
    written = 0
    status = 0
    for name in files:
        display = "<stdin>" if name == "-" else name
        data = _read(name)
        try:
            stream = import_each(data, source_format)
        except ImportError_ as exc:
            # Past a bound on its structure, an input is refused as a file too large is.
            status = max(status, 2 if isinstance(exc, InputTooComplex) else 1)
            if exc.diagnostics:
                _show(exc.diagnostics, display, data, quiet=False)
                count = len(exc.diagnostics)
                unsure = isinstance(exc, DetectionError) and bool(exc.format)
                if unsure:
                    said = msg("{name}: not in any format known here for certain; cannot be read "
                               "as {format} ({count} problem); nothing converted", name=display,
                               format=exc.format, count=count) if count == 1 else \
                        msg("{name}: not in any format known here for certain; cannot be read as "
                            "{format} ({count} problems); nothing converted", name=display,
                            format=exc.format, count=count)
                elif exc.format:
                    said = msg("{name}: cannot be read as {format} ({count} problem); nothing "
                               "converted", name=display, format=exc.format, count=count) \
                        if count == 1 else \
                        msg("{name}: cannot be read as {format} ({count} problems); nothing "
                            "converted", name=display, format=exc.format, count=count)
                else:
                    said = msg("{name}: cannot be read ({count} problem); nothing converted",
                               name=display, count=count) if count == 1 else \
                        msg("{name}: cannot be read ({count} problems); nothing converted",
                            name=display, count=count)
                click.echo("lcn: " + say(said), err=True)
            else:
                click.echo(f"lcn: {display}: {say(exc.message)}", err=True)
            continue
        diagnostics = list(stream.diagnostics)
        count = invalid = 0
        for game in stream.games:
            count += 1
            invalid += not game.report.valid
            diagnostics.extend(game.diagnostics)
            if exporter.streams:
                text = exporter.write_one(game.record, written + count)
                if isinstance(text, str):
                    chunks.append(text)
                else:
                    problems.append(text)
            else:
                records.append(game.record)
        written += count
        _show(diagnostics, display, data, quiet)
        if any(d.is_error for d in diagnostics):
            status = max(status, 1)
        if not quiet or invalid:
            note = msg(", {count} with errors", count=invalid) if invalid else ""
            said = msg("{name}: {count} game read as {format}{note}", name=display, count=count,
                       format=stream.format, note=note) if count == 1 else \
                msg("{name}: {count} games read as {format}{note}", name=display, count=count,
                    format=stream.format, note=note)
            click.echo(say(said), err=True)
    if not written:
        sys.exit(status or 1)
    if exporter.streams:
        text = exporter.join(chunks)
    else:
        exported = export_records(records, target_format)
        text, problems = exported.text, exported.diagnostics
    for d in problems:
        click.echo(f"lcn: {say(d.message)}", err=True)
    if any(d.is_error for d in problems):
        status = max(status, 1)
    if output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            write_atomically(Path(output), text)
        except OSError as exc:
            raise InputError(msg("cannot write '{output}': {reason}",
                                 output=output, reason=exc.strerror or exc)) from exc
    sys.exit(status)


COMMANDS = [convert]

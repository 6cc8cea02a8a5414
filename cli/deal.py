"""``lcn deal``: publish a classic game without revealing the deal.

A full record (``Hand1``, ``Hand2``, ``Deck``) shows every card each player held. This
command writes the same games as one player saw them (their own hand and draws) or as a
spectator did (no hidden card at all), with
:func:`lcn.variants.classic_play.strip_deal`; the validator still checks the result
(``docs/hidden-information.md``).
"""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path
from typing import IO

import click

import lcn
from lcn.messages import msg
from lcn.validate import validate_record
from lcn.variants.classic_play import strip_deal

from .io import (
    INPUT_PATH,
    AtomicFile,
    InputError,
    OutputError,
    SourceLines,
    open_source,
    printable,
    reading,
    render_diagnostic,
    say,
)


def _display(name: str) -> str:
    return "<stdin>" if name == "-" else name


@click.command("deal")
@click.argument("file", type=INPUT_PATH)
@click.option("--keep", type=click.Choice(["1", "2", "none"]), default="none", show_default=True,
              help="whose view to keep: Player1's or Player2's hand and draws, or none")
@click.option("-o", "--output", "output", default="-", show_default=True,
              help="where to write the games ('-': standard output)")
def deal(file: str, keep: str, output: str) -> None:
    """Strip the deal from the classic games of FILE ('-' for standard input).

    Removes the Hand1, Hand2 and Deck tags and the cards named by draws from the draw pile
    (`/d=R5` becomes `/d`). With --keep 1 or 2 that player's view stays: their Hand tag and
    their draws written with the card. The games must be valid classic records that carry
    the deal to strip; if one is not, every problem is reported and nothing is written.
    """
    display = printable(_display(file))
    seat = None if keep == "none" else int(keep) - 1
    source = open_source(file)
    # The games stream through, each stripped as it is read, into a file beside the output
    # (or a temporary one for standard output): nothing is written unless every game can be
    # stripped, and a file of any size takes bounded memory.
    replacement: AtomicFile | None = None
    if output != "-":
        path = Path(output)
        if path.is_dir():
            raise InputError(msg("cannot write '{output}': it is a directory", output=output))
        try:
            replacement = AtomicFile(path)
        except OSError as exc:
            raise InputError(msg("cannot write '{output}': {reason}",
                                 output=output, reason=exc.strerror or exc)) from exc
        out: IO[bytes] = replacement.handle
    else:
        out = tempfile.TemporaryFile()  # noqa: SIM115 - closed below
    try:
        count = _strip_all(source, display, seat, out,
                           "a temporary file" if output == "-" else f"'{output}'")
        if count is None:
            click.echo("lcn: " + say(msg("{name}: nothing written", name=display)), err=True)
            sys.exit(1)
        if replacement is None:
            out.seek(0)
            for text in io.TextIOWrapper(out, encoding="utf-8", newline=""):
                sys.stdout.write(text)
            return
        try:
            replacement.commit()
        except OSError as exc:
            raise InputError(msg("cannot write '{output}': {reason}",
                                 output=output, reason=exc.strerror or exc)) from exc
        click.echo(say(msg("{name}: {count} game written", name=printable(output), count=count)
                       if count == 1 else
                       msg("{name}: {count} games written", name=printable(output), count=count)),
                   err=True)
    finally:
        if replacement is not None:
            replacement.discard()
        else:
            out.close()


def _strip_all(source: bytes | Path, display: str, seat: int | None, out: IO[bytes],
               where: str) -> int | None:
    """Strip every game of a source into ``out``; the number of games, or None when one fails
    (every problem is reported on standard error). A source that fails midway raises
    :class:`InputError`, an output that cannot be written (``where``) :class:`OutputError`."""
    reader = lcn.Reader(source)
    lines = SourceLines(source)
    failed = unreadable = False
    count = 0
    try:
        for index, record in enumerate(reading(reader, display), 1):
            where = say(msg("{name}: game {index} (line {line})", name=display, index=index,
                            line=record.line))
            errors = [d for d in record.diagnostics if d.is_error]
            if errors:
                _report(errors, display, lines)
                failed = unreadable = True
                continue
            if record.variant_name != "classic":
                click.echo("lcn: " + say(msg("{where}: a {variant} game has no hidden deal to strip "
                                             "(only classic records do)", where=where,
                                             variant=printable(record.variant_name))), err=True)
                failed = True
                continue
            report = validate_record(record, index)
            errors = [d for d in report.diagnostics if d.is_error]
            if errors:
                _report(errors, display, lines)
                click.echo("lcn: " + say(msg("{where}: not a valid record; fix it before stripping "
                                             "its deal", where=where)), err=True)
                failed = True
                continue
            try:
                stripped = strip_deal(record, seat)
            except ValueError as exc:
                click.echo(f"lcn: {where}: {printable(str(exc))}", err=True)
                failed = True
                continue
            if not failed:
                try:
                    out.write((b"\n" if count else b"") + lcn.write_game(stripped).encode("utf-8"))
                except OSError as exc:
                    raise OutputError(msg("cannot write {where}: {reason}",
                                          where=where, reason=exc.strerror or exc)) from exc
                count += 1
        if reader.file_diagnostics:
            _report(reader.file_diagnostics, display, lines)
            failed = unreadable = True
    finally:
        lines.close()
    if unreadable:
        click.echo("lcn: " + say(msg("{name}: the file cannot be read completely", name=display)),
                   err=True)
    return None if failed else count


def _report(diagnostics: list[lcn.Diagnostic], display: str, lines: SourceLines) -> None:
    shown = lines.get(d.line for d in diagnostics if d.line)
    for d in diagnostics:
        click.echo(render_diagnostic(d, display, shown, False), err=True)

COMMANDS = [deal]

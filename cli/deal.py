"""``lcn deal``: publish a classic game without revealing the deal.

A full record (``Hand1``, ``Hand2``, ``Deck``) shows every card each player held. This
command writes the same games as one player saw them (their own hand and draws) or as a
spectator did (no hidden card at all), with
:func:`lcn.variants.classic_play.strip_deal`; the validator still checks the result
(``docs/hidden-information.md``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

import lcn
from lcn.validate import validate_record
from lcn.variants.classic_play import strip_deal

from .io import InputError, open_source, render_diagnostic, source_lines, write_atomically


def _display(name: str) -> str:
    return "<stdin>" if name == "-" else name


@click.command("deal")
@click.argument("file")
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
    display = _display(file)
    seat = None if keep == "none" else int(keep) - 1
    source = open_source(file)
    reader = lcn.Reader(source)
    records = list(reader)
    failed = False
    problems = [d for r in records for d in r.diagnostics if d.is_error] + reader.file_diagnostics
    if problems:
        lines = source_lines(source, (d.line for d in problems if d.line))
        for d in problems:
            click.echo(render_diagnostic(d, display, lines, False), err=True)
        click.echo(f"lcn: {display}: the file cannot be read completely; nothing written",
                   err=True)
        sys.exit(1)
    stripped = []
    for index, record in enumerate(records, 1):
        where = f"{display}: game {index} (line {record.line})"
        if record.variant_name != "classic":
            click.echo(f"lcn: {where}: a {record.variant_name} game has no hidden deal to strip "
                       "(only classic records do)", err=True)
            failed = True
            continue
        report = validate_record(record, index)
        errors = [d for d in report.diagnostics if d.is_error]
        if errors:
            lines = source_lines(source, (d.line for d in errors if d.line))
            for d in errors:
                click.echo(render_diagnostic(d, display, lines, False), err=True)
            click.echo(f"lcn: {where}: not a valid record; fix it before stripping its deal",
                       err=True)
            failed = True
            continue
        try:
            stripped.append(strip_deal(record, seat))
        except ValueError as exc:
            click.echo(f"lcn: {where}: {exc}", err=True)
            failed = True
    if failed:
        click.echo(f"lcn: {display}: nothing written", err=True)
        sys.exit(1)
    text = lcn.write_games(stripped) or ""
    if output == "-":
        sys.stdout.write(text)
        return
    path = Path(output)
    if path.is_dir():
        raise InputError(f"cannot write '{output}': it is a directory")
    try:
        write_atomically(path, text)
    except OSError as exc:
        raise InputError(f"cannot write '{output}': {exc.strerror or exc}") from exc
    count = len(stripped)
    click.echo(f"{output}: {count} game{'s' if count != 1 else ''} written", err=True)


COMMANDS = [deal]

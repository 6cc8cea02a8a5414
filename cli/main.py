"""``lcn``: validate, score, format and show Lost Cities records.

Exit status: 0 when every game is valid (or canonical, for ``fmt --check``), 1 when a game
is not, 2 for usage and input errors.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import shlex
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, ClassVar, TypeVar

import click

import lcn
from lcn.messages import language_from_environment, msg
from lcn.parallel import FileChanged, FileRuns, ParallelRun
from lcn.validate import GameReport, MatchChecks, ValidationRun

from .io import (
    DEFAULT_GLOB,
    INPUT_PATH,
    AtomicFile,
    ChangedWhileRead,
    InputError,
    OutputError,
    SourceLines,
    StdinStream,
    StdoutFailed,
    abandon_stdout,
    expand_inputs,
    jobs_option_value,
    json_text,
    open_input,
    open_source,
    printable,
    reading,
    render_diagnostic,
    say,
    source_lines,
    watch_stdout,
)
from .progress import Progress, TrackedRun

if TYPE_CHECKING:
    from lcn.cluster import Cluster
    from lcn.parallel import SentReport

FORMATS = click.Choice(["text", "json"])
_F = TypeVar("_F", bound=Callable[..., Any])


def _glob_option(verb: str) -> Callable[[_F], _F]:
    return click.option("--glob", "pattern", default=DEFAULT_GLOB, show_default=True,
                        help=f"the files to {verb} in a directory given as FILES "
                             "(searched at every depth, in sorted order)")


class _Command(click.Command):
    """A command of ``lcn`` whose parser matches a short option (``-q``, ``-j2``) at once.

    Click's parser tries every option as a long one first. A short option fails that match
    with ``NoSuchOption``, whose "did you mean" suggestions import ``difflib`` and compare
    the option with every long one (about 2 ms, in a command run once per file by
    scripts), only for the exception to be dropped and the short option matched. Here the
    long match is skipped exactly when it would fail and the short match follow: an option
    that is not a long one, without the prefix of a long one, and no name normalisation.
    Options, values and errors are click's own; the parser's internals this relies on are
    checked first, and without them the parser is click's as it is.
    """

    def make_parser(self, ctx: click.Context) -> Any:
        parser = super().make_parser(ctx)
        long_options = getattr(parser, "_long_opt", None)
        prefixes = getattr(parser, "_opt_prefixes", None)
        process = getattr(parser, "_process_opts", None)
        match_short = getattr(parser, "_match_short_opt", None)
        if ctx.token_normalize_func is not None or not isinstance(long_options, dict) \
                or not isinstance(prefixes, set) or process is None or match_short is None:
            return parser

        def process_options(arg: str, state: Any) -> None:
            if arg[:2] not in prefixes and arg.partition("=")[0] not in long_options:
                match_short(arg, state)
            else:
                process(arg, state)

        parser._process_opts = process_options  # type: ignore[method-assign]
        return parser


class _Commands(click.Group):
    """The ``lcn`` group: the commands of other modules are imported when they are called.

    ``lcn validate`` is run once per file by scripts over many files: it does not pay for
    the importers, the web server or the play code that other commands need.
    """

    #: Command names and the modules of this package that define them (in ``COMMANDS``).
    lazy: ClassVar[dict[str, str]] = {"deal": "deal", "convert": "convert", "serve": "serve",
                                      "db": "db", "moves": "moves", "analyse": "analyse",
                                      "worker": "worker"}
    command_class = _Command

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module = importlib.import_module(f"lcn_cli.{self.lazy[cmd_name]}")
            for command in module.COMMANDS:
                self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        # Click answers Ctrl-C with "Aborted!" and status 1, which says a game is invalid;
        # the command's own cleanup (its workers stopped, its cluster closed) has run when
        # the interrupt gets here, and the entry point says it in its own words.
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None


class Interrupted(BaseException):
    """Ctrl-C, past click (which catches ``KeyboardInterrupt`` and ``Exception``): exit 130."""


class _Interrupts:
    """Ctrl-C during ``lcn validate`` with workers or a cluster.

    Python raises ``KeyboardInterrupt`` wherever the main thread is when the signal comes:
    inside a callback of the garbage collector (Dask has one) it is reported as "Exception
    ignored" and lost, and the run would go on to the end with status 0. The handler here
    notes it too, and the command looks at the note after every game and at the end.
    """

    noted = False
    _raising = True
    _before: Any = None

    @classmethod
    def watch(cls, handle: bool) -> None:
        """Start with nothing noted; with ``handle``, take SIGINT until :meth:`unwatch`."""
        cls.noted, cls._raising = False, True
        if handle and threading.current_thread() is threading.main_thread():
            import signal  # only with workers: a run of one job does not pay for it

            cls._before = signal.signal(signal.SIGINT, cls._note)

    @classmethod
    def unwatch(cls) -> None:
        """Put back the handler of before (a caller of the command in-process keeps its own)."""
        if cls._before is not None and threading.current_thread() is threading.main_thread():
            import signal

            signal.signal(signal.SIGINT, cls._before)
            cls._before = None

    @classmethod
    def _note(cls, _signum: int, _frame: Any) -> None:
        cls.noted = True
        if cls._raising:
            raise KeyboardInterrupt

    @classmethod
    def check(cls) -> None:
        if cls.noted:
            cls.noted = False
            raise KeyboardInterrupt

    @classmethod
    @contextlib.contextmanager
    def held(cls) -> Iterator[None]:
        """Ctrl-C only noted meanwhile (stopping the workers is not itself interrupted)."""
        raising, cls._raising = cls._raising, False
        try:
            yield
        finally:
            cls._raising = raising


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    # Click's own version option takes the version when the command is defined; this one
    # asks for it only when --version is given, so no other command pays for reading the
    # installed metadata (lcn.__version__ is worked out on first use).
    if not value or ctx.resilient_parsing:
        return
    click.echo(f"lcn, version {lcn.__version__}", color=ctx.color)
    ctx.exit()


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version, help="Show the version and exit.")
def cli() -> None:
    """Lost Cities Notation: validate, score, format and show game records."""


def _json_dumps(data: Any, **options: Any) -> str:
    """``json.dumps``, its module imported on first use: ``lcn validate`` in text form,
    run once per file by scripts, does not pay for it."""
    import json

    return json.dumps(data, **options)


def _display_name(name: str) -> str:
    return "<stdin>" if name == "-" else name


def _game_title(report: GameReport | SentReport) -> str:
    players = printable(" vs ".join(report.players) or say(msg("no players")))
    variant = printable(report.record.variant_name)
    return say(msg("game {index} ({variant}: {players}, line {line})", index=report.index,
                   variant=variant, players=players, line=report.record.line))


class _StreamedGames:
    """Writes ``{"games": [...], "files": [...], "summary": {...}}`` a game at a time.

    The text is the same as ``json.dumps(..., indent=2)`` of the whole document would give,
    but nothing waits for the end: memory stays bounded on a file of any size, and with
    several processes the writing goes on while they validate.
    """

    def __init__(self) -> None:
        self.count = 0

    def game(self, entry: dict[str, Any]) -> None:
        # A JSON string holds no raw line break, so every line break is between values.
        text = json_text(_json_dumps(entry, ensure_ascii=False, indent=2)).replace("\n", "\n    ")
        click.echo(('{\n  "games": [\n    ' if not self.count else ",\n    ") + text, nl=False)
        self.count += 1

    def finish(self, rest: dict[str, Any]) -> None:
        tail = json_text(_json_dumps(rest, ensure_ascii=False, indent=2))
        click.echo(('{\n  "games": []' if not self.count else "\n  ]") + "," + tail[1:])


def _dump(data: Any) -> None:
    click.echo(json_text(_json_dumps(data, ensure_ascii=False, indent=2)))


def refuse_jobs_with_dask(dask_address: str | None, jobs: int) -> None:
    """``--jobs`` and ``--dask`` of a command: the cluster's workers are its processes."""
    if dask_address is not None and jobs != 1:
        raise click.UsageError("--jobs and --dask cannot be used together: --dask uses the "
                               "cluster's workers")


def connect_cluster(address: str) -> Cluster:
    """The cluster of ``--dask ADDRESS``; one that cannot be used is said in one line, and the
    command ends with status 2."""
    from lcn.cluster import ClusterError, connect  # Dask is imported only for --dask

    try:
        return connect(address, quiet=True)
    except ClusterError as exc:
        click.echo(f"lcn: {printable(str(exc))}", err=True)
        sys.exit(2)


@cli.command()
@click.argument("files", nargs=-1, required=True, type=INPUT_PATH)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "jsonl"]), default="text",
              show_default=True,
              help="text for people, json for programs; jsonl for pipelines: one line per "
                   "game as it is done, the object of json's \"games\" (with its file), the "
                   "problems of a file as a whole on standard error")
@click.option("-q", "--quiet", is_flag=True, help="print only the problems and the summary")
@click.option("--warnings/--no-warnings", default=True, show_default=True,
              help="show warnings as well as errors")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=1, show_default=True,
              help="validate with this many processes (0: one per core): the same output, "
                   "in the same order")
@click.option("--dask", "dask_address", metavar="ADDRESS",
              help="validate on a Dask cluster: 'local' starts one worker process per core, "
                   "tcp://host:8786 uses a running scheduler, whose workers read the files at "
                   "the same paths (a shared file system; else their bytes are sent); the same "
                   "output, in the same order; needs the cluster extra")
@click.option("--no-progress", is_flag=True,
              help="never show the progress line (shown on a terminal for long inputs)")
@_glob_option("validate")
def validate(files: tuple[str, ...], fmt: str, quiet: bool, warnings: bool, jobs: int,
             dask_address: str | None, no_progress: bool, pattern: str) -> None:
    """Check every game of FILES ('-' for standard input, a directory for its .lcn files)
    against the rules.

    Prints every problem like a compiler (file:line:column, the rule it breaks, the source
    line and a caret) and a summary per game. --format jsonl prints one JSON object per game,
    on its own line as soon as the game is done: the object of --format json's "games", with
    its "file" (for pipelines: jq, grep, a database load).
    """
    files = tuple(expand_inputs(files, pattern))
    refuse_jobs_with_dask(dask_address, jobs)
    jobs = jobs_option_value(jobs)
    matches = MatchChecks()  # a match may go on from one file to the next
    only_problems = quiet and fmt == "text"
    cluster = None
    pool = None
    file_runs = None
    _Interrupts.watch(jobs > 1 or dask_address is not None)
    try:
        if dask_address is not None:
            cluster = connect_cluster(dask_address)
            pool = cluster.workers()
            jobs = pool.count + 1
        # With several processes, one pool serves every file: small files are validated in
        # groups, big ones cut into parts, and each file's reports come here in turn. A
        # cluster's workers are such a pool.
        file_runs = FileRuns([None if name == "-" else name for name in files], jobs,
                             report_plain=not only_problems, matches=matches,
                             pool=pool) if jobs > 1 else None
        any_invalid, io_error = _validate_files(
            files, iter(file_runs) if file_runs is not None else None, fmt, quiet, warnings, jobs,
            no_progress, matches, only_problems)
        _Interrupts.check()
    finally:
        with _Interrupts.held():  # the workers and the cluster are stopped whole
            if file_runs is not None:
                file_runs.close()
            if cluster is not None:
                cluster.close()
        _Interrupts.unwatch()
    _Interrupts.check()  # one that came while they were stopped
    if pool is not None and pool.lost:
        click.echo(f"lcn: {printable(pool.lost)}", err=True)
    if io_error:
        sys.exit(2)
    sys.exit(1 if any_invalid else 0)


def _validate_files(files: tuple[str, ...], runs: Iterator[ParallelRun | None] | None, fmt: str,
                    quiet: bool, warnings: bool, jobs: int, no_progress: bool,
                    matches: MatchChecks, only_problems: bool) -> tuple[bool, bool]:
    """``lcn validate``'s output for every file, in order; whether a game or a file was not
    valid, and whether an input could not be read."""
    color = sys.stdout.isatty() and fmt == "text"
    games_json = _StreamedGames()
    files_json: list[dict[str, Any]] = []
    any_invalid = False
    io_error = changed = False
    total = valid_count = 0
    show_progress = False if no_progress else None
    if show_progress is None and not sys.stderr.isatty():
        show_progress = False  # looked at once, not for every file
    for name in files:
        display = _display_name(name)
        file_run = next(runs) if runs is not None else None
        source: Path | StdinStream
        if file_run is not None and file_run.read_already:
            # A small file already read by the runs: what could not be read is said as
            # open_input says it, without opening the file again.
            if file_run.error is not None:
                io_error = True
                if isinstance(file_run.error, FileChanged):
                    changed = True
                    click.echo(f"lcn: {ChangedWhileRead(name).message}", err=True)
                    continue
                click.echo("lcn: " + say(msg("cannot read '{name}': {reason}", name=name,
                                             reason=file_run.error.strerror or file_run.error)),
                           err=True)
                continue
            assert isinstance(file_run.source, Path)
            source = file_run.source
        else:
            try:
                source = open_input(name)
            except InputError as exc:
                io_error = True
                click.echo(f"lcn: {exc.message}", err=True)
                continue
        try:
            run = TrackedRun(source, jobs, only_problems=only_problems, matches=matches,
                             run=file_run)
        except OSError as exc:
            io_error = True
            click.echo("lcn: " + say(msg("cannot read '{display}': {reason}", display=display,
                                         reason=exc.strerror or str(exc))), err=True)
            continue
        progress = Progress(display, run.size, enabled=show_progress)
        run.on_counted = lambda games, run=run, progress=progress: progress.update(run.position, games)
        caret_lines = source if isinstance(source, StdinStream) else SourceLines(source)
        #: Another program's log read as LCN: said once, instead of its games' errors.
        foreign: lcn.Diagnostic | None = None
        file_valid = valid_count
        try:
            for report in reading(run, display):
                _Interrupts.check()
                progress.update(run.position, report.index)
                total += 1
                if report.valid:
                    valid_count += 1
                else:
                    any_invalid = True
                    if valid_count == file_valid and foreign is None and isinstance(source, Path):
                        foreign = _foreign_log(source, name)
                        if foreign is not None:
                            progress.clear()
                            if fmt == "text":
                                click.echo(render_diagnostic(foreign, display, {}, color))
                    if foreign is not None and valid_count == file_valid:
                        continue
                if fmt != "text":
                    entry = report.to_json()
                    entry["file"] = display
                    if "unchecked_from" in report.extra:
                        entry["unchecked_from"] = report.extra["unchecked_from"]
                    progress.clear()
                    if fmt == "json":
                        games_json.game(entry)
                    else:
                        click.echo(json_text(_json_dumps(entry, ensure_ascii=False)))
                    continue
                shown = [d for d in report.diagnostics if warnings or d.is_error]
                if shown or not quiet or not report.valid:
                    progress.clear()
                if shown:
                    lines = caret_lines.get(d.line for d in shown if d.line)
                    for d in shown:
                        click.echo(render_diagnostic(d, display, lines, color))
                if not quiet or not report.valid:
                    errors = sum(1 for d in report.diagnostics if d.is_error)
                    count = len(report.diagnostics) - errors
                    valid = say(msg("valid"))
                    verdict = click.style(valid, fg="green") if color else valid
                    if errors:
                        verdict = say(msg("{count} error", count=errors) if errors == 1
                                      else msg("{count} errors", count=errors))
                        verdict = click.style(verdict, fg="red") if color else verdict
                    note = ", " + say(msg("{count} warning", count=count) if count == 1
                                      else msg("{count} warnings", count=count)) \
                        if count and warnings else ""
                    if "unchecked_from" in report.extra:
                        note += "; " + say(msg("no rule checked from turn {turn} on, which cannot "
                                               "be read", turn=report.extra["unchecked_from"]))
                    click.echo(f"{printable(display)}: {_game_title(report)}: {verdict}{note}")
        except InputError as exc:  # an input failing midway: what came is reported
            io_error = True
            changed |= isinstance(exc, ChangedWhileRead)
            progress.clear()
            click.echo(f"lcn: {exc.message}", err=True)
        progress.clear()
        caret_lines.close()
        total += run.unreported  # valid games, without a word to print about them
        valid_count += run.unreported
        file_diags = run.file_diagnostics
        if foreign is not None:
            file_diags = [foreign, *file_diags]
            if fmt == "text":
                file_diags = file_diags[1:]  # said already, where the games would have been
        if file_diags:
            any_invalid = True
        if fmt == "json":
            files_json.append({"file": display, "diagnostics": [d.to_json() for d in file_diags]})
        else:
            for d in file_diags:
                click.echo(render_diagnostic(d, display, {}, color), err=fmt == "jsonl")
    if changed:
        # The games of a file that changed while it was read are of no one version: no
        # totals are given as though they were (the JSON document is still whole).
        if fmt == "json":
            games_json.finish({"files": files_json, "summary": None})
    elif fmt == "json":
        games_json.finish({"files": files_json, "summary": {
            "games": total, "valid": valid_count, "invalid": total - valid_count}})
    elif fmt == "text" and (total != 1 or quiet):
        click.echo(say(msg("{total} game: {valid} valid, {invalid} invalid", total=total,
                           valid=valid_count, invalid=total - valid_count) if total == 1
                       else msg("{total} games: {valid} valid, {invalid} invalid", total=total,
                                valid=valid_count, invalid=total - valid_count)))
    return any_invalid, io_error


def _foreign_log(path: Path, name: str) -> lcn.Diagnostic | None:
    """What to say of a file whose first game is not valid when it is another program's log
    (``lcn.importers.other_format``), or None when it reads as LCN with errors."""
    from lcn.importers import DETECTION_HEAD, formats, other_format  # only for a file in doubt

    try:
        with path.open("rb") as handle:
            found = other_format(handle.read(DETECTION_HEAD))
    except OSError:
        return None
    if found is None:
        return None
    fmt, score = found
    return lcn.Diagnostic("other-format", msg(
        "this is not LCN: it reads as {description} (`{format}`, confidence {score:.2f}), so its "
        "games are not checked here; `lcn convert {name}` turns it into LCN, and `lcn convert "
        "{name} | lcn validate -` checks its games", description=dict(formats())[fmt], format=fmt,
        score=score, name=shlex.quote(name)), lcn.Severity.ERROR, 1, 1, None, "LCN-FILE")


@cli.command()
@click.argument("files", nargs=-1, required=True, type=INPUT_PATH)
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True,
              help="text for people, json for programs")
@_glob_option("score")
def score(files: tuple[str, ...], fmt: str, pattern: str) -> None:
    """Score every game of FILES ('-' for standard input, a directory for its .lcn files):
    each player's expeditions, totals and match totals."""
    files = tuple(expand_inputs(files, pattern))
    games_json: list[dict[str, Any]] = []
    any_invalid = io_error = False
    matches = MatchChecks()  # a match may go on from one file to the next
    for name in files:
        display = _display_name(name)
        try:
            source = open_input(name)
        except InputError as exc:
            io_error = True
            click.echo(f"lcn: {exc.message}", err=True)
            continue
        # Every game's score sheet is printed: the full engine makes it as it validates
        # (the express check would leave it to be made by validating again).
        run = ValidationRun(source, matches=matches, express=False)
        try:
            for report in reading(run, display):
                any_invalid |= not report.valid
                players = report.players
                score_ = report.score
                if fmt == "json":
                    entry: dict[str, Any] = {
                        "index": report.index, "file": display, "players": players,
                        "scores": score_.totals if score_ else None,
                        "expeditions": score_.breakdown if score_ else None,
                        "details": score_.details if score_ else None,
                        "valid": report.valid, "over": report.over,
                        "variant": report.record.variant_name,
                    }
                    if "match" in report.extra:
                        entry["match"] = report.extra["match"]
                    games_json.append(entry)
                    continue
                click.echo(f"{printable(display)}: {_game_title(report)}")
                if score_ is None:
                    click.echo("  " + say(msg("cannot be scored: {reasons}", reasons=printable(
                        "; ".join(say(d.message) for d in report.diagnostics if d.is_error)))))
                    continue
                players = [printable(p) for p in players]
                parts = list(score_.breakdown[0]) if score_.breakdown else []
                width = max((len(p) for p in players), default=6) + 2
                total_word = say(msg("total"))  # outside the f-string, where Babel finds it
                click.echo("  " + " " * width + "".join(f"{p:>6}" for p in parts)
                           + f"{total_word:>8}")
                for seat, player in enumerate(players):
                    row = "".join(f"{score_.breakdown[seat][p]:>6}" for p in parts)
                    click.echo(f"  {player:<{width}}{row}{score_.totals[seat]:>8}")
                status = []
                if not report.over:
                    status.append(msg("game not over: scores as the record stands"))
                if not report.valid:
                    status.append(msg("the record has errors (lcn validate shows them)"))
                for note in status:
                    click.echo("  " + say(msg("note: {note}", note=note)))
                if "match" in report.extra:
                    match = report.extra["match"]
                    totals = ", ".join(f"{p} {t}" for p, t in match["totals"].items())
                    click.echo(printable("  " + say(msg(
                        "match \"{name}\" after game {game}: {totals}", name=match["name"],
                        game=match["game"], totals=totals))))
                click.echo("")
        except InputError as exc:  # an input failing midway: what came is scored
            io_error = True
            click.echo(f"lcn: {exc.message}", err=True)
        # A file with no game (empty, or nothing readable) has nothing to score: say so.
        for d in run.file_diagnostics:
            if d.is_error:
                any_invalid = True
                click.echo(printable(d.format(display, language_from_environment())), err=True)
    if fmt == "json":
        _dump({"games": games_json})
    if io_error:
        sys.exit(2)
    sys.exit(1 if any_invalid else 0)


@cli.command("fmt")
@click.argument("files", nargs=-1, required=True, type=INPUT_PATH)
@click.option("--check", is_flag=True, help="exit 1 if a file is not in canonical form")
@click.option("--write", "write_", is_flag=True, help="rewrite the files in place (atomically)")
@_glob_option("format")
def fmt_command(files: tuple[str, ...], check: bool, write_: bool, pattern: str) -> None:
    """Write FILES in canonical form (to standard output unless --check or --write); a
    directory stands for its .lcn files.

    A file whose text cannot be read completely (a malformed tag line, a bad encoding) is
    never rewritten: fix what `lcn validate` reports first. --write replaces each file
    atomically (a crash or a kill leaves the old file or the new one, and no temporary
    file); a symbolic link is written through to its file; a file with several hard links
    is not rewritten (replacing it would split the links): exit status 2.
    """
    if check and write_:
        raise click.UsageError(say(msg("--check and --write exclude each other")))
    files = tuple(expand_inputs(files, pattern))
    unformatted: list[str] = []
    status = 0
    for name in files:
        try:
            source = open_source(name)
        except InputError as exc:
            click.echo(f"lcn: {exc.message}", err=True)
            status = 2
            continue
        # The canonical text streams game by game into a file beside the original (--write)
        # or a temporary one (standard output), and is compared with the original as it goes:
        # a file of any size is formatted in bounded memory, and nothing is written until
        # the whole file has been read without an error.
        try:
            status = max(status, _format_one(name, source, check, write_, unformatted))
        except InputError as exc:  # OutputError too: the file is left as it was
            click.echo(f"lcn: {exc.message}", err=True)
            status = 2
    if unformatted:
        status = max(status, 1)
    sys.exit(status)


def _format_one(name: str, source: Path, check: bool, write_: bool,
                unformatted: list[str]) -> int:
    """``lcn fmt`` of one file; its exit status (0 or 1). A file that cannot be read or
    written raises :class:`InputError` (or :class:`OutputError`), and is left as it was."""
    display = _display_name(name)
    replacement: AtomicFile | None = None
    out: IO[bytes] | None = None
    where = "a temporary file"
    try:
        if write_ and name != "-":
            where = f"'{name}'"
            replacement = AtomicFile(source)
            out = replacement.handle
        elif not check:
            import tempfile  # only here: not paid by lcn validate

            out = tempfile.TemporaryFile()  # noqa: SIM115 - closed below
    except OSError as exc:
        raise OutputError(msg("cannot write {where}: {reason}",
                              where=where, reason=exc.strerror or exc)) from exc
    try:
        syntax, same = _canonical(source, display, out, where)
        if syntax:
            lines = source_lines(source, (d.line for d in syntax if d.line))
            for d in syntax:
                click.echo(render_diagnostic(d, display, lines, False), err=True)
            click.echo("lcn: " + say(msg("{name}: not formatted: the file cannot be read completely",
                                         name=printable(display))),
                       err=True)
            return 1
        if check:
            if not same:
                unformatted.append(display)
                click.echo(say(msg("{name}: not in canonical form", name=printable(display))),
                           err=True)
                return 1
        elif replacement is not None:
            if not same:
                try:
                    replacement.commit()
                except OSError as exc:
                    raise OutputError(msg("cannot write {where}: {reason}",
                                          where=where, reason=exc.strerror or exc)) from exc
                click.echo(say(msg("{name}: reformatted", name=printable(display))), err=True)
        elif out is not None:
            out.seek(0)
            for text in io.TextIOWrapper(out, encoding="utf-8", newline=""):
                sys.stdout.write(text)
        return 0
    finally:
        if replacement is not None:
            replacement.discard()
        elif out is not None:
            out.close()


@cli.command()
@click.argument("file", type=INPUT_PATH)
@click.option("--game", "game_no", type=click.IntRange(min=1), default=1, show_default=True,
              help="which game of the file")
@click.option("--turn", type=click.IntRange(min=0), default=None,
              help="show the position after this turn (0: the deal); default: the last")
@click.option("--view", type=click.Choice(["all", "1", "2", "3", "4", "5", "none"]), default="all",
              show_default=True, help="whose hand to show")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True,
              help="text for people, json for programs (the position as data)")
def show(file: str, game_no: int, turn: int | None, view: str, fmt: str) -> None:
    """Show the position of a game after a turn: the table, hands when known, the scores."""
    source = open_input(file)
    record = None
    for index, candidate in enumerate(reading(lcn.Reader(source), _display_name(file)), 1):
        if index == game_no:
            record = candidate
            break
    if record is None:
        raise InputError(msg("{name} has no game {game}", name=_display_name(file), game=game_no))
    variant = lcn.find_variant(record.variant_name)
    if variant is None:
        raise click.ClickException(printable(say(msg('unknown variant "{variant}"',
                                                     variant=record.tags.get("Variant")))))
    count = len(record.turns)
    if turn is not None and turn > count:
        raise click.BadParameter(say(msg("the game has {count} turns", count=count)),
                                 param_hint="--turn")
    upto = count if turn is None else turn
    # The reader's problems up to the turn shown (an unclosed comment, a bad tag line) are
    # noted too: the position may rest on text the reader could not read.
    until = record.turns[upto - 1].line if upto else (record.movetext_line or record.line)
    read_problems = [d for d in record.diagnostics if d.code != "missing-termination"
                     and (d.line is None or d.line <= until)]
    shortened = lcn.GameRecord(tags=record.tags, turns=record.turns[:upto],
                               termination="*", line=record.line, diagnostics=read_problems)
    report = lcn.validate_record(shortened)
    if view not in ("all", "none") and int(view) > len(report.players):
        raise click.BadParameter(say(msg("the game has {count} players", count=len(report.players))),
                                 param_hint="--view")
    errors = [d for d in report.diagnostics if d.is_error
              and d.code not in ("missing-termination", "result-tag-mismatch")]
    if report.state is None or not report.complete:
        raise click.ClickException(printable("; ".join(say(d.message) for d in errors)
                                             or say(msg("cannot replay"))))
    names = report.players
    if fmt == "json":
        data = variant.snapshot(report.state)
        data["players"] = names
        data["errors"] = [d.to_json() for d in errors]
        _dump(data)
    else:
        seat = None if view == "all" else (-1 if view == "none" else int(view) - 1)
        # Names, comments and any text of the record are shown, never obeyed.
        board = say(variant.render_text(report.state, names, view=seat))  # in LANG's language
        click.echo(printable(board, lines=True), nl=False)
        for d in errors:
            click.echo(say(msg("note: {note}", note=printable(
                d.format(_display_name(file), language_from_environment())))))
    sys.exit(1 if errors else 0)


def _canonical(source: bytes | Path, display: str, out: IO[bytes] | None,
               where: str) -> tuple[list[lcn.Diagnostic], bool]:
    """Stream the canonical text of a source into ``out``, comparing it with the source.

    Returns the errors that stop the source from being formatted (what the reader could not
    read) and whether the canonical text is the source as it is. A failure to read the
    source raises :class:`InputError`, a failure to write ``out`` (named ``where``)
    :class:`OutputError`.
    """
    reader = lcn.Reader(source)
    try:
        original = source.open("rb") if isinstance(source, Path) else io.BytesIO(source)
    except OSError as exc:
        raise InputError(msg("cannot read '{display}': {reason}",
                             display=display, reason=exc.strerror or exc)) from exc
    errors: list[lcn.Diagnostic] = []
    same = True
    separator = b""

    def differs(chunk: bytes) -> bool:
        try:
            return original.read(len(chunk)) != chunk if chunk else bool(original.read(1))
        except OSError as exc:
            raise InputError(msg("cannot read '{display}': {reason}",
                                 display=display, reason=exc.strerror or exc)) from exc

    try:
        for record in reading(reader, display):
            errors.extend(d for d in record.diagnostics if d.is_error)
            if errors:
                continue  # read on, to report every error of the file
            chunk = separator + lcn.write_game(record).encode("utf-8")
            separator = b"\n"
            if out is not None:
                try:
                    out.write(chunk)
                except OSError as exc:
                    raise OutputError(msg("cannot write {where}: {reason}",
                                          where=where, reason=exc.strerror or exc)) from exc
            if same and differs(chunk):
                same = False
        errors.extend(reader.file_diagnostics)
        if same and differs(b""):
            same = False
    finally:
        original.close()
    return errors, same


def main() -> None:
    """Entry point of the ``lcn`` command.

    An output that cannot be written (a full disk) is an input/output error like a file
    that cannot be read: one line and exit status 2, never a traceback, and never status 1,
    which says a game is invalid. The output is flushed here, inside the ``try``, so that
    a failure of what was still buffered is caught too rather than reported by the
    interpreter at exit.
    """
    watch_stdout()
    status: int | str | None = 0
    try:
        try:
            cli()
        except SystemExit as done:  # how every command ends
            status = done.code
        sys.stdout.flush()
    except StdoutFailed as exc:
        abandon_stdout()
        click.echo("lcn: " + say(msg("cannot write the output: {reason}",
                                     reason=exc.strerror or exc)), err=True)
        sys.exit(2)
    except Interrupted:
        # 128 + SIGINT, as a shell reports a command that Ctrl-C stopped.
        click.echo("lcn: " + say(msg("interrupted")), err=True)
        sys.exit(130)
    sys.exit(status)


if __name__ == "__main__":
    main()

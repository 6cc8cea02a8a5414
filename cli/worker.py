"""``lcn worker``: the processes that run the replay site's analyses, off its task queue.

An analysis takes seconds to a minute a game: the site (``POST /api/v1/analysis``) only puts
a job on the queue, and these processes judge the games. They read the same settings as the
site (``LCN_QUEUE_URL``, ``LCN_DATA_DIR``), so on one machine they meet its embedded SQLite
queue with no setting at all; see docs/deployment.md for Redis or PostgreSQL and for running
them under systemd.
"""

from __future__ import annotations

import logging
import os
from typing import Any

import click

from lcn.messages import msg

from .io import say


@click.command("worker")
@click.option("-w", "--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="analyses run at once, each in a process of its own (one per core at most)")
@click.option("--data-dir", type=click.Path(file_okay=False), default=None,
              help="the site's data directory, where the embedded queue lives (default: LCN_DATA_DIR, "
                   "else ~/.local/share/lcn)")
@click.option("--quiet", is_flag=True, help="say nothing but errors")
def worker(workers: int, data_dir: str | None, quiet: bool) -> None:
    """Run the replay site's analyses: take jobs off its task queue until Ctrl-C."""
    try:
        from replay_server.config import ConfigError, load_config
        from replay_server.queue import lease_seconds, queue_of, serve_queue
    except ModuleNotFoundError as exc:  # the core install: the library and the command only
        raise click.ClickException(say(msg(
            "the workers need the server extra ({name} is not installed): "
            "pip install 'lost-cities-notation[server]'", name=exc.name))) from None
    overrides: dict[str, Any] = {}
    if data_dir is not None:
        overrides["DATA_DIR"] = data_dir
    try:
        config = load_config(overrides)
        queue_of(config.get("QUEUE_URL"), config["DATA_DIR"]).storage.close()  # a bad URL said here
    except (ConfigError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    logging.basicConfig(level=logging.ERROR if quiet else logging.INFO,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    where = config.get("QUEUE_URL") or os.path.join(config["DATA_DIR"], "queue.sqlite3")

    def started() -> None:
        if not quiet:
            click.echo(say(msg("LCN analysis workers: {count} on {queue} (Ctrl-C stops them)",
                               count=workers, queue=where)), err=True)

    serve_queue(config.get("QUEUE_URL"), config["DATA_DIR"], workers, lease_seconds(os.environ), started)


COMMANDS = [worker]

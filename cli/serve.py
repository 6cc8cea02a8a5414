"""``lcn serve``: the replay site on this machine, on an embedded SQLite database.

For production, run the same application under gunicorn instead
(``gunicorn 'replay_server:create_app()'``) behind nginx; see docs/deployment.md.
"""

from __future__ import annotations

import os

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on (0.0.0.0 for every interface)")
@click.option("--port", type=click.IntRange(0, 65535), default=5000, show_default=True,
              help="port to listen on")
@click.option("--data-dir", type=click.Path(file_okay=False), default=None,
              help="where the database lives (default: LCN_DATA_DIR, else ~/.local/share/lcn)")
def serve(host: str, port: int, data_dir: str | None) -> None:
    """Start the replay site: paste, upload or pick a sample and replay it turn by turn.

    Games are stored in an SQLite database in the data directory (LCN_DATABASE_URL chooses
    another database). This is the development server, for one machine; see docs/deployment.md
    for running the site under gunicorn.
    """
    try:
        from replay_server import create_app
        from replay_server.config import ConfigError
    except ModuleNotFoundError as exc:  # the core install: the library and the command only
        raise click.ClickException(
            f"the replay site needs the server extra ({exc.name} is not installed): "
            "pip install 'lost-cities-notation[server]'") from None
    overrides = {}
    if data_dir is not None:
        overrides["DATA_DIR"] = data_dir
        if not os.environ.get("LCN_DATABASE_URL"):
            overrides["DATABASE_URL"] = f"sqlite:///{os.path.abspath(os.path.join(data_dir, 'lcn.sqlite3'))}"
    try:
        app = create_app(overrides)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    from werkzeug.serving import run_simple

    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"LCN replay site on http://{shown}:{port}/  (data: {app.config['DATA_DIR']}; "
               "Ctrl-C stops it)")
    try:
        run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


COMMANDS = [serve]

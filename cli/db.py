"""``lcn db``: the site's database as a deploy step (``lcn db upgrade``) and its state (``status``).

Both read the same settings as the site (``LCN_DATABASE_URL``, else the SQLite file in the
data directory), so the command and the servers always mean the same database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from replay_server.storage import Store


def _store(database_url: str | None, data_dir: str | None) -> Store:
    try:
        from replay_server.config import ConfigError, load_config
        from replay_server.storage import open_store
    except ModuleNotFoundError as exc:  # pragma: no cover - a broken installation
        raise click.ClickException(f"the replay site is not installed ({exc.name} is missing): "
                                   "pip install 'lcn[server]'") from None
    overrides = {}
    if data_dir is not None:
        overrides["DATA_DIR"] = data_dir
    if database_url is not None:
        overrides["DATABASE_URL"] = database_url
    try:
        config = load_config(overrides)
        return open_store(config["DATABASE_URL"], pool_size=1, max_overflow=0)
    except (ConfigError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None


_url_option = click.option("--database-url", default=None, metavar="URL",
                           help="the database (default: LCN_DATABASE_URL, else the data "
                                "directory's SQLite file)")
_dir_option = click.option("--data-dir", type=click.Path(file_okay=False), default=None,
                           help="the data directory (default: LCN_DATA_DIR, else ~/.local/share/lcn)")


@click.group()
def db() -> None:
    """The replay site's database: upgrade its schema, show its state."""


@db.command()
@_url_option
@_dir_option
def upgrade(database_url: str | None, data_dir: str | None) -> None:
    """Migrate the schema to this release's version (run it once per deploy, before the servers).

    The steps only add what the new release needs, so servers of the previous release keep
    working on the upgraded database; running it again does nothing.
    """
    from replay_server.storage import SCHEMA_VERSION, StoreError, StoreUnavailable

    store = _store(database_url, data_dir)
    try:
        before = store.migrate()
        after = store.schema_version()
    except (StoreUnavailable, StoreError) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        store.close()
    where = store.where
    if before >= SCHEMA_VERSION:
        click.echo(f"{where}: schema version {after}, nothing to do")
    else:
        click.echo(f"{where}: schema version {before} -> {after}")


@db.command()
@_url_option
@_dir_option
def status(database_url: str | None, data_dir: str | None) -> None:
    """Show the schema version of the database and whether this release runs on it."""
    from replay_server.storage import SCHEMA_NEEDED, SCHEMA_VERSION, StoreError, StoreUnavailable

    store = _store(database_url, data_dir)
    try:
        version, compatible_from = store.versions()
        store.check_schema()
        usable = "yes"
    except StoreError as exc:
        usable = f"no: {exc}"
    except StoreUnavailable as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        store.close()
    click.echo(f"database: {store.where}")
    click.echo(f"schema version: {version} (code of schema {compatible_from} or newer runs on it)")
    click.echo(f"this release: migrates to {SCHEMA_VERSION}, runs on {SCHEMA_NEEDED} or newer; "
               f"usable: {usable}")


COMMANDS = [db]

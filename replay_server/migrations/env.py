"""Alembic's environment: migrations run on the connection the store hands over.

The store (``Store.migrate``) opens the transaction, takes the migration lock and checks
the versions first; so Alembic is always called through it (``lcn db upgrade``), never on
a URL of its own.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise SystemExit("run the migrations with `lcn db upgrade` (it takes the migration lock first)")

context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()

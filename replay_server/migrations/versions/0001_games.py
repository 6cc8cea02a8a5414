"""Schema 1 (release 1.0): the games table, and 1.0's own record of its schema.

Databases made by 1.0 already hold both (1.0 migrated by hand); then nothing is done, and
Alembic starts counting from here.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" not in tables:
        op.create_table(
            "games",
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("lcn", sa.Text, nullable=False),
            sa.Column("created_at", sa.String(32), nullable=False),
        )
    if "schema_version" not in tables:
        version = op.create_table("schema_version", sa.Column("version", sa.Integer, nullable=False))
        op.bulk_insert(version, [{"version": 1}])

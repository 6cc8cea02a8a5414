"""Schema 2: ``lcn_schema`` records the version and the oldest version whose code works on it.

An expanding step: 1.0's ``schema_version`` stays at 1, so 1.0 servers (which refuse any
larger number there) keep running on this schema during a rolling deploy or a rollback.
``compatible_from`` is 1: nothing 1.0 uses was taken away.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "lcn_schema",
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("compatible_from", sa.Integer, nullable=False),
    )
    op.bulk_insert(table, [{"version": 2, "compatible_from": 1}])

"""Leases as rows: which process drives each table, and a fence that grows at every hand-over.

A lease was a session advisory lock on the driving process's listening connection: only
PostgreSQL decided when it ended, each took a slot of the server's shared lock table (6,400
with the defaults, for every process together), and finding a table's owner scanned
``pg_locks``. A lease is now this table's row, naming its process's origin; it is taken over
once that process is silent (``processes.seen_at``) or its connection is gone, and ``fence``
grows by one each time it changes hands.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``leases``, with an index on ``origin`` (a process hands all its leases over at once)."""
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("origin", sa.String(32), nullable=False),
        sa.Column("fence", sa.BigInteger, nullable=False, server_default="1"),
    )
    op.create_index("ix_leases_origin", "leases", ["origin"])


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.drop_index("ix_leases_origin", "leases")
    op.drop_table("leases")

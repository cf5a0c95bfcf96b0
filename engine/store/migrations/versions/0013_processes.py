"""The address of each process sharing the database, so a table's sockets can be sent to the process that owns it.

Several processes on one PostgreSQL database each own some tables (the lease holder). A
socket that reaches another process is sent to the owner's address: each process with a
``PROCESS_URL`` keeps a row here under its origin (the name of its listening connection).
Nothing here outlives a crash usefully, so the table is unlogged on PostgreSQL.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``processes``."""
    unlogged = ["UNLOGGED"] if op.get_bind().dialect.name == "postgresql" else []
    op.create_table(
        "processes",
        sa.Column("origin", sa.String(32), primary_key=True),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        prefixes=unlogged,
    )


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.drop_table("processes")

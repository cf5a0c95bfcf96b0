"""A version per table row, so processes sharing a database never overwrite each other's changes.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.version``, raised by one at every write of the row."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop ``tables.version``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("version")

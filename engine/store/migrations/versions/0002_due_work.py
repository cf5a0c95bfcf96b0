"""What a restarted process must find without loading every table: AI turns, deadlines, a chat's tables.

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
    """Add ``tables.ai_turn`` and the indexes that find due work and a chat's or a user's tables."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("ai_turn", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_tables_ai_turn", "tables", ["ai_turn", "status"])
    op.create_index("ix_tables_deadline", "tables", ["deadline"])
    op.create_index("ix_tables_chat", "tables", ["chat_id", "status"])


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.drop_index("ix_tables_chat", "tables")
    op.drop_index("ix_tables_deadline", "tables")
    op.drop_index("ix_tables_ai_turn", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("ai_turn")

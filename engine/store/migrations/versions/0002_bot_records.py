"""The bot's message records and the rematch link of each finished table.

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
    """Add bot_messages and rematches."""
    op.create_table(
        "bot_messages",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("purpose", sa.String(48), primary_key=True),
        sa.Column("chat_id", sa.BigInteger, nullable=False),
        sa.Column("thread_id", sa.BigInteger, nullable=True),
        sa.Column("message_id", sa.BigInteger, nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_bot_messages_chat_id", "bot_messages", ["chat_id"])
    op.create_table(
        "rematches",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("rematch_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("rematches")
    op.drop_index("ix_bot_messages_chat_id", "bot_messages")
    op.drop_table("bot_messages")

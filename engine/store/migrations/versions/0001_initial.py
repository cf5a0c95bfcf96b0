"""Users, tables, seats and the action log.

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
    """Create the first schema."""
    op.create_table(
        "users",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("notify", sa.Boolean, nullable=False),
        sa.Column("can_message", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("host_user_id", sa.BigInteger, nullable=False),
        sa.Column("chat_id", sa.BigInteger, nullable=True),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("seed_hash", sa.String(64), nullable=False),
        sa.Column("timer", sa.String(16), nullable=False),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("meta", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger, nullable=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("is_ai", sa.Boolean, nullable=False),
        sa.Column("ai_level", sa.String(16), nullable=False),
        sa.Column("autopilot", sa.Boolean, nullable=False),
        sa.Column("missed", sa.Integer, nullable=False),
    )
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("auto", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop everything."""
    for name in ("actions", "seats", "tables", "users"):
        op.drop_table(name)

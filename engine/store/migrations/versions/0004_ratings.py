"""Every game remembered: per-seat results (history, group leaderboards) and per-game ratings.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``results`` and ``ratings`` with the indexes their listings use."""
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.BigInteger, nullable=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("chat_id", sa.BigInteger, nullable=True),
        sa.Column("placement", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_index("ix_results_user", "results", ["user_id", "finished_at"])
    op.create_index("ix_results_chat", "results", ["chat_id", "game", "user_id"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game", "mu"])


def downgrade() -> None:
    """Drop what ``upgrade`` created."""
    op.drop_index("ix_ratings_game", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_results_chat", "results")
    op.drop_index("ix_results_user", "results")
    op.drop_table("results")

"""Each group's standings kept as running totals, so a leaderboard never totals a group's results per request.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``standings`` (games and wins per chat, game and person) and total the results already on record."""
    op.create_table(
        "standings",
        sa.Column("chat_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
    )
    op.execute(
        "INSERT INTO standings (chat_id, game, user_id, games, wins)"
        " SELECT chat_id, game, user_id, COUNT(*), SUM(CASE WHEN placement = 1 THEN 1 ELSE 0 END) FROM results"
        " WHERE chat_id IS NOT NULL AND user_id IS NOT NULL GROUP BY chat_id, game, user_id"
    )


def downgrade() -> None:
    """Drop ``standings``."""
    op.drop_table("standings")

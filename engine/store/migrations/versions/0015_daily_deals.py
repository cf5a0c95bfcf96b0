"""The deal of the day: each person's entry per game and day, the seeds' secret, and the groups told of a day.

``daily_entries`` holds one row per person, game and UTC day: the table they play it at, their
result once the deal is over (``mark``, compared with everyone who held the same cards) and when.
``daily_secrets`` keeps the secret the days' seeds are derived from when ``DAILY_SECRET`` is not
set, so a restart keeps the day's seed. ``daily_news`` says which groups were sent which day's
standings, so each group hears of a day once.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``daily_entries``, ``daily_secrets`` and ``daily_news``."""
    op.create_table(
        "daily_entries",
        sa.Column("user_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
        sa.Column("mark", sa.Integer, nullable=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_daily_entries_day", "daily_entries", ["game", "day"])
    op.create_table(
        "daily_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "daily_news",
        sa.Column("chat_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("sent_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.drop_table("daily_news")
    op.drop_table("daily_secrets")
    op.drop_index("ix_daily_entries_day", "daily_entries")
    op.drop_table("daily_entries")

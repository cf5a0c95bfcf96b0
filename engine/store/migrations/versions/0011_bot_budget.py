"""The bot's one budget of Bot API calls, shared by every process on the database.

Telegram counts a bot's calls together, whichever process makes them (about 30 a second).
With several processes on one PostgreSQL database each took its calls from a budget of its
own, so together they could go past the limit. One row per budget (``overall``) holds the
earliest time the next call may go, by the database's clock; a process takes a call's room
with one ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` (``engine.store.budget_rows``).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``bot_budget``."""
    unlogged = ["UNLOGGED"] if op.get_bind().dialect.name == "postgresql" else []  # nothing to keep past a crash
    op.create_table(
        "bot_budget",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("next_at", sa.Float, nullable=False),
        prefixes=unlogged,
    )


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.drop_table("bot_budget")

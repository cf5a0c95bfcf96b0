"""The language of each person's Telegram app, as the bot last saw it: for the messages that answer nothing.

A reply is written in the language of the update it answers, but a turn message is sent when
someone else moves: the bot has no update of the person's at hand. Without this column such
a message could only follow the group's language (a Korean phone at a Latvian group's table
got its turn messages in Latvian).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``users.app_language``."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("app_language", sa.String(16), nullable=True))


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("app_language")

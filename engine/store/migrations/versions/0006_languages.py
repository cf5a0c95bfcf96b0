"""Languages people and groups chose: a person's for private messages, a group's for its messages.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``users.language`` and ``chat_languages``."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))
    op.create_table(
        "chat_languages",
        sa.Column("chat_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("set_by", sa.BigInteger, nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.drop_table("chat_languages")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("language")

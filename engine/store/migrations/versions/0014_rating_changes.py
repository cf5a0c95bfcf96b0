"""Each person's rating before and after each finished game, kept with their result.

The end of a game shows each person's rating change, and a player's figures show the best
rating they reached and how it went lately: both read ``results.rating_before`` and
``results.rating_after`` (the ordinal, mu - 3 sigma: the rating people see). They stay empty
for AI seats, and for the games finished before this revision until ``cardroom ratings
--rebuild`` recomputes every rating from the logs and fills them in.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``results.rating_before`` and ``results.rating_after``."""
    with op.batch_alter_table("results") as batch:
        batch.add_column(sa.Column("rating_before", sa.Float, nullable=True))
        batch.add_column(sa.Column("rating_after", sa.Float, nullable=True))


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    with op.batch_alter_table("results") as batch:
        batch.drop_column("rating_after")
        batch.drop_column("rating_before")

"""When each person last signed out everywhere: every sign-in made before it is over.

A person who lost a phone (or lent one) ends every session of theirs at once: the page's
"Sign out everywhere" writes the moment here, and a sign-in whose Telegram data was signed
before it (a session token handed out then, or initData from then) is refused from that
moment on, on every process.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``users.sessions_from`` (seconds since the epoch; None: never signed out)."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("sessions_from", sa.Float, nullable=True))


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("sessions_from")

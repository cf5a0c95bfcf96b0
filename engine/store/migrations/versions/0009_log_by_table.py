"""SQLite: the move log stored in the order of its key (a table's moves side by side), not in a row-id order.

A log row used to be written twice: once into the row-id tree (in the order moves came, every
table's mixed together) and once into the index of ``(table_id, seq)``. Kept in the key's own
order (``WITHOUT ROWID``), a move writes one page rather than two, and a table's moves, read
back when it is revived, lie together. Measured with plain ``sqlite3`` on a log of a million
moves over 10,000 tables: the file a third smaller (84 MB, not 125), reading a table's 99 moves
0.42 ms rather than 4.5 ms from a cold disk (0.11 ms rather than 0.38 ms cached), and a commit
of one move 9-15 % less CPU (in the server that last is within its noise). PostgreSQL keeps its
table as it is.

The rows are copied once, at this upgrade (about 5 s per million moves here).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

COLUMNS = "table_id, seq, seat, action, auto, created_at"


def upgrade() -> None:
    """SQLite: copy ``actions`` into a table kept in ``(table_id, seq)`` order, which takes its name."""
    _rebuild(with_rowid=False)


def downgrade() -> None:
    """SQLite: copy ``actions`` back into a table with row ids."""
    _rebuild(with_rowid=True)


def _rebuild(*, with_rowid: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.create_table(
        "actions_rebuilt",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("auto", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sqlite_with_rowid=with_rowid,
    )
    op.execute(f"INSERT INTO actions_rebuilt ({COLUMNS}) SELECT {COLUMNS} FROM actions ORDER BY table_id, seq")
    op.drop_table("actions")
    op.rename_table("actions_rebuilt", "actions")

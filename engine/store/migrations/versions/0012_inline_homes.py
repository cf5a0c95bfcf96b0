"""Which message sent via the bot each table lives in, findable by every process.

A table invited to from any chat (inline mode, or the Mini App's Share) lives in the one
message its invitation was sent in, named by its ``inline_message_id``. Only the process that
got Telegram's ``chosen_inline_result`` knew which table that message held, so a press on it
reaching another process could open a second table there. Each such table now has an
``invitation`` record carrying that id in a column of its own, unique: any process finds the
table of a message, and of two processes opening a table in one message at once, one wins.
Existing tables' invitations are derived from their homes (the first table a message held).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import json
import time

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``bot_messages.inline_id`` and its unique index, and the invitations of the tables living in one."""
    with op.batch_alter_table("bot_messages") as batch:
        batch.add_column(sa.Column("inline_id", sa.String(255), nullable=True))
    op.create_index("ix_bot_messages_inline_id", "bot_messages", ["inline_id"], unique=True)
    bind = op.get_bind()
    records = sa.table("bot_messages", sa.column("table_id"), sa.column("purpose"), sa.column("chat_id"),
                       sa.column("state"), sa.column("data"), sa.column("updated_at"), sa.column("inline_id"))
    opened: dict[str, tuple[str, float]] = {}  # message -> the first table whose home it was (not its rematches')
    for table_id, data, created_at in bind.execute(sa.text(
            "SELECT b.table_id, b.data, t.created_at FROM bot_messages b JOIN tables t ON t.id = b.table_id "
            "WHERE b.chat_id = 0 AND b.purpose = 'home'")).all():
        inline = json.loads(data or "{}").get("inline")
        if isinstance(inline, str) and inline and (inline not in opened or created_at < opened[inline][1]):
            opened[inline] = (table_id, created_at)
    if opened:
        op.bulk_insert(records, [
            {"table_id": table_id, "purpose": "invitation", "chat_id": 0, "state": "sent",
             "data": json.dumps({"inline": inline}), "updated_at": time.time(), "inline_id": inline}
            for inline, (table_id, _) in opened.items()])


def downgrade() -> None:
    """Drop what ``upgrade`` added."""
    op.execute("DELETE FROM bot_messages WHERE purpose = 'invitation'")
    op.drop_index("ix_bot_messages_inline_id", "bot_messages")
    with op.batch_alter_table("bot_messages") as batch:
        batch.drop_column("inline_id")

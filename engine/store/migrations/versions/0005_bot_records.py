"""The bot's message records and the rematch link of each finished table.

What the bot kept in a table's meta before (its message, summary, open turn messages and
language) moves into its records, so messages posted before the upgrade stay in use.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import json
import time

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add bot_messages and rematches."""
    op.create_table(
        "bot_messages",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("purpose", sa.String(48), primary_key=True),
        sa.Column("chat_id", sa.BigInteger, nullable=False),
        sa.Column("thread_id", sa.BigInteger, nullable=True),
        sa.Column("message_id", sa.BigInteger, nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_bot_messages_chat_id", "bot_messages", ["chat_id"])
    op.create_table(
        "rematches",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("rematch_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    _move_meta()


def _move_meta() -> None:
    bind = op.get_bind()
    records = sa.table("bot_messages", sa.column("table_id"), sa.column("purpose"), sa.column("chat_id"),
                       sa.column("thread_id"), sa.column("message_id"), sa.column("state"), sa.column("data"),
                       sa.column("updated_at"))
    rows = []
    for table_id, chat_id, meta in bind.execute(sa.text("SELECT id, chat_id, meta FROM tables")).all():
        found = json.loads(meta or "{}")
        if chat_id is None:
            continue

        def record(purpose: str, chat: int, message_id: int | None, data: dict[str, object] | None = None,
                   table_id: str = table_id) -> None:
            rows.append({"table_id": table_id, "purpose": purpose, "chat_id": chat, "thread_id": None,
                         "message_id": message_id, "state": "sent", "data": json.dumps(data or {}),
                         "updated_at": time.time()})

        record("home", chat_id, None, {"locale": found.get("tg_locale")})
        message = found.get("tg_message")
        if isinstance(message, dict) and isinstance(message.get("id"), int):
            record("table", int(message.get("chat") or chat_id), message["id"])
        if isinstance(found.get("tg_summary"), int):
            record("summary", chat_id, found["tg_summary"])
        for user_id, message_id in (found.get("tg_turns") or {}).items():
            record(f"turn:{int(user_id)}", int(user_id), int(message_id))  # its turn is not known: replaced once
    if rows:
        op.bulk_insert(records, rows)


def downgrade() -> None:
    """Drop them."""
    op.drop_table("rematches")
    op.drop_index("ix_bot_messages_chat_id", "bot_messages")
    op.drop_table("bot_messages")

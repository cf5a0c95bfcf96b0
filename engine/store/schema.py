"""The database schema: users, tables, seats and the append-only action log.

Changes to it are alembic migrations in ``engine/store/migrations``; this module is what
the code reads and writes through.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),
    Column("name", String(128), nullable=False),
    Column("notify", Boolean, nullable=False, default=True),
    Column("can_message", Boolean, nullable=False, default=False),
    Column("created_at", Float, nullable=False),
    Column("language", String(8), nullable=True),  # chosen with /language; None: Telegram's language_code
    Column("app_language", String(16), nullable=True),  # Telegram's language_code, as the bot last saw it
    Column("sessions_from", Float, nullable=True),  # signed out everywhere then: sign-ins from before are over
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("size", Integer, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("host_user_id", BigInteger, nullable=False),
    Column("chat_id", BigInteger, nullable=True),
    Column("seed", String(128), nullable=False),
    Column("seed_hash", String(64), nullable=False),
    Column("timer", String(16), nullable=False, default="none"),
    Column("deadline", Float, nullable=True),
    Column("ai_turn", Boolean, nullable=False, default=False),  # an AI (or a stand-in) is to act
    Column("meta", Text, nullable=False, default="{}"),
    Column("result", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("version", Integer, nullable=False, default=0),  # raised at every write: a stale writer is refused
    Index("ix_tables_ai_turn", "ai_turn", "status"),
    Index("ix_tables_deadline", "deadline"),
    Index("ix_tables_chat", "chat_id", "status"),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("user_id", BigInteger, nullable=True, index=True),
    Column("name", String(128), nullable=False),
    Column("is_ai", Boolean, nullable=False, default=False),
    Column("ai_level", String(16), nullable=False, default="easy"),
    Column("autopilot", Boolean, nullable=False, default=False),
    Column("missed", Integer, nullable=False, default=0),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("auto", Boolean, nullable=False, default=False),
    Column("created_at", Float, nullable=False),
    sqlite_with_rowid=False,  # SQLite keeps a table's moves together, a page a move (migration 0009)
)

results = Table(
    "results",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("user_id", BigInteger, nullable=True),  # None for an AI seat
    Column("name", String(128), nullable=False),
    Column("game", String(32), nullable=False),
    Column("chat_id", BigInteger, nullable=True),
    Column("placement", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("finished_at", Float, nullable=False),
    # the person's mu before and after this game (the rating people see is made from it: engine.service.rating_scale);
    # None for an AI seat, and for a game finished before these were kept as mu until a rebuild (migrations 0014, 0016)
    Column("rating_before", Float, nullable=True),
    Column("rating_after", Float, nullable=True),
    Index("ix_results_user", "user_id", "finished_at"),
    Index("ix_results_chat", "chat_id", "game", "user_id"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_ratings_game", "game", "mu"),
)

# A group's standings: games and wins per chat, game and person, kept with the results (the leaderboard's totals).
standings = Table(
    "standings",
    metadata,
    Column("chat_id", BigInteger, primary_key=True, autoincrement=False),
    Column("game", String(32), primary_key=True),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
)

# The bot's own records: one row per message it keeps up to date for a table ("table", "summary",
# "turn:<user id>", ...) and the table's home (its chat, forum topic and language). Written only by the bot.
bot_messages = Table(
    "bot_messages",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("purpose", String(48), primary_key=True),
    Column("chat_id", BigInteger, nullable=False, index=True),
    Column("thread_id", BigInteger, nullable=True),
    Column("message_id", BigInteger, nullable=True),
    Column("state", String(16), nullable=False),
    Column("data", Text, nullable=False, default="{}"),
    Column("updated_at", Float, nullable=False),
    # an invitation record: the message sent via the bot (inline_message_id) the table was opened in, one table each
    Column("inline_id", String(255), nullable=True),
    Index("ix_bot_messages_inline_id", "inline_id", unique=True),
)

# A finished table's rematch: at most one per table, whoever asks and however often.
rematches = Table(
    "rematches",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("rematch_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
)

# A group's language, set by an admin with /language (else the first table's host's language).
chat_languages = Table(
    "chat_languages",
    metadata,
    Column("chat_id", BigInteger, primary_key=True, autoincrement=False),
    Column("language", String(8), nullable=False),
    Column("set_by", BigInteger, nullable=True),
    Column("updated_at", Float, nullable=False),
)

# The latest snapshot of a game's state (hidden cards included: it never leaves the store), written every
# so many moves, so reviving a long game replays only the moves after it.
snapshots = Table(
    "snapshots",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("data", Text, nullable=False),
)

# The bot's Bot API budgets shared by every process on a PostgreSQL database (Telegram counts a bot's calls
# together): per budget, the earliest time the next call may go, by the database's clock (engine.store.budget_rows).
bot_budget = Table(
    "bot_budget",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("next_at", Float, nullable=False),
)

# The processes sharing a PostgreSQL database and each one's own address (PROCESS_URL), so a socket that reaches a
# process which does not own its table can be sent to the one that does (engine.service.pg_peers).
processes = Table(
    "processes",
    metadata,
    Column("origin", String(32), primary_key=True),
    Column("url", Text, nullable=False),
    Column("seen_at", Float, nullable=False),
)

# Which process drives each table (engine.service.pg_peers): the lease's process by its origin, and a fence that grows
# by one each time the lease changes hands.
leases = Table(
    "leases",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("origin", String(32), nullable=False),
    Column("fence", BigInteger, nullable=False, server_default="1"),
    Index("ix_leases_origin", "origin"),
)

# The deal of the day (engine.service.daily): each person's table and result for one game's deal of one UTC day.
daily_entries = Table(
    "daily_entries",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("game", String(32), primary_key=True),
    Column("day", String(10), primary_key=True),  # YYYY-MM-DD (UTC)
    Column("table_id", String(32), nullable=False, unique=True),
    Column("mark", Integer, nullable=True),  # the result compared with the field (higher is better); None: playing
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Index("ix_daily_entries_day", "game", "day"),
)

# Settings the deal of the day keeps (the secret its seeds are made from, when DAILY_SECRET is not set).
daily_secrets = Table(
    "daily_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)

# The closed days' standings each group has been sent: one message per group and day, whichever process sends it.
daily_news = Table(
    "daily_news",
    metadata,
    Column("chat_id", BigInteger, primary_key=True, autoincrement=False),
    Column("day", String(10), primary_key=True),
    Column("sent_at", Float, nullable=False),
)

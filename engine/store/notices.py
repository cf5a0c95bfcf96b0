"""The change notices PostgreSQL carries to the other processes (NOTIFY): which table changed, sent with the commit.

A notice is ``origin|table_id|seq|kind|version|events``; a transaction's notices are joined by newlines into as
few payloads as fit under NOTIFY's 8000 bytes, and sent in one statement.
"""

from __future__ import annotations

from sqlalchemy import text

CHANNEL = "cardroom_tables"  # PostgreSQL NOTIFY channel: which table changed, sent with the change's commit
NOTICE_BYTES = 7900  # NOTIFY payloads stop at 8000 bytes: notices are joined up to this
NOTIFY_ALL = text("SELECT pg_notify(:channel, payload) FROM unnest(CAST(:payloads AS text[])) AS payload")


def notice_payload(origin: str, table_id: str, seq: int, kind: str, version: int, events: str = "") -> str:
    """One notice; without its events when they would not fit in a payload (the receiver then reloads)."""
    payload = f"{origin}|{table_id}|{seq}|{kind}|{version}|{events}"
    if len(payload.encode()) >= NOTICE_BYTES:
        payload = f"{origin}|{table_id}|{seq}|{kind}|{version}|"
    return payload


def join_notices(payloads: list[str]) -> list[str]:
    """Payloads joined by newlines into as few NOTIFY payloads as fit under the 8000-byte limit, in order."""
    joined: list[str] = []
    size = 0
    for payload in payloads:
        length = len(payload.encode())
        if joined and size + 1 + length < NOTICE_BYTES:
            joined[-1] += "\n" + payload
            size += 1 + length
        else:
            joined.append(payload)
            size = length
    return joined

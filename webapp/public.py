"""A table as the web shows it: seat names and opaque seat handles, never a Telegram user id or chat id.

``TableInfo`` (the service's summary, read directly by the bot) names every player's
Telegram user id and the group's chat id. Anyone signed in who knows a table id may open
it, so what leaves through the API and the sockets carries instead, per seat, an opaque
``handle`` (the same person keeps it at that table; it cannot be turned back into an id,
nor linked to the same person at another table) and the host as ``host_seat``. A viewer
finds their own seat in the view's ``you``. A group chat is an opaque ``group_handle`` too.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from engine.service.live import SeatInfo, Snapshot, TableInfo

HANDLE_CHARS = 16
HANDLES_KEPT = 1 << 16  # handles remembered, so an update does not hash every seat again; forgotten all at once


class PublicTables:
    """Builds the web's form of tables and views, with handles keyed by a server secret."""

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key if key is not None else secrets.token_bytes(32)
        self._handles: dict[tuple[str, int], str] = {}
        self._seat_lists: dict[str, tuple[tuple[SeatInfo, ...], list[dict[str, Any]]]] = {}

    def handle(self, table_id: str, user_id: int) -> str:
        """The opaque handle of a person at a table."""
        found = self._handles.get((table_id, user_id))
        if found is None:
            if len(self._handles) >= HANDLES_KEPT:
                self._handles.clear()
            digest = hmac.new(self._key, f"{table_id}:{user_id}".encode(), hashlib.sha256).hexdigest()
            found = self._handles[table_id, user_id] = digest[:HANDLE_CHARS]
        return found

    def group_handle(self, chat_id: int) -> str:
        """The opaque handle of a group chat: the same for everyone, never turned back into the chat's id."""
        digest = hmac.new(self._key, f"group:{chat_id}".encode(), hashlib.sha256).hexdigest()
        return digest[:HANDLE_CHARS]

    def table(self, info: TableInfo) -> dict[str, Any]:
        """The table's summary for any signed-in user."""
        return {
            "id": info.id, "game": info.game, "title": info.title, "options": info.options, "size": info.size,
            "status": info.status, "host_seat": info.seat_of(info.host_user_id), "seats": self._seats(info),
            "seq": info.seq, "seed_hash": info.seed_hash, "seed": info.seed, "timer": info.timer,
            "deadline": info.deadline, "to_act": list(info.to_act), "result": info.result,
            "lesson": info.lesson, "rematch": info.rematch, "daily": info.daily,
        }

    def _seats(self, info: TableInfo) -> list[dict[str, Any]]:
        """The seats as the web shows them; a table's last list is reused while its seats are the same."""
        kept = self._seat_lists.get(info.id)
        if kept is not None and kept[0] is info.seats:
            return kept[1]
        if len(self._seat_lists) >= HANDLES_KEPT:
            self._seat_lists.clear()
        listed = [{
            "seat": s.seat, "name": s.name,
            "handle": self.handle(info.id, s.user_id) if s.user_id is not None else None,
            "is_ai": s.is_ai, "autopilot": s.autopilot,
        } for s in info.seats]
        self._seat_lists[info.id] = (info.seats, listed)
        return listed

    def own_table(self, info: TableInfo, user_id: int) -> dict[str, Any]:
        """The summary for someone listing their own tables: ``you`` is their seat (None if they have none)."""
        return {**self.table(info), "you": info.seat_of(user_id)}

    def view(self, snapshot: Snapshot, seat: int | None, table: dict[str, Any] | None = None) -> dict[str, Any]:
        """A seat's view with the web's form of the table (pass ``table`` to share one among seats)."""
        return {"table": table if table is not None else self.table(snapshot.info), "seq": snapshot.info.seq,
                "you": seat, "state": snapshot.state_view(seat)}

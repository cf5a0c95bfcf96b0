"""Each person's private turn message: one per turn, sent when their turn begins and removed once it is over.

Each is written in the person's language (``tgbot.context.person_locale``), not the group's.
A turn is known by the seq it began at, so a message left from before a restart is
adopted when it is this turn's, and replaced when it is not. A reminder edits the
turn's message in place. Nobody the bot may not write to, or who turned turn messages
off, gets one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from telegram import InlineKeyboardMarkup

from engine.service.live import Snapshot, TableInfo
from tgbot.context import BotState, person_locale
from tgbot.postings import Postings
from tgbot.records import SENDING, SENT, Record, turn_purpose
from tgbot.render import render, translate
from tgbot.table_texts import home_locale


class TurnMessages(Postings):
    """The private turn messages of every table (the notifier's layer below the table's own message)."""

    bot_state: BotState
    _turns: dict[str, dict[int, int]]  # table -> seat -> the seq its current turn began at
    _first_sight: set[tuple[str, int]]  # turns first seen after a restart: adopt a stored message
    _passed: dict[str, set[int]]  # seats whose current turn an AI stand-in plays
    _reminded: dict[str, tuple[float, frozenset[int]]]  # table -> (deadline, seats reminded)


    async def _sync_turns(self, info: TableInfo, snapshot: Snapshot, home: Record | None) -> None:
        records = await self.records.of(info.id)
        people = {s.user_id for s in info.seats if s.user_id is not None and s.user_id != info.chat_id}
        people |= {int(p.split(":", 1)[1]) for p in records if p.startswith("turn:")}
        for user_id in sorted(people):
            await self._sync_turn(info, snapshot, home, user_id, records.get(turn_purpose(user_id)))

    def _turn_of(self, info: TableInfo, seat: int | None) -> int | None:
        """The id of the seat's current turn, when a person is awaited in it."""
        if seat is None or info.status != "playing":
            return None
        turn = self._turns.get(info.id, {}).get(seat)
        row = info.seats[seat]
        if turn is None or row.is_ai or row.autopilot or seat in self._passed.get(info.id, set()):
            return None
        return turn

    def _reminder_due(self, info: TableInfo, seat: int | None) -> bool:
        reminded = self._reminded.get(info.id)
        return reminded is not None and seat is not None and reminded[0] == info.deadline and seat in reminded[1]

    async def _sync_turn(self, info: TableInfo, snapshot: Snapshot, home: Record | None, user_id: int,
                         record: Record | None) -> None:
        seat = info.seat_of(user_id)
        turn = self._turn_of(info, seat)
        person = await self.bot_state.service.store.user_settings(user_id) or {}
        if not person.get("can_message"):
            return  # blocked or never started: nothing to send, and an open message waits until they are back
        if not person.get("notify", True):
            turn = None
        if record is not None and record.state != SENT:
            record = await self._settle(info.id, record)
        if record is not None and seat is not None and (info.id, seat) in self._first_sight:
            self._first_sight.discard((info.id, seat))
            if turn is not None and record.data.get("turn") is not None:  # after a restart: it is this turn's
                self._turns[info.id][seat] = turn = int(record.data["turn"])
        reminder = self._reminder_due(info, seat)
        if record is not None:
            if turn is not None and record.data.get("turn") == turn:
                if reminder and not record.data.get("reminder"):
                    text, markup = self._turn_message(info, snapshot, home, seat, person, reminder=True)
                    if await self._edit(record, text, markup):
                        await self.records.put(info.id, record.but(data={**record.data, "reminder": True}))
                return
            over = render("over.html", person_locale(person) or home_locale(home), table=info, turn=True)
            if not await self._delete(record, over):
                return
            await self.records.drop(info.id, record.purpose)
        if turn is None:
            return
        text, markup = self._turn_message(info, snapshot, home, seat, person, reminder=reminder)
        fresh = Record(turn_purpose(user_id), user_id, None, None, SENDING, {"turn": turn, "reminder": reminder})
        await self._send(info.id, fresh, text, markup)

    def _turn_message(self, info: TableInfo, snapshot: Snapshot, home: Record | None, seat: int | None,
                      person: Mapping[str, Any], *, reminder: bool) -> tuple[str, InlineKeyboardMarkup]:
        """The text and button of a turn message, in the person's language (else the table's chat's)."""
        locale = person_locale(person) or home_locale(home)
        chat_title = (home.data.get("title") if home is not None else None) or None
        view = snapshot.view(seat)
        text = render("turn.html", locale, table=info, chat_title=chat_title, state=view.get("state") or {},
                      reminder=reminder)
        button = self.bot_state.links.open_button(translate(locale, "Open table"), info.id, private=True)
        return text, InlineKeyboardMarkup([[button]])

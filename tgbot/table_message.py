"""Each table's one message where it lives: its lobby, then its status, at the end a summary with a Rematch button.

In a group (in the forum topic where /new was typed), or in the one message its invitation
was sent in from any chat (edited only by its inline_message_id). The status is edited at
once on what matters (the start, a hand's end, a change of seats: ``urgent``). After a move
it names as to play only the people to act who are away from the table, and is edited when
whom it names changes: a new name once the new turn has waited ``status_interval`` seconds,
a name whose turn is over (or who came back) within the group budget's interval
(``GROUP_INTERVAL``), so it never keeps calling someone who has moved; at most once per
``status_interval`` per table otherwise, and never above Telegram's 20 a minute in a group,
which the budget keeps. Someone the bot may not write to is named with a mention in it
(an edit does not notify them: ``tgbot.mentions`` posts a new message that does). Every call
goes in the status lane; an edit waiting in the budget is dropped once an urgent pass queued behind it will
show a newer state.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.service.live import Snapshot, TableInfo
from engine.service.people import PeopleCache
from tgbot.away import Away
from tgbot.callbacks import Verb, button_data
from tgbot.context import BotState
from tgbot.guide import friend_rows
from tgbot.latest import Latest
from tgbot.outbox import Outbox
from tgbot.postings import Postings
from tgbot.priority import STATUS, Call
from tgbot.records import SENT, SUMMARY, TABLE, Record, Records
from tgbot.render import render, translate
from tgbot.table_texts import home_locale, standings, table_message
from tgbot.turn_book import TurnBook

GROUP_INTERVAL = 3.0  # seconds: a group's budget spreads its 20 messages a minute one each 3 s


class TableMessages:
    """Draws each table's message in its chat from the newest snapshot, throttled after moves."""

    def __init__(self, bot_state: BotState, postings: Postings, records: Records, turns: TurnBook, away: Away,
                 latest: Latest, lane: Outbox, *, status_interval: float = 4.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.bot_state = bot_state
        self.postings = postings
        self.records = records
        self.turns = turns
        self.away = away
        self.latest = latest
        self.lane = lane  # the outbox whose passes call ``sync``: an urgent pass queued there supersedes an edit
        self.status_interval = status_interval
        self.clock = clock
        self._urgent: set[str] = set()  # tables whose message must not wait for the throttle
        self._expired: set[str] = set()  # tables abandoned for idleness (their message says so)
        self._last_status: dict[str, float] = {}
        self._named: dict[str, frozenset[int]] = {}  # the seats each table's status names as to play
        self._chat_locks: dict[int, asyncio.Lock] = {}

    def urgent(self, table_id: str) -> None:
        """The table's next pass shows it at once, whatever the throttle."""
        self._urgent.add(table_id)

    def expired(self, table_id: str) -> None:
        """The table was abandoned for idleness: its message says so."""
        self._expired.add(table_id)

    def forget(self, table_id: str) -> None:
        """The table is over: nothing of its throttle is kept."""
        self._last_status.pop(table_id, None)
        self._named.pop(table_id, None)
        self._urgent.discard(table_id)

    async def sync(self, info: TableInfo, snapshot: Snapshot, home: Record, people: PeopleCache) -> float | None:
        """Bring the table's message in line with it; seconds until the throttle lets a status through (None: done)."""
        if info.status == "finished":
            await self._finish(info, home)
            return None
        record = await self.records.get(info.id, TABLE)
        if record is not None and record.state != SENT:
            record = await self.postings.settle(info.id, record, call=STATUS)
        if info.status == "abandoned":
            await self._abandoned(info, home, record)
            return None
        if home.inline_id is not None:  # a message of its own, in no chat the bot posts in: nothing to take turns on
            return await self._show(info, snapshot, home, record, people)
        async with self._chat_lock(home.chat_id):  # tables of one group take turns, each drawn as it is then
            return await self._show(info, snapshot, home, record, people)

    async def _abandoned(self, info: TableInfo, home: Record, record: Record | None) -> None:
        if record is not None and not record.data.get("closed"):
            text = render("cancelled.html", home_locale(home), table=info, expired=info.id in self._expired)
            await self.postings.edit(record, text, None, call=STATUS)
            await self.records.put(info.id, record.but(data={**record.data, "closed": True}))
        elif record is None and info.id in self._expired:
            text = render("cancelled.html", home_locale(home), table=info, expired=True)
            fresh = home.posting(TABLE)
            await self.postings.send(info.id, fresh.but(data={**fresh.data, "closed": True}), text, None, call=STATUS)
        self._expired.discard(info.id)

    def _chat_lock(self, chat_id: int) -> asyncio.Lock:
        lock = self._chat_locks.get(chat_id)
        if lock is None:
            if len(self._chat_locks) > 1024:
                for old in [c for c, held in self._chat_locks.items() if not held.locked()]:
                    del self._chat_locks[old]
            lock = self._chat_locks[chat_id] = asyncio.Lock()
        return lock

    async def _show(self, info: TableInfo, snapshot: Snapshot, home: Record, record: Record | None,
                    people: PeopleCache) -> float | None:
        latest = self.latest.get(info.id) or snapshot
        if latest.info.status not in ("lobby", "playing"):
            return None  # it ended while this pass waited: the pass its end queued shows that
        info, snapshot = latest.info, latest
        waiting = self._waiting(info) if info.status == "playing" else None
        if waiting is not None and info.id not in self._urgent:
            # after a move, the status names whose turn it is only while they are away from the table: a person
            # looking at the table is playing, and the group needs no word on it (one who leaves brings a pass once
            # the grace is over). It changes when who it names does, never more often than once an interval
            named = self._named.get(info.id)  # None: not known since this process began (a restart): drawn now
            if waiting == named:
                return None
            last, interval = self._last_status.get(info.id, float("-inf")), self.status_interval
            if named is not None and named <= waiting:  # a new name: once the new turn has waited (a quick move
                began = [self.turns.began_at(info.id, seat) for seat in waiting]  # needs no status)
                last = max(last, min((b for b in began if b is not None), default=self.clock()))
            elif named is not None:  # a name whose turn is over: gone within the group budget's interval
                interval = min(interval, GROUP_INTERVAL)
            wait = last + interval - self.clock()
            if wait > 0:
                return wait
        self._urgent.discard(info.id)
        text, markup = await table_message(self.bot_state, info, snapshot, home, people.person, waiting=waiting)
        if waiting is not None:
            self._last_status[info.id] = self.clock()
            self._named[info.id] = waiting
        table_id = info.id
        # superseded while it waits for the group's budget: an urgent pass queued behind it shows the newer state
        call = Call(STATUS.lane, wanted=lambda: not (table_id in self._urgent and self.lane.queued(table_id)))
        if record is not None and await self.postings.edit(record, text, markup, call=call):
            return None
        if record is not None:
            await self.records.drop(info.id, TABLE)
        await self.postings.send(info.id, home.posting(TABLE), text, markup, call=call)
        return None

    def _waiting(self, info: TableInfo) -> frozenset[int]:
        """The seats to act whose person is away from the table: the ones the status names."""
        return frozenset(s.seat for s in info.seats if s.seat in info.to_act and not s.is_ai and s.user_id is not None
                         and self.away.is_away(info, s.user_id))

    async def _finish(self, info: TableInfo, home: Record) -> None:
        summary = await self.records.get(info.id, SUMMARY)
        if summary is not None and summary.state != SENT:
            summary = await self.postings.settle(info.id, summary, call=STATUS)
        if summary is None:
            locale = home_locale(home)
            text = render("summary.html", locale, table=info, result=info.result or {}, order=standings(info))
            rematch = InlineKeyboardButton(translate(locale, "Rematch"),
                                           callback_data=button_data(Verb.REMATCH, info.id))
            sent = await self.postings.send(info.id, home.posting(SUMMARY), text,
                                            InlineKeyboardMarkup([[rematch], *friend_rows(self.postings.bot, locale)]),
                                            call=STATUS)
            if sent is None:
                return
        record = await self.records.get(info.id, TABLE)
        if record is not None and record.state != SENT:
            record = await self.postings.settle(info.id, record, call=STATUS)
        over = render("over.html", home_locale(home), table=info, turn=False)
        if record is not None and await self.postings.delete(record, over, call=STATUS):
            await self.records.drop(info.id, TABLE)

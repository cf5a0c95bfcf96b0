"""Notifications: the table's message in its chat, players' turn messages, the summary and the clean-up.

The notifier follows every table through ``service.subscribe(None)`` and keeps every
message the bot keeps up to date, through members built here and handed what they need:
``Postings`` posts, edits and deletes each kept message (written down first),
``TurnMessages`` keeps each person's private turn message, ``TableHomes`` knows where each
table's messages go, ``TurnBook`` what the bot remembers of each table's turns, and
``tgbot.table_texts`` says what the table's message in its chat reads. This module follows
the tables, and who has each open (``service.presence``). Each table has two lanes, each of
an ``Outbox`` of its own: the turn lane brings its people's turn messages up to date, the
table lane its message in its chat (lobby, status, summary), each from the newest snapshot, so
many changes become one pass and two passes of one lane never overlap; a turn message never
waits for a status edit. Every call they make spends the bot's one budget by priority
(``tgbot.limits``): turn messages (the oldest turn first) before lobby and status edits, before
removals (``Sweeper``, in the background). What was sent lives in the bot's own records
(``tgbot.records``), one per message, written before each send.

A turn message goes only to a person away from the table: when their turn begins, or
``grace`` seconds after they leave it mid-turn; it is removed when they come back. One waiting
to be sent is dropped once its turn is over or its person is back. A timed turn reminds the
person (still away) once ``REMINDER_AT`` of its time has passed.

A table's message in a group (in the forum topic where /new was typed), or the one
message its invitation was sent in from any chat (edited only by its inline_message_id), is its lobby,
then its status: edited at once on what matters (the start, a hand's end, a change of seats),
and after a move only while someone to act is away from the table and once the new turn has
waited ``status_interval`` seconds (at most once per ``status_interval`` per table; never
above Telegram's 20 a minute in a group, which the budget keeps), and at the end it gives
way to a summary with a Rematch button. A person whose turn it is gets one private message
per turn, deleted once the turn is over; someone the bot may not write to is named with a
mention in the table's message instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Hashable
from typing import cast

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import NetworkError, RetryAfter

from engine.service.bus import Subscription, Update
from engine.service.live import Snapshot, TableInfo
from engine.service.people import PeopleCache
from engine.service.timers import TIMERS
from tgbot.callbacks import Verb, button_data
from tgbot.context import BotState
from tgbot.homes import TableHomes
from tgbot.limits import LANE, WANTED, Lane
from tgbot.outbox import Outbox
from tgbot.postings import DeletingBot, MessageBot, Postings, Sweeper, retry_seconds
from tgbot.records import SENT, SUMMARY, TABLE, Ledger, Record, Records
from tgbot.render import render, translate
from tgbot.table_texts import home_locale, standings, table_message
from tgbot.turn_book import TurnBook
from tgbot.turn_messages import TurnMessages

log = logging.getLogger(__name__)

THROTTLED = ("moved", "seat_changed")
MATTERS = frozenset({"hand_over", "game_over"})  # events that show in the group status at once
AWAY_GRACE = 3.0  # seconds a person may leave the table mid-turn before their turn message goes
REMINDER_AT = 0.8  # a timed turn's reminder comes when this share of its time has passed
RETRY_FIRST, RETRY_MAX = 0.5, 60.0
EXPIRY_CHECK_EVERY = 600.0  # seconds between looks for idle lobbies and games


class Notifier:
    """Keeps each table's messages in step with the table."""

    def __init__(self, bot: MessageBot, bot_state: BotState, *, status_interval: float = 4.0,
                 clock: Callable[[], float] = time.monotonic, grace: float = AWAY_GRACE) -> None:
        self.bot_state = bot_state
        service = bot_state.service
        self.records = Records(service.chats)
        self.ledger = Ledger()
        self.postings = Postings(bot, self.records, self.ledger, on_refused=self._refused,
                                 on_migrated=self.chat_migrated, repost=self.refresh)
        self.homes = TableHomes(self.records, service.info)
        self.turns = TurnBook(clock)
        self.presence = service.presence
        self.sweeper = Sweeper(cast(DeletingBot, bot), self.postings)
        self.turn_messages = TurnMessages(self.postings, self.records, self.turns, self._private_open_button,
                                          is_away=self.is_away, still_wanted=self._turn_wanted,
                                          sweep=self.sweeper.sweep)
        self.status_interval = status_interval
        self.grace = grace
        self.clock = clock
        self._lanes = Outbox(self._sync)  # the table's message in its chat
        self._turn_lanes = Outbox(self._sync_turns)  # its people's turn messages
        self._unfollow: Callable[[], None] | None = None
        self._reminders: dict[str, tuple[float, asyncio.TimerHandle]] = {}  # table -> (deadline, its reminder)
        self._subscription: Subscription | None = None
        self._task: asyncio.Task[None] | None = None
        self._expiry: asyncio.Task[None] | None = None
        self._latest: dict[str, Snapshot] = {}
        self._expired: set[str] = set()
        self._urgent: set[str] = set()  # tables whose group message must not wait for the throttle
        self._last_status: dict[str, float] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._failures: dict[str, int] = {}
        self._refusals = 0  # people who refused the bot so far: a pass that meets one reads people again after
        self._chat_locks: dict[int, asyncio.Lock] = {}
        self._home_locks: dict[str, asyncio.Lock] = {}

    # life cycle -----------------------------------------------------------------

    def start(self) -> None:
        """Subscribe to every table and follow the updates; look for idle tables now and then."""
        if self._task is not None:
            return
        self._subscription = self.bot_state.service.subscribe(None)
        self._task = asyncio.create_task(self._follow(self._subscription), name="bot-notifier")
        self._unfollow = self.presence.follow(self._presence_changed)
        self._expiry = asyncio.create_task(self._expire_loop(), name="bot-expiry")
        self.bot_state.service.when_resumed(self._resumed)
        for snapshot in self.bot_state.service.open_snapshots():  # tables loaded at start: their messages now
            table_id = snapshot.info.id
            self._latest[table_id] = snapshot
            self.turns.note(snapshot.info)
            self._submit(table_id)

    def _resumed(self) -> None:
        """Back in touch with the database: the passes skipped meanwhile (no lease could be claimed) are made now."""
        for snapshot in self.bot_state.service.open_snapshots():
            self._submit(snapshot.info.id)

    def _submit(self, table_id: str) -> None:
        self._turn_lanes.submit(table_id)
        self._lanes.submit(table_id)

    async def stop(self) -> None:
        """Stop following; queued work is dropped."""
        if self._subscription is not None:
            self._subscription.close()
        if self._unfollow is not None:
            self._unfollow()
            self._unfollow = None
        for task in (self._task, self._expiry):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._expiry = None
        for timer in [*self._timers.values(), *(handle for _, handle in self._reminders.values())]:
            timer.cancel()
        self._timers.clear()
        self._reminders.clear()
        await self._lanes.close()
        await self._turn_lanes.close()
        await self.sweeper.close()

    @property
    def busy(self) -> bool:
        """Whether updates, timers or Telegram calls are still pending."""
        queued = self._subscription is not None and not self._subscription.queue.empty()
        return queued or bool(self._timers) or self._lanes.busy or self._turn_lanes.busy or self.sweeper.busy

    async def idle(self) -> None:
        """Wait until every update received so far is shown (throttled edits included; for tests)."""
        while True:
            await asyncio.sleep(0)
            subscription = self._subscription
            if subscription is not None and not subscription.queue.empty():
                await asyncio.sleep(0.005)
                continue
            if self._timers:
                await asyncio.sleep(0.005)
                continue
            if self._lanes.busy or self._turn_lanes.busy or self.sweeper.busy:
                await self._lanes.idle()
                await self._turn_lanes.idle()
                await self.sweeper.idle()
                continue
            return

    async def _follow(self, subscription: Subscription) -> None:
        async for update in subscription:
            try:
                self.on_update(update)
            except Exception:
                log.exception("bot could not follow update %s of table %s", update.seq, update.table_id)

    async def _expire_loop(self) -> None:
        settings = self.bot_state.settings
        while True:
            await asyncio.sleep(EXPIRY_CHECK_EVERY)
            try:
                await self.bot_state.service.expire_idle(lobby_after=settings.lobby_expiry_hours * 3600,
                                                   game_after=settings.game_expiry_days * 86400)
            except Exception:
                log.exception("looking for idle tables failed")

    # what changed -----------------------------------------------------------------

    def on_update(self, update: Update) -> None:
        """Note what one table update changed (in order: turns begin and end here) and queue the table's pass."""
        info = update.info
        self._latest[info.id] = update.snapshot
        self.turns.note(info)
        self._arm_reminder(info)
        for event in update.events:
            kind = event.data.get("type")
            if kind == "timed_out":
                self.turns.stood_in(info.id, int(event.data["seat"]))
            elif kind == "expired":
                self._expired.add(info.id)
            elif kind in MATTERS:
                self._urgent.add(info.id)
        if update.kind not in THROTTLED:
            self._urgent.add(info.id)
        self._submit(info.id)

    def refresh(self, table_id: str) -> None:
        """Bring the table's messages up to date now."""
        self._urgent.add(table_id)
        self._submit(table_id)

    def recheck(self, table_id: str) -> None:
        """Bring the table's messages up to date (the group message within the throttle)."""
        self._submit(table_id)

    # presence and reminders ------------------------------------------------------------

    def is_away(self, table_id: str, user_id: int) -> bool:
        """Whether the person is away from the table: no page of theirs in front of them since before their turn
        began, or for ``grace`` seconds (someone who leaves mid-turn may only be glancing at another app)."""
        if self.presence.is_present(table_id, user_id):
            return False
        left = self.presence.left_at(table_id, user_id)
        if left is None:
            return True
        now = self.presence.clock()
        if now - left >= self.grace:
            return True
        latest = self._latest.get(table_id)
        seat = latest.info.seat_of(user_id) if latest is not None else None
        began = self.turns.began_at(table_id, seat) if seat is not None else None
        return began is not None and left <= now - (self.clock() - began)  # gone before this turn began

    def _presence_changed(self, table_id: str, user_id: int, present: bool) -> None:
        """Back at the table: their turn message goes now; gone: it comes after the grace, if still away."""
        if table_id not in self._latest and self.bot_state.service.snapshot(table_id) is None:
            return
        if present:
            self._turn_lanes.submit(table_id)
            return
        name = f"away:{table_id}:{user_id}"
        if name in self._timers:
            self._timers.pop(name).cancel()

        def again() -> None:
            self._timers.pop(name, None)
            self._turn_lanes.submit(table_id)
            self._submit(table_id)  # away now: the group's message may name whose turn has waited

        self._timers[name] = asyncio.get_running_loop().call_later(self.grace, again)

    def _turn_wanted(self, table_id: str, user_id: int, seat: int, turn: int) -> bool:
        """Whether a queued turn message may still go: the turn is still on and its person still away."""
        latest = self._latest.get(table_id)
        if latest is None:
            return False
        info = latest.info
        if info.status != "playing" or self.turns.turn_of(info, seat) != turn:
            return False
        return self.is_away(table_id, user_id)

    def _arm_reminder(self, info: TableInfo) -> None:
        """A timed turn's reminder, once ``REMINDER_AT`` of its time has passed (by the table's clock)."""
        armed = self._reminders.get(info.id)
        deadline, duration = info.deadline, TIMERS.get(info.timer)
        live = deadline is not None and bool(duration) and info.status == "playing" and bool(info.to_act)
        left = (deadline - (duration or 0.0) * (1 - REMINDER_AT) - self.bot_state.service.clock()
                if deadline is not None else 0.0)
        if armed is not None and armed[0] == deadline and live and left > 0:
            return
        if armed is not None:
            armed[1].cancel()
            del self._reminders[info.id]
        if not live or deadline is None or (self.turns.reminder_due(info, info.to_act[0]) and left <= 0):
            return
        table_id = info.id

        def remind() -> None:
            self._reminders.pop(table_id, None)
            latest = self._latest.get(table_id)
            if latest is None or latest.info.deadline != deadline:
                return
            waiting = [s.seat for s in latest.info.seats if s.seat in latest.info.to_act and not s.is_ai]
            self.turns.reminded(table_id, deadline, waiting)
            self._turn_lanes.submit(table_id)

        if left <= 0:
            remind()
            return
        self._reminders[info.id] = (deadline, asyncio.get_running_loop().call_later(left, remind))

    # homes ------------------------------------------------------------------------

    def expect(self, chat_id: int, host_id: int, *, thread_id: int | None, locale: str | None,
               title: str | None = None) -> None:
        """The next table ``host_id`` opens in ``chat_id`` lives in this topic and language (call first)."""
        self.homes.expect(chat_id, host_id, thread_id=thread_id, locale=locale, title=title)

    def unexpect(self, chat_id: int, host_id: int) -> None:
        """No table was opened after ``expect`` after all."""
        self.homes.unexpect(chat_id, host_id)

    async def home(self, table_id: str) -> Record | None:
        """Where a table's messages go, once known."""
        return await self.homes.home(table_id)

    async def live_inline(self, table_id: str, inline_message_id: str, *, locale: str | None) -> str:
        """The table lives in this message sent via the bot (its invitation): show it there now. Another table opened
        there first (by another process) keeps it: the table that lives there."""
        lives = await self.homes.live_inline(table_id, inline_message_id, locale=locale)
        if lives == table_id:
            self.refresh(table_id)
        return lives

    async def inline_table(self, inline_message_id: str) -> str | None:
        """The table opened in this inline message, if any (by any process)."""
        return await self.homes.inline_table(inline_message_id)

    # people and chats ----------------------------------------------------------------

    async def cannot_message(self, user_id: int) -> None:
        """Telegram refused a private message: name the person in the group instead from now on."""
        self.bot_state.reachable.discard(user_id)
        self._refusals += 1
        await self.bot_state.service.people.set_can_message(user_id, False)
        for info in await self.bot_state.service.tables_of(user_id):
            self.refresh(info.id)

    async def can_message_again(self, user_id: int) -> None:
        """The person (re)started or unblocked the bot: their turn messages resume."""
        self.bot_state.reachable.add(user_id)
        await self.bot_state.service.people.set_can_message(user_id, True)
        for info in await self.bot_state.service.tables_of(user_id):
            self.refresh(info.id)

    async def chat_migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its tables (and their messages) move to the new chat."""
        self.postings.chat_back(new_chat_id)
        self.homes.chat_migrated(old_chat_id, new_chat_id)
        await self.bot_state.service.move_chat(old_chat_id, new_chat_id)

    def chat_gone(self, chat_id: int) -> None:
        """The bot was removed from a group: stop writing there."""
        self.postings.chat_gone(chat_id)

    def chat_back(self, chat_id: int) -> None:
        """The bot was added to a group again: its open tables show up there again."""
        if self.postings.chat_back(chat_id):
            task = asyncio.get_running_loop().create_task(self._refresh_chat(chat_id))
            task.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def _refresh_chat(self, chat_id: int) -> None:
        for info in await self.bot_state.service.tables_in_chat(chat_id):
            self.refresh(info.id)

    # one table's pass -----------------------------------------------------------------

    async def _sync(self, lane: Hashable, _key: Hashable) -> None:
        table_id = str(lane)
        if not await self.bot_state.service.claim(table_id):
            return  # another process drives this table and sends its messages
        snapshot = self._latest.get(table_id) or self.bot_state.service.snapshot(table_id)
        if snapshot is None:
            return
        info, people = snapshot.info, self.bot_state.service.people.cache()
        token = LANE.set(Lane.STATUS)
        try:
            home = await self._home_of(info)
            if home is not None and not self.postings.is_gone(home.chat_id):
                await self._sync_table(info, snapshot, home, people)
        except RetryAfter as error:  # Telegram's flood control: try again when it says
            self._retry(table_id, retry_seconds(error.retry_after) + 0.05)
            return
        except NetworkError as error:  # a lost answer or a 5xx: try again a little later
            self._retry(table_id, self._backoff(table_id, error))
            return
        finally:
            LANE.reset(token)
        self._failures.pop(table_id, None)
        self._over(table_id, snapshot)

    async def _sync_turns(self, lane: Hashable, _key: Hashable) -> None:
        """The turn lane's pass: every turn message of the table as the newest snapshot has it."""
        table_id = str(lane)
        if not await self.bot_state.service.claim(table_id):
            return
        snapshot = self._latest.get(table_id) or self.bot_state.service.snapshot(table_id)
        if snapshot is None:
            return
        info, people = snapshot.info, self.bot_state.service.people.cache()
        self._arm_reminder(info)  # a reminder come due by the table's clock is noted before the messages are drawn
        token = LANE.set(Lane.TURN)
        try:
            home = await self._home_of(info)
            await self.turn_messages.sync(info, snapshot, home, people.person)
        except RetryAfter as error:
            self._retry(table_id, retry_seconds(error.retry_after) + 0.05, turns=True)
            return
        except NetworkError as error:
            self._retry(table_id, self._backoff(f"turns:{table_id}", error), turns=True)
            return
        finally:
            LANE.reset(token)
        self._failures.pop(f"turns:{table_id}", None)
        self._over(table_id, snapshot)

    async def _home_of(self, info: TableInfo) -> Record | None:
        """The table's home, settled by one lane at a time (the first sight of a table settles it once)."""
        lock = self._home_locks.get(info.id)
        if lock is None:
            if len(self._home_locks) > 1024:
                for old in [t for t, held in self._home_locks.items() if not held.locked()]:
                    del self._home_locks[old]
            lock = self._home_locks[info.id] = asyncio.Lock()
        async with lock:
            return await self.homes.home_of(info)

    def _backoff(self, name: str, error: Exception) -> float:
        failures = self._failures[name] = self._failures.get(name, 0) + 1
        delay = min(RETRY_MAX, RETRY_FIRST * 2.0 ** (failures - 1))
        log.info("%s: Telegram did not answer (%s); trying again in %.1f s", name, error, delay)
        return delay

    def _over(self, table_id: str, snapshot: Snapshot) -> None:
        """A table that ended forgets what the bot noted of it (a later pass reads the table afresh)."""
        if snapshot.info.status not in ("finished", "abandoned"):
            return
        if self._latest.get(table_id, snapshot) is not snapshot:
            return
        for memo in (self._latest, self._last_status):
            memo.pop(table_id, None)
        armed = self._reminders.pop(table_id, None)
        if armed is not None:
            armed[1].cancel()
        self.turns.forget(table_id)
        self._urgent.discard(table_id)

    def _retry(self, table_id: str, seconds: float, *, turns: bool = False) -> None:
        name = f"{'turns' if turns else 'retry'}:{table_id}"
        if name in self._timers:
            return
        outbox = self._turn_lanes if turns else self._lanes

        def again() -> None:
            self._timers.pop(name, None)
            outbox.submit(table_id)

        self._timers[name] = asyncio.get_running_loop().call_later(seconds, again)

    # the table's message in its chat ---------------------------------------------------

    async def _sync_table(self, info: TableInfo, snapshot: Snapshot, home: Record, people: PeopleCache) -> None:
        if info.status == "finished":
            await self._finish(info, home)
            return
        record = await self.records.get(info.id, TABLE)
        if record is not None and record.state != SENT:
            record = await self.postings.settle(info.id, record)
        if info.status == "abandoned":
            if record is not None and not record.data.get("closed"):
                text = render("cancelled.html", home_locale(home), table=info, expired=info.id in self._expired)
                await self.postings.edit(record, text, None)
                await self.records.put(info.id, record.but(data={**record.data, "closed": True}))
            elif record is None and info.id in self._expired:
                text = render("cancelled.html", home_locale(home), table=info, expired=True)
                fresh = home.posting(TABLE)
                await self.postings.send(info.id, fresh.but(data={**fresh.data, "closed": True}), text, None)
            self._expired.discard(info.id)
            return
        if home.inline_id is not None:  # a message of its own, in no chat the bot posts in: nothing to take turns on
            await self._show_table(info, snapshot, home, record, people)
            return
        async with self._chat_lock(home.chat_id):  # tables of one group take turns, each drawn as it is then
            await self._show_table(info, snapshot, home, record, people)

    def _chat_lock(self, chat_id: int) -> asyncio.Lock:
        lock = self._chat_locks.get(chat_id)
        if lock is None:
            if len(self._chat_locks) > 1024:
                for old in [c for c, held in self._chat_locks.items() if not held.locked()]:
                    del self._chat_locks[old]
            lock = self._chat_locks[chat_id] = asyncio.Lock()
        return lock

    async def _show_table(self, info: TableInfo, snapshot: Snapshot, home: Record, record: Record | None,
                          people: PeopleCache) -> None:
        latest = self._latest.get(info.id) or snapshot
        if latest.info.status not in ("lobby", "playing"):
            return  # it ended while this pass waited: the pass its end queued shows that
        info, snapshot = latest.info, latest
        if info.status == "playing" and info.id not in self._urgent:
            # after a move, only while someone to act is away from the table: a person looking at the table is
            # playing, and the group needs no word on it (one who leaves brings a pass once the grace is over)
            acting = [s.user_id for s in info.seats if s.seat in info.to_act and not s.is_ai and s.user_id is not None]
            if not any(self.is_away(info.id, user_id) for user_id in acting):
                return
            # then once the new turn has waited (a quick move needs no status), and never more often
            began = [self.turns.began_at(info.id, seat) for seat in info.to_act]
            waited = min((b for b in began if b is not None), default=self.clock())
            due = max(self._last_status.get(info.id, float("-inf")), waited) + self.status_interval
            wait = due - self.clock()
            if wait > 0:
                self._retry(info.id, wait)
                return
        self._urgent.discard(info.id)
        text, markup = await table_message(self.bot_state, info, snapshot, home, people.person)
        if info.status == "playing":
            self._last_status[info.id] = self.clock()
        table_id = info.id
        # superseded while it waits for the group's budget: an urgent pass queued behind it shows the newer state
        token = WANTED.set(lambda: not (table_id in self._urgent and self._lanes.queued(table_id)))
        try:
            if record is not None and await self.postings.edit(record, text, markup):
                return
            if record is not None:
                await self.records.drop(info.id, TABLE)
            await self.postings.send(info.id, home.posting(TABLE), text, markup)
        finally:
            WANTED.reset(token)

    async def _finish(self, info: TableInfo, home: Record) -> None:
        summary = await self.records.get(info.id, SUMMARY)
        if summary is not None and summary.state != SENT:
            summary = await self.postings.settle(info.id, summary)
        if summary is None:
            locale = home_locale(home)
            text = render("summary.html", locale, table=info, result=info.result or {}, order=standings(info))
            rematch = InlineKeyboardButton(translate(locale, "Rematch"),
                                           callback_data=button_data(Verb.REMATCH, info.id))
            sent = await self.postings.send(info.id, home.posting(SUMMARY), text, InlineKeyboardMarkup([[rematch]]))
            if sent is None:
                return
        record = await self.records.get(info.id, TABLE)
        if record is not None and record.state != SENT:
            record = await self.postings.settle(info.id, record)
        if record is not None and await self.postings.delete(record, render("over.html", home_locale(home), table=info,
                                                                   turn=False)):
            await self.records.drop(info.id, TABLE)

    async def _refused(self, chat_id: int) -> None:
        """Telegram refused the bot a chat: a person blocked it, or a group removed it."""
        if chat_id > 0:
            await self.cannot_message(chat_id)
        else:
            self.chat_gone(chat_id)

    def _private_open_button(self, label: str, table_id: str) -> InlineKeyboardButton:
        """The button that opens a table from a private chat."""
        return self.bot_state.links.open_button(label, table_id, private=True)

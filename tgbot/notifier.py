"""Notifications: every table followed through ``service.subscribe(None)``, its messages kept in step by parts.

The notifier is the wiring. Built here and handed what they need: ``Postings`` posts, edits
and deletes each kept message (written down first in ``tgbot.records``, a part of its own
that handlers read too), ``Sweeper`` removes what is over in the background,
``TableHomes`` knows where each table's messages go, ``TurnBook`` what the bot remembers of
each table's turns, ``Away`` who is away from a table (``service.presence``), ``Latest``
each table's newest snapshot, ``TableMessages`` draws the table's message in its chat
(lobby, status, summary) and ``TurnMessages`` carries out the plan of
``tgbot.turn_plan``, the one place a turn message (and its reminder) is decided; ``Mentions``
the group's mention of someone the bot may not write to (``tgbot.mention_plan``). At start the
games waiting on a person are found and followed (``tgbot.awaited``): presence died with the last process.

Each table has two lanes, each of an ``Outbox`` of its own: the turn lane brings its
people's turn messages up to date, the table lane its message in its chat, each from the
newest snapshot, so many changes become one pass and two passes of one lane never overlap;
a turn message never waits for a status edit. A pass that Telegram holds back (a 429, a
lost answer) is tried again later; a turn pass is also made again when its plan says (a
reminder comes due by the table's clock). Every call of a pass is handed its place in the
bot's one budget explicitly (``tgbot.priority``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Hashable
from typing import cast

from telegram import InlineKeyboardButton
from telegram.error import NetworkError, RetryAfter

from engine.core.errors import Refusal
from engine.service.bus import Subscription, Update
from engine.service.live import Snapshot
from tgbot.awaited import follow_awaited
from tgbot.away import AWAY_GRACE, Away
from tgbot.context import BotState
from tgbot.homes import TableHomes
from tgbot.later import Later
from tgbot.latest import Latest
from tgbot.mentions import Mentions
from tgbot.outbox import Outbox
from tgbot.postings import DeletingBot, MessageBot, Postings, Sweeper, retry_seconds
from tgbot.records import Record
from tgbot.table_message import TableMessages
from tgbot.turn_book import TurnBook
from tgbot.turn_messages import TurnMessages

__all__ = ["AWAY_GRACE", "Notifier"]

log = logging.getLogger(__name__)

THROTTLED = ("moved", "seat_changed")
MATTERS = frozenset({"hand_over", "game_over"})  # events that show in the group status at once
EXPIRY_CHECK_EVERY = 600.0  # seconds between looks for idle lobbies and games


class Notifier:
    """Keeps each table's messages in step with the table."""

    def __init__(self, bot: MessageBot, bot_state: BotState, *, status_interval: float = 4.0,
                 clock: Callable[[], float] = time.monotonic, grace: float = AWAY_GRACE) -> None:
        self.bot_state = bot_state
        service = bot_state.service
        self.records, self.ledger = bot_state.records, bot_state.ledger
        self.postings = Postings(bot, self.records, self.ledger, on_refused=self._refused,
                                 on_migrated=self.chat_migrated, repost=self.refresh)
        self.homes = TableHomes(self.records, service.info)
        self.turns = TurnBook(clock)
        self.latest = Latest()
        self.presence = service.presence
        self.away = Away(self.presence, self.turns, grace=grace, clock=clock)
        self.sweeper = Sweeper(cast(DeletingBot, bot), self.postings)
        self.turn_messages = TurnMessages(self.postings, self.records, self.turns, self._private_open_button,
                                          away=self.away, latest=self.latest, sweep=self.sweeper.sweep,
                                          now=service.clock)
        self.mentions = Mentions(self.postings, self.records, self.turns, self.away, self.latest,
                                 self._group_open_button, clock=clock)
        self._lanes = Outbox(self._sync)  # the table's message in its chat
        self._turn_lanes = Outbox(self._sync_turns)  # its people's turn messages
        self.table_messages = TableMessages(bot_state, self.postings, self.records, self.turns, self.away,
                                            self.latest, self._lanes, status_interval=status_interval, clock=clock)
        self._unfollow: Callable[[], None] | None = None
        self._subscription: Subscription | None = None
        self._task: asyncio.Task[None] | None = None
        self._expiry: asyncio.Task[None] | None = None
        self._awaited: asyncio.Task[None] | None = None  # the games awaiting a person, read at start
        self._later = Later()  # retries, the grace after someone leaves, the turn plan's wake-ups

    @property
    def grace(self) -> float:
        """Seconds a person may leave the table mid-turn before they count as away."""
        return self.away.grace

    @grace.setter
    def grace(self, seconds: float) -> None:
        self.away.grace = seconds

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
            self._found(snapshot)
        # the games a person is to act in, loaded or not: presence was in memory, so they are due here now
        self._awaited = asyncio.create_task(self._follow_awaited(), name="bot-awaited")

    def _found(self, snapshot: Snapshot) -> None:
        """A table this process had not followed: its messages now, as if it had just changed."""
        self.latest.note(snapshot)
        self.turns.note(snapshot.info)
        self._submit(snapshot.info.id)

    async def _follow_awaited(self) -> None:
        service = self.bot_state.service
        try:
            await follow_awaited(service.awaited_tables, service.info, service.snapshot, self._found)
        except Exception:
            log.exception("the games awaiting a person could not be read at start")

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
        for task in (self._task, self._expiry, self._awaited):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._expiry = self._awaited = None
        self._later.close()
        await self._lanes.close()
        await self._turn_lanes.close()
        await self.sweeper.close()

    @property
    def busy(self) -> bool:
        """Whether updates, timers or Telegram calls are still pending."""
        queued = self._subscription is not None and not self._subscription.queue.empty()
        reading = self._awaited is not None and not self._awaited.done()
        passes = self._lanes.busy or self._turn_lanes.busy or self.sweeper.busy
        return reading or queued or self._later.pending or passes

    async def idle(self) -> None:
        """Wait until every update received so far is shown (throttled edits included; for tests)."""
        while True:
            await asyncio.sleep(0)
            subscription = self._subscription
            if subscription is not None and not subscription.queue.empty():
                await asyncio.sleep(0.005)
                continue
            if self._later.pending or (self._awaited is not None and not self._awaited.done()):
                await asyncio.sleep(0.005)
                continue
            if self._lanes.busy or self._turn_lanes.busy or self.sweeper.busy:
                await self._lanes.idle()
                await self._turn_lanes.idle()
                await self.sweeper.idle()
                continue
            return

    async def flush(self) -> None:
        """Make the passes already due (every update received so far), not the wake-ups planned later (a stop)."""
        queue = self._subscription.queue if self._subscription is not None else None
        while self._turn_lanes.busy or self._lanes.busy or (queue is not None and not queue.empty()):  # noqa: ASYNC110
            await asyncio.sleep(0.005)

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
        """Note what one table update changed (in order: turns begin and end here) and queue the table's passes."""
        info = update.info
        self.latest.note(update.snapshot)
        self.turns.note(info)
        for event in update.events:
            kind = event.data.get("type")
            if kind == "timed_out":
                self.turns.stood_in(info.id, int(event.data["seat"]))
            elif kind == "expired":
                self.table_messages.expired(info.id)
            elif kind in MATTERS:
                self.table_messages.urgent(info.id)
        if update.kind not in THROTTLED:
            self.table_messages.urgent(info.id)
        self._submit(info.id)

    def refresh(self, table_id: str) -> None:
        """Bring the table's messages up to date now."""
        self.table_messages.urgent(table_id)
        self._submit(table_id)

    def _presence_changed(self, table_id: str, user_id: int, present: bool) -> None:
        """Back at the table: their turn message goes now; gone: it comes after the grace, if still away."""
        if table_id not in self.latest and self.bot_state.service.snapshot(table_id) is None:
            return
        if present:
            self._turn_lanes.submit(table_id)
            return
        # away once the grace is over: a turn message, and the group's message may name whose turn waited
        self._later.once(f"away:{table_id}:{user_id}", self.away.grace, lambda: self._submit(table_id), again=True)

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

    async def _refused(self, chat_id: int) -> None:
        """Telegram refused the bot a chat: a person blocked it, or a group removed it."""
        if chat_id > 0:
            await self.cannot_message(chat_id)
        else:
            self.chat_gone(chat_id)

    def _group_open_button(self, label: str, table_id: str) -> InlineKeyboardButton:
        """The button that opens a table from a group."""
        return self.bot_state.links.open_button(label, table_id, private=False)

    def _private_open_button(self, label: str, table_id: str) -> InlineKeyboardButton:
        """The button that opens a table from a private chat."""
        return self.bot_state.links.open_button(label, table_id, private=True)

    # one table's passes ---------------------------------------------------------------

    async def _sync(self, lane: Hashable, _key: Hashable) -> None:
        """The table lane's pass: the table's message in its chat as the newest snapshot has it."""
        table_id = str(lane)
        snapshot = await self._claimed(table_id)
        if snapshot is None:
            return
        info, people = snapshot.info, self.bot_state.service.people.cache()
        try:
            home = await self.homes.home_of(info)
            wait = None
            if home is not None and not self.postings.is_gone(home.chat_id):
                wait = await self.table_messages.sync(info, snapshot, home, people)
        except RetryAfter as error:  # Telegram's flood control: try again when it says
            self._retry(table_id, retry_seconds(error.retry_after) + 0.05)
            return
        except NetworkError as error:  # a lost answer or a 5xx: try again a little later
            self._retry(table_id, self._later.backoff(table_id, error))
            return
        self._later.succeeded(table_id)
        if wait is not None:  # the throttle holds the status back: drawn again once it lets it through
            self._retry(table_id, wait)
        self._over(table_id, snapshot)

    async def _sync_turns(self, lane: Hashable, _key: Hashable) -> None:
        """The turn lane's pass: every turn message of the table as the newest snapshot has it."""
        table_id = str(lane)
        snapshot = await self._claimed(table_id)
        if snapshot is None:
            return
        info, people = snapshot.info, self.bot_state.service.people.cache()
        try:
            home = await self.homes.home_of(info)
            wake_at = await self.turn_messages.sync(info, snapshot, home, people.person)
            mention_in = await self.mentions.sync(info, home, people.person)
        except RetryAfter as error:
            self._retry(table_id, retry_seconds(error.retry_after) + 0.05, turns=True)
            return
        except NetworkError as error:
            self._retry(table_id, self._later.backoff(f"turns:{table_id}", error), turns=True)
            return
        self._later.succeeded(f"turns:{table_id}")
        self._wake(table_id, wake_at)
        at = None if mention_in is None else time.monotonic() + mention_in  # someone comes due for a mention
        self._later.wake(f"mention:{table_id}", at, mention_in or 0.0, lambda: self._turn_lanes.submit(table_id))
        opens_in = self.away.opens_in(table_id)
        if opens_in is not None:  # the moment given to open the table ends: whoever is still not there is away
            self._later.once(f"opening:{table_id}", opens_in + 0.01, lambda: self._submit(table_id))
        self._over(table_id, snapshot)

    async def _claimed(self, table_id: str) -> Snapshot | None:
        """The table's newest snapshot, when this process drives its messages (None: another does, or it is gone)."""
        service = self.bot_state.service
        if not await service.claim(table_id):
            return None
        if service.snapshot(table_id) is None:  # not in memory: unloaded while another process drove it, whose
            with contextlib.suppress(Refusal):  # updates stopped here then; taken over, it is read afresh
                await service.info(table_id)
                if (fresh := service.snapshot(table_id)) is not None:
                    self.latest.note(fresh)
                    self.turns.note(fresh.info)
        return self.latest.get(table_id) or service.snapshot(table_id)

    def _wake(self, table_id: str, at: float | None) -> None:
        """The table's turn messages are planned again at ``at`` (the table's clock): a reminder comes due then."""
        delay = 0.0 if at is None else at - self.bot_state.service.clock()
        self._later.wake(table_id, at, delay, lambda: self._turn_lanes.submit(table_id))

    def _over(self, table_id: str, snapshot: Snapshot) -> None:
        """A table that ended forgets what the bot noted of it (a later pass reads the table afresh)."""
        if snapshot.info.status not in ("finished", "abandoned") or not self.latest.forget(table_id, snapshot):
            return
        self._wake(table_id, None)
        self.turns.forget(table_id)
        self.table_messages.forget(table_id)

    def _retry(self, table_id: str, seconds: float, *, turns: bool = False) -> None:
        outbox = self._turn_lanes if turns else self._lanes
        self._later.once(f"{'turns' if turns else 'retry'}:{table_id}", seconds, lambda: outbox.submit(table_id))

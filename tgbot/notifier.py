"""Notifications: the table's message in its chat, players' turn messages, the summary and the clean-up.

The notifier follows every table through ``service.subscribe(None)`` and owns every
message the bot keeps up to date. Work goes through an ``Outbox`` per chat, so many
changes become one call that shows the state as it is then. A table's message in a
group is its lobby, then its status (edited in place at most once per
``status_interval`` seconds while play goes on, naming whose turn it is), and at the
end it gives way to a summary with a Rematch button. A person whose turn it is gets
one private message, deleted once they have moved; someone the bot may not write to
is named with a mention in the table's message instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Hashable
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError
from telegram.ext import ExtBot

from engine import games
from engine.core.errors import Refusal
from engine.service.bus import Subscription, Update
from engine.service.live import TableInfo
from tgbot.callbacks import Verb, button_data
from tgbot.context import BotState
from tgbot.keyboards import lobby_keyboard, options_keyboard
from tgbot.outbox import Outbox
from tgbot.records import LOCALE, MESSAGE, SUMMARY, TURNS
from tgbot.render import render, translate

log = logging.getLogger(__name__)

THROTTLED = ("moved", "seat_changed")


class Notifier:
    """Keeps each table's messages in step with the table."""

    def __init__(self, bot: ExtBot[None], room: BotState, *, status_interval: float = 4.0) -> None:
        self.bot = bot
        self.room = room
        self.status_interval = status_interval
        self._outbox = Outbox(self._work)
        self._subscription: Subscription | None = None
        self._task: asyncio.Task[None] | None = None
        self._last_status: dict[str, float] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._shown: dict[tuple[int, int], tuple[str, Any]] = {}

    # life cycle -----------------------------------------------------------------

    def start(self) -> None:
        """Subscribe to every table and follow the updates."""
        self._subscription = self.room.service.subscribe(None)
        self._task = asyncio.create_task(self._follow(self._subscription), name="bot-notifier")

    async def stop(self) -> None:
        """Stop following; queued work is dropped."""
        if self._subscription is not None:
            self._subscription.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        await self._outbox.close()

    @property
    def busy(self) -> bool:
        """Whether updates, timers or Telegram calls are still pending."""
        queued = self._subscription is not None and not self._subscription.queue.empty()
        return queued or bool(self._timers) or self._outbox.busy

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
            if self._outbox.busy:
                await self._outbox.idle()
                continue
            return

    async def _follow(self, subscription: Subscription) -> None:
        async for update in subscription:
            try:
                self.on_update(update)
            except Exception:
                log.exception("bot could not follow update %s of table %s", update.seq, update.table_id)

    # what changed -----------------------------------------------------------------

    def on_update(self, update: Update) -> None:
        """Queue the work one table update calls for."""
        info: TableInfo | None = update.info
        if info is None:
            return
        if info.chat_id is not None:
            if update.kind in THROTTLED:
                self.refresh_later(info.id, info.chat_id)
            else:
                self.refresh(info.id, info.chat_id)
        reminded = {e.data["seat"] for e in update.events if e.data.get("type") == "reminder"}
        for seat in info.seats:
            if seat.user_id is not None and seat.user_id != info.chat_id:
                kind = "reminder" if seat.seat in reminded else "turn"
                self._outbox.submit(seat.user_id, (kind, info.id))

    def recheck_turn(self, info: TableInfo, user_id: int) -> None:
        """Someone's reachability changed: bring their turn message at this table up to date."""
        if user_id != info.chat_id:
            self._outbox.submit(user_id, ("turn", info.id))

    def refresh(self, table_id: str, chat_id: int) -> None:
        """Bring the table's message up to date now."""
        timer = self._timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        self._outbox.submit(chat_id, ("table", table_id))

    def refresh_later(self, table_id: str, chat_id: int) -> None:
        """Bring the table's message up to date, at most once per ``status_interval``."""
        if table_id in self._timers:
            return
        wait = self._last_status.get(table_id, 0.0) + self.status_interval - time.monotonic()
        if wait <= 0:
            self.refresh(table_id, chat_id)
            return
        loop = asyncio.get_running_loop()
        self._timers[table_id] = loop.call_later(wait, self.refresh, table_id, chat_id)

    async def _work(self, chat_id: int, key: Hashable) -> None:
        assert isinstance(key, tuple)
        kind, table_id = key
        try:
            info = await self.room.service.info(table_id)
        except Refusal:
            return
        try:
            if kind == "table":
                await self._sync_table(chat_id, info)
            else:
                await self._sync_turn(chat_id, info, reminder=kind == "reminder")
        except RetryAfter as error:  # Telegram's flood control: try again when it says
            self._retry(chat_id, key, error.retry_after)

    def _retry(self, chat_id: int, key: Hashable, after: Any) -> None:
        seconds = after.total_seconds() if hasattr(after, "total_seconds") else float(after)
        name = f"retry:{chat_id}:{key}"
        if name in self._timers:
            return

        def again() -> None:
            self._timers.pop(name, None)
            self._outbox.submit(chat_id, key)

        self._timers[name] = asyncio.get_running_loop().call_later(seconds + 0.05, again)

    # the table's message ----------------------------------------------------------

    async def _locale(self, table_id: str) -> str | None:
        value = await self.room.service.get_meta(table_id, LOCALE)
        return value if isinstance(value, str) else None

    async def _sync_table(self, chat_id: int, info: TableInfo) -> None:
        service = self.room.service
        locale = await self._locale(info.id)
        stored = await service.get_meta(info.id, MESSAGE)
        message_id = stored.get("id") if isinstance(stored, dict) and stored.get("chat") == chat_id else None
        if info.status == "finished":
            await self._finish(chat_id, info, message_id, locale)
            return
        text, markup = await self._table_message(chat_id, info, locale)
        if info.status == "playing":
            self._last_status[info.id] = time.monotonic()
        if message_id is not None and await self._edit(chat_id, message_id, text, markup):
            return
        if info.status == "abandoned":
            return
        sent = await self._send(chat_id, text, markup)
        if sent is not None:
            await service.set_meta(info.id, MESSAGE, {"chat": chat_id, "id": sent.message_id})

    async def _table_message(self, chat_id: int, info: TableInfo, locale: str | None
                             ) -> tuple[str, InlineKeyboardMarkup | None]:
        room, private = self.room, chat_id > 0
        people = await self._people(info)
        if info.status == "lobby":
            text = render("lobby.html", locale, table=info, people=people, links=room.links,
                          options=_described(info), private=private)
            if info.id in room.options_open:
                return text, options_keyboard(info, locale)
            return text, lobby_keyboard(info, room.links, locale, private=private)
        if info.status == "abandoned":
            return render("cancelled.html", locale, table=info), None
        view = await room.service.view(info.id, None)
        text = render("status.html", locale, table=info, people=people, state=view.get("state") or {})
        button = room.links.open_button(translate(locale, "Open table"), info.id, private=private)
        return text, InlineKeyboardMarkup([[button]])

    async def _people(self, info: TableInfo) -> dict[int, dict[str, Any]]:
        """Each seated person's settings (may the bot write to them, do they want turn messages)."""
        people: dict[int, dict[str, Any]] = {}
        for seat in info.seats:
            if seat.user_id is not None:
                found = await self.room.service.store.user_settings(seat.user_id)
                people[seat.seat] = found or {"id": seat.user_id, "notify": True, "can_message": False}
        return people

    async def _finish(self, chat_id: int, info: TableInfo, message_id: int | None, locale: str | None) -> None:
        service = self.room.service
        if await service.get_meta(info.id, SUMMARY) is None:
            text = render("summary.html", locale, table=info, result=info.result or {},
                          order=_standings(info))
            rematch = InlineKeyboardButton(translate(locale, "Rematch"),
                                           callback_data=button_data(Verb.REMATCH, info.id))
            sent = await self._send(chat_id, text, InlineKeyboardMarkup([[rematch]]))
            if sent is None:
                return
            await service.set_meta(info.id, SUMMARY, sent.message_id)
        if message_id is not None:
            await self._delete(chat_id, message_id)
            await service.set_meta(info.id, MESSAGE, None)

    # turn messages ----------------------------------------------------------------

    async def _sync_turn(self, user_id: int, info: TableInfo, *, reminder: bool = False) -> None:
        service = self.room.service
        seat = info.seat_of(user_id)
        turns = dict(await service.get_meta(info.id, TURNS) or {})
        open_id = turns.get(str(user_id))
        wanted = info.status == "playing" and seat is not None and seat in info.to_act
        if wanted:
            person = await service.store.user_settings(user_id) or {}
            wanted = bool(person.get("can_message")) and bool(person.get("notify", True))
        if wanted == (open_id is not None) and not (wanted and reminder):
            return
        if open_id is not None and not wanted:
            await self._delete(user_id, open_id)
            turns.pop(str(user_id), None)
        else:
            locale = await self._locale(info.id)
            chat_title = None
            if info.chat_id is not None and info.chat_id < 0:
                with contextlib.suppress(TelegramError):
                    chat_title = (await self.bot.get_chat(info.chat_id)).title
            view = await service.view(info.id, user_id)
            text = render("turn.html", locale, table=info, chat_title=chat_title, state=view.get("state") or {},
                          reminder=reminder)
            button = self.room.links.open_button(translate(locale, "Open table"), info.id, private=True)
            markup = InlineKeyboardMarkup([[button]])
            if open_id is not None and await self._edit(user_id, open_id, text, markup):
                return  # the reminder edits the open turn message: still one message per turn
            sent = await self._send(user_id, text, markup)
            if sent is None:
                return
            turns[str(user_id)] = sent.message_id
        await service.set_meta(info.id, TURNS, turns)

    # Telegram calls -----------------------------------------------------------------

    async def _send(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None) -> Message | None:
        try:
            message = await self.bot.send_message(chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
                                                  disable_web_page_preview=True)
        except RetryAfter:
            raise
        except Forbidden:
            if chat_id > 0:
                await self.cannot_message(chat_id)
            return None
        except TelegramError as error:
            log.warning("could not send to chat %s: %s", chat_id, error)
            return None
        self._shown[(chat_id, message.message_id)] = (text, _markup_key(markup))
        return message

    async def _edit(self, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None) -> bool:
        """Edit a message unless it already shows this; False when it is gone."""
        shown = (text, _markup_key(markup))
        if self._shown.get((chat_id, message_id)) == shown:
            return True
        try:
            await self.bot.edit_message_text(text, chat_id, message_id, parse_mode=ParseMode.HTML,
                                             reply_markup=markup, disable_web_page_preview=True)
        except RetryAfter:
            raise
        except BadRequest as error:
            if "not modified" not in error.message.lower():
                log.info("message %s in chat %s cannot be edited: %s", message_id, chat_id, error)
                self._shown.pop((chat_id, message_id), None)
                return False
        except TelegramError as error:
            log.warning("could not edit message %s in chat %s: %s", message_id, chat_id, error)
            return True
        self._shown[(chat_id, message_id)] = shown
        return True

    async def _delete(self, chat_id: int, message_id: int) -> None:
        self._shown.pop((chat_id, message_id), None)
        try:
            await self.bot.delete_message(chat_id, message_id)
        except TelegramError as error:
            log.info("could not delete message %s in chat %s: %s", message_id, chat_id, error)

    async def cannot_message(self, user_id: int) -> None:
        """Telegram refused a private message: name the person in the group instead from now on."""
        await self.room.service.store.set_user_flags(user_id, can_message=False)
        for info in await self.room.service.tables_of(user_id):
            if info.chat_id is not None and info.chat_id < 0:
                self.refresh_later(info.id, info.chat_id)


def _markup_key(markup: InlineKeyboardMarkup | None) -> Any:
    return None if markup is None else repr(markup.to_dict())


def _described(info: TableInfo) -> list[tuple[str, Any]]:
    game = games.get(info.game)
    shown = [(s.label, info.options.get(s.name, s.default)) for s in game.settings]
    if game.min_players != game.max_players:
        shown.insert(0, ("Players", info.size))
    if info.timer != "none":
        shown.append(("Turn timer", info.timer))
    return shown


def _standings(info: TableInfo) -> list[dict[str, Any]]:
    """Seats from first place down, with their scores."""
    result = info.result or {}
    scores = list(result.get("scores") or [])
    placements = list(result.get("placements") or [])
    winners = set(result.get("winners") or [])
    rows = []
    for seat in info.seats:
        rows.append({
            "name": seat.name, "user_id": seat.user_id, "is_ai": seat.is_ai,
            "score": scores[seat.seat] if seat.seat < len(scores) else None,
            "place": placements[seat.seat] if seat.seat < len(placements) else None,
            "winner": seat.seat in winners,
        })
    rows.sort(key=lambda r: (r["place"] is None, r["place"] or 0))
    return rows


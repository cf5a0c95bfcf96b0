"""The fake Bot API HTTP server: routing, the call log, long polling, webhook delivery and the test helpers."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import re
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

import aiohttp
from aiohttp import web

from .checks import coerce
from .faults import Fault, FaultKind, Faults, drop, hold
from .flood import FloodControl
from .inline import Chosen, PreparedMessage
from .methods import Methods
from .model import JSON, ApiError, Call, Delivery, FakeMessage, bad_request
from .updates import UpdateBuilder, is_allowed
from .world import DEFAULT_ICON_COLOR, World

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
)
TERMINATED = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


class FakeBotApi:
    """A local Telegram Bot API on 127.0.0.1 (port chosen by the OS) that records calls and enforces limits."""

    def __init__(self, token: str = "123456:TEST", *, bot_username: str = "cardroom_test_bot",
                 bot_first_name: str = "Cardroom Test", per_chat_per_second: float = 1.0,
                 per_group_per_minute: int = 20, global_per_second: int = 30,
                 clock: Callable[[], float] = time.monotonic, time_scale: float = 1.0,
                 allow_http_web_app: bool = False, inline: bool = False, inline_feedback: bool = False) -> None:
        self.token = token
        self._base_clock = clock
        self._skipped = 0.0
        self._epoch = time.time() - clock()
        self.bot_user: JSON = {"id": int(token.split(":")[0]), "is_bot": True, "first_name": bot_first_name,
                               "username": bot_username, "can_join_groups": True,
                               "can_read_all_group_messages": False, "supports_inline_queries": False}
        self.world = World(self.bot_user, now=self.unix_time)
        self.builder = UpdateBuilder(self.world)
        self.flood = FloodControl(per_chat_per_second, per_group_per_minute, global_per_second, time_scale)
        self.methods = Methods(self.world, self.builder, self.flood, self.clock, whole_seconds=time_scale == 1.0,
                               allow_http_web_app=allow_http_web_app)
        self.methods.emit = self.send_update
        self.inline = self.methods.inline
        self.inline.configure(enabled=inline, feedback=inline_feedback)
        self.faults = Faults()
        self._handlers: dict[str, Callable[[JSON], Any]] = {
            **self.methods.table(), "getUpdates": self._get_updates, "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook, "getWebhookInfo": self._get_webhook_info,
        }
        self._by_lower = {name.lower(): name for name in self._handlers}
        self.calls: list[Call] = []
        self.count_429 = 0
        self.deliveries: list[Delivery] = []
        self.dropped_updates: list[JSON] = []
        self.allowed_updates: list[str] | None = None
        self.webhook: JSON = {}
        self._pending: list[JSON] = []
        self._last_update_id = 0
        self._poll_generation = 0
        self._wake = asyncio.Event()
        self._call_done = asyncio.Event()
        self._delivering = asyncio.Lock()
        self._closing = False
        self._closed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self.url = ""

    # lifecycle

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1; `url` is set afterwards."""
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/file/bot{token}/{path:.*}", self._file)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))

    async def close(self) -> None:
        """Answer waiting long polls and stop listening."""
        self._closing = True
        self._closed.set()
        self._wake_pollers()
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeBotApi:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        """For ApplicationBuilder().base_url(...)."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        """For ApplicationBuilder().base_file_url(...)."""
        return f"{self.url}/file/bot"

    # time

    def clock(self) -> float:
        """The fake's clock (flood windows, call times): the given clock plus every advance()."""
        return self._base_clock() + self._skipped

    def unix_time(self) -> float:
        """Telegram's idea of the current Unix time (message dates, the 48-hour deletion window)."""
        return self._epoch + self.clock()

    def advance(self, seconds: float) -> None:
        """Move the fake's time forward: messages get older and flood windows pass (the bot's own clock does not)."""
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._skipped += seconds

    # HTTP

    async def _file(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        name = request.match_info["method"]
        call = Call(self._by_lower.get(name.lower(), name), {}, self.clock())
        self.calls.append(call)
        fault = self.faults.take(call.method)
        if fault is not None:
            call.fault = fault.kind
            if fault.kind == "server_error":
                call.status, call.response = fault.status, fault.envelope()
                self._answered()
                return web.json_response(call.response, status=call.status)
            if fault.kind == "timeout_before_effect":
                with contextlib.suppress(ApiError):
                    call.params = await _read_params(request)  # recorded, never applied (status stays 0)
                await hold(request, fault.delay, self._closed)
                drop(request)
                return web.Response(status=504)  # never reaches the client
        try:
            call.params = await _read_params(request)
            handler = self._handlers.get(call.method)
            if handler is None:
                raise ApiError(404, "Not Found")
            result = handler(call.params)
            if inspect.isawaitable(result):
                result = await result
            call.status, call.response = 200, {"ok": True, "result": result}
        except ApiError as error:
            call.status, call.response = error.code, error.envelope()
            if error.code == 429:
                self.count_429 += 1
        self._answered()
        if fault is not None and fault.kind == "timeout_after_effect":
            await hold(request, fault.delay, self._closed)
        elif fault is not None and fault.kind == "drop_after_effect":
            drop(request)
        return web.json_response(call.response, status=call.status)

    def _answered(self) -> None:
        self._call_done.set()
        self._call_done = asyncio.Event()

    # long polling

    def _wake_pollers(self) -> None:
        self._wake.set()
        self._wake = asyncio.Event()

    def _confirm(self, offset: Any) -> None:
        if not isinstance(offset, int) or isinstance(offset, bool) or offset == 0:
            return
        if offset < 0:
            self._pending = self._pending[offset:]
        else:
            self._pending = [u for u in self._pending if u["update_id"] >= offset]

    async def _get_updates(self, params: JSON) -> list[JSON]:
        if self.webhook.get("url"):
            raise ApiError(409, WEBHOOK_ACTIVE)
        if params.get("allowed_updates") is not None:
            self.allowed_updates = list(params["allowed_updates"])
        self._confirm(params.get("offset"))
        limit = params.get("limit") or 100
        self._poll_generation += 1
        generation = self._poll_generation
        self._wake_pollers()  # an earlier poll still waiting is terminated, as on Telegram
        loop = asyncio.get_running_loop()
        deadline = loop.time() + float(params.get("timeout") or 0)
        while not self._pending and not self._closing and loop.time() < deadline:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), deadline - loop.time())
            if generation != self._poll_generation:
                raise ApiError(409, TERMINATED)
        return [dict(u) for u in self._pending[: max(1, min(100, int(limit)))]]

    # webhook

    def _set_webhook(self, params: JSON) -> bool:
        url = params.get("url") or ""
        if url and not re.match(r"https?://[^/\s]+", url):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.get("secret_token")
        if secret is not None and not _SECRET.fullmatch(str(secret)):
            raise bad_request("secret token contains unallowed characters")
        if params.get("drop_pending_updates"):
            self._pending.clear()
        self.webhook = {"url": url, "secret_token": secret, "max_connections": params.get("max_connections") or 40}
        if params.get("allowed_updates") is not None:
            self.allowed_updates = list(params["allowed_updates"])
        self._wake_pollers()
        return True

    def _delete_webhook(self, params: JSON) -> bool:
        if params.get("drop_pending_updates"):
            self._pending.clear()
        self.webhook = {}
        return True

    def _get_webhook_info(self, params: JSON) -> JSON:
        info: JSON = {"url": self.webhook.get("url", ""), "has_custom_certificate": False,
                      "pending_update_count": len(self._pending)}
        for key in ("max_connections", "last_error_date", "last_error_message"):
            if self.webhook.get(key) is not None and info["url"]:
                info[key] = self.webhook[key]
        if self.allowed_updates is not None and info["url"]:
            info["allowed_updates"] = self.allowed_updates
        return info

    async def deliver_pending(self) -> int | None:
        """POST queued updates to the webhook in order; stop at the first failure. Returns the last status."""
        status: int | None = None
        async with self._delivering:
            while self._pending and self.webhook.get("url") and self._session is not None:
                update = self._pending[0]
                headers = {SECRET_HEADER: self.webhook["secret_token"]} if self.webhook.get("secret_token") else {}
                try:
                    async with self._session.post(self.webhook["url"], json=update, headers=headers) as response:
                        status = response.status
                        await response.read()
                    error = None if 200 <= status < 300 else f"Wrong response from the webhook: {status}"
                except (aiohttp.ClientError, TimeoutError) as exc:
                    status, error = 0, f"Connection failed: {exc!r}"
                self.deliveries.append(Delivery(update, status, headers, error))
                if error is not None:
                    self.webhook.update(last_error_date=int(time.time()), last_error_message=error)
                    break
                self._pending.pop(0)
        return status

    # updates from tests

    async def send_update(self, update: JSON) -> int | None:
        """Queue an update for getUpdates, or POST it to the webhook (returning the HTTP status)."""
        update = dict(update)
        if update.get("update_id", 0) <= self._last_update_id:  # ids only grow, as on Telegram
            update = self.builder.stamp(update, self._last_update_id)
        self._last_update_id = update["update_id"]
        if not is_allowed(update, self.allowed_updates):
            self.dropped_updates.append(update)
            return None
        self._pending.append(update)
        if self.webhook.get("url"):
            return await self.deliver_pending()
        self._wake_pollers()
        return None

    @property
    def pending_updates(self) -> list[JSON]:
        """Updates not yet confirmed by the bot (getUpdates offset) or not yet delivered (webhook)."""
        return list(self._pending)

    def message(self, chat: int | JSON, from_user: int | JSON, text: str, *, reply_to: FakeMessage | None = None,
                web_app_data: JSON | None = None, message_thread_id: int | None = None) -> JSON:
        """A text message update from a user; "/new coins" gets its bot_command entity.

        `message_thread_id` puts it in a forum topic: the update then carries message_thread_id and
        is_topic_message, and shows the topic's first message as reply_to_message, as Telegram does.
        """
        return self.builder.message(chat, from_user, text, reply_to=reply_to, web_app_data=web_app_data,
                                    message_thread_id=message_thread_id)

    def message_update(self, message: FakeMessage) -> JSON:
        """A message update for a message already in a chat (e.g. a topic's forum_topic_created message)."""
        return self.builder.message_update(message)

    def callback_query(self, from_user: int | JSON, message: FakeMessage, data: str) -> JSON:
        """A callback_query update for a press on `message` carrying `data`."""
        return self.builder.callback_query(from_user, message, data)

    def press(self, from_user: int | JSON, message: FakeMessage, button_text: str) -> JSON:
        """A callback_query update for the button labelled `button_text`."""
        return self.builder.press(from_user, message, button_text)

    def bot_added(self, chat: int | JSON, from_user: int | JSON, *, as_admin: bool = False) -> JSON:
        """A my_chat_member update: a user added the bot to a group (left or kicked -> member or administrator)."""
        return self.builder.bot_added(chat, from_user, as_admin=as_admin)

    # world helpers for tests

    @property
    def started_users(self) -> set[int]:
        """Users who pressed Start; the bot may write to them privately."""
        return self.world.started_users

    def user_starts_bot(self, user_id: int, first_name: str | None = None, username: str | None = None) -> JSON:
        """Mark a user as having started the bot; returns the User object."""
        user = self.world.add_user(user_id, first_name, username)
        self.world.start(user_id)
        return user

    def user_allows_write_access(self, user_id: int) -> JSON:
        """The user allowed the bot to write to them when its Mini App asked (``requestWriteAccess``): the bot may
        write to them from now on. Returns the service message update Telegram sends the bot about it."""
        return self.builder.write_access_allowed(user_id)

    def user_blocks_bot(self, user_id: int) -> JSON:
        """The user blocked the bot: sending, editing and deleting in their chat fail with 403 "bot was blocked by
        the user". Returns the my_chat_member update (member -> kicked) Telegram sends the bot."""
        return self.builder.user_blocked(user_id, blocked=True)

    def user_unblocks_bot(self, user_id: int) -> JSON:
        """The user unblocked (restarted) the bot: it may write to them again. Returns the my_chat_member update
        (kicked -> member)."""
        return self.builder.user_blocked(user_id, blocked=False)

    def add_user(self, user_id: int, first_name: str | None = None, username: str | None = None,
                 language_code: str | None = None) -> JSON:
        """Register a user (name, username, language) and return the User object."""
        return self.world.add_user(user_id, first_name, username, language_code)

    def add_group(self, chat_id: int, title: str = "Card night", chat_type: str = "supergroup", *,
                  is_forum: bool = False) -> JSON:
        """Register a group the bot is in and return its Chat object; `is_forum` makes a supergroup with topics."""
        return self.world.add_group(chat_id, title, chat_type, is_forum=is_forum)

    def set_admin(self, chat_id: int, user_id: int, admin: bool = True) -> None:
        """Make a user (or the bot, by its id) an administrator of a group, or take it back."""
        admins = self.world.admins.setdefault(chat_id, set())
        if admin:
            admins.add(user_id)
        else:
            admins.discard(user_id)

    def set_owner(self, chat_id: int, user_id: int) -> None:
        """Make a user the group's creator."""
        self.world.owners[chat_id] = user_id

    def kick_bot(self, chat_id: int, by: int | JSON | None = None) -> JSON:
        """Someone (`by`, else the group's creator) removed the bot from a group: writes there now fail with 403
        "Forbidden: bot was kicked from the group chat" ("... supergroup chat"; a supergroup refuses reads too).
        Returns the my_chat_member update (member/administrator -> kicked)."""
        return self.builder.bot_removed(chat_id, by)

    def bot_leaves(self, chat_id: int) -> JSON:
        """The bot left a group (as leaveChat does): writes fail with 403 "Forbidden: bot is not a member of the
        group chat" ("... supergroup chat"). Returns the my_chat_member update (-> left, from the bot)."""
        return self.builder.bot_left(chat_id)

    def migrate_group(self, chat_id: int, new_chat_id: int | None = None, *, by: int | JSON | None = None
                      ) -> list[JSON]:
        """Upgrade a basic group to a supergroup (members, admins and creator move along).

        Writes to the old id then fail with 400 "Bad Request: group chat was upgraded to a supergroup chat" and
        parameters {"migrate_to_chat_id": new id}. Returns the updates Telegram sends the bot, in order: the
        old chat's message with migrate_to_chat_id (from `by`, else the creator), the new chat's first message
        with migrate_from_chat_id (from GroupAnonymousBot, sender_chat the supergroup) and a my_chat_member
        update for the new chat (left -> member). The default new id is -100 followed by the old id's digits.
        """
        new_id = new_chat_id if new_chat_id is not None else int(f"-100{abs(chat_id)}")
        return self.builder.migrate(chat_id, new_id, by)

    def create_forum_topic(self, chat_id: int, name: str, *, icon_color: int = DEFAULT_ICON_COLOR,
                           by: int | JSON | None = None) -> int:
        """Create a topic in a forum supergroup (see add_group(..., is_forum=True)); returns its message_thread_id.

        The forum_topic_created service message is stored in the chat (message_update() makes it an update).
        """
        return self.builder.create_topic(chat_id, name, icon_color, by).message_id

    def close_forum_topic(self, chat_id: int, thread_id: int, *, by: int | JSON | None = None) -> None:
        """Close a topic: the bot's sends there fail with 400 "Bad Request: TOPIC_CLOSED" unless it is an admin."""
        self.builder.set_topic_closed(chat_id, thread_id, by, closed=True)

    def reopen_forum_topic(self, chat_id: int, thread_id: int, *, by: int | JSON | None = None) -> None:
        """Reopen a closed topic."""
        self.builder.set_topic_closed(chat_id, thread_id, by, closed=False)

    def close_general_forum_topic(self, chat_id: int) -> None:
        """Close the General topic: sends without message_thread_id fail with TOPIC_CLOSED unless the bot is admin."""
        self.builder.set_topic_closed(chat_id, None, None, closed=True)

    def reopen_general_forum_topic(self, chat_id: int) -> None:
        """Reopen the General topic."""
        self.builder.set_topic_closed(chat_id, None, None, closed=False)

    # inline mode and prepared messages

    def set_inline_mode(self, enabled: bool = True, *, feedback: bool = False) -> None:
        """Switch inline mode on or off (BotFather's /setinline: getMe's supports_inline_queries) and inline
        feedback (/setinlinefeedback: chosen_inline_result updates)."""
        self.inline.configure(enabled=enabled, feedback=feedback)

    def inline_query(self, from_user: int | JSON, query: str = "", *, chat: int | JSON | None = None,
                     chat_type: str | None = None, offset: str = "") -> JSON:
        """An inline_query update: `from_user` typed "@bot `query`" in a chat (ValueError when inline mode is off).

        `chat` None is their chat with the bot (chat_type "sender"); another user's id their private chat with
        that user ("private"); a group's id a group ("group", "supergroup"). A group or channel the fake does not
        know (the bot is not in it) needs `chat_type` ("group", "supergroup" or "channel").
        """
        return self.inline.query(from_user, query, chat=chat, chat_type=chat_type, offset=offset)

    def inline_answer(self, update: JSON) -> JSON | None:
        """The answerInlineQuery parameters the bot sent for an inline_query update, if it answered in time."""
        query = self.inline.queries.get(update["inline_query"]["id"])
        return None if query is None else query.answer

    def choose_inline_result(self, update: JSON, result_id: str) -> Chosen:
        """The person picked the bot's result `result_id` for an inline_query update: the message is posted via the
        bot in the chat where they typed. Returns it with the updates Telegram sends the bot (send them)."""
        return self.inline.choose(update["inline_query"]["id"], result_id)

    def share_prepared_message(self, prepared_id: str, from_user: int | JSON, *, chat: int | JSON | None = None,
                               chat_type: str | None = None) -> Chosen:
        """The Mini App called shareMessage(`prepared_id`) and the person sent it to `chat` (as for inline_query).

        Raises ShareRefused (the prepared_message_failed error) for unknown, foreign or expired ids and for chats
        of a kind the message does not allow. Returns the message and the updates Telegram sends the bot.
        """
        return self.inline.share(prepared_id, from_user, chat=chat, chat_type=chat_type)

    @property
    def prepared_messages(self) -> dict[str, PreparedMessage]:
        """Messages saved by savePreparedInlineMessage, by id."""
        return dict(self.inline.prepared)

    def inline_message(self, inline_message_id: str) -> FakeMessage:
        """The message sent via the bot that has this inline_message_id (edits show in it)."""
        message = self.inline.messages.get(inline_message_id)
        if message is None:
            raise LookupError(f"no inline message {inline_message_id!r}")
        return message

    def press_inline(self, from_user: int | JSON, inline_message_id: str, button_text: str) -> JSON:
        """A callback_query update for a button of a message sent via the bot (it carries inline_message_id)."""
        return self.inline.press(from_user, inline_message_id, button_text)

    def inject_fault(self, method: str, kind: FaultKind = "server_error", *, times: int | None = 1,
                     status: int = 502, delay: float | None = None) -> Fault:
        """Make the next `times` calls of `method` (None: all, until clear_faults) fail; see faults.py for kinds.

        `status` is a server_error's HTTP code (502 Bad Gateway, 500 Internal Server Error, ...). `delay` caps how
        long a timeout_* fault holds the answer; None holds it until the client gives up, so the test's cost
        is the client's read timeout (give the Bot a short one).
        """
        return self.faults.inject(method, kind, times=times, status=status, delay=delay)

    def clear_faults(self) -> None:
        """Switch off every injected fault not yet used up."""
        self.faults.clear()

    def messages(self, chat_id: int, *, include_users: bool = False) -> list[FakeMessage]:
        """The bot's messages in a chat in order (deleted ones flagged); users' too when asked."""
        return self.world.messages(chat_id, include_users=include_users)

    def last_message(self, chat_id: int) -> FakeMessage:
        """The bot's latest message in a chat that is not deleted."""
        alive = [m for m in self.world.messages(chat_id) if not m.deleted]
        if not alive:
            raise LookupError(f"no message from the bot in chat {chat_id}")
        return alive[-1]

    def answer_to(self, update: JSON) -> JSON | None:
        """The answerCallbackQuery parameters the bot sent for a callback_query update, if any."""
        return self.builder.answers.get(update["callback_query"]["id"])

    def calls_to(self, method: str) -> list[Call]:
        """Every call of one method, in arrival order."""
        return [call for call in self.calls if call.method == method]

    async def wait_until(self, predicate: Callable[[], bool], within: float = 5.0) -> None:
        """Wait (at most `within` seconds) until `predicate()` holds, checking after each answered call."""
        async with asyncio.timeout(within):
            while not predicate():
                await self._call_done.wait()

    async def wait_for_calls(self, method: str, count: int = 1, within: float = 5.0) -> list[Call]:
        """Wait (at most `within` seconds) until `count` calls of `method` have been answered; returns them."""
        async with asyncio.timeout(within):
            while len(done := [c for c in self.calls_to(method) if c.status]) < count:
                await self._call_done.wait()
        return done


async def _read_params(request: web.Request) -> JSON:
    """Parameters from the query string and a JSON, urlencoded or multipart body."""
    raw: dict[str, str] = dict(request.query)
    if request.body_exists:
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError:
                raise bad_request("can't parse JSON") from None
            if not isinstance(body, dict):
                raise bad_request("request body must be a JSON object")
            return {**coerce(raw), **body}
        form = await request.post()
        for key, value in form.items():
            raw[key] = value if isinstance(value, str) else f"<file {getattr(value, 'filename', '')}>"
    return coerce(raw)

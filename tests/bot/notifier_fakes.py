"""Fakes for building the notifier's members alone: kept-message records in a dict, a bot that records its calls."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from telegram import Chat, InlineKeyboardMarkup, Message

from engine.service.chats import Chats
from engine.service.live import SeatInfo, TableInfo
from tgbot.postings import Postings
from tgbot.priority import Call
from tgbot.records import Ledger, Records

GROUP, SUPERGROUP = -100, -1000100
ANN, BOB = 11, 12


class FakeChats:
    """The service's ``Chats`` as the records use it: kept messages in a dict."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], dict[str, Any]] = {}
        self.inline: dict[str, str] = {}  # inline_message_id -> the table opened there first

    async def open_in_inline(self, table_id: str, inline_id: str) -> str:
        return self.inline.setdefault(inline_id, table_id)

    async def table_in_inline(self, inline_id: str) -> str | None:
        return self.inline.get(inline_id)

    async def messages_of_table(self, table_id: str) -> list[dict[str, Any]]:
        return [{"purpose": p, **row} for (t, p), row in self.kept.items() if t == table_id]

    async def keep_message(self, table_id: str, purpose: str, *, chat_id: int, thread_id: int | None,
                           message_id: int | None, state: str, data: dict[str, Any] | None = None) -> None:
        self.kept[(table_id, purpose)] = {"chat_id": chat_id, "thread_id": thread_id, "message_id": message_id,
                                          "state": state, "data": data or {}}

    async def forget_message(self, table_id: str, purpose: str) -> None:
        self.kept.pop((table_id, purpose), None)


class FakeBot:
    """Records every call; ``fail[method]`` is raised (once) instead of answering."""

    def __init__(self, chats: FakeChats) -> None:
        self.chats = chats
        self.calls: list[tuple[Any, ...]] = []
        self.fail: dict[str, Exception] = {}
        self.kept_at_send: list[dict[tuple[str, str], dict[str, Any]]] = []  # what was stored when each send was made
        self.next_id = 500
        self.given: list[Call | None] = []  # each call's place in the budget, as handed to it

    def _answer(self, method: str) -> None:
        if method in self.fail:
            raise self.fail.pop(method)

    async def send_message(self, chat_id: int, text: str, *, parse_mode: str | None,
                           reply_markup: InlineKeyboardMarkup | None, disable_web_page_preview: bool | None,
                           message_thread_id: int | None, rate_limit_args: Call | None = None) -> Message:
        self.calls.append(("send", chat_id, text, message_thread_id))
        self.given.append(rate_limit_args)
        self.kept_at_send.append({k: dict(v) for k, v in self.chats.kept.items()})
        self._answer("send")
        self.next_id += 1
        return Message(self.next_id, datetime.now(UTC), Chat(chat_id, Chat.PRIVATE if chat_id > 0 else Chat.GROUP))

    async def edit_message_text(self, text: str, chat_id: int | None = None, message_id: int | None = None,
                                inline_message_id: str | None = None, *, parse_mode: str | None,
                                reply_markup: InlineKeyboardMarkup | None,
                                disable_web_page_preview: bool | None, rate_limit_args: Call | None = None) -> object:
        self.given.append(rate_limit_args)
        if inline_message_id is not None:
            self.calls.append(("edit_inline", inline_message_id, text))
        else:
            self.calls.append(("edit", chat_id, message_id, text))
        self._answer("edit")
        return True

    async def edit_message_reply_markup(self, chat_id: int, message_id: int, *,
                                        reply_markup: InlineKeyboardMarkup | None,
                                        rate_limit_args: Call | None = None) -> object:
        self.calls.append(("markup", chat_id, message_id))
        self.given.append(rate_limit_args)
        self._answer(f"markup:{message_id}")
        return True

    async def delete_message(self, chat_id: int, message_id: int, *, rate_limit_args: Call | None = None) -> object:
        self.calls.append(("delete", chat_id, message_id))
        self.given.append(rate_limit_args)
        self._answer("delete")
        return True


class Parts:
    """Postings over the fake bot and fake chats, with what its callbacks were told."""

    def __init__(self) -> None:
        self.chats = FakeChats()
        self.bot = FakeBot(self.chats)
        self.records = Records(cast(Chats, self.chats))
        self.refused: list[int] = []
        self.migrated: list[tuple[int, int]] = []
        self.reposted: list[str] = []
        self.postings = Postings(self.bot, self.records, Ledger(), on_refused=self._refused,
                                 on_migrated=self._migrated, repost=self.reposted.append)

    async def _refused(self, chat_id: int) -> None:
        self.refused.append(chat_id)

    async def _migrated(self, old: int, new: int) -> None:
        self.migrated.append((old, new))


def table(*, seq: int = 5, turn_began: tuple[int | None, ...] = (5, None), status: str = "playing",
          chat_id: int | None = GROUP, host: int = ANN, rematch_of: str | None = None, table_id: str = "t1",
          ann_autopilot: bool = False, deadline: float | None = None) -> TableInfo:
    seats = (SeatInfo(0, "Ann", ANN, False, ann_autopilot), SeatInfo(1, "Bob", BOB, False, False))
    to_act = tuple(s for s, began in enumerate(turn_began) if began is not None)
    return TableInfo(table_id, "coins", "Coins", {}, 2, status, host, chat_id, seats, seq, "h", None, "live",
                     deadline, to_act, None, "easy", rematch_of=rematch_of, turn_began=turn_began)

"""A conversation as people saw it, drawn from the fake Telegram's record of a test: every message, edit, removal and
answer the bot made, each under the people who saw it, in order, with what the people did between them.

A test notes what people do (``Transcript.did``) and what Telegram showed without the bot (an invitation a person
sent); everything else comes from the calls the fake Bot API recorded. ``write_section`` puts the result between
two markers of a Markdown file, so the example in the docs is regenerated, never written by hand.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fakes.botapi import FakeBotApi
from tests.fakes.botapi.checks import plain_text
from tests.fakes.botapi.model import Call, FakeMessage, shown

START, END = "<!-- transcript:start -->", "<!-- transcript:end -->"
SHOWN_CALLS = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage", "deleteMessages",
               "answerCallbackQuery", "answerInlineQuery")


@dataclass(order=True)
class Line:
    """One thing someone saw or did, at a time of the fake's clock."""

    time: float
    who: str = field(compare=False)
    arrow: str = field(compare=False)  # "›" a person did, "‹" a person saw
    text: str = field(compare=False)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _buttons(markup: Any) -> str:
    rows = (_json(markup) or {}).get("inline_keyboard", [])
    return "  ".join(f"[{b['text']}]" for row in rows for b in row)


def _message(text: str, parse_mode: Any, markup: Any) -> str:
    body = shown(plain_text(text, parse_mode if isinstance(parse_mode, str) else None)).strip()
    buttons = _buttons(markup)
    return f"{body}\n{buttons}" if buttons else body


class Transcript:
    """What people did, noted by the test, merged with what the fake Bot API recorded of the bot."""

    def __init__(self, fake: FakeBotApi, names: dict[int, str], *, inline_chat: str) -> None:
        self.fake = fake
        self.names = names
        self.inline_chat = inline_chat  # who sees the messages sent via the bot (the chat they were sent in)
        self.began = fake.clock()
        self._lines: list[Line] = []

    def did(self, user_id: int, text: str) -> None:
        """A person did something (now)."""
        self._lines.append(Line(self.fake.clock(), self.names[user_id], "›", text))

    def saw(self, who: str, text: str) -> None:
        """People saw something Telegram showed without a call of the bot (now)."""
        self._lines.append(Line(self.fake.clock(), who, "‹", text))

    def sent_via_bot(self, message: FakeMessage) -> None:
        """A person sent a message via the bot (an inline result): the people of that chat see it."""
        self.saw(self.inline_chat, _message(message.text, message.parse_mode, message.reply_markup))

    def lines(self) -> list[Line]:
        """Everything, in order."""
        seen = [line for call in self.fake.calls if call.ok and call.method in SHOWN_CALLS and call.time >= self.began
                for line in self._from_call(call)]
        return sorted([*self._lines, *seen])

    def _from_call(self, call: Call) -> list[Line]:
        params, method = call.params, call.method
        if method == "answerInlineQuery":
            titles = " · ".join(str(r.get("title")) for r in _json(params.get("results")) or [])
            return [Line(call.time, self._asker(params), "‹", f"the bot offers: {titles}")]
        if method == "answerCallbackQuery":
            query = self.fake.builder.open_queries.get(str(params.get("callback_query_id")), {})
            who = self.names.get(int(query.get("from", {}).get("id", 0)), "?")
            if params.get("url"):
                return [Line(call.time, who, "‹", f"Telegram opens {params['url']}")]
            if params.get("text"):
                kind = "alert" if str(params.get("show_alert")).lower() == "true" else "note"
                return [Line(call.time, who, "‹", f"({kind}) {params['text']}")]
            return []
        inline = bool(params.get("inline_message_id"))
        who = self.inline_chat if inline else self.names.get(int(params.get("chat_id", 0)), "")
        if not who:
            return []
        if method in ("deleteMessage", "deleteMessages"):
            return [Line(call.time, who, "‹", "(the bot's message is removed)")]
        if method == "editMessageReplyMarkup":
            return [Line(call.time, who, "‹", f"(buttons now) {_buttons(params.get('reply_markup'))}")]
        text = _message(str(params.get("text", "")), params.get("parse_mode"), params.get("reply_markup"))
        return [Line(call.time, who, "‹", ("(edited) " if method.startswith("edit") else "") + text)]

    def _asker(self, params: Any) -> str:
        query = self.fake.inline.queries.get(str(params.get("inline_query_id")))
        return self.names.get(int(query.user["id"]), "?") if query is not None else "?"

    def render(self) -> str:
        """The conversation as plain text: a time, who, whether they did or saw, and what."""
        width = max(len(line.who) for line in self._lines) if self._lines else 3
        out = []
        for line in self.lines():
            minutes, seconds = divmod(max(0.0, line.time - self.began), 60)
            head = f"{int(minutes):02d}:{seconds:04.1f}  {line.who:<{width}} {line.arrow} "
            first, *rest = line.text.splitlines() or [""]
            out.append(head + first)
            out += [" " * len(head) + more if more else "" for more in rest]
        return "\n".join(out) + "\n"


def write_section(path: Path, body: str) -> None:
    """Replace what is between the transcript markers of ``path`` with ``body``."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise ValueError(f"{path} has no {START} … {END} section")
    path.write_text(pattern.sub(lambda _: f"{START}\n{body}{END}", text), encoding="utf-8")

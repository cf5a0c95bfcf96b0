"""What Telegram checks before accepting a message: parameter types, HTML, length, inline keyboards."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

from .model import JSON, bad_request

MAX_TEXT = 4096  # UTF-16 code units after entity parsing
MAX_CALLBACK_DATA = 64  # bytes
MAX_BUTTONS = 100

# Form and query values arrive as strings; these stay strings even when they look like numbers or JSON.
_STRING_PARAMS = frozenset(
    {"text", "caption", "url", "secret_token", "callback_query_id", "data", "parse_mode", "action", "language_code",
     "inline_message_id", "ip_address", "description", "short_description", "name", "title", "custom_title",
     "inline_query_id", "next_offset", "switch_pm_text", "switch_pm_parameter"}
)
PARSE_MODES = frozenset({"html", "markdown", "markdownv2"})  # compared case-insensitively, as Telegram does

_HTML_TAGS = frozenset(
    {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a", "tg-emoji", "code",
     "pre", "blockquote"}
)

_BUTTON_ACTIONS = frozenset(
    {"url", "callback_data", "web_app", "login_url", "switch_inline_query", "switch_inline_query_current_chat",
     "switch_inline_query_chosen_chat", "copy_text", "callback_game", "pay"}
)


def coerce(raw: dict[str, str]) -> JSON:
    """Turn form/query strings into the JSON values clients serialise them from."""
    params: JSON = {}
    for key, value in raw.items():
        if key in _STRING_PARAMS:
            params[key] = value
            continue
        try:
            params[key] = json.loads(value)
        except ValueError:
            params[key] = value
    return params


def utf16_len(text: str) -> int:
    """Length as Telegram counts it."""
    return len(text.encode("utf-16-le")) // 2


class _Html(HTMLParser):
    """Telegram's HTML subset: collects plain text, refuses unknown or unbalanced tags."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.lines = [0]
        for line in source.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.parts: list[str] = []
        self.open: list[str] = []

    def _offset(self) -> int:
        line, column = self.getpos()
        return len(self.source[: self.lines[line - 1] + column].encode())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        spoiler = tag == "span" and dict(attrs).get("class") == "tg-spoiler"
        if tag not in _HTML_TAGS or (tag == "span" and not spoiler):
            raise bad_request(f'can\'t parse entities: Unsupported start tag "{tag}" at byte offset {self._offset()}')
        self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raise bad_request(f'can\'t parse entities: Unsupported start tag "{tag}" at byte offset {self._offset()}')

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            raise bad_request(f"can't parse entities: Unexpected end tag at byte offset {self._offset()}")
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(text: str, parse_mode: str | None) -> str:
    """The text a reader sees: HTML tags stripped and entities decoded; other modes are kept as sent."""
    if parse_mode is None or parse_mode.upper() != "HTML":
        return text
    parser = _Html(text)
    parser.feed(text)
    parser.close()
    if parser.open:
        tag = parser.open[-1]
        raise bad_request(f'can\'t parse entities: Can\'t find end tag corresponding to start tag "{tag}"')
    return "".join(parser.parts)


def check_text(text: Any, parse_mode: Any) -> tuple[str, str]:
    """Refuse empty, badly marked-up or over-long text; return (raw, plain)."""
    if not isinstance(text, str) or not text:
        raise bad_request("message text is empty")
    if parse_mode is not None and (not isinstance(parse_mode, str) or
                                   (parse_mode and parse_mode.lower() not in PARSE_MODES)):
        raise bad_request("unsupported parse_mode")
    plain = plain_text(text, parse_mode)
    if not plain.strip():
        raise bad_request("message text is empty")
    if utf16_len(plain) > MAX_TEXT:
        raise bad_request("message is too long")
    return text, plain


def _check_url(url: Any, *, https_only: bool) -> None:
    if not isinstance(url, str) or not url:
        raise bad_request("BUTTON_URL_INVALID")
    schemes = ("https://",) if https_only else ("http://", "https://", "tg://")
    if not url.startswith(schemes):
        raise bad_request("BUTTON_URL_INVALID")


def _check_button(button: Any, chat_type: str, *, allow_http_web_app: bool) -> None:
    if not isinstance(button, dict):
        raise bad_request("can't parse inline keyboard button: InlineKeyboardButton must be an Object")
    if not isinstance(button.get("text"), str) or not button["text"]:
        raise bad_request("can't parse inline keyboard button: Text must be non-empty")
    actions = _BUTTON_ACTIONS & button.keys()
    if not actions:
        raise bad_request("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
    if len(actions) > 1:
        raise bad_request("BUTTON_TYPE_INVALID")
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA:
            raise bad_request("BUTTON_DATA_INVALID")
    if "url" in button:
        _check_url(button["url"], https_only=False)
    if "switch_inline_query_chosen_chat" in button:
        chosen = button["switch_inline_query_chosen_chat"]
        kinds = ("allow_user_chats", "allow_bot_chats", "allow_group_chats", "allow_channel_chats")
        if not isinstance(chosen, dict) or not any(chosen.get(kind) for kind in kinds):
            raise bad_request("at least one chat type must be allowed")
    if "web_app" in button:
        if chat_type != "private":
            raise bad_request("BUTTON_TYPE_INVALID")
        web_app = button["web_app"]
        _check_url(web_app.get("url") if isinstance(web_app, dict) else None, https_only=not allow_http_web_app)


def check_reply_markup(markup: Any, chat_type: str, *, allow_http_web_app: bool = False) -> JSON | None:
    """Refuse keyboards Telegram refuses; return the markup as parsed."""
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        return markup  # reply keyboards, keyboard removal and force-reply are stored without checks
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request("can't parse inline keyboard: field \"inline_keyboard\" must be an Array of Arrays")
    if sum(len(row) for row in rows) > MAX_BUTTONS:
        raise bad_request("reply markup is too long")
    for row in rows:
        for button in row:
            _check_button(button, chat_type, allow_http_web_app=allow_http_web_app)
    return markup


def require(params: JSON, name: str) -> Any:
    """The parameter, or Telegram's complaint that it is missing."""
    if params.get(name) in (None, ""):
        raise bad_request(f"{name} is empty")
    return params[name]


def require_int(params: JSON, name: str) -> int:
    """An integer parameter, or a 400."""
    value = require(params, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_request(f"invalid {name} specified")
    return value


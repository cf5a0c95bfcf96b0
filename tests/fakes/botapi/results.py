"""What Telegram checks in inline query results (answerInlineQuery, savePreparedInlineMessage), in its words.

The Bot API server parses each result first: an object with a string ``type`` and ``id``, the fields its type
requires (an article: ``title`` and a message to send), a valid keyboard; a failure reads "can't parse inline
query result: Can't find field "title"". Telegram then refuses what parsed but breaks its rules: more than 50
results, ids empty, over 64 bytes or repeated, a message too long or empty, a ``web_app`` button (a message sent
via a bot is the person's, not the bot's, so it may go to chats where such buttons are not allowed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .checks import MAX_TEXT, PARSE_MODES, check_reply_markup, plain_text, utf16_len
from .model import JSON, ApiError, bad_request

MAX_RESULTS = 50
MAX_RESULT_ID = 64  # bytes
MAX_NEXT_OFFSET = 64  # bytes
INLINE = "inline"  # the chat type keyboards of inline results are checked for: web_app buttons are refused
_START_PARAMETER = re.compile(r"[A-Za-z0-9_-]{1,64}")

# Fields each type requires beyond type and id, as the server's parser asks for them.
_REQUIRED: dict[str, tuple[str, ...]] = {
    "article": ("title",), "contact": ("phone_number", "first_name"), "document": ("title",),
    "game": ("game_short_name",), "location": ("latitude", "longitude", "title"), "sticker": ("sticker_file_id",),
    "venue": ("latitude", "longitude", "title", "address"), "video": ("title",), "voice": ("title",),
    "audio": (), "gif": (), "mpeg4_gif": (), "photo": (),
}  # fmt: skip
# Media given by URL or by file_id: the URL field, what a URL also needs, and the file_id field otherwise.
_MEDIA: dict[str, tuple[str, str | None, str]] = {
    "audio": ("audio_url", "title", "audio_file_id"), "document": ("document_url", "mime_type", "document_file_id"),
    "gif": ("gif_url", None, "gif_file_id"), "mpeg4_gif": ("mpeg4_url", None, "mpeg4_file_id"),
    "photo": ("photo_url", None, "photo_file_id"), "video": ("video_url", "mime_type", "video_file_id"),
    "voice": ("voice_url", None, "voice_file_id"),
}  # fmt: skip
_NUMBERS = ("latitude", "longitude")


class Unparsable(Exception):
    """The server could not parse a result; the message is the parser's, before any prefix."""


@dataclass(frozen=True, slots=True)
class InlineResult:
    """A result as Telegram keeps it: its id and type, the text message it sends (if any) and its keyboard."""

    id: str
    type: str
    raw: JSON
    text: str | None
    plain: str | None
    parse_mode: str | None
    reply_markup: JSON | None


def _string(obj: JSON, name: str, *, required: bool) -> str | None:
    """A string field as the server reads it (numbers are taken as their digits)."""
    if name not in obj or obj[name] is None:
        if required:
            raise Unparsable(f'Can\'t find field "{name}"')
        return None
    value = obj[name]
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise Unparsable(f'Field "{name}" must be of type String')
    return str(value)


def _message_text(result: JSON, *, required: bool) -> tuple[str, str, str | None] | None:
    """The text message a result sends: (raw, plain, parse_mode), or None when it sends its own media."""
    content = result.get("input_message_content")
    if content is None:  # the legacy form keeps message_text on the result itself
        source, text = result, _string(result, "message_text", required=required)
    else:
        if not isinstance(content, dict):
            raise Unparsable('Field "input_message_content" must be of type Object')
        source, text = content, _string(content, "message_text", required=False)
        if not text:
            if {"latitude", "longitude"} <= content.keys() or {"phone_number", "payload"} & content.keys():
                return None  # a location, venue, contact or invoice message: accepted, not modelled
            if required:
                raise Unparsable("Input message content is not specified")
            return None
    if text is None:
        return None
    parse_mode = _string(source, "parse_mode", required=False)
    if parse_mode and parse_mode.lower() not in PARSE_MODES:
        raise Unparsable("Unsupported parse_mode")
    try:
        plain = plain_text(text, parse_mode or None)
    except ApiError as error:
        inner = error.description.removeprefix("Bad Request: ")
        raise Unparsable(inner[:1].upper() + inner[1:]) from None
    return text, plain, parse_mode or None


def _parse(value: Any, *, allow_http_web_app: bool) -> InlineResult:
    if not isinstance(value, dict):
        raise Unparsable("Inline query result must be an object")
    kind = (_string(value, "type", required=True) or "").lower()
    result_id = _string(value, "id", required=True) or ""
    message = _message_text(value, required=kind == "article")
    markup = value.get("reply_markup")
    if markup is not None and not isinstance(markup, dict):
        raise Unparsable('Field "reply_markup" must be of type Object')
    if kind not in _REQUIRED:
        raise Unparsable(f'type "{kind}" is unsupported for the inline query result')
    media = _MEDIA.get(kind)
    if media is not None:
        url_field, with_url, file_field = media
        if _string(value, url_field, required=False):
            if with_url is not None:
                _string(value, with_url, required=True)
        else:
            _string(value, file_field, required=True)
    for name in _REQUIRED[kind]:
        if name in _NUMBERS:
            if name not in value:
                raise Unparsable(f'Can\'t find field "{name}"')
            if isinstance(value[name], bool) or not isinstance(value[name], int | float):
                raise Unparsable(f'Field "{name}" must be of type Number')
        else:
            _string(value, name, required=True)
    if markup is not None and "inline_keyboard" not in markup:
        raise bad_request("REPLY_MARKUP_INVALID")
    try:
        markup = check_reply_markup(markup, INLINE, allow_http_web_app=allow_http_web_app)
    except ApiError as error:
        inner = error.description.removeprefix("Bad Request: ")
        if inner.startswith("can't parse"):
            raise Unparsable(inner[:1].upper() + inner[1:]) from None
        raise
    text, plain, parse_mode = message if message is not None else (None, None, None)
    return InlineResult(result_id, kind, dict(value), text, plain, parse_mode, markup)


def _check_served(result: InlineResult) -> None:
    """Telegram's own rules for a result that parsed."""
    if not result.id:
        raise bad_request("RESULT_ID_EMPTY")
    if len(result.id.encode()) > MAX_RESULT_ID:
        raise bad_request("RESULT_ID_INVALID")
    if result.type == "article" and not result.raw.get("title"):
        raise bad_request("ARTICLE_TITLE_EMPTY")
    if result.plain is not None:
        if not result.plain.strip():
            raise bad_request("MESSAGE_EMPTY")
        if utf16_len(result.plain) > MAX_TEXT:
            raise bad_request("MESSAGE_TOO_LONG")


def check_results(values: Any, *, allow_http_web_app: bool = False) -> list[InlineResult]:
    """answerInlineQuery's results: at most 50, each parsed and valid, ids unique."""
    if values is None or values == "":
        return []
    if not isinstance(values, list):
        raise bad_request("expected an Array of inline query results")
    if len(values) > MAX_RESULTS:
        raise bad_request("too many inline query results specified")
    parsed: list[InlineResult] = []
    for value in values:
        try:
            parsed.append(_parse(value, allow_http_web_app=allow_http_web_app))
        except Unparsable as error:
            raise bad_request(f"can't parse inline query result: {error}") from None
    seen: set[str] = set()
    for result in parsed:
        _check_served(result)
        if result.id in seen:
            raise bad_request("RESULT_ID_DUPLICATE")
        seen.add(result.id)
    return parsed


def check_result(value: Any, *, allow_http_web_app: bool = False) -> InlineResult:
    """savePreparedInlineMessage's one result (the server reports its parse errors without a prefix)."""
    if value is None or value == "":
        raise bad_request("result isn't specified")
    try:
        result = _parse(value, allow_http_web_app=allow_http_web_app)
    except Unparsable as error:
        message = str(error)
        raise bad_request(message[:1].lower() + message[1:]) from None
    _check_served(result)
    return result


def check_results_button(button: Any, *, allow_http_web_app: bool = False) -> JSON | None:
    """An InlineQueryResultsButton: a text and exactly one of start_parameter and web_app."""
    if button is None or button == "":
        return None
    try:
        if not isinstance(button, dict):
            raise Unparsable("InlineQueryResultsButton must be an Object")
        _string(button, "text", required=True)
        if "start_parameter" in button:
            parameter = _string(button, "start_parameter", required=True) or ""
            if not _START_PARAMETER.fullmatch(parameter):
                raise bad_request("START_PARAM_INVALID")
            return button
        if "web_app" in button:
            web_app = button["web_app"]
            if not isinstance(web_app, dict):
                raise Unparsable('Field "web_app" must be of type Object')
            url = _string(web_app, "url", required=True) or ""
            schemes = ("http://", "https://") if allow_http_web_app else ("https://",)
            if not url.startswith(schemes):
                raise bad_request("BUTTON_URL_INVALID")
            return button
        raise Unparsable("InlineQueryResultsButton must have exactly one optional field")
    except Unparsable as error:
        raise bad_request(f"can't parse inline query results button: {error}") from None


def check_next_offset(offset: Any) -> str:
    """next_offset: a string of at most 64 bytes ("" when there are no more results)."""
    text = "" if offset is None else str(offset)
    if len(text.encode()) > MAX_NEXT_OFFSET:
        raise bad_request("NEXT_OFFSET_INVALID")
    return text

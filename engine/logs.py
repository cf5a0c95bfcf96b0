"""How the process writes its log: readable lines by default, one JSON object a line with ``LOG_FORMAT=json``.

A JSON line carries the time (UTC, ISO 8601), the level, the logger, the message, and, when the
log call hands them in ``extra=`` (``table_id``, ``user_id``), the table and the person; the
request being served (``request_id``, set by the web process for each request and socket) comes
from ``REQUEST_ID`` on its own. An exception is its type and traceback.

Log calls never put initData, the bot token or a message's text in a line. What libraries log is
not ours to word: a bot token (the Bot API's URLs carry it) and initData's signature are blotted
out of every line, in either format, and the HTTP client's line per request is left out.
"""

from __future__ import annotations

import json
import logging
import re
import time
from contextvars import ContextVar

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
CARRIED = ("table_id", "user_id", "request_id")  # fields a log call may hand in extra= that a JSON line keeps
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# a bot token (digits, a colon, 35 letters), and initData's signature and hash (each of which proves a sign-in)
SECRETS = re.compile(r"(?<!\d)\d{5,}:[A-Za-z0-9_-]{30,}|\b(?:hash|signature)=[^&\s\"']+")
QUIET = ("httpx", "httpcore")  # a line per HTTP request, with the Bot API's URL: warnings only


def redacted(text: str) -> str:
    """``text`` with any bot token or initData signature blotted out."""
    return SECRETS.sub(_blot, text)


def _blot(found: re.Match[str]) -> str:
    name, equals, _value = found[0].partition("=")
    return f"{name}=<hidden>" if equals else "<bot token>"


class TextFormatter(logging.Formatter):
    """Readable lines, secrets blotted out."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one readable line."""
        return redacted(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        line: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redacted(record.getMessage()),
        }
        request_id = REQUEST_ID.get()
        if request_id is not None:
            line["request_id"] = request_id
        for name in CARRIED:
            value = record.__dict__.get(name)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["error"] = redacted(self.formatException(record.exc_info))
        if record.stack_info:
            line["stack"] = redacted(self.formatStack(record.stack_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def setup_logging(log_format: str = "text", level: int = logging.INFO) -> None:
    """Send the process's log to standard error, as JSON lines when ``log_format`` is "json", else readable lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in QUIET:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))

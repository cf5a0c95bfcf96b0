"""A malformed HTTP request is its sender's fault: aiohttp answers it 400 and says so in one WARNING line.

aiohttp logs every request it cannot parse (a header over 8 KiB, a broken request line) as
"Error handling request" at ERROR with a traceback, as if the server had failed; an operator
alerting on errors would be paged by anyone who sends junk. ``quiet_client_errors`` puts a
filter on aiohttp's server logger that turns those records (and only those: the exception
is aiohttp's own ``HttpProcessingError``) into one WARNING line naming the problem.
"""

from __future__ import annotations

import logging

from aiohttp.http_exceptions import HttpProcessingError

SERVER_LOGGER = "aiohttp.server"


class ClientErrorFilter(logging.Filter):
    """Logs a request aiohttp could not parse as a WARNING without its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError) and record.levelno >= logging.ERROR:
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
            record.msg, record.args = "a malformed request answered %s: %s", (error.code, error.message[:200])
            record.exc_info = record.exc_text = None
        return True


def quiet_client_errors() -> None:
    """Put the filter on aiohttp's server logger, once however many applications are made."""
    logger = logging.getLogger(SERVER_LOGGER)
    if not any(isinstance(f, ClientErrorFilter) for f in logger.filters):
        logger.addFilter(ClientErrorFilter())

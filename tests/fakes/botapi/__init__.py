"""A local Telegram Bot API server for tests: the real bot talks to it over HTTP, tests read what it recorded.

Point python-telegram-bot at it with
``ApplicationBuilder().token(fake.token).base_url(fake.base_url).base_file_url(fake.base_file_url)``.
python-telegram-bot raises ``RetryAfter`` through a deprecated int property unless ``PTB_TIMEDELTA=1``
is set; with warnings as errors, tests that may meet a 429 need that variable (see ``fixtures.py``).
"""

from .model import ApiError, Call, Delivery, Edit, FakeMessage
from .server import SECRET_HEADER, FakeBotApi
from .updates import command_entities

__all__ = ["SECRET_HEADER", "ApiError", "Call", "Delivery", "Edit", "FakeBotApi", "FakeMessage", "command_entities"]

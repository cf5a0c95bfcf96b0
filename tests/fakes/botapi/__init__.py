"""A local Telegram Bot API server for tests: the real bot talks to it over HTTP, tests read what it recorded.

Typical use::

    async with FakeBotApi() as fake:
        app = ApplicationBuilder().token(fake.token).base_url(fake.base_url).base_file_url(fake.base_file_url).build()
        fake.add_group(-100123, "Card night")
        await fake.send_update(fake.message(-100123, 42, "/new coins"))   # or app.process_update(...)
        await fake.wait_for_calls("sendMessage")
        lobby = fake.last_message(-100123)
        await fake.send_update(fake.press(43, lobby, "Join"))

Inline mode and prepared messages (the bot as BotFather's /setinline and /setinlinefeedback leave it)::

    fake = FakeBotApi(inline=True, inline_feedback=True)      # or fake.set_inline_mode(True, feedback=True)
    query = fake.inline_query(42, "coins", chat=43)           # Ana types "@bot coins" in her chat with Ben
    await fake.send_update(query)                             # chat=None: her chat with the bot; chat=-100...: a group
    await fake.wait_for_calls("answerInlineQuery")
    fake.inline_answer(query)["results"]                      # what the bot offered
    chosen = fake.choose_inline_result(query, "invite")       # she picks one: posted via the bot in that chat
    for update in chosen.updates:                             # the message where the bot sees it, chosen_inline_result
        await fake.send_update(update)
    fake.inline_message(chosen.inline_message_id)             # edits by inline_message_id show here
    await fake.send_update(fake.press_inline(43, chosen.inline_message_id, "Join"))

    prepared = await bot.save_prepared_inline_message(42, result, allow_group_chats=True)   # Bot API 8.0
    chosen = fake.share_prepared_message(prepared.id, 42, chat=-100123)   # the Mini App's shareMessage, accepted

A message sent via the bot is the person's: the bot edits it only by inline_message_id (given only when it has an
inline keyboard); by chat_id and message_id it gets "chat not found" where it is not a member and "message can't
be edited" where it is. Queries must be answered once within 10 seconds of the fake's clock; prepared messages
last a day; a share Telegram's client would refuse raises ``ShareRefused`` with the Mini App's error code.

Limits: ``per_chat_per_second``, ``per_group_per_minute`` (chat id < 0) and ``global_per_second`` count
sendMessage, editMessageText and editMessageReplyMarkup that succeed (edits by inline_message_id count for the
whole bot only); 0 switches a limit off. Pass a ``clock`` to move time by hand, or ``time_scale`` < 1 to shrink
every window (retry_after then comes in fractions of a second so the library's rate limiter does not sleep whole
seconds).

Telegram's refusals, with its exact descriptions: chats the bot was kicked from or left (403), basic groups
upgraded to supergroups (400 with ``migrate_to_chat_id``), users who blocked or never started the bot (403),
closed or unknown forum topics, over-long or empty text, button answers over 200 characters or with a foreign
``url``, answering a query twice, deleting a message twice or after 48 hours, edits that change nothing.
Test-side helpers change the world and return the updates Telegram would send the bot (``kick_bot``,
``bot_leaves``, ``bot_added``, ``user_blocks_bot``, ``user_unblocks_bot``, ``migrate_group``); forum helpers
(``create_forum_topic``, ``close_forum_topic``, ...) and ``advance(seconds)`` for the fake's clock.
``inject_fault(method, kind, times=..., status=..., delay=...)`` makes calls fail (see ``faults.py``).

python-telegram-bot builds ``RetryAfter`` through a deprecated int property unless ``PTB_TIMEDELTA=1``;
with warnings as errors, tests that may meet a 429 need that variable (the ``ptb_timedelta`` fixture in
``tests/fakes/fixtures.py``).
"""

from .faults import Fault, FaultKind
from .inline import Chosen, PreparedMessage, ShareRefused
from .model import ApiError, Call, Delivery, Edit, FakeMessage, Topic
from .server import SECRET_HEADER, FakeBotApi
from .updates import command_entities

__all__ = [
    "SECRET_HEADER", "ApiError", "Call", "Chosen", "Delivery", "Edit", "FakeBotApi", "FakeMessage", "Fault",
    "FaultKind", "PreparedMessage", "ShareRefused", "Topic", "command_entities",
]

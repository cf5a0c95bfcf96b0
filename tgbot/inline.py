"""Inline mode: ``@bot`` in any chat offers the games (and the asker's open tables); the chosen invitation becomes
the table's one message.

Typing ``@bot`` in a private chat with a friend, or in a group without the bot, lists the
games in the asker's language. Choosing one posts an invitation via the bot; when Telegram
tells the bot (``chosen_inline_result``, inline feedback on) the table is opened at once, hosted
by whoever chose it, and from then on its lobby, status and summary are that message, edited
by its ``inline_message_id`` (``tgbot.homes``). With feedback off, the first press of Join opens
it (the button says the game and who sent it: they host it, whoever presses first). Anyone may join
from it, also people who never started the bot.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from telegram import InlineQueryResultArticle, InlineQueryResultsButton, Update
from telegram.error import TelegramError

from engine import games
from engine.core.errors import Refusal
from engine.i18n import refusal_text
from engine.service.live import TableInfo
from tgbot import invitations
from tgbot.buttons import STRAY, answer
from tgbot.callbacks import parse
from tgbot.context import BotState, Context, display_name, locale_of
from tgbot.languages import remember_app_language
from tgbot.render import translate

log = logging.getLogger(__name__)

CACHE_SECONDS = 5  # a person's own tables change: Telegram may keep an answer only briefly
OWN_TABLES = 5  # the asker's open tables offered at most
SHOWN_QUERY = 16  # characters of an unknown query echoed back


async def invite_query(update: Update, context: Context) -> None:
    """``@bot [game]``: the games matching the text (every game when none does), then the asker's open lobbies."""
    query = update.inline_query
    if query is None:
        return
    bot_state, user = context.bot_data, query.from_user
    locale = locale_of(user)
    host, links = display_name(user), bot_state.links
    text = " ".join(query.query.split()).casefold()
    names = games.names()
    wanted = [name for name in names if _matches(text, name, locale)]
    button = None
    if text and not wanted:
        shown = query.query.strip()[:SHOWN_QUERY]
        button = InlineQueryResultsButton(
            translate(locale, "No game called “%(text)s”. Here are all of them.") % {"text": shown},
            start_parameter="help")
    results: list[InlineQueryResultArticle] = [
        invitations.game_invitation(name, host, user.id, links, locale) for name in (wanted or names)]
    if await bot_state.service.people.person(user.id) is None:  # their invitation names them as its host
        await bot_state.service.people.remember(user.id, host)
        if user.language_code:  # and its table speaks their language
            await remember_app_language(bot_state, user.id, user.language_code)
    try:
        own = await bot_state.service.tables_of(user.id, limit=OWN_TABLES * 2)
    except Refusal:
        own = []
    results += [invitations.table_invitation(info, host, links, locale) for info in own
                if info.status == "lobby" and info.host_user_id == user.id and info.free_seats][:OWN_TABLES]
    try:
        await query.answer(results, cache_time=CACHE_SECONDS, is_personal=True, button=button)
    except TelegramError as error:  # too late (10 s), or answered already by another process
        log.info("inline query %s was not answered: %s", query.id, error)


def _matches(text: str, name: str, locale: str | None) -> bool:
    """Whether the typed text names this game (its name, or its title in English or the reader's language)."""
    if not text:
        return True
    spoken = {name.replace("_", " "), invitations.title(name, None).casefold(),
              invitations.title(name, locale).casefold()}
    return any(text in words or words.startswith(text) for words in spoken)


async def invitation_chosen(update: Update, context: Context) -> None:
    """A person sent an invitation: open its table (or settle theirs) in that message, hosted by them."""
    chosen = update.chosen_inline_result
    if chosen is None or chosen.inline_message_id is None:
        return  # no keyboard, so no message to keep the table in
    found = invitations.parse_result_id(chosen.result_id)
    if found is None:
        return
    kind, target = found
    inviter = chosen.from_user
    try:
        await _open_in(context.bot_data, Host(inviter.id, display_name(inviter), locale_of(inviter)),
                       chosen.inline_message_id, kind, target)
    except Refusal as refusal:  # e.g. at their cap on open tables: the first press of Join will say so
        log.info("invitation %s of %s opened no table: %s", chosen.result_id, chosen.from_user.id, refusal.code)


async def invitation_button(update: Update, context: Context) -> None:
    """Join on an invitation: the first press opens the table (when nobody has yet), every press takes a seat."""
    query = update.callback_query
    if query is None:
        return
    found, locale = parse(query.data), locale_of(query.from_user)
    if found is None or query.inline_message_id is None:  # invitations live only in messages sent via the bot
        await answer(query, translate(locale, STRAY))
        return
    bot_state, user = context.bot_data, query.from_user
    try:
        kind = invitations.target_kind(found.target)
        host = await _inviter(bot_state, found.target) or Host(user.id, display_name(user), locale)
        info = await _open_in(bot_state, host, query.inline_message_id, kind, found.target)
        if info.seat_of(user.id) is None:
            info = await bot_state.service.join(info.id, user.id, display_name(user))
    except Refusal as refusal:
        await answer(query, refusal_text(refusal, locale), show_alert=True)
        return
    person = await bot_state.service.people.person(user.id)
    if person is not None and person.can_message:
        await answer(query, translate(locale, "You have a seat. I will message you when it is your turn."))
    else:
        await answer(query, url=bot_state.links.table_deep(info.id))


@dataclass(frozen=True, slots=True)
class Host:
    """Who hosts a table opened in an invitation's message: the person who sent the invitation."""

    user_id: int
    name: str
    locale: str | None


async def _inviter(bot_state: BotState, target: str) -> Host | None:
    """The sender a new game's Join button names, when the bot knows them (an older button names no one)."""
    found = invitations.parse_game_target(target)
    if found is None or found[1] is None:
        return None
    person = await bot_state.service.people.person(found[1])
    return Host(person.user_id, person.name, person.language or person.app_language) if person else None


class Openings:
    """One opening at a time per inline message in this process (a chosen result and a first press may race; across
    processes the store keeps the first table opened there)."""

    KEEP = 1024

    def __init__(self) -> None:
        self._locks: OrderedDict[str, asyncio.Lock] = OrderedDict()

    def lock(self, inline_message_id: str) -> asyncio.Lock:
        """The lock of one inline message."""
        lock = self._locks.get(inline_message_id)
        if lock is None:
            while len(self._locks) >= self.KEEP and not next(iter(self._locks.values())).locked():
                self._locks.popitem(last=False)
            lock = self._locks[inline_message_id] = asyncio.Lock()
        return lock


_openings: WeakKeyDictionary[BotState, Openings] = WeakKeyDictionary()  # each bot's own


def _lock(bot_state: BotState, inline_message_id: str) -> asyncio.Lock:
    openings = _openings.get(bot_state)
    if openings is None:
        openings = _openings[bot_state] = Openings()
    return openings.lock(inline_message_id)


async def _open_in(bot_state: BotState, host: Host, inline_message_id: str, kind: invitations.Kind,
                   target: str) -> TableInfo:
    """The table of this invitation, opened (hosted by ``host``) or settled in its message on first sight.

    A new game's table is opened here; the inviter's own open table moves into the message when it
    has no message yet (a table opened in the Mini App); any other table is only joined from it.
    """
    notifier, service = bot_state.notifier, bot_state.service
    async with _lock(bot_state, inline_message_id):
        known = await notifier.inline_table(inline_message_id)
        if known is not None:
            return await service.info(known)
        if kind == invitations.GAME:
            game = target.partition("-")[0]
            info = await service.create_table(game, host.user_id, host.name, chat_id=None)
        else:
            info = await service.info(target)
            if info.host_user_id != host.user_id or info.status != "lobby" or info.chat_id is not None \
                    or await notifier.home(info.id) is not None:
                return info
        lives = await notifier.live_inline(info.id, inline_message_id, locale=host.locale)
        if lives == info.id:
            return info
        if kind == invitations.GAME:  # another process opened a table in this message first: this one goes
            await service.abandon(info.id, host.user_id)
        return await service.info(lives)

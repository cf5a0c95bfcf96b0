"""Commands besides the lobby's: /start (with deep links), /help, /rules, /settings, /stats, and the menu."""

from __future__ import annotations

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)
from telegram.error import BadRequest, TelegramError
from telegram.ext import ExtBot

from engine import games
from engine.core.errors import Refusal
from engine.i18n import LANGUAGES, N_
from tgbot.arguments import game_name
from tgbot.buttons import answer
from tgbot.callbacks import Verb, button_data
from tgbot.context import Context, display_name, is_group, is_private, locale_of, reply, reply_refusal
from tgbot.guide import HELP_COMMANDS, friend_markup, game_examples, has_inline_mode, private_answer
from tgbot.languages import remember_app_language
from tgbot.links import TABLE_PAYLOAD
from tgbot.priority import Call
from tgbot.render import has_template, render, translate

GROUP_COMMANDS = (
    ("new", N_("Start a table: /new [game] [setting=value]")),
    ("join", N_("Take a seat at the open table")),
    ("leave", N_("Give up your seat")),
    ("cancel", N_("Cancel the table (host or admin)")),
    ("rules", N_("The rules in a few lines: /rules [game]")),
    ("stats", N_("Your games played and won")),
    ("top", N_("Who plays best in this group: /top [game]")),
    ("language", N_("The group's language")),
    ("help", N_("What I can do")),
)
PRIVATE_COMMANDS = (
    ("new", N_("Play against AI players: /new [game]")),
    ("rules", N_("The rules in a few lines: /rules [game]")),
    ("settings", N_("Turn messages on or off")),
    ("stats", N_("Your games played and won")),
    ("history", N_("Your last games, with replays")),
    ("language", N_("The language I write to you in")),
    ("help", N_("What I can do")),
)


async def set_commands(bot: ExtBot[Call]) -> None:
    """Register the command menus for groups and for private chats, in English and in every other language."""
    def commands(pairs: tuple[tuple[str, str], ...], language: str) -> list[BotCommand]:
        return [BotCommand(name, translate(language, description)) for name, description in pairs]

    for language in LANGUAGES:
        code = None if language == "en" else language  # English is the menu of every other language too
        await bot.set_my_commands(commands(GROUP_COMMANDS, language), scope=BotCommandScopeAllGroupChats(),
                                  language_code=code)
        await bot.set_my_commands(commands(PRIVATE_COMMANDS, language), scope=BotCommandScopeAllPrivateChats(),
                                  language_code=code)


async def remember_private(update: Update, context: Context) -> None:
    """Someone wrote to the bot privately: from now on it may write to them."""
    user, chat = update.effective_user, update.effective_chat
    if user is None or not is_private(chat):
        return
    if user.id in context.bot_data.reachable:
        return
    await context.bot_data.service.people.remember(user.id, display_name(user))
    if user.language_code:  # before any turn message goes out: it is written in this language
        await remember_app_language(context.bot_data, user.id, user.language_code)
    await context.bot_data.notifier.can_message_again(user.id)


async def start_command(update: Update, context: Context) -> None:
    """/start: a greeting, or (with a table deep link) the table and its Open button."""
    user, chat = update.effective_user, update.effective_chat
    if user is None:
        return
    locale = locale_of(user)
    if not is_private(chat):
        await reply(update, translate(locale, "Send /start to me in a private chat; in a group, use /new."))
        return
    payload = (context.args or [""])[0]
    if payload.startswith(TABLE_PAYLOAD):
        await table_deeplink(update, context, payload.removeprefix(TABLE_PAYLOAD))
        return
    await reply(update, _help_text(locale, context, private=True), reply_markup=friend_markup(context.bot, locale))


def _help_text(locale: str | None, context: Context, *, private: bool) -> str:
    return render("help.html", locale, private=private, bot=context.bot.username, commands=HELP_COMMANDS,
                  examples=game_examples(), inline=has_inline_mode(context.bot))


async def table_deeplink(update: Update, context: Context, table_id: str) -> None:
    """``?start=t_<table>``: confirm the seat, offer the table, and (now that we may) send turn messages."""
    bot_state, user = context.bot_data, update.effective_user
    assert user is not None
    locale = locale_of(user)
    try:
        info = await bot_state.service.info(table_id)
    except Refusal as refusal:
        await reply_refusal(update, context, refusal)
        return
    button = bot_state.links.open_button(translate(locale, "Open table"), info.id, private=True)
    await reply(update, render("hello.html", locale, table=info, seated=info.seat_of(user.id) is not None),
                reply_markup=InlineKeyboardMarkup([[button]]))
    bot_state.notifier.refresh(info.id)


async def help_command(update: Update, context: Context) -> None:
    """/help: what the bot does and its commands; asked in a group, answered in private when the bot may write there
    (the group's few messages a minute are kept for its tables)."""
    user, chat = update.effective_user, update.effective_chat
    locale = locale_of(user)
    if user is not None and is_group(chat):
        person = await context.bot_data.service.people.person(user.id)
        if person is not None and person.can_message:
            try:
                await context.bot.send_message(user.id, _help_text(locale, context, private=True), parse_mode="HTML",
                                               reply_markup=friend_markup(context.bot, locale))
                return
            except TelegramError:  # they blocked the bot since: the group gets the help
                pass
    await reply(update, _help_text(locale, context, private=is_private(chat)),
                reply_markup=friend_markup(context.bot, locale))


async def private_fallback(update: Update, context: Context) -> None:
    """A private message no other handler took (an unknown command, plain text): a short pointer, never silence."""
    message = update.effective_message
    if message is None or not is_private(update.effective_chat) or message.via_bot is not None:
        return
    await reply(update, private_answer(message.text or "", locale_of(update.effective_user)))


async def rules_command(update: Update, context: Context) -> None:
    """/rules [game]: the rules in a few lines."""
    locale = locale_of(update.effective_user)
    try:
        name = game_name(context.args[0]) if context.args else "coins"
    except Refusal as refusal:
        await reply_refusal(update, context, refusal)
        return
    template = f"rules_{name}.html"
    if not has_template(template):
        await reply(update, translate(locale, "I have no summary of those rules yet."))
        return
    await reply(update, render(template, locale, title=games.get(name).title))


def _settings_markup(notify: bool, locale: str | None) -> InlineKeyboardMarkup:
    label = N_("Turn messages: on") if notify else N_("Turn messages: off")
    target = "off" if notify else "on"
    return InlineKeyboardMarkup([
        [InlineKeyboardButton(translate(locale, label), callback_data=button_data(Verb.NOTIFY, target))],
        [InlineKeyboardButton("🌐 " + translate(locale, N_("Language")),
                              callback_data=button_data(Verb.LANGUAGE_MENU, "open"))],
    ])


async def settings_command(update: Update, context: Context) -> None:
    """/settings (private): turn messages on or off, and a button to the language picker."""
    user = update.effective_user
    if user is None:
        return
    locale = locale_of(user)
    if not is_private(update.effective_chat):
        await reply(update, translate(locale, "Your settings are private: send /settings to me in a private chat."))
        return
    person = await context.bot_data.service.people.person(user.id)
    notify = person is None or person.notify
    await reply(update, render("settings.html", locale, notify=notify), reply_markup=_settings_markup(notify, locale))


async def notify_button(update: Update, context: Context) -> None:
    """The /settings button: switch turn messages."""
    query = update.callback_query
    if query is None:
        return
    locale = locale_of(query.from_user)
    message = query.message
    if message is None or message.chat.id != query.from_user.id:
        await answer(query, translate(locale, "Change your settings in a private chat with me."))
        return
    notify = (query.data or "").endswith(":on")
    people = context.bot_data.service.people
    await people.remember(query.from_user.id, display_name(query.from_user))
    await people.set_notify(query.from_user.id, notify)
    await answer(query, translate(locale, N_("Turn messages are on.") if notify else N_("Turn messages are off.")))
    markup = _settings_markup(notify, locale)
    if isinstance(message, Message) and message.reply_markup == markup:
        pass  # a double tap: the first press already switched the panel
    else:
        try:
            await context.bot.edit_message_text(render("settings.html", locale, notify=notify), message.chat.id,
                                                message.message_id, parse_mode="HTML", reply_markup=markup)
        except BadRequest as error:  # two taps at once: the other one switched it
            if "not modified" not in error.message.lower():
                raise
    for info in await context.bot_data.service.tables_of(query.from_user.id):
        context.bot_data.notifier.refresh(info.id)


async def stats_command(update: Update, context: Context) -> None:
    """/stats: finished games played and won, per game."""
    user = update.effective_user
    if user is None:
        return
    found = await context.bot_data.service.people.stats(user.id)
    rows = [(games.get(name).title, entry["played"], entry["won"]) for name, entry in sorted(found.items())]
    await reply(update, render("stats.html", locale_of(user), player=display_name(user), rows=rows))

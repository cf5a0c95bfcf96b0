"""Invitations sent from any chat: one inline result per game (or per open table) that posts a Join message.

The same result answers an inline query (``@bot`` typed in any chat) and is prepared for
the Mini App's Share (``savePreparedInlineMessage``). Its id says what it invites to
(``g:<game>`` or ``t:<table>``), and so does its Join button (``i:<game>-<inviter>`` or ``i:<table>``), so
the first press opens the table, hosted by whoever sent the invitation, even when Telegram sends no
``chosen_inline_result``.
"""

from __future__ import annotations

from typing import Literal

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    LinkPreviewOptions,
)
from telegram.constants import ParseMode

from engine import games
from engine.i18n import N_, translations
from engine.service.live import TableInfo
from engine.words import game_title
from tgbot.callbacks import Verb, button_data
from tgbot.links import Links
from tgbot.render import render, translate

Kind = Literal["g", "t"]
GAME: Kind = "g"
TABLE: Kind = "t"

# what each game is, in a line (the first line of its /rules)
ABOUT = {
    "coins": N_("Three players, the 48-card Spanish deck, all cards dealt: 16 each."),
    "sergeant_major": N_("Three players, 52 cards: 16 each and 4 to the kitty."),
    "kings_corner": N_("Two to four players, 52 cards: 7 each, four face up on the sides of the stock."),
}


def result_id(kind: Kind, target: str) -> str:
    """The inline result's id for an invitation to a game or a table."""
    return f"{kind}:{target}"


def parse_result_id(text: str) -> tuple[Kind, str] | None:
    """What a chosen result invites to: (``GAME``, game) or (``TABLE``, table id); None for anything else."""
    kind, _, target = text.partition(":")
    if not target or len(target) > 32:
        return None
    if kind == GAME and target in games.names():
        return GAME, target
    if kind == TABLE and target.replace("-", "").replace("_", "").isalnum() and target.isascii():
        return TABLE, target
    return None


def game_target(game: str, inviter_id: int) -> str:
    """A new game's Join button target: the game and who sent the invitation (its host)."""
    return f"{game}-{inviter_id}"


def parse_game_target(target: str) -> tuple[str, int | None] | None:
    """The game and inviter a Join button's target names (None: a table's target); an older button names no one."""
    game, _, inviter = target.partition("-")
    if game not in games.names():
        return None
    return game, int(inviter) if inviter.isdigit() and inviter.isascii() else None


def target_kind(target: str) -> Kind:
    """Whether an invitation button's target is a game or a table."""
    return GAME if parse_game_target(target) is not None else TABLE


def about(game: str, locale: str | None) -> str:
    """A game's one-line description in the reader's language."""
    line = ABOUT.get(game)
    return translate(locale, line) if line else ""


def title(game: str, locale: str | None) -> str:
    """A game's title in the reader's language."""
    return game_title(games.get(game).title, translations(locale))


def app_link(links: Links, table_id: str | None) -> str:
    """Where Open table goes from a message in any chat: the table in the Mini App, else the app or the bot."""
    if table_id is not None:
        return links.direct(table_id) or links.table_deep(table_id)
    if links.short_name:
        return f"https://t.me/{links.bot_username}/{links.short_name}"
    return links.deep()


def keyboard(target: str, links: Links, locale: str | None, *, table_id: str | None) -> InlineKeyboardMarkup:
    """Join (opens the table on the first press when it is not open yet) and Open table (a link: no web_app here)."""
    return InlineKeyboardMarkup([[
        InlineKeyboardButton(translate(locale, "Join"), callback_data=button_data(Verb.INVITE, target)),
        InlineKeyboardButton(translate(locale, "Open table"), url=app_link(links, table_id)),
    ]])


def _article(kind: Kind, target: str, game: str, heading: str, description: str, host: str, links: Links,
             locale: str | None, table_id: str | None, *, button: str | None = None) -> InlineQueryResultArticle:
    text = render("invitation.html", locale, title=games.get(game).title, host=host, about=ABOUT.get(game, ""))
    content = InputTextMessageContent(text, parse_mode=ParseMode.HTML,
                                      link_preview_options=LinkPreviewOptions(is_disabled=True))
    return InlineQueryResultArticle(result_id(kind, target), heading, content,
                                    reply_markup=keyboard(button or target, links, locale, table_id=table_id),
                                    description=description)


def game_invitation(game: str, host: str, inviter_id: int, links: Links, locale: str | None
                    ) -> InlineQueryResultArticle:
    """An invitation to a new table of ``game``, hosted by whoever sends it (its Join button names them)."""
    return _article(GAME, game, game, title(game, locale), about(game, locale), host, links, locale, None,
                    button=game_target(game, inviter_id))


def table_invitation(info: TableInfo, host: str, links: Links, locale: str | None) -> InlineQueryResultArticle:
    """An invitation to an open table."""
    seated = sum(1 for s in info.seats if s.user_id is not None or s.is_ai)
    heading = translate(locale, "Your table: %(game)s") % {"game": title(info.game, locale)}
    description = translate(locale, "%(seated)d of %(size)d seats taken. %(about)s") % {
        "seated": seated, "size": info.size, "about": about(info.game, locale)}
    return _article(TABLE, info.id, info.game, heading, description, host, links, locale, info.id)

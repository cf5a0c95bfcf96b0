"""What a table's message in its chat says: its lobby or its status, the options listed, the standings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from telegram import InlineKeyboardMarkup

from engine.service.live import Snapshot, TableInfo
from engine.service.people import Person
from tgbot.context import BotState
from tgbot.keyboards import lobby_keyboard, options_keyboard, seat_names
from tgbot.option_buttons import lobby_settings
from tgbot.records import Record
from tgbot.render import render, translate

PersonOf = Callable[[int], Awaitable[Person | None]]  # reads a person (a pass's ``PeopleCache.person``: each once)


def home_locale(home: Record | None) -> str | None:
    """The language of the chat a table's messages go to (None: not settled)."""
    value = home.data.get("locale") if home is not None else None
    return value if isinstance(value, str) else None


def standings(info: TableInfo) -> list[dict[str, Any]]:
    """Seats from first place down, with their scores."""
    result = info.result or {}
    scores = list(result.get("scores") or [])
    placements = list(result.get("placements") or [])
    winners = set(result.get("winners") or [])
    rows = []
    for seat in info.seats:
        rows.append({
            "name": seat.name, "user_id": seat.user_id, "is_ai": seat.is_ai,
            "score": scores[seat.seat] if seat.seat < len(scores) else None,
            "place": placements[seat.seat] if seat.seat < len(placements) else None,
            "winner": seat.seat in winners,
        })
    rows.sort(key=lambda r: (r["place"] is None, r["place"] or 0))
    return rows


async def table_message(bot_state: BotState, info: TableInfo, snapshot: Snapshot, home: Record,
                        person_of: PersonOf, *, waiting: frozenset[int] | None = None
                        ) -> tuple[str, InlineKeyboardMarkup | None]:
    """The table's message in its chat as it should be now: the lobby with its buttons, or the status (naming as to
    play only the seats in ``waiting``; None: every seat to act)."""
    private, locale = home.chat_id > 0, home_locale(home)
    people = await seated_people(info, person_of)
    if info.status == "lobby":
        seated = {s.user_id for s in info.seats}
        invited = [(int(u), str(n)) for u, n in home.data.get("invited") or () if int(u) not in seated]
        text = render("lobby.html", locale, table=info, people=people, links=bot_state.links,
                      options=lobby_settings(info), seat_names=seat_names(info), private=private, invited=invited)
        if info.id in bot_state.options_open:
            return text, options_keyboard(info, locale)
        return text, lobby_keyboard(info, bot_state.links, locale, private=private)
    view = snapshot.view(None)
    named: dict[str, object] = {} if waiting is None else {"waiting": waiting}
    if home.inline_id is not None:  # no group to mention them in: the table's message shows how to get turn messages
        named["steer"] = bot_state.links.table_deep(info.id)
    text = render("status.html", locale, table=info, people=people, state=view.get("state") or {}, **named)
    button = bot_state.links.open_button(translate(locale, "Open table"), info.id, private=private)
    return text, InlineKeyboardMarkup([[button]])


async def seated_people(info: TableInfo, person_of: PersonOf) -> dict[int, Person]:
    """Each seated person by seat (may the bot write to them, do they want turn messages); someone never seen
    is one the bot may not write to."""
    people: dict[int, Person] = {}
    for seat in info.seats:
        if seat.user_id is not None:
            found = await person_of(seat.user_id)
            people[seat.seat] = found or Person(seat.user_id, seat.name, True, False, None, None)
    return people

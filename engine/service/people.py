"""People the service knows: their names, whether the bot may write to them, and their languages.

Adapters read and change a person only through this part (never the store): ``remember`` when
someone shows up, ``person`` for their typed row, the flags and languages they set. A notifier
pass that reads the same person many times asks a ``PeopleCache`` made for that pass.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from engine.core.names import clean_name
from engine.store.database import Store


@dataclass(frozen=True, slots=True)
class Person:
    """One person as the service knows them."""

    user_id: int
    name: str
    notify: bool  # they want turn messages
    can_message: bool  # the bot may write to them (they started it, or allowed it in the Mini App)
    language: str | None  # chosen with /language or the Mini App's picker
    app_language: str | None  # their Telegram app's, as last seen

    @property
    def reads(self) -> str | None:
        """The language a message that answers nothing is written in: the chosen one, else the app's."""
        return self.language or self.app_language or None


def _person(row: dict[str, Any] | None) -> Person | None:
    if row is None:
        return None
    return Person(int(row["id"]), str(row["name"]), bool(row["notify"]), bool(row["can_message"]),
                  row.get("language"), row.get("app_language"))


class People:
    """Reads and changes people's rows; every name is cleaned on the way in."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._chosen: dict[int, float] = {}  # when each person last chose a language through this process

    def chosen_at(self, user_id: int) -> float | None:
        """When (``time.monotonic``) a person last chose a language through this process (the bot or the page)."""
        return self._chosen.get(user_id)

    async def remember(self, user_id: int, name: str) -> str:
        """Know a person under their current name (cleaned); returns the name kept."""
        kept = clean_name(name, fallback=str(user_id))
        await self._store.people.upsert_user(user_id, kept)
        return kept

    async def person(self, user_id: int) -> Person | None:
        """A person's row, or None for someone never seen."""
        return _person(await self._store.people.user_settings(user_id))

    async def set_notify(self, user_id: int, notify: bool) -> None:
        """Whether a known person wants turn messages."""
        await self._store.people.set_user_flags(user_id, notify=notify)

    async def wants_turn_messages(self, user_id: int) -> bool:
        """Whether a person wants turn messages: yes until they switch them off (with /settings or in the page)."""
        person = await self.person(user_id)
        return person is None or person.notify

    async def choose_turn_messages(self, user_id: int, name: str, on: bool) -> None:
        """Switch a person's turn messages on or off; they are known from then on (the page may be their first
        visit), and the notifier reads the choice before each turn message it would send."""
        await self.remember(user_id, name)
        await self.set_notify(user_id, on)

    async def set_can_message(self, user_id: int, can_message: bool) -> None:
        """Whether the bot may write to a known person (they started it, or blocked it)."""
        await self._store.people.set_user_flags(user_id, can_message=can_message)

    async def can_message(self, user_id: int) -> bool:
        """Whether the bot may write to a person now (someone never seen: no)."""
        person = await self.person(user_id)
        return person is not None and person.can_message

    async def allowed_messages(self, user_id: int, name: str) -> bool:
        """Telegram vouches (signed launch data, or its answer to the page's request, which the person's own page
        reports) that the bot may write to this person: their turn messages can reach them from now on. Returns
        whether that is news (nothing is written when it is already known). A word that was not true costs only
        the person themselves: Telegram refuses the first message and the bot marks them unreachable again."""
        person = await self.person(user_id)
        if person is not None and person.can_message:
            return False
        await self.remember(user_id, name)
        await self.set_can_message(user_id, True)
        return True

    async def language(self, user_id: int) -> str | None:
        """The language a person chose, or None."""
        return await self._store.people.user_language(user_id)

    async def choose_language(self, user_id: int, name: str, language: str | None) -> None:
        """Remember (None: forget) the language a person chose; they are known from then on."""
        await self._store.people.set_user_language(user_id, clean_name(name, fallback=str(user_id)), language)
        self._chosen[user_id] = time.monotonic()

    async def saw_app_language(self, user_id: int, code: str) -> None:
        """Remember a known person's Telegram app language (unknown people are skipped)."""
        await self._store.people.set_app_language(user_id, code)

    async def stats(self, user_id: int) -> dict[str, dict[str, int]]:
        """Finished games played and won, per game."""
        return await self._store.people.stats(user_id)

    def cache(self) -> PeopleCache:
        """A cache for one pass: each person is read at most once."""
        return PeopleCache(self)


class PeopleCache:
    """People read at most once each, for one pass over a table."""

    def __init__(self, people: People) -> None:
        self._people = people
        self._known: dict[int, Person | None] = {}

    async def person(self, user_id: int) -> Person | None:
        """As ``People.person``, read once."""
        if user_id not in self._known:
            self._known[user_id] = await self._people.person(user_id)
        return self._known[user_id]

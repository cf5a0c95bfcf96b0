"""Each person's private turn message: one per turn while they are away, removed once it is over or they are back.

Only a person away from the table gets one (``is_away``: the page is not in front of them):
when their turn begins, or when they leave the table mid-turn; it is removed when the turn
is over or when they come back to the table. Each is written in the person's language
(``Person.reads``), not the group's. A turn is known by the seq it began at
(``tgbot.turn_book``), so a message left from before a restart is adopted when it is this
turn's, and replaced when it is not. A reminder replaces the turn's message with a fresh one
(an edit does not make the phone buzz; a new message does). Nobody the
bot may not write to, or who turned turn messages off, gets one.

A message of a turn that is over is removed by ``sweep`` when given (in the background, at
cleanup's priority), so no pass waits on it; a queued message whose turn is over, or whose
person came back, is never sent (``still_wanted``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.service.live import Snapshot, TableInfo
from engine.service.people import Person
from tgbot.limits import LANE, ORDER, WANTED, Lane
from tgbot.postings import Postings
from tgbot.records import SENDING, SENT, Record, Records, turn_purpose
from tgbot.render import render, translate
from tgbot.table_texts import PersonOf, home_locale
from tgbot.turn_book import TurnBook


class TurnMessages:
    """The private turn messages of every table."""

    def __init__(self, postings: Postings, records: Records, turns: TurnBook,
                 open_button: Callable[[str, str], InlineKeyboardButton], *,
                 is_away: Callable[[str, int], bool] = lambda _table, _user: True,
                 still_wanted: Callable[[str, int, int, int], bool] | None = None,
                 sweep: Callable[[str, Record, str], Awaitable[None]] | None = None) -> None:
        self.postings = postings
        self.records = records
        self.turns = turns
        self._open_button = open_button  # (label, table id) -> the button that opens the table in a private chat
        self._is_away = is_away  # (table, person) -> whether the table is not in front of them
        self._still_wanted = still_wanted  # (table, person, seat, turn) -> whether a queued message may still go
        self._sweep = sweep  # (table, record, over text) -> remove a message in the background

    async def sync(self, info: TableInfo, snapshot: Snapshot, home: Record | None, person_of: PersonOf) -> None:
        """Bring every turn message of the table in line with it: the seated people's and any left open."""
        records = await self.records.of(info.id)
        seated = {s.user_id for s in info.seats if s.user_id is not None and s.user_id != info.chat_id}
        seated |= {int(p.split(":", 1)[1]) for p in records if p.startswith("turn:")}
        for user_id in sorted(seated):
            person = await person_of(user_id)
            if person is None or not person.can_message:
                continue  # blocked or never started: nothing to send, and an open message waits until they are back
            await self._sync_one(info, snapshot, home, person, records.get(turn_purpose(user_id)))

    async def _sync_one(self, info: TableInfo, snapshot: Snapshot, home: Record | None, person: Person,
                        record: Record | None) -> None:
        seat = info.seat_of(person.user_id)
        turn = self.turns.turn_of(info, seat) if person.notify else None
        if turn is not None and not self._is_away(info.id, person.user_id):
            turn = None  # at the table: no message, and one sent before they came back is removed
        if record is not None and record.state != SENT:
            record = await self.postings.settle(info.id, record)
        if (record is not None and seat is not None and self.turns.first_sight(info.id, seat)
                and turn is not None and record.data.get("turn") is not None):  # after a restart: it is this turn's
            turn = int(record.data["turn"])
            self.turns.adopt(info.id, seat, turn)
        reminder = self.turns.reminder_due(info, seat)
        if record is not None:
            if turn is not None and record.data.get("turn") == turn and (not reminder or record.data.get("reminder")):
                return  # this turn's message, reminded if due
            done = render("over.html", person.reads or home_locale(home), table=info, turn=True)
            if turn is None and self._sweep is not None:  # nothing replaces it: removed in the background
                await self.records.drop(info.id, record.purpose)
                await self._sweep(info.id, record, done)
                return
            token = LANE.set(Lane.CLEANUP if turn is None else Lane.TURN)  # a new message waits on this one
            try:
                if not await self.postings.delete(record, done):
                    return
            finally:
                LANE.reset(token)
            await self.records.drop(info.id, record.purpose)
        if turn is None or seat is None:
            return
        text, markup = self._message(info, snapshot, home, seat, person, reminder=reminder)
        fresh = Record(turn_purpose(person.user_id), person.user_id, None, None, SENDING,
                       {"turn": turn, "reminder": reminder})
        check = self._still_wanted
        tokens = (ORDER.set(self.turns.began_at(info.id, seat) or 0.0),
                  WANTED.set(None if check is None else lambda: check(info.id, person.user_id, seat, turn)))
        try:
            await self.postings.send(info.id, fresh, text, markup)
        finally:
            WANTED.reset(tokens[1])
            ORDER.reset(tokens[0])

    def _message(self, info: TableInfo, snapshot: Snapshot, home: Record | None, seat: int | None,
                 person: Person, *, reminder: bool) -> tuple[str, InlineKeyboardMarkup]:
        """The text and button of a turn message, in the person's language (else the table's chat's)."""
        locale = person.reads or home_locale(home)
        chat_title = (home.data.get("title") if home is not None else None) or None
        view = snapshot.view(seat)
        text = render("turn.html", locale, table=info, chat_title=chat_title, state=view.get("state") or {},
                      reminder=reminder)
        return text, InlineKeyboardMarkup([[self._open_button(translate(locale, "Open table"), info.id)]])

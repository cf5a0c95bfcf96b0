"""The group's mention of someone the bot may not write to, carried out: the plan of ``tgbot.mention_plan``.

A pass gathers what the planner needs (who at the table the bot may not write to, whose turn
is on, how long each has been away from the table on it, the mention live in the group from
the records, under the purpose ``mention``), asks ``plan_mention`` what the group's mention
should be, and makes the calls through ``tgbot.postings``, each handed its lane explicitly: a
mention is a turn message, so it is sent and deleted in the turn lane, inside the group's own
budget. Nothing is decided here.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.service.live import TableInfo
from tgbot.away import Away
from tgbot.latest import Latest
from tgbot.mention_plan import MENTION_AFTER, Awaited, Mentioned, plan_mention, still_due
from tgbot.postings import Postings
from tgbot.priority import Call, Lane
from tgbot.records import SENDING, SENT, Record, Records
from tgbot.render import render, translate
from tgbot.table_texts import PersonOf, home_locale
from tgbot.turn_book import TurnBook

MENTION = "mention"  # the purpose of a table's mention record


class Mentions:
    """The one mention per table in its group: posted once someone the bot may not write to is away long enough."""

    def __init__(self, postings: Postings, records: Records, turns: TurnBook, away: Away, latest: Latest,
                 open_button: Callable[[str, str], InlineKeyboardButton], *, after: float = MENTION_AFTER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.postings = postings
        self.records = records
        self.turns = turns
        self.away = away
        self.latest = latest
        self._open_button = open_button  # (label, table id) -> the button that opens the table from a group
        self.after = after
        self.clock = clock  # the turn book's

    async def sync(self, info: TableInfo, home: Record | None, person_of: PersonOf) -> float | None:
        """Bring the table's mention in line with it; seconds until someone comes due (None: nothing by time)."""
        if home is None:
            return None
        record = await self.records.get(info.id, MENTION)
        if self.postings.is_gone(home.chat_id):  # removed from the group: nothing is said (or deleted) there
            if record is not None:
                await self.records.drop(info.id, MENTION)
            return None
        group = home.inline_id is None and home.chat_id < 0
        if record is not None and record.state != SENT:
            record = await self.postings.settle(info.id, record, call=Call(Lane.TURN))
        live = None
        if record is not None:
            live = Mentioned(int(record.data.get("user") or 0), int(record.data.get("turn") or 0))
        awaited = [a async for a in self._awaited(info, person_of)] if group else []
        plan = plan_mention(awaited, live, group=group, after=self.after)
        if plan.delete and record is not None:
            done = render("over.html", home_locale(home), table=info, turn=True)
            if not await self.postings.delete(record, done, call=Call(Lane.TURN)):
                return None  # still there (the group refused): tried again on the table's next change, alone
            await self.records.drop(info.id, MENTION)
        if plan.send is not None:
            await self._send(info, home, plan.send)
        return plan.wake_in

    async def _awaited(self, info: TableInfo, person_of: PersonOf) -> AsyncIterator[Awaited]:
        """The people the bot may not write to whose turn is on, with how long each has been away on it."""
        for seat in info.seats:
            if seat.user_id is None or seat.seat not in info.to_act:
                continue
            turn = self.turns.turn_of(info, seat.seat)
            if turn is None:
                continue
            person = await person_of(seat.user_id)
            if person is not None and (person.can_message or not person.notify):
                continue  # a private message reaches them, or they want no word of their turns
            began = self.turns.began_at(info.id, seat.seat)
            yield Awaited(seat.user_id, seat.seat, turn, self.away.away_for(info, seat.user_id), began or 0.0)

    async def _send(self, info: TableInfo, home: Record, person: Awaited) -> None:
        """Post a mention of the person in the group; it waits in the budget only while it is still due."""
        locale = home_locale(home)
        name = info.seats[person.seat].name
        text = render("mention.html", locale, table=info, who=name, user_id=person.user_id)
        markup = InlineKeyboardMarkup([[self._open_button(translate(locale, "Open table"), info.id)]])
        fresh = home.posting(MENTION)
        fresh = fresh.but(state=SENDING, data={**fresh.data, "user": person.user_id, "turn": person.turn})
        table_id = info.id

        def wanted() -> bool:
            now = self.latest.info(table_id)
            if now is None:
                return False
            return still_due(person, playing=now.status == "playing", turn_now=self.turns.turn_of(now, person.seat),
                             away=self.away.is_away(now, person.user_id))

        await self.postings.send(info.id, fresh, text, markup, call=Call(Lane.TURN, person.order, wanted))

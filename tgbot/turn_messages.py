"""Each person's private turn message, carried out: the plan of ``tgbot.turn_plan`` applied through the Bot API.

A pass gathers what the planner needs (the table's turns from ``tgbot.turn_book``, who is
away from ``tgbot.away``, what was sent from the records, who may be written to from the
people), asks ``plan_turns`` which messages should exist, and makes the steps: each Bot API
call is handed its lane, order and "still wanted" check explicitly (``tgbot.priority.Call``).
Each message is written in the person's language (``Person.reads``), not the group's. A
message nothing replaces is removed by ``sweep`` when given (in the background, at cleanup's
priority), so no pass waits on it. Nothing is decided here.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.service.live import Snapshot, TableInfo
from engine.service.people import Person
from engine.service.timers import TIMERS
from tgbot.away import Away
from tgbot.latest import Latest
from tgbot.postings import Postings
from tgbot.priority import Call, Lane
from tgbot.records import SENDING, SENT, Record, Records, leftover_purpose, purpose_person, turn_purpose
from tgbot.render import render, translate
from tgbot.table_texts import PersonOf, home_locale
from tgbot.turn_book import TurnBook
from tgbot.turn_plan import Op, Reader, Sent, Step, plan_turns, still_wanted


class TurnMessages:
    """The private turn messages of every table: one pass per table brings them to what the plan says."""

    def __init__(self, postings: Postings, records: Records, turns: TurnBook,
                 open_button: Callable[[str, str], InlineKeyboardButton], *,
                 away: Away | None = None, latest: Latest | None = None,
                 sweep: Callable[[str, Record, str], Awaitable[None]] | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.postings = postings
        self.records = records
        self.turns = turns
        self._open_button = open_button  # (label, table id) -> the button that opens the table in a private chat
        self._away = away  # None: everyone is away (the page is never in front of them)
        self._latest = latest  # None: a waiting send is never asked whether it is still wanted
        self._sweep = sweep  # (table, record, over text) -> remove a message in the background
        self._now = now  # the table's clock (its deadline's)

    async def sync(self, info: TableInfo, snapshot: Snapshot, home: Record | None,
                   person_of: PersonOf) -> float | None:
        """Bring every turn message of the table in line with it; when to look again (a reminder comes due)."""
        records = await self.records.of(info.id)
        seated = {s.user_id for s in info.seats if s.user_id is not None and s.user_id != info.chat_id}
        seated |= {user_id for p in records if (user_id := purpose_person(p)) is not None}
        people: dict[int, Person] = {}
        sent: dict[int, Record] = {}
        readers: list[Reader] = []
        for user_id in sorted(seated):
            person = await person_of(user_id)
            if person is None or not person.can_message:
                continue  # blocked or never started: the plan leaves them alone
            people[user_id] = person
            record = records.get(turn_purpose(user_id))
            if record is not None and record.state != SENT:
                record = await self.postings.settle(info.id, record, call=Call(Lane.TURN))
            if record is not None:
                sent[user_id] = record
            readers.append(self._reader(info, person, record, records))
        plan = plan_turns(readers, deadline=info.deadline, duration=TIMERS.get(info.timer), now=self._now())
        for seat, turn in plan.adopted:
            self.turns.adopt(info.id, seat, turn)
        failed: set[int] = set()
        for step in plan.steps:
            if step.user_id in failed:
                continue
            person = people[step.user_id]
            if step.op is Op.SEND:
                await self._send(info, snapshot, home, person, step)
            elif step.message_id is not None:
                await self._remove(info, home, person, records[leftover_purpose(step.user_id, step.message_id)], step)
            elif not await self._remove(info, home, person, sent[step.user_id], step):
                failed.add(step.user_id)  # still there: no second message beside it
        return plan.wake_at

    def _reader(self, info: TableInfo, person: Person, record: Record | None,
                records: dict[str, Record]) -> Reader:
        """What the plan needs to know of one person."""
        leftovers = tuple(r.message_id for p, r in records.items() if p.startswith("leftover:")
                          and purpose_person(p) == person.user_id and r.message_id is not None)
        seat = info.seat_of(person.user_id)
        first = record is not None and seat is not None and self.turns.first_sight(info.id, seat)
        began = self.turns.began_at(info.id, seat) if seat is not None else None
        turn = record.data.get("turn") if record is not None else None
        return Reader(person.user_id, seat, self.turns.turn_of(info, seat),
                      away=self._away is None or self._away.is_away(info, person.user_id),
                      opening=self._away is not None and self._away.is_opening(info, person.user_id),
                      wants=person.notify, first_sight=first, order=began or 0.0, leftovers=leftovers,
                      sent=None if record is None else Sent(None if turn is None else int(turn),
                                                             bool(record.data.get("reminder"))))

    async def _remove(self, info: TableInfo, home: Record | None, person: Person, record: Record, step: Step) -> bool:
        """Remove the message sent before (in the background when nothing replaces it); False: it is still there."""
        done = render("over.html", person.reads or home_locale(home), table=info, turn=True)
        if step.op is Op.SWEEP and self._sweep is not None:
            await self.records.drop(info.id, record.purpose)
            await self._sweep(info.id, record, done)
            return True
        if not await self.postings.delete(record, done, call=Call(step.lane, step.order)):
            return False
        await self.records.drop(info.id, record.purpose)
        return True

    async def _send(self, info: TableInfo, snapshot: Snapshot, home: Record | None, person: Person,
                    step: Step) -> None:
        """Post the turn message the plan asks for; it waits in the budget only while it is still wanted."""
        text, markup = self._message(info, snapshot, home, step.seat, person, reminder=step.reminder)
        fresh = Record(turn_purpose(person.user_id), person.user_id, None, None, SENDING,
                       {"turn": step.turn, "reminder": step.reminder})
        wanted = None if self._latest is None else (lambda: self._still_wanted(info.id, person.user_id, step))
        await self.postings.send(info.id, fresh, text, markup, call=Call(step.lane, step.order, wanted))

    def _still_wanted(self, table_id: str, user_id: int, step: Step) -> bool:
        """Whether a send waiting in the budget may still go, by the table as it is now."""
        info = self._latest.info(table_id) if self._latest is not None else None
        if info is None or step.seat is None:
            return False
        away = self._away is None or self._away.is_away(info, user_id)
        return still_wanted(step, playing=info.status == "playing", turn_now=self.turns.turn_of(info, step.seat),
                            away=away)

    def _message(self, info: TableInfo, snapshot: Snapshot, home: Record | None, seat: int | None,
                 person: Person, *, reminder: bool) -> tuple[str, InlineKeyboardMarkup]:
        """The text and button of a turn message, in the person's language (else the table's chat's)."""
        locale = person.reads or home_locale(home)
        chat_title = (home.data.get("title") if home is not None else None) or None
        view = snapshot.view(seat)
        text = render("turn.html", locale, table=info, chat_title=chat_title, state=view.get("state") or {},
                      reminder=reminder)
        return text, InlineKeyboardMarkup([[self._open_button(translate(locale, "Open table"), info.id)]])

"""DueWork built alone: a hand-moved clock, real turn timers, an AI that only records kicks, a fake store."""

from __future__ import annotations

from engine.service.due import HEAL_EVERY, DueWork
from engine.service.live import LiveTable
from engine.service.peers import LocalPeers
from engine.service.schedule import Schedule
from engine.service.timers import TIMERS, Due, TurnTimers
from tests.clock import ManualClock
from tests.service.parts import FakeAutoplay, FakeMoves, FakeSharing, FakeStore, FakeTables, race_row, race_table


class Parts:
    """A DueWork and the fakes it was built with."""

    def __init__(self, *tables: object) -> None:
        self.clock = ManualClock()
        self.store = FakeStore()
        self.tables = FakeTables(*tables)  # type: ignore[arg-type]
        self.autoplay = FakeAutoplay()
        self.moves = FakeMoves()
        self.sharing = FakeSharing()
        self.timers = TurnTimers(self.clock, self.on_due, run_loop=False)
        self.schedule = Schedule(self.clock, self.autoplay, self.timers)  # type: ignore[arg-type]
        self.due = DueWork(self.store, self.tables, self.sharing, self.moves, self.schedule,  # type: ignore[arg-type]
                           peers=LocalPeers(), clock=self.clock, heal_every=None)

    async def on_due(self, table_id: str, deadline: float, kind: Due) -> None:
        await self.due.timer_due(table_id, deadline, kind)


def timed_table(deadline: float) -> object:
    row = race_row(timer="live")
    row.deadline = deadline
    return race_table(row)


def with_timed_table() -> tuple[Parts, float]:
    """Parts with one table whose turn ends in a minute, its timer armed; and that deadline."""
    parts = Parts()
    deadline = parts.clock.now + 60
    table = timed_table(deadline)
    parts.tables.add(table)  # type: ignore[arg-type]
    parts.schedule.arm(table)  # type: ignore[arg-type]
    return parts, deadline


async def test_an_expired_turn_is_stood_in_for_counted_published_and_handed_to_the_ai() -> None:
    parts, deadline = with_timed_table()
    parts.clock.now = deadline
    await parts.due.tick_timers()  # the reminder, late, then the expiry
    assert [n[1] for _, n in parts.store.saved if n is not None] == ["reminder", "timed_out"]
    row, notice = parts.store.saved[-1]
    assert row.deadline is None and row.ai_turn and row.meta["standins"] == [0] and row.seats[0].missed == 1
    assert notice is not None and notice[1] == "timed_out"
    update = parts.tables.published[-1]
    assert update.kind == "timed_out" and update.events[0].data == {"type": "timed_out", "seat": 0, "name": "P0"}
    assert parts.autoplay.kicked == ["t1"]


async def test_a_reminder_is_published_once_before_the_deadline_and_a_stale_deadline_does_nothing() -> None:
    parts, deadline = with_timed_table()
    parts.clock.now = deadline - 60 * 0.2
    await parts.due.tick_timers()
    await parts.due.timer_due("t1", deadline, Due.REMIND)  # told twice: said once
    assert [u.kind for u in parts.tables.published] == ["reminder"]
    assert parts.tables.published[0].events[0].data == {"type": "reminder", "seat": 0, "deadline": deadline}
    await parts.due.timer_due("t1", deadline - 1, Due.EXPIRE)  # a deadline the table no longer has
    assert [u.kind for u in parts.tables.published] == ["reminder"] and parts.autoplay.kicked == []


async def test_stored_deadlines_are_armed_a_window_ahead_and_scanned_again_only_past_it() -> None:
    parts = Parts()
    now = parts.clock.now
    live = TIMERS["live"]
    assert live is not None
    parts.store.deadlines = [("soon", "live", now + live, None), ("later", "relaxed", now + 10 * 24 * 3600, None)]
    await parts.due.arm_from_store()
    soon = parts.timers.armed("soon")
    assert soon is not None and soon.deadline == now + live and soon.remind_at is not None
    assert parts.timers.armed("later") is None
    parts.store.deadlines.append(("new", "live", now + live, None))
    await parts.due.arm_from_store()
    assert parts.timers.armed("new") is None, "the window was scanned already"
    parts.clock.now += HEAL_EVERY
    await parts.due.arm_from_store()
    assert parts.timers.armed("new") is not None


async def test_a_supervisor_round_kicks_the_ai_of_tables_the_store_says_wait_for_it() -> None:
    row = race_row("held", people=(1, 2))
    row.seats[0].is_ai, row.seats[0].user_id = True, None
    parts = Parts(race_table(row))
    parts.store.ai_turns = ["a", "b", "c", "held"]  # read a page of two at a time
    parts.autoplay.running.add("b")
    healed = await parts.due.heal()
    assert parts.autoplay.kicked == ["held", "a", "c"] and healed == 3


async def test_an_ai_step_moves_for_the_automatic_seat_until_a_person_is_to_act() -> None:
    row = race_row(people=(1, 2))
    for seat in row.seats:
        seat.is_ai, seat.user_id = True, None
    row.seats[1].is_ai, row.seats[1].user_id = False, 2
    parts = Parts(race_table(row))
    assert await parts.due.ai_step("t1") is False  # seat 1, a person, is to act next
    assert parts.moves.committed == [("t1", 0, {"type": "step"}, True)]
    assert await parts.due.ai_step("t1") is False and len(parts.moves.committed) == 1
    assert await parts.due.ai_step("missing") is False


async def test_an_ai_decides_from_its_seats_view_and_what_it_saw_earlier() -> None:
    row = race_row(people=(1, 2))
    row.seats[0].is_ai, row.seats[0].user_id = True, None
    parts = Parts(race_table(row, steps=2))  # seat 0, the AI, is to act
    await parts.due.ai_step("t1")
    assert parts.autoplay.views[0] == {"steps": 2, "legal": [{"type": "step"}], "seen_steps": 2}


class LeaseLost(LocalPeers):
    """This process's lease, granted ``grants`` times and then another process's (it took the table over)."""

    def __init__(self, grants: int) -> None:
        self.grants = grants

    async def lease(self, table_id: str) -> bool:
        self.grants -= 1
        return self.grants >= 0


async def test_an_ai_move_meeting_another_write_is_decided_again_only_while_this_process_drives_the_table() -> None:
    for grants, committed in ((9, 1), (1, 0)):  # still the owner; the owner no more (it was silent, say)
        row = race_row(people=(1, 2))
        for seat in row.seats:
            seat.is_ai, seat.user_id = True, None
        parts = Parts(race_table(row))
        parts.due.peers = LeaseLost(grants)
        parts.moves.stale = 1  # its first move meets one another process stored
        await parts.due.ai_step("t1")
        assert len(parts.moves.committed) == committed, grants


async def test_an_expiry_meeting_another_write_is_decided_again_on_the_reloaded_row_and_stands_in_once() -> None:
    parts, deadline = with_timed_table()
    parts.store.refuse_saves = 2  # the reminder's write, then the expiry's, each meet another process's
    parts.clock.now = deadline
    await parts.due.tick_timers()
    assert parts.sharing.reloaded == ["t1", "t1"]
    assert [n[1] for _, n in parts.store.saved if n is not None] == ["reminder", "timed_out"]
    assert parts.autoplay.kicked == ["t1"] and parts.timers.next_due() is None  # nothing left to retry


async def test_a_timer_meeting_another_write_after_this_process_lost_the_table_leaves_it_to_the_new_owner() -> None:
    parts, deadline = with_timed_table()
    parts.due.peers = LeaseLost(1)
    parts.store.refuse_saves = 1  # the reminder's write meets the new owner's
    parts.clock.now = deadline
    await parts.due.tick_timers()
    assert parts.store.saved == [] and parts.sharing.reloaded == [] and parts.autoplay.kicked == []


async def test_an_expiry_whose_deadline_another_process_moved_stands_in_for_nobody_and_arms_the_new_one() -> None:
    parts, deadline = with_timed_table()

    def moved_on(live: LiveTable) -> None:  # the person moved there and the next turn's clock started
        live.row.deadline = deadline + 30

    parts.sharing.elsewhere = moved_on
    parts.store.refuse_saves = 1
    parts.clock.now = deadline
    await parts.due.tick_timers()
    assert parts.store.saved == [] and parts.tables.published == [] and parts.autoplay.kicked == []
    armed = parts.timers.armed("t1")
    assert armed is not None and armed.deadline == deadline + 30
    assert parts.timers.next_due() == deadline + 30 - 60 * 0.2  # the new reminder; the old expiry is dropped

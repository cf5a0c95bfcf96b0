"""The turn-message planner as a table of cases: no bot, no clock, no event loop."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from engine.service.timers import REMINDER_SHARE
from tgbot.mention_plan import MENTION_AFTER, Awaited, Mentioned, MentionPlan, plan_mention, still_due
from tgbot.priority import Lane
from tgbot.turn_plan import Op, Reader, Sent, Step, is_away, is_opening, plan_turns, remind_at, still_wanted

ANN, BOB = 11, 12
MINUTE = 60.0
DEADLINE = 1000.0  # a live turn (a minute) that began at 940
DUE = DEADLINE - MINUTE * REMINDER_SHARE  # 988: four fifths of the minute passed


ANN_TO_ACT = Reader(ANN, 0, 5, away=True, order=40.0)  # Ann, seat 0, whose turn 5 is on, away; nothing sent yet
BOB_WAITING = Reader(BOB, 1, None, away=True)  # Bob, seat 1, not to act


def ann(**changes: object) -> Reader:
    return replace(ANN_TO_ACT, **changes)  # type: ignore[arg-type]


def bob(**changes: object) -> Reader:
    return replace(BOB_WAITING, **changes)  # type: ignore[arg-type]


def send(user_id: int = ANN, turn: int = 5, *, reminder: bool = False, seat: int = 0, order: float = 40.0) -> Step:
    return Step(Op.SEND, user_id, Lane.TURN, order, seat, turn, reminder)


def delete(user_id: int = ANN, order: float = 40.0) -> Step:
    return Step(Op.DELETE, user_id, Lane.TURN, order)


def sweep(user_id: int = ANN) -> Step:
    return Step(Op.SWEEP, user_id, Lane.CLEANUP)


@dataclass(frozen=True)
class Case:
    readers: tuple[Reader, ...]
    steps: tuple[Step, ...]
    timed: bool = False
    now: float = 950.0
    adopted: tuple[tuple[int, int], ...] = ()
    wake_at: float | None = field(default=None)


CASES: dict[str, Case] = {
    "a turn begins while its person is away: one message": Case((ann(), bob()), (send(),)),
    "a turn begins while its person is at the table: none": Case((ann(away=False), bob()), ()),
    "back at the table: the message goes, in the background": Case((ann(away=False, sent=Sent(5)),), (sweep(),)),
    "this turn's message was sent: nothing more": Case((ann(sent=Sent(5)),), ()),
    "a new turn of the same seat: the old message replaced, turn priority": Case(
        (ann(sent=Sent(3)),), (delete(), send())),
    "the turn is over: its message swept at cleanup priority": Case((ann(turn=None, sent=Sent(5)),), (sweep(),)),
    "someone the bot may not write to: nothing, an open message waits": Case(
        (ann(reachable=False, sent=Sent(3)), ann(user_id=BOB, seat=1, reachable=False)), ()),
    "leftovers of a person the bot could not reach: they wait while they still cannot be reached": Case(
        (ann(reachable=False, leftovers=(7, 8)),), ()),
    "leftovers of a person back within reach: swept in the background, beside this turn's message": Case(
        (ann(leftovers=(7,)),), (Step(Op.SWEEP, ANN, Lane.CLEANUP, message_id=7), send())),
    "turn messages turned off: none, and an open one goes": Case(
        (ann(wants=False), ann(user_id=BOB, seat=1, wants=False, sent=Sent(5))), (sweep(BOB),)),
    "first seen after a restart: the stored message is this turn's": Case(
        (ann(turn=9, first_sight=True, sent=Sent(3)),), (), adopted=((0, 3),)),
    "first seen after a restart at the table: nothing adopted, the message goes": Case(
        (ann(turn=9, first_sight=True, away=False, sent=Sent(3)),), (sweep(),)),
    "seen before the restart's turn: a stored message of another turn is replaced": Case(
        (ann(turn=9, sent=Sent(3)),), (delete(), send(turn=9))),
    "a timed turn before four fifths: a plain message, and a look again when it is due": Case(
        (ann(),), (send(),), timed=True, wake_at=DUE),
    "a quarter left is not yet four fifths passed": Case(
        (ann(sent=Sent(5)),), (), timed=True, now=DEADLINE - MINUTE / 4, wake_at=DUE),
    "four fifths passed: a fresh message replaces the turn's (an edit would not buzz)": Case(
        (ann(sent=Sent(5)),), (delete(), send(reminder=True)), timed=True, now=DUE),
    "reminded already: nothing more": Case((ann(sent=Sent(5, reminder=True)),), (), timed=True, now=DUE + 5),
    "leaving late in a timed turn: the first message is the reminder": Case(
        (ann(),), (send(reminder=True),), timed=True, now=DUE + 1),
    "at the table when the reminder is due: none": Case((ann(away=False),), (), timed=True, now=DUE + 1),
    "nobody awaited: no look again, whatever the deadline": Case((ann(turn=None), bob()), (), timed=True),
    "just dealt and not yet at the table: no message while they may be opening it": Case(
        (ann(away=False, opening=True),), ()),
    "after a restart, still opening: this turn's stored message is adopted and kept": Case(
        (ann(turn=9, away=False, opening=True, first_sight=True, sent=Sent(3)),), (), adopted=((0, 3),)),
    "still opening: this turn's message is kept, not swept": Case((ann(away=False, opening=True, sent=Sent(5)),), ()),
    "still opening: a message of an older turn is over all the same": Case(
        (ann(away=False, opening=True, sent=Sent(3)),), (sweep(),)),
    "the moment to open it is over and they are not there: the message goes": Case(
        (ann(away=True, opening=False),), (send(),)),
    "two turns at once: each its message, each with its turn's beginning as its order": Case(
        (ann(order=50.0), bob(turn=7, order=30.0)), (send(order=50.0), send(BOB, 7, seat=1, order=30.0))),
}


@pytest.mark.parametrize("name", list(CASES))
def test_turn_plan_cases(name: str) -> None:
    case = CASES[name]
    plan = plan_turns(case.readers, deadline=DEADLINE if case.timed else None,
                      duration=MINUTE if case.timed else None, now=case.now)
    assert plan.steps == case.steps
    assert plan.adopted == case.adopted
    assert plan.wake_at == case.wake_at


def test_turn_plan_untimed_turns_never_remind() -> None:
    assert remind_at(DEADLINE, None) is None and remind_at(None, MINUTE) is None
    plan = plan_turns([ann()], deadline=DEADLINE, duration=None, now=DEADLINE + 1)
    assert plan.steps == (send(),) and plan.wake_at is None


def test_turn_plan_a_later_deadline_is_not_reminded_yet() -> None:
    later = plan_turns([ann(sent=Sent(5, reminder=False))], deadline=DEADLINE + 30, duration=MINUTE, now=DUE)
    assert later.steps == () and later.wake_at == DUE + 30


WANTED_CASES = [
    # (playing, the seat's turn now, away) -> whether a waiting send of turn 5 still goes
    (True, 5, True, True),
    (True, 6, True, False),  # a newer turn began: that one's message says it
    (True, None, True, False),  # the turn is over (played, stood in for, autopilot)
    (True, 5, False, False),  # back at the table
    (False, 5, True, False),  # the game ended
]


@pytest.mark.parametrize(("playing", "turn_now", "away", "wanted"), WANTED_CASES)
def test_turn_plan_a_waiting_send_goes_only_while_its_turn_is_on_and_its_person_away(
        playing: bool, turn_now: int | None, away: bool, wanted: bool) -> None:
    assert still_wanted(send(), playing=playing, turn_now=turn_now, away=away) is wanted


AWAY_CASES = [
    # (present, left_at, now, turn_age) with a grace of 3 s -> away
    (True, None, 100.0, 10.0, False),  # the page is in front of them
    (False, None, 100.0, 10.0, True),  # never had it open since this process began
    (False, 98.0, 100.0, 10.0, False),  # left two seconds ago, mid-turn: maybe glancing at another app
    (False, 96.0, 100.0, 10.0, True),  # left past the grace
    (False, 89.0, 100.0, 10.0, True),  # gone before this turn began
    (False, 98.0, 100.0, None, False),  # no turn of theirs: only the grace counts
]


OPENING_CASES = [
    # (present, left_at, turn_age, opened_age) at now=100 with a grace of 3 s -> away
    (False, None, 0.5, 1.0, False),  # dealt a second ago: given a moment to open the table
    (False, None, 0.5, 3.0, True),  # the moment is over: never came, away
    (False, 50.0, 0.5, 1.0, False),  # left the lobby long ago: the deal gives a moment all the same
    (True, None, 0.5, 1.0, False),  # opened it
    (False, 99.0, 10.0, 10.0, False),  # long after the deal, left a second ago: only the grace of leaving counts
]


@pytest.mark.parametrize(("present", "left_at", "turn_age", "opened_age", "away"), OPENING_CASES)
def test_turn_plan_a_moment_to_open_the_table_after_the_deal_or_a_restart(
        present: bool, left_at: float | None, turn_age: float, opened_age: float, away: bool) -> None:
    assert is_away(present=present, left_at=left_at, now=100.0, grace=3.0, turn_age=turn_age,
                   opened_age=opened_age) is away
    assert is_opening(present=present, opened_age=opened_age, grace=3.0) is (not present and opened_age < 3.0)


@pytest.mark.parametrize(("present", "left_at", "now", "turn_age", "away"), AWAY_CASES)
def test_turn_plan_away_is_presence_read_against_the_grace_and_the_turn(
        present: bool, left_at: float | None, now: float, turn_age: float | None, away: bool) -> None:
    assert is_away(present=present, left_at=left_at, now=now, grace=3.0, turn_age=turn_age) is away


CID = 13
AFTER = MENTION_AFTER


def cid(away_for: float | None = AFTER, *, turn: int = 7, order: float = 30.0, user_id: int = CID,
        seat: int = 2) -> Awaited:
    return Awaited(user_id, seat, turn, away_for, order)


MENTION_CASES: dict[str, tuple[tuple[Awaited, ...], Mentioned | None, bool, MentionPlan]] = {
    # (people the bot may not write to whose turn is on, the live mention, in a group) -> the plan
    "away on their turn long enough: mentioned": ((cid(),), None, True, MentionPlan(send=cid())),
    "away, not yet long enough: planned again when it is": (
        (cid(AFTER - 5),), None, True, MentionPlan(wake_in=5.0)),
    "at the table on their turn: nobody named, nothing to wait for": ((cid(None),), None, True, MentionPlan()),
    "mentioned for this turn: it stays": ((cid(),), Mentioned(CID, 7), True, MentionPlan()),
    "mentioned, and back at the table: it stays until they move": ((cid(None),), Mentioned(CID, 7), True,
                                                                   MentionPlan()),
    "they moved: the mention goes": ((), Mentioned(CID, 7), True, MentionPlan(delete=True)),
    "a new turn of theirs: the old mention goes, the new one waits its while": (
        (cid(2.0, turn=9),), Mentioned(CID, 7), True, MentionPlan(delete=True, wake_in=AFTER - 2)),
    "two away long enough: one live per table, the oldest turn first": (
        (cid(order=50.0), cid(order=20.0, user_id=14, seat=1)), None, True,
        MentionPlan(send=cid(order=20.0, user_id=14, seat=1))),
    "one mentioned, another comes due: still one live": (
        (cid(), cid(order=20.0, user_id=14, seat=1)), Mentioned(CID, 7), True, MentionPlan()),
    "an inline table or a private chat: no group to mention in": ((cid(),), None, False, MentionPlan()),
}


@pytest.mark.parametrize("name", list(MENTION_CASES))
def test_mention_plan_cases(name: str) -> None:
    awaited, live, group, plan = MENTION_CASES[name]
    assert plan_mention(awaited, live, group=group) == plan


@pytest.mark.parametrize(("playing", "turn_now", "away", "due"), WANTED_CASES)
def test_mention_plan_a_waiting_mention_goes_only_while_its_turn_is_on_and_its_person_away(
        playing: bool, turn_now: int | None, away: bool, due: bool) -> None:
    assert still_due(cid(turn=5), playing=playing, turn_now=turn_now, away=away) is due

"""The one place a turn message is decided: from a table's turns, presence, what was sent and who can be reached.

Pure: no I/O, no event loop, no clock (``now`` is handed in). ``plan_turns`` takes one
``Reader`` per person the bot could write to about a table and returns the ``TurnPlan``: the
steps that bring their private turn messages to what should exist now, each with the lane
and order its Bot API call spends the budget in, and when to plan again (a reminder comes
due). ``tgbot.turn_messages`` carries the plan out; nothing else decides a turn message.

The rules, in one place:

- A person gets a turn message only while a turn of theirs is on (no AI, autopilot or
  stand-in plays it), they want turn messages, the bot may write to them, and they are away
  from the table (``is_away``). One message per turn: a message of another turn is replaced.
- Someone the bot may not write to is left alone: a message of theirs still open waits
  until they are back, and so do older ones their chat refused to let go (``leftovers``),
  swept away in the background once they are.
- A timed turn's message becomes a reminder once the table service's reminder moment has come
  (``REMINDER_SHARE`` of its time left, the one definition of it): a
  fresh message in place of the turn's (an edit does not make a phone buzz, so turn messages
  are never edited). The moment is read from the table's public deadline, so it holds after a
  restart; the plan's ``wake_at`` says when to plan again. The service's ``reminder`` update,
  published at that same moment, brings a pass like any update.
- A message replaced is deleted first, at the turn's priority (the new one waits on it); a
  message nothing replaces is swept away in the background, at cleanup's priority.
- After a restart a stored message of the turn first seen then is adopted, not replaced.
- Nobody is buzzed for a turn before they have had a moment to open the table (``opening``): for
  ``grace`` seconds after the deal, or after this process first saw the table being played (a
  restart, a table taken over), a person not at the table gets no new message, and a message
  already sent for this turn is kept; once the moment is over, someone still not there is away.
- A send waiting for its turn in the budget goes only while ``still_wanted`` says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.service.timers import REMINDER_SHARE
from tgbot.priority import Lane


@dataclass(frozen=True, slots=True)
class Sent:
    """The turn message already sent to a person (settled: it exists)."""

    turn: int | None  # the turn it was sent for
    reminder: bool = False


@dataclass(frozen=True, slots=True)
class Reader:
    """One person the bot could write a turn message to, as the plan needs them."""

    user_id: int
    seat: int | None
    turn: int | None  # the id of their seat's current turn while a person is awaited in it (None: no turn of theirs)
    away: bool  # the table is not in front of them (``is_away``)
    reachable: bool = True  # the bot may write to them (they started it and did not block it)
    wants: bool = True  # they have turn messages on
    sent: Sent | None = None
    first_sight: bool = False  # their turn was first seen after a restart: a stored message may be this turn's
    order: float = 0.0  # when their turn began: the oldest turn's message goes first
    leftovers: tuple[int, ...] = ()  # ids of older turn messages not removed while the bot could not reach them
    opening: bool = False  # not at the table, but still within the moment given to open it (``is_opening``)


class Op(StrEnum):
    """What a step does to a person's turn message."""

    SEND = "send"  # post the message that should exist
    DELETE = "delete"  # remove the message sent before, which a new one replaces
    SWEEP = "sweep"  # remove the message sent before in the background: nothing replaces it


@dataclass(frozen=True, slots=True)
class Step:
    """One Bot API change to one person's turn message."""

    op: Op
    user_id: int
    lane: Lane
    order: float = 0.0
    seat: int | None = None
    turn: int | None = None
    reminder: bool = False
    message_id: int | None = None  # a leftover's (SWEEP only; None: the turn message sent before)


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """The steps to take now, the stored messages adopted as this turn's, and when to plan again."""

    steps: tuple[Step, ...] = ()
    adopted: tuple[tuple[int, int], ...] = ()  # (seat, turn)
    wake_at: float | None = None  # table clock: the plan changes by time alone then (a reminder comes due)


def remind_at(deadline: float | None, duration: float | None) -> float | None:
    """When a timed turn ending at ``deadline`` reminds (None: the turn is not timed)."""
    if deadline is None or not duration:
        return None
    return deadline - duration * REMINDER_SHARE


def plan_turns(readers: Iterable[Reader], *, deadline: float | None, duration: float | None,
               now: float) -> TurnPlan:
    """The turn messages that should exist now for these people, as steps from what was sent."""
    steps: list[Step] = []
    adopted: list[tuple[int, int]] = []
    reminding = remind_at(deadline, duration)
    due = reminding is not None and now >= reminding
    awaited = False
    for reader in readers:
        if not reader.reachable:
            continue  # blocked or never started: nothing to send, and an open message waits until they are back
        steps.extend(Step(Op.SWEEP, reader.user_id, Lane.CLEANUP, message_id=m) for m in reader.leftovers)
        turn = reader.turn if reader.wants else None
        awaited = awaited or turn is not None
        holding = turn is not None and reader.opening
        if turn is not None and not reader.away and not holding:
            turn = None  # at the table: no message, and one sent before they came back is removed
        sent = reader.sent
        if (sent is not None and reader.seat is not None and reader.first_sight and turn is not None
                and sent.turn is not None):  # after a restart: the stored message is this turn's
            turn = sent.turn
            adopted.append((reader.seat, turn))
        if holding:  # still opening the table: nothing new yet; a message of an older turn is over all the same
            if sent is not None and sent.turn != turn:
                steps.append(Step(Op.SWEEP, reader.user_id, Lane.CLEANUP))
            continue
        reminder = turn is not None and due
        if sent is not None:
            if turn is not None and sent.turn == turn and (not reminder or sent.reminder):
                continue  # this turn's message, reminded if due
            if turn is None:
                steps.append(Step(Op.SWEEP, reader.user_id, Lane.CLEANUP))
                continue
            steps.append(Step(Op.DELETE, reader.user_id, Lane.TURN, reader.order))
        if turn is None or reader.seat is None:
            continue
        steps.append(Step(Op.SEND, reader.user_id, Lane.TURN, reader.order, reader.seat, turn, reminder))
    wake_at = reminding if awaited and reminding is not None and not due else None
    return TurnPlan(tuple(steps), tuple(adopted), wake_at)


def still_wanted(step: Step, *, playing: bool, turn_now: int | None, away: bool) -> bool:
    """Whether a send waiting in the budget may still go: its turn is still on and its person still away."""
    return playing and step.turn is not None and turn_now == step.turn and away


def is_opening(*, present: bool, opened_age: float | None, grace: float) -> bool:
    """Whether a person not at the table is still within the moment given to open it: ``grace`` seconds from the
    deal, or from when this process first saw the table being played (``opened_age`` seconds ago)."""
    return not present and opened_age is not None and opened_age < grace


def is_away(*, present: bool, left_at: float | None, now: float, grace: float, turn_age: float | None,
            opened_age: float | None = None) -> bool:
    """Whether a person is away from a table: no page of theirs in front of them since before their turn began
    (``turn_age`` seconds ago), or for ``grace`` seconds (someone who leaves mid-turn may only be glancing away);
    never while they are still given a moment to open it (``is_opening``)."""
    if present or is_opening(present=present, opened_age=opened_age, grace=grace):
        return False
    if left_at is None or now - left_at >= grace:
        return True
    return turn_age is not None and left_at <= now - turn_age

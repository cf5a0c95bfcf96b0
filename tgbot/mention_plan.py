"""The one place a group's mention of a person is decided: the rung of reach below a private turn message.

Pure: no I/O, no clock (how long each has been away is handed in). A person the bot may not
write to (they never started it, or blocked it) gets no turn message; in a group the bot can
still make their phone buzz with a new message that mentions them. It is worth a message in
the group's small budget (20 a minute) only once they have been away on their turn for a while
(``MENTION_AFTER``), so someone who is about to move is not named in front of everyone.

The rules:

- At most one mention is live per table; it names one person and one turn of theirs.
- It goes once a person the bot may not write to has been away on their turn for
  ``MENTION_AFTER`` seconds; of several, the one whose turn began first.
- It is deleted once that turn is over (they moved, an AI played it, the game ended), at the
  turn's priority, so the group does not keep calling someone who has moved.
- Only in a group: a table that lives in an inline message has no chat the bot may post in
  (its own message names them instead), and a private chat has nobody else to mention.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MENTION_AFTER = 20.0  # seconds away on their turn before someone the bot may not write to is mentioned in the group


@dataclass(frozen=True, slots=True)
class Awaited:
    """A person the bot may not write to whose turn is on (no AI, autopilot or stand-in plays it)."""

    user_id: int
    seat: int
    turn: int
    away_for: float | None  # seconds they have been away from the table on this turn (None: at the table)
    order: float = 0.0  # when their turn began: the oldest goes first


@dataclass(frozen=True, slots=True)
class Mentioned:
    """The mention live in the group: whom and which turn of theirs it was for."""

    user_id: int
    turn: int


@dataclass(frozen=True, slots=True)
class MentionPlan:
    """What to do to the group's mention now, and when to plan again."""

    delete: bool = False  # remove the live mention: its turn is over
    send: Awaited | None = None  # post a new mention of this person
    wake_in: float | None = None  # seconds until someone away comes due (None: nothing comes due by time alone)


def plan_mention(awaited: Iterable[Awaited], live: Mentioned | None, *, group: bool,
                 after: float = MENTION_AFTER) -> MentionPlan:
    """The group's mention as it should be now, as a step from the one that is live."""
    people = list(awaited) if group else []
    if live is not None and any(a.user_id == live.user_id and a.turn == live.turn for a in people):
        return MentionPlan()  # their turn is still on: it stays, and nobody else is named beside it
    delete = live is not None
    due = sorted((a for a in people if a.away_for is not None and a.away_for >= after), key=lambda a: a.order)
    if due:
        return MentionPlan(delete, due[0])
    waits = [after - a.away_for for a in people if a.away_for is not None]
    return MentionPlan(delete, None, min(waits) if waits else None)


def still_due(person: Awaited, *, playing: bool, turn_now: int | None, away: bool) -> bool:
    """Whether a mention waiting in the group's budget may still go: the turn is on and its person still away."""
    return playing and turn_now == person.turn and away

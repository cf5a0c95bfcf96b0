"""How urgent a Bot API call is and whether it is still wanted: what every call hands the budget, explicitly.

A call made through ``telegram.ext.ExtBot`` carries a ``Call`` as its ``rate_limit_args``
(python-telegram-bot hands it to the rate limiter untouched); a call with none is an answer
to what a person just did. Nothing here reads a clock or does I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum


class Lane(IntEnum):
    """How urgent a call is: lower goes first."""

    ANSWER = 0  # a reply to what a person just did
    TURN = 1  # a turn message
    STATUS = 2  # a lobby or status edit in the table's chat
    CHATTER = 3  # a reply in a group to a command: after the tables' messages, in part of the group's minute
    CLEANUP = 4  # deleting what is over


@dataclass(frozen=True, slots=True)
class Call:
    """One call's place in the budget: its lane, its order within the lane, and whether it may still go."""

    lane: Lane = Lane.ANSWER
    order: float = 0.0  # within the lane, lower first (a turn message: when its turn began, so the oldest goes first)
    wanted: Callable[[], bool] | None = None  # asked when its turn comes: False drops it unsent
    retries: int | None = None  # 429s waited out in place before giving up (None: the limiter's own figure)


ANSWER, STATUS, CLEANUP = Call(Lane.ANSWER), Call(Lane.STATUS), Call(Lane.CLEANUP)
CHATTER = Call(Lane.CHATTER)
GROUP_RESERVE = 6  # of a group's messages a minute, the room its chatter leaves to its tables' lobby and status


def group_room(lane: int, limit: int) -> int:
    """Of a group's ``limit`` messages a minute, how many a call of ``lane`` may find taken and still go."""
    return max(1, limit - GROUP_RESERVE) if lane == Lane.CHATTER else limit

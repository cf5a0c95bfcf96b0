"""Presence: a person is at a table while one of their sockets there says it is in front of them."""

from __future__ import annotations

from engine.service.presence import Presence
from tests.clock import ManualClock


def test_presence_counts_each_socket_and_tells_followers_only_of_comings_and_goings() -> None:
    clock = ManualClock(100.0)
    presence = Presence(clock)
    heard: list[tuple[str, int, bool]] = []
    stop = presence.follow(lambda table, user, present: heard.append((table, user, present)))

    presence.report("t1", 11, "phone", True)
    presence.report("t1", 11, "phone", True)  # said again: still one socket
    presence.report("t1", 11, "laptop", True)
    assert presence.sockets("t1", 11) == 2 and presence.is_present("t1", 11)
    assert not presence.is_present("t2", 11) and not presence.is_present("t1", 12)
    clock.now = 110.0
    presence.report("t1", 11, "phone", False)
    assert presence.is_present("t1", 11) and presence.left_at("t1", 11) is None
    clock.now = 120.0
    presence.closed("t1", 11, "laptop")
    assert not presence.is_present("t1", 11) and presence.left_at("t1", 11) == 120.0
    presence.closed("t1", 11, "laptop")  # closed twice: nothing more
    assert heard == [("t1", 11, True), ("t1", 11, False)]

    stop()
    presence.report("t1", 11, "phone", True)
    assert heard == [("t1", 11, True), ("t1", 11, False)], "a follower that stopped hears nothing"
    assert presence.left_at("t1", 11) is None, "back at the table"


def test_presence_a_failing_follower_does_not_stop_the_others() -> None:
    presence = Presence(ManualClock(0.0))
    heard: list[bool] = []

    def broken(_table: str, _user: int, _present: bool) -> None:
        raise RuntimeError("broken")

    presence.follow(broken)
    presence.follow(lambda _table, _user, present: heard.append(present))
    presence.report("t1", 11, "phone", True)
    assert heard == [True] and presence.is_present("t1", 11)

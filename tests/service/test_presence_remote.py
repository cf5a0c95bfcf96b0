"""Presence told by other processes: a person at the table anywhere is at it; only this process's own changes go out."""

from __future__ import annotations

from engine.service.presence import Presence
from tests.clock import ManualClock


def test_a_person_at_the_table_on_another_process_is_present_until_every_process_says_they_left() -> None:
    clock = ManualClock(10.0)
    presence = Presence(clock)
    changes: list[tuple[str, int, bool]] = []
    sent: list[tuple[str, int, bool]] = []
    presence.follow(lambda t, u, now: changes.append((t, u, now)))
    presence.follow_local(lambda t, u, now: sent.append((t, u, now)))

    presence.heard("b", "t1", 11, True)
    assert presence.is_present("t1", 11) and presence.left_at("t1", 11) is None
    presence.report("t1", 11, "phone", True)  # here too: no change for the followers, one for the others
    assert changes == [("t1", 11, True)] and sent == [("t1", 11, True)]
    presence.report("t1", 11, "phone", False)
    assert presence.is_present("t1", 11), "still at the table on the other process"
    clock.now = 12.0
    presence.heard("b", "t1", 11, False)
    assert not presence.is_present("t1", 11) and presence.left_at("t1", 11) == 12.0
    assert changes == [("t1", 11, True), ("t1", 11, False)]
    assert sent == [("t1", 11, True), ("t1", 11, False)], "what others said is never sent on"


def test_a_process_gone_or_forgotten_counts_nobody_present() -> None:
    presence = Presence(ManualClock(10.0))
    presence.heard("b", "t1", 11, True)
    presence.heard("c", "t1", 12, True)
    presence.heard("c", "t2", 12, True)
    presence.report("t3", 13, "phone", True)
    assert presence.origins() == {"b", "c"} and presence.local() == [("t3", 13)]
    presence.forget_origin("c")
    assert presence.origins() == {"b"} and not presence.is_present("t1", 12) and not presence.is_present("t2", 12)
    presence.forget_remote()
    assert presence.origins() == set() and not presence.is_present("t1", 11)
    assert presence.is_present("t3", 13), "this process's own sockets stay"

"""Signing out everywhere: a due read of the person's row never holds a frame up for long; a read answers all."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import cast

from engine.service.sign_outs import FRESH_WITHIN, KEEP_FOR, SignOuts
from engine.store.database import Store
from tests.clock import ManualClock

ANN = 11


class People:
    """A person's row whose reads wait while ``gate`` is shut (a store that does not answer)."""

    def __init__(self) -> None:
        self.sessions_from: float | None = None  # what a read finds
        self.gate = asyncio.Event()
        self.gate.set()
        self.reads = 0

    async def read(self, _user_id: int) -> float | None:
        self.reads += 1
        await self.gate.wait()
        return self.sessions_from

    async def end_sessions(self, _user_id: int, _name: str, at: float) -> None:
        self.sessions_from = at


def sign_outs(people: People, monotonic: ManualClock) -> SignOuts:
    """Sign-outs over a store whose only part is ``people``."""
    store = SimpleNamespace(people=SimpleNamespace(sessions_from=people.read, end_sessions=people.end_sessions))
    return SignOuts(cast(Store, store), clock=lambda: 500.0, monotonic=monotonic)


async def test_sign_outs_answer_from_what_they_kept_when_a_due_read_does_not_come_in_time() -> None:
    people, monotonic = People(), ManualClock(0.0)
    outs = sign_outs(people, monotonic)
    assert await outs.still_signed_in(ANN, signed_at=100.0)  # read: never signed out
    people.gate.clear()  # the store stops answering; meanwhile she signed out everywhere on another process
    people.sessions_from = 200.0
    monotonic.now = KEEP_FOR + 1
    began = time.monotonic()
    assert await outs.still_signed_in(ANN, signed_at=100.0)  # the kept answer, after FRESH_WITHIN
    assert await outs.still_signed_in(ANN, signed_at=100.0)  # the read under way is not started again
    assert FRESH_WITHIN <= time.monotonic() - began < 3 * FRESH_WITHIN and people.reads == 2
    people.gate.set()
    await asyncio.sleep(0.01)  # the read comes at last, and is kept
    assert not await outs.still_signed_in(ANN, signed_at=100.0) and people.reads == 2


async def test_sign_outs_wait_for_the_first_read_with_nothing_kept() -> None:
    people, monotonic = People(), ManualClock(0.0)
    people.gate.clear()
    people.sessions_from = 200.0
    asking = asyncio.ensure_future(sign_outs(people, monotonic).still_signed_in(ANN, signed_at=100.0))
    await asyncio.sleep(FRESH_WITHIN + 0.1)
    assert not asking.done()
    people.gate.set()
    assert not await asking


async def test_a_sign_out_made_here_is_not_undone_by_an_older_read_that_comes_later() -> None:
    people, monotonic = People(), ManualClock(0.0)
    outs = sign_outs(people, monotonic)
    assert await outs.still_signed_in(ANN, signed_at=100.0)
    people.gate.clear()
    monotonic.now = KEEP_FOR + 1
    assert await outs.still_signed_in(ANN, signed_at=100.0)  # the read, under way, finds no sign-out
    monotonic.now += 0.1
    assert await outs.end_everywhere(ANN, "Ann") == 500.0  # she signs out everywhere here meanwhile
    people.sessions_from = None  # what the older read finds
    people.gate.set()
    await asyncio.sleep(0.01)
    assert not await outs.still_signed_in(ANN, signed_at=100.0)

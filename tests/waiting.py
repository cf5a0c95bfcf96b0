"""Waiting for a condition rather than for a guessed time: the check runs at every turn of the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def until(condition: Callable[[], bool], within: float = 5.0) -> None:
    """Return once ``condition()`` holds; fail the test if it does not within ``within`` seconds."""
    async with asyncio.timeout(within):
        while not condition():  # noqa: ASYNC110 (the code under test owns no event to wait on)
            await asyncio.sleep(0)

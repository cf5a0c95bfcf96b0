"""Seat arithmetic shared by every game: clockwise neighbours and the first dealer."""

from __future__ import annotations

from engine.core.errors import BadOptions, RefusalCode
from engine.core.rng import deal_rng
from engine.core.settings import Setting


def left_of(seat: int, n: int) -> int:
    """The next seat clockwise."""
    return (seat + 1) % n


def check_first_dealer(value: str, n_max: int) -> str:
    """Validate a ``first_dealer`` setting: ``random``, ``host`` or ``seat:<n>``."""
    if value in ("random", "host"):
        return value
    if value.startswith("seat:") and value[5:].isdigit() and int(value[5:]) < n_max:
        return value
    raise BadOptions(RefusalCode.BAD_FIRST_DEALER, last=n_max - 1, value=repr(value))


def first_dealer(value: str, n: int, seed: str) -> int:
    """The first dealer's seat; the host always sits at seat 0."""
    if value == "host":
        return 0
    if value.startswith("seat:"):
        seat = int(value[5:])
        if seat >= n:
            raise BadOptions(RefusalCode.NO_SUCH_SEAT, value=value, players=n)
        return seat
    return deal_rng(seed, "first_dealer").below(n)


def first_dealer_setting(n_max: int) -> Setting:
    """The ``first_dealer`` setting of a table of at most ``n_max`` seats."""
    return Setting(
        "first_dealer", "First dealer", "random", ("random", "host", *(f"seat:{i}" for i in range(n_max))),
        check=lambda value: check_first_dealer(str(value), n_max),
    )

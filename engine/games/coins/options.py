"""Coins settings (RULES.md §2): the target score and how the first dealer is chosen."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import BadOptions, RefusalCode
from engine.core.seats import first_dealer_setting
from engine.core.settings import Setting

N = 3
TARGET_PRESETS = (10, 15, 20)


def _check_target(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 99:
        return value
    raise BadOptions(RefusalCode.SETTING_OUT_OF_RANGE, name="target_score", minimum=1, maximum=99, value=repr(value))


SETTINGS = (
    Setting("target_score", "Target score", 10, TARGET_PRESETS, 1, 99, _check_target),
    first_dealer_setting(N),
)


@dataclass(frozen=True, slots=True)
class CoinsOptions:
    """Coins settings (RULES.md §2): the target score and how the first dealer is chosen."""

    target_score: int = 10
    first_dealer: str = "random"

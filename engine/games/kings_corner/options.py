"""The settings of Kings in the Corner (RULES.md §2) and the one refused combination."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import BadOptions, RefusalCode
from engine.core.seats import first_dealer_setting
from engine.core.settings import Setting

MAX_PLAYERS = 4
LIMIT_PRESETS = (25, 50, 100)


def _check_draw_count(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value in (1, 2):
        return value
    raise BadOptions(RefusalCode.SETTING_NOT_A_CHOICE, name="draw_count", choices="1, 2", value=repr(value))


def _check_limit(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 999:
        return value
    raise BadOptions(RefusalCode.SETTING_OUT_OF_RANGE, name="penalty_limit", minimum=1, maximum=999, value=repr(value))


SETTINGS = (
    first_dealer_setting(MAX_PLAYERS),
    Setting("first_player", "First player", "left_of_dealer", ("left_of_dealer", "high_card_draw")),
    Setting("king_compulsory", "Kings must be placed", True, (True, False)),
    Setting("king_on_empty_side", "Kings may fill an empty side", False, (False, True)),
    Setting("layout_kings", "Kings turned up in the layout", "movable", ("movable", "auto_corner")),
    Setting("draw_timing", "Draw at", "end", ("end", "start")),
    Setting("draw_count", "Cards per draw", 1, (1, 2), check=_check_draw_count),
    Setting("pass_rule", "Ending a turn without playing", "draw_one", ("draw_one", "draw_until_playable")),
    Setting("scoring", "Scoring", "first_out", ("first_out", "corners", "penalty")),
    Setting("penalty_limit", "Penalty limit", 25, LIMIT_PRESETS, 1, 999, _check_limit),
)


@dataclass(frozen=True, slots=True)
class KingsOptions:
    """Kings in the Corner settings (RULES.md §2, §5)."""

    first_dealer: str = "random"
    first_player: str = "left_of_dealer"
    king_compulsory: bool = True
    king_on_empty_side: bool = False
    layout_kings: str = "movable"
    draw_timing: str = "end"
    draw_count: int = 1
    pass_rule: str = "draw_one"
    scoring: str = "first_out"
    penalty_limit: int = 25

    def __post_init__(self) -> None:
        # RULES.md §2: draw_until_playable is an end-of-turn routine.
        if self.pass_rule == "draw_until_playable" and self.draw_timing == "start":
            raise BadOptions(RefusalCode.DRAW_UNTIL_PLAYABLE_AT_START)

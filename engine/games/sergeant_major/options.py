"""Sergeant Major settings (RULES.md §2), what each variant fixes, and refused combinations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.cards import FRENCH
from engine.core.errors import BadOptions, RefusalCode, listed
from engine.core.seats import first_dealer_setting
from engine.core.settings import Setting, parse_options

N = 3
VARIANTS = (
    "classic",
    "alternate",
    "six_three_eight",
    "nine_five_two",
    "nine_five_two_variation",
    "three_five_nine_uhs",
    "nine_five_three_single_kitty",
)
RANDOM_CARD = "random_each_hand"
_CARD_NAMES = frozenset(FRENCH.texts(FRENCH.full))


@dataclass(frozen=True, slots=True)
class VariantRules:
    """What a variant fixes (RULES.md §5.9): deal shape, targets, exchange, scoring, game end."""

    name: str
    targets: tuple[int, int, int]  # by position: dealer, eldest, middle
    hand_size: int  # cards per player = tricks per hand
    kitty_size: int
    face_up: bool  # 9-5-3: the 52nd card lies face up
    removes_card: bool  # 6-3-8: one card out of the deck
    exchange: bool
    calls: bool  # alternate: each player makes each call once
    kitty_first: bool  # 9-5-2 Variation: kitty, then give, then trump, then return
    take_first: bool | None  # None: the kitty_order setting decides
    running: bool  # running totals decide the game (end of hand)
    trick_end: bool  # the game_end setting is checked after every trick
    thirteen: bool  # 9-5-3: 13 tricks in a hand win
    reveal: bool  # §4.6 dealer's private reveal
    discard_trick: bool  # 3-5-9: the discards are the dealer's first trick
    first_up_order: bool  # 3-5-9: two givers ordered by their first "up" trick
    last_hand: int  # alternate: 18 hands; 0 means no fixed length


def _rules(name: str, targets: tuple[int, int, int], **kw: Any) -> VariantRules:
    base: dict[str, Any] = dict(
        hand_size=16, kitty_size=4, face_up=False, removes_card=False, exchange=True, calls=False,
        kitty_first=False, take_first=None, running=False, trick_end=False, thirteen=False, reveal=True,
        discard_trick=False, first_up_order=False, last_hand=0,
    )
    base.update(kw)
    return VariantRules(name, targets, **base)


RULES: dict[str, VariantRules] = {
    r.name: r
    for r in (
        _rules("classic", (8, 5, 3), trick_end=True),  # §3
        _rules("alternate", (8, 5, 3), exchange=False, calls=True, running=True, reveal=False,
               last_hand=18),  # §5.3
        _rules("six_three_eight", (8, 6, 3), hand_size=17, kitty_size=0, removes_card=True, running=True,
               reveal=False),  # §5.4
        _rules("nine_five_two", (9, 5, 2), take_first=True, running=True),  # §5.5
        _rules("nine_five_two_variation", (9, 2, 5), take_first=True, running=True, kitty_first=True,
               reveal=False),  # §5.6
        _rules("three_five_nine_uhs", (9, 5, 3), take_first=True, trick_end=True, discard_trick=True,
               first_up_order=True),  # §5.7
        _rules("nine_five_three_single_kitty", (9, 5, 3), hand_size=17, kitty_size=0, face_up=True,
               thirteen=True, reveal=False),  # §5.8
    )
}

def takes_kitty_first(rules: VariantRules, kitty_order: str) -> bool:
    """§3.2 step 6, §5.1: whether the dealer takes the kitty before discarding (the variant, else ``kitty_order``)."""
    return kitty_order == "take_then_discard" if rules.take_first is None else rules.take_first


GAME_END_TRICKS = {"twelve_tricks": 12, "all_sixteen": 16}  # §3.2 end check; target_plus_five: target + 5
THIRTEEN = 13  # §5.8: 13 tricks in a hand win


def winning_tricks(rules: VariantRules, game_end: str, targets: tuple[int, ...]) -> tuple[int, ...] | None:
    """Per seat, the tricks in one hand that win the game at once (§3.2 end check, §5.8); None if no count does."""
    if rules.trick_end:
        fixed = GAME_END_TRICKS.get(game_end)
        return tuple(fixed if fixed is not None else target + 5 for target in targets)
    if rules.thirteen:
        return (THIRTEEN,) * len(targets)
    return None


# §5.2.1 balancing table: bid -> (eldest target, middle target)
WOBURN_TARGETS = {8: (5, 3), 9: (4, 3), 10: (4, 2), 11: (3, 2), 12: (2, 2), 13: (2, 1), 14: (1, 1), 15: (1, 0),
                  16: (0, 0)}


def _check_removed(value: object) -> str:
    if value == RANDOM_CARD:
        return RANDOM_CARD
    if isinstance(value, str) and value in _CARD_NAMES:
        return value
    raise BadOptions(RefusalCode.BAD_REMOVED_CARD, value=repr(value))


_EXCHANGE_VARIANTS = tuple(v for v in VARIANTS if RULES[v].exchange)

# applies_to: the variants a setting applies to (§2.2 "Applies to"); other variants accept only the default.
SETTINGS = (
    Setting("variant", "Variant", "classic", VARIANTS),
    first_dealer_setting(N),
    Setting("kitty_order", "Kitty order", "discard_then_take", ("discard_then_take", "take_then_discard"),
            applies_to=("classic", "alternate")),
    Setting("game_end", "Game end", "twelve_tricks", ("twelve_tricks", "all_sixteen", "target_plus_five"),
            applies_to=("classic", "three_five_nine_uhs")),
    Setting("exchange_ace", "Ace in the exchange", "low", ("low", "high"), applies_to=_EXCHANGE_VARIANTS),
    Setting("woburn_first_bid", "Woburn first bid", False, (False, True), applies_to=("classic",)),
    Setting("woburn_max_bleed", "Woburn max bleed", False, (False, True), applies_to=_EXCHANGE_VARIANTS),
    Setting("misere_trump", "Trump in misère", "none", ("none", "dealer_names"), applies_to=("alternate",)),
    Setting("win_score", "Winning score", 10, (10, 20), applies_to=("nine_five_two",)),
    Setting("removed_card", "Removed card", "2-clubs",
            ("2-clubs", "2-hearts", "2-diamonds", "2-spades", RANDOM_CARD), check=_check_removed,
            applies_to=("six_three_eight",)),
)


@dataclass(frozen=True, slots=True)
class SMOptions:
    """Sergeant Major settings (RULES.md §2.1, §2.2)."""

    variant: str = "classic"
    first_dealer: str = "random"
    kitty_order: str = "discard_then_take"
    game_end: str = "twelve_tricks"
    exchange_ace: str = "low"
    woburn_first_bid: bool = False
    woburn_max_bleed: bool = False
    misere_trump: str = "none"
    win_score: int = 10
    removed_card: str = "2-clubs"

    @property
    def rules(self) -> VariantRules:
        """What the chosen variant fixes."""
        return RULES[self.variant]


# setting -> the variants it applies to, from SETTINGS
_APPLIES: dict[str, tuple[str, ...]] = {s.name: s.applies_to for s in SETTINGS if s.applies_to is not None}


def check_combination(opts: SMOptions) -> SMOptions:
    """Refuse a modifier set away from its default for a variant it does not apply to (§2.2)."""
    defaults = SMOptions()
    for name, variants in _APPLIES.items():
        value = getattr(opts, name)
        if opts.variant not in variants and value != getattr(defaults, name):
            shown = ("on" if value else "off") if isinstance(value, bool) else value
            raise BadOptions(RefusalCode.OPTION_NOT_FOR_VARIANT, name=name, value=shown, variant=opts.variant,
                             variants=listed(variants))
    return opts


def parse(raw: Any) -> SMOptions:
    """Validated options from a mapping (or an SMOptions); raises BadOptions."""
    opts = parse_options(SMOptions, SETTINGS, raw)
    for setting in SETTINGS:  # an SMOptions built in code skips parse_options' checks
        setting.parse(getattr(opts, setting.name))
    return check_combination(opts)

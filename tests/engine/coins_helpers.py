"""Build Coins positions by hand for the worked examples."""

from __future__ import annotations

from engine.core.cards import SPANISH, mask_of
from engine.games.coins import CoinsOptions, CoinsState, Phase


def cards(*names: str) -> int:
    """A mask of cards given like "5-coins"."""
    return mask_of(SPANISH.parse(n) for n in names)


def position(
    hands: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]],
    *,
    turn: int,
    trick: tuple[tuple[int, str], ...] = (),
    scores: tuple[int, int, int] = (0, 0, 0),
    trick_no: int = 1,
    dealer: int = 0,
    hand_no: int = 1,
    target: int = 10,
    seed: str = "worked-example",
) -> CoinsState:
    """A Coins state in the middle of play with the given hands and trick."""
    return CoinsState(
        options=CoinsOptions(target_score=target),
        seed=seed,
        phase=Phase.PLAY,
        hand_no=hand_no,
        dealer=dealer,
        hands=tuple(cards(*h) for h in hands),
        trick=tuple((s, SPANISH.parse(c)) for s, c in trick),
        turn=turn,
        trick_no=trick_no,
        scores=scores,
        won=(0, 0, 0),
        last_trick=(),
        winner=None,
    )

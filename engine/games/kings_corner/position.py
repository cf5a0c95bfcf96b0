"""A position from a description in card names: for worked examples, puzzles and AI tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.settings import parse_options
from engine.games.kings_corner.board import DECK, SPACE_INDEX, is_well_formed
from engine.games.kings_corner.options import SETTINGS, KingsOptions
from engine.games.kings_corner.state import NOBODY, KingsState, Phase


def position(
    players: int = 3,
    *,
    hands: Sequence[Sequence[str]] = (),
    piles: Mapping[str, Sequence[str]] | None = None,
    stock: Sequence[str] = (),
    turn: int = 0,
    dealer: int | None = None,
    options: Mapping[str, Any] | KingsOptions | None = None,
    played: int = 0,
    idle_streak: int = 0,
    collected: Sequence[int] | None = None,
    totals: Sequence[int] | None = None,
    hand_no: int = 1,
    seed: str = "position",
) -> KingsState:
    """A state with the seat ``turn`` acting; ``stock`` is listed top card first. Raises ValueError."""
    opts = parse_options(KingsOptions, SETTINGS, options)
    seen: set[int] = set()

    def cards(names: Sequence[str]) -> tuple[int, ...]:
        out = tuple(DECK.parse(name) for name in names)
        for card in out:
            if card in seen:
                raise ValueError(f"{DECK.text(card)} is placed twice.")
            seen.add(card)
        return out

    hand_masks = [0] * players
    for seat, names in enumerate(hands):
        for card in cards(names):
            hand_masks[seat] |= 1 << card
    board: list[tuple[int, ...]] = [()] * 8
    for name, pile in (piles or {}).items():
        board[SPACE_INDEX[name]] = cards(pile)
        if not is_well_formed(board[SPACE_INDEX[name]]):
            raise ValueError(f"The pile on {name} does not run down by one in alternating colours.")
    zeros = (0,) * players
    return KingsState(
        opts, seed, players, Phase.ACTING, hand_no, (turn - 1) % players if dealer is None else dealer, turn,
        tuple(hand_masks), cards(stock), tuple(board), played, idle_streak, NOBODY,
        zeros if collected is None else tuple(collected), zeros if totals is None else tuple(totals),
        NOBODY, False, zeros, (), (), (), (),
    )

"""The card exchange (RULES.md §4): who gives whom how many, in which order, what comes back.

Pure calculations on masks; the ``give`` action that drives them lives in ``phases``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.cards import Mask, cards_in
from engine.core.events import Event, private
from engine.games.sergeant_major.state import (
    SUIT_MASK,
    Exchange,
    N,
    Transfer,
    ex_key,
    texts,
)

MAX_BLEED = 3  # §5.2.2: cards a player may take part in per hand


def transfers(
    prev: tuple[int, ...],
    targets: tuple[int, ...],
    *,
    max_bleed: bool,
    first_up_order: bool,
    first_up: tuple[int, ...],
) -> tuple[Transfer, ...]:
    """The exchanges of a new hand, in order, from the previous results and the new targets (§4.1, §4.2)."""
    ups = [s for s in range(N) if prev[s] > 0]
    downs = [s for s in range(N) if prev[s] < 0]
    if len(ups) == 2:
        if first_up_order:
            ups.sort(key=lambda s: first_up[s])  # §5.7: the earlier first "up" trick passes first
        else:
            ups.sort(key=lambda s: -targets[s])  # §4.2: higher new target first
    if len(downs) == 2:
        # §4.2 lower new target first; §5.2.2 max bleed reverses it
        downs.sort(key=lambda s: -targets[s] if max_bleed else targets[s])
    surplus = {s: prev[s] for s in ups}
    deficit = {s: -prev[s] for s in downs}
    used = [0] * N
    out: list[Transfer] = []
    for g in ups:
        for r in downs:
            k = min(surplus[g], deficit[r])
            if max_bleed:
                k = min(k, MAX_BLEED - used[g], MAX_BLEED - used[r])
            if k > 0:
                out.append((g, r, k))
                surplus[g] -= k
                deficit[r] -= k
                used[g] += k
                used[r] += k
    return tuple(out)


def _top(mask: Mask, m: int, ace_low: bool) -> Mask:
    ranked = sorted(cards_in(mask), key=lambda c: ex_key(c, ace_low), reverse=True)
    out = 0
    for card in ranked[:m]:
        out |= 1 << card
    return out


def returned_cards(own: Mask, given: Mask, ace_low: bool) -> Mask:
    """What the receiver hands back (§4.3 step 2): per given suit, the m highest of own + given cards."""
    out = 0
    for suit_mask in SUIT_MASK:
        g = given & suit_mask
        if g:
            out |= _top((own | given) & suit_mask, g.bit_count(), ace_low)
    return out


def exchange_hands(
    hands: Sequence[Mask], giver: int, receiver: int, given: Mask, ace_low: bool
) -> tuple[tuple[Mask, ...], Mask]:
    """§4.3: the hands after one exchange (the given cards over, the returns back at once), and the returns."""
    back = returned_cards(hands[receiver], given, ace_low)
    out = list(hands)
    out[giver] = out[giver] & ~given | back
    out[receiver] = (out[receiver] | given) & ~back
    return tuple(out), back


def settle_hands(
    hands: Sequence[Mask], escrow: Sequence[tuple[int, int, Mask]], ace_low: bool
) -> tuple[tuple[Mask, ...], list[Mask]]:
    """§4.4: the hands once every give held back is returned, each from the receiver's own cards plus
    that giver's cards only (the given cards are out of every hand until now); and each give's returns."""
    out = list(hands)
    kept = [0] * len(out)
    returns: list[Mask] = []
    for giver, receiver, given in escrow:
        back = returned_cards(out[receiver], given, ace_low)
        out[receiver] &= ~back
        kept[receiver] |= given & ~back
        out[giver] |= back
        returns.append(back)
    return tuple(h | k for h, k in zip(out, kept, strict=True)), returns


def exchange_events(giver: int, receiver: int, given: Mask, returned: Mask | None) -> list[Event]:
    """The cards given (and returned, if known yet), private to the two; the shadow gives the count (§3.3)."""
    k = given.bit_count()
    parties = (giver, receiver)
    events = [private(parties, {"type": "gave", "seat": giver, "to": receiver, "cards": texts(given)},
                      {"type": "gave", "seat": giver, "to": receiver, "count": k})]
    if returned is not None:
        events.append(private(parties, {"type": "returned", "seat": receiver, "to": giver, "cards": texts(returned)},
                              {"type": "returned", "seat": receiver, "to": giver, "count": k}))
    return events


def reveal(exchanges: tuple[Exchange, ...], dealer: int, kitty: Mask, ace_low: bool) -> list[tuple[int, Mask]]:
    """§4.6: per giver who exchanged with the dealer, the kitty cards above the lowest card returned per suit."""
    out: list[tuple[int, Mask]] = []
    for giver, receiver, _given, returned in exchanges:
        if receiver != dealer:
            continue
        shown = 0
        for suit_mask in SUIT_MASK:
            back = returned & suit_mask
            if not back:
                continue
            low = min(ex_key(c, ace_low) for c in cards_in(back))
            shown |= sum(1 << c for c in cards_in(kitty & suit_mask) if ex_key(c, ace_low) > low)
        out.append((giver, shown))
    return out


def reveal_events(shows: list[tuple[int, Mask]], dealer: int) -> list[Event]:
    """One event per giver, so its mere existence tells the third player nothing."""
    return [
        private((giver,), {"type": "kitty_shown", "dealer": dealer, "to": giver, "cards": texts(shown)},
                {"type": "kitty_shown", "dealer": dealer, "to": giver})
        for giver, shown in shows
    ]


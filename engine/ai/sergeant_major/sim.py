"""A fast Sergeant Major hand for search: the rest of a hand played out on card masks.

``rollout`` plays the tricks (sergeant_major/RULES.md §3.2 step 8: follow suit, the highest
trump or the highest card of the suit led wins, the per-trick game end) with a quick policy for
every seat: take tricks cheaply in a suit or no-trump contract, duck them in a misère (§5.3),
and a random legal card now and then. ``finish`` runs the decisions still ahead of the
tricks (the exchange, trump, kitty, returns and swap, in the variant's order) with the easy
player's heuristics, then the tricks. Both return the result of one seat in tricks
(``tricks − target``, or ``maximum − tricks`` in a misère), with ``WIN`` for a game won.

The follow-suit mask is the rules' own (``engine.core.tricks``); the variant table, the trick
counts that win at once and the exchange ranking are the rules' tables (``engine.games.sergeant_major``;
an AI module holds no rules function, which would lead back to the game state). What is restated
here on masks (the trick's winning card kept as the cards fall, the per-trick game end, the hand
result, the exchange and its held-back returns, the kitty order, the swap) is held to the rules
by tests/engine/test_sim_parity_sergeant_major.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine.ai.sergeant_major.choices import discard, give, misere_discard, should_swap
from engine.ai.sergeant_major.hand import best_trump, misere_trump
from engine.ai.sergeant_major.seen import SUIT_MASK, TWO_DIAMONDS, WIDTH, N
from engine.core.cards import Card, Mask, cards_in
from engine.core.tricks import playable
from engine.games.sergeant_major.options import GAME_END_TRICKS, RULES, THIRTEEN
from engine.games.sergeant_major.state import EXCHANGE_RANK

WIN = 20.0  # a game won (or lost) at once, in tricks
_SUIT_OF = tuple(c // WIDTH for c in range(52))
_RANK_OF = tuple(c % WIDTH for c in range(52))


def _low(m: Mask) -> Card:
    return (m & -m).bit_length() - 1


def _high(m: Mask) -> Card:
    return m.bit_length() - 1


def _random_card(m: Mask, rnd: Callable[[], float]) -> Card:
    cards = cards_in(m)
    return cards[int(rnd() * len(cards))]


def _lowest_plain(hand: Mask, trump: int | None) -> Card:
    """The lowest-ranked card outside trumps, from the shorter suit on a tie (all trumps: the lowest)."""
    best = -1
    key = 99
    for s in range(4):
        if s == trump:
            continue
        m = hand & SUIT_MASK[s]
        if m:
            c = _low(m)
            k = _RANK_OF[c] * 16 + m.bit_count()
            if k < key:
                best, key = c, k
    return best if best >= 0 else _low(hand)


def _highest_rank(hand: Mask, avoid: int | None) -> Card:
    best = -1
    key = -1
    for s in range(4):
        if s == avoid:
            continue
        m = hand & SUIT_MASK[s]
        if m:
            c = _high(m)
            k = _RANK_OF[c] * 16 + 15 - m.bit_count()
            if k > key:
                best, key = c, k
    return best if best >= 0 else _high(hand)


def _take_lead(hands: list[Mask], seat: int, trump: int | None) -> Card:
    hand = hands[seat]
    others = hands[(seat + 1) % N] | hands[(seat + 2) % N]
    if trump is not None:
        mine = hand & SUIT_MASK[trump]
        theirs = others & SUIT_MASK[trump]
        if mine and theirs and _high(mine) > _high(theirs):
            return _high(mine)  # draw trumps with the master trump
    longest = -1
    length = 0
    for s in range(4):
        if s == trump:
            continue
        m = hand & SUIT_MASK[s]
        if not m:
            continue
        top = _high(m)
        if top > _high(others & SUIT_MASK[s]):
            return top  # a master card
        if m.bit_count() > length:
            longest, length = s, m.bit_count()
    if longest >= 0:
        return _low(hand & SUIT_MASK[longest])
    return _low(hand)


def _take_play(hands: list[Mask], seat: int, led: int, best: Card, best_trump: bool, pos: int,
               trump: int | None) -> Card:
    hand = hands[seat]
    follow = hand & SUIT_MASK[led]
    third = hands[(seat + 1) % N]
    if follow:
        if best_trump and led != trump:
            return _low(follow)
        above = follow >> (best + 1) << (best + 1)
        if not above:
            return _low(follow)
        if pos == 2:
            return _low(above)
        t_follow = third & SUIT_MASK[led]
        if not t_follow and trump is not None and led != trump and third & SUIT_MASK[trump]:
            return _low(follow)  # the last player can ruff: keep the high card
        need = max(best, _high(t_follow)) if t_follow else best
        safe = follow >> (need + 1) << (need + 1)
        return _low(safe) if safe else _low(follow)
    if trump is not None and led != trump:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            over = trumps >> (best + 1) << (best + 1) if best_trump else trumps
            if over and pos == 1 and not third & SUIT_MASK[led]:
                t_trumps = third & SUIT_MASK[trump]
                if t_trumps:
                    over = over >> (_high(t_trumps) + 1) << (_high(t_trumps) + 1)
            if over:
                return _low(over)
    return _lowest_plain(hand, trump)


def _duck_play(hands: list[Mask], seat: int, led: int, best: Card, best_trump: bool, pos: int,
               trump: int | None) -> Card:
    hand = hands[seat]
    follow = hand & SUIT_MASK[led]
    if follow:
        if best_trump and led != trump:
            return _high(follow)
        below = follow & ((1 << best) - 1)
        if below:
            return _high(below)
        return _high(follow) if pos == 2 else _low(follow)
    if trump is not None and best_trump:
        trumps = hand & SUIT_MASK[trump]
        under = trumps & ((1 << best) - 1)
        plain = hand & ~trumps
        if plain:
            return _highest_rank(plain, trump)
        return _high(under) if under else _low(trumps)
    if trump is not None and hand & ~SUIT_MASK[trump]:
        return _highest_rank(hand & ~SUIT_MASK[trump], trump)
    return _highest_rank(hand, None)


def rollout(
    hands: list[Mask], trick: list[tuple[int, Card]], turn: int, trump: int | None, misere: bool,
    tricks: list[int], targets: tuple[int, ...], need: tuple[int, ...] | None, me: int,
    rnd: Callable[[], float], greedy: float,
) -> float:
    """Play the hand out from here (mutating ``hands`` and ``tricks``); ``me``'s result in tricks."""
    n = len(trick)
    if n:
        led = _SUIT_OF[trick[0][1]]
        best_seat, best = trick[0]
        best_trump = led == trump
        for s, c in trick[1:]:
            suit = _SUIT_OF[c]
            if suit == trump:
                if not best_trump or c > best:
                    best_seat, best, best_trump = s, c, True
            elif suit == led and not best_trump and c > best:
                best_seat, best = s, c
    else:
        led = best = best_seat = -1
        best_trump = False
    seat = turn
    while hands[seat]:
        hand = hands[seat]
        if n == 0:
            if rnd() >= greedy:
                card = _random_card(hand, rnd)
            elif misere:
                card = _lowest_plain(hand, None)
            else:
                card = _take_lead(hands, seat, trump)
            led = _SUIT_OF[card]
            best_seat, best, best_trump = seat, card, led == trump
        else:
            if rnd() >= greedy:
                card = _random_card(playable(hand, SUIT_MASK[led]), rnd)
            elif misere:
                card = _duck_play(hands, seat, led, best, best_trump, n, trump)
            else:
                card = _take_play(hands, seat, led, best, best_trump, n, trump)
            suit = _SUIT_OF[card]
            if suit == trump:
                if not best_trump or card > best:
                    best_seat, best, best_trump = seat, card, True
            elif suit == led and not best_trump and card > best:
                best_seat, best = seat, card
        hands[seat] = hand & ~(1 << card)
        n += 1
        if n < N:
            seat = (seat + 1) % N
            continue
        w = best_seat
        tricks[w] += 1
        if need is not None and tricks[w] >= need[w]:
            return WIN if w == me else -WIN
        n = 0
        seat = w
    if misere:
        return float(targets[me] - tricks[me])  # §5.3: maximum − tricks
    return float(tricks[me] - targets[me])


def end_need(options: dict[str, Any], variant: str, targets: tuple[int, ...]) -> tuple[int, ...] | None:
    """The trick count that ends the game at once, per seat (§3.2 end check, §5.8), or None."""
    rules = RULES[variant]
    if rules.trick_end:
        fixed = GAME_END_TRICKS.get(str(options.get("game_end", "twelve_tricks")))
        return tuple(fixed if fixed is not None else t + 5 for t in targets)  # target_plus_five
    if rules.thirteen:
        return (THIRTEEN,) * N
    return None


def returned_cards(own: Mask, given: Mask, ace_low: bool) -> Mask:
    """§4.3 step 2: per given suit, the m highest (exchange ranking) of the receiver's and the given cards."""
    rank = EXCHANGE_RANK[ace_low]
    out = 0
    for suit_mask in SUIT_MASK:
        g = given & suit_mask
        if g:
            ranked = sorted(cards_in((own | given) & suit_mask), key=rank.__getitem__, reverse=True)
            for card in ranked[: g.bit_count()]:
                out |= 1 << card
    return out


@dataclass(slots=True)
class World:
    """One determinized hand before its tricks: every card's place and what is decided so far."""

    variant: str
    options: dict[str, Any]
    dealer: int
    hands: list[Mask]
    kitty: Mask
    trump: int | None
    call: str | None
    targets: tuple[int, ...]
    transfers: list[tuple[int, int, int]]
    escrow: list[tuple[int, int, Mask]]
    face_up: Mask
    tricks: list[int] = field(default_factory=lambda: [0] * N)

    def copy(self) -> World:
        """An independent copy (lists copied)."""
        return replace(self, hands=list(self.hands), transfers=list(self.transfers), escrow=list(self.escrow),
                       tricks=list(self.tricks))

    @property
    def ace_low(self) -> bool:
        """Whether the Ace is low in the exchange."""
        return bool(self.options.get("exchange_ace", "low") == "low")


def stages(variant: str, options: dict[str, Any], misere_trump: bool) -> list[str]:
    """The decisions of a hand in order (§3.2, §5.3-§5.8), from the first to the tricks."""
    rules = RULES[variant]
    if rules.kitty_first:
        return ["kitty", "exchange", "trump", "settle", "play"]  # §5.6
    if rules.calls:
        return ["call", *(["trump"] if misere_trump else []), "kitty", "play"]  # §5.3
    out = ["exchange", "trump"]
    if rules.kitty_size:
        out.append("kitty")
    if rules.face_up:
        out.append("swap")
    out.append("play")
    return out


def _take_first(w: World) -> bool:
    take = RULES[w.variant].take_first
    return w.options.get("kitty_order") == "take_then_discard" if take is None else take


def _dealer_discard(w: World) -> None:
    d = w.dealer
    hand = w.hands[d]
    if _take_first(w):
        hand |= w.kitty
        w.kitty = 0
    cards = list(cards_in(hand))
    if w.call == "misere":
        out = misere_discard(cards, 4)
    else:
        trump = w.trump
        if trump is None and w.call != "no_trump":
            trump = best_trump(cards)
        out = discard(cards, 4, trump)
    for card in out:
        hand &= ~(1 << card)
    hand |= w.kitty
    w.kitty = 0
    w.hands[d] = hand
    if RULES[w.variant].discard_trick:
        w.tricks[d] += 1  # §5.7: the discards are the dealer's first trick


def make_give(w: World, giver: int, receiver: int, given: Mask) -> None:
    """One exchange (§4.3), or in the Variation the give that waits for its return (§5.6)."""
    if RULES[w.variant].kitty_first:
        w.hands[giver] &= ~given
        w.escrow.append((giver, receiver, given))
        return
    back = returned_cards(w.hands[receiver], given, w.ace_low)
    w.hands[giver] = w.hands[giver] & ~given | back
    w.hands[receiver] = (w.hands[receiver] | given) & ~back


def settle(w: World) -> None:
    """§4.4: each giver's returns from the receiver's own cards plus that giver's cards only."""
    kept = [0] * N
    for giver, receiver, given in w.escrow:
        back = returned_cards(w.hands[receiver], given, w.ace_low)
        w.hands[receiver] &= ~back
        kept[receiver] |= given & ~back
        w.hands[giver] |= back
    for s in range(N):
        w.hands[s] |= kept[s]
    w.escrow = []


def swap_offered(face_up: Mask) -> bool:
    """§5.8: the 2 of Diamonds may be swapped for the face-up card unless that card is a 2 (or none lies there)."""
    return bool(face_up) and not face_up & sum(1 << (s * WIDTH) for s in range(4))


def run_stage(w: World, stage: str) -> None:
    """The easy player's decision for a stage, applied to the world."""
    d = w.dealer
    if stage == "exchange":
        for giver, receiver, k in w.transfers:
            cards = give(list(cards_in(w.hands[giver])), k, w.ace_low)
            make_give(w, giver, receiver, sum(1 << c for c in cards))
        w.transfers = []
    elif stage == "trump":
        if w.trump is None and w.call in (None, "misere"):
            hand = list(cards_in(w.hands[d]))
            w.trump = misere_trump(hand) if w.call == "misere" else best_trump(hand)
    elif stage == "kitty":
        _dealer_discard(w)
    elif stage == "settle":
        settle(w)
    elif stage == "swap" and swap_offered(w.face_up):
        holder = next((s for s in range(N) if w.hands[s] >> TWO_DIAMONDS & 1), -1)
        if holder >= 0 and should_swap(_low(w.face_up), w.trump, TWO_DIAMONDS):
            w.hands[holder] = w.hands[holder] & ~(1 << TWO_DIAMONDS) | w.face_up
            w.face_up = 1 << TWO_DIAMONDS


def finish(w: World, todo: list[str], me: int, rnd: Callable[[], float], greedy: float) -> float:
    """Run the remaining stages with the easy heuristics, then the tricks; ``me``'s result."""
    for stage in todo:
        if stage == "play":
            break
        run_stage(w, stage)
    misere = w.call == "misere"
    need = end_need(w.options, w.variant, w.targets)
    return rollout(w.hands, [], (w.dealer + 1) % N, w.trump, misere, w.tricks, w.targets, need, me, rnd, greedy)

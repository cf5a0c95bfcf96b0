"""What a Sergeant Major seat knows, read from its view alone, and deals sampled to agree with it.

Every card the seat cannot see is somewhere: in one of the two other hands or *away* (the kitty
not yet taken, the dealer's discards, cards in transit in the 9-5-2 Variation, a random removed
card). The cards of the hand's finished tricks (the view's ``played``) and of the current trick
are out of play: counting them is what tells the seat which trumps and high cards are still out.
The seat knows some cards cannot be in some places (sergeant_major/RULES.md §3.3, §4):

- a seat that did not follow suit in the current trick or any finished trick of the hand holds
  none of that suit;
- in its own exchange (§4.3), the cards the receiver kept are in the receiver's hand, the cards
  returned are in the giver's, and the receiver holds no card of a given suit above the lowest
  card it returned there (exchange ranking), apart from the kitty cards the §4.6 reveal showed;
- cards shown by the reveal are the dealer's (in hand or among the discards);
- before the first card of a hand nothing has been played, so a card known in a hand is still
  there (unless that seat is the dealer and has discarded).

A sample places each unseen card in a location it may be in, with every hand at its public size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.cards import FRENCH, Card, Mask, cards_in
from engine.games.sergeant_major.state import EXCHANGE_RANK, SUIT_MASK, SUITS, TWO_DIAMONDS, WIDTH, N

FULL: Mask = FRENCH.full
AWAY = 2  # location index of the cards in no hand (after the two other seats, 0 and 1)


def ex_key(card: Card, ace_low: bool) -> int:
    """Exchange ranking (§1.1): with ``ace_low`` the Ace is below the 2."""
    return EXCHANGE_RANK[ace_low][card]


__all__ = ["AWAY", "FULL", "SUITS", "SUIT_MASK", "TWO_DIAMONDS", "WIDTH", "N", "Sampler", "Seen", "ex_key", "read_view"]


def mask(texts: Any) -> Mask:
    """A card mask from wire names (or ``{"card": ...}`` items)."""
    out = 0
    for item in texts or ():
        out |= 1 << FRENCH.parse(item["card"] if isinstance(item, Mapping) else item)
    return out


@dataclass(slots=True)
class Seen:
    """One seat's knowledge of a hand of Sergeant Major."""

    seat: int
    variant: str
    phase: str
    dealer: int
    hand: Mask
    trump: int | None
    call: str | None
    targets: tuple[int, ...]
    tricks: tuple[int, ...]
    trick_no: int
    hand_size: int
    trick: list[tuple[int, Card]]
    counts: tuple[int, ...]
    kitty_count: int
    discard_count: int
    ace_low: bool
    options: dict[str, Any]
    unseen: Mask = 0
    not_in: list[Mask] = field(default_factory=lambda: [0] * N)  # per seat: cards it surely lacks
    not_away: Mask = 0  # unseen cards surely in some hand
    escrow_known: list[tuple[int, int, Mask]] = field(default_factory=list)  # (giver, receiver, cards)
    escrow_hidden: list[tuple[int, int, int]] = field(default_factory=list)  # (giver, receiver, count)
    pending: list[tuple[int, int, int]] = field(default_factory=list)  # exchanges still to make
    face_up: Mask = 0
    discards: Mask = 0  # the dealer's own discards (only when this seat is the dealer)

    @property
    def others(self) -> tuple[int, int]:
        """The other two seats, clockwise from this one."""
        return (self.seat + 1) % N, (self.seat + 2) % N

    @property
    def started(self) -> bool:
        """Whether a card of this hand has been played."""
        return self.trick_no > 0 or bool(self.trick)

    def away_count(self) -> int:
        """How many unseen cards are in no hand."""
        a, b = self.others
        return self.unseen.bit_count() - self.counts[a] - self.counts[b]


def _voids(seen: Seen, trick: list[tuple[int, Card]]) -> None:
    if not trick:
        return
    led = trick[0][1] // WIDTH
    for s, card in trick[1:]:
        if card // WIDTH != led:
            seen.not_in[s] |= SUIT_MASK[led]


def read_view(view: Mapping[str, Any]) -> Seen:
    """Parse a Sergeant Major view for its own seat (the view of a seat, never a spectator's)."""
    seat = int(view["seat"])
    trump_name = view.get("trump")
    options = dict(view.get("options") or {})
    trick = [(int(t["seat"]), FRENCH.parse(t["card"])) for t in view.get("trick") or []]
    trick_no = int(view.get("trick_no", 0))
    seen = Seen(
        seat=seat, variant=str(view.get("variant", "classic")), phase=str(view.get("phase")),
        dealer=int(view["dealer"]), hand=mask(view.get("hand")),
        trump=None if trump_name is None else SUITS.index(trump_name), call=view.get("call"),
        targets=tuple(int(t) for t in view["targets"]), tricks=tuple(int(t) for t in view["tricks"]),
        trick_no=trick_no, hand_size=int(view.get("tricks_per_hand", 16)), trick=trick,
        counts=tuple(int(n) for n in view["hand_counts"]), kitty_count=int(view.get("kitty_count", 0)),
        discard_count=int(view.get("discard_count", 0)), ace_low=options.get("exchange_ace", "low") == "low",
        options=options,
    )
    known = seen.hand | sum(1 << c for _, c in trick)
    # The finished tricks of this hand (every seat saw them played).
    played = [[(int(t["seat"]), FRENCH.parse(t["card"])) for t in done] for done in view.get("played") or ()]
    for done in played:
        known |= sum(1 << c for _, c in done)
    if view.get("discards"):
        seen.discards = mask(view["discards"])
        known |= seen.discards
    if view.get("face_up"):
        seen.face_up = mask([view["face_up"]])
        known |= seen.face_up
    if view.get("removed_card"):
        known |= mask([view["removed_card"]])
    for item in view.get("escrow") or ():
        giver, receiver = int(item["seat"]), int(item["to"])
        if "gave" in item:
            cards = mask(item["gave"])
            known |= cards
            seen.escrow_known.append((giver, receiver, cards))
        else:
            seen.escrow_hidden.append((giver, receiver, int(item["count"])))
    seen.pending = [(int(p["seat"]), int(p["to"]), int(p["count"])) for p in view.get("pending_exchanges") or ()]
    seen.unseen = FULL & ~known
    _voids(seen, trick)
    for done in played:
        _voids(seen, done)
    _exchanges(seen, view)
    if seen.phase == "swap":
        # §5.8: the seat on turn in the swap holds the 2 of Diamonds.
        holder = int(view["turn"])
        if holder != seat:
            seen.not_in[3 - seat - holder] |= 1 << TWO_DIAMONDS
            seen.not_away |= 1 << TWO_DIAMONDS
    for s in range(N):
        seen.not_in[s] &= seen.unseen
    seen.not_away &= seen.unseen
    return seen


def _exchanges(seen: Seen, view: Mapping[str, Any]) -> None:
    """What the seat's own exchanges and the §4.6 reveal say about where cards are."""
    seat = seen.seat
    done = [(int(e["seat"]), int(e["to"]), mask(e.get("gave")), mask(e.get("returned")), "gave" in e)
            for e in view.get("exchanges") or ()]
    later_to: list[set[int]] = [set() for _ in done]  # receivers that get cards after each exchange
    later_from: list[set[int]] = [set() for _ in done]  # givers that give again after each exchange
    for i in range(len(done)):
        for g, r, *_ in done[i + 1 :]:
            later_to[i].add(r)
            later_from[i].add(g)
        for g, r, _k in seen.pending:
            later_to[i].add(r)
            later_from[i].add(g)
        for _g, r, *_ in seen.escrow_hidden:
            later_to[i].add(r)
    shown = mask(view.get("shown"))
    dealer = seen.dealer
    if shown:
        third = 3 - seat - dealer if dealer != seat else -1
        if third >= 0:
            seen.not_in[third] |= shown
    # Cards still in a hand before play starts; once play starts they may have been played.
    def place(cards: Mask, holder: int, also: int = -1) -> None:
        for s in range(N):
            if s not in (holder, also, seat):
                seen.not_in[s] |= cards
        discarded = holder == dealer and seen.discard_count > 0
        if not seen.started and not discarded and also < 0:
            seen.not_away |= cards

    for i, (g, r, given, back, mine) in enumerate(done):
        if not mine:
            continue
        if g == seat:
            place(given & ~back, r)
            # §4.4: in the Variation every giver's kept cards join the receiver after all returns.
            others_to_r = any(r2 == r and j != i for j, (_g, r2, *_) in enumerate(done)) or any(
                r2 == r for _g, r2, _k in (*seen.pending, *seen.escrow_hidden))
            fresh = others_to_r if seen.variant == "nine_five_two_variation" else r in later_to[i]
            if not fresh:
                for s in range(4):
                    returned = back & SUIT_MASK[s]
                    if not returned:
                        continue
                    low = min(ex_key(c, seen.ace_low) for c in cards_in(returned))
                    higher = sum(1 << c for c in cards_in(SUIT_MASK[s]) if ex_key(c, seen.ace_low) > low)
                    seen.not_in[r] |= higher & ~shown
        else:
            passed_on = g in later_from[i]
            other = 3 - seat - g
            place(back, g, other if passed_on else -1)


@dataclass(slots=True)
class Sample:
    """One deal that agrees with what the seat saw: every hand, and the unseen cards in no hand."""

    hands: list[Mask]
    away: list[Card]  # in random order: a kitty not yet taken is its first ``kitty_count`` cards


def _allowed(seen: Seen, card: Card) -> int:
    a, b = seen.others
    bit = 1 << card
    allowed = 0
    if not seen.not_in[a] & bit:
        allowed |= 1
    if not seen.not_in[b] & bit:
        allowed |= 2
    if not seen.not_away & bit:
        allowed |= 4
    return allowed


# For each set of locations (a 3-bit mask), the sets of locations it contains.
_SUBSETS = tuple(tuple(t for t in range(1, 8) if t & ~s == 0) for s in range(8))


def _feasible(types: list[int], caps: list[int]) -> bool:
    # Hall's condition: the cards confined to any set of locations fit in that set's room.
    for s in range(1, 8):
        room = (caps[0] if s & 1 else 0) + (caps[1] if s & 2 else 0) + (caps[2] if s & 4 else 0)
        if sum(types[t] for t in _SUBSETS[s]) > room:
            return False
    return True


class Sampler:
    """Deals for one ``Seen``, drawn with ``rnd`` (a float in [0, 1) per call)."""

    def __init__(self, seen: Seen) -> None:
        self.seen = seen
        a, b = seen.others
        self.caps = [seen.counts[a], seen.counts[b], max(0, seen.away_count())]
        cards = cards_in(seen.unseen)
        self.free: list[Card] = []
        self.bound: list[tuple[Card, int]] = []
        types = [0] * 8
        for card in cards:
            allowed = _allowed(seen, card)
            if allowed == 0:
                allowed = 7  # contradictory knowledge (should not happen): anywhere
            types[allowed] += 1
            if allowed == 7:
                self.free.append(card)
            else:
                self.bound.append((card, allowed))
        self.types = types
        self.ok = _feasible(types, self.caps)

    def sample(self, rnd: Callable[[], float]) -> Sample:
        """One deal; when the knowledge cannot be met (never, for a real view) constraints are dropped."""
        seen = self.seen
        caps = list(self.caps)
        spots: list[list[Card]] = [[], [], []]
        if self.ok:
            types = list(self.types)
            bound = list(self.bound)
            for i in range(len(bound) - 1, 0, -1):
                j = int(rnd() * (i + 1))
                bound[i], bound[j] = bound[j], bound[i]
            # The most confined cards first, so a dead end is rare; each placement keeps Hall's condition.
            bound.sort(key=lambda item: _WIDTH_OF[item[1]])
            for card, allowed in bound:
                types[allowed] -= 1
                options = [loc for loc in range(3) if allowed >> loc & 1 and caps[loc] > 0]
                if not options:
                    options = [loc for loc in range(3) if caps[loc] > 0] or [AWAY]
                total = sum(caps[loc] for loc in options) or 1
                x = rnd() * total
                chosen = options[-1]
                for loc in options:
                    x -= caps[loc]
                    if x < 0:
                        chosen = loc
                        break
                placed = chosen
                for loc in [chosen] + [loc for loc in options if loc != chosen]:
                    caps[loc] -= 1
                    if _feasible(types, caps):
                        placed = loc
                        break
                    caps[loc] += 1
                else:
                    caps[chosen] -= 1
                spots[placed].append(card)
            rest = list(self.free)
        else:
            rest = [card for card, _ in self.bound] + list(self.free)
        for i in range(len(rest) - 1, 0, -1):
            j = int(rnd() * (i + 1))
            rest[i], rest[j] = rest[j], rest[i]
        k = 0
        for loc in range(3):
            take = max(0, caps[loc])
            spots[loc].extend(rest[k : k + take])
            k += take
        spots[2].extend(rest[k:])
        hands = [0] * N
        hands[seen.seat] = seen.hand
        a, b = seen.others
        hands[a] = sum(1 << c for c in spots[0])
        hands[b] = sum(1 << c for c in spots[1])
        away = spots[2]
        for i in range(len(away) - 1, 0, -1):
            j = int(rnd() * (i + 1))
            away[i], away[j] = away[j], away[i]
        return Sample(hands, away)


_WIDTH_OF = tuple(bin(t).count("1") for t in range(8))

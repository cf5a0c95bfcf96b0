"""The seeded deal of a Sergeant Major hand (RULES.md §3.2 DEAL, §5.4, §5.8) and its events."""

from __future__ import annotations

from engine.core.cards import Mask
from engine.core.events import Event, dealt, public
from engine.core.rng import deal_rng
from engine.games.sergeant_major.options import RANDOM_CARD, SMOptions
from engine.games.sergeant_major.state import DECK, POSITIONS, Match, N, position, texts

Dealt = tuple[tuple[Mask, ...], Mask, Mask, Mask]  # hands, kitty, face-up card, removed card


def deal_cards(opts: SMOptions, seed: str, match: Match) -> Dealt:
    """One seeded deal (§3.2 DEAL): card k of the permutation to seat (D+1+k) mod 3, the rest to the table."""
    rules = opts.rules
    removed = -1
    if rules.removes_card:  # §5.4: 51 cards
        if opts.removed_card == RANDOM_CARD:
            removed = deal_rng(seed, f"removed:{match.deal_no}").below(DECK.size)
        else:
            removed = DECK.parse(opts.removed_card)
    order = deal_rng(seed, match.deal_no).shuffled([c for c in range(DECK.size) if c != removed])
    hands = [0] * N
    dealt = rules.hand_size * N
    for k in range(dealt):
        hands[(match.dealer + 1 + k) % N] |= 1 << order[k]
    rest = sum(1 << c for c in order[dealt:])
    kitty = rest if rules.kitty_size else 0
    face_up = rest if rules.face_up else 0
    return tuple(hands), kitty, face_up, (1 << removed) if removed >= 0 else 0


def position_targets(opts: SMOptions, dealer: int) -> tuple[int, ...]:
    """Each seat's target from its position (§1.2, §5.9)."""
    targets = opts.rules.targets
    return tuple(targets[position(dealer, seat)] for seat in range(N))


def dealt_events(match: Match, hands: tuple[Mask, ...], targets: tuple[int, ...], face_up: Mask) -> list[Event]:
    """Each seat's new hand, private to it, with everyone's position and target; the face-up card if any."""
    positions = [POSITIONS[position(match.dealer, s)] for s in range(N)]
    events = [
        dealt(seat, texts(hands[seat]), hand_no=match.hand_no, dealer=match.dealer, positions=positions,
              targets=list(targets))
        for seat in range(N)
    ]
    if face_up:
        events.append(public({"type": "face_up", "card": texts(face_up)[0]}))
    return events

"""A bitmask reference for Coins: random legal games on plain ints, the yardstick for the rules' speed.

It plays the rules of ``engine/games/coins/RULES.md`` with nothing but ints and lists: the
same provably fair deals (README "Provably fair deals", unrolled here four 64-bit draws per
SHA-256 block), the first dealer from the seed, any card in hand legal, the trick winner from
a 48³ table built from the suit cycle, one point per Coins card, the game over the moment a
seat reaches the target. ``play_game`` and the rules give the same final scores for the same
seed and the same choices (a test holds them to that), so a ratio of the two rates measures
only what the public interface costs.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable

SIZE, WIDTH, N = 48, 12, 3
COINS = 1  # suit index: cups, coins, swords, clubs
BEATS = (1, 2, 3, 0)  # each suit beats the next in the cycle; clubs beat cups
HAND = SIZE // N
_SPAN = 1 << 64
_LIMIT = tuple(0 if n == 0 else _SPAN - _SPAN % n for n in range(SIZE + 1))
_QUADS = struct.Struct(">4Q")
_sha = hashlib.sha256


def _winner(c0: int, c1: int, c2: int) -> int:
    s = (c0 // WIDTH, c1 // WIDTH, c2 // WIDTH)
    cards = (c0, c1, c2)
    if len(set(s)) == 3:  # three suits: the one no other present suit beats
        return next(i for i in range(3) if all(BEATS[o] != s[i] for o in s))
    if s[0] == s[1] == s[2]:
        return max(range(3), key=cards.__getitem__)
    pair = s[0] if s[0] in (s[1], s[2]) else s[1]
    return max((i for i in range(3) if s[i] == pair), key=cards.__getitem__)


WIN = bytes(
    _winner(a, b, c) if len({a, b, c}) == 3 else 0 for a in range(SIZE) for b in range(SIZE) for c in range(SIZE)
)
COIN = tuple(1 if c // WIDTH == COINS else 0 for c in range(SIZE))
# CARDS[s][bits]: the cards of one suit's 12 bits of a mask
CARDS = tuple(
    tuple(tuple(WIDTH * s + i for i in range(WIDTH) if v >> i & 1) for v in range(1 << WIDTH)) for s in range(4)
)


def _stream(seed: str, purpose: str) -> Callable[[], int]:
    prefix = f"{seed}:{purpose}:".encode()
    pending: list[int] = []
    block = 0

    def next64() -> int:
        nonlocal block
        if not pending:
            pending.extend(reversed(_QUADS.unpack(_sha(prefix + str(block).encode()).digest())))
            block += 1
        return pending.pop()

    return next64


def first_dealer(seed: str) -> int:
    """The seeded first dealer (``first_dealer = random``)."""
    nxt = _stream(seed, "first_dealer")
    while True:
        x = nxt()
        if x < _LIMIT[N]:
            return x % N


def deal(seed: str, hand_no: int, dealer: int) -> list[int]:
    """The three hands of deal ``hand_no``: Fisher-Yates from the end, card k to seat (dealer + 1 + k) % 3."""
    order = list(range(SIZE))
    prefix = f"{seed}:deal:{hand_no}:".encode()
    i = SIZE - 1
    block = 0
    while i:
        for x in _QUADS.unpack(_sha(prefix + str(block).encode()).digest()):
            n = i + 1
            if x < _LIMIT[n]:
                j = x % n
                order[i], order[j] = order[j], order[i]
                i -= 1
                if not i:
                    break
        block += 1
    hands = [0, 0, 0]
    for k in range(N):
        mask = 0
        for card in order[k::N]:
            mask |= 1 << card
        hands[(dealer + 1 + k) % N] = mask
    return hands


def play_game(seed: str, target: int, pick: Callable[[int], int]) -> tuple[list[int], int]:
    """One whole game; ``pick(n)`` chooses the index of the card played among the n in hand, lowest first.

    Returns the final scores and the number of moves.
    """
    dealer = first_dealer(seed)
    hand_no = 1
    scores = [0, 0, 0]
    moves = 0
    t0, t1, t2, t3 = CARDS
    win, coin = WIN, COIN
    while True:
        hands = deal(seed, hand_no, dealer)
        leader = (dealer + 1) % N
        for _ in range(HAND):
            played = [0, 0, 0]
            seat = leader
            for k in range(N):
                hand = hands[seat]
                cards = t0[hand & 4095] + t1[hand >> 12 & 4095] + t2[hand >> 24 & 4095] + t3[hand >> 36]
                card = cards[pick(len(cards))]
                hands[seat] ^= 1 << card
                played[k] = card
                seat = seat + 1 if seat < 2 else 0
            moves += N
            c0, c1, c2 = played
            w = (leader + win[c0 * 2304 + c1 * 48 + c2]) % N
            scores[w] += coin[c0] + coin[c1] + coin[c2]
            if scores[w] >= target:
                return scores, moves
            leader = w
        dealer = (leader - 1) % N  # the last trick's winner's right-hand neighbour deals next
        hand_no += 1

"""Sergeant Major's phases where someone acts: one ``_legal_<phase>`` and one ``_apply_<phase>`` each.

They sit behind one table per direction keyed by phase, ``_LEGAL`` and ``_APPLY``, the form every
game's ``phases`` module takes. Each apply runs the same check as its legal lister (in ``decisions``
and ``play``). The play actions are built once and handed out read-only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.actions import SharedAction, action_type, shared
from engine.core.cards import Card, Mask, PerCard
from engine.core.errors import IllegalAction, MalformedAction, RefusalCode, listed
from engine.core.events import Event
from engine.core.rules import Action
from engine.games.sergeant_major import decisions, play
from engine.games.sergeant_major.state import CALLS, DECK, SUITS, TEXT, Phase, SMState, by_rank

N = 3
PLAY_ACTIONS: tuple[SharedAction, ...] = tuple(shared({"type": "play", "card": TEXT[c]}) for c in range(DECK.size))
_PLAYS = PerCard(PLAY_ACTIONS)
TRUMP_ACTIONS: tuple[dict[str, str], ...] = tuple({"type": "name_trump", "suit": s} for s in SUITS)
CALL_ACTIONS: tuple[dict[str, str], ...] = tuple({"type": "call", "call": c} for c in CALLS)
BID_ACTIONS: dict[int, dict[str, Any]] = {n: {"type": "bid", "tricks": n} for n in range(decisions.MIN_BID, 17)}
PASS: dict[str, str] = {"type": "pass"}
SWAP_ACTIONS: tuple[dict[str, str], ...] = ({"type": "swap"}, {"type": "decline_swap"})
KINDS = ("play", "bid", "pass", "give", "call", "name_trump", "discard", "swap", "decline_swap")
EXAMPLE = '{"type": "play", "card": "Q-spades"}'


def _cards(action: Action) -> Mask:
    raw = action.get("cards")
    if not isinstance(raw, list | tuple):
        raise MalformedAction(RefusalCode.CARDS_NOT_A_LIST)
    mask = 0
    for text in raw:
        card: Card = DECK.parse(text)
        if mask >> card & 1:
            raise MalformedAction(RefusalCode.DUPLICATE_CARD, card=TEXT[card])
        mask |= 1 << card
    return mask


def _text(action: Action, key: str) -> str:
    value = action.get(key)
    if not isinstance(value, str):
        raise MalformedAction(RefusalCode.FIELD_NOT_A_WORD, field=key)
    return value


def _lowest(hand: Mask, k: int) -> list[str]:
    return [TEXT[c] for c in by_rank(hand)[:k]]


# one _legal_<phase> and one _apply_<phase> per phase where someone acts --------------

def _legal_play(state: SMState, seat: int) -> list[Action]:
    return _PLAYS.of(play.legal_mask(state, seat))  # type: ignore[return-value]


def _apply_play(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    _expect(state, kind, "play")
    card = DECK.parse(action.get("card"))
    play.check_play(state, seat, card)
    new, played = play.play(state, seat, card)
    events.extend(played)
    return new


def _legal_bid(state: SMState, seat: int) -> list[Action]:
    return [*(BID_ACTIONS[n] for n in range(decisions.lowest_bid(state), decisions.MAX_BID + 1)), PASS]


def _apply_bid(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    if kind == "pass":
        return decisions.pass_bid(state, seat, events)
    _expect(state, kind, "bid")
    tricks = action.get("tricks")
    if not isinstance(tricks, int) or isinstance(tricks, bool):
        raise MalformedAction(RefusalCode.BID_NOT_A_NUMBER)
    decisions.check_bid(state, tricks)
    return decisions.bid(state, seat, tricks, events)


def _legal_exchange(state: SMState, seat: int) -> list[Action]:
    return [{"type": "give", "cards": _lowest(state.hands[seat], decisions.give_count(state)[1])}]


def _apply_exchange(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    _expect(state, kind, "give")
    cards = _cards(action)
    decisions.check_cards(state, seat, cards, decisions.give_count(state)[1], "give")
    return decisions.give(state, seat, cards, events)


def _legal_kitty(state: SMState, seat: int) -> list[Action]:
    return [{"type": "discard", "cards": _lowest(state.hands[seat], decisions.KITTY_DISCARDS)}]


def _apply_kitty(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    _expect(state, kind, "discard")
    cards = _cards(action)
    decisions.check_cards(state, seat, cards, decisions.KITTY_DISCARDS, "discard")
    return decisions.discard(state, seat, cards, events)


def _legal_call(state: SMState, seat: int) -> list[Action]:
    used = state.match.calls_used[seat]
    return [CALL_ACTIONS[i] for i in range(len(CALLS)) if not used >> i & 1]


def _apply_call(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    _expect(state, kind, "call")
    word = _text(action, "call")
    decisions.check_call(state, seat, word)
    return decisions.call(state, seat, word, events)


def _legal_trump(state: SMState, seat: int) -> list[Action]:
    return list(TRUMP_ACTIONS)


def _apply_trump(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    _expect(state, kind, "name_trump")
    word = _text(action, "suit")
    if word in ("no_trump", "misere"):
        raise IllegalAction(RefusalCode.TRUMP_SUIT_ONLY, suits=listed(SUITS))
    return decisions.name_trump(state, seat, decisions.check_suit(word), events)


def _legal_swap(state: SMState, seat: int) -> list[Action]:
    return list(SWAP_ACTIONS)


def _apply_swap(state: SMState, seat: int, kind: str, action: Action, events: list[Event]) -> SMState:
    if kind == "decline_swap":
        return decisions.decline_swap(state, seat, events)
    _expect(state, kind, "swap")
    return decisions.swap(state, seat, events)


def _expect(state: SMState, kind: str, wanted: str) -> None:
    """Refuse any action type but the one this phase takes (RULES.md §3.2: one decision at a time)."""
    if kind != wanted:
        raise IllegalAction(RefusalCode.WRONG_PHASE, action=kind, phase=state.phase.value)


_LEGAL: dict[Phase, Callable[[SMState, int], list[Action]]] = {
    Phase.PLAY: _legal_play,
    Phase.BID: _legal_bid,
    Phase.EXCHANGE: _legal_exchange,
    Phase.KITTY: _legal_kitty,
    Phase.CALL: _legal_call,
    Phase.TRUMP: _legal_trump,
    Phase.SWAP: _legal_swap,
}
_APPLY: dict[Phase, Callable[[SMState, int, str, Action, list[Event]], SMState]] = {
    Phase.PLAY: _apply_play,
    Phase.BID: _apply_bid,
    Phase.EXCHANGE: _apply_exchange,
    Phase.KITTY: _apply_kitty,
    Phase.CALL: _apply_call,
    Phase.TRUMP: _apply_trump,
    Phase.SWAP: _apply_swap,
}


def legal_actions(state: SMState, seat: int) -> list[Action]:
    """Every single-card or simple action; one canonical choice for a multi-card give or discard."""
    if state.phase is Phase.OVER or seat != state.turn:
        return []
    return _LEGAL[state.phase](state, seat)


def apply(state: SMState, seat: int, action: Action) -> tuple[SMState, list[Event]]:
    """The next state and its events; raises IllegalAction (nothing changes)."""
    kind = action_type(action, KINDS, EXAMPLE)
    if state.phase is Phase.OVER:
        raise IllegalAction(RefusalCode.GAME_OVER)
    if seat != state.turn:
        raise IllegalAction(RefusalCode.NOT_YOUR_TURN)
    events: list[Event] = []
    return _APPLY[state.phase](state, seat, kind, action, events), events

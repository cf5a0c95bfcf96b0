"""The guided first games are as long as they should be, for a person doing what the coach advises: Sergeant Major
is won within its first hand in at most 22 taps; Kings in the Corner is over within 25 taps, with a King to a
corner, a build, a pile moved, a side filled and a turn ended with a draw on the way.

The advice is the coach's (webapp/static/games/*/lesson.js), restated here: Sergeant Major names the longest suit
trumps, puts away and gives the lowest cards (non-trumps first), leads its highest card and follows with the lowest
that takes the trick so far, else its lowest; Kings in the Corner makes the first legal move of the kind it teaches
first (a King to a corner, a build, a pile moved, a side filled, then the end of the turn).
"""

from __future__ import annotations

from typing import Any

from engine.service.tables import TableService

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("hearts", "diamonds", "clubs", "spades")
CORNERS = {"NE", "NW", "SE", "SW"}
KINGS_PREFERENCE = ("place_king", "build", "move_king_pile", "move_pile", "fill_side", "end_turn")
PERSON = 501


def rank(card: str) -> int:
    return RANKS.index(card.split("-")[0])


def suit(card: str) -> str:
    return card.split("-")[1]


def cheapest(cards: list[str], trump: str | None, n: int) -> list[str]:
    return sorted(cards, key=lambda c: (suit(c) == trump, rank(c)))[:n]


def takes(plays: list[tuple[int, str]], trump: str | None) -> int:
    """The seat whose card takes the trick so far (sergeant_major/RULES.md §3.2)."""
    led = suit(plays[0][1])
    return max(plays, key=lambda p: (100 if suit(p[1]) == trump else 0 if suit(p[1]) == led else -100) + rank(p[1]))[0]


def sergeant_major_advice(s: dict[str, Any]) -> dict[str, Any]:
    if s["phase"] == "trump":
        weight = {x: sum(20 + rank(c) for c in s["hand"] if suit(c) == x) for x in SUITS}
        return {"type": "name_trump", "suit": max(SUITS, key=lambda x: weight[x])}
    choice = s["choose"]
    if choice is not None:
        trump = s["trump"] if choice["type"] == "discard" else None
        return {"type": choice["type"], "cards": cheapest(choice["from"], trump, choice["count"])}
    cards = sorted(s["legal"], key=rank)
    if not s["trick"]:
        return {"type": "play", "card": cards[-1]}
    trick = [(p["seat"], p["card"]) for p in s["trick"]]
    card = next((c for c in cards if takes([*trick, (s["seat"], c)], s["trump"]) == s["seat"]), cards[0])
    return {"type": "play", "card": card}


def kings_advice(s: dict[str, Any]) -> dict[str, Any]:
    return next(dict(a) for kind in KINGS_PREFERENCE for a in s["legal"] if a["type"] == kind)


async def play_lesson(service: TableService, game: str, advice: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The lesson played to its end by the advice: the person's views when they acted, and the last view."""
    info = await service.start_lesson(game, PERSON, "Newcomer")
    seen: list[dict[str, Any]] = []
    for _ in range(2000):
        await service.idle()
        snapshot = service.snapshot(info.id)
        assert snapshot is not None
        state = snapshot.view(0)["state"]
        if snapshot.info.status == "finished":
            assert snapshot.info.lesson
            return seen, state
        seen.append({**state, "acted": advice(state)})
        await service.act(info.id, PERSON, seen[-1]["acted"], snapshot.info.seq)
    raise AssertionError("the lesson did not end")


async def test_sergeant_major_lesson_is_won_within_its_first_hand(service: TableService) -> None:
    seen, last = await play_lesson(service, "sergeant_major", sergeant_major_advice)
    assert last["over"] and last["hand_no"] == 1 and last["winners"] == [0], last
    acted = [s["acted"]["type"] for s in seen]
    assert acted[:2] == ["name_trump", "discard"]  # the person deals: trumps and the kitty
    # about two minutes: at most 25 taps (each card put away is one, and its confirmation another)
    taps = sum(len(s["acted"].get("cards", [])) + 1 if "cards" in s["acted"] else 1 for s in seen)
    assert taps <= 22, taps


async def test_kings_lesson_is_short_and_shows_each_kind_of_move(service: TableService) -> None:
    seen, last = await play_lesson(service, "kings_corner", kings_advice)
    assert last["over"]
    acted = [s["acted"] for s in seen]
    assert acted[0]["type"] == "place_king"  # a King to a corner first: the coach's first lesson
    kinds = {a["type"] for a in acted}
    assert {"build", "fill_side", "end_turn"} <= kinds and kinds & {"move_pile", "move_king_pile"}, kinds
    assert any(s["acted"]["type"] == "end_turn" and s["stock"] > 0 for s in seen)  # a turn ended with a draw
    # about two minutes: at most 25 taps (a card and its pile are two, ending a turn one)
    taps = sum(1 if a["type"] == "end_turn" else 2 for a in acted)
    assert taps <= 24, taps

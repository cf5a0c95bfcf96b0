"""The deal of the day's decisions, pure: its day, seed, hash and close; marks; matchpoints; standings; streaks.

Each game has one deal a UTC day. Its seed is ``HMAC-SHA256(secret, f"{game}:{date}")`` in hex, so only a server
that holds the secret knows it before the day closes; the day opens with ``sha256(seed)`` published (the same
commitment every table publishes, ``engine.core.rng.seed_hash``) and the seed is shown once the day is over.

Everyone who played a game's deal held the same cards in the same seat against the same AI players, so results are
compared duplicate-style, as bridge's matchpoints: a result scores the share of the rest of the field it beat or tied
(a field of one scores 100 %). Nothing here reads a clock or the environment.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from engine.core.rng import seed_hash

DAY = 24 * 3600

# How each game's deal of the day is set: the person in seat 0, strong AI players in the others. Coins and
# Sergeant Major are scored on their first hand (the table stops there); Kings in the Corner is one deal for two,
# which its default scoring (first out) ends.
DAILY_OPTIONS: dict[str, dict[str, Any]] = {
    "coins": {"ai_level": "strong"},
    "sergeant_major": {"ai_level": "strong"},
    "kings_corner": {"players": 2, "ai_level": "strong"},
}
STOP_AFTER_HAND: dict[str, int | None] = {"coins": 1, "sergeant_major": 1, "kings_corner": None}
SEAT = 0  # the person's seat at every deal of the day
FORFEIT = -1000  # a deal given up (cancelled) or finished after its day closed: below any result played in time


def day_of(when: float) -> date:
    """The UTC day of a time."""
    return datetime.fromtimestamp(when, UTC).date()


def opens_at(day: date) -> float:
    """When ``day`` opens (its UTC midnight)."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def closes_at(day: date) -> float:
    """When ``day``'s deal closes: the next UTC midnight."""
    return opens_at(day) + DAY


def is_closed(day: date, now: float) -> bool:
    """Whether ``day``'s deal is over at ``now`` (its seed may be shown)."""
    return now >= closes_at(day)


def counted(mark: int, day: date, at: float) -> int:
    """The result kept for a deal of ``day`` finished at ``at``: as played before the day closes, else a forfeit (the
    day's seed is shown at the close, so a deal still being played then could be finished knowing every hand)."""
    return mark if at < closes_at(day) else FORFEIT


def parse_day(text: str) -> date | None:
    """A ``YYYY-MM-DD`` date, or None when ``text`` is not one."""
    if len(text) != 10:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def daily_seed(secret: bytes, game: str, day: date) -> str:
    """The seed of ``game``'s deal on ``day``: HMAC-SHA256(secret, "<game>:<YYYY-MM-DD>") in hex."""
    return hmac.new(secret, f"{game}:{day.isoformat()}".encode(), hashlib.sha256).hexdigest()


def daily_hash(secret: bytes, game: str, day: date) -> str:
    """The published commitment to the day's seed: SHA-256 of the seed (as every table publishes its seed's)."""
    return seed_hash(daily_seed(secret, game, day))


def mark_of(game: str, events: Sequence[Mapping[str, Any]], seat: int = SEAT,
            public: Mapping[str, Any] | None = None) -> int | None:
    """The seat's result for comparison (higher is better) if these events end what the day scores, else None.

    Coins: the points taken in the first hand (or when the game ended in it). Sergeant Major: the first hand's
    result (tricks over or under target; a game a trick count ended mid-hand, from the table's ``public`` view).
    Kings in the Corner: minus the cards left when the deal ended.
    """
    for event in events:
        kind = event.get("type")
        if game == "kings_corner" and kind == "finished":
            return -int(event["scores"][seat])
        if game == "coins" and kind in ("hand_over", "finished") and event.get("hand_no", 1) == 1:
            return int(event["scores"][seat])
        if game == "sergeant_major" and kind == "hand_over" and event.get("hand_no") == 1:
            return int(event["results"][seat])
        if game == "sergeant_major" and kind == "finished":  # §3.2: a trick count ends the game at once, mid-hand
            if public is not None and "tricks" in public and "targets" in public:
                return int(public["tricks"][seat]) - int(public["targets"][seat])
            return int(event["scores"][seat])
    return None


def mark_from_sheet(game: str, sheet: Sequence[Mapping[str, Any]], seat: int = SEAT) -> int | None:
    """The seat's result from a table's score sheet (its public view's rows per hand), once the first hand is done:
    Coins' points, Sergeant Major's result; None before, and for Kings in the Corner (scored at its end)."""
    field = {"coins": "points", "sergeant_major": "results"}.get(game)
    for row in sheet:
        if field is not None and row.get("hand_no") == 1 and row.get("done") and field in row:
            return int(row[field][seat])
    return None


def matchpoints(mine: int, field: Sequence[int]) -> float:
    """The share of the others in ``field`` (which holds ``mine`` once) that ``mine`` beat or tied; 1.0 alone."""
    others = len(field) - 1
    if others <= 0:
        return 1.0
    at_or_below = sum(1 for other in field if other <= mine) - 1  # less this result itself
    return at_or_below / others


def percent(share: float) -> int:
    """A share of the field as a whole percentage (rounded down, so 100 % is only the best or tied best)."""
    return int(share * 100 + 1e-9)


@dataclass(frozen=True, slots=True)
class Entry:
    """One person's finished deal of the day."""

    user_id: int
    name: str
    mark: int
    finished_at: float
    table_id: str = ""


@dataclass(frozen=True, slots=True)
class Standing:
    """One place in a day's standings."""

    place: int
    user_id: int
    name: str
    mark: int
    share: float
    table_id: str = ""  # shown only once the day has closed (its replay is open then)

    @property
    def percent(self) -> int:
        """The share of the field as a whole percentage."""
        return percent(self.share)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"place": self.place, "user_id": self.user_id, "name": self.name, "mark": self.mark,
                "share": self.share, "percent": self.percent}


def standings(entries: Iterable[Entry]) -> list[Standing]:
    """The field ranked by share (then by who finished first); tied shares share a place."""
    done = list(entries)
    field = [e.mark for e in done]
    scored = sorted(((matchpoints(e.mark, field), e) for e in done), key=lambda p: (-p[0], p[1].finished_at,
                                                                                      p[1].user_id))
    out: list[Standing] = []
    for i, (share, e) in enumerate(scored):
        place = out[-1].place if out and out[-1].share == share else i + 1
        out.append(Standing(place, e.user_id, e.name, e.mark, share, e.table_id))
    return out


def mine_first(rows: Sequence[Standing], user_id: int) -> list[Standing]:
    """The standings with the asker's own place first, then everyone in order."""
    return [r for r in rows if r.user_id == user_id] + [r for r in rows if r.user_id != user_id]


def streak(days: Iterable[date], today: date) -> int:
    """Days in a row ending today (or yesterday, while today is still open to play) on which a deal was played."""
    played = set(days)
    day = today if today in played else today - timedelta(days=1)
    count = 0
    while day in played:
        count += 1
        day -= timedelta(days=1)
    return count


def result_line(title: str, day: date, share: float, streak_days: int) -> str:
    """The shareable line of a finished deal (no card in it): "Cardroom · Coins · 2026-12-02 · 73% · 🔥3"."""
    return f"Cardroom · {title} · {day.isoformat()} · {percent(share)}% · 🔥{streak_days}"

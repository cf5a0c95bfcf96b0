"""One update's frame text for each seat, with what every seat shares encoded once.

Every socket at a table gets the same update in its seat's form. The table's summary, the
game's public half and the public events are the same for all of them, so each is encoded
once; a seat's frame is joined from those texts and its own parts (its hand and moves, the
private events it may see). The text of each seat parses to exactly
``update_frame(seq, kind, for_seat(events, seat), public.view(snapshot, seat, table), watching)``;
only the order of keys inside the game's view differs (the seat's own keys come last).
"""

from __future__ import annotations

from typing import Any

from engine.core.events import for_seat
from engine.service.bus import Update
from webapp.protocol import encode
from webapp.public import PublicTables

SEAT = "seat"  # the one key both halves of a game's view carry: the public half's None, the seat's own number


class UpdateTexts:
    """The frame texts of one update, built for each seat when first asked."""

    def __init__(self, update: Update, public: PublicTables, watching: int) -> None:
        self._update = update
        self._public = public
        self._head = f'{{"type":"update","seq":{update.seq},"kind":{encode(update.kind)},"events":'
        self._tail = f',"watching":{watching}}}'
        self._table: str | None = None
        self._events: dict[int, str] = {}  # id of an event's form -> its text
        self._game_public: dict[str, Any] | None = None
        self._shared: str | None = None  # the public half without its seat key, as text
        self._same_events = all(e.to is None for e in update.events)  # every seat sees the events alike
        self._opening: str | None = None  # the frame up to the seat's number, when it is the same for every seat

    def text(self, seat: int | None) -> str:
        """The frame for ``seat`` (None: a spectator)."""
        you = "null" if seat is None else str(seat)
        return f'{self._opening_for(seat)}{you},"state":{self._state(seat)}}}{self._tail}'

    def _opening_for(self, seat: int | None) -> str:
        """The frame up to the seat's number: built once when every event is public (most moves)."""
        if self._opening is not None:
            return self._opening
        events = ",".join([self._event(e) for e in for_seat(self._update.events, seat)])
        opening = f'{self._head}[{events}],"view":{{"table":{self._table_text()},"seq":{self._update.seq},"you":'
        if self._same_events:
            self._opening = opening
        return opening

    def _table_text(self) -> str:
        if self._table is None:
            self._table = encode(self._public.table(self._update.snapshot.info))
        return self._table

    def _event(self, event: dict[str, Any]) -> str:
        found = self._events.get(id(event))
        if found is None:  # the same public event reaches every seat as the same object: encoded once
            found = self._events[id(event)] = encode(event)
        return found

    def _state(self, seat: int | None) -> str:
        snapshot = self._update.snapshot
        if snapshot.state is None:
            return "null"
        public = self._game_public
        if public is None:
            public = self._game_public = snapshot.public_state() or {}
        if seat is None:
            return encode(public)
        own = snapshot.game.own_view(snapshot.state, seat)
        if own.keys() & public.keys() != ({SEAT} if SEAT in public else set()):
            # a game whose own half overrides more, or leaves the seat key to the public half: joined whole
            return encode({**public, **own})
        if self._shared is None:
            shared = dict(public)  # a copy and one deletion: the view has a score of keys
            shared.pop(SEAT, None)
            self._shared = encode(shared)
        mine = encode(own)
        if mine == "{}":
            return self._shared
        if self._shared == "{}":
            return mine
        return self._shared[:-1] + "," + mine[1:]

"""Table ids: short, random, URL-safe, and never read as another of the Mini App's start parameters.

Telegram hands the Mini App one start parameter (``A-Za-z0-9_-``, up to 64 characters). The page reads
``r_<id>`` as a finished game's replay and anything else as a table, so a table whose id began with the
replay's prefix would first be looked up as a replay (a request that fails, seen by the person's page
as an error) before it opened. No table is given such an id.
"""

from __future__ import annotations

import secrets

REPLAY_PREFIX = "r_"  # a start parameter that opens the replay of the table named after it
ID_BYTES = 6  # eight URL-safe characters


def new_table_id() -> str:
    """A fresh table id that no start parameter of another kind can be mistaken for."""
    while True:
        candidate = secrets.token_urlsafe(ID_BYTES)
        if not candidate.startswith(REPLAY_PREFIX):
            return candidate

"""JSON text as the store keeps it (a move, a table's options, meta and result): orjson, compact.

orjson writes the same JSON as the standard library's ``json.dumps`` at a tenth of the
time, without the spaces; it refuses what is not JSON (a set, an object, an integer past
64 bits) with a ``TypeError``, as ``json.dumps`` does. Keys that are numbers are written
as strings, as ``json.dumps`` writes them.
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def json_bytes(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON; raises TypeError when it is not JSON."""
    return orjson.dumps(value, option=_OPTIONS)


def json_text(value: Any) -> str:
    """``value`` as compact JSON text; raises TypeError when it is not JSON."""
    return orjson.dumps(value, option=_OPTIONS).decode()

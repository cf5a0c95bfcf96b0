"""People's names as they come in: cleaned once, so every place that shows one can trust it.

A name from Telegram (or a local sign-in) may hold anything Unicode allows: NUL, line breaks,
bidirectional overrides that would reverse whatever is written after it, or nothing readable at
all. ``clean_name`` keeps the letters, marks, digits, punctuation, symbols and single spaces, and
drops every control and format character (bidi overrides and isolates among them; the zero-width
joiner stays, emoji are built with it). Where a name is shown beside other text it is still
wrapped in a bidi isolate by whoever shows it; this only makes sure it cannot break out.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 64
_KEEP_FORMAT = {"\u200d"}  # zero-width joiner: part of many emoji


def clean_name(raw: str, fallback: str = "") -> str:
    """``raw`` without control or format characters, whitespace collapsed, cut to ``MAX_NAME`` (else ``fallback``)."""
    kept = []
    for char in raw:
        category = unicodedata.category(char)
        if char.isspace():
            kept.append(" ")
        elif category in ("Cc", "Cs", "Co", "Cn") or (category == "Cf" and char not in _KEEP_FORMAT):
            continue
        else:
            kept.append(char)
    name = " ".join("".join(kept).split())[:MAX_NAME].strip()
    return name or fallback

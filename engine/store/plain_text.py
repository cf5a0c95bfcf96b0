"""Text a person or a chat supplies, as the store writes it: without U+0000, which PostgreSQL's text refuses.

Names are cleaned by the service before they get here, but the store must never fail on
text: PostgreSQL refuses a NUL in a text value (``invalid byte sequence ... 0x00``) and the
write fails with it. SQLite would take it; it is dropped there too, so both keep the same.
"""

from __future__ import annotations


def plain_text(value: str) -> str:
    """``value`` without any NUL character."""
    return value.replace("\x00", "")


def plain_text_or_none(value: str | None) -> str | None:
    """``value`` without any NUL character, or None."""
    return None if value is None else value.replace("\x00", "")

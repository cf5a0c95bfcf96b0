"""Whether an error means the database cannot be reached just now: the adapters' question, answered by the store.

Such an error is not a bug: the same request may work a moment later. An adapter asks here to
tell people so in words (``unavailable``) rather than report a failure; it never asks the store.
"""

from __future__ import annotations

from engine.store.reach import is_unreachable

__all__ = ["is_unreachable"]

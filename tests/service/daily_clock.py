"""The test clock of the deal of the day: noon (UTC) of the real day, so the service's day is the wall clock's.

A deal of the day's table keeps its seed sealed until its day closes by the wall clock (a table's view is built
with no clock of its own); a service clock on the same day agrees with it until the test moves past the close.
"""

from __future__ import annotations

import time
from datetime import date

from engine.service.daily_rules import DAY, day_of


def today_noon() -> float:
    """Noon (UTC) of today."""
    now = time.time()
    return now - now % DAY + DAY / 2


def today() -> date:
    """Today (UTC)."""
    return day_of(today_noon())

"""Fixtures for the fake Bot API's own tests."""

import pytest

from tests.fakes.fixtures import botapi, ptb_timedelta

__all__ = ["botapi", "ptb_timedelta"]


@pytest.fixture(autouse=True)
def _timedelta_periods(ptb_timedelta: None) -> None:
    """Every test here may meet a RetryAfter."""

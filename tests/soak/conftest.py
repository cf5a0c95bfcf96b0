"""Fixtures of the real-process tests."""

from tests.postgres import database as database

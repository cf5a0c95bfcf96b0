"""Shared fixtures: settings for a temp data dir, a SQLite store there, and a started table service."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.config import Settings
from engine.service.tables import TableService
from engine.store.database import Store, database_url


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Local-mode settings (no bot token) with data in a temp dir and no AI think delay."""
    return Settings(data_dir=tmp_path, ai_delay=0.0)


@pytest.fixture
async def store(settings: Settings) -> AsyncIterator[Store]:
    """An open SQLite store in the temp data dir."""
    opened = Store(database_url(None, settings.data_dir))
    await opened.open()
    yield opened
    await opened.close()


@pytest.fixture
async def service(store: Store) -> AsyncIterator[TableService]:
    """A started table service over ``store``."""
    started = TableService(store, ai_delay=0.0)
    await started.start()
    yield started
    await started.close()

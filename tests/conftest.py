"""Shared fixtures: settings for a temp data dir, a store there, and the one started table service fixture.

Folders mark their tests by kind (``browser``), so ``pytest -m "not browser and not slow"``
runs the fast suite in seconds (``make test-fast``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.config import Settings
from engine.service.tables import TableService
from engine.store.database import Store, database_url

FOLDER_MARKS = {"browser": "browser", "soak": "soak"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test by the folder it lives in (tests/browser -> browser)."""
    for item in items:
        folder = item.path.parent.name
        if folder in FOLDER_MARKS:
            item.add_marker(FOLDER_MARKS[folder])


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
    """A started table service over ``store``, with no AI think delay and no supervisor rounds."""
    started = TableService(store, ai_delay=0.0, heal_every=None)
    await started.start()
    yield started
    await started.close()

"""The one place a process builds its table service: the store opened from the settings, and the service over it.

Adapters (the web process, the bot mounted in it) are handed the running service and never
see the store: ``running_service`` opens the store, starts the service, and on leaving closes
them in the opposite order (the service first, so nothing is written to a closed store).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from engine.config import Settings
from engine.service.loading import peers_for
from engine.service.opening_pace import OpeningPace
from engine.service.tables import TableService
from engine.store.database import Store, database_url


@asynccontextmanager
async def running_service(settings: Settings) -> AsyncIterator[TableService]:
    """The table service of ``settings``'s database, started; stopped, then its store closed, on leaving."""
    store = Store(database_url(settings.database_url, settings.data_dir), settings.commit_delay)
    await store.open()
    try:
        pace = OpeningPace(settings.new_tables_rate, settings.new_tables_burst) if settings.new_tables_rate else None
        service = TableService(store, ai_delay=settings.ai_delay, max_open_tables=settings.max_open_tables_per_user,
                               opening_pace=pace, peers=peers_for(store, settings.process_url),
                               daily_secret=settings.daily_secret)
        await service.start()
        try:
            yield service
        finally:
            await service.close()
    finally:
        await store.close()

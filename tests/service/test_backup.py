"""``cardroom backup`` while twenty tables play, and ``cardroom restore`` into a fresh directory that plays on."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.errors import Refusal
from engine.service.kinds import TableStatus
from engine.service.tables import TableService
from engine.store.backup import BackupError, backup, restore
from engine.store.database import Store, database_url
from engine.store.rows import LoggedAction

PEOPLE = 20


@asynccontextmanager
async def running(data_dir: Path) -> AsyncIterator[TableService]:
    """A started table service over the SQLite database in ``data_dir``."""
    store = Store(database_url(None, data_dir))
    await store.open()
    service = TableService(store, ai_delay=0.0, heal_every=None)
    await service.start()
    try:
        yield service
    finally:
        await service.close()
        await store.close()


async def play(service: TableService, table_id: str, user_id: int, acked: list[tuple[float, int]],
               stop: asyncio.Event) -> None:
    """Make the person's moves at one table until told to stop; note when each was acknowledged, and its seq."""
    while not stop.is_set():
        table = service.live(table_id)
        assert table is not None
        if table.row.status != TableStatus.PLAYING:
            return
        if 0 not in table.to_act():
            await asyncio.sleep(0.001)  # the AI seats' turn
            continue
        action = table.game.legal_actions(table.state, 0)[0]
        try:
            result = await service.act(table_id, user_id, action, table.seq)
        except Refusal:
            continue
        acked.append((time.monotonic(), result.seq))


async def logs(store: Store, ids: list[str]) -> dict[str, list[LoggedAction]]:
    return {table_id: await store.tables.load_actions(table_id) for table_id in ids}


async def test_a_backup_while_twenty_tables_play_restores_every_acknowledged_move_and_plays_on(tmp_path: Path) -> None:
    acked: dict[str, list[tuple[float, int]]] = {}
    copy = tmp_path / "backups" / "cardroom-1.db"
    async with running(tmp_path / "live") as service:
        ids = [(await service.play_now("coins", 100 + i, f"P{i}", {"target_score": 99})).id for i in range(PEOPLE)]
        stop = asyncio.Event()
        players = [asyncio.create_task(play(service, tid, 100 + i, acked.setdefault(tid, []), stop))
                   for i, tid in enumerate(ids)]
        await asyncio.sleep(0.3)
        started = time.monotonic()
        copied = await asyncio.to_thread(backup, tmp_path / "live" / "cardroom.db", copy)  # the loop plays on
        finished = time.monotonic()
        await asyncio.sleep(0.3)
        stop.set()
        await asyncio.gather(*players)
        await service.autoplay.idle()
        source = await logs(service.store, ids)
    before = {tid: max((seq for at, seq in moves if at < started), default=0) for tid, moves in acked.items()}
    assert sum(1 for moves in acked.values() for at, _seq in moves if at > finished) > 0, "play went on after it"
    assert min(before.values()) > 0, "every table had moves acknowledged before the backup"

    fresh = tmp_path / "fresh"
    restored = restore(copy, fresh / "cardroom.db")
    assert (restored.tables, restored.moves) == (copied.tables, copied.moves) == (PEOPLE, copied.moves)
    store = Store(database_url(None, fresh))
    await store.open()
    kept = await logs(store, ids)
    await store.close()
    for tid in ids:
        # the table's log at the backup's moment: a prefix of the source's, with every move acknowledged before
        assert kept[tid] == source[tid][:len(kept[tid])] and len(kept[tid]) >= before[tid]
    assert sum(len(log) for log in kept.values()) == copied.moves < sum(len(log) for log in source.values())
    async with running(fresh) as again:
        for i, tid in enumerate(ids):  # the restored database plays on, its AI seats first where they were to act
            assert (await again.info(tid)).seq >= len(kept[tid])
            await again.autoplay.idle()
            table = again.live(tid)
            assert table is not None and table.to_act() == {0}
            result = await again.act(tid, 100 + i, table.game.legal_actions(table.state, 0)[0], table.seq)
            assert result.seq > len(kept[tid])
            assert result.seq in [a.seq for a in await again.store.tables.load_actions(tid)]


async def test_restore_refuses_a_database_in_use_unless_forced_and_the_commands_say_what_they_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    async with running(tmp_path / "one") as service:
        await service.play_now("coins", 1, "Ann")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "one"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    (tmp_path / "saved").mkdir()
    assert main(["backup", str(tmp_path / "saved")]) == 0  # a folder: the copy is saved/cardroom.db
    assert "1 tables" in capsys.readouterr().out
    async with running(tmp_path / "two") as service:
        await service.play_now("kings_corner", 2, "Bob")
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "two"))
    assert main(["restore", str(tmp_path / "saved" / "cardroom.db")]) == 1
    assert "--force" in capsys.readouterr().err
    with pytest.raises(BackupError, match="no backup here"):
        restore(tmp_path / "nothing.db", tmp_path / "two" / "cardroom.db")
    assert main(["restore", "--force", str(tmp_path / "saved" / "cardroom.db")]) == 0
    async with running(tmp_path / "two") as service:
        games = [row.game for row in await service.store.tables.unfinished_tables()]
    assert games == ["coins"]  # Ann's game, no longer Bob's
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "missing"))
    assert main(["backup", str(tmp_path / "none.db")]) == 1
    assert "no database here" in capsys.readouterr().err and not (tmp_path / "missing").exists()
    monkeypatch.setenv("DATABASE_URL", "postgresql://cardroom@db.example/cardroom")
    assert main(["backup", str(tmp_path / "pg.db")]) == 2
    assert "pg_dump" in capsys.readouterr().err

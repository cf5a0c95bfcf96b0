"""A database made before the ratings migration upgrades with its games intact."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import create_async_engine

from engine import games
from engine.service import ratings
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from engine.store.migrating import HEAD, MIGRATIONS, migrate
from tests.postgres import fresh_database
from tests.service.conftest import BACKENDS
from tests.service.helpers import ANN, BOB, service_over

BEFORE_RATINGS = "0003"  # the revision 0004_ratings upgrades from
AT = 1_700_000_000.0
PEOPLE = ((ANN, "Ann"), (BOB, "Bob"))

# The tables as revision 0003 had them (0001, plus tables.ai_turn from 0002 and tables.version from 0003).
OLD_USERS = sa.table("users", *(sa.column(c) for c in ("id", "name", "notify", "can_message", "created_at")))
OLD_TABLES = sa.table("tables", *(sa.column(c) for c in (
    "id", "game", "options", "size", "status", "host_user_id", "chat_id", "seed", "seed_hash", "timer", "deadline",
    "meta", "result", "created_at", "updated_at", "ai_turn", "version")))
OLD_SEATS = sa.table("seats", *(sa.column(c) for c in (
    "table_id", "seat", "user_id", "name", "is_ai", "ai_level", "autopilot", "missed")))
OLD_RESULTS = sa.table("results", *(sa.column(c) for c in (
    "table_id", "seat", "user_id", "name", "game", "chat_id", "placement", "score", "finished_at")))
OLD_ACTIONS = sa.table("actions", *(sa.column(c) for c in ("table_id", "seq", "seat", "action", "auto", "created_at")))


@dataclass(frozen=True)
class OldGame:
    """A game as an older version stored it: Ann and Bob against an AI, played to the end or ``moves`` moves."""

    table_id: str
    game: str
    options: dict[str, Any]
    log: list[tuple[int, dict[str, Any]]]
    result: dict[str, Any] | None

    @classmethod
    def play(cls, table_id: str, game_name: str, options: dict[str, Any], moves: int | None = None) -> OldGame:
        """Each seat plays its first legal action, as the rules list them."""
        game = games.get(game_name)
        state = game.new_game(game.parse_options(options), 3, table_id)
        log: list[tuple[int, dict[str, Any]]] = []
        while game.outcome(state) is None and (moves is None or len(log) < moves):
            seat = min(game.to_act(state))
            action = dict(game.legal_actions(state, seat)[0])
            state, _ = game.apply(state, seat, action)
            log.append((seat, action))
        outcome = game.outcome(state)
        return cls(table_id, game_name, options, log, outcome.as_dict() if outcome else None)

    def rows(self, chat_id: int) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        """Its table row, seat rows and log rows as revision 0003 stored them."""
        table = {
            "id": self.table_id, "game": self.game, "options": json.dumps(self.options), "size": 3,
            "status": "finished" if self.result else "playing", "host_user_id": ANN, "chat_id": chat_id,
            "seed": self.table_id, "seed_hash": hashlib.sha256(self.table_id.encode()).hexdigest(), "timer": "none",
            "deadline": None, "meta": "{}", "result": json.dumps(self.result) if self.result else None,
            "created_at": AT, "updated_at": AT + len(self.log), "ai_turn": False, "version": len(self.log) + 2}
        seats = [{"table_id": self.table_id, "seat": i, "user_id": user, "name": name, "is_ai": False,
                  "ai_level": "easy", "autopilot": False, "missed": 0} for i, (user, name) in enumerate(PEOPLE)]
        seats.append({"table_id": self.table_id, "seat": 2, "user_id": None, "name": "Ada (AI)", "is_ai": True,
                      "ai_level": "strong", "autopilot": False, "missed": 0})
        log = [{"table_id": self.table_id, "seq": seq, "seat": seat, "action": json.dumps(action), "auto": False,
                "created_at": AT + seq} for seq, (seat, action) in enumerate(self.log, 1)]
        return table, seats, log


OLD_GAMES = (
    OldGame.play("oldcoins1", "coins", {"target_score": 1}),
    OldGame.play("oldsergeant1", "sergeant_major", {}, moves=40),  # still being played
    OldGame.play("oldcoins2", "coins", {"target_score": 1}, moves=7),  # still being played
)


@pytest.fixture(params=BACKENDS)
async def old_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A database at revision 0003 holding OLD_GAMES, on each backend."""
    if request.param == "sqlite":
        url = database_url(None, tmp_path)
        await _fill_old(url)
        yield url
        return
    async with fresh_database("cardroom_migrate") as server_url:
        url = database_url(server_url, tmp_path)
        await _fill_old(url)
        yield url


async def _fill_old(url: str, revision: str = BEFORE_RATINGS, results: bool = False) -> None:
    """Build the schema up to ``revision`` and store OLD_GAMES as it would have (with their results, if asked)."""
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(migrate, revision)
            await conn.execute(sa.insert(OLD_USERS), [
                {"id": user, "name": name, "notify": True, "can_message": True, "created_at": AT}
                for user, name in PEOPLE])
            for old in OLD_GAMES:
                table, seats, log = old.rows(chat_id=-500)
                await conn.execute(sa.insert(OLD_TABLES), [table])
                await conn.execute(sa.insert(OLD_SEATS), seats)
                await conn.execute(sa.insert(OLD_ACTIONS), log)
                if results and old.result:
                    await conn.execute(sa.insert(OLD_RESULTS), [
                        {"table_id": old.table_id, "seat": seat, "user_id": user, "name": "", "game": old.game,
                         "chat_id": -500, "placement": old.result["placements"][seat], "score": 0, "finished_at": AT}
                        for seat, user in enumerate((ANN, BOB, None))])
            found = await conn.execute(sa.text("SELECT version_num FROM alembic_version"))
            assert found.scalar_one() == revision
    finally:
        await engine.dispose()


@pytest.fixture
async def upgraded(old_database: str) -> AsyncIterator[TableService]:
    """The old database opened by this version (which upgrades it to the latest revision), with its service."""
    async with service_over(old_database) as service:
        yield service


async def test_an_upgrade_from_before_the_ratings_keeps_every_table_seat_and_move(upgraded: TableService) -> None:
    store = upgraded.store
    async with store.writer.engine.connect() as conn:
        names = await conn.run_sync(lambda sync: set(sa.inspect(sync).get_table_names()))
        head = (await conn.execute(sa.text("SELECT version_num FROM alembic_version"))).scalar_one()
    assert {"results", "ratings", "tables", "seats", "actions", "users"} <= names
    assert head == HEAD
    for old in OLD_GAMES:
        row = await store.tables.load_table(old.table_id)
        assert row is not None
        assert (row.game, row.options, row.status, row.result, row.chat_id) == (
            old.game, old.options, "finished" if old.result else "playing", old.result, -500)
        assert [(s.seat, s.user_id, s.name, s.is_ai, s.ai_level) for s in row.seats] == [
            (0, ANN, "Ann", False, "easy"), (1, BOB, "Bob", False, "easy"), (2, None, "Ada (AI)", True, "strong")]
        assert [(a.seq, a.seat, a.action) for a in await store.tables.load_actions(old.table_id)] == [
            (seq, seat, action) for seq, (seat, action) in enumerate(old.log, 1)]


async def test_after_the_upgrade_a_running_game_goes_on_and_a_finished_one_replays(upgraded: TableService) -> None:
    running = OLD_GAMES[2]
    await upgraded.view(running.table_id, ANN)  # loads the table (and lets an AI on turn move)
    await upgraded.autoplay.idle()
    info = await upgraded.info(running.table_id)
    assert info.status == "playing" and info.seq >= len(running.log)
    user = (ANN, BOB, None)[info.to_act[0]]
    assert user is not None
    view = await upgraded.view(running.table_id, user)
    await upgraded.act(running.table_id, user, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
    assert (await upgraded.info(running.table_id)).seq > view["seq"]
    replay = await upgraded.record.replay(OLD_GAMES[0].table_id)
    assert replay["moves"] == len(OLD_GAMES[0].log) and replay["result"] == OLD_GAMES[0].result


async def test_a_rebuild_puts_the_games_finished_before_the_record_on_it(upgraded: TableService) -> None:
    finished = OLD_GAMES[0]
    assert finished.result is not None
    assert await upgraded.record.history(ANN) == [] and await upgraded.store.records.ratings_of("coins") == {}
    counted = await upgraded.record.rebuild()
    assert counted == {"coins": 1}  # the games still being played are not on record
    [game] = await upgraded.record.history(ANN)
    assert (game["table_id"], game["chat_id"], game["finished_at"]) == (finished.table_id, -500, AT + len(finished.log))
    assert [(s["name"], s["placement"], s["score"]) for s in game["seats"]] == [
        (name, place, score) for name, place, score in zip(
            ("Ann", "Bob", "Ada (AI)"), finished.result["placements"], finished.result["scores"], strict=True)]
    expected = ratings.rate([(ANN, "easy"), (BOB, "easy"), (None, "strong")], finished.result["placements"], {})
    stored = await upgraded.store.records.ratings_of("coins")
    for user in (ANN, BOB):
        assert stored[user][:2] == pytest.approx(expected[user])
    assert {entry["user_id"] for entry in await upgraded.record.leaderboard(-500, "coins")} == {ANN, BOB}
    assert await upgraded.record.backfill() == 0  # on record once


async def test_the_standings_migration_totals_the_results_already_on_record(tmp_path: Path) -> None:
    url = database_url(None, tmp_path)
    await _fill_old(url, "0007", results=True)  # the revision before the standings
    store = Store(url)
    await store.open()
    try:
        await store.records.replace_ratings("coins", {ANN: (25.0, 8.0, 1, 0), BOB: (25.0, 8.0, 1, 0)}, AT)
        board = {e["user_id"]: (e["games"], e["wins"]) for e in await store.records.leaderboard(-500, "coins")}
    finally:
        await store.close()
    placements = OLD_GAMES[0].result["placements"] if OLD_GAMES[0].result else []
    assert board == {ANN: (1, int(placements[0] == 1)), BOB: (1, int(placements[1] == 1))}


@pytest.mark.parametrize("backend", BACKENDS)
async def test_results_from_before_the_rating_changes_get_theirs_from_a_rebuild(backend: str, tmp_path: Path) -> None:
    """Revision 0014 adds each person's rating before and after a game, empty for the games on record before it."""
    async def check(url: str) -> None:
        await _fill_old(url, "0013", results=True)  # the revision before the rating changes
        finished = OLD_GAMES[0]
        assert finished.result is not None
        async with service_over(url) as service:
            assert await service.record.rating_changes(finished.table_id) == []
            await service.record.rebuild()
            changes = await service.record.rating_changes(finished.table_id)
        after = ratings.rate([(ANN, "easy"), (BOB, "easy"), (None, "strong")], finished.result["placements"], {})
        shown = {uid: round(1500 + 30 * (mu - 25)) for uid, (mu, _) in after.items()}  # rating_scale's formula
        assert changes == [{"seat": 0, "before": 1500, "after": shown[ANN], "change": shown[ANN] - 1500,
                            "provisional": True},
                           {"seat": 1, "before": 1500, "after": shown[BOB], "change": shown[BOB] - 1500,
                            "provisional": True}]

    if backend == "sqlite":
        await check(database_url(None, tmp_path))
        return
    async with fresh_database("cardroom_changes") as server_url:
        await check(database_url(server_url, tmp_path))


async def test_on_sqlite_the_upgraded_log_is_kept_in_its_keys_order_and_a_downgrade_keeps_every_move(
    tmp_path: Path,
) -> None:
    """Revision 0009 rebuilds the SQLite log without row ids (one page a move); going back rebuilds it with them."""
    url = database_url(None, tmp_path)
    await _fill_old(url, "0008")
    engine = create_async_engine(url)

    async def layout() -> tuple[str, list[tuple[Any, ...]]]:
        async with engine.connect() as conn:
            sql = (await conn.execute(sa.text("SELECT sql FROM sqlite_master WHERE name = 'actions'"))).scalar_one()
            rows = (await conn.execute(sa.text("SELECT * FROM actions ORDER BY table_id, seq"))).all()
        return sql, [tuple(row) for row in rows]

    try:
        before, moves = await layout()
        async with engine.begin() as conn:
            await conn.run_sync(migrate, "0009")
        upgraded, kept = await layout()
        async with engine.begin() as conn:
            await conn.run_sync(migrate_down, "0008")
        downgraded, kept_again = await layout()
    finally:
        await engine.dispose()
    assert len(moves) == sum(len(old.log) for old in OLD_GAMES)
    assert "WITHOUT ROWID" not in before and "WITHOUT ROWID" in upgraded and "WITHOUT ROWID" not in downgraded
    assert kept == moves and kept_again == moves


def migrate_down(connection: sa.Connection, revision: str) -> None:
    """Downgrade the schema on ``connection`` to ``revision``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


def test_the_newest_revision_the_store_knows_is_alembics_head() -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD


OPEN_AND_CLOSE = """
import asyncio, json, sys
from engine.service.tables import TableService
from engine.store.database import Store

async def main() -> None:
    store = Store(sys.argv[1])
    await store.open()
    service = TableService(store)
    await service.start()
    await service.close()
    await store.close()

asyncio.run(main())
print(json.dumps({name: name in sys.modules for name in ("alembic", "asyncpg", "sqlalchemy.dialects.postgresql")}))
"""


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_restart_on_a_database_at_the_newest_revision_runs_no_migration(backend: str, tmp_path: Path) -> None:
    """Each start in a process of its own, as a restart is: the first migrates a new database, the next only reads.

    A SQLite process never loads PostgreSQL's driver or dialect either.
    """

    def start(url: str) -> dict[str, bool]:
        done = subprocess.run([sys.executable, "-c", OPEN_AND_CLOSE, url], capture_output=True, text=True, timeout=60,
                              cwd=Path(__file__).resolve().parents[2], check=True)
        loaded: dict[str, bool] = json.loads(done.stdout.strip().splitlines()[-1])
        return loaded

    async def revision(url: str) -> str:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                return str((await conn.execute(sa.text("SELECT version_num FROM alembic_version"))).scalar_one())
        finally:
            await engine.dispose()

    async def check(url: str, postgres: bool) -> None:
        assert start(url)["alembic"]  # a new database: Alembic runs every migration
        assert await revision(url) == HEAD
        again = start(url)
        assert not again["alembic"]  # at the newest revision: Alembic is not even imported
        assert again["asyncpg"] == again["sqlalchemy.dialects.postgresql"] == postgres
        assert await revision(url) == HEAD

    if backend == "sqlite":
        await check(database_url(None, tmp_path), postgres=False)
        return
    async with fresh_database("cardroom_restart") as server_url:
        await check(database_url(server_url, tmp_path), postgres=True)

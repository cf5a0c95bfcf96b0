"""Twenty tables of friends at once while Telegram loses answers and fails with 5xx, in basic groups, supergroups,
forum topics and groups upgraded to supergroups mid-game: nobody misses a turn message, nobody gets two, every one
is removed, each group has one status message and one summary."""

from __future__ import annotations

import asyncio

import pytest

from engine.service.tables import TableService
from tests.bot.conftest import make_harness
from tests.bot.friends import MIGRATE_AFTER, Friends, check_record, open_table, play
from tgbot.app import stop_bot

GAMES = 20
KINDS = ("basic", "super", "forum", "migrating")


@pytest.mark.slow
async def test_twenty_games_at_once_through_timeouts_and_server_errors(service: TableService) -> None:
    bot = await make_harness(service, status_interval=0.05, read_timeout=0.3)
    fake = bot.fake
    try:
        tables, migrating = [], set()
        for game in range(GAMES):
            first = 3000 + 4 * game
            friends = Friends((first, first + 1, first + 2, first + 3))
            chat, thread, kind = -5000 - game, None, KINDS[game % len(KINDS)]
            if kind in ("basic", "migrating"):
                fake.add_group(chat, f"Basic {game}", chat_type="group")
            elif kind == "super":
                fake.add_group(chat, f"Super {game}")
            else:
                fake.add_group(chat, f"Forum {game}", is_forum=True)
                thread = fake.create_forum_topic(chat, "Kings")
            if kind == "migrating":
                migrating.add(chat)
            tables.append((friends, chat, thread, await open_table(bot, friends, chat, thread=thread)))

        faults = [
            fake.inject_fault("sendMessage", "timeout_after_effect", times=4),
            fake.inject_fault("sendMessage", "server_error", times=3, status=502),
            fake.inject_fault("sendMessage", "timeout_before_effect", times=2),
            fake.inject_fault("sendMessage", "drop_after_effect", times=2),
            fake.inject_fault("editMessageText", "timeout_before_effect", times=2),
            fake.inject_fault("editMessageText", "server_error", times=2, status=500),
            fake.inject_fault("deleteMessage", "timeout_after_effect", times=3),
            fake.inject_fault("deleteMessage", "server_error", times=3),
        ]
        played = await asyncio.gather(*(play(bot, friends, table_id, chat, settle=False,
                                             migrate_after=MIGRATE_AFTER if chat in migrating else None)
                                        for friends, chat, _thread, table_id in tables))
        await bot.settle(within=60)

        assert all(f.spent for f in faults), [(f.method, f.kind, f.hits) for f in faults if not f.spent]
        delivered = expected = 0
        for (friends, _chat, thread, _table_id), table in zip(tables, played, strict=True):
            for got, wanted in (await check_record(bot, friends, table, thread=thread)).values():
                delivered, expected = delivered + got, expected + wanted
        assert delivered == expected
        for table, (_friends, chat, _thread, table_id) in zip(played, tables, strict=True):
            assert (table.chat_id != chat) == (chat in migrating)
            assert (await bot.service.info(table_id)).chat_id == table.chat_id
        print(f"\nturn messages delivered {delivered} of {expected} over {GAMES} games"
              f" ({len(migrating)} of them in groups upgraded mid-game)")
        # What Telegram refused: only the answers that settle a lost answer (is the message there? was it deleted?).
        refused = [c for c in fake.calls if c.status not in (0, 200) and c.fault is None and c.method != "getUpdates"]
        # A write that reached an upgraded group before the bot heard of it is refused with the new id; only there.
        upgraded = [c for c in refused if "migrate_to_chat_id" in c.response.get("parameters", {})]
        assert {int(c.params["chat_id"]) for c in upgraded} <= migrating
        refused = [c for c in refused if c not in upgraded]
        assert all((c.method, c.response["description"]) in {
            ("editMessageReplyMarkup", "Bad Request: message is not modified: specified new message content and "
             "reply markup are exactly the same as a current content and reply markup of the message"),
            ("editMessageReplyMarkup", "Bad Request: message to edit not found"),
            ("deleteMessage", "Bad Request: message to delete not found"),
        } for c in refused), [(c.method, c.response) for c in refused]
        assert len(refused) <= sum(f.hits for f in faults)
        assert fake.count_429 == 0
    finally:
        await stop_bot(bot.application)
        await fake.close()

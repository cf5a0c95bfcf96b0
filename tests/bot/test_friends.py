"""Friends at one table: a whole game in each kind of group, checked against everything Telegram recorded."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.service.tables import TableService
from tests.bot.conftest import Harness, make_harness
from tests.bot.friends import MIGRATE_AFTER, Friends, check_record, open_table, play, refused
from tgbot.app import stop_bot

FRIENDS = Friends((21, 22, 23, 24))
BASIC, SUPER, FORUM = -4101, -1004102, -1004103


@pytest.fixture
async def quick_bot(service: TableService) -> AsyncIterator[Harness]:
    """The bot with a short status throttle, so a whole game of settled moves stays quick."""
    harness = await make_harness(service, status_interval=0.03)
    yield harness
    await stop_bot(harness.application)
    await harness.fake.close()


@pytest.mark.parametrize("kind", ["group", "supergroup", "forum", "migrating"])
async def test_friends_play_a_whole_game_and_each_gets_one_turn_message_per_turn(quick_bot: Harness,
                                                                                kind: str) -> None:
    bot = quick_bot
    fake, thread = bot.fake, None
    if kind in ("group", "migrating"):
        chat = BASIC
        fake.add_group(chat, "Kitchen table", chat_type="group")
    elif kind == "supergroup":
        chat = SUPER
        fake.add_group(chat, "Card night")
    else:
        chat = FORUM
        fake.add_group(chat, "Card club", is_forum=True)
        thread = fake.create_forum_topic(chat, "Kings")
        fake.close_general_forum_topic(chat)  # nothing of this table may land in General

    table_id = await open_table(bot, FRIENDS, chat, thread=thread)
    played = await play(bot, FRIENDS, table_id, chat, migrate_after=MIGRATE_AFTER if kind == "migrating" else None)

    await check_record(bot, FRIENDS, played, thread=thread)
    if kind == "migrating":
        assert played.chat_id != chat
        assert (await bot.service.info(table_id)).chat_id == played.chat_id
        [frozen] = [m for m in fake.messages(chat) if table_id in str(m.reply_markup)]
        assert "playing" in frozen.plain  # the old group's status stays as it was; the new one took over
    assert refused(bot) == []
    # each turn message names the group it is played in. A game can end before someone's first turn (a player
    # who goes out in one turn of Kings in the Corner), so each person's count is the log's (check_record)
    group = "Kitchen table" if kind in ("group", "migrating") else "Card"
    turns = [m.plain for user in FRIENDS.starters for m in fake.messages(user) if "Your turn" in m.plain]
    assert len(turns) == sum(played.turns[user] for user in FRIENDS.starters)
    assert all(group in text for text in turns), turns

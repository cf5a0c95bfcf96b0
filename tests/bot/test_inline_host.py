"""With inline feedback off, the person who sent an invitation hosts its table, whoever presses Join first."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine.service.tables import TableService
from tests.bot.conftest import ANN, BOB, Harness, make_harness
from tgbot.app import stop_bot


@pytest.fixture
async def bot(service: TableService) -> AsyncIterator[Harness]:
    harness = await make_harness(service)
    harness.fake.set_inline_mode(True, feedback=False)
    harness.fake.add_user(ANN, "Ann", language_code="ko")  # she never started the bot: she only used inline mode
    harness.fake.add_user(BOB, "Bob", language_code="lv")
    yield harness
    await stop_bot(harness.application)
    await harness.fake.close()


@pytest.mark.parametrize("game", ["coins", "kings_corner"])
async def test_the_inviter_hosts_when_a_friend_presses_join_first(bot: Harness, game: str) -> None:
    fake, service = bot.fake, bot.service
    query = await bot.send(fake.inline_query(ANN, "", chat=BOB))
    answer = fake.inline_answer(query)
    assert answer is not None
    chosen = fake.choose_inline_result(query, f"g:{game}")
    assert chosen.updates == [] and chosen.inline_message_id is not None  # Telegram says nothing of the choice
    await bot.send(fake.press_inline(BOB, chosen.inline_message_id, "참가"))  # Join, in the inviter's Korean
    [info] = await service.tables_of(BOB)
    assert (info.game, info.host_user_id) == (game, ANN)
    assert [s.user_id for s in info.seats if s.user_id is not None] == [ANN, BOB]
    lobby = fake.inline_message(chosen.inline_message_id).shown
    assert "Ann (방장)" in lobby, lobby  # in the inviter's language

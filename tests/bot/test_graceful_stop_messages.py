"""A turn message due when the process stops gracefully is sent before it stops, not dropped with the bot.

The bot runs in the web process (its Application in the app, as ``webapp.app`` mounts it).
Ann moves and Bob's turn begins, Bob away from the table: his turn message is due. The process
stops at that moment (aiohttp's shutdown, ``webapp.shutdown``) and the bot is stopped right
after, which drops whatever it still had queued; Bob's turn message is at the fake Telegram all
the same, because the stop sent the due turn messages first.
"""

from __future__ import annotations

import time

from aiohttp.test_utils import TestServer

from engine.config import Settings
from engine.service.tables import TableService
from tests.bot.conftest import ANN, BOB, GROUP, make_harness
from tests.web.conftest import templates_dir
from tgbot.app import stop_bot
from webapp.app import make_app
from webapp.keys import BOT
from webapp.shutdown import FLUSH_WITHIN, STOP

MOVES = 60  # moves played until one passes the turn from Ann straight to Bob (a person to a person)


async def test_a_turn_message_due_at_a_graceful_stop_is_sent_before_the_process_stops(
    service: TableService,
) -> None:
    harness = await make_harness(service)
    fake = harness.fake
    try:
        for user, name in ((ANN, "Ann"), (BOB, "Bob")):
            fake.add_user(user, name)
            await harness.send(fake.message(user, user, "/start"))
        await harness.send(fake.message(GROUP, ANN, "/new coins"))
        lobby = fake.messages(GROUP)[0]
        await harness.send(fake.press(BOB, lobby, "Join"))
        await harness.send(fake.press(ANN, lobby, "Add AI"))
        await harness.send(fake.press(ANN, lobby, "Start"))
        table_id = await harness.table_id()

        app = make_app(Settings(data_dir=harness.settings.data_dir, ai_delay=0.0), service=service, bot=False,
                       templates_dir=templates_dir(), hand_over=True)
        app[BOT] = harness.application  # the bot runs in this process
        server = TestServer(app)
        await server.start_server()

        for _ in range(MOVES):  # play on until Ann's move hands the turn to Bob
            info = await service.info(table_id)
            assert info.status == "playing"
            (mover,) = (s.user_id for s in info.seats if s.seat in info.to_act)
            assert mover is not None, "with no AI delay, only people can be waiting"
            view = await service.view(table_id, mover)
            await service.act(table_id, mover, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
            snapshot = service.snapshot(table_id)
            assert snapshot is not None
            if mover == ANN and snapshot.info.to_act == (snapshot.info.seat_of(BOB),):
                break
            await harness.settle()
        else:
            raise AssertionError("no move handed the turn from Ann to Bob")
        told = len([m for m in fake.messages(BOB) if "Your turn" in m.plain])

        began = time.monotonic()
        await server.close()  # the graceful stop: its due turn message goes first
        await stop_bot(harness.application)  # then the bot stops, dropping anything still queued
        stopped = time.monotonic() - began
        live = [m for m in fake.messages(BOB) if "Your turn" in m.plain and not m.deleted]
        assert len(live) == 1 and len([m for m in fake.messages(BOB) if "Your turn" in m.plain]) == told + 1
        assert "messages" in app[STOP].took and stopped < FLUSH_WITHIN
    finally:
        await stop_bot(harness.application)
        await fake.close()

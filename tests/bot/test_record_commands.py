"""/top in a group shows only the group's players by rating; /history lists a player's games with replay links."""

from __future__ import annotations

from tests.bot.conftest import ANN, BOB, BOT_USERNAME, GROUP, Harness
from tests.service.helpers import play_out

OTHER_GROUP = -2002


async def finish_in(bot: Harness, chat_id: int, people: tuple[tuple[int, str], ...]) -> str:
    (host, name), *others = people
    info = await bot.service.create_table("coins", host, name, {"target_score": 1}, chat_id=chat_id)
    for user, other in others:
        await bot.service.join(info.id, user, other)
    await bot.service.start_game(info.id, host)
    await play_out(bot.service, info.id)
    await bot.settle()
    return info.id


async def test_top_names_the_groups_players_and_history_links_each_replay(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    bot.fake.add_user(BOB, "Bob")
    bot.fake.add_group(OTHER_GROUP, "Other night")
    table_id = await finish_in(bot, GROUP, ((ANN, "Ann"), (BOB, "Bob")))
    await finish_in(bot, OTHER_GROUP, ((999, "Zed"),))
    await bot.send(bot.fake.message(GROUP, ANN, "/top coins"))
    board = bot.fake.last_message(GROUP).shown
    assert "Coins" in board and "Ann" in board and "Bob" in board and "Zed" not in board
    assert board.index("1. ") < board.index("2. ")
    bot.fake.world.start(ANN)
    await bot.send(bot.fake.message(ANN, ANN, "/history"))
    history = bot.fake.last_message(ANN)
    assert "Coins" in history.shown and "Bob" in history.shown
    assert f"replay={table_id}" in history.text or f"r_{table_id}" in history.text


async def test_history_shows_the_variant_and_every_seats_place(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    bot.fake.world.start(ANN)
    table_id = await finish_in(bot, GROUP, ((ANN, "Ann"), (BOB, "Bob")))
    result = (await bot.service.info(table_id)).result
    assert result is not None
    await bot.send(bot.fake.message(ANN, ANN, "/history"))
    history = bot.fake.last_message(ANN).shown
    assert "Coins · Target score 1 · " in history
    names = {seat.seat: seat.name for seat in (await bot.service.info(table_id)).seats}
    places = sorted((place, seat) for seat, place in enumerate(result["placements"]))
    assert " · ".join(f"{place}. {names[seat]}" for place, seat in places) in history


async def test_history_in_a_group_posts_no_games_there_and_points_to_a_private_chat(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann")
    await finish_in(bot, GROUP, ((ANN, "Ann"), (BOB, "Bob")))
    await bot.send(bot.fake.message(GROUP, ANN, "/history"))
    pointer = bot.fake.last_message(GROUP)
    assert "Coins" not in pointer.shown and "Bob" not in pointer.shown
    assert pointer.button("My games")["url"] == f"https://t.me/{BOT_USERNAME}?start=history"
    bot.fake.world.start(ANN)
    await bot.send(bot.fake.message(ANN, ANN, "/start history"))  # what the button's Start sends
    assert "Coins" in bot.fake.last_message(ANN).shown and "Bob" in bot.fake.last_message(ANN).shown

"""One host's several lobbies get "Which table?" buttons that differ, each saying what tells it apart."""

from __future__ import annotations

import pytest

from tests.bot.conftest import ANN, BOB, GROUP, Harness


@pytest.mark.parametrize(("language", "target", "seats"), [
    ("en", "15", "2 of 3 seats, Bob"), ("ru", "15", "2 из 3 мест, Bob"), ("ko", "15", "3석 중 2석, Bob"),
    ("lv", "15", "2 no 3 vietām, Bob"),
])
async def test_which_table_buttons_say_what_differs(bot: Harness, language: str, target: str, seats: str) -> None:
    bot.fake.add_user(ANN, "Ann", language_code=language)
    bot.fake.add_user(BOB, "Bob", language_code=language)
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins"))
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins"))
    await bot.send(bot.fake.message(GROUP, BOB, "/join"))  # the newest one
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins target=15"))
    await bot.send(bot.fake.message(GROUP, ANN, "/cancel"))
    labels = [b["text"] for b in bot.fake.last_message(GROUP).buttons]
    assert len(labels) == 3 and len(set(labels)) == 3 and all(len(label) <= 36 for label in labels)
    newest, middle, oldest = labels
    assert newest.endswith(target) and seats in middle and "Bob" not in oldest
    assert all("Ann" not in label for label in labels)  # one host, one status: neither tells them apart

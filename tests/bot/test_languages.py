"""The bot speaks each chat's language: a Russian group, a Korean private chat, menus in every language."""

from __future__ import annotations

import pytest

from engine.i18n import gettext_for
from tests.bot.conftest import ANN, BOB, CID, GROUP, Harness
from tgbot import languages


async def test_an_admin_sets_the_groups_language_and_its_tables_speak_russian(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="en")
    bot.fake.add_user(BOB, "Bob", language_code="en")
    bot.fake.world.owners[GROUP] = ANN  # Ann created the group: she may choose its language
    await bot.send(bot.fake.message(GROUP, BOB, "/language"))
    picker = bot.fake.last_message(GROUP)
    assert [b["text"] for b in picker.buttons] == ["✓ English", "Русский", "한국어", "Latviešu"]
    await bot.send(bot.fake.press(BOB, picker, "Русский"))  # Bob is no admin: nothing changes
    assert await bot.service.store.chats.chat_language(GROUP) is None
    await bot.send(bot.fake.press(ANN, picker, "Русский"))
    assert await bot.service.store.chats.chat_language(GROUP) == "ru"
    await bot.send(bot.fake.message(GROUP, BOB, "/new"))  # an English-speaking host, a Russian group
    lobby = bot.fake.last_message(GROUP)
    ru = gettext_for("ru")
    assert [b["text"] for b in lobby.buttons][:2] == [ru("Join"), ru("Leave")]
    assert ru("Join") != "Join"


async def test_a_korean_phone_gets_korean_private_messages_and_can_choose_another_language(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="ko")
    bot.fake.world.start(ANN)
    await bot.send(bot.fake.message(ANN, ANN, "/stats"))
    ko = gettext_for("ko")
    assert ko("No finished games yet.") in bot.fake.last_message(ANN).plain
    await bot.send(bot.fake.message(ANN, ANN, "/language"))
    await bot.send(bot.fake.press(ANN, bot.fake.last_message(ANN), "Latviešu"))
    assert await bot.service.store.people.user_language(ANN) == "lv"
    await bot.send(bot.fake.message(ANN, ANN, "/stats"))
    assert gettext_for("lv")("No finished games yet.") in bot.fake.last_message(ANN).plain


async def test_the_command_menus_are_set_in_every_language(bot: Harness) -> None:
    menus = bot.fake.methods.commands  # keyed by [scope, language_code] as JSON text
    by_language: dict[str, list[dict[str, str]]] = {}
    for key, commands in menus.items():
        by_language.setdefault(key.rsplit('"', 2)[-2] if key.endswith('"]') else "", []).extend(commands)
    assert set(by_language) == {"", "ru", "ko", "lv"}
    for language in ("ru", "ko", "lv"):
        help_line = [c["description"] for c in by_language[language] if c["command"] == "help"]
        assert help_line and help_line[0] == gettext_for(language)("What I can do") != "What I can do"


async def test_a_language_chosen_on_another_process_reaches_this_one_within_a_minute(
    bot: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="en")
    bot.fake.world.start(ANN)
    await bot.send(bot.fake.message(ANN, ANN, "/stats"))  # this process reads her choice: none yet
    assert "No finished games yet." in bot.fake.last_message(ANN).plain
    await bot.service.store.people.set_user_language(ANN, "Ann", "ru")  # /language pressed on another process
    await bot.send(bot.fake.message(ANN, ANN, "/stats"))
    assert "No finished games yet." in bot.fake.last_message(ANN).plain  # within the minute: still as read
    monkeypatch.setattr(languages, "LANGUAGE_FRESH", 0.0)  # the minute has passed
    await bot.send(bot.fake.message(ANN, ANN, "/stats"))
    assert gettext_for("ru")("No finished games yet.") in bot.fake.last_message(ANN).plain


async def test_a_groups_language_is_settled_by_the_host_of_its_first_table(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="ru-RU")
    bot.fake.add_user(BOB, "Bob", language_code="ko")
    assert await bot.service.store.chats.chat_language(GROUP) is None
    await bot.send(bot.fake.message(GROUP, ANN, "/new"))
    assert await bot.service.store.chats.chat_language(GROUP) == "ru"
    lobby = bot.fake.last_message(GROUP)
    assert lobby.plain.startswith("🃏 Монеты — ")  # the game's title in Russian too
    await bot.send(bot.fake.message(GROUP, BOB, "/cancel"))  # Bob is no host nor admin
    await bot.send(bot.fake.message(GROUP, BOB, "/new kings"))  # a Korean host's table: still a Russian group
    assert await bot.service.store.chats.chat_language(GROUP) == "ru"
    assert bot.fake.last_message(GROUP).plain.startswith("🃏 Короли в углах — ")


async def test_a_refusal_in_a_russian_group_is_russian_with_its_parameters(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="en")
    await bot.service.store.chats.set_chat_language(GROUP, "ru", by=None)
    await bot.send(bot.fake.message(GROUP, ANN, "/new coins target=100"))
    refused = bot.fake.last_message(GROUP).plain
    assert refused.startswith("Значение target должно быть целым числом от 1 до 99, а не 100."), refused
    assert "Монеты" in refused and "Coins" not in refused.replace("<code>coins</code>", "")
    await bot.send(bot.fake.message(GROUP, ANN, "/new kings players=9"))
    refused = bot.fake.last_message(GROUP).plain
    assert refused.startswith("Игроков в игре Короли в углах должно быть от 2 до 4, а не '9'."), refused


async def test_settings_has_a_language_button_that_opens_the_language_picker(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="lv")
    bot.fake.world.start(ANN)
    await bot.send(bot.fake.message(ANN, ANN, "/settings"))
    panel = bot.fake.last_message(ANN)
    lv = gettext_for("lv")
    language = "🌐 " + lv("Language")
    assert [b["text"] for b in panel.buttons][-1] == language != "🌐 Language"
    await bot.send(bot.fake.press(ANN, panel, language))
    picker = bot.fake.last_message(ANN)
    assert [b["text"] for b in picker.buttons] == ["English", "Русский", "한국어", "✓ Latviešu"]
    await bot.send(bot.fake.press(ANN, picker, "Русский"))
    assert await bot.service.store.people.user_language(ANN) == "ru"


async def test_the_options_keyboard_of_a_russian_group_names_every_value_in_russian(bot: Harness) -> None:
    bot.fake.add_user(ANN, "Ann", language_code="ru")
    await bot.send(bot.fake.message(GROUP, ANN, "/new sergeant"))
    lobby = bot.fake.last_message(GROUP)
    await bot.send(bot.fake.press(ANN, lobby, "Параметры"))
    labels = [b["text"] for b in lobby.buttons]
    for shown in ("Вариант: 3-5-8 (классика)", "Первый сдающий: Случайно", "Woburn: торговля 1-й раздачи: Выкл.",
                  "Время на ход: Нет", "Игроки ИИ: Лёгкие"):
        assert shown in labels, labels
    await bot.send(bot.fake.press(ANN, lobby, "Первый сдающий: Случайно"))
    await bot.send(bot.fake.press(ANN, lobby, "Первый сдающий: Хозяин стола"))  # then seat 1
    assert "Первый сдающий: Ann" in [b["text"] for b in lobby.buttons]  # the player in that seat


async def test_turn_messages_speak_each_persons_language_not_the_groups(bot: Harness) -> None:
    """At a Latvian group's table, a Korean phone gets its turn messages in Korean, and someone who chose Russian
    with /language (on an English phone) in Russian; the group's own message stays Latvian."""
    fake = bot.fake
    fake.add_user(ANN, "Līga", language_code="lv")
    fake.add_user(BOB, "민준", language_code="ko")
    fake.add_user(CID, "Аня", language_code="en")
    for user in (ANN, BOB, CID):
        await bot.send(fake.message(user, user, "/start"))
    await bot.send(fake.message(CID, CID, "/language"))
    await bot.send(fake.press(CID, fake.last_message(CID), "Русский"))
    lv = gettext_for("lv")
    await bot.send(fake.message(GROUP, ANN, "/new coins"))
    lobby = fake.last_message(GROUP)
    table_id = lobby.button(lv("Join"))["callback_data"].split(":")[1]
    for user in (BOB, CID):
        await bot.send(fake.press(user, lobby, lv("Join")))
    await bot.send(fake.press(ANN, fake.last_message(GROUP), lv("Start")))
    expected = {ANN: "lv", BOB: "ko", CID: "ru"}
    seen: set[int] = set()
    while seen != set(expected):
        await bot.settle()
        info = await bot.service.info(table_id)
        [seat] = info.to_act
        mover = info.seats[seat].user_id
        assert mover is not None
        [live] = [m for m in fake.messages(mover) if not m.deleted and table_id in str(m.reply_markup)]
        _ = gettext_for(expected[mover])
        assert live.plain.startswith("⏰ " + _("Your turn in %(game)s") % {"game": _("Coins")})
        assert live.buttons[0]["text"] == _("Open table")
        seen.add(mover)
        view = await bot.service.view(table_id, mover)
        await bot.service.act(table_id, mover, {"type": "play", "card": view["state"]["legal"][0]}, view["seq"])
    await bot.settle()
    assert gettext_for("ko")("Your turn in %(game)s") != "Your turn in %(game)s"
    assert fake.last_message(GROUP).plain.startswith(f"🃏 {lv('Coins')} — ")

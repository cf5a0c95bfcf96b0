"""What the store keeps of a person's languages: the one they chose and their Telegram app's, on every database."""

from __future__ import annotations

from engine.store.database import Store


async def test_a_persons_two_languages_are_kept_apart_and_only_for_people_it_knows(store: Store) -> None:
    await store.people.set_app_language(41, "ko")  # nobody the store knows yet: nothing is written
    assert await store.people.user_settings(41) is None
    await store.people.upsert_user(41, "Min")
    await store.people.set_app_language(41, "ko")
    await store.people.set_app_language(41, "ko")  # the same again
    settings = await store.people.user_settings(41)
    assert settings is not None
    assert (settings["language"], settings["app_language"]) == (None, "ko")
    await store.people.set_user_language(41, "Min", "ru")  # /language, or the Mini App's picker
    await store.people.set_app_language(41, "lv-" + "x" * 40)  # a tag longer than the column is cut to it
    settings = await store.people.user_settings(41)
    assert settings is not None
    assert (settings["language"], settings["app_language"]) == ("ru", "lv-" + "x" * 13)
    assert await store.people.user_language(41) == "ru"

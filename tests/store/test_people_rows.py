"""People's rows (names, flags, languages, stats), with the people repository built alone over a writer."""

from __future__ import annotations

from engine.store.people_rows import PeopleRows
from engine.store.table_rows import TableRows
from engine.store.writer import Writer
from tests.store.conftest import table


async def test_people_rows_remember_a_person_and_their_latest_name(writer: Writer) -> None:
    people = PeopleRows(writer)
    assert await people.user_settings(7) is None
    await people.upsert_user(7, "Ann")
    await people.upsert_user(7, "Annie")
    assert await people.user_settings(7) == {"id": 7, "name": "Annie", "notify": True, "can_message": False,
                                             "language": None, "app_language": None}


async def test_people_rows_store_a_name_with_a_nul_character_without_it(writer: Writer) -> None:
    people = PeopleRows(writer)
    await people.upsert_user(7, "A\x00nn\x00")  # PostgreSQL refuses NUL in text: the write must not fail
    settings = await people.user_settings(7)
    assert settings is not None and settings["name"] == "Ann"
    await people.upsert_user(7, "\x00Bob")  # the update path too
    settings = await people.user_settings(7)
    assert settings is not None and settings["name"] == "Bob"
    await people.set_user_language(8, "C\x00at", "r\x00u")
    await people.set_app_language(8, "k\x00o")
    settings = await people.user_settings(8)
    assert settings is not None and (settings["name"], settings["language"], settings["app_language"]) == (
        "Cat", "ru", "ko")


async def test_people_rows_change_only_the_flags_they_know(writer: Writer) -> None:
    people = PeopleRows(writer)
    await people.upsert_user(7, "Ann")
    await people.set_user_flags(7, notify=False, can_message=True, admin=True)
    settings = await people.user_settings(7)
    assert settings is not None and (settings["notify"], settings["can_message"]) == (False, True)


async def test_people_rows_keep_a_persons_two_languages_apart(writer: Writer) -> None:
    people = PeopleRows(writer)
    await people.set_app_language(7, "ko")  # nobody known yet: nothing is written
    assert await people.user_settings(7) is None
    await people.set_user_language(7, "Ann", "ru")
    await people.set_app_language(7, "lv-" + "x" * 40)
    assert await people.user_language(7) == "ru"
    settings = await people.user_settings(7)
    assert settings is not None and settings["app_language"] == "lv-" + "x" * 13
    await people.set_user_language(7, "Ann", None)
    assert await people.user_language(7) is None


async def test_people_rows_count_finished_games_played_and_won(writer: Writer) -> None:
    people, tables = PeopleRows(writer), TableRows(writer)
    for n, winners in enumerate(([0], [1], [0, 2])):
        row = table(f"t{n}", status="finished")
        row.result = {"winners": winners}
        await tables.create_table(row)
    await tables.create_table(table("t9"))  # still playing: not counted
    assert await people.stats(1) == {"coins": {"played": 3, "won": 2}}
    assert await people.stats(2) == {"coins": {"played": 3, "won": 1}}
    assert await people.stats(99) == {}

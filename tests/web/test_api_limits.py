"""Each person's budget of /api calls: a flood is refused in the person's language and changes nothing."""

from __future__ import annotations

from dataclasses import replace

from engine.config import Settings
from engine.service.tables import TableService
from tests.clock import ManualClock
from tests.web.conftest import ClientFactory, signed, tma
from webapp.limits import KEPT_BUDGETS, Budgets


async def test_a_person_who_floods_the_api_is_refused_in_their_language_and_nothing_changes(
    make_client: ClientFactory, bot_settings: Settings, service: TableService
) -> None:
    clock = ManualClock()
    client = await make_client(replace(bot_settings, api_rate=2.0, api_burst=5), clock=clock)
    anya = tma(signed(8101, "Аня", language_code="ru"))
    minjun = tma(signed(8102, "민준", language_code="ko"))
    for language in ("en", "lv", "en", "lv", "ru"):  # the whole burst, at one moment
        resp = await client.post("/api/me/language", json={"language": language}, headers=anya)
        assert resp.status == 200, await resp.text()

    refused = await client.post("/api/me/language", json={"language": "ko"}, headers=anya)
    assert refused.status == 429
    assert refused.headers["Retry-After"] == "1"
    assert await refused.json() == {"code": "too_many_requests",
                                    "message": "Слишком много запросов сразу; подожди немного и попробуй снова."}
    assert await service.store.people.user_language(8101) == "ru"  # the refused call stored nothing
    reading = await client.get("/api/me", headers=anya)  # reads are counted too
    assert reading.status == 429

    other = await client.post("/api/me/language", json={"language": "ko"}, headers=minjun)
    assert other.status == 200, await other.text()  # one person's flood is not another's
    assert await service.store.people.user_language(8102) == "ko"

    clock.now += 0.5  # a rate of 2 a second gives one call back every half second
    again = await client.post("/api/me/language", json={"language": "ko"}, headers=anya)
    assert again.status == 200, await again.text()
    assert await service.store.people.user_language(8101) == "ko"
    assert (await client.post("/api/me/language", json={"language": "en"}, headers=anya)).status == 429


def test_budgets_forget_idle_people_but_never_refill_a_flooders() -> None:
    clock = ManualClock()
    budgets = Budgets(rate=2.0, burst=4, clock=clock)
    flooder = 1
    while budgets.take(flooder):
        pass
    passers_by = range(100, 100 + 10 * KEPT_BUDGETS)
    for person in passers_by:
        assert budgets.take(person)  # a newcomer has a whole burst
        if person % 500 == 0:
            clock.now += 1.0  # time passes: earlier passers-by are full again, and so is the flooder
            assert budgets.take(flooder)
            while budgets.take(flooder):
                pass
    assert len(budgets) <= 2 * KEPT_BUDGETS + 1  # only recent people are kept, not all ten thousand
    assert not budgets.take(flooder)  # dropping idle budgets never gave the flooder a fresh one
    clock.now += 0.5
    assert budgets.take(flooder) and not budgets.take(flooder)

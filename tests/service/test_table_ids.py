"""Table ids never read as a replay's start parameter (``r_<id>``), which the page would look up first."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

from engine.service.table_ids import REPLAY_PREFIX, new_table_id
from engine.service.tables import TableService
from tests.service.helpers import ANN


def _draws(monkeypatch: pytest.MonkeyPatch, *values: str) -> list[int]:
    """Make the random source hand out ``values`` in turn; the list returned counts the draws."""
    source: Iterator[str] = iter(values)
    drawn: list[int] = []

    def token_urlsafe(nbytes: int) -> str:
        drawn.append(nbytes)
        return next(source)

    monkeypatch.setattr(secrets, "token_urlsafe", token_urlsafe)
    return drawn


def test_new_table_id_draws_again_when_an_id_would_read_as_a_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _draws(monkeypatch, "r_AbCdEf", "r_r_r_r_", "xr_AbCdE")
    assert new_table_id() == "xr_AbCdE"  # only the prefix matters: r_ elsewhere is fine
    assert drawn == [6, 6, 6]


def test_new_table_id_is_eight_url_safe_characters() -> None:
    ids = {new_table_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(len(i) == 8 and not i.startswith(REPLAY_PREFIX) for i in ids)
    assert all(set(i) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") for i in ids)


async def test_a_table_never_gets_an_id_a_replay_link_would_take(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    _draws(monkeypatch, "r_AbCdEf", "AbCdEfGh")
    info = await service.create_table("coins", ANN, "Ann", {})
    assert info.id == "AbCdEfGh"
    assert (await service.info("AbCdEfGh")).id == "AbCdEfGh"

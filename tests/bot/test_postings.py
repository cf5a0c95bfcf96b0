"""Postings built alone, against a bot that records its calls: the record written first, refusals, lost answers."""

from __future__ import annotations

import pytest
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError

from tests.bot.notifier_fakes import ANN, GROUP, SUPERGROUP, Parts
from tgbot.records import SENDING, SENT, TABLE, UNCERTAIN, Record, turn_purpose


@pytest.fixture
def parts() -> Parts:
    return Parts()


def table_record(chat_id: int = GROUP) -> Record:
    return Record(TABLE, chat_id, 7, None, SENDING)


async def test_postings_send_writes_the_record_before_the_call_and_the_message_id_after(parts: Parts) -> None:
    sent = await parts.postings.send("t1", table_record(), "Lobby", None)
    assert parts.bot.calls == [("send", GROUP, "Lobby", 7)]
    [before] = parts.bot.kept_at_send
    assert before[("t1", TABLE)]["state"] == SENDING and before[("t1", TABLE)]["message_id"] is None
    assert sent is not None and sent.state == SENT and sent.message_id == parts.bot.next_id
    assert parts.chats.kept[("t1", TABLE)]["message_id"] == sent.message_id
    assert parts.chats.kept[("t1", TABLE)]["state"] == SENT


async def test_postings_refused_send_reaches_on_refused_and_forgets_the_record(parts: Parts) -> None:
    parts.bot.fail["send"] = Forbidden("Forbidden: bot was blocked by the user")
    assert await parts.postings.send("t1", Record(turn_purpose(ANN), ANN, state=SENDING), "Your turn", None) is None
    assert parts.refused == [ANN]
    assert parts.chats.kept == {}


async def test_postings_send_to_a_migrated_group_moves_it_and_reposts_the_table(parts: Parts) -> None:
    parts.bot.fail["send"] = ChatMigrated(SUPERGROUP)
    assert await parts.postings.send("t1", table_record(), "Lobby", None) is None
    assert parts.migrated == [(GROUP, SUPERGROUP)] and parts.reposted == ["t1"]
    assert parts.chats.kept == {}


async def test_postings_send_to_a_gone_chat_makes_no_call(parts: Parts) -> None:
    parts.postings.chat_gone(GROUP)
    assert await parts.postings.send("t1", table_record(), "Lobby", None) is None
    assert parts.bot.calls == [] and parts.chats.kept == {}
    assert parts.postings.chat_back(GROUP) and not parts.postings.chat_back(GROUP)
    assert await parts.postings.send("t1", table_record(), "Lobby", None) is not None


async def test_postings_edit_skips_what_the_message_already_shows(parts: Parts) -> None:
    sent = await parts.postings.send("t1", table_record(), "Lobby", None)
    assert sent is not None
    assert await parts.postings.edit(sent, "Lobby", None)
    assert await parts.postings.edit(sent, "Status", None)
    assert await parts.postings.edit(sent, "Status", None)
    assert [c[0] for c in parts.bot.calls] == ["send", "edit"]


async def test_postings_edit_of_a_message_gone_says_so(parts: Parts) -> None:
    record = Record(TABLE, GROUP, None, 42, SENT)
    parts.bot.fail["edit"] = BadRequest("Message to edit not found")
    assert not await parts.postings.edit(record, "Status", None)
    parts.bot.fail["edit"] = BadRequest("Message is not modified: specified new message content is the same")
    assert await parts.postings.edit(record, "Status", None)


async def test_postings_delete_too_old_edits_the_message_to_say_it_is_over(parts: Parts) -> None:
    record = Record(turn_purpose(ANN), ANN, None, 42, SENT)
    parts.bot.fail["delete"] = BadRequest("Message can't be deleted")
    assert await parts.postings.delete(record, "Your turn here is over.")
    assert parts.bot.calls == [("delete", ANN, 42), ("edit", ANN, 42, "Your turn here is over.")]


async def test_postings_delete_refused_is_tried_again_later(parts: Parts) -> None:
    parts.bot.fail["delete"] = Forbidden("Forbidden: bot was blocked by the user")
    assert not await parts.postings.delete(Record(turn_purpose(ANN), ANN, None, 42, SENT), "over")
    assert parts.refused == [ANN]


async def test_postings_lost_answer_finds_the_message_that_arrived(parts: Parts) -> None:
    parts.postings.ledger.saw(GROUP, 70)
    parts.bot.fail["send"] = NetworkError("the answer was lost")
    parts.bot.fail["markup:71"] = BadRequest("Message is not modified")  # only the lost message has this keyboard
    found = await parts.postings.send("t1", table_record(), "Lobby", None)
    assert found is not None and found.message_id == 71 and found.state == SENT
    assert parts.bot.kept_at_send[0][("t1", TABLE)]["data"]["after"] == 70
    assert parts.chats.kept[("t1", TABLE)]["message_id"] == 71
    assert [c for c in parts.bot.calls if c[0] == "send"] == [("send", GROUP, "Lobby", 7)], "not posted twice"


async def test_postings_lost_answer_of_a_send_that_never_arrived_is_tried_again(parts: Parts) -> None:
    parts.bot.fail["send"] = NetworkError("the answer was lost")
    parts.bot.fail["markup:1"] = BadRequest("Message to edit not found")
    with pytest.raises(NetworkError):
        await parts.postings.send("t1", table_record(), "Lobby", None)
    assert parts.chats.kept == {}


async def test_postings_settle_of_a_stored_uncertain_send(parts: Parts) -> None:
    uncertain = Record(TABLE, GROUP, None, None, UNCERTAIN, {"after": 9, "markup": None})
    await parts.records.put("t1", uncertain)
    parts.bot.fail["markup:10"] = BadRequest("Message is not modified")
    found = await parts.postings.settle("t1", uncertain)
    assert found is not None and found.message_id == 10
    assert (await parts.records.get("t1", TABLE)) == found

"""Whole games of friends at one table, played the way people do: each moves once their turn message is there.

Shared by the game tests and the soak: open a Kings in the Corner table of four in a chat (three
people who started the bot and one who did not), play it to the end, and check the fake's record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.service.live import TableInfo
from tests.bot.conftest import Harness
from tests.fakes.botapi import FakeMessage

TURN_TEXT = "Your turn in Kings in the Corner"


def refused(bot: Harness) -> list[tuple[str, int, object]]:
    """Calls Telegram refused (a long poll ended by the next one is not a refusal)."""
    return [(c.method, c.status, c.response.get("description")) for c in bot.fake.calls
            if c.status != 200 and c.method != "getUpdates"]


@dataclass
class Friends:
    """People at one table (four by default): all but the last ``strangers`` may get messages from the bot."""

    ids: tuple[int, ...]
    names: tuple[str, ...] = ("Ann", "Bob", "Cid", "Dan")
    strangers: int = 1

    @property
    def starters(self) -> tuple[int, ...]:
        return self.ids[:len(self.ids) - self.strangers]

    @property
    def stranger(self) -> int:
        return self.ids[3]


@dataclass
class Played:
    """What happened at one table: each person's turns, and the chat the table ended in."""

    table_id: str
    chat_id: int
    turns: Counter[int] = field(default_factory=Counter)
    info: TableInfo | None = None
    moved_from: int | None = None  # the group's id before it was upgraded to a supergroup mid-game


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A simple player: any play but moving piles about, else end the turn."""
    for action in legal:
        if action["type"] not in ("move_pile", "end_turn"):
            return action
    return next((a for a in legal if a["type"] == "end_turn"), legal[0])


def turn_messages(bot: Harness, user_id: int, table_id: str) -> list[FakeMessage]:
    """The turn messages a person got for a table (deleted ones too)."""
    return [m for m in bot.fake.messages(user_id) if TURN_TEXT in m.shown and table_id in str(m.reply_markup)]


async def open_table(bot: Harness, friends: Friends, chat_id: int, *, thread: int | None = None) -> str:
    """/start for the three, /new in the chat (in a topic when given), everyone joins, the host deals."""
    fake = bot.fake
    for user_id, name in zip(friends.ids, friends.names, strict=True):
        fake.add_user(user_id, name)
    for user_id in friends.starters:
        await bot.send(fake.message(user_id, user_id, "/start"))
    host = friends.ids[0]
    await bot.send(fake.message(chat_id, host, "/new kings players=4", message_thread_id=thread))
    lobby = next(m for m in fake.messages(chat_id) if "new table" in m.shown)
    assert lobby.thread_id == thread
    callback_data: str = lobby.button("Join")["callback_data"]
    table_id = callback_data.split(":")[1]
    for user_id in friends.ids[1:]:
        await bot.send(fake.press(user_id, lobby, "Join"))
    await bot.send(fake.press(host, lobby, "Start"))
    return table_id


# moves before a group is upgraded: fewer than the 7 cards a player must lay to go out, so always mid-game
MIGRATE_AFTER = 4


async def play(bot: Harness, friends: Friends, table_id: str, chat_id: int, *, settle: bool = True,
               migrate_after: int | None = None,
               on_move: Callable[[int, dict[str, Any]], None] | None = None) -> Played:
    """Play to the end. A person who started the bot moves once their one turn message is there; the other
    once the group names them (``settle``) or at once. ``on_move(person, action)`` hears each move as it is made."""
    service, fake = bot.service, bot.fake
    played = Played(table_id, chat_id)
    last_turn: dict[int, int] = {}
    last_move: tuple[int, str] | None = None  # who moved last, and how
    moves = 0
    while True:
        if settle:
            await bot.settle()
        info = await service.info(table_id)
        if info.status != "playing":
            played.info = info
            return played
        [seat] = info.to_act
        user_id = info.seats[seat].user_id
        assert user_id is not None, "no AI at this table"
        if user_id in friends.starters:
            # a turn of theirs begins: the message of their last turn is no message for this one
            begins = last_move is None or last_move[0] != user_id or last_move[1] == "end_turn"

            def one_turn_message(u: int = user_id, old: int | None = last_turn.get(user_id) if begins else None
                                 ) -> bool:
                live = [m for m in turn_messages(bot, u, table_id) if not m.deleted]
                return len(live) == 1 and live[0].message_id != old

            await fake.wait_until(one_turn_message, within=30)  # a person looks at their phone until it is there
            [live] = [m for m in turn_messages(bot, user_id, table_id) if not m.deleted]
            if last_turn.get(user_id) != live.message_id:
                played.turns[user_id] += 1  # a new turn is a new message
                last_turn[user_id] = live.message_id
            for other in friends.starters if settle else ():
                if other != user_id:
                    assert not [m for m in turn_messages(bot, other, table_id) if not m.deleted], "one turn at a time"
        elif settle:
            status = fake.last_message(played.chat_id)
            assert f"Your turn, {info.seats[seat].name}." in status.shown
            assert f'<a href="tg://user?id={user_id}">' in status.text
        view = await service.view(table_id, user_id)
        action = choose(view["state"]["legal"])
        if on_move is not None:
            on_move(user_id, action)
        await service.act(table_id, user_id, action, view["seq"])
        if user_id not in friends.starters and action["type"] == "end_turn":
            played.turns[user_id] += 1
        last_move = (user_id, action["type"])
        moves += 1
        if migrate_after is not None and moves == migrate_after:
            assert (await service.info(table_id)).status == "playing", "the group is to be upgraded mid-game"
            await migrate(bot, chat_id, settle=settle)
            played.chat_id, played.moved_from = int(f"-100{abs(chat_id)}"), chat_id


async def migrate(bot: Harness, chat_id: int, *, settle: bool) -> None:
    """The group becomes a supergroup. Settled, Telegram tells the bot before anything else is sent there;
    unsettled (busy groups), writes in flight may reach the old id first and be refused with its new id."""
    if settle:
        await bot.settle()
    for update in bot.fake.migrate_group(chat_id):
        if settle:
            await bot.send(update)
        else:
            await bot.fake.send_update(update)


def turns_in_log(actions: list[Any], seat: int) -> int:
    """How many turns a seat had: runs of its moves, each ended by end_turn or by the game's end."""
    runs, previous = 0, None
    for entry in actions:
        if entry.seat == seat and (previous is None or previous.seat != seat or previous.action["type"] == "end_turn"):
            runs += 1
        previous = entry
    return runs


async def check_record(bot: Harness, friends: Friends, played: Played, *, thread: int | None = None,
                       chat_messages: int = 2) -> dict[int, tuple[int, int]]:
    """Every person got exactly one turn message per turn, each removed; the chat got one status message edited
    in place and one summary. Returns each starter's (messages, turns)."""
    delivered = await check_turns(bot, friends, played)
    assert bot.fake.messages(friends.stranger) == []
    table_messages = [m for m in bot.fake.messages(played.chat_id) if played.table_id in str(m.reply_markup)]
    mentions = [m for m in table_messages if "it is your turn in" in m.shown]  # the stranger, away a while on a turn
    assert all(m.deleted for m in mentions), "each mention is removed once its turn is over"
    table_messages = [m for m in table_messages if m not in mentions]
    if played.moved_from is not None and len(table_messages) == chat_messages - 1:
        # the game ended before the bot heard its group was upgraded: the status stayed behind in the old group,
        # which the bot can no longer change, and only the summary is in the supergroup
        [status] = [m for m in bot.fake.messages(played.moved_from) if played.table_id in str(m.reply_markup)]
        summary = table_messages[-1]
        assert "playing" in status.shown
    else:
        status, summary = table_messages[-2:]
        assert len(table_messages) == chat_messages
        assert "playing" in status.shown and status.edits and status.deleted
    assert "game over" in summary.shown and not summary.deleted
    assert status.thread_id == summary.thread_id == thread
    return delivered


async def check_turns(bot: Harness, friends: Friends, played: Played) -> dict[int, tuple[int, int]]:
    """Every person who may get messages got exactly one turn message per turn, each removed once it was over.
    Returns each one's (messages, turns)."""
    info = played.info
    assert info is not None and info.status == "finished"
    log = await bot.service.store.tables.load_actions(played.table_id)
    delivered = {}
    for user_id in friends.starters:
        seat = info.seat_of(user_id)
        assert seat is not None
        expected = turns_in_log(log, seat)
        messages = turn_messages(bot, user_id, played.table_id)
        assert played.turns[user_id] == expected
        assert len(messages) == expected, (user_id, len(messages), expected)
        assert all(m.deleted for m in messages), "every turn message is removed once the turn is over"
        delivered[user_id] = (len(messages), expected)
    return delivered

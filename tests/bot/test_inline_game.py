"""Two friends play a whole game of Kings in the Corner started by inline mode in their private chat.

Ann started the bot; Bob never did. Ann sends the invitation from her chat with Bob; Bob joins
from it, and when the Mini App asks whether the bot may write to him (``requestWriteAccess``)
he allows it, which Telegram tells the bot with a ``write_access_allowed`` service message in
his chat with the bot. From then on each of them, away from the table, gets a turn message on
every turn and moves once it is there; the table's one message follows the game to its summary.

With ``CARDROOM_TRANSCRIPT=<markdown file>`` the test also writes the whole conversation, as
each of them saw it, between the file's transcript markers (docs/bot.md holds one).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.bot.conftest import ANN, BOB, Harness
from tests.bot.friends import Friends, check_turns, play, refused
from tests.bot.test_inline_invitations import bot as bot
from tests.bot.transcript import Transcript, write_section

TRANSCRIPT = os.environ.get("CARDROOM_TRANSCRIPT")  # a Markdown file whose example conversation is rewritten


def describe(action: dict[str, Any]) -> str:
    """A Kings in the Corner move in words, as the Mini App shows it being made."""
    match action["type"]:
        case "build":
            return f"plays {action['card']} on the {action['space']} pile"
        case "place_king":
            return f"puts {action['card']} in the {action['corner']} corner"
        case "fill_side":
            return f"lays {action['card']} on the empty {action['side']} side"
        case "move_pile":
            return f"moves the {action['src']} pile onto {action['dst']}"
        case "move_king_pile":
            return f"moves the {action['side']} pile onto the king in {action['corner']}"
        case "end_turn":
            return "ends the turn"
    return str(action["type"])


async def test_two_friends_play_a_whole_game_from_an_invitation_each_told_of_their_turns_once_allowed(
    bot: Harness,
) -> None:
    fake, service = bot.fake, bot.service
    friends = Friends((ANN, BOB), ("Ann", "Bob"), strangers=0)
    talk = Transcript(fake, {ANN: "Ann", BOB: "Bob"}, inline_chat="Ann+Bob")

    talk.did(ANN, "types @cardroom_test_bot in her private chat with Bob")
    query = await bot.send(fake.inline_query(ANN, "", chat=BOB))
    talk.did(ANN, "sends Kings in the Corner")
    chosen = fake.choose_inline_result(query, "g:kings_corner")
    assert chosen.inline_message_id is not None
    message = fake.inline_message(chosen.inline_message_id)
    talk.sent_via_bot(message)
    for update in chosen.updates:
        await bot.send(update)
    [info] = [t for t in await service.tables_of(ANN) if t.chat_id is None]

    talk.did(BOB, "taps Join")
    await bot.send(fake.press_inline(BOB, chosen.inline_message_id, "Join"))
    assert (await service.info(info.id)).seat_of(BOB) == 1
    bob = await service.people.person(BOB)
    assert bob is None or not bob.can_message, "Bob never started the bot"
    assert fake.messages(BOB) == []

    talk.did(BOB, "opens the table in the Mini App; asked whether the bot may message him, he allows it")
    await bot.send(fake.user_allows_write_access(BOB))
    bob = await service.people.person(BOB)
    assert bob is not None and bob.can_message, "the bot learnt it from Telegram's service message"
    talk.did(BOB, "puts the phone away")

    talk.did(ANN, "taps Start")
    await bot.send(fake.press_inline(ANN, chosen.inline_message_id, "Start"))
    assert "playing" in message.shown
    played = await play(bot, friends, info.id, BOB,
                        on_move=lambda user_id, action: talk.did(user_id, describe(action)))

    assert played.info is not None and played.info.status == "finished"
    turns = await check_turns(bot, friends, played)
    assert turns[ANN][0] > 0 and turns[BOB][0] > 0, "each was told of every turn of theirs"
    assert "game over" in message.shown and [b["text"] for b in message.buttons] == ["Rematch"]
    assert not message.deleted and refused(bot) == []
    if TRANSCRIPT:
        write_section(Path(TRANSCRIPT), "```text\n" + talk.render() + "```\n")

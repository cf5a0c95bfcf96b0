"""The bot's place in chats: removed from or added to a group, blocked or unblocked by a person, groups upgraded.

Telegram says so with ``my_chat_member`` updates and, for a basic group that became a
supergroup, with service messages carrying ``migrate_to_chat_id`` / ``migrate_from_chat_id``.
"""

from __future__ import annotations

from telegram import ChatMember, Update

from tgbot.context import Context, display_name, is_private

OUT = (ChatMember.LEFT, ChatMember.BANNED)


async def membership_changed(update: Update, context: Context) -> None:
    """The bot was removed from or added to a group, or a person blocked or unblocked it."""
    change = update.my_chat_member
    if change is None:
        return
    notifier, out = context.bot_data.notifier, change.new_chat_member.status in OUT
    if is_private(change.chat):
        user = change.from_user
        if out:
            await notifier.cannot_message(user.id)
        else:
            await context.bot_data.service.people.remember(user.id, display_name(user))
            await notifier.can_message_again(user.id)
    elif out:
        notifier.chat_gone(change.chat.id)
    else:
        notifier.chat_back(change.chat.id)


async def group_migrated(update: Update, context: Context) -> None:
    """A basic group became a supergroup: its tables move to the new chat id."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        await context.bot_data.notifier.chat_migrated(message.chat.id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id:
        await context.bot_data.notifier.chat_migrated(message.migrate_from_chat_id, message.chat.id)

"""Where a button or a link takes people: the Mini App (direct link or web_app URL) and bot deep links."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from telegram import InlineKeyboardButton, WebAppInfo

from engine.config import Settings
from engine.service.table_ids import REPLAY_PREFIX

TABLE_PAYLOAD = "t_"
HISTORY_PAYLOAD = "history"  # ?start=history: a player's last games, asked for in a group


@dataclass(frozen=True, slots=True)
class Links:
    """Link builders for one bot; ``bot_username`` comes from the settings or from getMe."""

    bot_username: str
    webapp_url: str | None
    short_name: str | None

    @classmethod
    def of(cls, settings: Settings, bot_username: str) -> Links:
        """Links for the configured Mini App and the bot's username."""
        return cls(bot_username.lstrip("@"), settings.webapp_url, settings.miniapp_short_name)

    def direct(self, table_id: str) -> str | None:
        """The Mini App's direct link that opens a table (works in any chat), if a short name is set."""
        if not self.short_name:
            return None
        return f"https://t.me/{self.bot_username}/{self.short_name}?startapp={quote(table_id)}"

    def replay(self, table_id: str) -> str | None:
        """A link that opens a finished game's replay in the Mini App (shareable in any chat)."""
        if self.short_name:
            return f"https://t.me/{self.bot_username}/{self.short_name}?startapp={REPLAY_PREFIX}{quote(table_id)}"
        if self.webapp_url:
            return f"{self.webapp_url}/?replay={quote(table_id)}"
        return None

    def web_app(self, table_id: str) -> str | None:
        """The page's own URL for a table (what a web_app button opens)."""
        if not self.webapp_url:
            return None
        return f"{self.webapp_url}/?table={quote(table_id)}"

    def deep(self, payload: str = "") -> str:
        """A ``t.me/<bot>?start=...`` link: opens a private chat with the bot and its Start button."""
        if not payload:
            return f"https://t.me/{self.bot_username}"
        return f"https://t.me/{self.bot_username}?start={quote(payload)}"

    def table_deep(self, table_id: str) -> str:
        """The deep link that says hello to the bot from a table (so it may send turn messages)."""
        return self.deep(TABLE_PAYLOAD + table_id)

    @property
    def can_web_app(self) -> bool:
        """Telegram opens web_app buttons only over https."""
        return bool(self.webapp_url and self.webapp_url.startswith("https://"))

    def open_button(self, label: str, table_id: str, *, private: bool) -> InlineKeyboardButton:
        """An "Open table" button: a real web_app button in a private chat, else a link."""
        web_app = self.web_app(table_id)
        if private and self.can_web_app and web_app:
            return InlineKeyboardButton(label, web_app=WebAppInfo(web_app))
        direct = self.direct(table_id)
        if direct:
            return InlineKeyboardButton(label, url=direct)
        if private or not web_app:
            return InlineKeyboardButton(label, url=web_app or self.table_deep(table_id))
        return InlineKeyboardButton(label, url=self.table_deep(table_id))

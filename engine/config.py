"""Settings from the environment, read once at start-up and passed down explicitly."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the process needs to know about where it runs."""

    host: str = "127.0.0.1"
    port: int = 8080
    data_dir: Path = Path("data")
    database_url: str | None = None
    bot_token: str | None = None
    bot_api_base_url: str | None = None
    webapp_url: str | None = None
    miniapp_short_name: str | None = None
    bot_username: str | None = None
    webhook_secret: str | None = None
    ai_delay: float = 0.8
    initdata_max_age: int = 24 * 3600
    lobby_expiry_hours: float = 24.0  # a lobby nobody touches for this long is cancelled
    game_expiry_days: float = 14.0  # so is an untimed game with no move for this long

    @property
    def local_mode(self) -> bool:
        """No bot token: the Mini App offers a local sign-in and AI players in any browser."""
        return not self.bot_token

    @property
    def public_url(self) -> bool:
        """Whether ``webapp_url`` is reachable from Telegram (https), so a webhook can be used."""
        return bool(self.webapp_url and self.webapp_url.startswith("https://"))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from environment variables."""
        env = os.environ if env is None else env

        def text(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        return cls(
            host=text("HOST") or "127.0.0.1",
            port=int(text("PORT") or 8080),
            data_dir=Path(text("DATA_DIR") or "data"),
            database_url=text("DATABASE_URL"),
            bot_token=text("BOT_TOKEN"),
            bot_api_base_url=text("BOT_API_BASE_URL"),
            webapp_url=(text("WEBAPP_URL") or "").rstrip("/") or None,
            miniapp_short_name=text("MINIAPP_SHORT_NAME"),
            bot_username=text("BOT_USERNAME"),
            webhook_secret=text("WEBHOOK_SECRET"),
            ai_delay=float(text("AI_DELAY") or 0.8),
            initdata_max_age=int(text("INITDATA_MAX_AGE") or 24 * 3600),
            lobby_expiry_hours=float(text("LOBBY_EXPIRY_HOURS") or 24.0),
            game_expiry_days=float(text("GAME_EXPIRY_DAYS") or 14.0),
        )

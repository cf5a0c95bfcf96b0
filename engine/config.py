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
    process_url: str | None = None  # this process's own address, where another process sends a table's sockets
    miniapp_short_name: str | None = None
    bot_username: str | None = None
    webhook_secret: str | None = None
    daily_secret: str | None = None  # the deals of the day's seeds come from it (else one kept in the store)
    ai_delay: float = 0.45
    commit_delay: float = 0.0  # SQLite: seconds a commit of moves may wait for other tables' moves to share its sync
    initdata_max_age: int = 24 * 3600
    # limits that keep one client from taking the web process down
    hello_timeout: float = 5.0  # seconds a new table socket has to sign in, counted from when it opened
    max_unauthenticated_sockets: int = 2048  # sockets still waiting for their hello, in all (a reconnect wave)
    max_unauthenticated_per_address: int = 16  # ... and from one remote address
    # reverse proxies (addresses or CIDRs) whose X-Forwarded-For / Forwarded name the client's address
    trusted_proxies: tuple[str, ...] = ()
    metrics_allow: tuple[str, ...] = ()  # addresses or CIDRs /metrics answers besides loopback
    log_format: str = "text"  # "json": one JSON object a line (engine.logs)
    max_sockets_per_user: int = 12  # open table sockets of one user
    max_sockets_per_table: int = 100  # open sockets at one table (players and spectators)
    max_open_tables_per_user: int = 20  # tables in the lobby or being played where a user has a seat
    new_tables_rate: float = 10.0  # new tables a second the process opens, for everyone together (0: no limit)
    new_tables_burst: int = 40  # ... and at once
    body_timeout: float = 10.0  # seconds to receive a whole request body
    flood_rate: float = 20.0  # socket frames a second, on average
    flood_burst: int = 40  # socket frames in one burst
    api_rate: float = 10.0  # /api calls a second of one person, on average (a page load makes about five)
    api_burst: int = 60  # ... and in one burst
    lobby_expiry_hours: float = 24.0  # a lobby nobody touches for this long is cancelled
    game_expiry_days: float = 14.0  # so is an untimed game with no move for this long
    stop_timeout: float = 10.0  # seconds a graceful stop (SIGTERM) may take before the process exits anyway

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

        base = cls()
        return cls(
            host=text("HOST") or "127.0.0.1",
            port=int(text("PORT") or 8080),
            data_dir=Path(text("DATA_DIR") or "data"),
            database_url=text("DATABASE_URL"),
            bot_token=text("BOT_TOKEN"),
            bot_api_base_url=text("BOT_API_BASE_URL"),
            webapp_url=(text("WEBAPP_URL") or "").rstrip("/") or None,
            process_url=(text("PROCESS_URL") or "").rstrip("/") or None,
            miniapp_short_name=text("MINIAPP_SHORT_NAME"),
            bot_username=text("BOT_USERNAME"),
            webhook_secret=text("WEBHOOK_SECRET"),
            daily_secret=text("DAILY_SECRET"),
            ai_delay=float(text("AI_DELAY") or base.ai_delay),
            commit_delay=float(text("COMMIT_DELAY_MS") or base.commit_delay * 1000) / 1000,
            initdata_max_age=int(text("INITDATA_MAX_AGE") or 24 * 3600),
            hello_timeout=float(text("HELLO_TIMEOUT") or base.hello_timeout),
            max_unauthenticated_sockets=int(text("MAX_UNAUTHENTICATED_SOCKETS") or base.max_unauthenticated_sockets),
            max_unauthenticated_per_address=int(
                text("MAX_UNAUTHENTICATED_PER_ADDRESS") or base.max_unauthenticated_per_address),
            trusted_proxies=tuple(part.strip() for part in (text("TRUSTED_PROXIES") or "").split(",") if part.strip()),
            metrics_allow=tuple(part.strip() for part in (text("METRICS_ALLOW") or "").split(",") if part.strip()),
            log_format=(text("LOG_FORMAT") or "text").lower(),
            max_sockets_per_user=int(text("MAX_SOCKETS_PER_USER") or base.max_sockets_per_user),
            max_sockets_per_table=int(text("MAX_SOCKETS_PER_TABLE") or base.max_sockets_per_table),
            max_open_tables_per_user=int(text("MAX_OPEN_TABLES_PER_USER") or base.max_open_tables_per_user),
            new_tables_rate=float(text("NEW_TABLES_RATE") or base.new_tables_rate),
            new_tables_burst=int(text("NEW_TABLES_BURST") or base.new_tables_burst),
            body_timeout=float(text("BODY_TIMEOUT") or base.body_timeout),
            flood_rate=float(text("FLOOD_RATE") or base.flood_rate),
            stop_timeout=float(text("STOP_TIMEOUT") or base.stop_timeout),
            flood_burst=int(text("FLOOD_BURST") or base.flood_burst),
            api_rate=float(text("API_RATE") or base.api_rate),
            api_burst=int(text("API_BURST") or base.api_burst),
            lobby_expiry_hours=float(text("LOBBY_EXPIRY_HOURS") or 24.0),
            game_expiry_days=float(text("GAME_EXPIRY_DAYS") or 14.0),
        )

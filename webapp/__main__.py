"""``python -m webapp``: serve the Mini App (and run the bot when BOT_TOKEN is set) on HOST:PORT."""

from __future__ import annotations

import logging

from aiohttp import web

from engine.config import Settings
from engine.logs import setup_logging
from webapp.app import freeze_start_up, make_app

# seconds aiohttp waits for requests still running once the graceful stop (webapp.shutdown, within STOP_TIMEOUT)
# has closed every table socket: what is left is a request or two, not a game
SHUTDOWN_TIMEOUT = 1.0


def main() -> None:
    """Read the settings from the environment and serve until interrupted."""
    settings = Settings.from_env()
    setup_logging(settings.log_format)
    if settings.local_mode:
        ready = f"No BOT_TOKEN: local mode. Open http://{settings.host}:{settings.port}/ to play against AI players."
    else:
        ready = f"Serving the Mini App on http://{settings.host}:{settings.port}/ with the bot."
    # print() is called by aiohttp once the socket listens, so the address is only shown when it works.
    app = make_app(settings)
    app.on_startup.append(freeze_start_up)
    web.run_app(app, host=settings.host, port=settings.port, access_log=None,
                print=lambda _: logging.getLogger("webapp").info(ready), shutdown_timeout=SHUTDOWN_TIMEOUT)


if __name__ == "__main__":
    main()

"""``python -m webapp``: serve the Mini App (and run the bot when BOT_TOKEN is set) on HOST:PORT."""

from __future__ import annotations

import logging

from aiohttp import web

from engine.config import Settings
from webapp.app import make_app


def main() -> None:
    """Read the settings from the environment and serve until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = Settings.from_env()
    if settings.local_mode:
        logging.getLogger("webapp").info(
            "No BOT_TOKEN: local mode. Open http://%s:%d/ to play against AI players.", settings.host, settings.port)
    web.run_app(make_app(settings), host=settings.host, port=settings.port, access_log=None,
                print=None, shutdown_timeout=5.0)


if __name__ == "__main__":
    main()

"""How long a whole Coins game against AI takes a person tapping in the browser, at the product's default settings.

Starts the web app on a loopback port with the AI's think delay of the default settings (``Settings().ai_delay``,
or ``--delay``), deals one Coins game with the default options against two AI players from a fixed seed, and opens
it in Debian's Chromium at 360×640 as Telegram opens a Mini App. Every time the page says "Your turn", the
person taps the first card the rules list as legal (one tap plays it, the default), so the same seed plays the
same game whatever the page's pacing. Printed: the game's wall time from the deal to the game-over sheet, the
person's turns, and how that time splits between waiting for the table (from a tap to the next "Your turn") and
the person's own moments; ``--reduced`` asks for reduced motion.

    python -m bench.coins_wall
    python -m bench.coins_wall --delay 0.8 --reduced
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import web
from playwright.async_api import async_playwright

from engine.config import Settings
from engine.service.tables import TableService
from engine.store.database import Store, database_url
from tests.browser.conftest import BOT_USERNAME, CHROMIUM, SHORT_NAME, TEST_TOKEN, open_phone
from webapp.app import make_app

SEED = "c0" * 32
SEQ_PAST = "s => Number(document.querySelector('.table-screen').dataset.seq) > s"
UID = 9901
USER: dict[str, Any] = {"id": UID, "first_name": "Ann", "language_code": "en"}
NEXT_JS = """() => document.querySelector('.sheet.game-over') ? 'over'
  : document.querySelector('.status.mine') ? 'turn' : false"""


async def run(delay: float, reduced: bool, seed: str, verbose: bool = False) -> int:
    """Play one game and print its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), ai_delay=delay, bot_token=TEST_TOKEN, bot_username=BOT_USERNAME,
                            miniapp_short_name=SHORT_NAME, initdata_max_age=3600)
        store = Store(database_url(None, settings.data_dir))
        await store.open()
        service = TableService(store, ai_delay=settings.ai_delay)
        await service.start()
        runner = web.AppRunner(make_app(settings, service=service, bot=False))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                   args=["--no-sandbox", "--disable-gpu"])
                server: Any = type("S", (), {"url": f"http://{host}:{port}"})()
                info = await service.play_now("coins", UID, "Ann", {}, seed=seed)
                start = time.monotonic()
                phone = await open_phone(browser, server, USER, start_param=info.id,
                                         viewport={"width": 360, "height": 640})
                page = phone.page
                await page.emulate_media(reduced_motion="reduce" if reduced else "no-preference")
                turns, waited, tapped, waits = 0, 0.0, None, []
                while True:
                    what = await (await page.wait_for_function(NEXT_JS, timeout=120_000)).json_value()
                    now = time.monotonic()
                    if tapped is not None:
                        waited += now - tapped
                        waits.append(round(now - tapped, 2))
                    if what == "over":
                        break
                    view = await service.view(info.id, UID)
                    card = view["state"]["legal"][0]
                    before = int(await page.locator(".table-screen").get_attribute("data-seq") or "-1")
                    await page.locator(f'.hand .card[data-card="{card}"]').tap()
                    await page.wait_for_function(SEQ_PAST, arg=before)
                    tapped = time.monotonic()
                    turns += 1
                total = time.monotonic() - start
                state = (await service.view(info.id, UID))["state"]
                errors = list(phone.errors)
                await browser.close()
        finally:
            await runner.cleanup()
            await service.close()
            await store.close()
    print(f"ai_delay {delay:.2f} s{' reduced motion' if reduced else ''}: a whole Coins game in {total:.1f} s, "
          f"{turns} turns of yours over {state['hand_no']} hands (scores {state['scores']}); "
          f"{waited:.1f} s waiting on the table after your taps, {total - waited:.1f} s to your taps")
    if verbose:
        print("waits after each tap, s:", waits)
    if errors:
        print("page errors:", errors, file=sys.stderr)
        return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay", type=float, default=Settings().ai_delay, help="the AI's think delay, seconds")
    parser.add_argument("--reduced", action="store_true", help="prefers-reduced-motion: reduce")
    parser.add_argument("--seed", default=SEED)
    parser.add_argument("--verbose", action="store_true", help="print the wait after each tap")
    args = parser.parse_args()
    return asyncio.run(run(args.delay, args.reduced, args.seed, args.verbose))


if __name__ == "__main__":
    sys.exit(main())

"""How fast a change reaches another process: PostgreSQL LISTEN/NOTIFY against Redis pub/sub, on this machine.

    python -m bench.bus [--messages 2000]

Each round sends one notice and waits until the listening connection has it (the
latency a player on another process waits for), then a burst of notices measures
throughput. PostgreSQL's notice is sent inside a transaction, as the store does it, so
it is delivered only with its commit; Redis is measured as a plain PUBLISH.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable

import asyncpg

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"


def summary(name: str, latencies: list[float], burst: int, burst_seconds: float) -> str:
    ordered = sorted(latencies)
    p99 = ordered[int(len(ordered) * 0.99) - 1]
    return (f"{name:<28} p50 {statistics.median(ordered) * 1e3:6.3f} ms   p99 {p99 * 1e3:6.3f} ms   "
            f"burst {burst / burst_seconds:8.0f} msg/s")


async def measure(send: Callable[[str], Awaitable[None]], heard: asyncio.Queue[str], messages: int
                  ) -> tuple[list[float], float]:
    latencies = []
    for i in range(messages):
        began = time.perf_counter()
        await send(f"t{i}|{i}")
        await heard.get()
        latencies.append(time.perf_counter() - began)
    began = time.perf_counter()
    for i in range(messages):
        await send(f"b{i}|{i}")
    for _ in range(messages):
        await heard.get()
    return latencies, time.perf_counter() - began


async def postgres(messages: int) -> str:
    heard: asyncio.Queue[str] = asyncio.Queue()
    listener = await asyncpg.connect(POSTGRES)
    sender = await asyncpg.connect(POSTGRES)
    await listener.add_listener("bench_bus", lambda *args: heard.put_nowait(args[-1]))

    async def send(payload: str) -> None:
        async with sender.transaction():
            await sender.execute("SELECT pg_notify('bench_bus', $1)", payload)

    latencies, burst = await measure(send, heard, messages)
    await listener.close()
    await sender.close()
    return summary("PostgreSQL NOTIFY (in a tx)", latencies, messages, burst)


async def redis_pubsub(messages: int) -> str:
    try:
        import redis.asyncio as redis
    except ImportError:
        return "Redis pub/sub                (install the bench extra: pip install -e '.[bench]')"
    client = redis.from_url(REDIS)
    pubsub = client.pubsub()
    await pubsub.subscribe("bench_bus")
    heard: asyncio.Queue[str] = asyncio.Queue()

    async def pump() -> None:
        async for message in pubsub.listen():
            if message["type"] == "message":
                heard.put_nowait(message["data"].decode())

    task = asyncio.create_task(pump())
    publisher = redis.from_url(REDIS)

    async def send(payload: str) -> None:
        await publisher.publish("bench_bus", payload)

    latencies, burst = await measure(send, heard, messages)
    task.cancel()
    # redis leaves PubSub.aclose unannotated; without the bench extra installed the ignore has nothing to silence
    await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]
    await client.aclose()
    await publisher.aclose()
    return summary("Redis PUBLISH", latencies, messages, burst)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=2000)
    args = parser.parse_args()
    print(await postgres(args.messages))
    print(await redis_pubsub(args.messages))


if __name__ == "__main__":
    asyncio.run(main())

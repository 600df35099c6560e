"""The floor: a bare Channels consumer that fans one message out to a group of sockets.

Served by daphne as `bench.floor:application` with the same channel layer as the site (in-memory,
or Redis pub/sub when REDIS_URL is set). A socket sends {"seq": n, "size": b}; the consumer
group_sends it and every member of the group (the sender too) gets one frame of about b bytes
carrying `data-version="n"`. No database, no templates, no sessions: whatever the site's latency
adds above this is ours. Like the site's consumers, it dispatches each message without Channels'
thread hop to close database connections (games/tables/dispatch.py): it has none to close.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kilforth_site.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from bench.counters import trim  # noqa: E402
from bench.stats import collector_paused  # noqa: E402
from games.tables.dispatch import DirectDispatch  # noqa: E402
from kilforth_site.collector import tune_gc  # noqa: E402

# Served as the site is, the collector set up alike (the floor allocates little: fair both ways).
if os.path.basename(sys.argv[0]) == "daphne":
    tune_gc()

_pads: dict[int, str] = {}


def frame(seq: int, size: int) -> str:
    pad = _pads.get(size)
    if pad is None:
        pad = _pads[size] = "x" * max(0, size - 64)
    return f'<div id="game-board" data-version="{seq}">{pad}</div>'


class FloorConsumer(DirectDispatch, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        query = parse_qs(self.scope["query_string"].decode())
        self.group = "floor-" + query.get("g", ["0"])[0]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message = json.loads(text_data or "{}")
        event = {"type": "floor.fanout", "seq": int(message["seq"]), "size": int(message["size"])}
        await self.channel_layer.group_send(self.group, event)

    async def floor_fanout(self, event: dict) -> None:
        await self.send(text_data=frame(event["seq"], event["size"]))


async def trimmed(scope: dict, receive: Callable, send: Callable) -> None:
    """HTTP: trim the allocator before the load test reads the RSS (as the site's servers do:
    bench/asgi.py); answers 204."""
    trim()
    await send({"type": "http.response.start", "status": 204, "headers": []})
    await send({"type": "http.response.body", "body": b""})


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("floor/", FloorConsumer.as_asgi())]), "http": trimmed}
)


# The client side of the floor run.


@dataclass
class FloorGroup:
    number: int
    sockets: list = field(default_factory=list)
    pending: dict[int, tuple[float, set[int], float]] = field(default_factory=dict)
    seq: int = 0


async def run_floor(
    addresses: list[str],
    groups: int,
    per_group: int,
    rate: float,
    seconds: float,
    size: int,
    progress: bool = True,
    seed: int = 1,
    route: str = "spread",
    connected: Callable[[], None] | None = None,
    first_connected: Callable[[], None] | None = None,
) -> dict:
    """Fan out `rate` messages per group per second for `seconds`; latencies in ms.
    `first_connected` is called once each group's first socket is open, `connected` once all
    are (as the load test opens ours: bench/load.py)."""
    from tqdm import tqdm

    from .clients import address_of, board_version, open_socket

    latencies: list[float] = []
    last: list[float] = []
    closed = 0
    closing = asyncio.Event()
    all_groups = [FloorGroup(g) for g in range(groups)]
    readers = []

    async def read(group: FloorGroup, index: int, ws: object) -> None:
        nonlocal closed
        try:
            async for text in ws:
                now = time.perf_counter()
                seq = board_version(text)
                entry = group.pending.get(seq)
                if entry is None or index not in entry[1]:
                    continue
                entry[1].discard(index)
                ms = (now - entry[0]) * 1000
                latencies.append(ms)
                worst = max(entry[2], ms)
                group.pending[seq] = (entry[0], entry[1], worst)
                if not entry[1]:
                    last.append(worst)
                    del group.pending[seq]
        except Exception:  # noqa: BLE001 - a closed socket is counted below
            pass
        if not closing.is_set():
            closed += 1

    gate = asyncio.Semaphore(50)
    bar = tqdm(total=groups * per_group, desc="floor: sockets", disable=not progress)

    async def connect(group: FloorGroup, index: int) -> None:
        address = address_of(addresses, group.number, index, route)
        async with gate:
            ws = await open_socket(address, f"/floor/?g={group.number}")
        group.sockets.append((index, ws))
        readers.append(asyncio.ensure_future(read(group, index, ws)))
        bar.update()

    await asyncio.gather(*(connect(g, 0) for g in all_groups))
    await asyncio.sleep(0.5)
    if first_connected is not None:
        first_connected()
    await asyncio.gather(*(connect(g, i) for g in all_groups for i in range(1, per_group)))
    bar.close()
    for group in all_groups:
        group.sockets.sort(key=lambda pair: pair[0])
    await asyncio.sleep(0.5)
    if connected is not None:
        connected()

    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    period = 1 / rate
    sent = 0

    async def drive(group: FloorGroup) -> None:
        nonlocal sent
        await asyncio.sleep(rng.random() * period)
        tick = loop.time()
        while loop.time() < end:
            group.seq += 1
            members = {i for i, _ in group.sockets}
            group.pending[group.seq] = (time.perf_counter(), members, 0.0)
            sent += 1
            await group.sockets[0][1].send(json.dumps({"seq": group.seq, "size": size}))
            tick += period
            await asyncio.sleep(max(0.0, tick - loop.time()))

    bar = tqdm(total=int(seconds), desc="floor: seconds", disable=not progress)

    async def tick_bar() -> None:
        while loop.time() < end:
            await asyncio.sleep(1)
            bar.update()

    with collector_paused():  # as the site's run is measured (bench/load.py)
        await asyncio.gather(tick_bar(), *(drive(g) for g in all_groups))
    bar.close()
    deadline = loop.time() + 5
    while any(g.pending for g in all_groups) and loop.time() < deadline:  # noqa: ASYNC110 - bounded poll
        await asyncio.sleep(0.05)
    lost = sum(len(entry[1]) for g in all_groups for entry in g.pending.values())
    closing.set()
    await asyncio.gather(
        *(ws.close() for g in all_groups for _, ws in g.sockets), return_exceptions=True
    )
    for reader in readers:
        reader.cancel()
    return {"latencies": latencies, "last": last, "sent": sent, "lost": lost, "closed": closed}

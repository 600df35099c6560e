"""Websocket clients for the load test: viewers that time every board version they receive."""

from __future__ import annotations

import asyncio
import html
import re
import time
from collections import Counter
from dataclasses import dataclass, field

import websockets
from websockets.asyncio.client import ClientConnection

BOARD_VERSION = re.compile(r'id="(?:game-board|kb-version)"[^>]*?data-version="(\d+)"')
ERROR_CODE = re.compile(r'data-error="([^"]+)"')
KEY = re.compile(r'name="key" value="([^"]*)"')
MINE = 'class="kb-decision is-mine"'


def board_version(frame: str) -> int | None:
    found = BOARD_VERSION.search(frame)
    return int(found.group(1)) if found else None


def my_keys(frame: str) -> list[str]:
    """The decision keys of the prompt this viewer must answer ([] when not asked).

    A partial frame always carries the asked seat's decision part (its forms name the version).
    """
    start = frame.find(MINE)
    if start < 0:
        return []
    end = frame.find("</section>", start)
    return [html.unescape(k) for k in KEY.findall(frame, start, end if end > 0 else len(frame))]


def address_of(addresses: list[str], group: int, index: int, route: str) -> str:
    """The server a socket of table (or floor group) `group` opens to: the processes in turn
    for its viewers by their `index` ("spread"), or the table's own process ("table")."""
    return addresses[(group + (index if route == "spread" else 0)) % len(addresses)]


async def open_socket(
    address: str, path: str, session_key: str | None = None, wait: float = 30
) -> ClientConnection:
    headers = {"Cookie": f"sessionid={session_key}"} if session_key else None
    return await websockets.connect(
        f"ws://{address}{path}",
        origin=f"http://{address}",
        additional_headers=headers,
        compression=None,
        max_size=None,
        ping_interval=None,
        proxy=None,
        open_timeout=wait,
    )


@dataclass
class Totals:
    """What every viewer of a run saw, in one place."""

    frames: int = 0
    bytes: int = 0
    errors: Counter = field(default_factory=Counter)
    closed: int = 0
    latencies: list[float] = field(default_factory=list)  # ms, one per (decision, viewer)
    last_viewer: list[float] = field(default_factory=list)  # ms, one per decision
    submitted: int = 0
    refused: int = 0
    # A tick found the previous decision not yet shown to every seat (back at its player, or
    # at the seat asked next): the servers are behind, so the tick is skipped.
    late_ticks: int = 0
    idle_ticks: int = 0  # a tick found every seat up to date and nobody asked (a finished game)
    lost: int = 0
    last_frame_at: float = 0.0


@dataclass
class Pending:
    version: int
    sent_at: float
    waiting: set[int]
    latest: float = 0.0


class Viewer:
    def __init__(
        self, table: TableClient, index: int, seat: int | None, session: str | None
    ) -> None:
        self.table = table
        self.index = index
        self.seat = seat  # None for a spectator
        self.session = session
        self.version = -1
        self.keys: list[str] = []
        self.ws: ClientConnection | None = None

    async def read(self, totals: Totals, closing: asyncio.Event) -> None:
        assert self.ws is not None
        try:
            async for frame in self.ws:
                now = time.perf_counter()
                totals.frames += 1
                totals.bytes += len(frame)
                totals.last_frame_at = now
                if 'data-error="' in frame:
                    self.table.error(self, ERROR_CODE.search(frame), totals)
                version = board_version(frame)
                if version is not None and version > self.version:
                    self.version = version
                    if self.seat is not None:
                        self.keys = my_keys(frame)
                    self.table.arrived(self, version, now, totals)
        except websockets.ConnectionClosed:
            pass
        if not closing.is_set():
            totals.closed += 1


class TableClient:
    """One table's viewers (4 players, then the spectators) and its decisions in flight."""

    def __init__(self, slug: str, players: list[str], spectators: list[str | None]) -> None:
        self.slug = slug
        self.viewers = [Viewer(self, i, i, key) for i, key in enumerate(players)]
        self.viewers += [
            Viewer(self, len(players) + i, None, key) for i, key in enumerate(spectators)
        ]
        self.pending: dict[int, Pending] = {}
        self.last_submit: tuple[Viewer, int] | None = None

    @property
    def path(self) -> str:
        return f"/ws/t/{self.slug}/"

    def arrived(self, viewer: Viewer, version: int, now: float, totals: Totals) -> None:
        for seen in [v for v in self.pending if v < version]:
            pending = self.pending[seen]
            if viewer.index in pending.waiting:
                pending.waiting.discard(viewer.index)
                ms = (now - pending.sent_at) * 1000
                totals.latencies.append(ms)
                pending.latest = max(pending.latest, ms)
                if not pending.waiting:
                    totals.last_viewer.append(pending.latest)
                    del self.pending[seen]

    def error(self, viewer: Viewer, code: re.Match | None, totals: Totals) -> None:
        totals.errors[code.group(1) if code else "?"] += 1
        if self.last_submit and self.last_submit[0] is viewer:
            # The decision was refused: no new version will come for it.
            if self.pending.pop(self.last_submit[1], None) is not None:
                totals.refused += 1
            self.last_submit = None

    async def decide(self, rng: object, totals: Totals) -> None:
        """One tick: the player the game waits on sends one of its legal decisions."""
        if self.last_submit is not None:
            actor, version = self.last_submit
            if actor.version <= version:
                totals.late_ticks += 1
                return
        seats = [v for v in self.viewers if v.seat is not None and v.ws is not None]
        newest = max((v.version for v in seats), default=-1)
        asked = [v for v in seats if v.keys and v.version == newest]
        if not asked:
            if any(v.version < newest for v in seats):
                totals.late_ticks += 1  # the seat asked next has not been shown it yet
            else:
                totals.idle_ticks += 1
            return
        actor = rng.choice(asked)
        key = rng.choice(actor.keys)
        version = actor.version
        self.pending[version] = Pending(
            version, time.perf_counter(), {v.index for v in self.viewers if v.ws is not None}
        )
        self.last_submit = (actor, version)
        totals.submitted += 1
        message = f'{{"action": "act", "key": {_json(key)}, "version": {version}}}'
        self.pending[version].sent_at = time.perf_counter()
        await actor.ws.send(message)


def _json(text: str) -> str:
    import json

    return json.dumps(text)

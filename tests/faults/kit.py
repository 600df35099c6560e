"""Tools for fault tests: a game set up in a real server's database, and resilient clients."""

import asyncio
import json
import re
import sqlite3

import websockets

from games.kilforth import adapter
from games.kilforth.engine import Settings, act, new_game
from tests.conftest import DaphneServer

SETUP = """
import json
from django.contrib.sessions.backends.db import SessionStore
from games.kilforth.kit import pick_hero
from games.tables import services
from games.tables.identity import PLAYER_KEY
from games.tables.models import Player
ann, bob = Player.objects.create(name="Ann"), Player.objects.create(name="Bob")
table = services.do_create_table(ann, {
    "name": "Fault line", "game": "kilforth", "seat_count": 2, "visibility": "public",
    "options": {"edition": "shadows", "mode": "competitive", "difficulty": "standard",
                "auto_evasion": False, "chapter_cost_2x": False, "open_hands": False,
                "saga_allocation": "matched"},
    "bot_delay_ms": 0, "grace_seconds": 120})
services.do_take_seat(table, ann, 0, "player")
services.do_take_seat(table, bob, 1, "player")
services.do_start_game(table, ann)
for player in (ann, bob):
    pick_hero(table, player, "", "", False)
keys = []
for player in (ann, bob, None):
    session = SessionStore()
    if player is not None:
        session[PLAYER_KEY] = player.pk
    session.create()
    keys.append(session.session_key)
print(json.dumps({"slug": table.slug, "sessions": keys}))
"""

BOARD_VERSION = re.compile(r'id="(?:game-board|kb-version)"[^>]*data-version="(\d+)"')


def set_up_game(server: DaphneServer) -> dict:
    out = server.manage("shell", "--no-imports", "-c", SETUP)
    return json.loads(out.strip().splitlines()[-1])


def saved_state(server: DaphneServer):
    with sqlite3.connect(server.database) as db:
        (document,) = db.execute("SELECT state FROM tables_game").fetchone()
    return adapter.load(document)


def saved_actions(server: DaphneServer) -> list[tuple[int, int, str]]:
    """(version, seat, key) of every decision the database holds, in order."""
    with sqlite3.connect(server.database) as db:
        query = "SELECT version, seat, key FROM tables_action ORDER BY version"
        return list(db.execute(query))


def replayed(state, actions: list[tuple[int, int, str]]):
    """The state rebuilt from its seed and the database's log of decisions."""
    again = new_game(Settings.from_dict(state.settings), state.seed)
    for _, seat, key in actions:
        again = act(again, seat, key)
    return again


def check_invariants(state) -> None:
    for hero in state.heroes:
        assert 0 <= hero["hp"] <= hero["max_hp"], hero
        assert hero["ap"] >= 0, hero
    assert state.result is not None or state.waiting_for


class Client:
    """A browser stand-in: one socket, the newest board version it has been shown."""

    def __init__(self, address: str, slug: str, session: str) -> None:
        self.url = f"ws://{address}/ws/t/{slug}/"
        self.headers = {"Cookie": f"sessionid={session}"}
        self.origin = f"http://{address}"
        self.version = -1
        self.frames: list[str] = []
        self.ws = None
        self.reader: asyncio.Task | None = None

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            self.url, origin=self.origin, additional_headers=self.headers
        )
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                self.frames.append(frame)
                found = BOARD_VERSION.search(frame)
                if found:
                    self.version = max(self.version, int(found.group(1)))
        except websockets.exceptions.ConnectionClosed:
            pass

    async def send_act(self, key: str, version: int) -> None:
        await self.ws.send(json.dumps({"action": "act", "key": key, "version": version}))

    async def wait_for(self, version: int, seconds: float = 10) -> None:
        deadline = asyncio.get_running_loop().time() + seconds
        while self.version < version:
            if asyncio.get_running_loop().time() > deadline:
                errors = [f[:300] for f in self.frames if "data-error" in f][-3:]
                raise AssertionError(f"{self.url} never showed version {version}: {errors}")
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader

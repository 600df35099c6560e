"""Helpers for the tables tests: tables opened by a host, and websockets that carry a session."""

from typing import Any

from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from games.tables import services
from games.tables.frames import apply_frame
from games.tables.identity import PLAYER_KEY, grant_access
from games.tables.models import Player, Table
from kilforth_site.asgi import application

ORIGIN = b"http://localhost"

DEFAULT_SETTINGS: dict[str, Any] = {
    "name": "Evening quest",
    "edition": "shadows",
    "mode": "competitive",
    "seat_count": 3,
    "difficulty": "standard",
    "auto_evasion": False,
    "chapter_cost_by_number": False,
    "open_hands": False,
    "saga_allocation": "matched",
    "visibility": "public",
    "bot_delay_ms": 1000,
    "grace_seconds": 120,
}


def open_table(host: Player, **overrides: Any) -> Table:
    return services.do_create_table(host, {**DEFAULT_SETTINGS, **overrides})


def session_for(player: Player | None = None, table: Table | None = None, level: str = "") -> str:
    session = SessionStore()
    if player is not None:
        session[PLAYER_KEY] = player.pk
    if table is not None and level:
        grant_access(session, table, level)
    session.create()
    return session.session_key


def socket(path: str, session_key: str | None = None, origin: bytes | None = ORIGIN):
    headers = [(b"host", b"localhost")]
    if origin is not None:
        headers.append((b"origin", origin))
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def page(communicator: WebsocketCommunicator) -> str:
    """The live part of the table page after every frame this socket was sent so far."""
    return getattr(communicator, "page", "")


async def receive_until(communicator: WebsocketCommunicator, needle: str, wait: float = 3):
    """Read frames until one contains `needle`; returns that frame (fails on timeout).

    Every frame read is applied to `page(communicator)`, the page as the browser would show it.
    """
    seen = []
    while True:
        frame = await communicator.receive_from(timeout=wait)
        communicator.page = apply_frame(page(communicator), frame)
        seen.append(frame)
        if needle in frame:
            return frame
        if len(seen) > 50:
            raise AssertionError(f"{needle!r} never arrived in {len(seen)} frames")

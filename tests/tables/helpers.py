"""Helpers for the tables tests: tables opened by a host, and websockets that carry a session."""

from typing import Any

from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from games.tables import kits, services
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
    "chapter_cost_2x": False,
    "open_hands": False,
    "saga_allocation": "matched",
    "visibility": "public",
    "bot_delay_ms": 1000,
    "grace_seconds": 120,
}


def table_settings(**overrides: Any) -> dict[str, Any]:
    """DEFAULT_SETTINGS (a form post's fields) as services take them: the options in one dict."""
    flat = {**DEFAULT_SETTINGS, **overrides}
    kit = kits.get(flat.pop("game", "kilforth"))
    options = {k: flat.pop(k) for k in list(flat) if k in kit.options_form.base_fields}
    return {**flat, "game": kit.key, "options": options}


def new_table_form(name: str, **overrides: Any) -> dict[str, Any]:
    """What the new-table page posts for a Kilforth table."""
    form = {"name": name, "game": "kilforth", "seat_count": 2, "visibility": "public"}
    form |= {"bot_delay_ms": 1000, "grace_seconds": 120, "edition": "shadows"}
    form |= {"mode": "competitive", "difficulty": "standard", "saga_allocation": "matched"}
    return form | overrides


def open_table(host: Player, **overrides: Any) -> Table:
    return services.do_create_table(host, table_settings(**overrides))


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

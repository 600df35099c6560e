"""A socket's session: read from its cookie as channels' session middleware reads it, without
wrapping every frame the socket sends.

channels' `SessionMiddleware` wraps `send` so that an HTTP response saves a modified session and
sets its cookie. A websocket never does either (only `http.response.start` saves), yet the
wrapper looked at the session (two lazy-object lookups and `is_empty`) before every frame: about
5% of a process's CPU with a thousand spectators (docs/benchmarks.md). Sockets here only read
their session (identity.py); the site's HTTP views write it. Nor do they read `scope["user"]`
(channels' `AuthMiddleware`): a person is the Player their session names.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from channels.sessions import CookieMiddleware
from django.conf import settings


class SocketSessionMiddleware:
    """Puts the session named by the socket's cookie in `scope["session"]` (loaded when first
    read, as Django's stores load), and passes `send` through untouched."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if "cookies" not in scope:
            raise ValueError("SocketSessionMiddleware needs CookieMiddleware around it.")
        store = import_module(settings.SESSION_ENGINE).SessionStore
        session = store(scope["cookies"].get(settings.SESSION_COOKIE_NAME))
        return await self.inner(dict(scope, session=session), receive, send)


def socket_session_stack(inner: Any) -> Any:
    """The cookies, then the session, for a websocket application."""
    return CookieMiddleware(SocketSessionMiddleware(inner))

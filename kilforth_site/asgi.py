"""ASGI entry point: HTTP through Django, websockets through Channels behind an Origin check."""

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kilforth_site.settings")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.tables.bots import ensure_driver  # noqa: E402
from games.tables.heartbeat import ensure_heartbeat  # noqa: E402
from games.tables.origin import SameOriginValidator  # noqa: E402
from games.tables.routing import websocket_urlpatterns  # noqa: E402
from games.tables.socket_session import socket_session_stack  # noqa: E402
from kilforth_site.collector import tune_gc  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The Origin must be this site itself (scheme, host and port; games/tables/origin.py) or
        # a trusted origin: a page elsewhere cannot open a socket riding on a player's cookie.
        # Its session comes from its cookie (games/tables/socket_session.py).
        "websocket": SameOriginValidator(socket_session_stack(URLRouter(websocket_urlpatterns))),
    }
)


async def application(scope: dict, receive: object, send: object) -> None:
    """The router, plus: this process's bot driver and heartbeat start with its first connection."""
    ensure_driver()
    ensure_heartbeat()
    await router(scope, receive, send)


def _start_with_daphne() -> None:
    # Under daphne the app is imported before its event loop runs: start the driver as the loop
    # starts, so games waiting on bots (and clocks run out while the server was down) resume
    # after a restart even before anyone connects. Daphne runs Twisted's asyncio reactor on a
    # loop of its own, not the one `asyncio.get_event_loop()` gives at import time: the reactor
    # says when it runs, inside that loop.
    import asyncio

    from twisted.internet import reactor

    reactor.callWhenRunning(lambda: asyncio.ensure_future(_first_tick()))


async def _first_tick() -> None:
    ensure_driver()
    ensure_heartbeat()


if os.path.basename(sys.argv[0]) == "daphne":
    tune_gc()
    _start_with_daphne()

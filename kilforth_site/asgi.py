"""ASGI entry point: HTTP through Django, websockets through Channels behind an Origin check."""

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kilforth_site.settings")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.tables.bots import ensure_driver  # noqa: E402
from games.tables.heartbeat import ensure_heartbeat  # noqa: E402
from games.tables.origin import SameOriginValidator  # noqa: E402
from games.tables.routing import websocket_urlpatterns  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The Origin must be this site itself (scheme, host and port; games/tables/origin.py) or
        # a trusted origin: a page elsewhere cannot open a socket riding on a player's cookie.
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


async def application(scope: dict, receive: object, send: object) -> None:
    """The router, plus: this process's bot driver and heartbeat start with its first connection."""
    ensure_driver()
    ensure_heartbeat()
    await router(scope, receive, send)


# Python's cyclic collector, for a serving process: it holds a large heap for its whole life
# (Django, the games' code and card sets, cached states and renderings) and makes many
# short-lived objects per decision. With the default thresholds (700, 10, 10) a full pass came
# every few seconds under load and took 90-110 ms, scanning the whole heap, every viewer waiting
# behind it (20 tables x 5 viewers: p99 120-135 ms against 45-53 ms with these; garbage
# collection 1.6 -> 0.2 ms per decision; docs/benchmarks.md). What the process holds once it is
# set up is frozen out of every pass, and a young pass comes every 50,000 allocations, not 700.
GC_THRESHOLDS = (50_000, 20, 20)


def tune_gc() -> None:
    """Set the collector up for serving (once, when the process starts)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


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

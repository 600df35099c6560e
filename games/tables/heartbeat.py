"""Presence that outlives a crash: each server process beats, the survivors bury the dead.

Each beat also closes idle empty tables (services.close_idle_tables).

Every process records itself in ServerProcess every KILFORTH_HEARTBEAT_SECONDS and stamps each
of its sockets' Connection rows with its name. A process silent for KILFORTH_HEARTBEAT_MISSED
beats was killed or crashed: the next beat of any live process closes its rows through
`services.do_disconnect` (so the watcher counts drop and its players become "away", exactly as if
their sockets had closed) and deletes its ServerProcess row. A single `bin/serve` also clears all
rows at start (`manage.py clear_presence`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
import weakref
from datetime import timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from .models import Connection, ServerProcess

log = logging.getLogger(__name__)

# One name per process (host, pid and a random part: pids are reused after a restart).
PROCESS_NAME = f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def beat() -> list[str]:
    """Record this process as alive; close the rows of dead processes. Returns the dead names."""
    from . import services

    now = timezone.now()
    _, created = ServerProcess.objects.update_or_create(
        name=PROCESS_NAME, defaults={"last_seen": now}
    )
    if created and Connection.objects.filter(process=PROCESS_NAME).exists():
        log.warning("this process was taken for dead; its sockets' presence rows were cleared")
    silence = settings.KILFORTH_HEARTBEAT_SECONDS * settings.KILFORTH_HEARTBEAT_MISSED
    dead = list(
        ServerProcess.objects.filter(last_seen__lt=now - timedelta(seconds=silence)).values_list(
            "name", flat=True
        )
    )
    for name in dead:
        for channel in Connection.objects.filter(process=name).values_list(
            "channel_name", flat=True
        ):
            services.do_disconnect(channel)
        ServerProcess.objects.filter(name=name).delete()
    if dead:
        log.info("cleared the presence of %d dead server process(es): %s", len(dead), dead)
    closed = services.close_idle_tables(settings.KILFORTH_IDLE_TABLE_MINUTES)
    if closed:
        log.info("closed %d idle empty table(s)", closed)
    return dead


async def run(interval: float) -> None:
    while True:
        try:
            await database_sync_to_async(beat)()
        except Exception:  # a database hiccup must not stop the heartbeat for good
            log.exception("heartbeat failed")
        await asyncio.sleep(interval)


_loops: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def ensure_heartbeat() -> None:
    """Start this event loop's heartbeat once (called from the ASGI entry point)."""
    interval = getattr(settings, "KILFORTH_HEARTBEAT_SECONDS", 0)
    if not interval or not getattr(settings, "KILFORTH_BOT_DRIVER", True):
        return  # off, or a unit test (which runs no background tasks)
    loop = asyncio.get_running_loop()
    if loop not in _loops:
        _loops[loop] = loop.create_task(run(interval))

"""Broadcasting lobby and table changes to websockets, after the transaction that made them commits.

A table message carries the table's version and its presence (who is online, how many watch), both
read once here. Consumers render each distinct view of that state once per process (rendering.py)
and send the same HTML to every socket sharing it, so a thousand spectators cost one render.
"""

import asyncio
import logging
import os
import threading
from datetime import datetime
from operator import attrgetter
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.db.models import F

from . import caches

log = logging.getLogger(__name__)
LOBBY_GROUP = "lobby"
# Every process's bot driver listens here (games/tables/bots.py).
BOT_GROUP = "kilforth-bots"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def on_commit_table_changed(table_id: int, bump: bool = False, lobby: bool = True) -> None:
    if bump:
        from .models import Table

        Table.objects.filter(pk=table_id).update(version=F("version") + 1)
    transaction.on_commit(lambda: broadcast_table(table_id, lobby=lobby))


def on_commit_lobby_changed() -> None:
    """One lobby broadcast after commit, for a change that touched many tables at once."""
    transaction.on_commit(broadcast_lobby)


def broadcast_lobby() -> None:
    from .rendering import render_lobby_list

    _send(LOBBY_GROUP, {"type": "lobby.html", "html": render_lobby_list()})


def on_commit_presence(table_id: int) -> None:
    transaction.on_commit(lambda: _presence_soon(table_id))


_presence_pending: set[int] = set()
_presence_lock = threading.Lock()


def _event_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the consumer this sync code runs for, if any (asgiref records it)."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(local, "main_event_loop", None)
    # A thread outlives the loop it last served (tests run many loops): that one is no one's.
    return loop if loop is not None and loop.is_running() else None


def _presence_soon(table_id: int) -> None:
    """Announce presence once per window: a thousand sockets joining are not a thousand boards.

    Called in a consumer's sync thread; the window runs on that consumer's event loop. Outside
    a consumer (no loop), or with the window set to 0, the announcement goes out at once.
    """
    delay = settings.KILFORTH_PRESENCE_SECONDS
    loop = _event_loop()
    if loop is None or delay <= 0:
        broadcast_table(table_id)
        return
    with _presence_lock:
        if table_id in _presence_pending:
            return  # the announcement already scheduled will read the presence then
        _presence_pending.add(table_id)

    def flush() -> None:
        with _presence_lock:
            _presence_pending.discard(table_id)
        broadcast_table(table_id)

    def schedule() -> None:
        loop.call_later(
            delay,
            lambda: asyncio.ensure_future(database_sync_to_async(flush, thread_sensitive=False)()),
        )

    loop.call_soon_threadsafe(schedule)


def _send(group: str, message: dict, attempts: int = 4, elsewhere: bool | None = None) -> None:
    """Publish to a group; a channel layer that hiccups (Redis restarting) is tried again.

    The database already holds the change, so a lost broadcast costs only freshness; still,
    a few quick retries carry the update across a Redis restart instead of dropping it.

    `elsewhere` (a table message, with the layer of several processes): this process's sockets
    are given the message at once, and it is published for the other processes only if any of
    them has a socket at the table (`elsewhere`; games/tables/layers.py).

    In a worker thread of a running event loop (a socket's database work, or a view's, under
    daphne) the publish is handed to that loop and not waited for: the thread, the process's one
    database thread, goes on at once (waiting for the loop, behind its renders, held a decision's
    thread 3-4 ms). Elsewhere (a command, a test without a loop) it is made and waited for here.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _event_loop()
    if loop is None:
        # No socket of this process is served from here (a command, a test without a loop):
        # the message goes through the layer to every socket, wherever it is.
        async_to_sync(_publish)(layer, group, message, attempts)
    else:
        asyncio.run_coroutine_threadsafe(_publish(layer, group, message, attempts, elsewhere), loop)


async def _publish(
    layer: Any, group: str, message: dict, attempts: int, elsewhere: bool | None = None
) -> None:
    here_first = elsewhere is not None and hasattr(layer, "deliver_here")
    if here_first:
        data = layer.deliver_here(group, message)
        if not elsewhere:
            return  # every socket of the table is in this process
    for attempt in range(attempts):
        try:
            if here_first:
                await layer.publish_elsewhere(group, data)
            else:
                await layer.group_send(group, message)
            return
        except Exception:  # the layer's own errors (redis ConnectionError and kin)
            if attempt == attempts - 1:
                log.exception("broadcast to %s lost after %s attempts", group, attempts)
                return
            await asyncio.sleep(0.25 * (attempt + 1))


def session_group(session_key: str) -> str:
    """Every table socket of one browser session (a logout reaches them all)."""
    return f"session-{session_key}"


def send_to_session(session_key: str, event: dict) -> None:
    _send(session_group(session_key), event)


def send_to_table(table_id: int, event: dict) -> None:
    """Publish one event (a chat line, say) to every socket of a table."""
    _send(table_group(table_id), event)


def take_broadcast(table_id: int) -> dict | None:
    """The table message this thread broadcast last, if it was this table's (once)."""
    message = getattr(_sent_here, "message", None)
    _sent_here.message = None
    return message if message is not None and message["table"] == table_id else None


def table_message(table_id: int) -> dict | None:
    """The table's version and presence, read in three queries (None: the table is gone)."""
    found = _table_message(table_id)
    return None if found is None else found[0]


def _table_message(table_id: int) -> tuple[dict, frozenset[str]] | None:
    """`table_message`, with the server processes holding the table's sockets."""
    from .models import Seat, Table, one

    row = one(Table.objects.filter(pk=table_id).values_list("slug", "version", "host_id"))
    if row is None:
        return None
    slug, version, host_id = row
    seats = list(Seat.objects.filter(table_id=table_id).order_by().values_list(*SEAT_FACT_FIELDS))
    return _message(table_id, slug, version, host_id, seats)


SeatFacts = tuple[int | None, str, datetime | None, datetime | None]
"""What a table message tells of a seat: (player id, bot level, deadline, offline since)."""
SEAT_FACT_FIELDS = ("player_id", "bot", "deadline", "offline_since")


def seat_facts(seats: list[Any]) -> list[SeatFacts]:
    """The facts of Seat rows already read (a decision's), as `table_message` reads them."""
    return [_seat_fact(s) for s in seats]


_seat_fact = attrgetter(*SEAT_FACT_FIELDS)


def message_of(
    table_id: int, slug: str, version: int, host_id: int | None, seats: list[SeatFacts]
) -> dict:
    """The table message of a version from its rows as read (only the presence is read here:
    who has a socket open, how many watch)."""
    return _message(table_id, slug, version, host_id, seats)[0]


def _message(
    table_id: int,
    slug: str,
    version: int,
    host_id: int | None,
    seats: list[SeatFacts],
    viewers: list[tuple[str, int | None, str]] | None = None,
) -> tuple[dict, frozenset[str]]:
    """`message_of`, with the server processes holding the table's sockets (`viewers`: the
    table's presence rows, if read already)."""
    from .rendering import presence_among

    online, spectators, processes = presence_among(
        table_id, host_id, {pid for pid, _, _, _ in seats if pid is not None}, viewers
    )
    # Since when each seated player who is offline has been away (epoch ms), for "away since".
    away = sorted(
        [pid, int(since.timestamp() * 1000)]
        for pid, _, _, since in seats
        if pid is not None and pid not in online and since is not None
    )
    message = {
        "type": "table.update",
        "table": table_id,
        "slug": slug,
        "version": version,
        "online": online,
        "away": away,
        "spectators": spectators,
        # Whether any seat is a bot's (the bot drivers are woken); consumers ignore it.
        "bots": any(bot for _, bot, _, _ in seats),
        # Whether a seat's clock runs (the clock watchers are woken); consumers ignore it.
        "clocks": any(deadline for _, _, deadline, _ in seats),
    }
    return message, processes


def _elsewhere(processes: frozenset[str]) -> bool:
    """Whether a socket at the table is held by another server process (or by one unknown)."""
    from .heartbeat import PROCESS_NAME

    return any(process != PROCESS_NAME for process in processes)


# The newest table message this thread broadcast: the socket whose decision caused it answers
# its own player first with it (consumers.py), instead of waiting its turn among the table's.
_sent_here = threading.local()


def broadcast_table(table_id: int, lobby: bool = True) -> None:
    """`lobby=False`: the change shows in no lobby row (a decision in a running game)."""
    from .rendering import pack_snapshot, render_lobby_list

    # A decision just committed built its snapshot: the message is made from the rows it
    # read and wrote under the table's lock (naming its version, even if another change has
    # committed since: that one broadcasts its own, and sockets only move forward). This
    # process's sockets take the snapshot itself (on their event loop, before the message or
    # the deciding socket's own answer) and the message at once; scaled out, it goes through
    # Redis only when another process holds a socket at the table (the presence rows say
    # which do), and only then carries the snapshot, packed.
    offer = caches.take_offer(table_id)
    if offer is not None:
        table = offer.snapshot.table
        message, processes = _message(
            table_id, table.slug, table.version, table.host_id, offer.seats, offer.viewers.rows()
        )
        elsewhere = _elsewhere(processes)
        if settings.KILFORTH_SHARE_SNAPSHOTS and elsewhere:
            message["snapshot"] = pack_snapshot(offer.snapshot, offer.document)
        loop = _event_loop()
        if loop is not None:
            loop.call_soon_threadsafe(caches.keep, offer.snapshot)
    else:
        found = _table_message(table_id)
        message, elsewhere = (None, False) if found is None else (found[0], _elsewhere(found[1]))
    if message is not None:
        _sent_here.message = message
        _send(table_group(table_id), message, elsewhere=elsewhere)
    if lobby:
        _send(LOBBY_GROUP, {"type": "lobby.html", "html": render_lobby_list()})
    if message is not None and message["bots"]:
        _send(BOT_GROUP, {"type": "bots.wake", "table": table_id})
    if message is not None and message["clocks"]:
        _send(BOT_GROUP, {"type": "clocks.wake", "table": table_id})

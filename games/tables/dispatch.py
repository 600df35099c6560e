"""Message dispatch for websocket consumers without a thread hop per message.

Channels (4.2 and later) runs `close_old_connections` in a worker thread before every message a
consumer handles, so that a long-lived consumer does not keep a stale database connection. Our
consumers touch the database only through `database_sync_to_async`, which closes stale
connections itself, in its own thread, before and after each call. The hop per message is then
pure cost: for a table update that needs no database (the snapshot of that version is already
in this process) it was the largest part of the message's work, and the hops of every socket
queue on one thread (1,000 spectators: 1,000 hops per decision). docs/benchmarks.md measures it.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class DirectDispatch:
    """Mixed into an AsyncConsumer: each message goes straight to its handler."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

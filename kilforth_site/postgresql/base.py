"""Django's PostgreSQL backend, with a health check that sends nothing to an idle connection.

The site keeps its connections (settings: `conn_max_age`) and checks them before each use
(`conn_health_checks`), so that a connection the server dropped meanwhile (a restart, an idle
timeout) is opened again instead of failing a player's decision. Django checks by sending
`SELECT 1`: a round trip before the first statement of each request and of each socket's
database call, so before every decision (docs/benchmarks.md, eleventh pass).

A server that drops a connection tells its client so: it sends its goodbye (a FATAL error
message) or closes the socket, and either makes the socket readable. An idle connection (no
statement in flight, no transaction open) has nothing else to read. So an idle connection whose
socket has nothing to read is usable; anything else gets Django's own check.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        """Whether the connection still works: at no cost when it is idle and the server has
        said nothing since its last statement."""
        connection = self.connection
        if connection is None or connection.closed:
            return False
        if connection.info.transaction_status == TransactionStatus.IDLE:
            try:
                # poll, not select: a busy process's descriptors may pass 1024.
                poller = select.poll()
                poller.register(connection.fileno(), select.POLLIN)
                waiting = poller.poll(0)
            except (OSError, ValueError):
                return False
            if not waiting:
                return True
        return super().is_usable()

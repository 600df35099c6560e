"""The site's ASGI application with counters, for the load test's servers.

Counts (and times) the work behind each broadcast: snapshot loads and snapshots unpacked from
table messages, live-fragment renders, lobby renders, table broadcasts, and the frames the
table consumers send; and the garbage collector's passes. A socket's decision (its thread's
`_dispatch`), the renders and the broadcasts also add up their threads' CPU time
(bench/counters.py), which the load test sets beside the processes' whole CPU.
`GET /__bench__/stats` answers them as JSON with the process's RSS; `GET /__bench__/reset`
zeroes them. Between
`GET /__bench__/timeline/start` and `GET /__bench__/timeline` (which answers them) it also
records the steps of each decision for bench/timeline.py: the message's arrival, the session
read, the decision's thread, each SQL statement (inside psycopg's pipeline mode, `rows.pipelined`,
a statement is only sent, and the "pipeline" step is the wait for all of their results), the
commit, the broadcast and its publication, each render and each frame sent. The wrappers only
count: what runs is the site's own code.
"""

from __future__ import annotations

import gc
import json
import os
import re
import threading
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kilforth_site.settings")

from kilforth_site.asgi import application as site  # noqa: E402

# isort: split
import psycopg  # noqa: E402
from django.db.backends.base.base import BaseDatabaseWrapper  # noqa: E402
from django.db.backends.utils import CursorWrapper  # noqa: E402

from bench import timeline  # noqa: E402
from bench.counters import COUNTERS, counted, trim  # noqa: E402
from games.tables import caches, consumers, realtime, rendering  # noqa: E402

# The steps of each decision, as bench/timeline.py reads them: recorded only between
# `/__bench__/timeline/start` and `/__bench__/timeline` (a load test's `--timeline`).
TIMELINE: list[tuple[float, int, int, str]] = []
_recording = [False]
_PID = os.getpid()


def mark(label: str) -> None:
    if _recording[0]:
        TIMELINE.append((time.time() * 1000, _PID, threading.get_ident(), label))


def stepped(step: str, fn: Callable) -> Callable:
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        mark(step + "+")
        try:
            return fn(*args, **kwargs)
        finally:
            mark(step + "-")

    return wrapper


consumers.render_table_live = stepped(
    "render", counted("render_table_live", consumers.render_table_live)
)
consumers.load_snapshot = stepped(
    "snapshot read", counted("load_snapshot", consumers.load_snapshot)
)
consumers.unpack_snapshot = stepped("unpack", counted("unpack_snapshot", consumers.unpack_snapshot))
rendering.render_lobby_list = counted("render_lobby_list", rendering.render_lobby_list)
realtime.broadcast_table = stepped(
    "broadcast", counted("broadcast_table", realtime.broadcast_table)
)
realtime._send = stepped("publish", realtime._send)
consumers.fresh_session = stepped("session read", consumers.fresh_session)
consumers.TableConsumer._dispatch = stepped(
    timeline.DECISION, counted("decision", consumers.TableConsumer._dispatch)
)
BaseDatabaseWrapper._commit = stepped("commit", BaseDatabaseWrapper._commit)
psycopg.Pipeline.__exit__ = stepped("pipeline", psycopg.Pipeline.__exit__)
_execute = CursorWrapper._execute
# A statement's kind and table: "SQL SELECT tables_table", "SQL UPDATE tables_game".
_TABLE = re.compile(r'^\s*(SELECT\b.*?\bFROM|UPDATE|INSERT INTO|DELETE FROM)\s+"(\w+)"', re.S)


def _execute_stepped(self: Any, sql: str, *args: Any) -> Any:
    found = _TABLE.match(sql) if _recording[0] else None
    label = f"SQL {found[1].split()[0]} {found[2]}" if found else "SQL"
    mark(label + "+")
    try:
        return _execute(self, sql, *args)
    finally:
        mark(label + "-")


CursorWrapper._execute = _execute_stepped
_receive = consumers.TableConsumer.receive


async def _marking_receive(self: Any, *args: Any, **kwargs: Any) -> None:
    mark(timeline.MESSAGE)
    await _receive(self, *args, **kwargs)


consumers.TableConsumer.receive = _marking_receive
COUNTERS["table_update"] = [0, 0.0]
_table_update = consumers.TableConsumer.table_update


async def _counting_table_update(self: Any, event: dict) -> None:
    # Every table.update a socket handles, sent or skipped (same state already shown).
    COUNTERS["table_update"][0] += 1
    await _table_update(self, event)


consumers.TableConsumer.table_update = _counting_table_update
COUNTERS["frames_sent"] = [0, 0.0]
_send = consumers.TableConsumer.send


async def _counting_send(self: Any, text_data: str | None = None, **kwargs: Any) -> None:
    entry = COUNTERS["frames_sent"]
    entry[0] += 1
    entry[1] += len(text_data or "")
    await _send(self, text_data=text_data, **kwargs)
    mark(timeline.FRAME)


consumers.TableConsumer.send = _counting_send

# Python's cyclic garbage collector: every collection, and the time it took (gc.callbacks).
COUNTERS["gc"] = [0, 0.0]
COUNTERS["gc_full"] = [0, 0.0]
_gc_started = [0.0]


def _gc_timed(phase: str, info: dict) -> None:
    if phase == "start":
        _gc_started[0] = time.perf_counter()
        return
    took = time.perf_counter() - _gc_started[0]
    for name in ("gc", "gc_full") if info.get("generation") == 2 else ("gc",):
        COUNTERS[name][0] += 1
        COUNTERS[name][1] += took


gc.callbacks.append(_gc_timed)


def stats() -> dict:
    rss = 0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    renderings = [r for kept in caches.renderings.views.values() for r in kept.values()]
    # What the renderings hold: their texts, their parts' bodies (a body several views share
    # counted once) and the partial frames made between them.
    held = {
        id(text): len(text)
        for r in renderings
        for text in (*(r.texts or ()), *r.bodies, *r.diffs.values())
        if text
    }
    return {
        "pid": os.getpid(),
        "rss_kb": rss,
        "fragment_cache": {"entries": len(renderings), "bytes": sum(held.values())},
        "snapshots": len(caches._snapshots),
        "counters": {
            k: {"count": int(v[0]), "total": v[1], "cpu": v[2] if len(v) > 2 else 0.0}
            for k, v in COUNTERS.items()
        },
    }


async def application(scope: dict, receive: Callable, send: Callable) -> None:
    if scope["type"] == "http" and scope["path"].startswith("/__bench__/"):
        if scope["path"] == "/__bench__/reset":
            for entry in COUNTERS.values():
                entry[:] = [0] + [0.0] * (len(entry) - 1)
        if scope["path"] == "/__bench__/timeline/start":
            TIMELINE.clear()
            _recording[0] = True
        if scope["path"] == "/__bench__/trim":
            trim()
        if scope["path"] == "/__bench__/timeline":
            _recording[0] = False
            body = json.dumps(TIMELINE).encode()
        else:
            body = json.dumps(stats()).encode()
        headers = [(b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    await site(scope, receive, send)

"""The work any server of this game must do for a decision, measured on the machine of the run.

`manage.py loadtest` sets the server's CPU per decision beside four figures no design of the site
can go below (issue 14's budget is 4 ms in all):

- the floor's fan-out: its server CPU per frame fanned out to the table's sockets, measured in
  the same run (bench/floor.py: a bare Channels consumer sending one frame of the same size);
- the rules: the kit's work for the decision that `services._apply` asks of it, done once: the
  new state (`act`), its document (`dump`), the decision's log events (`events`), the game's
  progress (`progress`) and whether it may be taken back (`undoable`);
- the pictures: what the five viewers (four seats and the spectators) may see of the new state,
  the public facts made once for them (`engine.view`), written as JSON: what any board has to
  make of a decision before it draws anything (the same floor `bench_instructions` counts);
- the write (`database_url` given: the run's own database): the least a decision's durable
  write asks of the server's process: in one transaction, the game's document saved at the
  version it was made on and the decision's row added, by the driver's cheapest path
  (PostgreSQL: psycopg, the values sent beside the statements, both in one round trip; SQLite:
  the sqlite3 module, whose engine works in the process), in tables of its own made for the
  measurement (temporary on PostgreSQL, a file beside the run's on SQLite) and dropped after.

The game is played in this process (no HTML): one 4-hero Gloom game, competitive, by random
legal decisions (seed fixed), and after `warm` decisions each of the next `decisions` is timed
with this process's CPU clock (`time.process_time`: what other processes do slows it but is not
counted, nor is PostgreSQL's own work, its server's). The sum leaves out the socket's own
message, the rest of a decision's statements and the boards' HTML: what is left of the budget
for them is the budget less the sum.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypedDict
from urllib.parse import urlparse

import orjson

SEATS = 4


class Necessary(TypedDict):
    decisions: int  # decisions timed (fewer than asked if the game ended)
    rules_ms: float  # the kit's work per decision (act, dump, events, progress, undoable)
    pictures_ms: float  # the five viewers' pictures per decision, as JSON
    write_ms: float | None  # the decision's least durable write (None: no database given)
    database: str | None  # "PostgreSQL" or "SQLite" (None: no database given)


def measure(
    decisions: int = 200, warm: int = 40, seed: int = 1, database_url: str | None = None
) -> Necessary:
    """The rules', the pictures' and (`database_url`) the write's CPU per decision (see the
    module)."""
    from games.kilforth import engine
    from games.tables import kits

    kit = kits.get("kilforth")
    state = engine.new_game(
        engine.Settings(heroes=SEATS, edition="gloom", mode="competitive"), seed
    )
    rng = random.Random(seed)
    rules = pictures = wrote = 0.0
    timed = 0
    with _writer(database_url) as (database, write):
        for n in range(warm + decisions):
            if kit.result(state) is not None:
                break
            seat = kit.waiting_for(state)[0]
            key = rng.choice(engine.legal(state, seat)).key
            started = time.process_time()
            new = kit.act(state, seat, key)
            document = kit.dump(new)
            events = kit.events(state, new)
            kit.progress(new)
            kit.undoable(state, new)
            ruled = time.process_time()
            facts = engine.public_facts(new)  # once for the five, as the board makes them
            for viewer in (*range(SEATS), None):
                orjson.dumps(engine.view(new, viewer, facts))
            pictured = time.process_time()
            if write is not None:
                write(kit.version(state), kit.version(new), document, key, orjson.dumps(events))
            written = time.process_time()
            if n >= warm:
                rules += ruled - started
                pictures += pictured - ruled
                wrote += written - pictured
                timed += 1
            state = new
    per = 1000 / max(1, timed)
    return {
        "decisions": timed,
        "rules_ms": rules * per,
        "pictures_ms": pictures * per,
        "write_ms": None if database is None else wrote * per,
        "database": database,
    }


# (the version the decision was made on, the new version, the document, the key, the events)
Write = Callable[[int, int, str, str, bytes], None]

_GAME = "CREATE {temp} TABLE necessary_game (id integer PRIMARY KEY, version integer, state text)"
_ACTION = (
    "CREATE {temp} TABLE necessary_action (game integer, version integer, key text, "
    "events text, PRIMARY KEY (game, version))"
)


@contextmanager
def _writer(database_url: str | None) -> Iterator[tuple[str | None, Write | None]]:
    """(the database's name, a decision's least durable write) on `database_url`'s database."""
    if database_url is None:
        yield None, None
        return
    parsed = urlparse(database_url)
    if parsed.scheme.startswith("postgres"):
        import psycopg

        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(_GAME.format(temp="TEMPORARY"))
            conn.execute(_ACTION.format(temp="TEMPORARY"))
            conn.execute("INSERT INTO necessary_game VALUES (1, 0, '')")

            def write_pg(seen: int, version: int, document: str, key: str, events: bytes) -> None:
                with conn.transaction(), conn.pipeline():
                    conn.execute(
                        "UPDATE necessary_game SET state = %s, version = %s "
                        "WHERE id = 1 AND version = %s",
                        (document, version, seen),
                    )
                    conn.execute(
                        "INSERT INTO necessary_action VALUES (1, %s, %s, %s)",
                        (version, key, events.decode()),
                    )

            yield "PostgreSQL", write_pg
        return
    path = Path(parsed.path).with_name("necessary.sqlite3")  # beside the run's own file
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(_GAME.format(temp=""))
        db.execute(_ACTION.format(temp=""))
        db.execute("INSERT INTO necessary_game VALUES (1, 0, '')")

        def write_sqlite(seen: int, version: int, document: str, key: str, events: bytes) -> None:
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "UPDATE necessary_game SET state = ?, version = ? WHERE id = 1 AND version = ?",
                (document, version, seen),
            )
            db.execute(
                "INSERT INTO necessary_action VALUES (1, ?, ?, ?)", (version, key, events.decode())
            )
            db.execute("COMMIT")

        yield "SQLite", write_sqlite
    finally:
        db.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


def line(necessary: Necessary, floor_cpu_ms: float, ours_cpu_ms: float, budget_ms: float) -> str:
    """The report's line: the figures, their sum, and what the budget leaves beside them."""
    write = necessary["write_ms"]
    total = floor_cpu_ms + necessary["rules_ms"] + necessary["pictures_ms"] + (write or 0.0)
    rest = "the decision's message, its other statements and the boards' HTML"
    verdict = (
        f"the {budget_ms:g} ms budget leaves {budget_ms - total:.2f} ms for {rest}"
        if total < budget_ms
        else f"above the {budget_ms:g} ms budget on this machine, before {rest}"
    )
    wrote = (
        ""
        if write is None
        else f" + the write {write:.2f} (the document and the decision's row, one transaction "
        f"on {necessary['database']})"
    )
    return (
        f"necessary work per decision, measured in this run: the floor's fan-out "
        f"{floor_cpu_ms:.2f} + the rules {necessary['rules_ms']:.2f} (act, document, events, "
        f"progress; {necessary['decisions']} decisions) + the five pictures as JSON "
        f"{necessary['pictures_ms']:.2f}{wrote} = {total:.2f} ms ({verdict}); ours is "
        f"{ours_cpu_ms / total:.1f}x that"
    )

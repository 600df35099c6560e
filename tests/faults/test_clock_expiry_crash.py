"""A process killed at the moment a clock runs out: the bot's decision for the late seat is made
exactly once, by whichever process looks at the deadline after the crash.

Deadlines live in the database (Seat.deadline); the bot driver's clock watcher in every daphne
process expires the overdue ones (games/tables/bots.py `expire_due`, services.do_expire). Three
crashes, each followed by a restart: SIGKILL inside the expiry's transaction, after everything
was written and before the commit (the expiry is lost, and made again after the restart); SIGKILL
the instant the expiry's row is in the database (it is not made twice); and SIGKILL at a
deadline's own moment, wherever the watcher then was.
"""

import json
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import ROOT, DaphneServer
from tests.faults.kit import replayed, saved_actions, saved_state

pytestmark = [pytest.mark.server, pytest.mark.slow]

# A two-seat Kilforth game at the fast pace, the first seat's deadline already gone by.
SETUP = """
import json
from datetime import timedelta
from django.utils import timezone
from games.kilforth.kit import pick_hero
from games.tables import services
from games.tables.models import Player, Seat
ann, bob = Player.objects.create(name="Ann"), Player.objects.create(name="Bob")
table = services.do_create_table(ann, {
    "name": "Late", "game": "kilforth", "seat_count": 2, "visibility": "public", "pace": "fast",
    "options": {"edition": "shadows", "mode": "competitive", "difficulty": "standard",
                "auto_evasion": False, "chapter_cost_2x": False, "open_hands": False,
                "saga_allocation": "matched"},
    "bot_delay_ms": 0, "grace_seconds": 120})
services.do_take_seat(table, ann, 0, "player")
services.do_take_seat(table, bob, 1, "player")
services.do_start_game(table, ann)
for player in (ann, bob):
    pick_hero(table, player, "", "", False)
late = Seat.objects.get(table=table, deadline__isnull=False)
Seat.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(seconds=1))
print(json.dumps({"slug": table.slug, "seat": late.number}))
"""

# The clock watcher's own sweep, killed by SIGKILL after the expiry wrote its decision, its chat
# line and the new clocks, before the transaction commits (the last write, `_touch`, never runs).
CRASH_INSIDE_THE_EXPIRY = """
import os, signal
from games.tables import bots, services
services._touch = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
bots.expire_due()
print("the expiry was not reached")
"""

RAN_OUT = "%ran out of time; a bot made that decision for them.%"


def expiries(database) -> list[tuple[int, int]]:
    """(version, seat) of every decision a bot made for a person's seat: the expiries."""
    with sqlite3.connect(database) as db:
        query = (
            "SELECT a.version, a.seat FROM tables_action a JOIN tables_game g ON a.game_id = g.id "
            "JOIN tables_seat s ON s.table_id = g.table_id AND s.number = a.seat "
            "WHERE a.bot != '' AND s.player_id IS NOT NULL ORDER BY a.version"
        )
        return list(db.execute(query))


def ran_out_lines(database) -> int:
    with sqlite3.connect(database) as db:
        query = "SELECT count(*) FROM tables_chatmessage WHERE text LIKE ?"
        return db.execute(query, (RAN_OUT,)).fetchone()[0]


def deadline_of(database, seat: int) -> str | None:
    with sqlite3.connect(database) as db:
        query = "SELECT deadline FROM tables_seat WHERE number = ?"
        return db.execute(query, (seat,)).fetchone()[0]


def set_deadline(database, seat: int, moment: datetime) -> None:
    """A deadline written as Django writes one to SQLite (UTC, no zone)."""
    text = moment.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")
    with sqlite3.connect(database) as db:
        db.execute("UPDATE tables_seat SET deadline = ? WHERE number = ?", (text, seat))


def wait_until(check, seconds: float = 15, every: float = 0.005) -> None:
    limit = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < limit, "timed out"
        time.sleep(every)


def test_a_clock_that_runs_out_across_crashes_is_played_once(tmp_path):
    server = DaphneServer(tmp_path)
    server.stop()  # no clock watcher runs until the crash below has happened
    info = json.loads(server.manage("shell", "--no-imports", "-c", SETUP).splitlines()[-1])
    db, seat = server.database, info["seat"]
    before = saved_state(server).version

    # 1. Killed between deciding and committing: nothing of the expiry is kept.
    crashed = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", CRASH_INSIDE_THE_EXPIRY],
        cwd=ROOT,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert crashed.returncode == -9, crashed.stdout + crashed.stderr
    assert saved_state(server).version == before
    assert expiries(db) == [] and ran_out_lines(db) == 0
    assert deadline_of(db, seat) is not None  # still due, still in the database

    # 2. The restarted server's watcher expires it; killed the instant its row is committed.
    server.start()
    try:
        wait_until(lambda: expiries(db))
        server.kill()
        assert expiries(db) == [(before + 1, seat)]
        # Started again, it finds nothing overdue for that decision (given time for a sweep).
        server.start()
        time.sleep(1.5)
        assert expiries(db) == [(before + 1, seat)] and ran_out_lines(db) == 1

        # 3. The next deadline, killed at the very moment it passes, then restarted.
        waiting = saved_state(server).waiting_for[0]
        moment = datetime.now(UTC) + timedelta(seconds=1.5)
        set_deadline(db, waiting, moment)
        server.kill()
        server.start()
        time.sleep(max(0.0, (moment - datetime.now(UTC)).total_seconds()))
        server.kill()
        server.start()
        wait_until(lambda: len(expiries(db)) == 2, every=0.05)
        time.sleep(1.5)
    finally:
        server.stop()
    late = expiries(db)
    assert late == [(before + 1, seat), (late[1][0], waiting)] and ran_out_lines(db) == 2
    # The log is whole: gapless versions that rebuild the saved state.
    actions = saved_actions(server)
    assert [version for version, _, _ in actions] == list(range(1, len(actions) + 1))
    assert replayed(saved_state(server), actions) == saved_state(server)

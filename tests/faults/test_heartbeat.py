"""A killed server process leaves no ghosts: the surviving process clears its presence rows."""

import asyncio
import sqlite3
import time

import pytest

from tests.conftest import DaphneServer
from tests.faults.kit import Client, set_up_game

pytestmark = [pytest.mark.server, pytest.mark.slow]

FAST_BEATS = {"KILFORTH_HEARTBEAT_SECONDS": "0.2", "KILFORTH_HEARTBEAT_MISSED": "5"}


def rows(database) -> list[tuple[str, int | None]]:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT process, player_id FROM tables_connection").fetchall()


def offline_seats(database) -> int:
    with sqlite3.connect(database) as db:
        query = "SELECT count(*) FROM tables_seat WHERE offline_since IS NOT NULL"
        return db.execute(query).fetchone()[0]


def processes(database) -> int:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT count(*) FROM tables_serverprocess").fetchone()[0]


async def wait_until(check, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.1)


async def kill_one_of_two(doomed: DaphneServer, info: dict, database) -> None:
    ann, bob, spectator = info["sessions"]
    survivor_address = info["survivor"]
    clients = [
        Client(doomed.address, info["slug"], ann),
        Client(doomed.address, info["slug"], spectator),
        Client(survivor_address, info["slug"], bob),
    ]
    for client in clients:
        await client.connect()
    await wait_until(lambda: len(rows(database)) == 3)
    assert len({process for process, _ in rows(database)}) == 2
    assert offline_seats(database) == 0

    doomed.kill()  # SIGKILL: its sockets never say goodbye

    # Within a few missed beats the survivor closes the dead process's two rows, as if those
    # sockets had closed: only Bob's socket is left, and Ann's seat is now away.
    await wait_until(lambda: len(rows(database)) == 1)
    ((_, player),) = rows(database)
    assert player is not None
    await wait_until(lambda: offline_seats(database) == 1)
    # The dead process's own row goes right after its sockets' rows (the same beat).
    await wait_until(lambda: processes(database) == 1)
    await clients[2].close()


def test_the_sockets_of_a_killed_process_are_cleared_by_the_process_that_survives(tmp_path):
    shared = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    doomed = DaphneServer(tmp_path / "a", DATABASE_URL=shared, **FAST_BEATS)
    survivor = DaphneServer(tmp_path / "b", DATABASE_URL=shared, **FAST_BEATS)
    database = tmp_path / "shared.sqlite3"
    try:
        info = set_up_game(doomed) | {"survivor": survivor.address}
        asyncio.run(kill_one_of_two(doomed, info, database))
    finally:
        doomed.stop()
        survivor.stop()


def test_a_server_with_heartbeats_off_records_no_process(tmp_path):
    server = DaphneServer(tmp_path, KILFORTH_HEARTBEAT_SECONDS="0")
    try:
        info = set_up_game(server)

        async def visit() -> None:
            client = Client(server.address, info["slug"], info["sessions"][2])
            await client.connect()
            await client.wait_for(0)
            await client.close()

        asyncio.run(visit())
        with sqlite3.connect(server.database) as db:
            assert db.execute("SELECT count(*) FROM tables_serverprocess").fetchone()[0] == 0
    finally:
        server.stop()

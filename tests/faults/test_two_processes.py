"""Two daphne processes behind one site: a player on A and a spectator on B see every update."""

import asyncio
import uuid

import psycopg
import pytest

from games.kilforth import adapter
from tests.conftest import DaphneServer
from tests.faults.kit import Client, set_up_game
from tests.services.test_settings_switches import with_database

pytestmark = [pytest.mark.server, pytest.mark.redis, pytest.mark.postgres, pytest.mark.slow]

STATE = """
from games.tables.models import Game
print(Game.objects.get().state)
"""


@pytest.fixture
def shared_postgres(postgres_url):
    name = f"kilforth_two_{uuid.uuid4().hex[:8]}"
    admin = with_database(postgres_url, "postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield with_database(postgres_url, name)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_player_on_one_process_and_a_spectator_on_another_see_every_update(
    tmp_path, shared_postgres, redis_url
):
    services = {
        "DATABASE_URL": shared_postgres,
        "REDIS_URL": redis_url,
        "KILFORTH_TEST_SEED": "4711",
        # The freshness check would also carry updates across from the database; switched off,
        # only the Redis channel layer can bring them to process B.
        "KILFORTH_FRESHNESS_SECONDS": "3600",
    }
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    server_a = DaphneServer(tmp_path / "a", **services)
    server_b = DaphneServer(tmp_path / "b", **services)
    try:
        info = set_up_game(server_a)
        asyncio.run(play(server_a, server_b, info, decisions=15))
    finally:
        server_a.stop()
        server_b.stop()


async def play(server_a: DaphneServer, server_b: DaphneServer, info: dict, decisions: int):
    ann_on_a = Client(server_a.address, info["slug"], info["sessions"][0])
    bob_on_a = Client(server_a.address, info["slug"], info["sessions"][1])
    spectator_on_b = Client(server_b.address, info["slug"], info["sessions"][2])
    players = [ann_on_a, bob_on_a]
    for client in (*players, spectator_on_b):
        await client.connect()
    for _ in range(decisions):
        state = adapter.load(server_a.manage("shell", "--no-imports", "-c", STATE).strip())
        if state.result is not None:
            break
        seat = state.waiting_for[0]
        await players[seat].send_act(adapter.legal(state, seat)[0].key, state.version)
        # Every version reaches the spectator on the other process, through Redis.
        await spectator_on_b.wait_for(state.version + 1, seconds=15)
        await players[1 - seat].wait_for(state.version + 1, seconds=15)
    assert spectator_on_b.version >= decisions
    for client in (*players, spectator_on_b):
        await client.close()

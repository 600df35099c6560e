"""Redis restarts mid-game: open sockets keep getting updates, and no decision is lost."""

import asyncio

import pytest

from bench.soak import RedisServer  # a Redis of our own on a free port
from games.kilforth import adapter
from tests.conftest import DaphneServer, service_missing
from tests.faults.kit import Client, saved_actions, saved_state, set_up_game

pytestmark = [pytest.mark.server, pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def own_redis():
    try:
        server = RedisServer()
    except FileNotFoundError:
        service_missing("redis-server", "not installed")
    yield server
    server.stop()


def test_after_a_redis_restart_open_sockets_get_the_next_updates(tmp_path, own_redis):
    server = DaphneServer(
        tmp_path, KILFORTH_TEST_SEED="77", REDIS_URL=f"redis://127.0.0.1:{own_redis.port}/0"
    )
    try:
        info = set_up_game(server)
        asyncio.run(play_across_a_redis_restart(server, info, own_redis))
    finally:
        server.stop()
    versions = [version for version, _, _ in saved_actions(server)]
    assert versions == list(range(1, len(versions) + 1))
    assert saved_state(server).version == len(versions)


async def decide(server, clients) -> int:
    state = saved_state(server)
    seat = state.waiting_for[0]
    await clients[seat].send_act(adapter.legal(state, seat)[0].key, state.version)
    return state.version + 1


async def play_across_a_redis_restart(server, info, redis) -> None:
    clients = [Client(server.address, info["slug"], key) for key in info["sessions"]]
    for client in clients:
        await client.connect()
    for _ in range(3):
        version = await decide(server, clients)
        for client in clients:
            await client.wait_for(version)
    redis.stop()
    redis.start()
    # The same sockets, no reconnect and no reload: the next decisions still reach everyone.
    for _ in range(3):
        version = await decide(server, clients)
        for client in clients:
            await client.wait_for(version, seconds=20)
    for client in clients:
        await client.close()

"""Redis restarts mid-game: open sockets keep getting updates, and no decision is lost."""

import asyncio
import socket
import subprocess
import time

import pytest

from games.kilforth import adapter
from tests.conftest import DaphneServer, free_port, service_missing
from tests.faults.kit import Client, saved_actions, saved_state, set_up_game

pytestmark = [pytest.mark.server, pytest.mark.redis, pytest.mark.slow]


class RedisServer:
    """A Redis of our own on a free port, so restarting it disturbs nobody else."""

    def __init__(self) -> None:
        self.port = free_port()
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)


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
    versions = saved_actions(server)
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

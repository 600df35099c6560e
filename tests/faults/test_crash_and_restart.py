"""Crash the server mid-game with SIGKILL, start it again: nothing committed is lost."""

import asyncio
import random
import time

import pytest

from games.kilforth import adapter
from tests.conftest import DaphneServer
from tests.faults.kit import (
    Client,
    check_invariants,
    replayed,
    saved_actions,
    saved_state,
    set_up_game,
)

pytestmark = [pytest.mark.server, pytest.mark.slow]


def test_sigkill_at_random_points_loses_no_committed_decision(tmp_path):
    server = DaphneServer(tmp_path, KILFORTH_TEST_SEED="31337")
    try:
        info = set_up_game(server)
        resyncs = asyncio.run(play_through_crashes(server, info, steps=60, crashes=4))
    finally:
        server.stop()
    state = saved_state(server)
    actions = saved_actions(server)
    versions = [version for version, _, _ in actions]
    # Every decision committed is saved whole: a gapless action log that rebuilds the state.
    assert versions == list(range(1, len(versions) + 1))
    assert state.version == len(versions)
    assert replayed(state, actions) == state
    check_invariants(state)
    assert len(resyncs) == 4
    print(f"restart-to-resync after SIGKILL: {', '.join(f'{t * 1000:.0f} ms' for t in resyncs)}")


async def play_through_crashes(server: DaphneServer, info: dict, steps: int, crashes: int):
    rng = random.Random(5)
    crash_steps = set(rng.sample(range(3, steps), crashes))
    clients = [Client(server.address, info["slug"], key) for key in info["sessions"]]
    for client in clients:
        await client.connect()
    resyncs = []
    acknowledged = 0
    for step in range(steps):
        state = saved_state(server)
        if state.result is not None:
            break
        seat = state.waiting_for[0]
        key = rng.choice(adapter.legal(state, seat)).key
        await clients[seat].send_act(key, state.version)
        if step in crash_steps:
            await asyncio.sleep(rng.random() * 0.02)  # somewhere before, during or after commit
            server.kill()
            started = time.monotonic()
            for client in clients:
                await client.close()
            # Whatever a browser was shown before the crash must still be in the database.
            shown = max(c.version for c in clients)
            assert saved_state(server).version >= shown
            server.start()
            for client in clients:
                await client.connect()
            current = saved_state(server).version
            for client in clients:
                await client.wait_for(current)
            resyncs.append(time.monotonic() - started)
        else:
            await clients[seat].wait_for(state.version + 1)
            acknowledged = clients[seat].version
            assert saved_state(server).version >= acknowledged
    for client in clients:
        await client.close()
    return resyncs

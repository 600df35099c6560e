"""A message reaching many sockets of one process costs each socket only its own part: no
thread hop per message (dispatch.py), one copy of the table as the message shows it."""

import pytest
from channels import consumer as channels_consumer
from channels.db import database_sync_to_async

from games.tables import consumers
from tests.tables.test_game_flow import started_table
from tests.tables.test_game_sockets import decide_and_see_everywhere, open_sockets

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async


async def test_a_decision_reaches_every_socket_without_a_thread_hop_per_message(monkeypatch):
    hops = {"n": 0}

    async def counting() -> None:
        hops["n"] += 1

    # What Channels' own dispatch awaits before each message (a hop to a worker thread).
    monkeypatch.setattr(channels_consumer, "aclose_old_connections", counting)
    table, players = await db(started_table)()
    sockets = await open_sockets(table, players)
    await decide_and_see_everywhere(table, sockets)
    assert hops["n"] == 0
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_every_socket_shown_one_message_shares_one_copy_of_the_table(monkeypatch):
    table, players = await db(started_table)()
    sockets = await open_sockets(table, players)
    for communicator in sockets.values():  # the joins' own messages, done with
        while not await communicator.receive_nothing(timeout=0.3):
            await communicator.receive_from()
    made = []
    build = consumers._with_presence

    def counting(base, event, state_key):
        made.append(state_key)
        return build(base, event, state_key)

    monkeypatch.setattr(consumers, "_with_presence", counting)
    await decide_and_see_everywhere(table, sockets)
    assert len(sockets) == 3 and len(made) == 1
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_a_decisions_database_thread_does_not_wait_for_its_broadcast_to_be_published(
    monkeypatch,
):
    # The channel layer holds every publish until the decision has returned: had the thread
    # waited for its broadcast, the decision would never return.
    import asyncio

    from channels.layers import get_channel_layer

    from games.tables import services
    from tests.tables.test_game_flow import current_state, deciding

    layer = get_channel_layer()
    released = asyncio.Event()
    publish = layer.group_send

    async def held(group, message):
        await released.wait()
        await publish(group, message)

    monkeypatch.setattr(layer, "group_send", held)
    table, players = await db(started_table)()
    state = await db(current_state)(table)
    seat, options = deciding(state)
    decide = db(services.do_act)(table, players[seat], options[0].key, state.version)
    try:
        version = await asyncio.wait_for(decide, timeout=10)
    finally:
        released.set()  # a thread that did wait is let go, so that the test ends either way
    assert version == state.version + 1

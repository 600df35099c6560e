"""The channel layer over a real Redis: what lets several daphne processes share tables."""

import asyncio
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels_redis.pubsub import RedisPubSubChannelLayer

from games.tables import consumers, services
from games.tables.layers import SharedDecodePubSubLayer
from games.tables.models import Player
from tests.tables.helpers import open_table, receive_until, session_for, socket

pytestmark = pytest.mark.redis


def redis_layer_settings(url: str) -> dict:
    return {
        "default": {
            "BACKEND": "games.tables.layers.SharedDecodePubSubLayer",
            # A fresh prefix per test: nothing from another run or test can leak in.
            "CONFIG": {"hosts": [url], "prefix": f"kilforth-test-{uuid.uuid4().hex[:8]}"},
        }
    }


async def frames_with(communicator, *needles: str) -> list[str]:
    """The frames read until every needle has come, in any order (fails on a 5 s silence)."""
    frames: list[str] = []
    while not all(any(n in f for f in frames) for n in needles):
        frames.append(await communicator.receive_from(timeout=5))
    return frames


async def test_two_layer_instances_deliver_a_group_message_across_processes(redis_url):
    # Two layer objects with separate connections stand in for two daphne processes.
    prefix = f"kilforth-test-{uuid.uuid4().hex[:8]}"
    process_a = RedisPubSubChannelLayer(hosts=[redis_url], prefix=prefix)
    process_b = RedisPubSubChannelLayer(hosts=[redis_url], prefix=prefix)
    try:
        listener = await process_b.new_channel()
        await process_b.group_add("table-1", listener)
        await process_a.group_send("table-1", {"type": "table.update", "version": 7})
        message = await process_b.receive(listener)
        assert message == {"type": "table.update", "version": 7}
    finally:
        await process_a.flush()
        await process_b.flush()


@pytest.mark.django_db(transaction=True)
async def test_two_consumers_on_a_redis_backed_layer_see_each_others_updates(redis_url, settings):
    settings.CHANNEL_LAYERS = redis_layer_settings(redis_url)
    assert isinstance(channel_layers["default"], SharedDecodePubSubLayer)
    try:
        host = await database_sync_to_async(Player.objects.create)(name="Hal")
        ann = await database_sync_to_async(Player.objects.create)(name="Ann")
        table = await database_sync_to_async(open_table)(host)
        host_socket = socket(
            f"/ws/t/{table.slug}/", await database_sync_to_async(session_for)(host)
        )
        ann_socket = socket(f"/ws/t/{table.slug}/", await database_sync_to_async(session_for)(ann))
        assert (await host_socket.connect())[0]
        assert (await ann_socket.connect())[0]
        await receive_until(host_socket, 'id="table-live"')
        await receive_until(ann_socket, 'id="table-live"')
        await database_sync_to_async(services.do_take_seat)(table, ann, 2, "player")
        # Both the chat's system line and the seat reach the host (the seat may come first:
        # a table message reaches this process's sockets without the trip through Redis).
        frames = await frames_with(host_socket, "Ann sat down in seat 3.", 'id="seat-2"')
        assert all('id="chat-log"' in f for f in frames if "Ann sat down in seat 3." in f)
        assert all("Ann" in f for f in frames if 'id="seat-2"' in f)
        await host_socket.disconnect()
        await ann_socket.disconnect()
    finally:
        await channel_layers["default"].flush()


async def test_the_sockets_of_one_process_share_one_decoded_copy_of_a_group_message(redis_url):
    prefix = f"kilforth-test-{uuid.uuid4().hex[:8]}"
    sender = SharedDecodePubSubLayer(hosts=[redis_url], prefix=prefix)
    process = SharedDecodePubSubLayer(hosts=[redis_url], prefix=prefix)
    decoded = []
    decode = process._serializer.deserialize
    process._serializer.deserialize = lambda data: decoded.append(1) or decode(data)
    try:
        sockets = [await process.new_channel() for _ in range(3)]
        for channel in sockets:
            await process.group_add("table-1", channel)
        packed = bytes(range(256)) * 40  # a packed snapshot rides along
        await sender.group_send(
            "table-1", {"type": "table.update", "version": 7, "snapshot": packed}
        )
        messages = [await process.receive(channel) for channel in sockets]
        assert all(m is messages[0] for m in messages) and len(decoded) == 1
        assert messages[0]["version"] == 7 and messages[0]["snapshot"] == packed
        with pytest.raises(TypeError):  # shared, so nobody may change it
            messages[0]["version"] = 8
        # The next message is decoded anew.
        await sender.group_send("table-1", {"type": "table.update", "version": 8})
        assert (await process.receive(sockets[1]))["version"] == 8 and len(decoded) == 2
    finally:
        await sender.flush()
        await process.flush()


async def test_a_table_message_reaches_this_processs_sockets_at_once_and_the_others_once(
    redis_url,
):
    prefix = f"kilforth-test-{uuid.uuid4().hex[:8]}"
    here = SharedDecodePubSubLayer(hosts=[redis_url], prefix=prefix)
    there = SharedDecodePubSubLayer(hosts=[redis_url], prefix=prefix)
    try:
        mine = [await here.new_channel() for _ in range(2)]
        theirs = await there.new_channel()
        for layer, channel in [(here, mine[0]), (here, mine[1]), (there, theirs)]:
            await layer.group_add("table-1", channel)
        data = here.deliver_here("table-1", {"type": "table.update", "version": 7})
        # This process's sockets have it before anything went to Redis.
        got = [await asyncio.wait_for(here.receive(channel), 1) for channel in mine]
        assert [m["version"] for m in got] == [7, 7] and got[0] is got[1]
        await here.publish_elsewhere("table-1", data)
        assert (await asyncio.wait_for(there.receive(theirs), 2))["version"] == 7
        # The copy Redis brings back here is dropped; the next message from elsewhere is not.
        await there.group_send("table-1", {"type": "table.update", "version": 8})
        assert (await asyncio.wait_for(here.receive(mine[0]), 2))["version"] == 8
        assert (await asyncio.wait_for(here.receive(mine[1]), 2))["version"] == 8
        assert (await asyncio.wait_for(there.receive(theirs), 2))["version"] == 8
    finally:
        await here.flush()
        await there.flush()


async def test_a_table_message_that_could_not_be_published_expects_no_copy_back(redis_url):
    here = SharedDecodePubSubLayer(hosts=[redis_url], prefix=f"kilforth-test-{uuid.uuid4().hex}")
    try:
        await here.group_add("table-1", await here.new_channel())
        data = here.deliver_here("table-1", {"type": "table.update", "version": 7})
        loop_layer = here._get_layer()
        shard = loop_layer._get_shard(loop_layer._get_group_channel_name("table-1"))

        async def down(channel: str, message: bytes) -> None:
            raise ConnectionError("Redis is restarting")

        shard.publish = down
        with pytest.raises(ConnectionError):
            await here.publish_elsewhere("table-1", data)
        assert loop_layer.echoes == {}  # a retry publishes it anew, expecting its copy then
    finally:
        await here.flush()


@pytest.mark.django_db(transaction=True)
async def test_a_crowd_of_a_tables_sockets_in_one_process_takes_its_messages_through_one_handler(
    redis_url, settings, monkeypatch
):
    settings.CHANNEL_LAYERS = redis_layer_settings(redis_url)
    monkeypatch.setattr(consumers, "CROWD", 2)  # a crowd of two sockets, here
    layer = channel_layers["default"]
    try:
        host = await database_sync_to_async(Player.objects.create)(name="Hal")
        ann = await database_sync_to_async(Player.objects.create)(name="Ann")
        table = await database_sync_to_async(open_table)(host)
        group_channel = layer._get_layer()._get_group_channel_name(f"table-{table.pk}")
        sockets = [
            socket(f"/ws/t/{table.slug}/", await database_sync_to_async(session_for)(who))
            for who in (host, ann, None)
        ]
        for n, each in enumerate(sockets):
            assert (await each.connect())[0]
            await receive_until(each, 'id="table-live"')
            # One socket alone takes its own messages; from the second on, the crowd's handler.
            assert (group_channel in layer._get_layer().takers) == (n >= 1)
        # One handler takes the table's messages here; the sockets' channels get none of them.
        assert group_channel in layer._get_layer().takers
        queued = []
        for channel in layer._get_layer().groups[group_channel]:
            queue = layer._get_layer().channels[channel]
            put = queue.put_nowait
            queue.put_nowait = lambda data, put=put: queued.append(data) or put(data)
        await database_sync_to_async(services.do_take_seat)(table, ann, 2, "player")
        for each in sockets:
            frames = await frames_with(each, 'id="seat-2"', "Ann sat down in seat 3.")
            assert all("Ann" in f for f in frames if 'id="seat-2"' in f)  # and the chat line
        assert queued == []
        for each in sockets:
            await each.disconnect()
        assert group_channel not in layer._get_layer().takers  # the last socket gave it back
    finally:
        await layer.flush()

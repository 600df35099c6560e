"""The channel layer over a real Redis: what lets several daphne processes share tables."""

import uuid

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels_redis.pubsub import RedisPubSubChannelLayer

from games.tables import services
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
        # Both the chat's system line and the seat reach the host through Redis.
        line = await receive_until(host_socket, "Ann sat down in seat 3.", wait=5)
        assert 'id="chat-log"' in line
        frame = await receive_until(host_socket, 'id="seat-2"', wait=5)
        assert "Ann" in frame
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

"""The channel layer when the site is scaled out: Redis pub/sub, each group message decoded once,
and a process's own sockets served first.

channels-redis's pub/sub layer receives a group message once per process and queues the same
bytes to every socket of the group there; each socket's `receive` then decodes its own copy. A
table message carries the decision's packed snapshot (rendering.pack_snapshot), so a thousand
spectators in one process decoded a thousand copies of it for every decision: 4% of that
process's CPU (docs/benchmarks.md). Here the sockets that receive the same bytes get the same
decoded message, read-only: no handler may change a message it is given (none does; a mapping
proxy refuses it).

A table message is also handed to this process's own sockets at once (`deliver_here`), not
after its trip through Redis and back, and goes to Redis only for the other processes
(`publish_elsewhere`), when any of them has a socket at the table (realtime.broadcast_table
knows from the presence rows). The copy Redis then brings back to this process is dropped
(`_EchoAwareShard`): its sockets have it already.

A group can be taken (`take_group`): its messages, from here or from Redis, then go to one
function of this process, once each, instead of through every socket's own channel (each
socket's receive costs a task, a wait and a dispatch: a thousand spectators, a thousand of
each per decision). The table sockets take their table's group (consumers.Freshness) and show
each message one socket after another.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close

DECODED_KEPT = 8  # messages in flight at once in one process: a few (a decision, a presence)
# Per group: the messages this process published and already gave its own sockets, until Redis
# brings each back. Bounded: one lost on its way (a Redis restart) is pushed out by the next.
ECHOES_KEPT = 16
Taker = Callable[[Mapping[str, Any]], None]


class _EchoAwareLoopLayer(RedisPubSubLoopLayer):
    """channels-redis's layer of one event loop, whose sockets can be served before Redis."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [_EchoAwareShard(shard.host, self) for shard in self._shards]
        # By group channel: the bytes published from here that this process's sockets have.
        self.echoes: dict[str, deque[bytes]] = {}
        # By group channel: the function that takes the group's messages here (`take_group`).
        self.takers: dict[str, Taker] = {}

    def deliver_here(self, group: str, message: dict) -> bytes:
        """Give `message` to this process's sockets in `group` now; its bytes, to publish."""
        data = self.channel_layer.serialize(message)
        group_channel = self._get_group_channel_name(group)
        taker = self.takers.get(group_channel)
        if taker is not None:
            taker(self.channel_layer.deserialize(data))  # as from Redis: decoded, read-only
            return data
        for name in self.groups.get(group_channel, ()):
            queue = self.channels.get(name)
            if queue is not None:
                queue.put_nowait(data)  # the same bytes object: decoded once (deserialize)
        return data

    def take(self, group_channel: str, data: bytes) -> bool:
        """Whether a taker took `data`, arrived from Redis for `group_channel`."""
        taker = self.takers.get(group_channel)
        if taker is None:
            return False
        taker(self.channel_layer.deserialize(data))
        return True

    async def publish_elsewhere(self, group: str, data: bytes) -> None:
        """Publish bytes `deliver_here` gave this process's sockets to the other processes."""
        group_channel = self._get_group_channel_name(group)
        echoing = group_channel in self.groups  # subscribed here: Redis will bring it back
        if echoing:
            self.echoes.setdefault(group_channel, deque(maxlen=ECHOES_KEPT)).append(data)
        try:
            await self._get_shard(group_channel).publish(group_channel, data)
        except BaseException:
            if echoing:  # it never left: nothing will come back (a retry publishes it anew)
                self._forget_echo(group_channel, data)
            raise

    def is_echo(self, group_channel: str, data: bytes) -> bool:
        """Whether `data`, arrived from Redis, is one this process published and delivered."""
        return group_channel in self.echoes and self._forget_echo(group_channel, data)

    def _forget_echo(self, group_channel: str, data: bytes) -> bool:
        pending = self.echoes.get(group_channel, ())
        for i, sent in enumerate(pending):
            if sent == data:
                del pending[i]
                if not pending:
                    del self.echoes[group_channel]
                return True
        return False


class _EchoAwareShard(RedisSingleShardConnection):
    """One Redis connection of the layer; drops the messages its process published itself."""

    channel_layer: _EchoAwareLoopLayer

    def _receive_message(self, message: dict | None) -> None:
        if message is not None:
            name = message["channel"]
            if isinstance(name, bytes):
                name = name.decode()
            if self.channel_layer.is_echo(name, message["data"]):
                return
            if self.channel_layer.take(name, message["data"]):
                return
        super()._receive_message(message)


class SharedDecodePubSubLayer(RedisPubSubChannelLayer):
    """`RedisPubSubChannelLayer` whose sockets share the decoding of one message's bytes, and
    whose table messages reach this process's sockets without the trip through Redis."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # By the bytes object the layer queued to each socket: kept with it, so its id is not
        # reused while it is here.
        self._decoded: OrderedDict[int, tuple[bytes, MappingProxyType]] = OrderedDict()

    def _get_layer(self) -> _EchoAwareLoopLayer:
        # channels-redis's own, with the loop layer above (one per event loop).
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _EchoAwareLoopLayer(
                *self._args, **self._kwargs, channel_layer=self
            )
            _wrap_close(self, loop)
        return layer

    def deliver_here(self, group: str, message: dict) -> bytes:
        """Give `message` to this process's sockets in `group` at once (on the event loop);
        its bytes, for `publish_elsewhere`."""
        return self._get_layer().deliver_here(group, message)

    async def publish_elsewhere(self, group: str, data: bytes) -> None:
        """Send what `deliver_here` gave this process's sockets to the other processes' sockets
        in `group` (the copy Redis brings back here is dropped)."""
        await self._get_layer().publish_elsewhere(group, data)

    def take_group(self, group: str, taker: Taker | None) -> None:
        """From now on `group`'s messages in this process (on this event loop) go to `taker`,
        decoded and read-only, each once, and not to its sockets' channels; None: to them
        again. Call it on the event loop, for a group whose members here `taker` serves."""
        layer = self._get_layer()
        group_channel = layer._get_group_channel_name(group)
        if taker is None:
            layer.takers.pop(group_channel, None)
        else:
            layer.takers[group_channel] = taker

    def deserialize(self, message: bytes) -> Any:
        found = self._decoded.get(id(message))
        if found is not None and found[0] is message:
            return found[1]
        decoded = MappingProxyType(super().deserialize(message))
        self._decoded[id(message)] = (message, decoded)
        while len(self._decoded) > DECODED_KEPT:
            self._decoded.popitem(last=False)
        return decoded

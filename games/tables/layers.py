"""The channel layer when the site is scaled out: Redis pub/sub, each group message decoded once.

channels-redis's pub/sub layer receives a group message once per process and queues the same
bytes to every socket of the group there; each socket's `receive` then decodes its own copy. A
table message carries the decision's packed snapshot (rendering.pack_snapshot), so a thousand
spectators in one process decoded a thousand copies of it for every decision: 4% of that
process's CPU (docs/benchmarks.md). Here the sockets that receive the same bytes get the same
decoded message, read-only: no handler may change a message it is given (none does; a mapping
proxy refuses it).
"""

from __future__ import annotations

from collections import OrderedDict
from types import MappingProxyType
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer

DECODED_KEPT = 8  # messages in flight at once in one process: a few (a decision, a presence)


class SharedDecodePubSubLayer(RedisPubSubChannelLayer):
    """`RedisPubSubChannelLayer` whose sockets share the decoding of one message's bytes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # By the bytes object the layer queued to each socket: kept with it, so its id is not
        # reused while it is here.
        self._decoded: OrderedDict[int, tuple[bytes, MappingProxyType]] = OrderedDict()

    def deserialize(self, message: bytes) -> Any:
        found = self._decoded.get(id(message))
        if found is not None and found[0] is message:
            return found[1]
        decoded = MappingProxyType(super().deserialize(message))
        self._decoded[id(message)] = (message, decoded)
        while len(self._decoded) > DECODED_KEPT:
            self._decoded.popitem(last=False)
        return decoded

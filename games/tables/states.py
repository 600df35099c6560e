"""Parsed game states, per process, by (table slug, version): a committed version never changes.

A decision's state is parsed (and its document grows with the game's log: 150 KiB after 300
decisions) by the decision itself and again by every snapshot of the broadcast. Keeping the
states this process committed or read lets both skip the parse; the database stays the truth,
and only states whose transaction committed are remembered. The key is the table's slug, a
random token never reused (row ids can be, by SQLite and by test databases).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from threading import Lock

from django.db import transaction

KEPT = 256
_states: OrderedDict[tuple[str, int], object] = OrderedDict()
_lock = Lock()


def state_at(slug: str, version: int, document: Callable[[], str | None]) -> object | None:
    """The game's state at `version`: remembered, or parsed from `document()` and remembered.

    Engine states are never changed in place (`act` returns a new state), so sharing is safe.
    """
    from games.kilforth import adapter

    key = (slug, version)
    with _lock:
        state = _states.get(key)
        if state is not None:
            _states.move_to_end(key)
            return state
    text = document()
    if text is None:
        return None
    state = adapter.load(text)
    _remember(key, state)
    return state


def remember_on_commit(slug: str, version: int, state: object) -> None:
    """Keep a state this transaction saved, once (and only if) it commits."""
    transaction.on_commit(lambda: _remember((slug, version), state))


def _remember(key: tuple[str, int], state: object) -> None:
    with _lock:
        _states[key] = state
        _states.move_to_end(key)
        while len(_states) > KEPT:
            _states.popitem(last=False)


def forget_all() -> None:
    """As after a restart (tests)."""
    with _lock:
        _states.clear()

"""Every per-process cache of the platform, and the one story of when each entry goes.

The database is the truth; these only save work. Five caches, all keyed by a table or game:

- **parsed game states**, by (table slug, version): a committed version never changes, so the
  process that applied a decision keeps its new state (once the transaction commits) and every
  other reader parses a version once. The slug is a random token never reused (row ids can be).
- **snapshots**, by (table id, slug, version): everything the live fragment shows for one table
  version, read once however many sockets ask at the same moment (`snapshot()`), or built by the
  decision that made the version, in this process (`offer_snapshot_on_commit`, `keep`), or in
  another one and carried by its table message (`rendering.unpack_snapshot`, `keep`).
- **renderings**, by (table id, viewer kind, access): the newest rendered fragments of each view
  and the partial frames between them (`frames.Renderings`).
- **replay checkpoints**, by (game id and start, step): states a replay rebuilt
  (`replays.py`), every CHECKPOINT-th step, so stepping through a long game replays a few
  decisions, not all of them.
  A step's state never changes, so these only age out (least recently used).
- **table heads**, by the table and every field its head shows (`head`): the name, options,
  host, status and watchers atop the live fragment, the same from one decision to the next.
  Kept by what they show, they are never stale, and only age out too.

When entries go:
1. A newer version of a table supersedes its older states and snapshots at once (sockets only
   move forward; a lagging one is sent a whole fragment rendered for it alone).
2. When this process's last socket of a table closes, everything of that table goes
   (`forget_table`): a finished game's state and boards do not wait to be pushed out.
3. Each cache is capped (least recently used first) as a backstop.
`forget_all()` empties them, as a restart would (tests).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from threading import Lock, local
from typing import TYPE_CHECKING, Any, NamedTuple

from channels.db import database_sync_to_async
from django.db import transaction

from .frames import Renderings
from .kits import GameKit

if TYPE_CHECKING:
    from django.utils.safestring import SafeString

    from .rendering import TableSnapshot
    from .rows import Later

STATES_KEPT = 256
SNAPSHOTS_KEPT = 512
CHECKPOINTS_KEPT = 512

_states: OrderedDict[tuple[str, int], object] = OrderedDict()
_lock = Lock()  # states are read and written from sync worker threads
_snapshots: OrderedDict[tuple[int, str, int], TableSnapshot] = OrderedDict()
_loading: dict[tuple[int, str, int], asyncio.Future[TableSnapshot | None]] = {}
renderings = Renderings()
_checkpoints: OrderedDict[tuple[tuple, int], object] = OrderedDict()


# -- parsed game states ----------------------------------------------------------------------


def state_at(
    kit: GameKit, slug: str, version: int, document: Callable[[], str | None]
) -> object | None:
    """The game's state at `version`: remembered, or parsed from `document()` and remembered.

    Engine states are never changed in place (`act` returns a new state), so sharing is safe.
    """
    key = (slug, version)
    state = _recent(_states, key)
    if state is not None:
        return state
    text = document()
    if text is None:
        return None
    state = kit.load(text)
    _remember(key, state)
    return state


def remember_on_commit(slug: str, version: int, state: object) -> None:
    """Keep a state this transaction saved, once (and only if) it commits."""
    transaction.on_commit(lambda: _remember((slug, version), state))


def _remember(key: tuple[str, int], state: object) -> None:
    slug, version = key
    with _lock:
        if any(k[0] == slug and k[1] > version for k in _states):
            return  # a newer version is known: this one will not be asked for again
        for older in [k for k in _states if k[0] == slug and k[1] < version]:
            del _states[older]
        _states[key] = state
        _states.move_to_end(key)
        while len(_states) > STATES_KEPT:
            _states.popitem(last=False)


# -- snapshots of a table version ------------------------------------------------------------


async def snapshot(
    table_id: int, slug: str, version: int, load: Callable[[], TableSnapshot | None]
) -> TableSnapshot | None:
    """Load a table version once per process, however many sockets ask for it at once."""
    key = (table_id, slug, version)
    found = _snapshots.get(key)
    if found is not None:
        _snapshots.move_to_end(key)
        return found
    loop = asyncio.get_running_loop()
    pending = _loading.get(key)
    if pending is None or pending.get_loop() is not loop:
        pending = asyncio.ensure_future(database_sync_to_async(load)())
        _loading[key] = pending
        try:
            found = await pending
        finally:
            _loading.pop(key, None)
        if found is not None:
            _keep(key, found)
        return found
    return await asyncio.shield(pending)


def _keep(key: tuple[int, str, int], found: TableSnapshot) -> None:
    table_id, _, version = key
    for older in [k for k in _snapshots if k[0] == table_id and k[2] < version]:
        del _snapshots[older]
    _snapshots[key] = found
    _snapshots.move_to_end(key)
    while len(_snapshots) > SNAPSHOTS_KEPT:
        _snapshots.popitem(last=False)


# -- a snapshot as one table message shows it -------------------------------------------------

# A snapshot with one table message's presence (who is online, who is away since when, how many
# watch), keyed by everything the message names: made once per message per process, however
# many sockets show that message (a thousand spectators, one copy). The event loop's only.
_presenced: OrderedDict[tuple, TableSnapshot] = OrderedDict()
PRESENCED_KEPT = 256


def presenced(key: tuple) -> TableSnapshot | None:
    """The snapshot kept for a table message's key (table id, slug, version, presence,
    watchers), if any."""
    return _presenced.get(key)


def keep_presenced(key: tuple, snapshot: TableSnapshot) -> None:
    for older in [k for k in _presenced if k[0] == key[0] and k[2] < key[2]]:
        del _presenced[older]
    _presenced[key] = snapshot
    while len(_presenced) > PRESENCED_KEPT:
        _presenced.popitem(last=False)


# The snapshot the decision this thread committed last built of its new version (services._apply):
# the broadcast after the commit hands it to this process's event loop (`take_offer`, `keep`), so
# the sockets here show the decision without reading back what it just wrote; scaled out, the
# message carries it too, so the other processes' sockets need not read it either.
_offered = local()


class Offer(NamedTuple):
    """A snapshot a decision built, with its game's state document as the decision saved it,
    its seats as a table message tells them (realtime.SeatFacts), and who watches the table
    (its presence rows, read with the decision's writes)."""

    snapshot: TableSnapshot
    document: str
    seats: list[tuple]
    viewers: Later


def offer_snapshot_on_commit(
    snapshot: TableSnapshot, document: str, seats: list[tuple], viewers: Later
) -> None:
    """Offer a snapshot this transaction built, once (and only if) it commits: the broadcast
    that the same commit runs next takes it."""
    offer = Offer(snapshot, document, seats, viewers)
    transaction.on_commit(lambda: setattr(_offered, "offer", offer))


def take_offer(table_id: int) -> Offer | None:
    """The snapshot offered in this thread, if it is of this table (once)."""
    offer = getattr(_offered, "offer", None)
    _offered.offer = None
    return offer if offer is not None and offer.snapshot.table.pk == table_id else None


def kept(table_id: int, slug: str, version: int) -> bool:
    """Whether this process holds the snapshot of that table version."""
    return (table_id, slug, version) in _snapshots


def keep(snapshot: TableSnapshot) -> None:
    """Keep a snapshot built elsewhere in this process. On the event loop's thread only (the
    snapshots are the loop's), and never over a newer version of the table."""
    table = snapshot.table
    key = (table.pk, table.slug, table.version)
    if key in _snapshots or any(k[0] == table.pk and k[2] > table.version for k in _snapshots):
        return
    _keep(key, snapshot)


# -- replay checkpoints ----------------------------------------------------------------------


def checkpoint(game: tuple, step: int) -> object | None:
    """A remembered replay state of `game` (a key naming one game) after `step` decisions."""
    return _recent(_checkpoints, (game, step))


def remember_checkpoint(game: tuple, step: int, state: object) -> None:
    _keep_recent(_checkpoints, (game, step), state, CHECKPOINTS_KEPT)


# -- forgetting ----------------------------------------------------------------------------


def forget_table(table_id: int) -> None:
    """Drop everything this process keeps of one table (its last socket here has closed)."""
    slugs = {k[1] for k in _snapshots if k[0] == table_id}
    for key in [k for k in _snapshots if k[0] == table_id]:
        del _snapshots[key]
    for key in [k for k in _presenced if k[0] == table_id]:
        del _presenced[key]
    with _lock:
        for key in [k for k in _states if k[0] in slugs]:
            del _states[key]
    renderings.forget(table_id)


def cached_tables() -> set[int]:
    """The ids of the tables this process keeps snapshots or renderings of."""
    return {k[0] for k in _snapshots} | renderings.tables()


def cached_states() -> int:
    with _lock:
        return len(_states)


# -- table heads, by every field they show (rendering.TableSnapshot.head) ------------------------

HEADS_KEPT = 1024
_heads: OrderedDict[tuple, SafeString] = OrderedDict()


def head(key: tuple, make: Callable[[], SafeString]) -> SafeString:
    """The head kept for `key`, else made now (`make`) and kept."""
    found = _recent(_heads, key)
    if found is None:
        found = make()
        _keep_recent(_heads, key, found, HEADS_KEPT)
    return found


# -- least recently used, under the one lock --------------------------------------------------


def _recent(kept: OrderedDict, key: object) -> Any:
    """The entry kept for `key` (None if there is none), now the most recently used."""
    with _lock:
        found = kept.get(key)
        if found is not None:
            kept.move_to_end(key)
        return found


def _keep_recent(kept: OrderedDict, key: object, value: object, bound: int) -> None:
    """Keep `value` for `key` as the most recently used; the least recent beyond `bound` go."""
    with _lock:
        kept[key] = value
        kept.move_to_end(key)
        while len(kept) > bound:
            kept.popitem(last=False)


def forget_all() -> None:
    """As after a restart (tests)."""
    with _lock:
        _states.clear()
        _checkpoints.clear()
        _heads.clear()
    _snapshots.clear()
    _presenced.clear()
    renderings.views.clear()

"""Bots at the table: an asyncio driver in each server process, off the request path.

After every change to a table with bot seats, the table's id is sent to the group BOT_GROUP.
Each process's driver plans the next bot decision (which seat, which key, at which version),
waits the table's human-paced delay, and submits it through services.do_bot_act: the same
checks, versioning and broadcast as a person's click. With several processes every driver may
try; the version check lets exactly one decision through and the others are refused as stale.
A sweep at start-up and every SWEEP_SECONDS wakes every game waiting on a bot, so a restart or a
lost message never leaves a table waiting forever.

The same driver watches the clocks (games/tables/clocks.py): it sleeps until the earliest
deadline in the database (at most CLOCK_POLL_SECONDS, and it is woken by every change to a timed
table), then has the table's bot make each overdue decision through services.do_expire, with
the same version check.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from dataclasses import dataclass

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from . import clocks, kits, services
from .models import Game, Seat, Table, TableStatus
from .realtime import BOT_GROUP

log = logging.getLogger(__name__)
SWEEP_SECONDS = 15.0
# The clock watcher looks at the database at least this often (a wake-up lost on the channel
# layer, or a deadline set by another process, is noticed within this time).
CLOCK_POLL_SECONDS = 5.0


@dataclass(frozen=True)
class BotMove:
    table_id: int
    seat: int
    key: str
    version: int
    delay: float


def plan_move(table_id: int, rng: random.Random | None = None) -> BotMove | None:
    """The next decision a bot owes at this table, or None when no bot is being waited on."""
    table = Table.objects.filter(pk=table_id, status=TableStatus.STARTED).first()
    if table is None:
        return None
    bots = dict(Seat.objects.filter(table=table).exclude(bot="").values_list("number", "bot"))
    if not bots:
        return None
    game = Game.objects.get(table=table)
    kit = kits.kit_for(table)
    state = kit.load(game.state)
    for seat in kit.waiting_for(state):
        if seat in bots:
            key = kit.bot_choice(state, seat, bots[seat], rng or random.Random())
            return BotMove(table.pk, seat, key, game.version, table.bot_delay_ms / 1000)
    return None


def tables_waiting_on_bots() -> list[int]:
    with_bots = Seat.objects.exclude(bot="").values("table_id")
    return list(
        Table.objects.filter(status=TableStatus.STARTED, pk__in=with_bots).values_list(
            "pk", flat=True
        )
    )


def play_move(move: BotMove) -> bool:
    try:
        services.do_bot_act(Table.objects.get(pk=move.table_id), move.seat, move.key, move.version)
    except services.ServiceError as exc:
        # Stale (another process or a person acted first) or the seat changed hands: replan.
        log.debug("bot move at table %s refused: %s", move.table_id, exc.message)
        return False
    return True


def plan_expiry(table_id: int, number: int, rng: random.Random | None = None) -> BotMove | None:
    """The decision the table's bot makes for a seat whose time ran out, or None when the game
    no longer waits on that seat."""
    table = Table.objects.filter(pk=table_id, status=TableStatus.STARTED).first()
    if table is None:
        return None
    game = Game.objects.get(table=table)
    kit = kits.kit_for(table)
    state = kit.load(game.state)
    if number not in kit.waiting_for(state):
        return None
    level = next(iter(kit.bot_levels))
    key = kit.bot_choice(state, number, level, rng or random.Random())
    return BotMove(table.pk, number, key, game.version, 0.0)


def play_expiry(move: BotMove) -> bool:
    try:
        services.do_expire(Table.objects.get(pk=move.table_id), move.seat, move.key, move.version)
    except services.ServiceError as exc:
        # Stale (another process expired it, or the seat acted just in time): nothing to do.
        log.debug("expiry at table %s refused: %s", move.table_id, exc.message)
        return False
    log.info("table %s: seat %s ran out of time; its bot decided", move.table_id, move.seat)
    return True


def expire_due() -> float:
    """Have the bots make every overdue decision; the seconds to wait before looking again."""
    for table_id, number in clocks.due():
        try:
            move = plan_expiry(table_id, number)
            if move is not None:
                play_expiry(move)
            else:  # the game no longer waits on that seat: its clock stops
                services.do_resync_clocks(Table.objects.get(pk=table_id))
        except Exception:  # one table's failure must not stop the others' clocks
            log.exception("expiry failed at table %s seat %s", table_id, number)
    wait = clocks.seconds_to_next()
    # Never a busy loop: a deadline that could not be played is looked at again shortly.
    return CLOCK_POLL_SECONDS if wait is None else min(max(wait, 0.2), CLOCK_POLL_SECONDS)


class BotDriver:
    def __init__(self) -> None:
        self.running: dict[int, asyncio.Task] = {}
        self.again: set[int] = set()
        self.tasks: set[asyncio.Task] = set()
        self.clocks_changed = asyncio.Event()

    async def run(self) -> None:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(BOT_GROUP, channel)
        watcher = asyncio.ensure_future(self.watch_clocks())
        try:
            await self.listen(layer, channel)
        finally:
            watcher.cancel()

    async def listen(self, layer: object, channel: str) -> None:
        await self.sweep()
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), timeout=SWEEP_SECONDS)
            except TimeoutError:
                await self.sweep()
                continue
            if message.get("type") == "bots.wake":
                self.wake(int(message["table"]))
            elif message.get("type") == "clocks.wake":
                self.clocks_changed.set()

    async def watch_clocks(self) -> None:
        """Expire overdue decisions, then sleep until the next deadline or a clock changes."""
        while True:
            self.clocks_changed.clear()
            try:
                wait = await database_sync_to_async(expire_due)()
            except Exception:  # a failing expiry must not stop the clocks of every table
                log.exception("clock watcher failed")
                wait = CLOCK_POLL_SECONDS
            try:
                await asyncio.wait_for(self.clocks_changed.wait(), timeout=wait)
            except TimeoutError:
                pass

    async def sweep(self) -> None:
        for table_id in await database_sync_to_async(tables_waiting_on_bots)():
            self.wake(table_id)

    def wake(self, table_id: int) -> None:
        task = self.running.get(table_id)
        if task is not None and not task.done():
            self.again.add(table_id)  # the running task plans once more before it stops
            return
        task = asyncio.ensure_future(self.drive(table_id))
        self.running[table_id] = task

    async def drive(self, table_id: int) -> None:
        """Play this table's bot decisions one after another while the game waits on bots."""
        try:
            while True:
                self.again.discard(table_id)
                move = await database_sync_to_async(plan_move)(table_id)
                if move is None:
                    if table_id in self.again:
                        continue
                    return
                await asyncio.sleep(move.delay)
                await database_sync_to_async(play_move)(move)
        except Exception:  # a bot must never take the driver down with it
            log.exception("bot driver failed at table %s", table_id)
        finally:
            self.running.pop(table_id, None)


_drivers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def ensure_driver() -> None:
    """Start this event loop's driver once (called from the ASGI entry point)."""
    if not getattr(settings, "KILFORTH_BOT_DRIVER", True):
        return
    loop = asyncio.get_running_loop()
    if loop in _drivers:
        return
    driver = BotDriver()
    task = loop.create_task(driver.run())
    _drivers[loop] = (driver, task)

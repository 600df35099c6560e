"""Websocket consumers: thin translators between frames and the services in services.py.

Inbound frames are small JSON objects ({"action": "act", "key": ..., "version": 12}); htmx's ws
extension sends a form's fields this way. A table socket takes game decisions, chat and resync
only; seats, host controls and the pre-game prompt are the pages' forms, posted over HTTP.
Outbound frames are HTML fragments whose top-level elements carry ids, which the extension swaps
into the page out of band.
"""

import asyncio
import contextlib
import contextvars
import logging
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from functools import lru_cache
from importlib import import_module
from typing import Any

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string

from . import caches, chat, realtime, rows, services, socket_input
from .dispatch import DirectDispatch
from .frames import Rendering, apply_frame, as_part, mark
from .identity import PLAYER_ACCESS, access_level, player_from_session, player_id_from_session
from .models import Player, Table, one
from .realtime import LOBBY_GROUP, session_group, table_group, table_message
from .rendering import (
    TableSnapshot,
    load_snapshot,
    render_lobby_list,
    render_table_live,
    unpack_snapshot,
    viewer_key,
)

logger = logging.getLogger(__name__)

# Close codes (RFC 6455 and the private 4000 range).
# Not 1009: autobahn lets an application close only with 1000 or 3000-4999, and refusing the
# close crashed the consumer (1011) before its clean-up ran. 4413 echoes HTTP's 413.
CLOSE_TOO_BIG = 4413
CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
CLOSE_FLOOD = 4429


class RateLimit:
    """A token bucket per socket: bursts of clicks pass, a flood is cut off.

    People send a message per click; even a frantic player stays far below RATE per second.
    """

    RATE = 10.0  # tokens per second
    BURST = 30.0
    __slots__ = ("stamp", "tokens")  # one per socket

    def __init__(self) -> None:
        self.tokens = self.BURST
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.BURST, self.tokens + (now - self.stamp) * self.RATE)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


async def refuse_flood_or_oversize(consumer: AsyncWebsocketConsumer, raw: str | bytes) -> bool:
    """Close the socket for an oversized frame or a flood; True when it was closed."""
    if not consumer.limit.allow():
        await consumer.send(
            text_data=error_frame("Too many messages; this connection is closed.", "flood")
        )
        await consumer.close(code=CLOSE_FLOOD, reason="too many messages")
        return True
    if len(raw) > settings.WEBSOCKET_MAX_MESSAGE_BYTES:
        await consumer.close(code=CLOSE_TOO_BIG, reason="message too big")
        return True
    return False


def error_frame(message: str, code: str = "bad_request", board: bool = False) -> str:
    """A refusal, shown once: `board`, a decision's (the board's own notice, `#game-flash`,
    cleared by the next frame); else the page's flash (chat, a malformed or flooding socket)."""
    context = {"message": message, "code": code, "board": board}
    return render_to_string("tables/_error_frame.html", context)


# How many sockets of one table in one process make a crowd, whose table's group messages go to
# one handler (`Freshness.fan_out`) and not through each socket's channel. Below it each socket
# takes its own (a table's few views render concurrently with the process's other work: one
# handler for a table's five sockets measured a millisecond slower to its last viewer).
CROWD = 16
# How long a table message's handling by the sockets of its table here runs before it lets the
# event loop write what it made (a view's render is about a millisecond; a crowd's sockets
# sharing one view take a few microseconds each).
FAN_OUT_SLICE = 0.0005


class Freshness:
    """Per process and event loop: the table sockets here, by table; the handler of a crowd's
    table messages (`fan_out`); and the safety net for broadcasts the channel layer lost.

    Pub/sub delivers at most once (a Redis restart drops what was published meanwhile), and the
    database is the truth. Every KILFORTH_FRESHNESS_SECONDS one query reads the versions of the
    tables this process has sockets for; a table that moved past what its sockets were shown
    gets its current state pushed to them. Runs only while the process has table sockets.
    """

    def __init__(self) -> None:
        self.consumers: dict[int, set[TableConsumer]] = {}
        self.seen: dict[int, int] = {}
        self.task: asyncio.Task | None = None
        # Per table: the newest table message being shown to its sockets here (`fan_out`).
        self.fanning: dict[int, asyncio.Task] = {}

    def add(self, consumer: "TableConsumer") -> None:
        sockets = self.consumers.setdefault(consumer.table_id, set())
        sockets.add(consumer)
        if len(sockets) == CROWD:
            # A crowd here: the table's group messages come to `fan_out`, once each, where the
            # channel layer can hand them so (games/tables/layers.py).
            _take_table_group(consumer, self.fan_out(consumer.table_id))
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run())

    def remove(self, consumer: "TableConsumer") -> None:
        group = self.consumers.get(consumer.table_id)
        if group is not None:
            group.discard(consumer)
            if len(group) == CROWD // 2 - 1:
                # The crowd has gone (half of it, so that a crowd at the mark does not take
                # and give back at every join): each socket takes its own messages again.
                _take_table_group(consumer, None)
            if not group:
                # The table's last socket here has gone: keep nothing of it in this process
                # (a finished game's state and boards would otherwise stay until pushed out).
                del self.consumers[consumer.table_id]
                self.seen.pop(consumer.table_id, None)
                caches.forget_table(consumer.table_id)

    def fan_out(self, table_id: int) -> Callable[[Mapping[str, Any]], None]:
        """What takes the table's group messages here (a table update, a chat line): each is
        handled by every socket of the table here, one after another, after the table's
        messages before it, by one task (not one receive per socket)."""

        def take(message: Mapping[str, Any]) -> None:
            # In a context of its own: the caller's may be a database thread's (a decision's
            # broadcast), where asgiref refuses the sockets' own database calls.
            task = asyncio.get_running_loop().create_task(
                self._handle_all(table_id, self.fanning.get(table_id), message),
                context=contextvars.Context(),
            )
            self.fanning[table_id] = task
            task.add_done_callback(lambda done: self._fanned(table_id, done))

        return take

    def _fanned(self, table_id: int, task: asyncio.Task) -> None:
        if self.fanning.get(table_id) is task:
            del self.fanning[table_id]

    async def _handle_all(
        self, table_id: int, before: asyncio.Task | None, message: Mapping[str, Any]
    ) -> None:
        if before is not None:
            await asyncio.wait([before])
        since = time.perf_counter()
        for consumer in list(self.consumers.get(table_id, ())):
            try:
                await consumer.dispatch(message)  # a failing handler cleans its socket up
            except Exception:
                with contextlib.suppress(Exception):
                    await consumer.close()
            if time.perf_counter() - since > FAN_OUT_SLICE:
                # Let the event loop write the frames made so far (a socket's send only
                # queues its frame) and the database thread take its turn, then go on.
                await asyncio.sleep(0)
                since = time.perf_counter()

    def saw(self, table_id: int, version: int) -> None:
        if version > self.seen.get(table_id, 0):
            self.seen[table_id] = version

    async def run(self) -> None:
        while self.consumers:
            await asyncio.sleep(settings.KILFORTH_FRESHNESS_SECONDS)
            ids = list(self.consumers)
            try:
                versions = await database_sync_to_async(_versions)(ids)
                for table_id, version in versions.items():
                    if version <= self.seen.get(table_id, 0):
                        continue
                    message = await database_sync_to_async(table_message)(table_id)
                    if message is None:
                        continue
                    self.saw(table_id, version)
                    for consumer in list(self.consumers.get(table_id, ())):
                        await consumer.show(message)
            except Exception:  # never let the safety net die; try again next round
                logger.exception("freshness check failed")


def _take_table_group(consumer: "TableConsumer", taker: Callable | None) -> None:
    """Hand the consumer's table's group messages here to `taker` (None: back to the sockets'
    own channels), where the channel layer can (games/tables/layers.py)."""
    take = getattr(consumer.channel_layer, "take_group", None)
    if take is not None:
        take(table_group(consumer.table_id), taker)


def _chat_open(table_id: int) -> bool:
    return bool(Table.objects.filter(pk=table_id).values_list("chat_open", flat=True).first())


def _versions(ids: list[int]) -> dict[int, int]:
    return dict(Table.objects.filter(pk__in=ids).values_list("pk", "version"))


_freshness: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Freshness]" = (
    weakref.WeakKeyDictionary()
)


def freshness() -> Freshness:
    loop = asyncio.get_running_loop()
    if loop not in _freshness:
        _freshness[loop] = Freshness()
    return _freshness[loop]


class LobbyConsumer(DirectDispatch, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.limit = RateLimit()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send(text_data=await database_sync_to_async(render_lobby_list)())

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The lobby socket only listens; anything sent to it is answered, never acted on.
        if await refuse_flood_or_oversize(self, text_data or bytes_data or ""):
            return
        await self.send(text_data=error_frame("The lobby accepts no messages.", "read_only"))

    async def lobby_html(self, event: dict) -> None:
        await self.send(text_data=event["html"])


class TableConsumer(DirectDispatch, AsyncWebsocketConsumer):
    # Ids, not model instances: a socket holds as little as it can (a thousand may watch).
    table_id: int
    player_id: int | None
    access: str | None

    async def connect(self) -> None:
        slug = self.scope["url_route"]["kwargs"]["slug"]
        # What this socket's page shows: the table state and the view it was rendered for.
        self.sent_key: tuple | None = None
        self.sent_view: tuple | None = None
        self.shows_board = False  # whether the page this socket fed holds a game board
        self.limit = RateLimit()
        # This event loop's safety net, looked up once (every table message reports to it).
        self.fresh = freshness()
        found = await database_sync_to_async(self._load)(slug)
        if found is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        table, player = found
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        self.session_key = getattr(self.scope["session"], "session_key", None)
        if self.session_key:
            await self.channel_layer.group_add(session_group(self.session_key), self.channel_name)
        await self.accept()
        self.fresh.add(self)
        await database_sync_to_async(services.do_connect)(
            table, self.channel_name, self.viewer, player
        )
        # The full current view at once: a reconnecting browser must not wait for the next change.
        await self.send_current()

    def _load(self, slug: str) -> tuple[Table, Player | None] | None:
        session = self.scope["session"]
        table = Table.objects.filter(slug=slug).first()
        if table is None:
            return None
        player = player_from_session(session)
        self.access = access_level(session, table, player)
        if self.access is None:
            return None
        self.table_id, self.player_id = table.pk, player.pk if player else None
        # One person with several tabs counts once; a visitor with no session counts per socket.
        if player:
            self.viewer = f"p{player.pk}"
        elif session.session_key:
            self.viewer = f"s{session.session_key}"
        else:
            self.viewer = f"c{self.channel_name}"
        return table, player

    async def disconnect(self, code: int) -> None:
        await self.clean_up()

    async def clean_up(self) -> None:
        """Forget this socket (presence row, group, freshness); safe to run more than once."""
        if hasattr(self, "table_id"):
            freshness().remove(self)
            await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
            if getattr(self, "session_key", None):
                group = session_group(self.session_key)
                await self.channel_layer.group_discard(group, self.channel_name)
            await database_sync_to_async(services.do_disconnect)(self.channel_name)

    async def dispatch(self, message: dict) -> None:
        """Every way a socket can end runs the clean-up: a handler that fails answers a message
        with an error frame (the socket stays usable) or, anywhere else, cleans up first."""
        try:
            await super().dispatch(message)
        except StopConsumer:
            raise
        except Exception:
            logger.exception("table socket: %s failed", message.get("type"))
            if message.get("type") == "websocket.receive":
                await self.send(
                    text_data=error_frame("That message could not be handled.", "server_error")
                )
                return
            await self.clean_up()
            raise

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        raw = text_data if text_data is not None else bytes_data
        if raw is None or await refuse_flood_or_oversize(self, raw):
            return
        try:
            message = socket_input.parse(raw)
        except socket_input.BadFrame as exc:
            await self.send(text_data=error_frame(exc.message, "malformed"))
            return
        if message.get("action") == "resync":
            # A client that suspects it missed something asks for the whole current view again.
            self.sent_key = None
            await self.send_current()
            return
        if str(message.get("action")).startswith("chat"):
            try:
                await database_sync_to_async(self._chat)(message)
            except services.ServiceError as exc:
                await self.send(text_data=error_frame(exc.message, exc.code))
            return
        # A decision's refusal shows on the board it was made on; anything else (or a decision
        # sent from a page with no board), in the page's flash.
        board = message.get("action") in ("act", "undo") and self.shows_board
        try:
            update = await database_sync_to_async(self._dispatch)(message)
        except services.Stale as exc:
            # A late or replayed answer: show where the game stands now, then say why.
            self.sent_key = None
            await self.send_current()
            await self.send(text_data=error_frame(exc.message, exc.code, board))
        except services.ServiceError as exc:
            await self.send(text_data=error_frame(exc.message, exc.code, board))
            return
        if update is not None:
            # The player who decided sees the result first: this socket renders its own view
            # now, before the table's other sockets take their turns on this event loop (the
            # same message reaching it through the group is then a no-op). Only this socket:
            # the others still wait for the group, or for Freshness if the group lost it.
            await self.show(update)

    def _dispatch(self, message: dict[str, Any]) -> dict | None:
        """Apply the socket's decision; the table message its commit broadcast, if any."""
        realtime.take_broadcast(self.table_id)  # nothing left over from this thread's past
        table = Table(pk=self.table_id)  # the row is read, locked, by the service
        # The socket carries only game decisions (and chat, resync): seats, host controls and
        # the pre-game prompt are the pages' forms, posted over HTTP with their CSRF token.
        action = message.get("action")
        # Identity is read again for every action, from the session store itself: a seat lost
        # or a session logged out since the socket opened must not keep its powers (the
        # services check the seat under the table's lock, and read the table there). A
        # decision reads the session (Django's database store) with the table's rows, in one
        # round trip.
        session_key = getattr(self.scope["session"], "session_key", None)
        if action == "act" and settings.SESSION_ENGINE == DATABASE_SESSIONS:
            try:
                _, self.player_id = services.do_session_act(
                    table, session_key, message.get("key"), _version(message)
                )
            except services.ServiceError:
                self._refused(fresh_session(self.scope["session"]))
                raise
            self.access = PLAYER_ACCESS  # only a seated player's decision is accepted
            return realtime.take_broadcast(self.table_id)
        session = fresh_session(self.scope["session"])
        # A decision reads its player's row with the seats, under the table's lock: only the id
        # is needed here. An undo names the player in the chat, so reads the row now.
        self.player_id = player_id_from_session(session)
        player = None if self.player_id is None else Player(pk=self.player_id)
        try:
            if action == "undo":
                player = player_from_session(session)
                services.do_undo(table, player, _version(message))
            elif action == "act":
                services.do_act(table, player, message.get("key"), _version(message))
            else:
                raise services.ServiceError(f"Unknown action {str(action)[:40]!r}.")
        except services.ServiceError:
            self._refused(session)
            raise
        # Accepted: only a seated player's decision is (the services checked the seat).
        self.access = PLAYER_ACCESS
        return realtime.take_broadcast(self.table_id)

    def _refused(self, session: Any) -> None:
        """After a refusal: who this socket is, and what it may see, read as they stand now."""
        self.player_id = player_id_from_session(session)
        player = None if self.player_id is None else Player(pk=self.player_id)
        found = one(Table.objects.filter(pk=self.table_id))
        self.access = access_level(session, found, player) if found else None

    def _chat(self, message: dict[str, Any]) -> None:
        """Chat actions: write a line, mute a person (host), open the spectators' chat (host)."""
        table = one(Table.objects.filter(pk=self.table_id))
        if table is None:
            raise services.NotFound("This table no longer exists.")
        player = player_from_session(fresh_session(self.scope["session"]))
        action = message.get("action")
        if action == "chat":
            chat.do_post(table, player, message.get("text"), message.get("to") == "team")
        elif action == "chat_mute":
            chat.do_mute(table, player, message.get("player"), message.get("muted") is True)
        elif action == "chat_open":
            chat.do_open_spectator_chat(table, player, str(message.get("open")) == "1")
        else:
            raise services.ServiceError(f"Unknown action {str(action)[:40]!r}.")

    async def chat_message(self, event: dict) -> None:
        """A chat line for this table: shown if this socket's viewer may read that chat."""
        seated = getattr(self, "seated", False)
        if event["channel"] == "team":
            if not chat.may_read("team", seated, False, event["team"], getattr(self, "team", None)):
                return
        elif event["channel"] != "table" and seated:
            if not await database_sync_to_async(_chat_open)(self.table_id):
                return
        if seated and event.get("reread"):
            # A player may read more now (the spectators' chat was shown): all of it, at once.
            team = getattr(self, "team", None)
            html = await database_sync_to_async(chat.lines_html)(self.table_id, True, team)
            await self.send(text_data=f'<ol id="chat-log" hx-swap-oob="innerHTML">{html}</ol>')
            return
        await self.send(text_data=f'<ol id="chat-log" hx-swap-oob="beforeend">{event["html"]}</ol>')

    async def session_changed(self, event: dict) -> None:
        """This browser logged out: from now on the socket is rendered for who it is now."""
        access = await database_sync_to_async(self._reidentify)()
        if access is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.sent_key = None
        await self.send_current()

    def _reidentify(self) -> str | None:
        # Logged out: whatever the session store holds this instant, nobody is signed in here.
        session: dict = {}
        table = one(Table.objects.filter(pk=self.table_id))
        if table is None:
            return None
        self.player_id = None
        self.access = access_level(session, table, None)
        self.seated = False
        self.team = None
        return self.access

    async def send_current(self) -> None:
        update = await database_sync_to_async(table_message)(self.table_id)
        if update is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.show(update)  # this socket only: the others' freshness is not vouched for

    async def table_update(self, event: dict) -> None:
        """A table message through the group: every socket of the table in this process has it,
        so the safety net (Freshness) may count this version as shown here."""
        self.fresh.saw(event["table"], event["version"])
        await self.show(event)

    async def show(self, event: dict) -> None:
        """Bring this one socket to the state a table message names (its own view of it)."""
        table_id, version = event["table"], event["version"]
        state_key = _state_key(event)
        if self.sent_key is not None and self.sent_key[2] > version:
            return  # an older state than what this socket already shows (messages can cross)
        if self.sent_key == state_key:
            return
        if self.sent_key is not None and self.sent_key[:4] == state_key[:4]:
            # Only the number of watchers changed: a few bytes, not the whole board again
            # (a crowd of spectators joining would otherwise resend it to everyone per join).
            self.sent_key = state_key
            await self.send(text_data=watching_fragment(event["spectators"]))
            return
        snapshot = caches.presenced(state_key)  # another socket here showed this message
        if snapshot is None:
            base = await _snapshot(table_id, event["slug"], version, event.get("snapshot"))
            if base is None:
                await self.close(code=CLOSE_NOT_FOUND)
                return
            # Of the sockets that waited for the same load, the first back keeps the copy.
            snapshot = caches.presenced(state_key) or _with_presence(base, event, state_key)
        player_id = self.player_id
        access = self.access
        self.shows_board = snapshot.game is not None
        self.seated = player_id is not None and player_id in snapshot.seated_ids
        if self.seated:
            access = PLAYER_ACCESS
            mine = next(s.number for s in snapshot.seats if s.player_id == player_id)
            self.team = chat.team_of(snapshot.table, mine)
        else:
            self.team = None
        # The watcher count is a part of its own, sent with every frame: it is not in the key.
        view, key = (table_id, viewer_key(snapshot, player_id, access), access), state_key[:4]
        rendering = caches.renderings.get(view, key)
        if rendering is None or rendering.texts is None:
            html = render_table_live(snapshot, player_id, access, joined=False)
            rendering = Rendering.of(html, snapshot.spectators)
            caches.renderings.put(view, key, rendering, version)
        frame = None
        if self.sent_key is not None and self.sent_view == view:
            # The same string for every socket here that showed the same rendering before.
            watching = watching_fragment(snapshot.spectators)
            frame = caches.renderings.frame(view, key, self.sent_key[:4], watching)
        if frame is None:
            frame = rendering.html
            if rendering.spectators != snapshot.spectators:
                frame = apply_frame(frame, watching_fragment(snapshot.spectators))
        self.sent_key, self.sent_view = state_key, view
        await self.send(text_data=frame)


def _with_presence(base: TableSnapshot, event: dict, state_key: tuple) -> TableSnapshot:
    """The snapshot as a table message shows it (its presence), kept for this process."""
    away = {pid: datetime.fromtimestamp(ms / 1000, UTC) for pid, ms in event.get("away", ())}
    snapshot = replace(
        base, online=list(event["online"]), away=away, spectators=event["spectators"]
    )
    caches.keep_presenced(state_key, snapshot)
    return snapshot


# The table message the sockets here were handed last, with its key: the sockets of one process
# are handed the same message object (games/tables/layers.py), so a crowd makes the key once.
_last_key: tuple[Any, tuple] = (None, ())


def _state_key(event: dict) -> tuple:
    """What a table message names: (table id, slug, version, presence, watchers)."""
    global _last_key
    if _last_key[0] is event:
        return _last_key[1]
    presence = (tuple(event["online"]), tuple(tuple(a) for a in event.get("away", ())))
    key = (event["table"], event["slug"], event["version"], presence, event["spectators"])
    _last_key = (event, key)
    return key


@lru_cache(maxsize=256)
def watching_fragment(spectators: int) -> str:
    """The watcher count, as the part `spectator-count` of the live fragment."""
    body = f'<span id="spectator-count">{int(spectators)} watching</span>'
    return mark("spectator-count", as_part(body))


DATABASE_SESSIONS = "django.contrib.sessions.backends.db"


def fresh_session(session: Any) -> Any:
    """The session as stored now (the socket's copy was read when it connected).

    With Django's database store (the site's), its row is read by `rows.session_data` and
    decoded by the store: the same data as `SessionStore.load`, without compiling its query for
    every decision (docs/benchmarks.md). Any other store loads it itself."""
    key = getattr(session, "session_key", None)
    if not key:
        return {}
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if settings.SESSION_ENGINE != DATABASE_SESSIONS:
        return store(session_key=key)
    data = rows.session_data(key)
    return {} if data is None else store().decode(data)


def _version(message: dict[str, Any]) -> int:
    try:
        return socket_input.integer(message, "version", "game version")
    except socket_input.BadFrame as exc:
        raise services.ServiceError(exc.message) from exc


async def _snapshot(
    table_id: int, slug: str, version: int, packed: bytes | None = None
) -> TableSnapshot | None:
    """The snapshot of a table version: kept here, else the one its message carries (a decision
    made in another process), else read. Presence comes with each message; the snapshot is only
    the table's state."""
    if packed is not None and not caches.kept(table_id, slug, version):
        carried = unpack_snapshot(packed)
        table = carried.table if carried is not None else None
        if table is not None and (table.pk, table.slug, table.version) == (table_id, slug, version):
            caches.keep(carried)
    return await caches.snapshot(table_id, slug, version, lambda: load_snapshot(table_id, False))

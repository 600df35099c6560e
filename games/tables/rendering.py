"""HTML fragments pushed over websockets: the lobby list and the live part of a table page.

Fragments are rendered without a request (no per-session CSRF token inside them: htmx sends the
token from the page's hx-headers), so one rendering can be shared by every viewer who sees the same.
"""

import logging
import math
import pickle
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache, cached_property
from typing import Any, NamedTuple

import orjson
from django.db.models import Count, OuterRef, Q
from django.template import engines
from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString

from . import caches, clocks, kits, summary, tutorials
from .frames import Marked, Unjoined, as_part, ascii_html, board_frame, wrapped
from .identity import PLAYER_ACCESS
from .jinja import bound_url
from .models import (
    Connection,
    Game,
    Seat,
    Table,
    TableStatus,
    last_decider,
    one,
    seat_label,
    undo_player,
)
from .rows import presence_rows
from .summary import Charts

log = logging.getLogger(__name__)

LOBBY_PAGE = 25  # rows per lobby page; the live lobby shows the first page


class Presence(NamedTuple):
    """Who is at a table now, from its open sockets (`Connection` rows)."""

    online: list[int]  # the seated players with a socket open, by id
    spectators: int  # the distinct people watching (the host and the seated are not)
    processes: frozenset[str]  # the server processes holding the table's sockets


def read_presence(table_id: int) -> Presence:
    """The table's presence: the seated players online, the spectators (the host and the
    seated players are at the table, not watching it; a person with three tabs open counts
    once) and the processes holding its sockets.
    """
    host_id = Table.objects.filter(pk=table_id).values_list("host_id", flat=True).first()
    seated = set(
        Seat.objects.filter(table_id=table_id, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )
    return presence_among(table_id, host_id, seated)


def presence_among(
    table_id: int,
    host_id: int | None,
    seated: set[int],
    viewers: list[tuple[str, int | None, str]] | None = None,
) -> Presence:
    """`read_presence` for a caller that has read the host and the seated players already (and
    `viewers`, the table's `presence_rows`, if it has read those too)."""
    if viewers is None:
        viewers = presence_rows(table_id)
    online = sorted({pid for _, pid, _ in viewers if pid in seated})
    watchers = {viewer for viewer, pid, _ in viewers if pid not in seated and pid != host_id}
    return Presence(online, len(watchers), frozenset(process for _, _, process in viewers))


def lobby_tables(query: str = "", page: int = 1) -> list[Table]:
    """One page of the public tables (gathering first, newest first), searched by table or
    host name (`lobby_page_count` tells how many pages there are)."""
    rows = Table.objects.filter(
        visibility="public",
        status__in=[TableStatus.OPEN, TableStatus.CHOOSING, TableStatus.STARTED],
    )
    if query:
        rows = rows.filter(Q(name__icontains=query) | Q(host__name__icontains=query))
    start = (max(1, page) - 1) * LOBBY_PAGE
    tables = list(
        rows.select_related("host")
        .annotate(
            # A bot's seat is taken as much as a person's.
            taken=Count(
                "seats", filter=Q(seats__player__isnull=False) | ~Q(seats__bot=""), distinct=True
            ),
        )
        .order_by("status", "-created")[start : start + LOBBY_PAGE]
    )
    # Every row's watchers in two queries (read_presence per row cost three queries each).
    ids = [t.pk for t in tables]
    hosts = {t.pk: t.host_id for t in tables}
    seated = set(
        Seat.objects.filter(table_id__in=ids, player__isnull=False).values_list(
            "table_id", "player_id"
        )
    )
    watchers: dict[int, set[str]] = {pk: set() for pk in ids}
    for table_id, viewer, pid in Connection.objects.filter(table_id__in=ids).values_list(
        "table_id", "viewer", "player_id"
    ):
        if (table_id, pid) not in seated and pid != hosts[table_id]:
            watchers[table_id].add(viewer)
    for table in tables:
        table.spectators = len(watchers[table.pk])
    return tables


def lobby_page_count(query: str = "") -> int:
    rows = Table.objects.filter(
        visibility="public",
        status__in=[TableStatus.OPEN, TableStatus.CHOOSING, TableStatus.STARTED],
    )
    if query:
        rows = rows.filter(Q(name__icontains=query) | Q(host__name__icontains=query))
    return max(1, -(-rows.count() // LOBBY_PAGE))


def render_lobby_list() -> str:
    """The lobby's list of tables as its socket sends it: swapped whole (frames.as_part)."""
    return as_part(
        ascii_html(render_to_string("tables/_lobby_list.html", {"tables": lobby_tables()}))
    )


@dataclass(frozen=True)
class SeatView:
    number: int
    player_id: int | None
    player_name: str | None
    setup: dict | None = None
    ready: bool = False
    bot: str = ""
    game: str = ""
    # The seat's clock (games/tables/clocks.py).
    bank_ms: int = 0
    deadline: datetime | None = None
    # The seat's team in a team game (the kit's `teams`): taking a seat is choosing a team.
    team: str = ""

    @property
    def taken(self) -> bool:
        return self.player_id is not None or bool(self.bot)

    @property
    def display_name(self) -> str:
        level = kits.bot_label(self.game, self.bot)
        if self.bot and self.player_name:
            return f"{self.player_name} (a {level} bot stands in)"
        if self.bot:
            return f"Bot ({level})"
        return self.player_name or "?"

    @property
    def label(self) -> str:
        return seat_label(self.number)


@dataclass
class TableSnapshot:
    """Everything the live fragment shows, read in one go for one version of a table."""

    table: Table
    seats: list[SeatView]
    online: list[int] = field(default_factory=list)
    # Seated players who are offline: since when (their last socket closed).
    away: dict[int, datetime] = field(default_factory=dict)
    spectators: int = 0
    # The engine state when a game exists (parsed once per version per process).
    game: object | None = None
    # A finished game's summary and charts (summary.py), drawn once per process.
    charts: Charts | None = None
    # The player who may take back the newest decision now (services.undoable_action), if any.
    undo_player: int | None = None
    # The player who made the newest decision still standing (None: a bot, or none yet).
    last_player: int | None = None
    # The head made for it (`head`), with the watcher count it shows.
    _head: tuple[int, SafeString] | None = field(default=None, init=False, repr=False)

    @cached_property
    def seated_ids(self) -> set[int]:
        return {s.player_id for s in self.seats if s.player_id is not None}

    @property
    def full(self) -> bool:
        return all(s.taken for s in self.seats)

    @property
    def head(self) -> SafeString:
        """The table's name and facts atop the live fragment (`tables/_table_head.html`), made
        once for every view of this snapshot (its name, options, host, status and watchers:
        the kit's and the model's labels cost more than the rest of the fragment's chrome)."""
        if self._head is None or self._head[0] != self.spectators:
            self._head = (self.spectators, _head(self.table, self.spectators))
        return self._head[1]


def _head(table: Table, spectators: int) -> SafeString:
    """`tables/_table_head.html` for the table as it stands, kept by every field it shows
    (`caches.head`): a table's head is the same from one decision to the next, so each
    version's snapshot takes the head made before."""
    key = (
        table.pk,
        table.name,
        table.game,
        # As text: orjson's bytes keep the 4 KiB or more it wrote into (a 1,024-head cache).
        orjson.dumps(table.options, option=orjson.OPT_SORT_KEYS).decode(),
        table.visibility,
        table.pace,
        table.host_id,
        table.host.name,
        table.status,
        spectators,
    )

    def make() -> SafeString:
        html = get_template("tables/_table_head.html", using="jinja2").render(
            {"table": table, "spectators": spectators}
        )
        return SafeString(html.strip())  # autoescaped

    return caches.head(key, make)


def load_snapshot(table_id: int, presence: bool = True) -> TableSnapshot | None:
    """`presence=False` when the caller has it already (a table.update message carries it)."""
    # The table with its game's id and version in one statement (one moment: a decision cannot
    # land between them), without the game's documents.
    # Who may take back the newest decision is read in that statement too.
    table = one(
        Table.objects.select_related("host", "rematch", "game_state")
        .defer("game_state__state", "game_state__opening", "game_state__initial")
        .annotate(
            undo_player=undo_player(OuterRef("game_state__pk")),
            last_player=last_decider(OuterRef("game_state__pk")),
        )
        .filter(pk=table_id)
    )
    if table is None:
        return None
    # In seat order, sorted here (an ORDER BY with the join costs more than the query).
    seats = sorted(
        Seat.objects.filter(table=table).select_related("player").order_by(),
        key=lambda s: s.number,
    )
    online, spectators, _ = read_presence(table_id) if presence else ([], 0, None)
    away = (
        {
            s.player_id: s.offline_since
            for s in seats
            if s.player_id is not None and s.offline_since is not None and s.player_id not in online
        }
        if presence
        else {}
    )
    game = None
    game_row = getattr(table, "game_state", None)  # None: no game yet
    if game_row is not None and table.status in (TableStatus.STARTED, TableStatus.FINISHED):
        game = _game_state(table, game_row.pk, game_row.version)
    playing = table.status == TableStatus.STARTED and game is not None
    snapshot = snapshot_of(
        table,
        seats,
        game,
        table.undo_player if playing else None,
        last_player=table.last_player if playing else None,
    )
    snapshot.online, snapshot.away, snapshot.spectators = online, away, spectators
    return snapshot


def snapshot_of(
    table: Table,
    seats: list[Seat],
    game: object | None,
    undo_player: int | None,
    last_player: int | None = None,
) -> TableSnapshot:
    """A snapshot from rows already read: `table` with its host (and rematch), `seats` in seat
    order with their players, the game's state at the table's version. The deciding process
    builds one from what its decision just wrote (services._apply); others read it
    (load_snapshot)."""
    teams = kits.kit_for(table).teams(table.options, table.seat_count) or []
    views = [
        SeatView(
            s.number,
            s.player_id,
            s.player.name if s.player else None,
            s.setup,
            s.ready,
            s.bot,
            table.game,
            bank_ms=s.bank_ms,
            deadline=s.deadline,
            team=teams[s.number] if s.number < len(teams) else "",
        )
        for s in seats
    ]
    charts = None
    if table.status == TableStatus.FINISHED and game is not None:
        row = Game.objects.filter(table=table).defer("state").first()
        players = {s.number: s.display_name for s in views}
        charts = summary.charts(row, kits.kit_for(table), game, players) if row else None
    return TableSnapshot(
        table=table,
        seats=views,
        game=game,
        charts=charts,
        undo_player=undo_player,
        last_player=last_player,
    )


def pack_snapshot(snapshot: TableSnapshot, document: str) -> bytes:
    """A decision's snapshot for its table message, when the site is scaled out: the other
    processes' sockets show the new version from it (`unpack_snapshot`) instead of reading it
    from the database.

    Pickled: the table row with its host and game rows, the seats and who may undo, and the
    game's state as its saved document (no presence: the message has its own). The channel
    layer is the site's own, trusted with pickles as Django's Redis cache always is; no
    browser's input ever becomes a table message."""
    bare = TableSnapshot(
        table=snapshot.table,
        seats=snapshot.seats,
        undo_player=snapshot.undo_player,
        last_player=snapshot.last_player,
    )
    return pickle.dumps((PACKED, bare, document), protocol=pickle.HIGHEST_PROTOCOL)


PACKED = 1  # the form of a packed snapshot: a process that reads another form reads the table


def unpack_snapshot(packed: object) -> TableSnapshot | None:
    """The snapshot a table message carries, with its game's state (parsed once per version in
    this process, as a read would); None if it cannot be read (another version of the code
    packed it: the sockets read the table)."""
    try:
        form, snapshot, document = pickle.loads(packed)  # type: ignore[arg-type]
        if form != PACKED or not isinstance(snapshot, TableSnapshot):
            return None
        table = snapshot.table
        game = table.game_state
        snapshot.game = caches.state_at(
            kits.kit_for(table), table.slug, game.version, lambda: document
        )
    except Exception:
        log.warning("a packed snapshot could not be read", exc_info=True)
        return None
    return snapshot


def _game_state(table: Table, game_id: int, version: int) -> object | None:
    """The game's state at `version` (parsed once per version per process)."""
    found = Game.objects.filter(pk=game_id, version=version).values_list("state", flat=True)
    kit = kits.kit_for(table)
    state = caches.state_at(kit, table.slug, version, found.first)
    if state is None:  # a decision landed since the table was read: take the newest, as one row
        text, version = Game.objects.filter(pk=game_id).values_list("state", "version").get()
        state = caches.state_at(kit, table.slug, version, lambda: text)
    return state


def viewer_key(snapshot: TableSnapshot, player_id: int | None, access: str | None) -> tuple:
    """Viewers with the same key see the same fragment."""
    if player_id is not None and (
        player_id in snapshot.seated_ids or player_id == snapshot.table.host_id
    ):
        return ("player", player_id)
    return ("visitor", access == PLAYER_ACCESS, player_id is not None)


def render_table_live(
    snapshot: TableSnapshot,
    player_id: int | None,
    access: str | None,
    request: object = None,
    joined: bool = True,
) -> str | Unjoined:
    """The live fragment for one viewer. `joined=False`: a composed board's fragment is left
    `Unjoined` (its parts and the texts around them, for `Rendering.of`), not copied into one
    string: a socket's rendering never needs that string."""
    table = snapshot.table
    kit = kits.kit_for(table)
    is_host = player_id is not None and player_id == table.host_id
    # A visitor without a name (player_id None) holds no seat: a bot's seat has no player either.
    my_seat = next(
        (s.number for s in snapshot.seats if player_id is not None and s.player_id == player_id),
        None,
    )
    context = {
        "table": table,
        "seats": snapshot.seats,
        "online": set(snapshot.online),
        "away": snapshot.away,
        "spectators": snapshot.spectators,
        "is_host": is_host,
        "my_seat": my_seat,
        "can_sit": access == PLAYER_ACCESS and table.is_open,
        "has_player": player_id is not None,
        "full": snapshot.full,
        "bot_levels": list(kit.bot_levels.items()),
        "prompt_template": kit.prompt_template,
        "seats_label": kit.seats_label,
        "url": bound_url(),  # the template's addresses, the prefix read once
        "head": snapshot.head,
    }
    if table.status == TableStatus.CHOOSING:
        context.update(kit.prompt_context(snapshot.seats, my_seat))
    if snapshot.game is not None:
        players = {s.number: s.display_name for s in snapshot.seats}
        waiting = set(kit.waiting_for(snapshot.game))
        context["absent"] = [
            s
            for s in snapshot.seats
            if s.player_id
            and not s.bot
            and s.player_id not in context["online"]
            and s.number in waiting
        ]
        context["standing_in"] = next(
            (s for s in snapshot.seats if s.number == my_seat and s.bot), None
        )
        context["can_undo"] = (
            player_id is not None
            and snapshot.undo_player == player_id
            and context["standing_in"] is None
        )
        # The newest decision is this person's own and may not be taken back: say why, where
        # the undo button would be (it would otherwise just not come).
        context["undo_refused"] = (
            player_id is not None
            and snapshot.last_player == player_id
            and not context["can_undo"]
            and context["standing_in"] is None
        )
        # Who is away now, and since when (the page says for how long: static/js/clock.js).
        context["away_seats"] = [
            {"name": s.player_name, "since": snapshot.away.get(s.player_id), "bot": s.bot}
            for s in snapshot.seats
            if s.player_id
            and s.number != my_seat
            and s.player_id not in context["online"]
            and table.status == TableStatus.STARTED
        ]
        context["game_version"] = kit.version(snapshot.game)
        # The page's tab title and opt-in notification follow this (static/js/turn.js).
        context["my_turn"] = (
            my_seat is not None and my_seat in waiting and context["standing_in"] is None
        )
        # A seat a bot plays is always there to play: never shown as an absent person.
        online_seats = {
            s.number for s in snapshot.seats if s.player_id in context["online"] or s.bot
        }
        board = kit.render(snapshot.game, my_seat, players, online_seats, table.slug, joined=joined)
        context["board"] = board_frame(board, kit.version(snapshot.game), table.game, joined)
        context["clocks"] = clocks.seat_clocks(table, snapshot.seats)
        if table.tutorial and my_seat is not None and table.status == TableStatus.STARTED:
            context["coach"] = tutorials.coaching_for(kit, table.tutorial, snapshot.game, my_seat)
        context["charts"] = snapshot.charts
    # The few Django templates inside (a kit's pre-game prompt, the guide, the end summary),
    # rendered only when shown, each with the same context.
    if table.status == TableStatus.CHOOSING:
        prompt = kit.prompt_template  # a template's name, or a template (as `{% include %}`)
        context["prompt_html"] = (
            render_to_string(prompt, context, request=request)
            if isinstance(prompt, str)
            else prompt.render(context, request=request)
        )
    if table.tutorial and my_seat is not None:  # the guide, or its empty place once left
        context["coach_html"] = render_to_string("tables/_coach.html", context, request=request)
    if context.get("charts"):
        context["summary_html"] = render_to_string("tables/_summary.html", context, request=request)
    # Shared renderings (request=None) carry no CSRF token: the page's hx-headers supply the
    # viewer's own, so one rendering can serve every socket with the same view. Jinja2: this
    # renders for every socket's view after every change (jinja_templates/tables/).
    board = context.get("board")
    if isinstance(board, Marked | Unjoined):
        # A composed board stays composed: the template prints a placeholder where it goes,
        # so the board is neither copied through the template nor searched again for its
        # parts (frames.Rendering.of reads them as data).
        context["board"] = BOARD_PLACE
        html = _live_template().render(context, request=request)  # autoescaped
        before, found, after = html.partition(BOARD_PLACE)
        if not found:
            return SafeString(html)
        live = wrapped(board, before, after)
        return live.joined() if joined else live
    return SafeString(_live_template().render(context, request=request))  # autoescaped


# Where the live template prints a composed board (a comment no template writes).
BOARD_PLACE = SafeString("<!--kilforth-online:board-->")


def _live_template() -> Any:
    """The live fragment's template: read once per process, unless templates are reloaded when
    they change (Jinja2's `auto_reload`, on in development)."""
    if engines["jinja2"].env.auto_reload:
        return get_template(LIVE_TEMPLATE, using="jinja2")
    return _kept_live_template()


LIVE_TEMPLATE = "tables/_table_live.html"


@cache
def _kept_live_template() -> Any:
    return get_template(LIVE_TEMPLATE, using="jinja2")


@dataclass(frozen=True)
class MyTable:
    """One row of a person's "My games" page."""

    table: Table
    seat: Seat
    # The table waits on this person now: a decision in play, or the pre-game prompt.
    waiting: bool
    deadline: datetime | None

    @property
    def deadline_ms(self) -> int | None:
        return clocks.epoch_ms(self.deadline)


MY_FINISHED_SHOWN = 20  # finished games on "My games" (newest first)
_MY_ORDER = {TableStatus.STARTED: 0, TableStatus.CHOOSING: 1, TableStatus.OPEN: 2}


def my_tables(player_id: int) -> list[MyTable]:
    """Every table the person sits at (closed ones aside): those waiting for them first, the
    nearest deadline first; then the other games in play, the tables gathering, and the newest
    finished games."""
    seats = Seat.objects.filter(player_id=player_id).exclude(table__status=TableStatus.CLOSED)
    rows = []
    finished = []
    for seat in seats.select_related("table", "table__host").order_by("-table__updated"):
        table = seat.table
        if table.status == TableStatus.FINISHED:
            if len(finished) < MY_FINISHED_SHOWN:
                finished.append(MyTable(table, seat, False, None))
            continue
        waiting = not seat.bot and (
            (table.status == TableStatus.STARTED and seat.waiting_since is not None)
            or (table.status == TableStatus.CHOOSING and not seat.ready)
        )
        rows.append(MyTable(table, seat, waiting, seat.deadline))

    def order(row: MyTable) -> tuple:
        since = row.seat.waiting_since
        return (
            not row.waiting,
            row.deadline.timestamp() if row.deadline else math.inf,
            since.timestamp() if since else math.inf,
            _MY_ORDER.get(row.table.status, 3),
        )

    return sorted(rows, key=order) + finished

"""The process that applies a decision shows it from the rows it just wrote (issue 14).

A decision builds the snapshot of the table's new version from what it read and wrote under the
table's lock; the broadcast after its commit hands it to this process's sockets, which then need
not read it back. What that snapshot shows every viewer must be exactly what a fresh read shows.
"""

import json
import random
import re
import threading
from dataclasses import replace
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from games.kilforth import adapter
from games.tables import (
    bots,
    caches,
    consumers,
    heartbeat,
    kits,
    realtime,
    rendering,
    rows,
    services,
)
from games.tables.identity import PLAYER_ACCESS, SPECTATOR_ACCESS
from games.tables.models import Connection, Game, Player, Seat, Table
from games.tables.rendering import (
    load_snapshot,
    pack_snapshot,
    render_table_live,
    unpack_snapshot,
)
from tests.tables.clock_kit import KIT as TURNS
from tests.tables.helpers import receive_until, session_for, socket
from tests.tables.test_clocks import FAST, Clock, started
from tests.tables.test_game_flow import current_state, started_table
from tests.tables.test_game_sockets import decide_and_see_everywhere, drain, open_sockets

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async
KILFORTH = kits.get("kilforth")


def table_versions(frame: str) -> list[int]:
    """The table versions a frame shows (a whole fragment's, a partial frame's)."""
    return [int(v) for v in TABLE_VERSIONS.findall(frame)]


TABLE_VERSIONS = re.compile(r'(?:id="table-live"[^>]*?data-version|data-table-version)="(\d+)"')


@pytest.fixture
def offers(monkeypatch):
    """Every snapshot a decision offered its broadcast (with its state document), as the
    broadcast took it (or None)."""
    taken: list = []
    take = caches.take_offer

    def recording(table_id):
        found = take(table_id)
        taken.append(found)
        return found

    monkeypatch.setattr(caches, "take_offer", recording)
    return taken


def message_alike(table) -> None:
    """The table message the decision broadcast, made from its rows (only the presence read),
    says what a message read from the table now says."""
    sent = realtime.take_broadcast(table.pk)
    assert sent is not None
    sent.pop("snapshot", None)  # scaled out only (a test process is alone)
    assert sent == realtime.table_message(table.pk)


def views_alike(offer, table, players) -> None:
    """Every seat's player, and a spectator, see the same page from the decision's snapshot, and
    from that snapshot as another process unpacks it from the table message, as from a fresh
    read of the table (the presence, which a broadcast carries, taken from it)."""
    fresh = load_snapshot(table.pk)
    assert offer is not None, "the decision offered no snapshot of its version"
    built = offer.snapshot
    caches.forget_all()  # as in another process: this version's state was never parsed here
    carried = unpack_snapshot(pack_snapshot(built, offer.document))
    assert carried is not None and carried.game is not built.game
    viewers = [(p.pk, PLAYER_ACCESS) for p in players] + [(None, SPECTATOR_ACCESS)]
    for snapshot in (built, carried):
        assert snapshot.table.version == fresh.table.version
        snapshot = replace(
            snapshot, online=fresh.online, away=fresh.away, spectators=fresh.spectators
        )
        for player_id, access in viewers:
            assert render_table_live(snapshot, player_id, access) == render_table_live(
                fresh, player_id, access
            ), f"the page of viewer {player_id} differs"


def test_the_snapshot_a_decision_builds_shows_every_viewer_what_a_fresh_read_shows(offers):
    table, players = started_table(names=("Ann", "Bob", "Cy"), pace="fast")
    rng = random.Random(7)
    handed = False
    for step in range(40):
        state = current_state(table)
        if state.result is not None:
            break
        if step >= 10 and 2 in state.waiting_for and not handed:
            # Cy went away while the game waits on them; a bot stands in (its decisions build
            # snapshots too, and every page says who is away).
            handed = True
            gone = timezone.now() - timedelta(minutes=10)
            Seat.objects.filter(table=table, number=2).update(offline_since=gone)
            services.do_hand_to_bot(table, players[0], 2, next(iter(KILFORTH.bot_levels)))
        seat = state.waiting_for[0]
        key = rng.choice(adapter.legal(state, seat)).key
        if table.seats.get(number=seat).bot:
            services.do_bot_act(table, seat, key, state.version)
        else:
            services.do_act(table, players[seat], key, state.version)
        message_alike(table)
        views_alike(offers[-1], table, players)
    assert handed and len([o for o in offers if o is not None]) >= 30


def test_a_timed_decision_and_an_expired_clock_build_snapshots_with_the_clocks_as_saved(
    monkeypatch, request, offers
):
    clock = Clock()
    monkeypatch.setattr(services.clocks, "now", clock)
    kits.register(TURNS)  # the test kit of the clocks' tests
    request.addfinalizer(lambda: kits.unregister(TURNS.key))
    table, players = started("fast")
    clock.advance(seconds=5)
    services.do_act(table, players[0], "move", Game.objects.get(table=table).version)
    message_alike(table)
    views_alike(offers[-1], table, players)
    before = Game.objects.get(table=table).version
    clock.advance(seconds=FAST.bank + 30)  # Bea's time runs out: the bot decides for her
    bots.expire_due()
    assert Game.objects.get(table=table).version == before + 1
    message_alike(table)
    views_alike(offers[-1], table, players)


def test_a_decision_that_ends_the_game_leaves_the_summary_to_a_fresh_read(offers):
    table, players = started_table()
    rng = random.Random(3)
    state = current_state(table)
    while state.result is None:
        seat = state.waiting_for[0]
        services.do_act(
            table, players[seat], rng.choice(adapter.legal(state, seat)).key, state.version
        )
        state = current_state(table)
    assert offers[-1] is None  # the finished game's charts are drawn from the saved history
    assert "game-summary" in render_table_live(
        load_snapshot(table.pk), players[0].pk, PLAYER_ACCESS
    )


@pytest.fixture
def snapshot_reads(monkeypatch):
    """How many times this process's sockets read a snapshot from the database."""
    count = {"n": 0}
    load = consumers.load_snapshot

    def counting(*args, **kwargs):
        count["n"] += 1
        return load(*args, **kwargs)

    monkeypatch.setattr(consumers, "load_snapshot", counting)
    return count


async def reads_while_deciding(snapshot_reads, decisions: int = 1) -> int:
    """How many times a table's sockets read a snapshot while its seats make `decisions`."""
    table, players = await db(started_table)()
    sockets = await open_sockets(table, players)
    snapshot_reads["n"] = 0
    for _ in range(decisions):
        await decide_and_see_everywhere(table, sockets)
    for communicator in sockets.values():
        await communicator.disconnect()
    return snapshot_reads["n"]


@pytest.fixture
def another_process(monkeypatch, settings):
    """The sockets here are as another process's: the deciding process hands its snapshot to
    none of them, and its message carries it (as it does when scaled out, to another process
    holding a socket at the table)."""
    settings.KILFORTH_SHARE_SNAPSHOTS = True
    monkeypatch.setattr(realtime, "_event_loop", lambda: None)
    monkeypatch.setattr(realtime, "_elsewhere", lambda processes: True)


async def test_a_decision_reaches_every_socket_of_its_process_without_reading_the_table_back(
    snapshot_reads,
):
    assert await reads_while_deciding(snapshot_reads) == 0


async def test_another_processs_sockets_show_a_decision_from_its_message_reading_nothing(
    another_process, snapshot_reads
):
    assert await reads_while_deciding(snapshot_reads, decisions=3) == 0


async def test_a_message_whose_snapshot_cannot_be_read_has_the_sockets_read_the_table(
    another_process, monkeypatch, snapshot_reads
):
    # Say another version of the code packed it (a deploy in progress): the table is read.
    monkeypatch.setattr(rendering, "pack_snapshot", lambda snapshot, document: b"not a pickle")
    assert await reads_while_deciding(snapshot_reads) >= 1


async def test_a_change_landing_between_a_decision_and_its_broadcast_is_shown_after_it(
    monkeypatch, snapshot_reads
):
    """The decision's message names its own version (it is made from the decision's rows). A
    change committed before it goes out (a player renamed here) sends its own, newer message,
    first: the sockets show the newer version and are not taken back by the decision's."""
    table, players = await db(started_table)()
    sockets = await open_sockets(table, players)
    state = await db(current_state)(table)
    seat = state.waiting_for[0]
    broadcast = realtime.broadcast_table
    versions = []

    def renamed_first(table_id, lobby=True):
        # The decision's own broadcast (lobby=False), not the presence announcement that the
        # sockets' joining scheduled: that one may run first, or while the decision commits.
        if not versions and not lobby:
            Player.objects.filter(pk=players[1].pk).update(name="Bobby")
            Table.objects.filter(pk=table_id).update(version=F("version") + 1)
            newer = realtime.table_message(table_id)
            versions.append(newer["version"])
            realtime._send(realtime.table_group(table_id), newer)
        broadcast(table_id, lobby=lobby)

    monkeypatch.setattr(realtime, "broadcast_table", renamed_first)
    snapshot_reads["n"] = 0
    key = adapter.legal(state, seat)[0].key
    await sockets[seat].send_to(
        text_data=json.dumps({"action": "act", "key": key, "version": state.version})
    )
    for communicator in sockets.values():
        renamed = await receive_until(communicator, "Bobby")
        assert versions[0] in table_versions(renamed)
        later = [v for frame in await drain(communicator) for v in table_versions(frame)]
        assert all(v >= versions[0] for v in later)  # never taken back to the decision's
    assert snapshot_reads["n"] >= 1  # the rename's message carried no snapshot
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_a_refused_decision_leaves_the_socket_seeing_what_it_may(snapshot_reads):
    """A decision refused (here: from a spectator's socket) changes nothing and offers nothing;
    the socket is still answered with an error and keeps its spectator's view."""
    table, players = await db(started_table)()
    watcher = socket(f"/ws/t/{table.slug}/", await db(session_for)())
    assert (await watcher.connect())[0]
    await receive_until(watcher, 'id="game-board"')
    state = await db(current_state)(table)
    seat = state.waiting_for[0]
    key = adapter.legal(state, seat)[0].key
    await watcher.send_to(
        text_data=json.dumps({"action": "act", "key": key, "version": state.version})
    )
    assert await receive_until(watcher, "Only the players seated at this table")
    assert (await db(current_state)(table)).version == state.version
    await watcher.disconnect()


def test_a_decision_goes_to_other_processes_with_its_snapshot_only_when_they_hold_a_socket(
    monkeypatch, settings
):
    """Scaled out, a decision's table message is given to this process's sockets at once; it
    goes through Redis, carrying the packed snapshot, only when another process holds a socket
    at the table (its `Connection` row says which process)."""
    settings.KILFORTH_SHARE_SNAPSHOTS = True
    table, players = started_table()
    for n, player in enumerate(players):
        Connection.objects.create(
            table=table,
            channel_name=f"here-{n}",
            viewer=f"p{player.pk}",
            player=player,
            process=heartbeat.PROCESS_NAME,
        )
    sent = []
    monkeypatch.setattr(
        realtime,
        "_send",
        lambda group, message, attempts=4, elsewhere=None: sent.append((group, message, elsewhere)),
    )

    def decide() -> tuple[dict, bool | None]:
        sent.clear()
        state = current_state(table)
        seat = state.waiting_for[0]
        services.do_act(table, players[seat], adapter.legal(state, seat)[0].key, state.version)
        [(message, elsewhere)] = [(m, e) for g, m, e in sent if g == realtime.table_group(table.pk)]
        return message, elsewhere

    message, elsewhere = decide()
    assert elsewhere is False and "snapshot" not in message
    Connection.objects.create(
        table=table, channel_name="there", viewer="s-watcher", process="other-host:41:0a1b2c3d"
    )
    message, elsewhere = decide()
    assert elsewhere is True and message["spectators"] == 1
    assert unpack_snapshot(message["snapshot"]).table.version == message["version"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL's")
def test_a_socket_joining_while_a_decision_holds_the_table_writes_its_row_after_the_commit():
    """A decision's broadcast tells who watches as its writes read it, before its commit: a
    socket joining meanwhile (in any process) cannot be missed, because its row waits for
    the decision's commit (the row's foreign key locks the table's row for key share, which
    the decision holds for update), and then it reads the table, decision included."""
    table, players = started_table()
    joined = threading.Event()

    def join() -> None:
        try:
            services.do_connect(Table(pk=table.pk), "joining", "s-watcher", None)
        finally:
            connection.close()
            joined.set()

    with transaction.atomic():
        rows.decision_rows(table.pk)  # the table's row locked, as every decision locks it
        thread = threading.Thread(target=join)
        thread.start()
        assert not joined.wait(0.5)  # the joining socket's row waits for the commit
        assert "s-watcher" not in {viewer for viewer, _, _ in rows.presence_rows(table.pk)}
    assert joined.wait(10)
    thread.join()
    assert Connection.objects.filter(channel_name="joining", table=table).exists()

"""The realtime side of the lobby, through real consumers (channels' WebsocketCommunicator)."""

import json

import pytest
from channels.db import database_sync_to_async

from games.tables import clocks, services
from games.tables.identity import PLAYER_ACCESS
from games.tables.models import Player, Seat, Table, TableStatus
from tests.tables.helpers import open_table, receive_until, session_for, socket

pytestmark = pytest.mark.django_db(transaction=True)

db = database_sync_to_async


def _host_and_table(**overrides):
    host = Player.objects.create(name="Hal")
    return host, open_table(host, **overrides)


async def connected(path, session_key=None, origin=b"http://localhost"):
    communicator = socket(path, session_key, origin)
    connected_ok, _ = await communicator.connect()
    assert connected_ok
    return communicator


async def test_a_seat_taken_on_one_socket_appears_on_the_others_and_in_the_lobby():
    host, table = await db(_host_and_table)()
    ann = await db(Player.objects.create)(name="Ann")
    ann_socket = await connected(f"/ws/t/{table.slug}/", await db(session_for)(ann))
    host_socket = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    lobby = await connected("/ws/lobby/")
    await receive_until(ann_socket, 'id="table-live"')
    await receive_until(host_socket, 'id="table-live"')
    await receive_until(lobby, 'id="lobby-tables"')

    # Seats are taken through the page's form (HTTP); every socket learns of it.
    await db(services.do_take_seat)(table, ann, 1, PLAYER_ACCESS)

    frame = await receive_until(host_socket, "Remove")
    assert 'id="seat-1"' in frame and "Remove" in frame  # the host sees a kick button for Ann
    own = await receive_until(ann_socket, "Leave seat")
    assert "(you)" in own
    lobby_frame = await receive_until(lobby, "1/3")
    assert "Evening quest" in lobby_frame
    for communicator in (ann_socket, host_socket, lobby):
        await communicator.disconnect()


@pytest.mark.parametrize(
    "action",
    [
        {"action": "take_seat", "seat": 0},
        {"action": "leave_seat"},
        {"action": "remove_player", "seat": 0},
        {"action": "close_table"},
        {"action": "start_game"},
        {"action": "pick_hero", "race": ""},
    ],
)
async def test_the_socket_takes_only_game_decisions_and_chat_not_the_pages_forms(action):
    # Seats, host controls and the pre-game prompt are the pages' forms (HTTP, with CSRF);
    # the socket refuses them as unknown actions, even from the host, and nothing changes.
    host, table = await db(_host_and_table)()
    ann = await db(Player.objects.create)(name="Ann")
    await db(Seat.objects.filter(table=table, number=0).update)(player=ann)
    sock = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    await receive_until(sock, 'id="table-live"')
    await sock.send_to(text_data=json.dumps(action))
    frame = await receive_until(sock, 'id="flash"')
    assert "Unknown action" in frame
    seat = await db(Seat.objects.get)(table=table, number=0)
    assert seat.player_id == ann.pk
    assert (await db(Table.objects.get)(pk=table.pk)).status == TableStatus.OPEN
    await sock.disconnect()


async def test_an_unlisted_table_refuses_sockets_without_a_link():
    host, table = await db(_host_and_table)(visibility="unlisted")
    communicator = socket(f"/ws/t/{table.slug}/", await db(session_for)())
    connected_ok, _ = await communicator.connect()
    assert not connected_ok


@pytest.mark.parametrize(
    "origin",
    [
        b"http://evil.example",
        b"http://localhost.evil.example",
        None,
        b"null",
        # The same host on another port or scheme is another site (the probe got in with these).
        b"http://localhost:9999",
        b"https://localhost",
        b"ws://localhost",
    ],
)
async def test_cross_site_and_originless_handshakes_are_refused(origin):
    host, table = await db(_host_and_table)()
    for path in ("/ws/lobby/", f"/ws/t/{table.slug}/"):
        communicator = socket(path, await db(session_for)(host), origin=origin)
        connected_ok, _ = await communicator.connect()
        assert not connected_ok


async def test_oversized_messages_close_the_socket_and_change_nothing():
    host, table = await db(_host_and_table)()
    sock = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    await receive_until(sock, 'id="table-live"')
    huge = json.dumps({"action": "close_table", "padding": "x" * 70_000})
    await sock.send_to(text_data=huge)
    closed = await sock.receive_output(timeout=3)
    assert closed["type"] == "websocket.close" and closed["code"] == 4413
    assert (await db(Table.objects.get)(pk=table.pk)).status == TableStatus.OPEN


async def test_a_two_megabyte_frame_is_closed_unread():
    host, table = await db(_host_and_table)()
    sock = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    await receive_until(sock, 'id="table-live"')
    await sock.send_to(bytes_data=b"{" + b"x" * (2 * 1024 * 1024))
    closed = await sock.receive_output(timeout=3)
    assert closed["type"] == "websocket.close" and closed["code"] == 4413


async def test_a_flooding_socket_is_closed_and_the_others_play_on():
    host, table = await db(_host_and_table)()
    ann = await db(Player.objects.create)(name="Ann")
    flooder = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    ann_socket = await connected(f"/ws/t/{table.slug}/", await db(session_for)(ann))
    await receive_until(flooder, 'id="table-live"')
    await receive_until(ann_socket, 'id="table-live"')
    for _ in range(1000):
        await flooder.send_to(text_data=json.dumps({"action": "resync"}))
    frames = []
    while True:
        output = await flooder.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
        frames.append(output.get("text", ""))
    assert output["code"] == 4429
    assert any('data-error="flood"' in f for f in frames)
    # Another player at the same table is not held up.
    await ann_socket.send_to(text_data=json.dumps({"action": "resync"}))
    assert 'id="table-live"' in await receive_until(ann_socket, 'id="table-live"')
    await ann_socket.disconnect()


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2, 3]", "JSON object"),
        (json.dumps({"action": "teleport"}), "Unknown action"),
        (json.dumps({"action": "act", "key": "k", "version": "the big one"}), "not a whole number"),
        # Found by a black-box probe: each of these crashed the consumer (1011) and left a ghost.
        ('{"action": "act", "key": "k", "version": Infinity}', "not a number a message can carry"),
        ('{"action": "act", "key": "k", "version": NaN}', "not a number a message can carry"),
        ('{"action": "act", "key": "x", "version": 1e400}', "too large"),
        ('{"action": "act", "key": "k", "version": 1' + "0" * 400 + "}", "too large"),
        ("[" * 10_000, "nested too deeply"),
        ('{"a": ' * 1500 + "1" + "}" * 1500, "nested too deeply"),
        (json.dumps({"action": "act", "key": "k", "version": 1.5}), "not a whole number"),
        (json.dumps({"action": "act", "key": "k", "version": True}), "named no game version"),
    ],
)
async def test_malformed_messages_get_an_error_frame_and_the_socket_stays_usable(payload, error):
    host, table = await db(_host_and_table)()
    sock = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    await receive_until(sock, 'id="table-live"')
    await sock.send_to(text_data=payload)
    frame = await receive_until(sock, 'id="flash"')
    assert error in frame
    # Still usable: it answers the next message.
    await sock.send_to(text_data=json.dumps({"action": "resync"}))
    assert 'id="table-live"' in await receive_until(sock, 'id="table-live"')
    await sock.disconnect()


async def test_spectators_are_counted_live_and_once_per_person_without_the_host():
    host, table = await db(_host_and_table)()
    await db(Seat.objects.filter(table=table, number=0).update)(
        player=host
    )  # a player, not a watcher
    host_socket = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    await receive_until(host_socket, "0 watching")
    wes_session = await db(session_for)(await db(Player.objects.create)(name="Wes"))
    tab_one = await connected(f"/ws/t/{table.slug}/", wes_session)
    assert "1 watching" in await receive_until(host_socket, "1 watching")
    tab_two = await connected(f"/ws/t/{table.slug}/", wes_session)
    await receive_until(tab_two, 'id="table-live"')
    anonymous = await connected(f"/ws/t/{table.slug}/", await db(session_for)())
    await receive_until(host_socket, "2 watching")
    await anonymous.disconnect()
    await receive_until(host_socket, "1 watching")
    for communicator in (tab_one, tab_two, host_socket):
        await communicator.disconnect()


async def test_seated_players_show_online_and_away_since_they_left():
    host, table = await db(_host_and_table)()
    ann = await db(Player.objects.create)(name="Ann")
    await db(Seat.objects.filter(table=table, number=0).update)(player=ann)
    watcher = await connected(f"/ws/t/{table.slug}/", await db(session_for)())
    first = await receive_until(watcher, 'id="table-live"')
    assert "&#9675; away" in first and "<time" not in first  # never came: no time
    ann_socket = await connected(f"/ws/t/{table.slug}/", await db(session_for)(ann))
    await receive_until(watcher, "&#9679; online")
    await ann_socket.disconnect()
    left = await receive_until(watcher, "&#9675; away <time")
    since = await db(lambda: Seat.objects.get(table=table, number=0).offline_since)()
    # The moment, for the page to count from (static/js/clock.js: "for 3 min"), and in words.
    assert f'data-since="{clocks.epoch_ms(since)}"' in left
    assert f"since {since.strftime('%H:%M')} UTC" in left
    await watcher.disconnect()


async def test_a_reconnecting_browser_gets_the_current_view_at_once():
    host, table = await db(_host_and_table)()
    ann = await db(Player.objects.create)(name="Ann")
    session = await db(session_for)(ann, table, PLAYER_ACCESS)
    first = await connected(f"/ws/t/{table.slug}/", session)
    await receive_until(first, 'id="table-live"')
    await first.disconnect()
    # While Ann is away, Bob sits down.
    bob = await db(Player.objects.create)(name="Bob")
    await db(Seat.objects.filter(table=table, number=2).update)(player=bob)
    await db(Table.objects.filter(pk=table.pk).update)(version=table.version + 5)
    again = await connected(f"/ws/t/{table.slug}/", session)
    assert "Bob" in await receive_until(again, 'id="table-live"')
    await again.disconnect()


async def test_a_resync_request_sends_the_whole_view_again():
    host, table = await db(_host_and_table)()
    sock = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    await receive_until(sock, 'id="table-live"')
    await sock.send_to(text_data=json.dumps({"action": "resync"}))
    assert "Hero seats" in await receive_until(sock, 'id="table-live"')
    await sock.disconnect()


async def test_the_lobby_socket_is_read_only():
    lobby = await connected("/ws/lobby/")
    await receive_until(lobby, 'id="lobby-tables"')
    await lobby.send_to(text_data=json.dumps({"action": "close_table"}))
    assert "accepts no messages" in await receive_until(lobby, 'id="flash"')
    await lobby.disconnect()


async def test_closing_a_table_reaches_everyone_watching_it():
    host, table = await db(_host_and_table)()
    host_socket = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    watcher = await connected(f"/ws/t/{table.slug}/", await db(session_for)())
    lobby = await connected("/ws/lobby/")
    await receive_until(lobby, "Evening quest")
    await receive_until(watcher, 'id="table-live"')
    await db(services.do_close_table)(table, host)
    assert "closed this table" in await receive_until(watcher, "closed this table")
    frame = await receive_until(lobby, "No open tables")
    assert "Evening quest" not in frame
    for communicator in (host_socket, watcher, lobby):
        await communicator.disconnect()


async def test_a_lost_broadcast_is_healed_by_the_freshness_check(settings):
    settings.KILFORTH_FRESHNESS_SECONDS = 0.1
    host, table = await db(_host_and_table)()
    watcher = await connected(f"/ws/t/{table.slug}/", await db(session_for)())
    await receive_until(watcher, 'id="table-live"')
    # A change that reaches the database but whose broadcast the channel layer loses.
    bob = await db(Player.objects.create)(name="Bob")
    await db(Seat.objects.filter(table=table, number=2).update)(player=bob)
    await db(Table.objects.filter(pk=table.pk).update)(version=table.version + 1)
    assert "Bob" in await receive_until(watcher, "Bob", wait=3)
    await watcher.disconnect()


async def test_a_trusted_origin_from_the_settings_may_open_a_socket(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org"]
    host, table = await db(_host_and_table)()
    sock = await connected(f"/ws/t/{table.slug}/", origin=b"https://play.example.org")
    await receive_until(sock, 'id="table-live"')
    await sock.disconnect()
    refused = socket(f"/ws/t/{table.slug}/", origin=b"http://play.example.org")
    assert not (await refused.connect())[0]


async def test_a_process_forgets_a_table_once_its_last_socket_here_has_closed():
    from games.tables.caches import cached_tables

    host, table = await db(_host_and_table)()
    first = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    await receive_until(first, 'id="table-live"')
    second = await connected(f"/ws/t/{table.slug}/", await db(session_for)())
    await receive_until(second, 'id="table-live"')
    assert table.pk in cached_tables()
    await first.disconnect()
    assert table.pk in cached_tables()  # a socket still shows it
    await second.disconnect()
    assert table.pk not in cached_tables()


async def test_a_finished_tables_watchers_are_shown_the_way_to_its_rematch():
    # The live fragment is rendered in the event loop: every row it shows must come with the
    # snapshot (a lazy load of the rematch closed the watchers' sockets with 1011 in the soak).
    from tests.tables.test_game_flow import started_table

    table, players = await db(started_table)()
    rematch = await db(open_table)(players[0])
    await db(Table.objects.filter(pk=table.pk).update)(status=TableStatus.FINISHED, rematch=rematch)
    sock = await connected(f"/ws/t/{table.slug}/", await db(session_for)())
    assert "Go to the rematch" in await receive_until(sock, 'id="table-live"')
    await db(Table.objects.filter(pk=table.pk).update)(version=table.version + 7)
    await sock.send_to(text_data=json.dumps({"action": "resync"}))
    assert rematch.get_absolute_url() in await receive_until(sock, 'id="table-live"')
    await sock.disconnect()


async def test_a_socket_reads_its_session_from_its_cookie_and_sends_frames_without_it(
    monkeypatch,
):
    from django.contrib.sessions.backends.db import SessionStore

    host, table = await db(_host_and_table)()
    host_socket = await connected(f"/ws/t/{table.slug}/", await db(session_for)(host))
    first = await receive_until(host_socket, 'id="table-live"')
    assert "Start game" in first  # the host's own view: the session named the host

    def looked_at(self):
        raise AssertionError("a frame looked at the session")

    # channels' session middleware asked every frame whether the session was empty.
    monkeypatch.setattr(SessionStore, "is_empty", looked_at)
    await host_socket.send_to(text_data=json.dumps({"action": "resync"}))
    assert 'id="table-live"' in await receive_until(host_socket, 'id="table-live"')
    await host_socket.disconnect()

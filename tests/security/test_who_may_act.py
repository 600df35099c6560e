"""Nobody acts for a seat that is not theirs: not another player, a removed player, a spectator
or a session that has logged out. Every attempt is refused and changes nothing."""

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client

from games.kilforth import adapter
from games.kilforth.kit import pick_hero
from games.tables import services
from games.tables.models import Game, Player, Seat
from tests.tables.helpers import open_table, receive_until, session_for, socket
from tests.tables.test_game_flow import current_state, started_table

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async


async def attempt(session_key: str, table, key: str, version: int, **extra) -> str:
    sock = socket(f"/ws/t/{table.slug}/", session_key)
    assert (await sock.connect())[0]
    await receive_until(sock, 'id="table-live"')
    await sock.send_to(
        text_data=json.dumps({"action": "act", "key": key, "version": version, **extra})
    )
    frame = await receive_until(sock, 'data-error="')
    await sock.disconnect()
    return frame


async def versions(table) -> int:
    return await db(lambda: Game.objects.get(table=table).version)()


async def test_a_player_cannot_decide_for_the_other_seat_even_naming_it():
    table, players = await db(started_table)()
    state = await db(current_state)(table)
    deciding = state.waiting_for[0]
    other = players[1 - deciding]
    key = adapter.legal(state, deciding)[0].key
    frame = await attempt(await db(session_for)(other), table, key, state.version, seat=deciding)
    assert "It is not your decision" in frame or "not one of your options" in frame
    assert await versions(table) == state.version


async def test_a_spectator_and_an_anonymous_visitor_cannot_decide():
    table, players = await db(started_table)()
    state = await db(current_state)(table)
    key = adapter.legal(state, state.waiting_for[0])[0].key
    watcher = await db(Player.objects.create)(name="Wes")
    for session in (await db(session_for)(watcher), await db(session_for)()):
        frame = await attempt(session, table, key, state.version)
        assert 'data-error="forbidden"' in frame
    assert await versions(table) == state.version


async def test_a_player_removed_before_the_start_cannot_act_in_the_game():
    def setup():
        host = Player.objects.create(name="Hal")
        table = open_table(host, seat_count=2)
        gone = Player.objects.create(name="Gus")
        services.do_take_seat(table, gone, 1, "player")
        services.do_remove_player(table, host, 1)
        stay = Player.objects.create(name="Sue")
        services.do_take_seat(table, host, 0, "player")
        services.do_take_seat(table, stay, 1, "player")
        services.do_start_game(table, host)
        pick_hero(table, host, "", "", False)
        pick_hero(table, stay, "", "", False)
        return table, gone

    table, gone = await db(setup)()
    state = await db(current_state)(table)
    key = adapter.legal(state, state.waiting_for[0])[0].key
    frame = await attempt(await db(session_for)(gone), table, key, state.version)
    assert 'data-error="forbidden"' in frame
    assert await versions(table) == state.version


def log_in_as(player: Player, username: str) -> Client:
    """A browser logged in to an account that owns `player`."""
    user = User.objects.create_user(username, password="a-long-enough-secret-9")
    Player.objects.filter(pk=player.pk).update(user=user)
    browser = Client()
    browser.post("/accounts/login/", {"username": username, "password": "a-long-enough-secret-9"})
    return browser


async def test_a_socket_opened_before_logging_out_loses_its_seat_powers():
    table, players = await db(started_table)()
    state = await db(current_state)(table)
    deciding = state.waiting_for[0]

    browser = await db(log_in_as)(players[deciding], "ann")
    session_key = browser.cookies["sessionid"].value
    sock = socket(f"/ws/t/{table.slug}/", session_key)
    assert (await sock.connect())[0]
    await receive_until(sock, 'id="game-board"')
    await db(browser.post)("/accounts/logout/")
    key = adapter.legal(state, deciding)[0].key
    await sock.send_to(
        text_data=json.dumps({"action": "act", "key": key, "version": state.version})
    )
    frame = await receive_until(sock, 'data-error="')
    assert 'data-error="forbidden"' in frame
    assert await versions(table) == state.version
    assert await db(Seat.objects.filter(table=table, player=players[deciding]).exists)()
    await sock.disconnect()


async def test_a_socket_open_at_logout_is_shown_the_spectators_view_at_once():
    table, players = await db(started_table)()
    state = await db(current_state)(table)
    deciding = state.waiting_for[0]

    browser = await db(log_in_as)(players[deciding], "bo")
    sock = socket(f"/ws/t/{table.slug}/", browser.cookies["sessionid"].value)
    assert (await sock.connect())[0]
    mine = await receive_until(sock, 'id="game-board"')
    assert 'class="kb-decision is-mine"' in mine  # the seat's own prompt, before

    await db(browser.post)("/accounts/logout/")

    # No update of the game is needed: the socket is re-rendered for nobody signed in.
    after = await receive_until(sock, 'id="game-board"')
    assert 'class="kb-decision is-mine"' not in after
    assert 'data-viewer="spectator"' in after and "<small>(you)</small>" not in after
    await sock.disconnect()

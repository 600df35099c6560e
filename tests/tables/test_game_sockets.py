"""Live play over real consumers: every decision reaches every viewer with what it may see."""

import json
import random
import re

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from games.kilforth import adapter
from games.tables.models import Game, Table, TableStatus
from tests.tables.helpers import page, receive_until, session_for, socket
from tests.tables.test_game_flow import started_table

pytestmark = pytest.mark.django_db(transaction=True)
db = database_sync_to_async


def _state(table_id):
    return adapter.load(Game.objects.get(table_id=table_id).state)


BOARD_VERSION = re.compile(r'id="(?:game-board|kb-version)"[^>]*data-version="(\d+)"')


async def board_at_least(communicator, version: int) -> str:
    """The page as this socket's browser shows it once a frame brings `version` or later."""
    while True:
        frame = await receive_until(communicator, 'data-version="')
        found = BOARD_VERSION.search(frame)
        if found and int(found.group(1)) >= version:
            return page(communicator)


async def open_sockets(table, players):
    sockets = {}
    for seat, player in enumerate(players):
        sockets[seat] = socket(f"/ws/t/{table.slug}/", await db(session_for)(player))
    sockets[None] = socket(f"/ws/t/{table.slug}/", await db(session_for)())
    for communicator in sockets.values():
        assert (await communicator.connect())[0]
        await receive_until(communicator, 'id="game-board"')
    return sockets


async def decide_and_see_everywhere(table, sockets) -> int:
    """The asked seat's first legal decision, sent from its own socket; returns the new version
    once every socket's page shows it."""
    state = await db(_state)(table.pk)
    seat = state.waiting_for[0]
    key = adapter.legal(state, seat)[0].key
    await sockets[seat].send_to(
        text_data=json.dumps({"action": "act", "key": key, "version": state.version})
    )
    for communicator in sockets.values():
        assert BOARD_VERSION.search(await board_at_least(communicator, state.version + 1))
    return state.version + 1


async def drain(communicator) -> list[str]:
    frames = []
    while not await communicator.receive_nothing(timeout=0.05):
        frames.append(await communicator.receive_from())
    return frames


async def test_a_decision_reaches_the_other_seat_and_spectators_with_their_own_view():
    table, players = await db(started_table)()
    sockets = await open_sockets(table, players)
    state = await db(_state)(table.pk)
    seat = state.waiting_for[0]
    choice = adapter.legal(state, seat)[0]
    await sockets[seat].send_to(
        text_data=json.dumps({"action": "act", "key": choice.key, "version": state.version})
    )
    frames = {viewer: await board_at_least(c, state.version + 1) for viewer, c in sockets.items()}
    new_state = await db(_state)(table.pk)
    deciding = new_state.waiting_for[0]
    for viewer, frame in frames.items():
        if viewer == deciding:
            for option in adapter.view(new_state, viewer)["prompt"]["options"]:
                assert f'name="key" value="{option["key"]}"' in frame
        else:
            assert "Waiting for " in frame and players[deciding].name in frame
        if viewer is None:
            assert "ws-send" not in frame  # a spectator is never offered a decision
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_a_stale_decision_is_refused_and_the_sender_gets_the_current_state():
    table, players = await db(started_table)()
    sockets = await open_sockets(table, players)
    state = await db(_state)(table.pk)
    seat = state.waiting_for[0]
    key = adapter.legal(state, seat)[0].key
    message = json.dumps({"action": "act", "key": key, "version": state.version})
    await sockets[seat].send_to(text_data=message)
    await sockets[seat].send_to(text_data=message)  # a double click
    frame = await receive_until(sockets[seat], 'data-error="stale"')
    assert "moved on" in frame
    # Said once, on the board the decision was made on (not again in the page's flash).
    assert 'id="game-flash"' in frame and 'id="flash"' not in frame
    game = await db(Game.objects.get)(table=table)
    assert await db(game.actions.count)() == 1
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_a_new_connection_after_a_restart_shows_the_same_pending_prompt():
    table, players = await db(started_table)()
    state = await db(_state)(table.pk)
    seat = state.waiting_for[0]
    sockets = await open_sockets(table, players)
    for communicator in sockets.values():
        await communicator.disconnect()
    # The process's caches are gone after a restart; only the database remains.
    from games.tables import caches

    caches.forget_all()
    again = socket(f"/ws/t/{table.slug}/", await db(session_for)(players[seat]))
    assert (await again.connect())[0]
    frame = await receive_until(again, 'id="game-board"')
    for choice in adapter.legal(state, seat):
        assert f'value="{choice.key}"' in frame
    await again.disconnect()


@pytest.mark.slow
async def test_no_frame_of_a_whole_bot_played_game_leaks_hands_deck_order_or_the_seed():
    table, players = await db(started_table)(("Ann", "Bob"))
    sockets = await open_sockets(table, players)
    rng = random.Random(7)
    secrets_at: dict[int, dict] = {}  # version -> viewer -> strings that viewer must never get
    checked = 0

    def remember(state) -> None:
        hidden = {str(state.seed)}
        for deck in state.decks.values():
            hidden.update(deck[-3:])  # the next cards to come off each deck
        for hero in state.heroes:
            hidden.update(hero["hand"])
        per_viewer = {}
        for viewer in sockets:
            seen = json.dumps(adapter.view(state, viewer))
            per_viewer[viewer] = {h for h in hidden if h not in seen}
        secrets_at[state.version] = per_viewer

    state = await db(_state)(table.pk)
    remember(state)
    for _ in range(4000):
        if state.result is not None:
            break
        seat = state.waiting_for[0]
        key = rng.choice(adapter.legal(state, seat)).key
        await sockets[seat].send_to(
            text_data=json.dumps({"action": "act", "key": key, "version": state.version})
        )
        await board_at_least(sockets[seat], state.version + 1)
        after = await db(_state)(table.pk)
        assert after.version > state.version, "the decision was not applied"
        remember(after)
        state = after
        for viewer, communicator in sockets.items():
            for frame in await drain(communicator):
                found = BOARD_VERSION.search(frame)
                if not found:
                    continue
                checked += 1
                for secret in secrets_at[int(found.group(1))][viewer]:
                    assert secret not in frame, f"{secret} reached viewer {viewer}"
    assert state.result is not None, "the bots did not finish the game"
    assert checked > 100
    assert (await db(Table.objects.get)(pk=table.pk)).status == TableStatus.FINISHED
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_a_spectator_joining_costs_the_others_a_few_bytes_not_a_board():
    table, players = await db(started_table)()
    player = socket(f"/ws/t/{table.slug}/", await db(session_for)(players[0]))
    assert (await player.connect())[0]
    await receive_until(player, 'id="game-board"')
    watchers = []
    for count in (1, 2):
        watchers.append(socket(f"/ws/t/{table.slug}/"))  # no session at all: each one counts
        assert (await watchers[-1].connect())[0]
        frame = await receive_until(player, f"{count} watching")
        assert 'id="game-board"' not in frame and len(frame) < 200
    for communicator in (player, *watchers):
        await communicator.disconnect()


async def test_a_crowd_joining_at_once_is_announced_in_a_few_frames_not_one_per_socket():
    table, players = await db(started_table)()
    player = socket(f"/ws/t/{table.slug}/", await db(session_for)(players[0]))
    assert (await player.connect())[0]
    await receive_until(player, 'id="game-board"')
    with override_settings(KILFORTH_PRESENCE_SECONDS=1.0):
        crowd = [socket(f"/ws/t/{table.slug}/") for _ in range(20)]
        for watcher in crowd:
            assert (await watcher.connect())[0]
        announced = 0
        while True:
            frame = await player.receive_from(timeout=5)
            announced += "watching" in frame
            if "20 watching" in frame:
                break
    assert announced <= 5, f"{announced} presence frames for 20 sockets"
    for communicator in (player, *crowd):
        await communicator.disconnect()


async def test_a_socket_that_opens_later_sees_the_watchers_counted_since_the_board_was_rendered():
    table, players = await db(started_table)()
    player = socket(f"/ws/t/{table.slug}/", await db(session_for)(players[0]))
    assert (await player.connect())[0]
    assert "0 watching" in await receive_until(player, 'id="game-board"')
    watcher = socket(f"/ws/t/{table.slug}/")
    assert (await watcher.connect())[0]
    await receive_until(player, "1 watching")
    # Same table version: the board rendered for 0 watchers is reused, with today's count.
    again = socket(f"/ws/t/{table.slug}/", await db(session_for)(players[0]))
    assert (await again.connect())[0]
    frame = await receive_until(again, 'id="game-board"')
    assert "1 watching" in frame and "0 watching" not in frame
    for communicator in (player, watcher, again):
        await communicator.disconnect()


async def test_the_player_who_decided_sees_the_result_without_waiting_for_the_tables_broadcast(
    monkeypatch, settings
):
    # The group broadcast is what the table's other sockets wait for; the deciding socket
    # answers its own player at once with the same message (here the group copy never comes).
    from games.tables import realtime

    settings.KILFORTH_FRESHNESS_SECONDS = 0.2
    table, players = await db(started_table)()
    sockets = await open_sockets(table, players)
    state = await db(_state)(table.pk)
    seat = state.waiting_for[0]
    sent = realtime._send
    monkeypatch.setattr(
        realtime,
        "_send",
        lambda group, message, **kw: (
            None if group == realtime.table_group(table.pk) else sent(group, message, **kw)
        ),
    )
    key = adapter.legal(state, seat)[0].key
    await sockets[seat].send_to(
        text_data=json.dumps({"action": "act", "key": key, "version": state.version})
    )
    frame = await board_at_least(sockets[seat], state.version + 1)
    assert BOARD_VERSION.search(frame)
    # The group copy was lost: the safety net still brings every other socket the new state
    # (answering the decider alone must not count as this process having shown it).
    for viewer, communicator in sockets.items():
        if viewer != seat:
            assert BOARD_VERSION.search(await board_at_least(communicator, state.version + 1))
    for communicator in sockets.values():
        await communicator.disconnect()

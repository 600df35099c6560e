"""Bots at the table: seats given to bots, stand-ins for absent players, and the driver."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.kilforth import adapter
from games.kilforth.kit import pick_hero
from games.tables import bots, services
from games.tables.models import Action, Game, Player, Seat, Table, TableStatus
from tests.tables.helpers import open_table
from tests.tables.test_game_flow import current_state, started_table


def host_and_table(**settings):
    host = Player.objects.create(name="Hal")
    return host, open_table(host, **settings)


@pytest.mark.django_db
def test_the_host_gives_a_free_seat_to_a_bot_and_nobody_else_can():
    host, table = host_and_table(seat_count=2)
    guest = Player.objects.create(name="Gil")
    with pytest.raises(services.Forbidden):
        services.do_seat_bot(table, guest, 1, "random")
    services.do_seat_bot(table, host, 1, "random")
    assert Seat.objects.get(table=table, number=1).bot == "random"
    with pytest.raises(services.Conflict, match="already taken"):
        services.do_take_seat(table, guest, 1, "player")
    with pytest.raises(services.ServiceError, match="bot levels on offer"):
        services.do_seat_bot(table, host, 0, "grandmaster")


@pytest.mark.django_db
def test_a_seat_with_a_player_is_not_given_to_a_bot_and_a_bot_can_be_removed():
    host, table = host_and_table(seat_count=2)
    services.do_take_seat(table, host, 0, "player")
    with pytest.raises(services.Conflict, match="has a player"):
        services.do_seat_bot(table, host, 0, "random")
    services.do_seat_bot(table, host, 1, "random")
    services.do_remove_player(table, host, 1)
    assert Seat.objects.get(table=table, number=1).bot == ""


@pytest.mark.django_db
def test_a_table_starts_with_a_bot_in_a_free_seat_which_picks_its_hero_at_once():
    host, table = host_and_table(seat_count=2)
    services.do_take_seat(table, host, 0, "player")
    services.do_seat_bot(table, host, 1, "random")
    services.do_start_game(table, host)
    assert Seat.objects.get(table=table, number=1).ready
    pick_hero(table, host, "", "", False)
    assert Table.objects.get(pk=table.pk).status == TableStatus.STARTED


@pytest.mark.django_db
def test_a_bot_decides_through_the_same_service_and_is_logged_as_a_bot():
    host, table = host_and_table(seat_count=2)
    services.do_take_seat(table, host, 0, "player")
    services.do_seat_bot(table, host, 1, "random")
    services.do_start_game(table, host)
    pick_hero(table, host, "", "", False)
    for _ in range(200):
        state = current_state(table)
        if 1 in state.waiting_for:
            break
        seat = state.waiting_for[0]
        services.do_act(table, host, adapter.legal(state, seat)[0].key, state.version)
    move = bots.plan_move(table.pk)
    assert move is not None and move.seat == 1 and move.delay == 1.0
    assert move.key in {c.key for c in adapter.legal(current_state(table), 1)}
    assert bots.play_move(move)
    assert Action.objects.filter(seat=1, bot="random").count() == 1
    # The same move again is stale: it changes nothing.
    assert not bots.play_move(move)
    with pytest.raises(services.Forbidden):
        services.do_bot_act(table, 0, move.key, move.version)


@pytest.mark.django_db
def test_no_move_is_planned_while_a_person_is_being_waited_on():
    table, players = started_table()
    assert bots.plan_move(table.pk) is None


@pytest.mark.django_db
def test_a_vanished_players_seat_goes_to_a_bot_after_the_grace_time_and_comes_back():
    table, (ann, bob) = started_table()
    state = current_state(table)
    waiting = state.waiting_for[0]
    absent = (ann, bob)[waiting]
    seat = Seat.objects.get(table=table, number=waiting)
    seat.offline_since = timezone.now() - timedelta(seconds=30)
    seat.save()
    with pytest.raises(services.Conflict, match="has not been away"):
        services.do_hand_to_bot(table, ann, waiting, "random")
    Seat.objects.filter(pk=seat.pk).update(offline_since=timezone.now() - timedelta(minutes=5))
    with pytest.raises(services.Forbidden):
        services.do_hand_to_bot(table, bob, waiting, "random")
    services.do_hand_to_bot(table, ann, waiting, "random")
    assert Seat.objects.get(pk=seat.pk).bot == "random"
    with pytest.raises(services.Conflict, match="bot is playing your seat"):
        services.do_act(table, absent, adapter.legal(state, waiting)[0].key, state.version)
    assert bots.play_move(bots.plan_move(table.pk))
    services.do_reclaim_seat(table, absent)
    assert Seat.objects.get(pk=seat.pk).bot == ""
    assert Seat.objects.get(pk=seat.pk).player == absent


@pytest.mark.django_db
def test_a_seat_is_not_handed_to_a_bot_when_the_game_waits_on_someone_else():
    table, (ann, bob) = started_table()
    idle = 1 - current_state(table).waiting_for[0]
    Seat.objects.filter(table=table, number=idle).update(
        offline_since=timezone.now() - timedelta(minutes=5)
    )
    with pytest.raises(services.Conflict, match="not waiting"):
        services.do_hand_to_bot(table, ann, idle, "random")


@pytest.mark.bot_driver
@pytest.mark.django_db(transaction=True)
async def test_the_driver_plays_a_table_of_bots_to_the_end_and_resumes_after_a_restart():
    def setup():
        host, table = host_and_table(seat_count=2, bot_delay_ms=0)
        services.do_seat_bot(table, host, 0, "random")
        services.do_seat_bot(table, host, 1, "random")
        services.do_start_game(table, host)  # both bots are ready: the game begins
        return table

    table = await database_sync_to_async(setup)()

    def version():
        return Game.objects.get(table=table).version

    # A "restart": a fresh driver finds the waiting game by its sweep, with no message sent.
    driver = bots.BotDriver()
    runner = asyncio.ensure_future(driver.run())
    try:
        for _ in range(600):
            await asyncio.sleep(0.05)
            status = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).status)()
            if status == TableStatus.FINISHED:
                break
        assert status == TableStatus.FINISHED, (
            f"stuck at version {await database_sync_to_async(version)()}"
        )
    finally:
        runner.cancel()
    actions = await database_sync_to_async(lambda: Action.objects.filter(bot="random").count())()
    assert actions == await database_sync_to_async(version)()


@pytest.mark.django_db
def test_the_hero_choice_names_a_bots_seat_as_a_bot_never_as_none():
    from games.tables.identity import PLAYER_ACCESS
    from games.tables.rendering import load_snapshot, render_table_live

    host, table = host_and_table(seat_count=2)
    services.do_take_seat(table, host, 0, "player")
    services.do_seat_bot(table, host, 1, "heuristic")
    services.do_start_game(table, host)
    html = render_table_live(load_snapshot(table.pk), host.pk, PLAYER_ACCESS)
    seat = html[html.index('id="seat-1"') :].split("</li>", 1)[0]
    assert "Bot (sensible)" in seat and "None" not in seat


@pytest.mark.django_db
def test_the_board_never_shows_a_bots_seat_as_offline():
    from games.tables.identity import PLAYER_ACCESS
    from games.tables.rendering import load_snapshot, render_table_live

    host, table = host_and_table(seat_count=2)
    services.do_take_seat(table, host, 0, "player")
    services.do_seat_bot(table, host, 1, "heuristic")
    services.do_start_game(table, host)
    pick_hero(table, host, "", "", False)
    html = render_table_live(load_snapshot(table.pk), host.pk, PLAYER_ACCESS)
    card = html[html.index('id="kb-hero-card-1"') :].split("</header>", 1)[0]
    assert "Bot (sensible)" in card
    # Each hero's panel shows "online" or "offline" by the presence part (board.css; seen in
    # Chromium by tests/board/test_board_in_chromium.py): the bot's seat is in it, while the
    # person at seat 0, with no socket open here, is not.
    presence = html[html.index('id="kb-presence"') :].split(">", 1)[0]
    assert 'data-online="1"' in presence, presence

"""A second game, defined in the test suite, plays through the real platform unchanged."""

import json

import pytest
from channels.db import database_sync_to_async

from games.tables import bots, chat, kits, services
from games.tables.models import Game, Player, Seat, Table, TableStatus
from tests.tables.helpers import page, receive_until, session_for, socket
from tests.tables.toy_kit import KIT

db = database_sync_to_async


@pytest.fixture(autouse=True)
def high_card_kit():
    kits.register(KIT)
    yield KIT
    kits.unregister(KIT.key)


def new_table_post(**changes):
    data = {
        "name": "Quick duel",
        "game": "highcard",
        "stakes": "high",
        "seat_count": 2,
        "visibility": "public",
        "bot_delay_ms": 0,
        "grace_seconds": 60,
    }
    return {**data, **changes}


@pytest.mark.django_db
def test_a_second_game_is_opened_seated_prepared_played_by_a_bot_and_rematched(person):
    host, ann = person("Ann")
    response = host.post("/tables/new/", new_table_post())
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get()
    assert (table.game, table.options) == ("highcard", {"stakes": "high"})
    lobby = host.get("/").content.decode()
    assert "High card" in lobby and "High stakes" in lobby

    assert host.post(f"/t/{table.slug}/seats/0/take/").status_code in (204, 302)
    assert host.post(f"/t/{table.slug}/seats/1/bot/", {"level": "lowest"}).status_code in (
        204,
        302,
    )
    assert host.post(f"/t/{table.slug}/start/").status_code in (204, 302)
    table.refresh_from_db()
    assert table.status == TableStatus.CHOOSING
    assert "Pick your colour" in host.get(f"/t/{table.slug}/").content.decode()

    refused = host.post(f"/t/{table.slug}/setup/", {"colour": "grey"})  # the bot's colour
    assert refused.status_code == 409 or "That colour is taken" in refused.content.decode()
    assert Table.objects.get(pk=table.pk).status == TableStatus.CHOOSING
    host.post(f"/t/{table.slug}/setup/", {"colour": "red"})
    table.refresh_from_db()
    assert table.status == TableStatus.STARTED
    assert Seat.objects.get(table=table, number=0).setup == {"colour": "red"}

    move = bots.plan_move(table.pk)
    assert (move.seat, move.key) == (1, "card:1")
    assert bots.play_move(move)
    board = host.get(f"/t/{table.slug}/").content.decode()
    assert "has played" in board and "played 1" not in board  # the bot's card stays hidden

    version = Game.objects.get(table=table).version
    services.do_act(table, ann, "card:3", version)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    assert "Winners: Ann" in host.get(f"/t/{table.slug}/").content.decode()
    # The table's chat says it too, in the game's own words (the kit's `outcome`).
    said = [m.text for m in chat.recent(table, seated=True) if m.author_id is None]
    assert said[-1] == "The game is over: Ann drew the highest card.", said
    assert "2 cards played" in host.get(f"/t/{table.slug}/log/").content.decode()

    assert host.post(f"/t/{table.slug}/rematch/").status_code in (204, 302)
    rematch = Table.objects.get(pk=Table.objects.get(pk=table.pk).rematch_id)
    assert (rematch.game, rematch.options, rematch.seat_count) == ("highcard", table.options, 2)
    seats = [(s.player_id, s.bot) for s in rematch.seats.order_by("number")]
    assert seats == [(ann.pk, ""), (None, "lowest")]


@pytest.mark.django_db
def test_a_second_games_options_are_checked_by_its_own_form(person):
    host, _ = person("Ann")
    response = host.post("/tables/new/", new_table_post(stakes="everything"))
    assert response.status_code == 200
    response = host.post("/tables/new/", new_table_post(seat_count=3))
    assert "2 to 2 seats" in response.content.decode()
    response = host.post("/tables/new/", new_table_post(game="nonesuch"))
    assert response.status_code == 200 and "valid choice" in response.content.decode()
    assert not Table.objects.exists()


def started_high_card() -> tuple[Table, list[Player]]:
    ann, bob = Player.objects.create(name="Ann"), Player.objects.create(name="Bob")
    settings = {"name": "Duel", "game": "highcard", "options": {"stakes": "low"}}
    table = services.do_create_table(ann, {**settings, "seat_count": 2})
    services.do_take_seat(table, ann, 0, "player")
    services.do_take_seat(table, bob, 1, "player")
    services.do_start_game(table, ann)
    with pytest.raises(services.Conflict):
        services.do_act(table, ann, "card:1", 1)  # out of phase: the prompts come first
    services.do_setup_seat(table, ann, {"colour": "red"})
    services.do_setup_seat(table, bob, {"colour": "blue"})
    return Table.objects.get(pk=table.pk), [ann, bob]


@pytest.mark.django_db(transaction=True)
async def test_a_second_games_decisions_reach_every_socket_without_revealing_hidden_cards():
    table, (ann, bob) = await db(started_high_card)()
    sockets = {}
    for name, player in (("ann", ann), ("bob", bob), ("watcher", None)):
        sockets[name] = socket(f"/ws/t/{table.slug}/", await db(session_for)(player))
        assert (await sockets[name].connect())[0]
        await receive_until(sockets[name], 'id="game-board"')
    await sockets["ann"].send_to(
        text_data=json.dumps({"action": "act", "key": "card:3", "version": 1})
    )
    await receive_until(sockets["ann"], "played 3")
    for name in ("bob", "watcher"):
        await receive_until(sockets[name], "has played")
        assert "played 3" not in page(sockets[name])
    assert 'value="card:1"' in page(sockets["bob"])
    assert "ws-send" not in page(sockets["watcher"])
    await sockets["bob"].send_to(
        text_data=json.dumps({"action": "act", "key": "card:1", "version": 2})
    )
    for communicator in sockets.values():
        await receive_until(communicator, "Winners: Ann")
        await communicator.disconnect()

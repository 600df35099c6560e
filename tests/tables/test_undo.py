"""Undo, with the board-game sites' policy: one's own last decisions of the turn, while nothing
random or hidden came of them; a versioned decision like any other."""

import json

import pytest
from channels.db import database_sync_to_async

from games.kilforth import adapter
from games.tables import kits, replays, services
from games.tables.identity import PLAYER_ACCESS
from games.tables.models import UNDO, Action, ChatMessage, Game, TableStatus
from games.tables.rendering import load_snapshot, render_table_live
from tests.tables.helpers import receive_until, session_for, socket
from tests.tables.test_game_flow import current_state, deciding, started_table

db = database_sync_to_async


def act(table, player, key) -> None:
    services.do_act(table, player, key, Game.objects.get(table=table).version)


def until_an_undoable_decision(table, players, tries=200):
    """Play first options until the newest decision may be taken back; (its seat, before)."""
    for _ in range(tries):
        state = current_state(table)
        seat, options = deciding(state)
        act(table, players[seat], options[0].key)
        game = Game.objects.get(table=table)
        if game.undoable_action() is not None:
            return seat, state
    pytest.fail("no undoable decision came up")


@pytest.mark.django_db
def test_a_player_takes_back_a_decision_that_revealed_nothing_and_the_game_is_as_before():
    table, players = started_table()
    seat, before = until_an_undoable_decision(table, players)
    version = Game.objects.get(table=table).version
    services.do_undo(table, players[seat], version)
    game = Game.objects.get(table=table)
    after = adapter.load(game.state)
    assert game.version == version + 1 == after.version
    assert after.to_dict() | {"version": 0} == before.to_dict() | {"version": 0}
    taken_back = Action.objects.get(game=game, version=version)
    assert taken_back.undone and Action.objects.get(game=game, version=version + 1).key == UNDO
    assert ChatMessage.objects.filter(table=table, text__contains="took back").exists()
    # The taken-back decision is no longer part of the history; a replay shows the restored state.
    kept = list(game.opening)
    for row in Action.objects.filter(game=game).order_by("version"):
        kept += [] if row.undone else row.events
    assert game.history() == kept
    kit = kits.kit_for(table)
    steps = replays.steps_of(game)
    replayed = replays.state_after(game, kit, steps, len(steps))
    assert replayed.to_dict() == after.to_dict()


def until_a_die_is_rolled(table, players, tries=300) -> int:
    """Play first options until a decision rolls a die (or shuffles); the seat that made it."""
    for _ in range(tries):
        state = current_state(table)
        seat, options = deciding(state)
        act(table, players[seat], options[0].key)
        if current_state(table).rng != state.rng:
            return seat
    pytest.fail("no die was rolled")


@pytest.mark.django_db
def test_a_decision_that_rolled_dice_or_drew_a_card_is_final():
    table, players = started_table()
    seat = until_a_die_is_rolled(table, players)
    newest = Action.objects.filter(game__table=table).order_by("-version").first()
    assert not newest.undoable
    with pytest.raises(services.Conflict, match="Nothing of yours can be taken back"):
        services.do_undo(table, players[seat], current_state(table).version)


STANDS = "Your last decision stands"


@pytest.mark.django_db
def test_a_player_whose_last_decision_rolled_dice_is_told_why_it_cannot_be_taken_back():
    table, players = started_table()
    seat = until_a_die_is_rolled(table, players)
    mine = render_table_live(load_snapshot(table.pk), players[seat].pk, PLAYER_ACCESS)
    theirs = render_table_live(load_snapshot(table.pk), players[1 - seat].pk, PLAYER_ACCESS)
    assert STANDS in mine and "Take back my last decision" not in mine
    assert STANDS not in theirs
    # Once anyone decides again, the newest decision is not that one: nothing more is said.
    state = current_state(table)
    if state.waiting_for:
        after_seat, options = deciding(state)
        act(table, players[after_seat], options[0].key)
        other = players[1 - after_seat]
        page = render_table_live(load_snapshot(table.pk), other.pk, PLAYER_ACCESS)
        assert STANDS not in page


@pytest.mark.django_db
def test_another_player_cannot_take_back_my_decision_and_a_stale_undo_is_refused():
    table, players = started_table()
    seat, _ = until_an_undoable_decision(table, players)
    version = Game.objects.get(table=table).version
    with pytest.raises(services.Conflict):
        services.do_undo(table, players[1 - seat], version)
    with pytest.raises(services.Stale):
        services.do_undo(table, players[seat], version - 1)
    assert Game.objects.get(table=table).version == version


@pytest.mark.django_db
def test_the_undo_button_shows_only_to_the_player_who_may_use_it():
    table, players = started_table()
    seat, _ = until_an_undoable_decision(table, players)
    mine = render_table_live(load_snapshot(table.pk), players[seat].pk, PLAYER_ACCESS)
    theirs = render_table_live(load_snapshot(table.pk), players[1 - seat].pk, PLAYER_ACCESS)
    assert "Take back my last decision" in mine
    assert "Take back my last decision" not in theirs


@pytest.mark.django_db
def test_the_page_offers_the_undo_to_exactly_the_player_an_undo_would_be_accepted_from():
    # The page reads who may take back in its table statement (models.undo_player); an undo
    # asks the Action rows (Game.undoable_action). After every decision and every undo, even
    # undos one after another, they agree.
    table, players = started_table()
    undos = offered = 0
    for _ in range(150):
        game = Game.objects.get(table=table)
        target = game.undoable_action()
        snapshot = load_snapshot(table.pk)
        shown = snapshot.undo_player
        assert shown == (target.player_id if target else None)
        # And who made the newest standing decision (the page says why they have no undo).
        newest = (
            Action.objects.filter(game=game, undone=False).exclude(key=UNDO).order_by("-version")
        ).first()
        playing = snapshot.table.status == TableStatus.STARTED
        assert snapshot.last_player == (newest.player_id if newest and playing else None)
        offered += shown is not None
        if target is not None and undos < 8:
            services.do_undo(table, players[target.seat], game.version)
            undos += 1
            continue
        state = current_state(table)
        if not state.waiting_for:
            break  # the game is over
        seat, options = deciding(state)
        act(table, players[seat], options[0].key)
    assert undos == 8 and offered > 8


@pytest.mark.django_db(transaction=True)
async def test_an_undo_sent_over_the_socket_takes_the_decision_back():
    table, players = await db(started_table)()
    seat, _ = await db(until_an_undoable_decision)(table, players)
    version = await db(lambda: Game.objects.get(table=table).version)()
    ws = socket(f"/ws/t/{table.slug}/", await db(session_for)(players[seat], table, PLAYER_ACCESS))
    assert (await ws.connect())[0]
    await receive_until(ws, 'id="table-live"')
    await ws.send_to(text_data=json.dumps({"action": "undo", "version": version}))
    await receive_until(ws, f'data-version="{version + 1}"')
    assert await db(lambda: Action.objects.get(game__table=table, version=version).undone)()
    await ws.disconnect()

"""Replays: a game stepped through, rebuilt exactly from its first state and its decisions."""

import re

import pytest

from games.kilforth import adapter
from games.tables import caches, chat, kits, replays, services
from games.tables.models import Game, Table, TableStatus
from tests.tables.test_game_flow import current_state, deciding, started_table

BOARD_VERSION = re.compile(r'id="game-board"[^>]*data-version="(\d+)"')


def play(table, players, decisions: int) -> list:
    """Make `decisions` decisions (each seat's first option); the states after each one."""
    states = []
    for _ in range(decisions):
        state = current_state(table)
        if state.result is not None:
            break
        seat, options = deciding(state)
        services.do_act(table, players[seat], options[0].key, state.version)
        states.append(current_state(table))
    return states


def replay_page(client, table, **params) -> str:
    response = client.get(f"/t/{table.slug}/replay/", params)
    assert response.status_code == 200
    return response.content.decode()


def board_of(page: str) -> str:
    start = page.index('<fieldset class="replay-board"')
    return page[start : page.index("</fieldset>", start)]


@pytest.mark.django_db
def test_every_step_of_a_replay_is_the_board_a_spectator_saw_after_that_decision(client):
    table, players = started_table()
    states = play(table, players, 40)
    caches.forget_all()
    kit = kits.kit_for(table)
    names = {0: "Ann", 1: "Bob"}
    for step in (0, 1, 17, 25, 26, 40):
        page = replay_page(client, table, step=step)
        state = states[step - 1] if step else adapter.load(Game.objects.get(table=table).initial)
        assert BOARD_VERSION.search(page).group(1) == str(state.version)
        # Exactly the kit's spectator board for the state the game was in.
        assert kit.render(state, None, names, set(), table.slug) in page
        assert (f"Decision {step} of 40" if step else "The game as it began") in page
    assert caches.checkpoint(Game.objects.get(table=table).pk, 25) is not None


@pytest.mark.django_db
def test_a_replay_of_a_running_game_never_shows_a_hand(client):
    table, players = started_table()
    play(table, players, 12)
    public = board_of(replay_page(client, table, step=12))
    asked_for_a_seat = board_of(replay_page(client, table, step=12, seat=0))
    assert asked_for_a_seat == public
    assert 'class="choice' not in public  # no seat's decision, so no seat's view
    assert "The game is still on" in replay_page(client, table)


@pytest.mark.django_db
def test_once_the_game_has_ended_a_replay_shows_the_board_as_any_seat_saw_it(client):
    table, players = started_table()
    states = play(table, players, 8)
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    state = states[-1]
    seat = state.waiting_for[0]
    page = replay_page(client, table, step=8, seat=seat)
    kit = kits.kit_for(table)
    assert kit.render(state, seat, {0: "Ann", 1: "Bob"}, set(), table.slug) in page
    assert board_of(page) != board_of(replay_page(client, table, step=8))


@pytest.mark.django_db
def test_steps_out_of_range_or_not_numbers_show_the_nearest_end(client):
    table, players = started_table()
    play(table, players, 5)
    assert "Decision 5 of 5" in replay_page(client, table, step=999)
    assert "The game as it began" in replay_page(client, table, step=-3)
    assert "Decision 5 of 5" in replay_page(client, table, step="x")


@pytest.mark.django_db
def test_the_replay_shows_the_players_chat_said_until_that_decision(client):
    table, players = started_table()
    play(table, players, 2)
    chat.do_post(table, players[0], "before the third decision")
    play(table, players, 1)
    chat.do_post(table, players[1], "after the third decision")
    at_two = replay_page(client, table, step=2)
    assert "before the third decision" not in at_two
    at_three = replay_page(client, table, step=3)
    assert "before the third decision" in at_three and "after the third" not in at_three


@pytest.mark.django_db
def test_an_unlisted_tables_replay_is_hidden_from_those_without_its_link(client):
    table, players = started_table(visibility="unlisted")
    play(table, players, 2)
    assert client.get(f"/t/{table.slug}/replay/").status_code == 404


@pytest.mark.django_db
def test_a_game_begun_before_replays_were_recorded_says_so(client):
    table, players = started_table()
    play(table, players, 2)
    Game.objects.filter(table=table).update(initial="")
    page = replay_page(client, table)
    assert "began before replays were recorded" in page
    with pytest.raises(replays.ReplayUnavailable):
        game = Game.objects.get(table=table)
        replays.state_after(game, kits.kit_for(table), replays.steps_of(game), 1)

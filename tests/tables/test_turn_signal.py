"""The page knows when the game waits on its seat (tab title, opt-in alert: static/js/turn.js)."""

import re

import pytest

from games.tables import services
from games.tables.frames import Rendering
from games.tables.identity import PLAYER_ACCESS
from games.tables.rendering import load_snapshot, render_table_live
from tests.tables.test_game_flow import current_state, deciding, started_table

MY_TURN = re.compile(r'id="table-live"[^>]*data-my-turn="(\d)"')
TAIL_TURN = re.compile(r'id="kb-version"[^>]*data-my-turn="(\d)"')


def live(table, player) -> str:
    return render_table_live(load_snapshot(table.pk), player.pk, PLAYER_ACCESS)


@pytest.mark.django_db
def test_the_live_fragment_says_whose_turn_it_is_for_each_seat():
    table, players = started_table()
    seat, _ = deciding(current_state(table))
    assert MY_TURN.search(live(table, players[seat])).group(1) == "1"
    assert MY_TURN.search(live(table, players[1 - seat])).group(1) == "0"


@pytest.mark.django_db
def test_a_partial_frame_carries_the_turn_to_the_page_without_resending_the_board():
    table, players = started_table()
    for _ in range(30):  # until the turn passes to the other seat
        state = current_state(table)
        seat, options = deciding(state)
        other = players[1 - seat]
        before = live(table, other)
        services.do_act(table, players[seat], options[0].key, state.version)
        after = live(table, other)
        if MY_TURN.search(after).group(1) == "1":
            break
    else:
        pytest.fail("the turn never passed")
    frame = Rendering.of(after, 0).changed_since(Rendering.of(before, 0))
    assert frame is not None and 'id="table-live"' not in frame  # parts only
    assert TAIL_TURN.search(frame).group(1) == "1"
    assert MY_TURN.search(before).group(1) == "0"

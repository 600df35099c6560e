"""The view's log: the newest events a viewer may see, numbered, with its own marked.

`numbered_log` reads them from where each audience's events are in the state's log
(`log_positions`), found once for every viewer of a state; these tests hold it to the plain
definition: scan the log from its newest event, keep what the viewer may see, stop at the limit.
"""

import random

import pytest

from games.kilforth.engine import Settings, act, legal, new_game, public_facts, view
from games.kilforth.engine.bots.play import random_bot
from games.kilforth.engine.view import LOG_TAIL, log_positions, numbered_log, visible_log


def states(seed: int, heroes: int, decisions: int, every: int) -> list:
    """Every `every`th state of a game played by random legal decisions."""
    mode = "solo" if heroes == 1 else "competitive"
    state = new_game(Settings(edition="gloom", mode=mode, heroes=heroes), seed)
    r = random.Random(seed)
    out = [state]
    for n in range(decisions):
        if state.result is not None:
            break
        seat = state.waiting_for[0]
        state = act(state, seat, random_bot(state, seat, legal(state, seat), r))
        if n % every == 0:
            out.append(state)
    return out


def scanned(state, viewer, limit):
    """The plain definition, from the newest event back."""
    first = state.logged - len(state.log)
    found = []
    for i in range(len(state.log) - 1, -1, -1):
        e = state.log[i]
        if e["vis"] == "all" or e["vis"] == viewer:
            found.append((e, first + i, e["vis"] != "all"))
            if limit is not None and len(found) >= limit:
                break
    found.reverse()
    return (
        [e for e, _, _ in found],
        [n for _, n, _ in found],
        [k for k, (_, _, own) in enumerate(found) if own],
    )


@pytest.mark.rule("SET-8")
@pytest.mark.parametrize("heroes", [1, 4])
def test_each_viewer_s_log_is_its_newest_visible_events_in_order_with_its_own_marked(heroes):
    seen_own = False
    for state in states(seed=heroes, heroes=heroes, decisions=240, every=17):
        at = log_positions(state)
        for viewer in (None, *range(heroes)):
            for limit in (None, 1, 7, LOG_TAIL):
                expected = scanned(state, viewer, limit)
                assert numbered_log(state, viewer, limit, at) == expected, (state.version, viewer)
                assert numbered_log(state, viewer, limit) == expected
                assert visible_log(state, viewer, limit) == expected[0]
                seen_own = seen_own or bool(expected[2])
            picture = view(state, viewer, public_facts(state))
            events, numbers, own = scanned(state, viewer, LOG_TAIL)
            assert picture["log"] == events
            assert picture["log_numbers"] == numbers
            assert picture["log_own"] == own
            assert "log_at" not in picture  # where the other seats' events are is not shown
    assert seen_own, "the games logged some seat's own events"


def test_the_positions_found_once_name_every_event_of_the_state_s_log_once():
    for state in states(seed=5, heroes=3, decisions=150, every=29):
        at = log_positions(state)
        assert sorted(i for found in at.values() for i in found) == list(range(len(state.log)))
        for vis, found in at.items():
            assert found == sorted(found)
            assert all(state.log[i]["vis"] == vis for i in found)


def test_a_limit_of_nothing_shows_nothing():
    state = states(seed=2, heroes=2, decisions=30, every=30)[-1]
    assert numbered_log(state, 0, 0) == ([], [], [])

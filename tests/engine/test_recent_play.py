"""The view states what just happened (the newest tests, the newest night) as engine facts.

The board shows these panels from `view()["recent_tests"]` and `view()["night"]`; it no longer
digs them out of the log. The facts stay small however long the game runs.
"""

import json
import random

from games.kilforth.engine import Settings, State, act, legal, new_events, new_game, view
from games.kilforth.engine.bots.play import random_bot
from games.kilforth.engine.rules.recent import MARKERS, NIGHT_KINDS, TEST_KINDS


def play(seed: int, until=lambda s: s.result is not None, heroes: int = 2):
    """(the state when `until` holds or the game ends, every event logged on the way)."""
    state = new_game(Settings(edition="shadows", mode="competitive", heroes=heroes), seed)
    history = new_events(None, state)
    r = random.Random(seed)
    while state.result is None and not until(state):
        seat = state.waiting_for[0]
        before = state
        state = act(state, seat, random_bot(state, seat, legal(state, seat), r))
        history += new_events(before, state)
    return state, history


def last_stretch_from_log(log: list[dict]) -> list[dict]:
    """The old board's reading of the whole log: the stretch around the newest roll."""
    last = max(i for i, e in enumerate(log) if e["e"] == "roll")
    start = last
    while start > 0 and log[start - 1]["e"] not in MARKERS:
        start -= 1
    end = last
    while end + 1 < len(log) and log[end + 1]["e"] not in MARKERS:
        end += 1
    return [e for e in log[start : end + 1] if e["e"] in TEST_KINDS]


def test_the_newest_tests_are_the_stretch_of_play_around_the_newest_roll():
    for seed in (3, 8, 21):
        state, history = play(seed, until=lambda s: s.day >= 3)
        shown = view(state, None)["recent_tests"]
        assert shown is not None
        expected = [e for e in last_stretch_from_log(history) if e["vis"] == "all"]
        assert shown["events"] == expected
        assert any(e["e"] == "roll" for e in shown["events"])


def test_the_night_panel_holds_the_newest_night_and_closes_at_dawn():
    state, log = play(5, until=lambda s: s.phase == "daylight" and s.day == 3)
    night = view(state, 0)["night"]
    assert night["day"] == 2 and not night["open"] and not night["before_day_one"]
    kinds = [e["e"] for e in night["events"]]
    assert "night_card" in kinds
    assert set(kinds) <= NIGHT_KINDS
    # The same events, in order, as the log between that night and the following dawn.
    start = max(i for i, e in enumerate(log) if e["e"] == "night")
    end = next(i for i in range(start, len(log)) if log[i]["e"] in ("dawn", "daylight"))
    expected = [e for e in log[start + 1 : end + 1] if e["e"] in NIGHT_KINDS]
    assert night["events"] == [e for e in expected if e["vis"] in ("all", 0)]


def test_before_the_first_night_the_panel_shows_the_gloom_spread_at_setup():
    state = new_game(Settings(edition="shadows", mode="competitive", heroes=2), 4)
    night = view(state, None)["night"]
    assert night is not None and night["before_day_one"]
    assert night["events"] and {e["e"] for e in night["events"]} == {"pre_gloom"}


def test_a_spectator_never_sees_an_event_meant_for_one_seat_in_the_recent_facts():
    state, _ = play(11, until=lambda s: s.day >= 4, heroes=3)
    for part in ("recent_tests", "night"):
        for e in (view(state, None)[part] or {"events": []})["events"]:
            assert e["vis"] == "all"


def test_the_recent_facts_stay_small_however_long_the_game_runs():
    state, history = play(2)
    assert state.result is not None and len(history) > 1000
    for part in (state.stretch, state.tests_seen, state.night_seen):
        assert len(json.dumps(part)) < 20_000
    assert State.from_json(state.to_json()) == state

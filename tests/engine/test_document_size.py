"""The state document is bounded by the position, not by the length of the game.

The history left the state: the engine keeps only the newest events (state.LOG_KEPT, for the
board's log panel) and hands each act's own events to the platform (`new_events`), which stores
them with the decision. Replay from the seed and the decisions still rebuilds every version.
"""

import random

import pytest

from games.kilforth.engine import Settings, State, act, legal, new_events, new_game
from games.kilforth.engine.bots.play import heuristic_bot

CONFIGS = [
    ("shadows", "competitive", 4, 7),
    ("gloom", "cooperative", 3, 3),
    ("gloom", "competitive", 2, 4),
]


def long_game(edition: str, mode: str, heroes: int, seed: int, decisions: int):
    """Up to `decisions` heuristic decisions: (states by count, the actions, all events)."""
    state = new_game(Settings(edition=edition, mode=mode, heroes=heroes), seed)
    r = random.Random(seed)
    states, actions, history = {0: state}, [], new_events(None, state)
    while state.result is None and len(actions) < decisions:
        seat = state.waiting_for[0]
        key = heuristic_bot(state, seat, legal(state, seat), r)
        before, state = state, act(state, seat, key)
        actions.append((seat, key))
        history += new_events(before, state)
        states[len(actions)] = state
    return states, actions, history


@pytest.mark.parametrize(("edition", "mode", "heroes", "seed"), CONFIGS)
def test_the_document_of_a_300_decision_game_is_bounded_by_one_of_10_decisions(
    edition, mode, heroes, seed
):
    states, _, history = long_game(edition, mode, heroes, seed, 300)
    assert len(states) > 300, "the game lasted 300 decisions"
    bound = 2.5 * len(states[10].to_json())
    for n in (100, 200, 300):
        assert len(states[n].to_json()) <= bound, f"decision {n}"
    # The history itself went on growing: it is outside, not lost.
    assert len(history) > 4 * len(states[300].log)


def test_replay_from_the_seed_and_the_decisions_reproduces_every_version_exactly():
    states, actions, history = long_game("shadows", "competitive", 4, 7, 300)
    first = states[0]
    again = new_game(Settings.from_dict(first.settings), first.seed)
    replayed = new_events(None, again)
    for n, (seat, key) in enumerate(actions, start=1):
        before, again = again, act(again, seat, key)
        replayed += new_events(before, again)
        assert again == states[n], f"version {n}"
        assert State.from_json(again.to_json()) == again
    assert replayed == history

"""Real game states for board tests: random legal play through the engine's public API."""

from __future__ import annotations

import random
from functools import lru_cache

from games.kilforth.engine import Settings, State, act, legal, new_game
from games.kilforth.engine.bots.play import random_bot

CONFIGS = [
    ("gloom", "solo", 1),
    ("gloom", "competitive", 2),
    ("gloom", "cooperative", 3),
    ("gloom", "competitive", 4),
    ("shadows", "solo", 1),
    ("shadows", "competitive", 2),
    ("shadows", "cooperative", 3),
    ("shadows", "competitive", 4),
]
PLAYERS = {0: "Ann", 1: "Bea", 2: "Cid", 3: "Dov"}


@lru_cache(maxsize=32)
def playout(edition: str, mode: str, heroes: int, seed: int = 7) -> tuple[State, ...]:
    """Every state of one random game, from setup to the end."""
    state = new_game(Settings(edition=edition, mode=mode, heroes=heroes), seed=seed)
    r = random.Random(seed)
    states = [state]
    while state.result is None and len(states) < 5000:
        seat = state.waiting_for[0]
        state = act(state, seat, random_bot(state, seat, legal(state, seat), r))
        states.append(state)
    return tuple(states)


def sample(edition: str, mode: str, heroes: int, n: int = 9, seed: int = 7) -> list[State]:
    """About n states spread over one game, always including the first and the last."""
    states = playout(edition, mode, heroes, seed)
    step = max(1, len(states) // n)
    picked = list(states[::step])
    if picked[-1] is not states[-1]:
        picked.append(states[-1])
    return picked


def players(heroes: int) -> dict[int, str]:
    return {s: PLAYERS[s] for s in range(heroes)}

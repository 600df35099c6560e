"""Seeded bot playouts (used by tests and, later, `manage.py simulate --game knightfall`)."""

from __future__ import annotations

import random
from collections.abc import Callable

from .api import act, legal, new_game, waiting_for
from .bots import random_bot
from .core import GameState


def playout(
    settings: dict, seed: int, bot: Callable = random_bot, max_steps: int = 20000
) -> GameState:
    """Play one game to its end with bots on every seat."""
    rnd = random.Random(seed)
    state = new_game(settings, seed)
    for _ in range(max_steps):
        seats = waiting_for(state)
        if not seats:
            break
        opts = legal(state, seats[0])
        state = act(state, seats[0], bot(state, seats[0], opts, rnd))
    return state

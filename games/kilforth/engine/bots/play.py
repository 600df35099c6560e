"""Bots that play through the public legal()/act() interface.

`random` picks uniformly among the legal choices of a waiting seat. A heuristic bot can be
added to BOTS later with the same signature: (state, seat, choices, rng) -> key.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from games.kilforth.engine.api import Choice, act, legal
from games.kilforth.engine.bots.heuristic import heuristic_bot
from games.kilforth.engine.rules.setup import new_game
from games.kilforth.engine.settings import Settings
from games.kilforth.engine.state import State, new_events

Bot = Callable[[State, int, list[Choice], random.Random], str]


def random_bot(state: State, seat: int, choices: list[Choice], r: random.Random) -> str:
    """Uniform over the seat's choices (the bot's own RNG, never the game's).

    A confirmation (making camp with AP left) guards people against a slip: the bot already
    chose, so it confirms without a draw, and its games stay the same as before the question.
    """
    confirm = [c for c in choices if c.data.get("verb") == "confirm"]
    if confirm:
        return confirm[0].key
    return choices[r.randrange(len(choices))].key


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}


@dataclass
class GameRecord:
    seed: int
    actions: int
    result: dict
    day: int
    act_ns: list = field(default_factory=list)
    history: list = field(default_factory=list)  # every event, when play(keep_history=True)


def play(
    settings: Settings,
    seed: int,
    bot: str = "random",
    timed: bool = False,
    on_step: Callable[[State], None] | None = None,
    max_actions: int = 100_000,
    keep_history: bool = False,
) -> tuple:
    """Play one game to the end; returns (final state, GameRecord)."""
    chooser = BOTS[bot]
    r = random.Random(seed ^ 0x5EED)
    state = new_game(settings, seed)
    history = list(new_events(None, state)) if keep_history else []
    if on_step:
        on_step(state)
    n = 0
    times: list[int] = []
    while state.result is None:
        seat = state.waiting_for[0]
        choices = legal(state, seat)
        key = chooser(state, seat, choices, r)
        before = state
        if timed:
            t0 = time.perf_counter_ns()
            state = act(state, seat, key)
            times.append(time.perf_counter_ns() - t0)
        else:
            state = act(state, seat, key)
        if keep_history:
            history += new_events(before, state)
        n += 1
        if on_step:
            on_step(state)
        if n > max_actions:
            raise RuntimeError(f"game with seed {seed} did not end in {max_actions} actions")
    return state, GameRecord(seed, n, state.result, state.day, times, history)

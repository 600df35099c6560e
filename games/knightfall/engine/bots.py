"""A random legal bot and a simple heuristic bot."""

from __future__ import annotations

import random

from .core import GameState

_PREF = ("primary:", "secondary:", "sym:", "target:", "block:", "defend:", "basic:magic")


def random_bot(state: GameState, seat: int, options: list[dict], rnd: random.Random) -> str:
    """Any legal option, uniformly."""
    return rnd.choice(options)["key"]


def heuristic_bot(state: GameState, seat: int, options: list[dict], rnd: random.Random) -> str:
    """Prefers playing abilities, hitting targets and blocking; avoids forgoing."""
    for pref in _PREF:
        hits = [o for o in options if o["key"].startswith(pref)]
        if hits:
            return rnd.choice(hits)["key"]
    keep = [o for o in options if o["key"] not in ("forgo", "stay", "sym:stop", "pass")]
    return rnd.choice(keep or options)["key"]

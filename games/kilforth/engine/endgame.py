"""End of game and scoring (END-1..5)."""

from __future__ import annotations

import math

from .board import gold_value
from .state import State, log
from .steps import step


def vp(state: State, seat: int) -> int:
    """END-4: gold plus the gold value of assets in play."""
    h = state.heroes[seat]
    return h["gold"] + sum(gold_value(c) for c in h["assets"])


@step("end_game")
def _end_game(state: State, s: dict) -> None:
    scores = [vp(state, h["seat"]) for h in state.heroes]
    alive = [h["seat"] for h in state.heroes if not h["eliminated"]]
    reason = s["reason"]
    slayer = s.get("slayer")
    if state.mode == "competitive":
        if slayer is not None:  # END-2: the hero who defeats the ancient wins at once
            winners = [slayer]
        elif not alive:  # END-5
            winners = []
        else:
            best = max(scores[i] for i in alive)
            winners = [i for i in alive if scores[i] == best]
        result = {"winners": winners, "vp": scores, "reason": reason, "won": bool(winners)}
    else:  # END-3: co-op and solo share one outcome
        won = all(a["defeated"] for a in state.ancients)
        winners = [h["seat"] for h in state.heroes] if won else []
        team_vp = math.ceil(sum(scores) / len(state.heroes))
        result = {
            "winners": winners,
            "vp": scores,
            "reason": reason,
            "won": won,
            "team_vp": team_vp,
        }
    state.phase = "over"
    state.prompt = None
    state.queue = []
    state.result = result
    log(state, "game_over", **result)

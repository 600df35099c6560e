"""End of game and scoring (END-1..5)."""

from __future__ import annotations

import math

from games.kilforth.engine.cards.steps import step
from games.kilforth.engine.events import Ctx, event, plural
from games.kilforth.engine.rules.position import gold_value
from games.kilforth.engine.state import State, log

_REASONS = {
    "ancient defeated": "the ancient has been slain",
    "all heroes eliminated": "every hero has fallen",
    "day limit": "the last day is over",
}


def _game_over(e: dict, c: Ctx) -> str:
    winners = e.get("winners") or []
    if e.get("team_vp") is not None:  # co-op and solo: one outcome for all
        one = len(e.get("vp") or []) == 1
        heroes = "The hero" if one else "The heroes"
        verb = ("wins" if one else "win") if e.get("won") else ("loses" if one else "lose")
        verdict = f"{heroes} {verb}, with a team score of {plural(e['team_vp'], 'VP')}"
    elif winners:
        verdict = f"{c.people(winners)} {'wins' if len(winners) == 1 else 'share the win'}"
    else:
        verdict = "Nobody wins"
    reason = str(e.get("reason") or "it has ended")
    return f"The game is over: {_REASONS.get(reason, reason).rstrip('.')}. {verdict}."


event(
    "game_over",
    _game_over,
    tone="big",
    fields=("winners", "reason", "won", "team_vp", "vp"),
    types={"vp": "data"},
    examples=(
        {"reason": "day 25 is over", "won": True},
        {"reason": "day limit", "won": False, "vp": [3]},
        {"reason": "ancient defeated", "won": True, "winners": [1], "team_vp": None},
        {"reason": "all heroes eliminated", "won": False, "winners": [], "team_vp": None},
    ),
)


def last_day(state: State) -> int:
    """END-1: the day the game ends (if no extra night card is drawn, for Shadows).

    Gloom: day 25. Shadows: the daylight phase that starts with 1 card in the night deck is the
    last, so a daylight phase with n cards left is n - 1 days before it. A finished game's last
    day is the day it ended.
    """
    if state.result is not None:
        return state.day
    if state.edition != "shadows":
        return 25
    n = len(state.decks["night"])
    tonight_drawn = state.phase == "night" and state.scratch.get("night_drawn") == state.day
    return state.day + max(n - 1, 0) + (1 if tonight_drawn else 0)


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

"""view(state, viewer): the ONE place hidden information is filtered.

Other heroes' hands and loot, deck order, limbo cards under someone's decision, queued steps and
the generator state never leave here. Deck sizes are public.
"""

from __future__ import annotations

from functools import lru_cache

from .board import card, name
from .state import State

PUBLIC_HERO = (
    "seat",
    "name",
    "race",
    "class",
    "female",
    "saga",
    "hp",
    "max_hp",
    "ap",
    "gold",
    "fate",
    "enemy_tokens",
    "hidden",
    "side",
    "loc",
    "camped",
    "defeated",
    "eliminated",
    "assets",
    "veiled",
    "skills",
    "chapter",
)
LOG_TAIL = 60


@lru_cache(maxsize=256)
def _static(loc_id: str) -> dict:
    lc = card(loc_id)
    return {
        "id": loc_id,
        "name": lc["name"],
        "terrain": lc["terrain"],
        "gloom_value": lc["gloom"],
        "symbol": lc["symbol"],
        "market": lc["market"],
    }


def _sees_hand(state: State, viewer: int | None, seat: int) -> bool:
    if viewer == seat:
        return True
    s = state.settings
    return viewer is not None and s["open_hands"] and s["mode"] == "cooperative"


def view(state: State, viewer: int | None) -> dict:
    """JSON-safe picture of the game for a seat (int) or a spectator (None)."""
    heroes = []
    for h in state.heroes:
        d = {k: h[k] for k in PUBLIC_HERO}
        d["hand_size"] = len(h["hand"])
        d["loot_size"] = len(h["loot"])
        if _sees_hand(state, viewer, h["seat"]):
            d["hand"] = list(h["hand"])
            d["loot"] = list(h["loot"])
        heroes.append(d)
    board = []
    where: dict[int, list[int]] = {}
    for h in state.heroes:
        if not h["eliminated"]:
            where.setdefault(h["loc"], []).append(h["seat"])
    for i, loc in enumerate(state.map):
        d = dict(_static(loc["id"]))
        d.update(
            index=i,
            gloom=loc["gloom"],
            obstacles=loc["obstacles"],
            plots=list(loc["plots"]),
            heroes=where.get(i, []),
        )
        d["encounters"] = [
            {
                "id": c,
                "name": name(c),
                "type": card(c)["type"],
                "enemies": list(state.encounters[c]["enemies"]),
                "progress": {k: dict(v) for k, v in state.encounters[c]["progress"].items()},
            }
            for c in loc["enc"]
        ]
        board.append(d)
    p = state.prompt
    prompt = None
    if p is not None and state.result is None:
        prompt = {"id": p["id"], "seat": p["seat"], "kind": p["kind"]}
        if viewer == p["seat"]:
            prompt["text"] = p["text"]
            prompt["options"] = [
                {"key": o["key"], "label": o["label"], "data": o["data"]} for o in p["options"]
            ]
    return {
        "version": state.version,
        "edition": state.edition,
        "mode": state.mode,
        "day": state.day,
        "phase": state.phase,
        "turn": state.turn,
        "first": state.first,
        "viewer": viewer,
        "heroes": heroes,
        "map": board,
        "decks": {k: len(v) for k, v in state.decks.items()},
        "discards": {k: list(v) for k, v in state.discards.items()},
        "loot_bag": len(state.loot_bag),
        "weather": state.weather,
        "ancients": [dict(a, plots=list(a["plots"])) for a in state.ancients],
        "team": list(state.team),
        "prompt": prompt,
        "waiting_for": state.waiting_for,
        "result": state.result,
        "log": visible_log(state, viewer, LOG_TAIL),
    }


def visible_log(state: State, viewer: int | None, limit: int | None = None) -> list[dict]:
    """The newest `limit` log events this viewer may see (scanned from the end: O(limit))."""
    out = []
    for e in reversed(state.log):
        if e["vis"] == "all" or e["vis"] == viewer:
            out.append(e)
            if limit is not None and len(out) >= limit:
                break
    out.reverse()
    return out

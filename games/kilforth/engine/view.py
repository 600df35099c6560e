"""view(state, viewer): the ONE place hidden information is filtered.

Other heroes' hands and loot, deck order, limbo cards under someone's decision, queued steps and
the generator state never leave here. Deck sizes are public.
"""

from __future__ import annotations

from .board import card, name
from .state import State

PUBLIC_HERO = (
    "seat", "name", "race", "class", "female", "saga", "hp", "max_hp", "ap", "gold", "fate",
    "enemy_tokens", "hidden", "side", "loc", "camped", "defeated", "eliminated", "assets",
    "veiled", "skills", "chapter",
)
LOG_TAIL = 200


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
    for i, loc in enumerate(state.map):
        lc = card(loc["id"])
        board.append({
            "index": i, "id": loc["id"], "name": lc["name"], "terrain": lc["terrain"],
            "gloom": loc["gloom"], "gloom_value": lc["gloom"], "symbol": lc["symbol"],
            "market": lc["market"], "obstacles": loc["obstacles"], "plots": list(loc["plots"]),
            "encounters": [
                {"id": c, "name": name(c), "type": card(c)["type"],
                 "enemies": list(state.encounters[c]["enemies"]),
                 "progress": {k: dict(v) for k, v in state.encounters[c]["progress"].items()}}
                for c in loc["enc"]
            ],
            "heroes": [h["seat"] for h in state.heroes if h["loc"] == i and not h["eliminated"]],
        })
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
        "log": [e for e in state.log if e["vis"] == "all" or e["vis"] == viewer][-LOG_TAIL:],
    }

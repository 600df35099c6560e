"""view(state, viewer): the ONE place hidden information is filtered.

Other heroes' hands and loot, deck order, limbo cards under someone's decision, queued steps and
the generator state never leave here. Deck sizes are public.
"""

from __future__ import annotations

from functools import lru_cache

from games.kilforth.engine.api import legal
from games.kilforth.engine.cards.catalogue import ATTRS
from games.kilforth.engine.rules.endgame import last_day
from games.kilforth.engine.rules.position import (
    bonus,
    card,
    name,
    success_min,
    team_of,
    total_of,
)
from games.kilforth.engine.rules.recent import visible
from games.kilforth.engine.state import State

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


def public_facts(state: State) -> dict:
    """What every viewer's picture of `state` shows alike: the heroes' public panels with their
    numbers, the map, the decks' sizes, the discards, the ancients. `view` makes it for each
    picture; a caller picturing one state for several viewers may make it once and hand it to
    each `view` (the pictures then share it: read it, never change it)."""
    heroes = []
    for h in state.heroes:
        d = {k: h[k] for k in PUBLIC_HERO}
        # SET-2: the hero's own numbers (its race side), with every source named, even at 0.
        d["attrs"] = {}
        for a in ATTRS:
            sources = bonus(state, h["seat"], a)  # once for the total and the list
            d["attrs"][a] = {
                "total": total_of(sources),
                "sources": [[src, n] for src, n in sources if n or src in ("race", "class")],
            }
        d["hand_size"] = len(h["hand"])
        d["loot_size"] = len(h["loot"])
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
    return {
        "heroes": heroes,
        "map": board,
        "decks": {k: len(v) for k, v in state.decks.items()},
        "discards": {k: list(v) for k, v in state.discards.items()},
        "ancients": [dict(a, plots=list(a["plots"])) for a in state.ancients],
        # Not shown as it is: where each viewer's events are in the log, found once for all
        # of them (`numbered_log`; `view` copies none of it into a picture).
        "log_at": log_positions(state),
    }


def view(state: State, viewer: int | None, public: dict | None = None) -> dict:
    """JSON-safe picture of the game for a seat (int) or a spectator (None); `public`: the
    state's `public_facts`, when the caller made them once for several viewers."""
    facts = public_facts(state) if public is None else public
    heroes = []
    for h, shown in zip(state.heroes, facts["heroes"], strict=True):
        d = dict(shown)
        if _sees_hand(state, viewer, h["seat"]):
            d["hand"] = list(h["hand"])
            d["loot"] = list(h["loot"])
        heroes.append(d)
    p = state.prompt
    prompt = None
    if p is not None and state.result is None:
        prompt = {"id": p["id"], "seat": p["seat"], "kind": p["kind"]}
        if viewer == p["seat"]:
            prompt["text"] = p["text"]
            prompt["options"] = [
                {"key": o["key"], "label": o["label"], "data": o["data"]} for o in p["options"]
            ]
    log, numbers, own = numbered_log(state, viewer, LOG_TAIL, facts["log_at"])
    return {
        "success_min": success_min(state),
        "test": test_in_progress(state),
        "engagement": engagement(state),
        "recent_tests": recent_tests(state, viewer),
        "night": night(state, viewer),
        "version": state.version,
        "edition": state.edition,
        "mode": state.mode,
        "day": state.day,
        "last_day": last_day(state),
        "phase": state.phase,
        "turn": state.turn,
        "first": state.first,
        "viewer": viewer,
        "heroes": heroes,
        "map": facts["map"],
        "decks": facts["decks"],
        "discards": facts["discards"],
        "loot_bag": len(state.loot_bag),
        "weather": state.weather,
        "ancients": facts["ancients"],
        "team": list(state.team),
        "prompt": prompt,
        "choices": choices(state, viewer),
        "waiting_for": state.waiting_for,
        "result": state.result,
        "log": log,
        "log_numbers": numbers,
        # Where in `log` the viewer's own events are (seen by it alone): the board keeps them
        # apart from everyone's.
        "log_own": own,
    }


def choices(state: State, viewer: int | None) -> list[dict]:
    """Every choice this seat may make now, on its prompt or off-turn, with the engine's own
    explanation of each; a spectator has none, and nobody sees another seat's options."""
    if viewer is None or not 0 <= viewer < len(state.heroes):
        return []
    return [
        {
            "key": c.key,
            "label": c.label,
            "data": dict(c.data),
            "explain": c.explain,
            "rule": c.rule,
            "cost": c.cost,
            "group": c.group,
            "topic": c.topic,
            "offturn": c.offturn,
        }
        for c in legal(state, viewer)
    ]


def engagement(state: State) -> dict | None:
    """The battle being fought now (ENG-6..11): foe, round, surprise and HP on both sides."""
    e = state.scratch.get("engagement")
    if not e or e["foe"] not in state.encounters or state.encounters[e["foe"]].get("hp") is None:
        return None
    members = team_of(state, e["seat"])
    return {
        "seat": e["seat"],
        "foe": e["foe"],
        "round": e["round"],
        "surprise": e["surprise"],
        "foe_hp": state.encounters[e["foe"]]["hp"],
        "foe_health": card(e["foe"])["health"] or 1,
        "heroes_hp": {str(m): state.heroes[m]["hp"] for m in members},
    }


def recent_tests(state: State, viewer: int | None) -> dict | None:
    """The newest stretch of play with dice in it (its tests, battle rounds and outcomes)."""
    seen = state.tests_seen
    if seen is None:
        return None
    return {"day": seen["day"], "events": visible(seen["events"], viewer)}


def night(state: State, viewer: int | None) -> dict | None:
    """The newest night (open while it resolves), or before day 1 the gloom spread at setup."""
    seen = state.night_seen
    if seen is None:
        return None
    return {
        "day": seen["day"],
        "open": seen["open"],
        "before_day_one": seen["before_day_one"],
        "events": visible(seen["events"], viewer),
    }


def test_in_progress(state: State) -> dict | None:
    """The test whose dice are on the table (a fate decision is open), as public facts."""
    p = state.prompt
    if p is None or p["kind"] != "fate" or p.get("tag") not in state.scratch:
        return None
    res = state.scratch[p["tag"]]
    h = state.heroes[p["seat"]]
    return {
        "tester": res["seat"],
        "attr": res["attr"],
        "dice": len(res["faces"]),
        "sources": [list(x) for x in res.get("sources", [])],
        "faces": list(res["faces"]),
        "threshold": success_min(state),
        "successes": res["succ"],
        "fate_available": h["fate_day"] != state.day and (h["fate"] > 0 or bool(h["hand"])),
    }


def visible_log(state: State, viewer: int | None, limit: int | None = None) -> list[dict]:
    """The newest `limit` log events this viewer may see."""
    return numbered_log(state, viewer, limit)[0]


def log_positions(state: State) -> dict[str | int, list[int]]:
    """Where in the state's kept log each audience's events are, in order: "all" (the events
    every viewer sees) and each seat's own (those it alone sees). One scan of the log for every
    viewer of the state (`numbered_log`)."""
    at: dict[str | int, list[int]] = {}
    for i, e in enumerate(state.log):
        found = at.get(e["vis"])
        if found is None:
            at[e["vis"]] = [i]
        else:
            found.append(i)
    return at


def numbered_log(
    state: State,
    viewer: int | None,
    limit: int | None = None,
    at: dict[str | int, list[int]] | None = None,
) -> tuple[list[dict], list[int], list[int]]:
    """The newest `limit` log events this viewer may see, oldest first, the number of each in
    the whole game's log (the first event ever logged is 0; the state keeps only the newest
    LOG_KEPT, and counts them all in `logged`), and where among them the viewer's own are (the
    events it alone sees, in order). The board groups its log rows by these numbers, so a
    decision changes only the group its new events fall in. `at`: the state's
    `log_positions`, when the caller found them once for several viewers."""
    if at is None:
        at = log_positions(state)
    everyone = at.get("all", [])
    mine = at.get(viewer, []) if viewer is not None else []
    if limit is not None:
        if limit <= 0:
            return [], [], []
        everyone, mine = everyone[-limit:], mine[-limit:]
    shown = everyone
    own: list[int] = []
    if mine:
        # The two lists in the log's order; the newest `limit` of them.
        shown = sorted(everyone + mine)
        if limit is not None:
            shown = shown[-limit:]
        kept = set(mine)
        own = [k for k, i in enumerate(shown) if i in kept]
    log = state.log
    first = state.logged - len(log)
    return [log[i] for i in shown], [first + i for i in shown], own

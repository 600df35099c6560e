"""Small rigging helpers for Knight Fall rule tests: set up a position, then play it.

Every helper edits the plain game dict (the state is JSON data); the rules are then exercised only
through the engine API (`act`, `legal`, `view`, `result`) or by queueing an engine step the way
the engine itself would (`run_steps`).
"""

from __future__ import annotations

import copy

from games.knightfall.engine import api
from games.knightfall.engine.content import content
from games.knightfall.engine.core import push, run
from games.knightfall.engine.steps import MINION_HP

# A fixed layout: the sewer on the top edge (west of it the nook, east the orb), the seal in the
# centre. Positions: 0 1 2 / 3 4 5 / 6 7 8.
LAYOUT = ["nook", "sewer", "orb", "chapel", "seal", "library", "belltower", "garden", "cellar"]
NOOK, SEWER, ORB = 0, 1, 2


def start(seed: int = 1, **settings) -> dict:
    """A new game with every setup question answered by its first option (a turn menu is open)."""
    s = api.new_game({"players": 4, **settings}, seed)
    while s["prompt"]["kind"] != "turn":
        s = api.act(s, s["prompt"]["seat"], s["prompt"]["options"][0]["key"])
    return s


def bare(seed: int = 1, **settings) -> dict:
    """A started game with the fixed LAYOUT and nothing on the board: no minions, no elders,
    and every character off the board (a test puts back those it uses) at full HEALTH with
    no DEFENSE."""
    s = start(seed, **settings)
    s["tiles"] = list(LAYOUT)
    for uid in [u for u, x in s["units"].items() if x["type"] not in ("knight", "demon")]:
        if uid in s["units"] and s["units"][uid]["type"] in s["supply"]:
            s["supply"][s["units"][uid]["type"]] += 1  # its standee goes back (KMIN-3)
        del s["units"][uid]
    for u in s["units"].values():
        u["tile"] = None
        u["hp"] = u["max_hp"]
        u["defense"] = 0
    return s


def chars(s: dict, team: str) -> list[dict]:
    """The characters of a team in slot order (those on or off the board)."""
    kind = team[:-1]
    units = [u for u in s["units"].values() if u["type"] == kind]
    return sorted(units, key=lambda u: (u["slot"], u["seat"] is None))


def become(s: dict, uid: str, cid: str) -> dict:
    """Give a character unit another character card (stats from the card)."""
    u = s["units"][uid]
    c = content().chars[cid]
    u["char"] = cid
    u["hp"] = c.get("enters_at", c["health"])
    u["max_hp"] = c["max_health"] + (1 if c["power"]["kind"] == "hardy" else 0)
    if "ice" in c:
        u["ice"], u["max_ice"] = c["ice"]["start"], c["ice"]["max"]
    else:
        u.pop("ice", None)
        u.pop("max_ice", None)
    if c["team"] == "knights":
        u["max_def"] = c["max_defense"] + (1 if c["power"]["kind"] == "ironskin" else 0)
    return u


def plain(s: dict, uid: str) -> dict:
    """Give a character a card whose ongoing power changes nothing in the tested position.

    Knights: a higher DEFENSE track only. Demons: a higher HEALTH track (standard); in co-op a
    demon whose ongoing power is off and which has no co-op trait at work.
    """
    if s["units"][uid]["side"] == "knights":
        u = become(s, uid, "iron_deacon")
    else:
        coop = s["settings"]["mode"] == "coop"
        u = become(s, uid, "tempest_maw" if coop else "cinder_spawn")
    u["hp"] = u["max_hp"]
    return u


def at(s: dict, uid: str, tile: int | None, bank: str | None = None) -> dict:
    u = s["units"][uid]
    u["tile"] = tile
    u.pop("bank", None)
    if bank:
        u["bank"] = bank
    return u


def minion(s: dict, kind: str, tile: int, hp: int | None = None, **extra) -> str:
    s["next_id"] += 1
    uid = f"m{s['next_id']}"
    side = "knights" if kind.endswith("golem") else "demons"
    s["units"][uid] = {
        "id": uid,
        "type": kind,
        "side": side,
        "tile": tile,
        "hp": MINION_HP[kind] if hp is None else hp,
        "max_hp": MINION_HP[kind],
        "seat": None,
        "char": "",
        "seal": None,
        **extra,
    }
    s["supply"][kind] -= 1
    return uid


def elder(s: dict, tile: int, hp: int = 6) -> str:
    s["next_id"] += 1
    uid = f"e{s['next_id']}"
    s["units"][uid] = {
        "id": uid,
        "type": "elder",
        "side": "knights",
        "tile": tile,
        "hp": hp,
        "max_hp": 6,
        "seat": None,
        "char": "",
        "seal": None,
    }
    return uid


def hand(s: dict, seat: int, *cards: str) -> None:
    """Set a seat's hand: power card ids (a copy suffix is added) plus its basic card."""
    held = [c if "#" in c or c.startswith("basic") else f"{c}#9" for c in cards]
    s["players"][seat]["hand"] = held
    s["players"][seat]["slowed"] = None


def turn(s: dict, uid: str) -> dict:
    """Begin the turn of the slot holding `uid` (turn-start effects run)."""
    s = copy.deepcopy(s)
    s["slot"] = s["units"][uid]["slot"]
    s["prompt"] = None
    s["queue"] = [{"k": "begin_turn"}]
    run(s)
    return s


def turn_slot(s: dict, slot: int) -> dict:
    """Begin the turn of slot `slot` (a waiting character enters first)."""
    s = copy.deepcopy(s)
    s["slot"] = slot
    s["prompt"] = None
    s["queue"] = [{"k": "begin_turn"}]
    run(s)
    return s


def run_steps(s: dict, *steps: dict) -> dict:
    """Queue engine steps in front of a fresh queue and run to the next decision."""
    s = copy.deepcopy(s)
    s["prompt"] = None
    s["queue"] = []
    push(s, *steps)
    run(s)
    return s


def keys(s: dict) -> list[str]:
    p = s["prompt"]
    return [] if p is None else [o["key"] for o in api.legal(s, p["seat"])]


def pick(s: dict, key: str) -> dict:
    """Answer the open prompt with the option `key` (or the only option starting with it)."""
    ks = keys(s)
    if key not in ks:
        hits = [k for k in ks if k.startswith(key)]
        assert len(hits) == 1, (key, ks)
        key = hits[0]
    return api.act(s, s["prompt"]["seat"], key)


def pick_until(s: dict, kind: str, key: str = "") -> dict:
    """Answer prompts with their first option until a prompt of `kind` is open."""
    for _ in range(200):
        if s["prompt"] is None or s["prompt"]["kind"] == kind:
            return s
        s = pick(s, key) if key and any(k.startswith(key) for k in keys(s)) else pick(s, keys(s)[0])
    raise AssertionError(f"no {kind} prompt")


def hp(s: dict, uid: str) -> int | None:
    u = s["units"].get(uid)
    return None if u is None or u["tile"] is None else u["hp"]


def events(s: dict, kind: str) -> list[dict]:
    return [e for e in s["log"] if e["e"] == kind]

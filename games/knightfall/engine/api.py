"""The fixed engine API: new_game, legal, act, view, JSON, version, waiting_for, result."""

from __future__ import annotations

import copy

import orjson

from . import coop, steps, turns  # noqa: F401  (register step kinds)
from .board import CENTRE
from .content import content
from .core import GameState, IllegalAction, run, seed_rng, shuffle

DEFAULTS = {
    "mode": "standard",
    "players": 4,
    "desperate": False,
    "five_card": False,
    "experienced": False,
    "locations": True,
    "door": None,  # None: the content's track (track.json) for the count or co-op level
    "coop_level": "normal",
    "lone_team": "demons",
}


def _teams(n: int, mode: str, lone: str) -> list[str]:
    if mode == "coop":
        return ["knights"] * n
    if n == 3:
        other = "knights" if lone == "demons" else "demons"
        return [lone, other, other]
    # KPC-5: with 5 players the team of 3 plays the demons.
    return ["demons" if i % 2 == 0 else "knights" for i in range(n)]


def new_game(settings: dict, seed: int) -> GameState:
    """A new game waiting for its first setup decision."""
    st = {**DEFAULTS, **settings}
    n, mode = st["players"], st["mode"]
    if mode not in ("standard", "coop") or not (
        (mode == "standard" and 2 <= n <= 6) or (mode == "coop" and 1 <= n <= 3)
    ):
        raise IllegalAction(f"{mode} mode cannot be played by {n} players")
    c = content()
    if st["coop_level"] not in c.coop_levels:
        raise IllegalAction(f"no co-op level {st['coop_level']!r}")
    coop_lv = c.coop_levels[st["coop_level"]] if mode == "coop" else None
    door = st["door"] or (coop_lv["door"] if coop_lv else c.doors[n])  # KEND-7: content
    state: GameState = {
        "version": 0,
        "rng": seed_rng(seed),
        "settings": st,
        "units": {},
        "next_id": 0,
        "players": [],
        "slots": [],
        "slot": 0,
        "round": 0,
        "turn_no": 0,
        "turn": {"unit": None, "seat": None, "magic": 0},
        "queue": [],
        "prompt": None,
        "prompt_seq": 0,
        "log": [],
        "result": None,
        "fx": {},
        "effects": [],
        "door": door,
        "supply": {  # KMIN-3: the standees are content (per count, or per co-op level)
            **steps.SUPPLY,
            **(
                c.supply[n]
                if coop_lv is None
                else {"stone_golem": coop_lv["golems"], "imp": coop_lv["imp_standees"]}
            ),
        },
    }
    others = [t for t in c.tiles if t != "seal"]
    shuffle(state, others)
    state["tiles"] = others[:4] + ["seal"] + others[4:]  # KSET-1
    level = mode == "coop" or st["experienced"]
    state["score"] = {"demons": 0, "knights": 0 if level else 1}  # KSET-2, KVAR-1, KCOOP-3
    decks: dict[str, list[str]] = {}
    for team in ("knights", "demons"):
        decks[team] = [
            f"{cid}#{i}"
            for cid, card in c.cards.items()
            if card["team"] == team
            for i in range(card.get("copies", 1))
        ]
        decks[f"chars_{team}"] = [cid for cid, ch in c.chars.items() if ch["team"] == team]
    decks["coop"] = list(c.coop)
    for d in decks.values():
        shuffle(state, d)
    state["decks"] = decks
    state["discards"] = {"knights": [], "demons": [], "coop": []}
    for i in range(8):  # KSET-3
        tile = i if i < CENTRE else i + 1
        state["units"][f"e{i}"] = {
            "id": f"e{i}",
            "type": "elder",
            "side": "knights",
            "tile": tile,
            "hp": 6,
            "max_hp": 6,
            "seat": None,
            "char": "",
            "seal": None,
        }
    teams = _teams(n, mode, st["lone_team"])
    for seat, team in enumerate(teams):
        state["players"].append({"seat": seat, "team": team, "hand": [], "slowed": None})
    for p in state["players"]:  # KSET-8
        turns.fill_hand(state, p["seat"])
    q = []
    for seat, team in enumerate(teams):
        mates = teams.count(team)
        two = (mode == "standard" and mates == 1) or (mode == "coop" and n == 1)
        q.append(
            {"k": "setup_chars", "seat": seat, "draw": 3 if two else 2, "keep": 2 if two else 1}
        )
    q.append({"k": "build_slots"})
    state["queue"] = q
    run(state)
    return state


def legal(state: GameState, seat: int) -> list[dict]:
    """The options `seat` may choose now (key, label, explanation, cost, rule)."""
    p = state["prompt"]
    if state["result"] is not None or p is None or p["seat"] != seat:
        return []
    return [
        {k: o[k] for k in ("key", "label", "explanation", "cost", "rule")} for o in p["options"]
    ]


def _copy(state: GameState) -> GameState:
    """A state to change: the position through a JSON round trip (plain data, many times faster
    than deepcopy), the log's entries shared (they are never changed once written), and no
    prompt (the one answered is replaced)."""
    rest = {k: v for k, v in state.items() if k not in ("log", "prompt")}
    new = orjson.loads(orjson.dumps(rest))
    new["log"] = list(state["log"])
    new["prompt"] = None
    return new


def act(state: GameState, seat: int, action: str) -> GameState:
    """Apply one legal option; IllegalAction (state untouched) otherwise."""
    if state["result"] is not None:
        raise IllegalAction("The game is over.")
    p = state["prompt"]
    if p is None or p["seat"] != seat:
        raise IllegalAction("It is not your decision now.")
    for o in p["options"]:
        if o["key"] == action:
            new = _copy(state)
            new["queue"][0:0] = orjson.loads(orjson.dumps(o["then"]))
            new["version"] += 1
            run(new)
            return new
    raise IllegalAction(f"{action!r} is not one of your options right now.")


def view(state: GameState, seat: int | None) -> dict:
    """What one seat (None: a spectator) may see: no other hand, deck order or seed."""
    v = copy.deepcopy(state)
    for k in ("rng", "queue", "fx"):
        v.pop(k, None)  # type: ignore[misc]
    v["decks"] = {k: len(d) for k, d in state["decks"].items()}  # type: ignore[typeddict-item]
    for p in v["players"]:
        if p["seat"] != seat:
            p["hand"] = len(p["hand"])  # type: ignore[typeddict-item]
            p["slowed"] = bool(p["slowed"])  # type: ignore[typeddict-item]
    v["log"] = [e for e in state["log"] if e["vis"] is None or e["vis"] == seat]
    if v["prompt"] is not None and v["prompt"]["seat"] != seat:
        v["prompt"] = {"seat": v["prompt"]["seat"], "kind": v["prompt"]["kind"]}  # type: ignore[typeddict-item]
    elif v["prompt"] is not None:
        for o in v["prompt"]["options"]:
            o.pop("then", None)  # type: ignore[misc]
    return dict(v)


def to_json(state: GameState) -> str:
    """The state as a document that loads back to the same state, down to the order of every
    mapping: the engine walks some of them (the units, for one) to list a decision's options,
    so a document with sorted keys gave a process that loaded it other options, in another
    order, than the process that kept the state it had made."""
    return orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS).decode()


def from_json(text: str) -> GameState:
    return orjson.loads(text)


def version(state: GameState) -> int:
    return state["version"]


def waiting_for(state: GameState) -> list[int]:
    p = state["prompt"]
    return [] if state["result"] is not None or p is None else [p["seat"]]


def result(state: GameState) -> dict | None:
    return state["result"]

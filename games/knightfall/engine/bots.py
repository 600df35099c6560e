"""Bots for every seat: a random legal bot and a heuristic one for both teams.

A bot is `bot(state, seat, options, rnd) -> key`: `options` is `legal(state, seat)`.

The heuristic bot never parses labels. It reads the structured facts the engine already keeps
for every option of the open prompt: the prompt's `kind` and each option's continuation (its
`then` steps: `{"k": "move", "unit": ..., "to": tile}`, `{"k": "hit", "target": ..., "n": ...}`,
the card played and its content steps), plus the board. It looks at nothing a player could not
see (no other hand, no deck order). Its plan, by team:

- demons go for elders (unguarded, low HEALTH first) and weak knights near them, push guards off
  elders, and kill knights when they can;
- knights stand guard where elders are threatened, defend allies with DEFENSE, kill demons when
  they can, heal, and block the hits that hurt.

Every choice is a score per option; ties break at random with the bot's own generator, so the
same seed plays the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .board import at, distance, guarded, neighbours, on_board
from .content import content
from .core import GameState, Unit

Bot = Callable[[GameState, int, list[dict], random.Random], str]


def random_bot(state: GameState, seat: int, options: list[dict], rnd: random.Random) -> str:
    """Any legal option, uniformly."""
    return rnd.choice(options)["key"]


# ---- reading the position ---------------------------------------------------------------------
def _units(state: GameState) -> list[Unit]:
    return on_board(state)


def _foes(state: GameState, side: str) -> list[Unit]:
    return [u for u in _units(state) if u["side"] != side]


def _worth(state: GameState, me: Unit, t: Unit) -> float:
    """How much `me`'s side wants to damage `t` (per point of damage)."""
    typ = t["type"]
    if me["side"] == "demons":
        if typ == "elder":
            return 0.5 if guarded(state, t) else 4.0 + (6 - t["hp"]) * 0.5
        if typ == "knight":
            return 2.5 + (t.get("max_hp", 6) - t["hp"]) * 0.3
        return 1.0  # golems
    if typ == "demon":
        return 3.0 + (t.get("max_hp", 6) - t["hp"]) * 0.3
    if typ == "imp":
        near_elder = any(
            e["type"] == "elder" and distance(e["tile"], t["tile"]) <= 1  # type: ignore[arg-type]
            for e in _units(state)
        )
        return 2.0 if near_elder else 1.2
    return 1.0  # bone crawlers


def _kill_bonus(state: GameState, me: Unit, t: Unit, n: int) -> float:
    if n < t["hp"]:
        return 0.0
    if t["type"] == "elder":
        return 12.0  # 2 points for the demons
    if t["type"] in ("knight", "demon"):
        return 8.0  # 1 point, and a lost turn for the other side
    return 1.5


def _hit_value(state: GameState, me: Unit, t: Unit, n: int) -> float:
    shield = min(t.get("defense", 0), n) if t["type"] == "knight" else 0
    dealt = max(0, n - shield)
    return _worth(state, me, t) * min(dealt, t["hp"]) + _kill_bonus(state, me, t, dealt)


def _reach(me: Unit, t: Unit, reach: str) -> bool:
    d = distance(me["tile"], t["tile"])  # type: ignore[arg-type]
    return {"close": d == 0, "adjacent": d == 1, "near": d <= 1}.get(reach, d == 0)


def _attackable(state: GameState, me: Unit, reach: str) -> list[Unit]:
    if me["tile"] is None:
        return []
    return [
        t
        for t in _foes(state, me["side"])
        if _reach(me, t, reach) and not (t["type"] == "elder" and guarded(state, t))
    ]


# Facts computed once per decision (the board does not change while the bot scores options).
_MEMO: dict[tuple, float | int] = {}


def _tile_value(state: GameState, me: Unit, tile: int) -> float:
    """How good a tile is for `me` to stand on this turn (its team's plan)."""
    key = ("tv", me["id"], me["tile"], me["hp"], tile)
    if key not in _MEMO:
        _MEMO[key] = _tile_value_raw(state, me, tile)
    return _MEMO[key]


def _tile_value_raw(state: GameState, me: Unit, tile: int) -> float:
    here = at(state, tile)
    v = 0.0
    if me["side"] == "demons":
        for u in here:
            if u["type"] == "elder":
                v += 0.8 if guarded(state, u) else 5.0 + (6 - u["hp"])
            elif u["type"] == "knight":
                v += 1.5 + (u["max_hp"] - u["hp"]) * 0.4 - u.get("defense", 0) * 0.3
            elif u["side"] == "knights":
                v -= 0.3  # golems get in the way
        return v
    # Knights: guard threatened elders, stand with demons to kill them.
    threat: dict[int, float] = {}
    for d in _foes(state, "knights"):
        w = 2.0 if d["type"] == "demon" else 1.0
        for t in [d["tile"], *neighbours(d["tile"])]:  # type: ignore[arg-type]
            threat[t] = threat.get(t, 0.0) + (w if t != d["tile"] else w * 1.5)
    others = [k for k in here if k["type"] == "knight" and k["id"] != me["id"]]
    elders = [u for u in here if u["type"] == "elder"]
    if elders and not others:
        v += sum(1.0 + (6 - e["hp"]) * 0.4 for e in elders) * (0.5 + threat.get(tile, 0.0))
    for d in here:
        if d["side"] == "demons":
            v += (2.5 if d["type"] == "demon" else 1.0) + (d["max_hp"] - d["hp"]) * 0.5
    if me["hp"] <= 2:
        v -= sum(1 for d in here if d["side"] == "demons") * 1.5
    return v


def _goal(state: GameState, me: Unit) -> int:
    """The tile `me` is heading for: the best value within a short walk."""
    key = ("goal", me["id"], me["tile"], me["hp"])
    if key not in _MEMO:
        _MEMO[key] = _goal_raw(state, me)
    return int(_MEMO[key])


def _goal_raw(state: GameState, me: Unit) -> int:
    best, best_v = me["tile"], -1e9
    for tile in range(9):
        v = _tile_value(state, me, tile) - 1.6 * distance(me["tile"], tile)  # type: ignore[arg-type]
        if tile == me["tile"]:
            v += 0.5  # staying costs nothing
        if v > best_v:
            best, best_v = tile, v
    return best  # type: ignore[return-value]


def _engaged(state: GameState, u: Unit) -> int:
    return sum(1 for e in at(state, u["tile"]) if e["side"] != u["side"] and e["type"] != "elder")  # type: ignore[arg-type]


def _move_value(state: GameState, me: Unit, to: int, own: bool = True) -> float:
    goal = _goal(state, me)
    before = distance(me["tile"], goal)  # type: ignore[arg-type]
    after = distance(to, goal)
    v = (before - after) * 2.0 + (
        _tile_value(state, me, to) - _tile_value(state, me, me["tile"])
    ) * 0.2  # type: ignore[arg-type]
    if own:
        cost = _engaged(state, me)
        v -= cost * (1.5 if me["hp"] > cost else 10.0)
    return v


# ---- the value of steps (cards, symbols, abilities) -------------------------------------------
def _action_value(state: GameState, me: Unit, a: str) -> float:
    if a == "melee":
        return _best_attack(state, me, 1, "close")
    if a == "ranged":
        return _best_attack(state, me, 1, "adjacent")
    if a == "move":
        return max([0.0] + [_move_value(state, me, t) for t in neighbours(me["tile"])])  # type: ignore[arg-type]
    if a == "heal":
        return _heal_value(state, me, 1, "close")
    if a == "defend":
        room = me.get("max_def", 0) - me.get("defense", 0)
        return 0.0 if room <= 0 else 1.2 + (0.6 if me.get("defense", 0) == 0 else 0.0)
    if a == "magic":
        half = state["turn"].get("magic", 0) % 2
        return _magic_value(state, me) * (1.0 if half else 0.45)
    if a == "command":
        imps = [
            u
            for u in _units(state)
            if u["type"] == "imp" and distance(u["tile"], me["tile"]) <= 1  # type: ignore[arg-type]
        ]
        return max([0.0] + [max(_best_attack(state, i, 1, "close"), 0.8) for i in imps])
    return 0.0


def _best_attack(state: GameState, me: Unit, n: int, reach: str) -> float:
    return max([0.0] + [_hit_value(state, me, t, n) for t in _attackable(state, me, reach)])


def _heal_value(state: GameState, me: Unit, n: int, reach: str) -> float:
    cands = [me]
    if reach == "close":
        cands += [u for u in at(state, me["tile"]) if u["side"] == me["side"] and u is not me]  # type: ignore[arg-type]
    best = 0.0
    for u in cands:
        gain = min(n, u["max_hp"] - u["hp"])
        if gain <= 0:
            continue
        w = 2.0 if u["type"] in ("knight", "demon", "elder") else 0.6
        urgency = 1.0 + max(0, 4 - u["hp"]) * 0.5
        best = max(best, gain * w * urgency)
    return best


def _magic_value(state: GameState, me: Unit, depth: int = 0) -> float:
    c = content().chars.get(me.get("char", ""))
    if not c or depth > 1:
        return 0.0
    return _steps_value(state, me, c["magic"]["steps"], depth)


def _steps_value(state: GameState, me: Unit, steps: list[dict], depth: int = 0) -> float:
    v = 0.0
    for s in steps:
        k = s["k"]
        if k == "attack":
            v += _best_attack(state, me, s["n"], s["reach"]) + (0.8 if s.get("slow") else 0.0)
        elif k == "attack_all":
            if s["reach"] == "close":
                foes = _attackable(state, me, "close")
                foes += [
                    e
                    for e in at(state, me["tile"])  # type: ignore[arg-type]
                    if e["type"] == "elder" and e["side"] != me["side"] and guarded(state, e)
                ]
                v += sum(_hit_value(state, me, t, s["n"]) for t in foes)
            else:
                v += max(
                    [0.0]
                    + [
                        sum(
                            _hit_value(state, me, t, s["n"])
                            for t in at(state, tile)
                            if t["side"] != me["side"]
                        )
                        for tile in neighbours(me["tile"])  # type: ignore[arg-type]
                    ]
                )
        elif k == "heal":
            v += _heal_value(state, me, s["n"], s["reach"])
        elif k == "gain_defense":
            room = me.get("max_def", 0) - me.get("defense", 0)
            v += min(room, s["n"]) * 1.2
        elif k == "gain_magic":
            have = state["turn"].get("magic", 0) % 2
            v += _magic_value(state, me, depth + 1) * ((have + s["n"]) // 2)
        elif k == "spawn":
            v += 2.0 if state["supply"].get(s["minion"], 0) > 0 else 0.0
        elif k == "step":
            v += max(
                [0.0]
                + [_move_value(state, me, t, not s.get("free")) for t in neighbours(me["tile"])]
            )  # type: ignore[arg-type]
            v += 0.3 * (s["n"] - 1)
        elif k == "push":
            v += max(
                [0.0]
                + [
                    _push_value(state, me, t)
                    for t in _foes(state, me["side"])
                    if _reach(me, t, s["reach"]) and t["type"] != "elder"
                ]
            )
    return v


def _push_value(state: GameState, me: Unit, t: Unit) -> float:
    """Pushing an enemy away: demons unguard elders; knights drive demons off elders."""
    elders_here = [e for e in at(state, t["tile"]) if e["type"] == "elder"]  # type: ignore[arg-type]
    if me["side"] == "demons" and t["type"] == "knight":
        others = [k for k in at(state, t["tile"]) if k["type"] == "knight" and k is not t]  # type: ignore[arg-type]
        return 3.0 * len(elders_here) if not others else 0.3
    if me["side"] == "knights" and t["side"] == "demons":
        return 1.5 * len(elders_here)
    return 0.1


def _card_steps(cid: str) -> list[dict]:
    return content().cards[cid.split("#")[0]]["steps"]


# ---- choosing -----------------------------------------------------------------------------------
def _full(state: GameState, key: str) -> dict:
    for o in state["prompt"]["options"]:  # type: ignore[index]
        if o["key"] == key:
            return o  # type: ignore[return-value]
    return {"key": key, "then": []}


def _first(then: list[dict], k: str) -> dict | None:
    for s in then:
        if s.get("k") == k:
            return s
    return None


def _active(state: GameState) -> Unit | None:
    uid = state["turn"].get("unit")
    u = state["units"].get(uid or "")
    return u if u is not None and u["tile"] is not None else None


def _score_turn(state: GameState, me: Unit, key: str, then: list[dict]) -> float:
    """A card-menu option: a primary, symbols, a minor action, the basic card, a discard."""
    used = _first(then, "used")
    cid = used["card"] if used else ""
    if key.startswith("discard:"):
        return 0.0
    if key.startswith("orb:"):
        return _magic_value(state, me) - 1.0
    if key.startswith("basic:") or key.startswith("minor:"):
        act = _first(then, "action")
        return _action_value(state, me, act["a"]) if act else 0.0
    if key.startswith("secondary:"):
        sym = _first(then, "symbols")
        vals = sorted(
            (_action_value(state, me, a) for a in (sym or {}).get("left", [])), reverse=True
        )
        # The second action is valued less: the board changes after the first.
        return sum(v * (1.0 if i == 0 else 0.7) for i, v in enumerate(vals)) - 0.05
    if key.startswith("primary:"):
        card = content().cards[cid.split("#")[0]]
        if card.get("seal"):
            return 0.4 if me.get("seal") else 2.2
        return _steps_value(state, me, card["steps"]) + 0.05
    return 0.0


def _score(state: GameState, seat: int, kind: str, o: dict) -> float:
    key, then = o["key"], o.get("then", [])
    me = _active(state)
    if kind == "turn" and me is not None:
        return _score_turn(state, me, key, then)
    if kind == "symbols" and me is not None:
        if key == "sym:stop":
            return 0.1
        act = _first(then, "action")
        return _action_value(state, me, act["a"]) if act else 0.0
    if kind == "target":
        if key == "forgo":
            return 0.0
        nxt = then[0] if then else {}
        src = state["units"].get(nxt.get("src", "")) or me
        t = state["units"].get(nxt.get("target", ""))
        if src is None or t is None:
            return 0.5
        if nxt.get("k") == "push":
            return _push_value(state, src, t) + 0.05
        return _hit_value(state, src, t, nxt.get("n", 1)) + 0.05
    if kind in ("move",):
        if key == "stay":
            return 0.0
        mv = _first(then, "move")
        u = state["units"].get(mv["unit"]) if mv else None
        if u is None or mv is None:
            return 0.0
        return _move_value(state, u, mv["to"], mv.get("own", True))
    if kind == "push":
        mv = _first(then, "move")
        if mv is None:
            return 0.0
        me2 = me or {"side": state["players"][seat]["team"]}
        # Send the enemy away from the elders (demons: away from the elder it guards).
        eld = sum(1 for e in at(state, mv["to"]) if e["type"] == "elder")
        return -eld if me2["side"] == "demons" else eld * 0.5
    if kind == "tile":
        s = then[0] if then else {}
        src = state["units"].get(s.get("src", "")) or me
        if src is None:
            return 0.0
        return sum(
            _hit_value(state, src, t, s.get("n", 1))
            for t in at(state, s.get("tile", 0))
            if t["side"] != src["side"]
        )
    if kind == "heal":
        r = _first(then, "restore")
        u = state["units"].get(r["unit"]) if r else None
        if u is None:
            return 0.0
        return (2.0 if u["type"] in ("knight", "elder") else 0.5) * (u["max_hp"] - u["hp"]) + (
            3.0 if u["hp"] <= 2 else 0.0
        )
    if kind == "block":
        hit = then[0] if then else {}
        t = state["units"].get(hit.get("target", ""))
        b = hit.get("spent", 0)
        if t is None:
            return 0.0
        left = t["hp"] - hit.get("n", 0)
        if left <= 0:
            return 100.0 - b  # survive with the smallest block that saves the knight
        return b * (1.5 if t["hp"] <= 3 else 0.9) - (0.3 * b if hit.get("n", 0) > 0 else 0.0)
    if kind == "defend":
        if key == "pass":
            return 0.5
        mv = _first(then, "defend_move")
        hit = _first(then, "hit")
        if mv is None or hit is None:
            return 0.0
        k = state["units"].get(mv["knight"])
        ally = state["units"].get(mv["ally"])
        if k is None or ally is None:
            return 0.0
        taken = hit["n"]
        if k["hp"] - taken <= 1:
            return -5.0
        worth = {"elder": 4.0, "knight": 2.0}.get(ally["type"], 0.3)
        if ally["hp"] <= mv["spent"] + taken:
            worth += 4.0  # it would have died
        # moving in leaves the knight's own elders unguarded
        leaves = k["tile"] != ally["tile"] and any(
            e["type"] == "elder"
            for e in at(state, k["tile"])  # type: ignore[arg-type]
        )
        return worth - (2.5 if leaves else 0.0) - mv["spent"] * 0.6 - taken * 0.8
    if kind == "guard":
        hit = then[0] if then else {}
        k = state["units"].get(hit.get("target", ""))
        return 0.0 if k is None else k["hp"] + k.get("defense", 0)
    if kind == "frost":  # KMAGIC-6: frost blocks 1 damage each, like the co-op AI's ice block
        hit = then[0] if then else {}
        return float(hit.get("ice_spent", 0))
    if kind == "bound":  # KMAGIC-7: an imp close by takes the hit in its master's place
        hit = _first(then, "hit") or {}
        imp = state["units"].get(hit.get("target", "")) if key != "bound:none" else None
        return 0.0 if imp is None else 1.0 + imp["hp"]
    if kind == "retribution":  # KMAGIC-8: a free strike back
        hit = _first(then, "hit")
        src = state["units"].get(hit["src"]) if hit else None
        t = state["units"].get(hit["target"]) if hit else None
        if src is None or t is None or hit is None:
            return 0.0
        return _hit_value(state, src, t, hit["n"]) + 0.05
    if kind == "gaze":  # KCOOP-15 / the stare: slow a knight, or 1 damage to a golem
        if key == "forgo":
            return 0.0
        first = then[0] if then else {}
        t = state["units"].get(first.get("target", ""))
        if t is None:
            return 0.0
        harm = (
            2.0 + (t["max_hp"] - t["hp"]) * 0.1
            if first.get("k") == "slow"
            else 1.0 + (1.0 if t["hp"] <= 1 else 0.0)
        )
        # In co-op the knights' players choose for the AI's demon (KCOOP-15): the least harm.
        return harm if state["players"][seat]["team"] == "demons" else -harm
    if kind == "minion":
        return _score_minion(state, key, then)
    if kind == "command":
        act = _first(then, "action")
        imp = state["units"].get(act["src"]) if act else None
        if imp is None or act is None:
            return 0.0
        if act["a"] == "melee":
            return _best_attack(state, imp, 1, "close")
        return (
            max([0.0] + [_move_value(state, imp, t) for t in neighbours(imp["tile"])]) * 0.5 + 0.2
        )  # type: ignore[arg-type]
    if kind == "characters":
        chars = (_first(then, "kept") or {}).get("chars", [])
        return sum(_char_value(c) for c in chars[:1]) * 1.01 + sum(
            _char_value(c) for c in chars[1:]
        )
    if kind in ("place", "golem"):
        sp = _first(then, "put") or _first(then, "spawn") or {}
        tile = sp.get("tile", 0)
        side = "knights"
        dummy: Unit = {
            "id": "?",
            "type": "knight",
            "side": side,
            "tile": tile,
            "hp": 6,
            "max_hp": 6,
        }
        taken = sum(1 for u in at(state, tile) if u["side"] == "knights" and u["type"] != "elder")
        return _tile_value(state, dummy, tile) - taken * 0.5
    if kind == "imp":
        sp = _first(then, "spawn") or {}
        tile = sp.get("tile", 0)
        return sum(1 for u in at(state, tile) if u["type"] == "elder") - sum(
            1 for u in at(state, tile) if u["type"] == "knight"
        )
    return 0.0


def _char_value(cid: str) -> float:
    c = content().chars[cid]
    return c["max_health"] + c.get("max_defense", 0) * 0.5 + c.get("defense", 0) * 0.5


def _score_minion(state: GameState, key: str, then: list[dict]) -> float:
    parts = key.split(":")
    m = state["units"].get(parts[1]) if len(parts) > 1 else None
    if m is None:
        return 0.0
    first = then[0] if then else {}
    k = first.get("k")
    if k == "hit":
        t = state["units"].get(first["target"])
        return 0.0 if t is None else _hit_value(state, m, t, 1) + 1.0
    if k == "restore":
        return 1.5
    if k == "move":
        to = first["to"]
        cost = _engaged(state, m)
        return _minion_move(state, m, to) - cost * 2.0
    return 0.2  # wait


def _minion_move(state: GameState, m: Unit, to: int) -> float:
    """Imps go for elders and knights; golems go to threatened elders and demons."""

    def value(tile: int) -> float:
        if m["side"] == "demons":
            return sum(
                (4.0 if (u["type"] == "elder" and not guarded(state, u)) else 1.0)
                for u in at(state, tile)
                if u["side"] == "knights" and u["type"] in ("elder", "knight")
            )
        return sum(
            2.0 if u["type"] == "demon" else 1.0 for u in at(state, tile) if u["side"] == "demons"
        ) + 0.5 * sum(1 for u in at(state, tile) if u["type"] == "elder")

    def best_from(tile: int) -> float:
        return max(value(t) - distance(tile, t) * 0.9 for t in range(9))

    return best_from(to) - best_from(m["tile"]) - 0.1  # type: ignore[arg-type]


def heuristic_bot(state: GameState, seat: int, options: list[dict], rnd: random.Random) -> str:
    """The best-scoring legal option for the seat's team plan (ties broken at random)."""
    p = state.get("prompt")
    kind = p["kind"] if p else ""
    _MEMO.clear()
    best: list[str] = []
    best_v = -1e18
    for o in options:
        v = _score(state, seat, kind, _full(state, o["key"]))
        if v > best_v + 1e-9:
            best, best_v = [o["key"]], v
        elif abs(v - best_v) <= 1e-9:
            best.append(o["key"])
    return rnd.choice(best) if best else rnd.choice(options)["key"]


BOTS: dict[str, Bot] = {"heuristic": heuristic_bot, "random": random_bot}

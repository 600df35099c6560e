"""Actions, card steps, damage, defense reactions, engagement and death (the interpreter's kinds).

Card step kinds (usable in content, params declared): attack, attack_all, heal, gain_defense,
gain_magic, spawn, step, push. Engine-only kinds: action, hit, kill, move, restore, choose.
"""

from __future__ import annotations

from .board import (
    CENTRE,
    CORNERS,
    at,
    bank,
    banks,
    distance,
    entry_banks,
    exits,
    guarded,
    name,
    neighbours,
    on_board,
    same_side,
    sewer,
    tile_name,
)
from .content import content
from .core import GameState, Unit, ask, event, log, option, push, step
from .powers import flag, traits

SUPPLY = {"imp": 6, "stone_golem": 7, "bone_crawler": 4, "ice_golem": 3, "slag_golem": 3}
MINION_HP = {"imp": 2, "stone_golem": 2, "bone_crawler": 1, "ice_golem": 2, "slag_golem": 2}

event("damage", "{who} takes {n} damage{why}.")
event("blocked", "{who} spends {n} DEFENSE to block.")
event("defends", "{who} leaps to defend {ally}, spending {n} DEFENSE.")
event("killed", "{who} is killed.")
event("score", "The {team} score {n} ({why}); they now stand at {total}.")
event("won", "The {team} reach the door and win: {why}.")
event("moved", "{who} moves to the {tile}.")
event("healed", "{who} regains {n} HEALTH.")
event("defense", "{who} gains {n} DEFENSE.")
event(
    "magic",
    lambda e: f"{e['who']} gains {e['n']} magic symbol{'' if e['n'] == 1 else 's'}.",
)
event("ability", "{who} uses its magic ability, {ability}.")
event(
    "spawned",
    lambda e: (
        f"{'An' if str(e['kind'])[:1].lower() in 'aeiou' else 'A'} {e['kind']} appears"
        f" on the {e['tile']}."
    ),
)
event("no_supply", "No {kind} is left in the supply.")
event("no_target", "{who} has no target for {what}.")
event("slowed", "{who} is slowed.")
event("enters", "{who} enters play on the {tile}.")
event("crosses", "{who} crosses the water to the {bank} bank.")
event("frost", "{who} spends {n} frost to block.")
event("frost_gain", "{who} gains {n} frost.")
event("bound", "{who} sends the damage to {imp}.")
event("halo", "Embers ring the {tile}.")
event("halo_out", "The embers on the {tile} die down.")
event("retribution", "{who} strikes back at {target}.")
event("portal", "{who} opens a portal on the {tile}.")
event("portal_closed", "The portal on the {tile} closes.")
event("portal_there", "A portal already stands on the {tile}.")
event("through_portal", "{who} steps through the portal to the {tile}.")

PORTALS_KEPT = 2  # KDEATH-7 content: the Veil Strider keeps at most 2 portals open


def portals(state: GameState) -> list[int]:
    """The tiles holding a portal, oldest first (they outlast their maker, KDEATH-7)."""
    return [e["tile"] for e in state.get("effects", []) if e["kind"] == "portal"]


def place(state: GameState, u: Unit, tile: int | None, side: str | None = None) -> None:
    """Put a unit on a tile; on the sewer it stands on bank `side` (default: the first)."""
    u["tile"] = tile
    u.pop("bank", None)  # type: ignore[misc]
    if side is not None and tile is not None and tile == sewer(state):
        u["bank"] = side  # type: ignore[typeddict-unknown-key]


def move_choices(state: GameState, u: Unit) -> list[tuple[str, str, dict]]:
    """(key, label, move fields) for a unit's own move (KACT-4, KLOC-2, KLOC-5..7)."""
    out: list[tuple[str, str, dict]] = []
    here = u["tile"]
    if here is None:
        return out
    sw = sewer(state)
    for t in exits(state, u):
        landing = entry_banks(state, here, t) if t == sw else []
        if len(landing) > 1:
            for b in landing:
                label = f"Move to the {tile_name(state, t)}, {b} bank"
                out.append((f"{t}:{b}", label, {"to": t, "bank": b}))
        else:
            extra = {"bank": landing[0]} if landing else {}
            out.append((f"{t}", f"Move to the {tile_name(state, t)}", {"to": t, **extra}))
    if here == sw:
        for b in banks(state):
            if b != bank(state, u):
                label = f"Cross the water to the {b} bank"
                out.append((f"{here}:{b}", label, {"to": here, "bank": b}))
    mine = [  # the portals of this knight's slot: the Veil Strider's, then its replacement's
        e["tile"]
        for e in state.get("effects", [])
        if e["kind"] == "portal" and u["type"] == "knight" and e["slot"] == u.get("slot")
    ]
    if here in mine:  # a step from one of them to the other
        for t in mine:
            if t != here:
                extra = {"bank": next(iter(banks(state)))} if t == sw else {}
                label = f"Step through the portal to the {tile_name(state, t)}"
                out.append((f"portal:{t}", label, {"to": t, "portal": True, **extra}))
    return out


def clear_halos(state: GameState, slot: int) -> None:
    """KMAGIC-5, KDEATH-7: a slot's embers go out when its next turn starts or a new one enters."""
    keep = []
    for e in state.get("effects", []):
        if e["kind"] == "halo" and e["slot"] == slot:
            log(state, "halo_out", tile=tile_name(state, e["tile"]))
        else:
            keep.append(e)
    state["effects"] = keep  # type: ignore[typeddict-unknown-key]


def unit(state: GameState, uid: str) -> Unit | None:
    u = state["units"].get(uid)
    return u if u is not None and u["tile"] is not None else None


def controller(state: GameState, u: Unit) -> int | None:
    """The seat deciding for a unit (KMIN-2); None means the co-op AI decides."""
    if u["type"] in ("knight", "demon"):
        return u["seat"]
    if u.get("owner_seat") is not None:
        return u["owner_seat"]
    return captain(state, u["side"])


def captain(state: GameState, team: str) -> int | None:
    """The seat that answers team decisions (the first player of the team); None: the AI."""
    for p in state["players"]:
        if p["team"] == team:
            return p["seat"]
    return None


def add_score(state: GameState, team: str, n: int, why: str) -> None:
    """KEND-4/5/6/7: points one at a time; the first marker at the door wins at once."""
    for _ in range(n):
        if state["result"] is not None:
            return
        state["score"][team] += 1
        log(state, "score", team=team, n=1, why=why, total=state["score"][team])
        if state["score"][team] >= state["door"]:
            state["result"] = {"winner": team, "reason": why, "round": state["round"]}
            log(state, "won", team=team, why=why)
            state["queue"].clear()
            state["prompt"] = None


def targets(state: GameState, src: Unit, reach: str, any_elder: bool = False) -> list[Unit]:
    """Enemies in reach (KACT-2/3); guarded elders cannot be chosen (KDEF-3)."""
    out = []
    for u in on_board(state):
        if u["side"] == src["side"] or src["tile"] is None:
            continue
        d = distance(src["tile"], u["tile"])  # type: ignore[arg-type]
        # KLOC-5/6: on the sewer, melee reaches one bank and ranged reaches across the water.
        split = d == 0 and not same_side(state, src, u)
        ok = {"close": d == 0 and not split, "adjacent": d == 1 or split, "near": d <= 1}[reach]
        if ok and (any_elder or not guarded(state, u)):
            out.append(u)
    return out


def choose(
    state: GameState, src: Unit, cands: list[Unit], then: dict, what: str, rule: str
) -> None:
    """Let the source's controller pick one of `cands` (the AI picks by the hierarchy)."""
    if not cands:
        log(state, "no_target", who=name(state, src), what=what)
        return
    seat = controller(state, src)
    if seat is None:
        from .coop import pick

        t = pick(state, src, cands, what)
        push(state, {**then, "target": t["id"]})
        return
    opts = [
        option(
            f"target:{t['id']}",
            f"{what}: {name(state, t)} on the {tile_name(state, t['tile'])}",
            [{**then, "target": t["id"]}],
            f"{name(state, t)} has {t['hp']} HEALTH.",
            rule=rule,
        )
        for t in cands
    ]
    opts.append(option("forgo", f"Forgo {what}", [], "Give up this effect.", rule="KCARD-4"))
    ask(state, seat, "target", f"Choose a target for {what}", opts)


# ---- card steps ------------------------------------------------------------------------------
@step("attack", card=True, params={"n": int, "reach": str})
def _attack(state: GameState, s: dict) -> None:
    src = unit(state, s["src"])
    if src is None:
        return
    hit = {"k": "hit", "n": s["n"], "attack": True, "slow": s.get("slow", False), "src": src["id"]}
    choose(state, src, targets(state, src, s["reach"]), hit, "an attack", s.get("rule", "KACT-8"))


@step("attack_all", card=True, params={"n": int, "reach": str})
def _attack_all(state: GameState, s: dict) -> None:
    src = unit(state, s["src"])
    if src is None:
        return
    if s["reach"] == "close" or "tile" in s:
        tile = s.get("tile", src["tile"])
        foes = [u for u in at(state, tile) if u["side"] != src["side"]]
        if "tile" not in s:  # KLOC-5: 'close' stops at the water
            foes = [u for u in foes if same_side(state, src, u)]
        # KDEF-6: knights first, then elders, then the rest; guarded elders are hit too (KDEF-5).
        order = {"knight": 0, "elder": 1}
        foes.sort(key=lambda u: (order.get(u["type"], 2), u["id"]))
        hits = [
            {
                "k": "hit",
                "target": u["id"],
                "n": s["n"],
                "attack": True,
                "all": True,
                "src": src["id"],
                "slow": s.get("slow", False),
            }
            for u in foes
        ]
        push(state, *hits)
        return
    tiles = neighbours(src["tile"])  # type: ignore[arg-type]
    seat = controller(state, src)
    if seat is None:
        from .coop import pick_tile

        push(state, {**s, "tile": pick_tile(state, src, tiles)})
        return
    opts = [
        option(
            f"tile:{t}",
            f"Strike the {tile_name(state, t)}",
            [{**s, "tile": t}],
            f"{sum(1 for u in at(state, t) if u['side'] != src['side'])} enemies there.",
            rule="KDEF-5",
        )
        for t in tiles
    ]
    ask(state, seat, "tile", "Choose the tile to strike", opts)


@step("heal", card=True, params={"n": int, "reach": str})
def _heal(state: GameState, s: dict) -> None:
    src = unit(state, s["src"])
    if src is None:
        return
    cands = [src] + (
        [
            u
            for u in at(state, src["tile"])
            if u["side"] == src["side"] and u is not src and same_side(state, src, u)
        ]
        if s["reach"] == "close"
        else []
    )
    cands = [u for u in cands if u["hp"] < u["max_hp"]]
    if not cands:
        log(state, "no_target", who=name(state, src), what="a heal")
        return
    then = {"k": "restore", "n": s["n"]}
    seat = controller(state, src)
    if seat is None or len(cands) == 1:
        push(state, {**then, "unit": cands[0]["id"]})
        return
    ask(
        state,
        seat,
        "heal",
        "Who regains HEALTH?",
        [
            option(
                f"heal:{u['id']}",
                f"Heal {name(state, u)}",
                [{**then, "unit": u["id"]}],
                f"{u['hp']}/{u['max_hp']} HEALTH.",
                rule="KACT-5",
            )
            for u in cands
        ],
    )


@step("gain_defense", card=True, params={"n": int})
def _gain_defense(state: GameState, s: dict) -> None:
    src = unit(state, s["src"])
    if src is None or src["type"] != "knight":
        return
    before = src["defense"]
    src["defense"] = min(src["max_def"], src["defense"] + s["n"])  # KACT-6
    log(state, "defense", who=name(state, src), n=src["defense"] - before)


@step("gain_magic", card=True, params={"n": int})
def _gain_magic(state: GameState, s: dict) -> None:
    """KMAGIC-2/3: every completed pair of symbols is one use of the ability, at once."""
    src = unit(state, s["src"])
    if src is None or src["id"] != state["turn"].get("unit"):
        return
    state["turn"]["magic"] += s["n"]
    log(state, "magic", who=name(state, src), n=s["n"])
    uses = state["turn"]["magic"] // 2
    state["turn"]["magic"] %= 2
    c = content().chars[src["char"]]
    for _ in range(uses):
        log(state, "ability", who=name(state, src), ability=c["magic"]["name"])
    push(
        state,
        *[
            {**x, "src": src["id"], "rule": "KMAGIC-2"}
            for _ in range(uses)
            for x in c["magic"]["steps"]
        ],
    )


@step("spawn", card=True, params={"minion": str, "where": str})
def _spawn(state: GameState, s: dict) -> None:
    kind = s["minion"]
    src = state["units"].get(s.get("src", ""))
    if state["supply"][kind] <= 0:  # KMIN-3
        log(state, "no_supply", kind=kind.replace("_", " "))
        return
    tile = CENTRE if s["where"] == "seal" or src is None else src["tile"]
    if s["where"] == "corner":
        tile = s.get("tile", CORNERS[0])
    if tile is None:
        return
    landing = bank(state, src) if src is not None and src["tile"] == tile else None
    state["supply"][kind] -= 1
    state["next_id"] += 1
    uid = f"m{state['next_id']}"
    side = "knights" if kind.endswith("golem") else "demons"
    taken = {m.get("n") for m in state["units"].values() if m["type"] == kind}
    u: Unit = {
        "id": uid,
        "type": kind,
        "side": side,
        "tile": tile,
        "hp": MINION_HP[kind],
        "max_hp": MINION_HP[kind],
        "seat": None,
        "char": "",
        "seal": None,
        "n": next(i for i in range(1, len(taken) + 2) if i not in taken),  # its standee's number
    }
    if kind in ("ice_golem", "slag_golem", "bone_crawler") and src is not None:
        u["owner_seat"] = src["seat"]  # type: ignore[typeddict-unknown-key]
        u["owner_slot"] = src["slot"]  # type: ignore[typeddict-unknown-key]
        u["owner"] = src["id"]  # type: ignore[typeddict-unknown-key]
    state["units"][uid] = u
    place(state, u, tile, landing)
    log(state, "spawned", kind=kind.replace("_", " "), tile=tile_name(state, tile))


@step("step", card=True, params={"n": int})
def _step(state: GameState, s: dict) -> None:
    """Move the source up to n tiles, one move at a time (KACT-4)."""
    if s["n"] <= 0:
        return
    src = unit(state, s["src"])
    if src is None:
        return
    seat = controller(state, src)
    own = not s.get("free", False)
    rest = {**s, "n": s["n"] - 1}
    if seat is None:
        from .coop import step_toward

        push(
            state,
            {"k": "move", "unit": src["id"], "to": step_toward(state, src, set()), "own": own},
            rest,
        )
        return
    opts = [
        option(
            f"move:{key}",
            label,
            [{"k": "move", "unit": src["id"], "own": own, **fields}, rest],
            _engage_text(state, src, own)
            + (" A portal: one step to the other portal's tile." if fields.get("portal") else ""),
            rule="KDEATH-7"
            if fields.get("portal")
            else ("KLOC-5" if fields["to"] == sewer(state) else "KACT-4"),
        )
        for key, label, fields in move_choices(state, src)
    ]
    opts.append(option("stay", "Stay put", [], "Give up the remaining movement.", rule="KCARD-4"))
    ask(state, seat, "move", f"Move {name(state, src)}", opts)


def _engage_text(state: GameState, u: Unit, own: bool) -> str:
    n = _engaged(state, u)
    if own and n and not flag(state, u, "no_disengage"):
        return f"Leaving costs {n} disengagement damage."
    return "No disengagement damage."


def _engaged(state: GameState, u: Unit) -> int:
    """KENG-1/2: enemies (elders never count) on the mover's tile."""
    if u["type"] == "elder":
        return 0
    return sum(
        1
        for e in at(state, u["tile"])
        if e["side"] != u["side"] and e["type"] != "elder" and same_side(state, u, e)
    )  # KLOC-7: on the sewer only the mover's bank counts


@step("push", card=True, params={"reach": str})
def _push(state: GameState, s: dict) -> None:
    """Move an enemy in reach to a tile adjacent to it; not its own move (KENG-4)."""
    src = unit(state, s["src"])
    if src is None:
        return
    if "target" not in s:
        cands = [u for u in targets(state, src, s["reach"], any_elder=True) if u["type"] != "elder"]
        choose(state, src, cands, {**s}, "a push", "KENG-4")
        return
    t = unit(state, s["target"])
    if t is None:
        return
    dests = neighbours(t["tile"])  # type: ignore[arg-type]
    seat = controller(state, src)
    if seat is None:
        push(state, {"k": "move", "unit": t["id"], "to": dests[0], "own": False})
        return
    ask(
        state,
        seat,
        "push",
        f"Where does {name(state, t)} go?",
        [
            option(
                f"to:{d}",
                f"To the {tile_name(state, d)}",
                [{"k": "move", "unit": t["id"], "to": d, "own": False}],
                "Moved by an ability: no disengagement damage.",
                rule="KENG-4",
            )
            for d in dests
        ],
    )


# ---- engine steps ----------------------------------------------------------------------------
@step("action")
def _action(state: GameState, s: dict) -> None:
    """One action symbol (KACT-1..7) taken by the source."""
    a, src_id = s["a"], s["src"]
    src = unit(state, src_id)
    if src is None:
        return
    if a == "melee":
        n = 1
        if src["type"] in ("knight", "demon") and flag(state, src, "melee_bonus"):
            if not state["turn"].get("melee_bonus_used"):
                state["turn"]["melee_bonus_used"] = True
                n += flag(state, src, "melee_bonus")
        push(state, {"k": "attack", "n": n, "reach": "close", "src": src_id, "rule": "KACT-2"})
    elif a == "ranged":
        push(state, {"k": "attack", "n": 1, "reach": "adjacent", "src": src_id, "rule": "KACT-3"})
    elif a == "move":
        push(state, {"k": "step", "n": 1, "src": src_id})
    elif a == "heal":
        push(state, {"k": "heal", "n": 1, "reach": "close", "src": src_id})
    elif a == "defend":
        push(state, {"k": "gain_defense", "n": 1, "src": src_id})
    elif a == "magic":
        push(state, {"k": "gain_magic", "n": 1, "src": src_id})
    elif a == "command":
        imps = [
            u
            for u in on_board(state)
            if u["type"] == "imp" and distance(u["tile"], src["tile"]) <= 1
        ]  # type: ignore[arg-type]
        seat = controller(state, src)
        if not imps or seat is None:
            log(state, "no_target", who=name(state, src), what="a command")
            return
        opts = []
        for imp in imps:
            opts.append(
                option(
                    f"cmd:{imp['id']}:melee",
                    f"{name(state, imp)} melees",
                    [{"k": "action", "a": "melee", "src": imp["id"]}],
                    "The imp hits an enemy close to it.",
                    rule="KACT-7",
                )
            )
            opts.append(
                option(
                    f"cmd:{imp['id']}:move",
                    f"{name(state, imp)} moves",
                    [{"k": "action", "a": "move", "src": imp["id"]}],
                    "The imp moves 1.",
                    rule="KACT-7",
                )
            )
        ask(state, seat, "command", "Command an imp", opts)


@step("restore")
def _restore(state: GameState, s: dict) -> None:
    u = unit(state, s["unit"])
    if u is None:
        return
    before = u["hp"]
    u["hp"] = min(u["max_hp"], u["hp"] + s["n"])  # KACT-5: never above the maximum
    if u["hp"] > before:
        log(state, "healed", who=name(state, u), n=u["hp"] - before)


@step("move")
def _move(state: GameState, s: dict) -> None:
    """KACT-4 with KENG-1..6: disengagement is taken before leaving; a kill stops the move."""
    u = unit(state, s["unit"])
    if u is None:
        return
    if s["own"] and not s.get("paid"):
        n = _engaged(state, u)
        if n and not flag(state, u, "no_disengage"):
            push(
                state,
                {
                    "k": "hit",
                    "target": u["id"],
                    "n": n,
                    "attack": False,
                    "block_ok": True,
                    "why": " leaving the fight",
                },
                {**s, "paid": True},
            )
            return
    to = s["to"]
    if s.get("card"):
        state["turn"].setdefault("card_moved", []).append(u["id"])
    if to == u["tile"]:  # KLOC-5: crossing the sewer's water
        place(state, u, to, s["bank"])
        log(state, "crosses", who=name(state, u), bank=s["bank"])
        return
    enemies_there = [e for e in at(state, to) if e["side"] != u["side"]]
    landing = s.get("bank")
    if landing is None and to == sewer(state):
        landing = (entry_banks(state, u["tile"], to) or [None])[0]  # type: ignore[arg-type]
    place(state, u, to, landing)
    state["turn"].setdefault("entered", []).append(to)
    log(
        state,
        "through_portal" if s.get("portal") else "moved",
        who=name(state, u),
        tile=tile_name(state, to),
    )
    for e in state.get("effects", []):  # KMAGIC-5: embers burn an entering enemy
        if e["kind"] == "halo" and e["tile"] == to and e["side"] != u["side"]:
            push(
                state,
                {
                    "k": "hit",
                    "target": u["id"],
                    "n": 1,
                    "attack": False,
                    "block_ok": True,
                    "why": " in the embers",
                },
            )
    if u["seat"] is None and u["type"] == "demon" and "scorch_on_enter" in traits(u):
        push(  # KCOOP-16: the tile it enters burns, and so does it
            state,
            {"k": "attack_all", "n": 1, "reach": "close", "tile": to, "src": u["id"]},
            {"k": "hit", "target": u["id"], "n": 1, "attack": False, "why": " from its own fire"},
        )
    effect = content().tiles[state["tiles"][to]].get("effect")
    if state["settings"]["locations"] and effect == "nook" and enemies_there:
        push(
            state,
            {
                "k": "hit",
                "target": u["id"],
                "n": 1,
                "attack": False,
                "block_ok": True,
                "why": " in the shadowy nook",
            },
        )  # KLOC-8


@step("hit")
def _hit(state: GameState, s: dict) -> None:
    """Damage with its reactions: KDEF-4 redirection, KDEF-2 defending, KDEF-1 blocking."""
    t = unit(state, s["target"])
    if t is None or (s["n"] <= 0 and not s.get("spent") and not s.get("ice_spent")):
        return  # (a fully blocked hit still pays its DEFENSE or frost below)
    src = state["units"].get(s.get("src", ""))
    demon_side = src is not None and src["side"] == "demons"
    # KDEF-4: damage to a guarded elder (not 'all enemies') is taken by a knight there.
    if t["type"] == "elder" and demon_side and not s.get("all") and guarded(state, t):
        knights = [k for k in at(state, t["tile"]) if k["type"] == "knight"]
        redirect = {**s, "attack": False, "block_ok": True, "all": True}
        if len(knights) == 1:
            push(state, {**redirect, "target": knights[0]["id"]})
            return
        ask(
            state,
            knights[0]["seat"],
            "guard",
            f"Which knight shields {name(state, t)}?",
            [
                option(
                    f"guard:{k['id']}",
                    f"{name(state, k)} takes it",
                    [{**redirect, "target": k["id"]}],
                    "A guarded elder's damage goes to a knight on its tile.",
                    rule="KDEF-4",
                )
                for k in knights
            ],
        )
        return
    # KDEF-2 and KDEF-5: another knight close or adjacent may defend a knight-side unit.
    if s.get("attack") or s.get("all"):
        if t["side"] == "knights" and not s.get("no_react"):
            asked = s.get("asked", [])
            for k in on_board(state):
                if (
                    k["type"] == "knight"
                    and k["id"] != t["id"]
                    and k["defense"] >= 1
                    and k["id"] not in asked
                    and distance(k["tile"], t["tile"]) <= 1
                    and k["seat"] is not None
                ):
                    _offer_defend(state, s, k, t, asked)
                    return
    # KMAGIC-7: bound souls send an attack's damage to a close imp; what kills the imp is lost.
    if t["type"] == "demon" and s.get("attack") and not s.get("bound_asked"):
        if flag(state, t, "shackle"):
            here = at(state, t["tile"])  # type: ignore[arg-type]
            imps = [m for m in here if m["type"] == "imp" and same_side(state, t, m)]
            if imps:
                _offer_bound(state, s, t, imps)
                return
    # KMAGIC-6 / KCOOP-14: a demon with a frost track may spend frost to block.
    if t.get("ice", 0) >= 1 and (s.get("attack") or s.get("block_ok")) and not s.get("ice_asked"):
        top = min(t["ice"], s["n"])  # type: ignore[typeddict-item]
        if t["seat"] is None:  # the co-op AI always blocks as much as it can
            push(state, {**s, "ice_asked": True, "n": s["n"] - top, "ice_spent": top})
            return
        ask(
            state,
            t["seat"],
            "frost",
            f"{name(state, t)} is about to take {s['n']} damage",
            [
                option(
                    f"frost:{b}",
                    "Take it all" if b == 0 else f"Spend {b} frost",
                    [{**s, "ice_asked": True, "n": s["n"] - b, "ice_spent": b}],
                    f"Lose {s['n'] - b} HEALTH.",
                    f"{b} frost" if b else "",
                    "KMAGIC-6",
                )
                for b in range(top + 1)
            ],
        )
        return
    if s.get("ice_spent"):
        t["ice"] -= s["ice_spent"]  # type: ignore[typeddict-unknown-key]
        log(state, "frost", who=name(state, t), n=s["ice_spent"])
        s = {**s, "ice_spent": 0}
    # KDEF-1: a knight targeted by an attack (or allowed by a rule) may block with DEFENSE.
    if (
        t["type"] == "knight"
        and t["defense"] >= 1
        and (s.get("attack") or s.get("block_ok"))
        and not s.get("block_asked")
    ):
        top = min(t["defense"], s["n"])
        opts = [
            option(
                "block:0",
                "Take it all",
                [{**s, "block_asked": True}],
                f"Lose {s['n']} HEALTH.",
                rule="KDEF-1",
            )
        ]
        opts += [
            option(
                f"block:{b}",
                f"Block {b}",
                [{**s, "block_asked": True, "n": s["n"] - b, "spent": b}],
                f"Spend {b} DEFENSE; lose {s['n'] - b} HEALTH.",
                f"{b} DEFENSE",
                "KDEF-1",
            )
            for b in range(1, top + 1)
        ]
        ask(state, t["seat"], "block", f"{name(state, t)} is about to take {s['n']} damage", opts)
        return
    if s.get("spent"):
        t["defense"] -= s["spent"]
        log(state, "blocked", who=name(state, t), n=s["spent"])
        s = {**s, "spent": 0}
    if s["n"] <= 0:
        return
    t["hp"] -= s["n"]
    log(state, "damage", who=name(state, t), n=s["n"], why=s.get("why", ""))
    if s.get("slow") and t["hp"] > 0:
        push(state, {"k": "slow", "target": t["id"]})
    if t["hp"] <= 0:
        t["hp"] = 0
        push(state, {"k": "kill", "unit": t["id"]})
    elif s.get("attack"):
        _offer_retribution(state, t)


def _offer_bound(state: GameState, s: dict, t: Unit, imps: list[Unit]) -> None:
    imps = sorted(imps, key=lambda m: (-m["hp"], m["id"]))
    sends = {
        m["id"]: [
            {**s, "target": m["id"], "bound_asked": True, "why": " in its master's place"},
        ]
        for m in imps
    }
    if t["seat"] is None:  # KCOOP-14: the co-op AI always sends it
        log(state, "bound", who=name(state, t), imp=name(state, imps[0]))
        push(state, *sends[imps[0]["id"]])
        return
    opts = [
        option(
            f"bound:{m['id']}",
            f"Send it to {name(state, m)}",
            [{"k": "tell", "e": "bound", "who": name(state, t), "imp": name(state, m)}]
            + sends[m["id"]],
            f"{name(state, m)} has {m['hp']} HEALTH; damage beyond that is lost.",
            rule="KMAGIC-7",
        )
        for m in imps
    ]
    opts.append(
        option(
            "bound:none",
            "Take it yourself",
            [{**s, "bound_asked": True}],
            f"{name(state, t)} has {t['hp']} HEALTH.",
            rule="KMAGIC-7",
        )
    )
    ask(state, t["seat"], "bound", f"{name(state, t)} is about to take {s['n']} damage", opts)


def _offer_retribution(state: GameState, t: Unit) -> None:
    """KMAGIC-8: once a turn, a hurt character with the power strikes back off its own turn."""
    n = flag(state, t, "retribution")
    used = state["turn"].setdefault("retribution", [])
    if not n or t["seat"] is None or state["turn"].get("unit") == t["id"] or t["id"] in used:
        return
    foes = targets(state, t, "near")
    if not foes:
        return
    used.append(t["id"])
    opts = [
        option(
            f"retribution:{f['id']}",
            f"Strike back at {name(state, f)}",
            [
                {"k": "tell", "e": "retribution", "who": name(state, t), "target": name(state, f)},
                {"k": "hit", "target": f["id"], "n": n, "attack": True, "src": t["id"]},
            ],
            f"{n} damage; {name(state, f)} has {f['hp']} HEALTH.",
            rule="KMAGIC-8",
        )
        for f in foes
    ]
    opts.append(
        option("retribution:none", "Let it pass", [], "No damage is dealt back.", rule="KMAGIC-8")
    )
    ask(state, t["seat"], "retribution", f"{name(state, t)} may strike back", opts)


def _offer_defend(state: GameState, s: dict, k: Unit, t: Unit, asked: list) -> None:
    again = {**s, "asked": asked + [k["id"]]}
    opts = [
        option(
            "pass",
            f"{name(state, k)} does not defend",
            [again],
            f"{name(state, t)} takes the damage.",
            rule="KDEF-2",
        )
    ]
    for b in range(1, min(k["defense"], s["n"]) + 1):
        cover = [
            {"k": "defend_move", "knight": k["id"], "tile": t["tile"], "spent": b, "ally": t["id"]},
            {
                "k": "hit",
                "target": k["id"],
                "n": s["n"] - b,
                "attack": False,
                "slow": s.get("slow", False),
                "src": s.get("src"),
                "why": " defending an ally",
            },
        ]
        opts.append(
            option(
                f"defend:{b}",
                f"{name(state, k)} defends, spending {b} DEFENSE",
                cover,
                f"Moves in if needed and takes {s['n'] - b} damage instead.",
                f"{b} DEFENSE",
                "KDEF-2",
            )
        )
    ask(
        state,
        k["seat"],
        "defend",
        f"{name(state, t)} is about to take {s['n']} damage. Defend?",
        opts,
    )


@step("defend_move")
def _defend_move(state: GameState, s: dict) -> None:
    """KDEF-2/KDEF-7: the defender moves in (no disengagement, KENG-4) and spends DEFENSE."""
    k = unit(state, s["knight"])
    if k is None:
        return
    k["defense"] -= s["spent"]
    ally = state["units"][s["ally"]]
    place(state, k, s["tile"], ally.get("bank"))  # type: ignore[arg-type]
    log(
        state,
        "defends",
        who=name(state, k),
        ally=name(state, state["units"][s["ally"]]),
        n=s["spent"],
    )


@step("slow")
def _slow(state: GameState, s: dict) -> None:
    """KSLOW-1..5."""
    t = unit(state, s["target"])
    if t is None or t["type"] not in ("knight", "demon"):
        return  # KSLOW-4: minions and elders are not slowed
    if t["seat"] is None:  # KSLOW-5: a co-op demon takes 1 damage instead
        push(state, {"k": "hit", "target": t["id"], "n": 1, "attack": False, "why": " (slowed)"})
        return
    p = state["players"][t["seat"]]
    power = [c for c in p["hand"] if not c.startswith("basic")]
    if p["slowed"] is not None or not power:
        return
    from .core import below

    card = power[below(state, len(power))]
    # KSLOW-2: slowed during its own turn (its turn body begun), the card waits for the next one;
    # slowed before (another player's turn, or its co-op demon's), this turn is the next one.
    own = state["turn"].get("seat") == t["seat"] and state["turn"].get("unit") is not None
    p["slowed"] = {"card": card, "turn": state["turn_no"], "own": own}
    log(state, "slowed", who=name(state, t))


@step("kill")
def _kill(state: GameState, s: dict) -> None:
    """KDEATH-1..7, KELD-2, KMIN-4, scoring KEND-4/5."""
    u = state["units"][s["unit"]]
    if u["tile"] is None:
        return
    log(state, "killed", who=name(state, u))
    tile = u["tile"]
    u["tile"] = None
    if u["type"] == "elder":
        add_score(state, "demons", 2, "an elder fell")
        return
    if u["type"] in SUPPLY:
        state["supply"][u["type"]] += 1
        del state["units"][u["id"]]
        return
    if u.get("seal"):
        state["discards"][u["side"]].append(u["seal"])  # type: ignore[arg-type]
        u["seal"] = None
    for m in list(state["units"].values()):  # KDEATH-7: crawlers die with their maker
        if m["type"] == "bone_crawler" and m.get("owner") == u["id"] and m["tile"] is not None:
            m["tile"] = None
            state["supply"]["bone_crawler"] += 1
            del state["units"][m["id"]]
    del state["units"][u["id"]]
    if u["seat"] is None and u["type"] == "demon":
        from .coop import on_death

        push(state, *on_death(state, u, tile))
    if u["type"] == "knight":
        add_score(state, "demons", 1, "a knight fell")
    else:
        add_score(state, "knights", 1, "a demon fell")
    if state["result"] is not None:
        return
    from .turns import replace_character

    replace_character(state, u)


@step("tell")
def _tell(state: GameState, s: dict) -> None:
    """Log one event chosen with an option (its data travels in the step)."""
    log(state, s["e"], **{k: v for k, v in s.items() if k not in ("k", "e")})


@step("halo", card=True, params={})
def _halo(state: GameState, s: dict) -> None:
    """KMAGIC-5: ring the source's tile with embers until its slot's next turn."""
    src = unit(state, s["src"])
    if src is None:
        return
    state.setdefault("effects", []).append(  # type: ignore[typeddict-item]
        {"kind": "halo", "tile": src["tile"], "slot": src["slot"], "side": src["side"]}
    )
    log(state, "halo", tile=tile_name(state, src["tile"]))


@step("portal", card=True, params={})
def _portal(state: GameState, s: dict) -> None:
    """The Veil Strider opens a portal on its tile; a third closes its oldest (KDEATH-7 content)."""
    src = unit(state, s["src"])
    if src is None:
        return
    tile = src["tile"]
    if tile in portals(state):
        log(state, "portal_there", tile=tile_name(state, tile))
        return
    effects = state.setdefault("effects", [])  # type: ignore[typeddict-item]
    mine = [e for e in effects if e["kind"] == "portal"]
    if len(mine) >= PORTALS_KEPT:
        effects.remove(mine[0])
        log(state, "portal_closed", tile=tile_name(state, mine[0]["tile"]))
    effects.append(
        {
            "kind": "portal",
            "tile": tile,
            "owner": src["id"],
            "slot": src["slot"],
            "side": src["side"],
        }
    )
    log(state, "portal", who=name(state, src), tile=tile_name(state, tile))


@step("gaze", card=True, params={})
def _gaze(state: GameState, s: dict) -> None:
    """KCOOP-15: slow a close knight or deal 1 damage to a close golem (the players choose)."""
    src = unit(state, s["src"])
    if src is None:
        return
    cands = [
        u
        for u in at(state, src["tile"])  # type: ignore[arg-type]
        if u["side"] != src["side"]
        and same_side(state, src, u)
        and (u["type"] == "knight" or u["type"].endswith("golem"))
    ]
    if not cands:
        log(state, "no_target", who=name(state, src), what="its stare")
        return
    seat = controller(state, src)
    coop = seat is None
    if coop:
        seat = captain(state, "knights")
    opts = [
        option(
            f"gaze:{u['id']}",
            f"Slow {name(state, u)}" if u["type"] == "knight" else f"1 damage to {name(state, u)}",
            [{"k": "slow", "target": u["id"]}]
            if u["type"] == "knight"
            else [{"k": "hit", "target": u["id"], "n": 1, "attack": True, "src": src["id"]}],
            "A slowed knight's player loses the use of one card next turn."
            if u["type"] == "knight"
            else f"{name(state, u)} has {u['hp']} HEALTH.",
            rule="KCOOP-15",
        )
        for u in cands
    ]
    if not coop:
        opts.append(option("forgo", "Forgo the stare", [], "Give up this effect.", rule="KCARD-4"))
    ask(state, seat, "gaze", f"{name(state, src)} stares: choose its victim", opts)  # type: ignore[arg-type]


@step("gain_ice")
def _gain_ice(state: GameState, s: dict) -> None:
    """KMAGIC-6: frost rises, never beyond the top of its track."""
    u = unit(state, s["src"])
    if u is None or not u.get("max_ice"):
        return
    before = u["ice"]  # type: ignore[typeddict-item]
    u["ice"] = min(u["max_ice"], before + s["n"])  # type: ignore[typeddict-item,typeddict-unknown-key]
    log(state, "frost_gain", who=name(state, u), n=u["ice"] - before)  # type: ignore[typeddict-item]

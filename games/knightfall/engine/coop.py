"""The co-op demon AI (KCOOP-*): rules run by the engine, each choice logged with its reason."""

from __future__ import annotations

from .board import CENTRE, RING, distance, guarded, name, neighbours, on_board, tile_name
from .content import content
from .core import GameState, Unit, event, log, push, shuffle, step
from .powers import traits, turn_start

event("ai", "{who} {what}: {why}.")
event("coop_cards", "{who} draws {top} (top) and {bottom} (bottom).")


# KCOOP-14..19: what each source character's clarification becomes, as traits named in
# characters.json ("coop": {"traits": [...]}); "when" says where the engine reads it.
TRAITS: dict[str, dict[str, str]] = {
    "ice_block": {"rule": "KCOOP-14", "when": "damage"},
    "shackle": {"rule": "KCOOP-14", "when": "damage"},
    "gaze_after_move": {"rule": "KCOOP-15", "when": "after a card moves it"},
    "malice_at_end": {"rule": "KCOOP-15", "when": "end of turn"},
    "shatter_on_death": {"rule": "KCOOP-15", "when": "death"},
    "scorch_on_enter": {"rule": "KCOOP-16", "when": "entering a tile"},
    "extra_move": {"rule": "KCOOP-17", "when": "end of turn"},
    "extra_move_if_moved": {"rule": "KCOOP-17", "when": "end of turn"},
    "passive_off": {"rule": "KCOOP-18", "when": "always"},
    "mend_or_move": {"rule": "KCOOP-19", "when": "end of turn"},
}


def _end_extra_move(state: GameState, d: Unit) -> list[dict]:
    log(state, "ai", who=name(state, d), what="makes an extra move", why="its nature")
    return [{"k": "ai_move", "n": 1, "src": d["id"], "extra": True}]


def _end_extra_if_moved(state: GameState, d: Unit) -> list[dict]:
    if d["id"] not in state["turn"].get("card_moved", []):
        return []
    log(state, "ai", who=name(state, d), what="makes an extra move", why="the cards moved it")
    return [{"k": "ai_move", "n": 1, "src": d["id"], "extra": True}]


def _end_malice(state: GameState, d: Unit) -> list[dict]:
    return [{"k": "ai_magic", "src": d["id"], "why": "it always does at the end of its turn"}]


def _end_mend_or_move(state: GameState, d: Unit) -> list[dict]:
    if d["hp"] < d["max_hp"]:  # KCOOP-19: "full" is checked before healing
        log(state, "ai", who=name(state, d), what="heals", why="it is hurt")
        return [{"k": "restore", "unit": d["id"], "n": 1}]
    log(state, "ai", who=name(state, d), what="moves", why="it is unhurt")
    return [{"k": "ai_move", "n": 1, "src": d["id"], "extra": True}]


END_OF_TURN = {
    "extra_move": _end_extra_move,
    "extra_move_if_moved": _end_extra_if_moved,
    "malice_at_end": _end_malice,
    "mend_or_move": _end_mend_or_move,
}


def on_death(state: GameState, d: Unit, tile: int | None) -> list[dict]:
    """KCOOP-15: a co-op demon with shatter_on_death bursts on the tile where it fell."""
    if "shatter_on_death" not in traits(d) or tile is None:
        return []
    log(state, "ai", who=name(state, d), what="bursts as it falls", why="its nature")
    foes = [u for u in on_board(state) if u["tile"] == tile and u["side"] != d["side"]]
    order = {"knight": 0, "elder": 1}
    foes.sort(key=lambda u: (order.get(u["type"], 2), u["id"]))  # KDEF-6
    return [
        {"k": "hit", "target": u["id"], "n": 1, "attack": True, "all": True, "src": d["id"]}
        for u in foes
    ]


def _rank(state: GameState, t: Unit) -> int:
    """KCOOP-8 hierarchy (lower is preferred)."""
    if t["type"] == "elder":
        return 2 if guarded(state, t) else 1
    if t["type"] == "knight":
        return 3 if t["hp"] + t["defense"] < 3 else 5
    return 4


_WHY = {
    1: "undefended elder",
    2: "guarded elder",
    3: "weakened knight",
    4: "golem",
    5: "knight",
}


def _allies(state: GameState, t: Unit) -> int:
    return sum(
        1
        for u in on_board(state)
        if u["side"] == t["side"] and u is not t and distance(u["tile"], t["tile"]) <= 1
    )  # type: ignore[arg-type]


def pick(state: GameState, src: Unit, cands: list[Unit], what: str) -> Unit:
    """Closest, then hierarchy, then lowest HEALTH, then fewest allies (KCOOP-7/8)."""
    best = min(
        cands,
        key=lambda t: (
            distance(src["tile"], t["tile"]),
            _rank(state, t),  # type: ignore[arg-type]
            t["hp"],
            _allies(state, t),
            t["id"],
        ),
    )
    log(
        state,
        "ai",
        who=name(state, src),
        what=f"targets {name(state, best)} for {what}",
        why=f"the closest {_WHY[_rank(state, best)]} at the {tile_name(state, best['tile'])}",
    )
    return best


def pick_tile(state: GameState, src: Unit, tiles: list[int]) -> int:
    """The adjacent tile holding the most enemies."""
    return max(
        tiles,
        key=lambda t: sum(
            1 for u in on_board(state) if u["tile"] == t and u["side"] != src["side"]
        ),
    )


def step_toward(state: GameState, src: Unit, entered: set[int]) -> int:
    """KCOOP-9/10: one step toward the chosen target, ignoring enemies on its own tile."""
    foes = [u for u in on_board(state) if u["side"] != src["side"] and u["tile"] != src["tile"]]
    here = src["tile"]
    steps = neighbours(here)  # type: ignore[arg-type]
    if not foes:
        return steps[0]
    t = pick(state, src, foes, "its movement")
    fresh = [s for s in steps if s not in entered] or steps
    return min(fresh, key=lambda s: (distance(s, t["tile"]), s))  # type: ignore[arg-type]


def imp_action(state: GameState, m: Unit) -> list[dict]:
    """KCOOP-12: melee an enemy close to it, else move toward its target."""
    from .steps import targets

    close = targets(state, m, "close", any_elder=True)
    if close:
        t = pick(state, m, close, "a melee")
        return [{"k": "hit", "target": t["id"], "n": 1, "attack": True, "src": m["id"]}]
    return [{"k": "move", "unit": m["id"], "to": step_toward(state, m, set()), "own": True}]


def _draw(state: GameState) -> str:
    deck = state["decks"]["coop"]
    if not deck:  # KCARD-8
        deck.extend(state["discards"]["coop"])
        state["discards"]["coop"].clear()
        shuffle(state, deck)
    return deck.pop()


@step("coop_turn")
def _coop_turn(state: GameState, s: dict) -> None:
    """KCOOP-4/5/6: the paired demon enters if needed, then plays two co-op cards."""
    from .turns import make_character

    sl = state["slots"][s["slot"]]
    if sl.get("pair_waiting"):
        d = make_character(state, sl["pair_waiting"], None, s["slot"], True)  # type: ignore[typeddict-item]
        d["tile"] = CENTRE
        sl["pair"], sl["pair_waiting"] = d["id"], None  # type: ignore[typeddict-unknown-key]
    d = state["units"].get(sl["pair"] or "")
    if d is None or d["tile"] is None:
        return
    a, b = _draw(state), _draw(state)
    top, bottom = content().coop[a]["top"], content().coop[b]["bottom"]
    log(state, "coop_cards", who=name(state, d), top=top["name"], bottom=bottom["name"])
    state["discards"]["coop"] += [a, b]
    start = [x for x in turn_start(state, d) if x["k"] != "gain_magic"]  # KMAGIC-1
    push(
        state,
        *start,
        *[{**x, "src": d["id"]} for x in top["steps"] + bottom["steps"]],
        {"k": "coop_end", "unit": d["id"]},
    )


@step("coop_end")
def _coop_end(state: GameState, s: dict) -> None:
    """KCOOP-15/17/19: end-of-turn traits of the paired demon."""
    d = state["units"].get(s["unit"])
    if d is None or d["tile"] is None:
        return
    out: list[dict] = []
    for t in traits(d):
        if t in END_OF_TURN:
            out += END_OF_TURN[t](state, d)
    push(state, *out)


@step("ai_move", card=True, params={"n": int})
def _ai_move(state: GameState, s: dict) -> None:
    d = state["units"].get(s["src"])
    if d is None or d["tile"] is None:
        return
    if s["n"] <= 0:
        _after_card_move(state, d, s)
        return
    entered = set(s.get("entered", []))
    to = step_toward(state, d, entered)
    push(
        state,
        {"k": "move", "unit": d["id"], "to": to, "own": True, "card": not s.get("extra")},
        {**s, "n": s["n"] - 1, "entered": sorted(entered | {to}), "moved": True},
    )  # KENG-5: a demon moved by a card takes disengagement damage


def _after_card_move(state: GameState, d: Unit, s: dict) -> None:
    """KCOOP-15: a demon with gaze_after_move uses its ability once a card has moved it."""
    if s.get("moved") and not s.get("extra") and "gaze_after_move" in traits(d):
        push(state, {"k": "ai_magic", "src": d["id"], "why": "it stares after moving"})


@step("ai_attack", card=True, params={"n": int, "reach": str})
def _ai_attack(state: GameState, s: dict) -> None:
    from .steps import targets

    d = state["units"].get(s["src"])
    if d is None or d["tile"] is None:
        return
    cands = targets(state, d, s["reach"], any_elder=True)
    if not cands:
        log(state, "ai", who=name(state, d), what="attacks nothing", why="no enemy in reach")
        return
    t = pick(state, d, cands, "an attack")
    push(state, {"k": "hit", "target": t["id"], "n": s["n"], "attack": True, "src": d["id"]})


@step("ai_ring", card=True, params={"n": int, "dir": str})
def _ai_ring(state: GameState, s: dict) -> None:
    """KCOOP-11: out of the centre by the hierarchy, then around the ring."""
    d = state["units"].get(s["src"])
    if d is None or d["tile"] is None:
        return
    if s["n"] <= 0:
        _after_card_move(state, d, s)
        return
    if d["tile"] == CENTRE:
        to = step_toward(state, d, set())
    else:
        i = RING.index(d["tile"])
        to = RING[(i + (1 if s["dir"] == "cw" else -1)) % len(RING)]
        log(
            state,
            "ai",
            who=name(state, d),
            what="circles the cloister",
            why=f"the card says {'clockwise' if s['dir'] == 'cw' else 'counterclockwise'}",
        )
    push(
        state,
        {"k": "move", "unit": d["id"], "to": to, "own": True, "card": True},
        {**s, "n": s["n"] - 1, "moved": True},
    )


@step("ai_magic", card=True, params={})
def _ai_magic(state: GameState, s: dict) -> None:
    d = state["units"].get(s["src"])
    if d is None or d["tile"] is None:
        return
    c = content().chars[d["char"]]
    why = s.get("why", "the card says so")
    log(state, "ai", who=name(state, d), what=f"uses {c['magic']['name']}", why=why)
    push(state, *[{**x, "src": d["id"]} for x in c["magic"]["steps"]])


@step("ai_respawn", card=True, params={})
def _ai_respawn(state: GameState, s: dict) -> None:
    """KCOOP-13: a new demon replaces the active one at min(current, its max) HEALTH."""
    from .turns import make_character

    d = state["units"].get(s["src"])
    deck = state["decks"]["chars_demons"]
    if d is None or d["tile"] is None or not deck:
        return
    nd = make_character(state, deck.pop(), None, d["slot"], True)
    nd["tile"] = d["tile"]
    if d.get("bank"):
        nd["bank"] = d["bank"]
    if "enters_at" not in content().chars[nd["char"]]:  # KMAGIC-4: some enter at a fixed HEALTH
        nd["hp"] = min(d["hp"], nd["max_hp"])
    state["slots"][d["slot"]]["pair"] = nd["id"]
    del state["units"][d["id"]]
    log(state, "ai", who=name(state, nd), what="takes over", why="the card spawns a new demon")

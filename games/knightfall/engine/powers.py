"""Ongoing powers (KMAGIC-1) and seal/mark benefits (KCARD-3): one registry of passive kinds.

A character's own power and the benefit of its seal or mark both name a kind from PASSIVES.
Flags are read where the general rule applies, so the specific card wins (KCARD-7).
"""

from __future__ import annotations

from .board import name
from .content import content
from .core import GameState, Unit, event, log

PASSIVES: dict[str, dict] = {
    "arcane": {"turn_magic": 1},
    "fleet": {"no_disengage": True},
    "hardy": {},
    "vigil": {"min_defense": 1},
    "regrowth": {"turn_heal": 1},
    "ironskin": {},
    "imp_master": {"turn_imp": True},
    "brutal": {"melee_bonus": 1},
    "icebound": {"ice": True},  # the frost track itself lives on the unit (KSET-6, KMAGIC-6)
    "shackled": {"shackle": True},  # KMAGIC-7
    "ossuary": {"turn_crawler": True},
    "retribution": {"retribution": 2},  # KMAGIC-8
}

event("passive", "{who}: {text}")


def passives(state: GameState, u: Unit) -> list[dict]:
    """The passives active for a character: its own power (unless off) and its seal."""
    if u["type"] not in ("knight", "demon"):
        return []
    out = []
    c = content().chars[u["char"]]
    # KCOOP-18: a demon with the passive_off trait has no ongoing power in co-op.
    off = state["settings"]["mode"] == "coop" and "passive_off" in traits(u)
    if not off:
        out.append(PASSIVES[c["power"]["kind"]])
    if u.get("seal"):
        out.append(PASSIVES[content().cards[u["seal"].split("#")[0]]["seal"]])
    return out


def traits(u: Unit) -> list[str]:
    """A character's co-op behaviour traits (KCOOP-14..19, registry in coop.py)."""
    if u["type"] not in ("knight", "demon"):
        return []
    return list(content().chars[u["char"]].get("coop", {}).get("traits", []))


def flag(state: GameState, u: Unit, key: str) -> int:
    """Sum (or truth) of one passive flag over a unit's active passives."""
    return sum(int(p.get(key, 0)) for p in passives(state, u))


def turn_start(state: GameState, u: Unit) -> list[dict]:
    """Steps run at the start of a character's turn by its passives."""
    steps: list[dict] = []
    if flag(state, u, "turn_heal") and u["hp"] < u["max_hp"]:
        steps.append({"k": "restore", "unit": u["id"], "n": flag(state, u, "turn_heal")})
    need = flag(state, u, "min_defense")
    if need and u["type"] == "knight" and u["defense"] < min(need, u["max_def"]):
        u["defense"] = min(need, u["max_def"])
        log(state, "passive", who=name(state, u), text="its DEFENSE rises to 1")
    if flag(state, u, "turn_magic"):
        steps.append({"k": "gain_magic", "n": flag(state, u, "turn_magic"), "src": u["id"]})
    if flag(state, u, "turn_imp"):
        steps.append({"k": "spawn", "minion": "imp", "where": "seal", "src": u["id"]})
    if flag(state, u, "turn_crawler"):
        steps.append({"k": "spawn", "minion": "bone_crawler", "where": "self", "src": u["id"]})
    return steps

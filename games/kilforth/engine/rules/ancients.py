"""Ancients and plots (ANC-1..8, DEED-1, SAGA-9, CLEAR-2).

Runtime per ancient: {"id", "in_play", "loc", "damage", "defeated", "plots"} where `plots` are
the plot cards it absorbed on assault (ANC-3). Its plot deck is decks["plots:<id>"].
"""

from __future__ import annotations

from games.kilforth.engine.cards.catalogue import content
from games.kilforth.engine.cards.effects import discard_card, gain_loot, lose_hp, to_hand
from games.kilforth.engine.cards.steps import abort_turn, bind, option, push, step
from games.kilforth.engine.events import Ctx, event, join, plural
from games.kilforth.engine.rules.position import (
    active_heroes,
    card,
    first_active,
    loc_index,
    name,
    team_of,
)
from games.kilforth.engine.state import State, log


def _plot_attempt(e: dict, c: Ctx) -> str:
    verdict = "and defeated it" if e.get("defeated") else "not enough yet"
    return (
        f"{c.person(e['seat'])} worked against the plot {c.card(e['plot'])}: "
        f"{plural(e['successes'], 'success')}, {verdict}."
    )


def _assault(e: dict, c: Ctx) -> str:
    team = e.get("team") or []
    extra = f" with {c.people(team[1:])}" if len(team) > 1 else ""
    return f"{c.person(e['seat'])} assaults {c.card(e['ancient'])}{extra}!"


def _taken(e: dict, c: Ctx) -> str:
    parts = [f"{c.person(m)} lost {plural(n, 'HP')}" for m, n in (e.get("taken") or []) if n]
    return join(parts) if parts else "nobody was hurt"


def _ancient_skirmish(e: dict, c: Ctx) -> str:
    return (
        f"Against {c.card(e['ancient'])}: the heroes dealt {plural(e['dealt'], 'hit')}, "
        f"{_taken(e, c)}; it has {e['hp']} HP left."
    )


event(
    "plot_attempt",
    _plot_attempt,
    fields=("seat", "plot", "successes", "defeated"),
    examples=({"defeated": True}, {"defeated": False, "successes": 1}),
)
event("ancient_enters", "{ancient} awakens at {loc}!", tone="big")
event("plot_joins", "The plot {plot} feeds {ancient}.", tone="bad")
event(
    "assault",
    _assault,
    tone="battle",
    fields=("seat", "ancient", "team"),
    examples=({"team": [0]}, {"team": [0, 1, 2]}),
)
event(
    "ancient_skirmish",
    _ancient_skirmish,
    tone="battle",
    fields=("seat", "ancient", "dealt", "taken", "hp"),
    examples=({"taken": [[0, 1], [1, 0]]}, {"taken": [[0, 0]], "dealt": 1}),
)
event("ancient_defeated", "{seat} has slain {ancient}!", tone="big")
event("hero_eliminated", "{seat} fell before the ancient and is out of the game.", tone="bad")
event("plot_enters", "{ancient} schemes: {plot} appears at {loc}.", tone="bad")


def ancient_stats(state: State, anc: dict) -> tuple[int, int]:
    """(health, fight) including the abilities card and absorbed plots."""
    c = card(anc["id"])
    health = c["health"] + c["abilities"].get("health", 0)
    fight = c["fight"] + c["abilities"].get("fight", 0)
    for p in anc["plots"]:
        ab = card(p)["ability"]
        health += ab.get("health", 0)
        fight += ab.get("fight", 0)
    return health, fight


def plot_options(state: State, seat: int) -> list[dict]:
    """CLEAR-1: with no obstacle, a plot card here can be cleared."""
    h = state.heroes[seat]
    opts = []
    for pid in state.map[h["loc"]]["plots"]:
        p = card(pid)
        tag = f"plot{seat}"
        opts.append(
            option(
                f"clear:{pid}",
                f"Defeat plot {p['name']} ({p['attr']} {p['need']})",
                [
                    {"k": "spend_ap", "seat": seat},
                    {"k": "test", "seat": seat, "attr": p["attr"], "tag": tag, "team": True},
                    {"k": "plot_resolve", "seat": seat, "plot": pid, "tag": tag},
                    {"k": "disband_after_test", "seat": seat},
                    {"k": "after_action", "seat": seat},
                ],
                explain=f"Spend 1 AP to test your {p['attr']} against the plot {p['name']}: "
                f"with {p['need']} or more successes you defeat it, take it as a rumour and draw "
                "a loot token.",
                rule="CLEAR-2",
                cost="1 AP",
                group="action",
                topic="clear",
                data={"verb": "clear_plot", "card": pid, "attr": p["attr"], "need": p["need"]},
            )
        )
    return opts


@step("plot_resolve")
def _plot_resolve(state: State, s: dict) -> None:
    """CLEAR-2: a defeated plot goes to hand as a rumour and the hero draws a loot token."""
    seat, pid = s["seat"], s["plot"]
    res = state.scratch.pop(s["tag"])
    ok = res["succ"] >= card(pid)["need"]
    log(state, "plot_attempt", seat=seat, plot=pid, successes=res["succ"], defeated=ok)
    if ok:
        loc = state.heroes[seat]["loc"]
        state.map[loc]["plots"].remove(pid)
        to_hand(state, seat, pid)
        gain_loot(state, seat)


@step("ancients_enter")
def _ancients_enter(state: State, s: dict) -> None:
    """ANC-1: the first finale brings every ancient into play at its named location."""
    for anc in state.ancients:
        if not anc["in_play"] and not anc["defeated"]:
            anc["in_play"] = True
            anc["loc"] = loc_index(state, content().where(card(anc["id"]), state.edition))
            log(state, "ancient_enters", ancient=anc["id"], loc=state.map[anc["loc"]]["id"])


def assault_options(state: State, seat: int) -> list[dict]:
    """DEED-1/SAGA-9: own finale done (co-op: everyone's), at its location, no encounters."""
    h = state.heroes[seat]
    if h["chapter"] < 6:
        return []
    if state.mode != "competitive" and any(
        x["chapter"] < 6 for x in state.heroes if not x["eliminated"]
    ):
        return []
    opts = []
    for k, anc in enumerate(state.ancients):
        if anc["in_play"] and not anc["defeated"] and anc["loc"] == h["loc"]:
            if not state.map[h["loc"]]["enc"]:
                opts.append(
                    option(
                        f"assault:{anc['id']}",
                        f"Assault {name(anc['id'])}",
                        [
                            {"k": "assault", "seat": seat, "anc": k},
                            {"k": "turn_menu", "seat": seat},
                        ],
                        explain=_assault_text(state, anc),
                        rule="DEED-1",
                        cost="free",
                        group="deed",
                        topic="assault",
                        data={"verb": "assault", "ancient": anc["id"]},
                    )
                )
    return opts


def _assault_text(state: State, anc: dict) -> str:
    """DEED-1/ANC-3/ANC-4: what the battle will be, from the ancient and its plots."""
    plots = sum(1 for loc in state.map for p in loc["plots"] if card(p)["ancient"] == anc["id"])
    health, fight = ancient_stats(state, anc)
    joined = (
        f"; its {plots} plot{'s' if plots != 1 else ''} on the map join it and make it stronger"
        if plots
        else ""
    )
    return (
        f"Free: attack {name(anc['id'])} (fight {fight}, {health - anc['damage']} HP left)"
        f"{joined}. "
        "No surprise, no evading and no escape: falling in this battle puts you out of the game."
    )


@step("assault")
def _assault(state: State, s: dict) -> None:
    """ANC-3: unresolved plots leave the map and join the ancient."""
    anc = state.ancients[s["anc"]]
    for loc in state.map:
        for pid in list(loc["plots"]):
            if card(pid)["ancient"] == anc["id"]:
                loc["plots"].remove(pid)
                anc["plots"].append(pid)
                log(state, "plot_joins", ancient=anc["id"], plot=pid)
    log(state, "assault", seat=s["seat"], ancient=anc["id"], team=team_of(state, s["seat"]))
    push(state, {"k": "ancient_round", "seat": s["seat"], "anc": s["anc"]})


@step("ancient_round")
def _ancient_round(state: State, s: dict) -> None:
    """ANC-4: no surprise, no evasion, no escape; rounds until someone falls."""
    anc = state.ancients[s["anc"]]
    members = [m for m in team_of(state, s["seat"]) if not state.heroes[m]["eliminated"]]
    _, fight = ancient_stats(state, anc)
    steps = [{"k": "test", "seat": m, "attr": "fight", "tag": f"hero{m}"} for m in members]
    steps += [
        {
            "k": "foe_test",
            "foe": anc["id"],
            "dice": fight,
            "sources": [[anc["id"], fight]],
            "tag": f"foe{m}",
        }
        for m in members
    ]
    steps.append({"k": "ancient_skirmish", "seat": s["seat"], "anc": s["anc"], "members": members})
    push(state, *steps)


@step("ancient_skirmish")
def _ancient_skirmish(state: State, s: dict) -> None:

    anc = state.ancients[s["anc"]]
    members = s["members"]
    dealt = sum(state.scratch.pop(f"hero{m}")["succ"] for m in members)
    taken = {m: state.scratch.pop(f"foe{m}")["succ"] for m in members}
    health, _ = ancient_stats(state, anc)
    anc["damage"] = min(health, anc["damage"] + dealt)  # ANC-7: damage stays
    for m in members:
        if taken[m]:
            lose_hp(state, m, taken[m], source=anc["id"])
    log(
        state,
        "ancient_skirmish",
        seat=s["seat"],
        ancient=anc["id"],
        dealt=dealt,
        taken=[[m, taken[m]] for m in members],
        hp=health - anc["damage"],
    )
    if anc["damage"] >= health:  # ANC-5, checked first (END-3: a falling last hero still wins)
        anc["defeated"] = True
        anc["in_play"] = False
        state.heroes[s["seat"]]["gold"] += card(anc["id"])["gold"]
        log(state, "ancient_defeated", seat=s["seat"], ancient=anc["id"])
        if all(a["defeated"] for a in state.ancients):
            push(state, {"k": "end_game", "reason": "ancient defeated", "slayer": s["seat"]})
            return
    downed = [m for m in members if state.heroes[m]["hp"] == 0]
    for m in downed:
        push(state, {"k": "eliminate", "seat": m})
    if anc["defeated"]:
        return
    if state.heroes[s["seat"]]["hp"] > 0:
        push(state, {"k": "ancient_round", "seat": s["seat"], "anc": s["anc"]})


@step("eliminate")
def _eliminate(state: State, s: dict) -> None:
    """ANC-6: cards and tokens return to discards and pools; the hero no longer counts."""

    seat = s["seat"]
    h = state.heroes[seat]
    if h["eliminated"]:
        return
    h["eliminated"] = True
    for c in h["hand"] + h["assets"] + h["loot"]:
        discard_card(state, c)
    h["hand"], h["assets"], h["loot"], h["veiled"] = [], [], [], []
    h["gold"] = 0
    h["hp"] = 0
    h["ap"] = 0
    h["camped"] = True
    h["hidden"] = False
    for info in state.encounters.values():
        if seat in info["enemies"]:
            info["enemies"].remove(seat)
        info["progress"].pop(str(seat), None)
    log(state, "hero_eliminated", seat=seat)
    if not active_heroes(state):
        push(state, {"k": "end_game", "reason": "all heroes eliminated"})
    elif state.turn == seat:
        abort_turn(state)


@step("plot_check")
def _plot_check(state: State, s: dict) -> None:
    """ANC-8/NIGHT-6: a gloomed location of a named type brings out the next plot."""
    for i in s["locs"]:
        terrain = card(state.map[i]["id"])["terrain"]
        for anc in state.ancients:
            c = card(anc["id"])
            if anc["defeated"] or terrain not in c["gloom_terrains"]:
                continue
            deck = f"plots:{anc['id']}"
            if not state.decks[deck]:
                continue
            pid = state.decks[deck].pop()
            state.map[i]["plots"].append(pid)
            log(state, "plot_enters", ancient=anc["id"], plot=pid, loc=state.map[i]["id"])
            push(state, *bind(card(pid)["enter"], first_active(state), card=pid))

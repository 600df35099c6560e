"""Night and dawn (NIGHT-1..8): gloom, darkness (night cards), plot check, dawn."""

from __future__ import annotations

from games.kilforth.engine.cards.effects import discard_card, draw
from games.kilforth.engine.cards.steps import bind, push, step
from games.kilforth.engine.events import article, event
from games.kilforth.engine.rules.position import (
    active_heroes,
    card,
    first_active,
    loc_index,
    place_encounter,
)
from games.kilforth.engine.state import State, log

event("night", "Night falls after day {day}.", tone="night", marker=True)
event("gloomed", "{loc} fell into gloom.", tone="night")
event(
    "night_card",
    lambda e, c: (
        f"The {'extra ' if e.get('extra') else ''}night card is {c.card(e['card'])}, "
        f"{article(str(e['type']))} card for {c.card(e['loc'])}."
    ),
    tone="night",
    fields=("card", "type", "loc", "extra"),
    examples=({"type": "enemy", "extra": None}, {"type": "weather", "extra": True}),
)
event(
    "dawn",
    "Dawn: progress against encounters is lost, hiding ends, veiled cards return.",
    tone="night",
    marker=True,
)


@step("night")
def _night(state: State, s: dict) -> None:
    """END-1 (Shadows) is checked at the end of daylight; then the night sequence."""
    state.phase = "night"
    state.turn = None
    log(state, "night", day=state.day)
    if state.edition == "shadows" and len(state.decks["night"]) <= 1:
        push(state, {"k": "end_game", "reason": "the night deck is down to one card"})
        return
    state.scratch["gloomed"] = []
    push(
        state,
        {"k": "gloom"},
        {"k": "darkness"},
        {"k": "night_plots"},
        {"k": "dawn"},
        {"k": "new_day"},
    )


@step("gloom")
def _gloom(state: State, s: dict) -> None:
    """NIGHT-1: heroes on gloom locations lose HP (Dark Pinnacle heals instead); weather."""
    steps: list[dict] = []
    for seat in active_heroes(state):
        h = state.heroes[seat]
        if h["defeated"]:
            continue
        loc = state.map[h["loc"]]
        lc = card(loc["id"])
        if loc["gloom"]:
            if lc["night"] is not None:
                steps.extend(bind(lc["night"], seat))
            else:
                # Shadows: the location's gloom value; Gloom: "lose 1 HP".
                n = lc["gloom"] if state.edition == "shadows" else 1
                steps.append({"k": "lose_hp", "seat": seat, "n": n, "source": "gloom"})
    if state.weather:
        for seat in active_heroes(state):
            steps.extend(bind(card(state.weather)["nightly"], seat, source="weather"))
    push(state, *steps)


def flip_to_gloom(state: State, i: int) -> None:
    loc = state.map[i]
    if not loc["gloom"]:
        loc["gloom"] = True
        state.scratch.setdefault("gloomed", []).append(i)
        log(state, "gloomed", loc=loc["id"])


@step("darkness")
def _darkness(state: State, s: dict) -> None:
    """NIGHT-2..5: the first hero draws a night card; its location flips to gloom."""
    cid = draw(state, "night")
    if cid is None:
        return
    if not s.get("extra"):
        state.scratch["night_drawn"] = state.day  # END-1: for `last_day`
    c = card(cid)
    log(state, "night_card", card=cid, type=c["type"], loc=c["location"], extra=s.get("extra"))
    i = loc_index(state, c["location"])
    if i is not None:
        flip_to_gloom(state, i)
    if c["type"] == "weather":  # NIGHT-3
        if state.weather:
            discard_card(state, state.weather)
        state.weather = cid
    elif c["type"] == "event":  # NIGHT-5: the first hero makes any choice
        state.limbo.append(cid)
        push(
            state,
            *bind(c["effect"], first_active(state), card=cid),
            {"k": "discard_limbo", "card": cid, "cleanup": True},
        )
    else:  # NIGHT-4
        if i is None:
            discard_card(state, cid)
        else:
            place_encounter(state, cid, i)


@step("night_plots")
def _night_plots(state: State, s: dict) -> None:
    """NIGHT-6: plot check after the night card(s) resolved."""
    locs = state.scratch.pop("gloomed", [])
    if locs:
        push(state, {"k": "plot_check", "locs": locs})


@step("dawn")
def _dawn(state: State, s: dict) -> None:
    """NIGHT-7, in order: successes, hiding, defeated heroes, veiled cards."""
    for info in state.encounters.values():
        info["progress"] = {}
        info["evaded"] = []
    for h in state.heroes:
        h["saga_progress"] = {"n": 0, "day": 0}
    for h in state.heroes:
        h["hidden"] = False
    for h in state.heroes:
        if h["defeated"] and not h["eliminated"]:
            h["defeated"] = False
            h["hp"] = min(h["max_hp"], 2)
    for h in state.heroes:
        h["veiled"] = []
    log(state, "dawn", day=state.day)
    # DAY-7 (Gloom): "First Hero marker passes to the first hero who made Camp" at dawn.
    if state.edition == "gloom" and state.first_camper is not None:
        state.first = state.first_camper
        log(state, "first_hero", seat=state.first)


@step("new_day")
def _new_day(state: State, s: dict) -> None:
    """END-1 (Gloom): the game ends after day 25."""
    if state.edition == "gloom" and state.day >= 25:
        push(state, {"k": "end_game", "reason": "day 25 is over"})
        return
    if state.day >= 40:  # safety net for a rigged Shadows night deck; never reached normally
        push(state, {"k": "end_game", "reason": "day limit"})
        return
    state.day += 1
    push(state, {"k": "start_day"})

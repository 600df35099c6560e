"""Day structure (DAY-1..11): breaking camp, turns clockwise, the turn menu, making camp."""

from __future__ import annotations

from games.kilforth.engine.cards.steps import ask, option, push, step
from games.kilforth.engine.events import event
from games.kilforth.engine.rules.actions import action_options
from games.kilforth.engine.rules.deeds import free_options
from games.kilforth.engine.rules.position import active_heroes, clear_progress
from games.kilforth.engine.state import State, log

event("daylight", "Day {day} begins. {first} goes first.", tone="turn", marker=True)
event("turn", "{seat}'s turn.", tone="turn", minor=True, marker=True)
event(
    "camp",
    lambda e, c: f"{c.person(e['seat'])} made camp{' (out of AP)' if e.get('forced') else ''}.",
    fields=("seat", "forced"),
    examples=({"forced": True}, {"forced": False}),
)
event("first_hero", "{seat} takes the first-hero marker.")
event(
    "team_disbanded",
    lambda e, c: (
        f"The team of {c.people(e['members'])} split up."
        if len(e["members"]) > 1
        else f"{c.people(e['members'])}'s team broke up."
    ),
    fields=("members",),
    examples=({"members": [0]}, {"members": [0, 1]}),
)


@step("start_day")
def _start_day(state: State, s: dict) -> None:
    """DAY-2: every hero breaks camp with AP equal to its current HP."""
    state.phase = "daylight"
    state.first_camper = None
    state.turn = None
    for h in state.heroes:
        if h["eliminated"]:
            continue
        h["camped"] = False
        h["ap"] = h["hp"]
    log(state, "daylight", day=state.day, first=state.first)
    push(state, {"k": "next_turn"})


def turn_order(state: State) -> list[int]:
    """Seats clockwise from the first hero."""
    n = len(state.heroes)
    return [(state.first + i) % n for i in range(n)]


@step("next_turn")
def _next_turn(state: State, s: dict) -> None:
    """DAY-3: the next hero clockwise that has not made camp; DAY-8: night when all camped."""
    n = len(state.heroes)
    start = state.first if state.turn is None else (state.turn + 1) % n
    for i in range(n):
        seat = (start + i) % n
        h = state.heroes[seat]
        if not h["camped"] and not h["eliminated"]:
            push(state, {"k": "turn_start", "seat": seat})
            return
    push(state, {"k": "night"})


@step("turn_start")
def _turn_start(state: State, s: dict) -> None:
    seat = s["seat"]
    state.turn = seat
    state.turn_no += 1
    state.offers = 0
    state.team = []
    log(state, "turn", seat=seat, turn_no=state.turn_no)
    # DAY-4: engage every enemy here first; then the menu; the end marker lets a defeat or an
    # escape end the turn at once (steps.abort_turn).
    push(
        state,
        {"k": "engage_all", "seat": seat},
        {"k": "turn_menu", "seat": seat},
        {"k": "end_turn", "seat": seat},
    )


def turn_over_for(state: State, seat: int) -> bool:
    h = state.heroes[seat]
    return h["camped"] or h["eliminated"] or state.result is not None


@step("turn_menu")
def _turn_menu(state: State, s: dict) -> None:
    """The hero's decision on its turn: one action (1 AP), make camp, or a free deed."""

    seat = s["seat"]
    if turn_over_for(state, seat):
        return
    h = state.heroes[seat]
    if h["ap"] <= 0:  # DAY-6: a hero with 0 AP must make camp
        push(state, {"k": "camp", "seat": seat, "forced": True})
        return
    opts = action_options(state, seat)
    opts.append(
        option(
            "camp",
            "Make camp (end your daylight)",
            [{"k": "camp_confirm", "seat": seat}],
            explain=f"Give up your remaining {h['ap']} AP and take no more turns today"
            + (
                "; as the first to camp you go first tomorrow."
                if state.first_camper is None
                else "."
            ),
            rule="DAY-6",
            cost="free",
            group="end",
            topic="camp",
            data={"verb": "camp"},
        )
    )
    opts.extend(free_options(state, seat))
    ask(state, seat, "turn", f"Your turn ({h['ap']} AP): choose an action", opts)


@step("camp_confirm")
def _camp_confirm(state: State, s: dict) -> None:
    """DAY-6: making camp by choice gives up the AP left, so the hero confirms it first; going
    back re-asks the turn menu, nothing spent."""
    seat = s["seat"]
    ap = state.heroes[seat]["ap"]
    if ap <= 0:  # nothing to give up: camp at once
        push(state, {"k": "camp", "seat": seat})
        return
    left = f"{ap} AP"
    ask(
        state,
        seat,
        "camp_confirm",
        f"Make camp with {left} unused?",
        [
            option(
                "confirm",
                f"Make camp, giving up {left}",
                [{"k": "camp", "seat": seat}],
                explain=f"End your daylight now: your {left} left are lost and you take no more "
                "turns today.",
                rule="DAY-6",
                topic="camp",
                data={"verb": "confirm"},
            ),
            option(
                "back",
                "Go back to your turn",
                [{"k": "turn_menu", "seat": seat}],
                explain=f"Do not make camp yet: you keep your {left} and choose again.",
                rule="DAY-6",
                topic="camp",
                data={"verb": "back"},
            ),
        ],
    )


@step("spend_ap")
def _spend_ap(state: State, s: dict) -> None:
    h = state.heroes[s["seat"]]
    h["ap"] = max(0, h["ap"] - 1)


@step("after_action")
def _after_action(state: State, s: dict) -> None:
    """DAY-5: after an action completes, engage every enemy here again."""
    if not turn_over_for(state, s["seat"]):
        push(state, {"k": "engage_all", "seat": s["seat"]})


@step("camp")
def _camp(state: State, s: dict) -> None:
    """DAY-6/DAY-7: discard AP, take no more turns; first to camp takes the first-hero marker."""

    seat = s["seat"]
    h = state.heroes[seat]
    if h["camped"]:
        return
    h["camped"] = True
    h["ap"] = 0
    clear_progress(state, seat)  # CONF-3: making camp loses accumulated successes
    log(state, "camp", seat=seat, forced=bool(s.get("forced")))
    if state.first_camper is None and state.phase == "daylight":
        state.first_camper = seat
        if state.edition == "shadows":  # Shadows: the marker passes at once
            state.first = seat
            log(state, "first_hero", seat=seat)


@step("end_turn")
def _end_turn(state: State, s: dict) -> None:
    """DEED-9: a team disbands at the end of the turn at the latest."""
    if state.team:
        log(state, "team_disbanded", members=state.team)
        state.team = []
    if state.result is None:
        if not active_heroes(state):
            push(state, {"k": "end_game", "reason": "all heroes eliminated"})
        else:
            push(state, {"k": "next_turn"})

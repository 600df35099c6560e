"""Helpers to rig scenarios in tests (never patch `random`).

They mutate the given state in place and return it; afterwards tests use the public
legal()/act()/view(). Card ids are taken from wherever they are (decks, discards, bags, map,
hands), so conservation still holds after rigging.
"""

from __future__ import annotations

from games.kilforth.engine.api import act, legal
from games.kilforth.engine.cards.catalogue import content
from games.kilforth.engine.cards.effects import discard_pile
from games.kilforth.engine.cards.steps import STEPS, push, run
from games.kilforth.engine.rules.position import attr_total as total
from games.kilforth.engine.rules.position import card, loc_index
from games.kilforth.engine.rules.position import place_encounter as _place
from games.kilforth.engine.rules.setup import new_game
from games.kilforth.engine.settings import Settings
from games.kilforth.engine.state import State

CONSERVED_KINDS = ("encounter", "reward", "night", "loot", "plot")


def scenario(
    edition: str = "gloom",
    mode: str = "competitive",
    heroes: int = 2,
    seed: int = 0,
    side: str = "skull",
    **settings: object,
) -> State:
    """A new game with SET-8 answered (first deck, first card) for every hero.

    Shadows: every hero sets its choose-sides token (SET-9) to `side` ("skull" or "rose").
    """
    if mode == "solo":
        heroes = 1
    state = new_game(Settings(edition=edition, mode=mode, heroes=heroes, **settings), seed)
    while state.phase == "setup":
        seat = state.waiting_for[0]
        kind = state.prompt["kind"] if state.prompt else ""
        key = f"side:{side}" if kind == "choose_side" else legal(state, seat)[0].key
        state = act(state, seat, key)
    return state


def keys(state: State, seat: int) -> list[str]:
    return [c.key for c in legal(state, seat)]


def make_camp(state: State, seat: int) -> State:
    """`seat` makes camp from its turn menu, confirming it when AP are left (DAY-6)."""
    state = act(state, seat, "camp")
    if state.prompt and state.prompt["kind"] == "camp_confirm" and state.prompt["seat"] == seat:
        state = act(state, seat, "confirm")
    return state


def card_locations(state: State) -> dict[str, list[str]]:
    """Every conserved card id -> the zones it is found in (should be exactly one)."""
    where: dict[str, list[str]] = {}

    def add(cid: str, zone: str) -> None:
        where.setdefault(cid, []).append(zone)

    for name, pile in state.decks.items():
        for c in pile:
            add(c, f"deck:{name}")
    for name, pile in state.discards.items():
        for c in pile:
            add(c, f"discard:{name}")
    for c in state.loot_bag:
        add(c, "loot_bag")
    for c in state.loot_used:
        add(c, "loot_used")
    for c in state.removed:
        add(c, "removed")
    for c in state.limbo:
        add(c, "limbo")
    if state.weather:
        add(state.weather, "weather")
    for i, loc in enumerate(state.map):
        for c in loc["enc"]:
            add(c, f"map:{i}")
        for c in loc["plots"]:
            add(c, f"plot:{i}")
    for a in state.ancients:
        for c in a["plots"]:
            add(c, f"ancient:{a['id']}")
    for h in state.heroes:
        for zone in ("hand", "assets", "loot"):
            for c in h[zone]:
                add(c, f"hero{h['seat']}:{zone}")
    kinds = set(CONSERVED_KINDS)
    return {c: z for c, z in where.items() if content().cards[c]["kind"] in kinds}


def card_ids(state: State) -> list[str]:
    """Every card id in every zone, as one flat list (fast; duplicates show a bug)."""
    out: list[str] = []
    for pile in state.decks.values():
        out += pile
    for pile in state.discards.values():
        out += pile
    out += state.loot_bag
    out += state.loot_used
    out += state.removed
    out += state.limbo
    if state.weather:
        out.append(state.weather)
    for loc in state.map:
        out += loc["enc"]
        out += loc["plots"]
    for a in state.ancients:
        out += a["plots"]
    for h in state.heroes:
        out += h["hand"]
        out += h["assets"]
        out += h["loot"]
    return out


def conserved_universe(state: State) -> set[str]:
    c = content()
    out = {x for x in c.by_kind["encounter"] + c.by_kind["reward"] + c.by_kind["loot"]}
    out |= set(c.night(state.edition))
    out |= set(c.plots)
    return out


def take(state: State, cid: str) -> State:
    """Remove a card from whatever zone holds it."""
    for pile in list(state.decks.values()) + list(state.discards.values()):
        if cid in pile:
            pile.remove(cid)
            return state
    for pile in (state.loot_bag, state.loot_used, state.removed, state.limbo):
        if cid in pile:
            pile.remove(cid)
            return state
    if state.weather == cid:
        state.weather = None
        return state
    for loc in state.map:
        if cid in loc["enc"]:
            loc["enc"].remove(cid)
            state.encounters.pop(cid, None)
            return state
        if cid in loc["plots"]:
            loc["plots"].remove(cid)
            return state
    for h in state.heroes:
        for zone in ("hand", "assets", "loot", "skills"):
            if cid in h[zone]:
                h[zone].remove(cid)
                return state
    for a in state.ancients:
        if cid in a["plots"]:
            a["plots"].remove(cid)
            return state
    raise KeyError(f"card {cid!r} is not in this game")


def _loc(state: State, loc: int | str) -> int:
    if isinstance(loc, int):
        return loc
    i = loc_index(state, loc)
    if i is None:
        raise KeyError(f"location {loc!r} is not on this map")
    return i


def top(state: State, deck: str, *cids: str) -> State:
    """Put cards on top of a deck; the LAST one given ends on top (drawn first)."""
    for c in cids:
        take(state, c)
        state.decks[deck].append(c)
    return state


def place_hero(state: State, seat: int, loc: int | str) -> State:
    state.heroes[seat]["loc"] = _loc(state, loc)
    return state


def place_encounter(
    state: State, cid: str, loc: int | str, fresh: bool = False, enemies: tuple[int, ...] = ()
) -> State:
    """Put an encounter (or night encounter) on the map; `fresh` = drawn this turn."""

    take(state, cid)
    _place(state, cid, _loc(state, loc), fresh=state.turn_no if fresh else -1)
    for seat in enemies:
        state.encounters[cid]["enemies"].append(seat)
        state.heroes[seat]["enemy_tokens"] -= 1
    return state


def give(state: State, seat: int, cid: str, zone: str = "hand") -> State:
    """Give a hero a card in hand, assets, loot or skills."""
    if zone != "skills":
        take(state, cid)
    state.heroes[seat][zone].append(cid)
    return state


def set_hero(state: State, seat: int, **values: object) -> State:
    """Set hero fields, e.g. hp=2, ap=1, gold=5, hidden=True, max_hp=6, chapter=5."""
    h = state.heroes[seat]
    for k, v in values.items():
        if k not in h:
            raise KeyError(f"hero has no field {k!r}")
        h[k] = v
    return state


def obstacle(state: State, loc: int | str, n: int = 1) -> State:
    state.map[_loc(state, loc)]["obstacles"] += n
    return state


def place_plot(state: State, pid: str, loc: int | str) -> State:
    take(state, pid)
    state.map[_loc(state, loc)]["plots"].append(pid)
    return state


def gloom(state: State, loc: int | str, on: bool = True) -> State:
    state.map[_loc(state, loc)]["gloom"] = on
    return state


def discard(state: State, cid: str) -> State:
    """Take a card from wherever it is and put it on its own discard pile (the loot token into
    the used pile), as play would; `take` alone removes it from the game's zones."""

    take(state, cid)
    pile = discard_pile(cid)
    if pile == "loot":
        state.loot_used.append(cid)
    elif pile is not None:
        state.discards[pile].append(cid)
    else:
        state.removed.append(cid)
    return state


def loot_bag(state: State, *cids: str, refill: bool = False) -> State:
    """Set the loot bag to exactly `cids` (the next draw takes the last one); the tokens that
    were in it go to the used pile. `refill=True` first puts every used token back (REW-5)."""
    if refill:
        state.loot_bag.extend(state.loot_used)
        state.loot_used.clear()
    for cid in cids:
        take(state, cid)
    state.loot_used.extend(state.loot_bag)
    state.loot_bag[:] = list(cids)
    return state


def ancient_damage(state: State, k: int, n: int) -> State:
    """Set the damage an ancient has taken (ANC-7: it stays between assaults)."""
    state.ancients[k]["damage"] = n
    return state


def successes(state: State, cid: str, seat: int, attr: str, n: int) -> State:
    """Set a hero's accumulated confront successes against an encounter (CONF-3)."""
    state.encounters[cid]["progress"][str(seat)] = {"attr": attr, "n": n}
    return state


def attr_total(state: State, seat: int, attr: str) -> int:
    """A hero's effective attribute (race side, class, unveiled cards, weather; never < 0)."""

    return total(state, seat, attr)


def dice(state: State, *faces: int) -> State:
    """Queue forced die faces; they are used before the generator.

    Order consumed: each test takes its dice in turn; in a battle round the hero's (and its team
    members') dice are rolled before the foe's, round by round; fate rerolls take the next ones.
    """
    for f in faces:
        if not 1 <= f <= 6:
            raise ValueError("a die face is 1-6")
    state.forced_dice.extend(faces)
    return state


def set_weather(state: State, cid: str | None) -> State:
    if cid is not None:
        take(state, cid)
    if state.weather:
        state.discards["night"].append(state.weather)
    state.weather = cid
    return state


def begin_turn(state: State, seat: int, first: int | None = None, engage: bool = True) -> State:
    """Drop whatever was pending and start `seat`'s turn (engagements first, then the menu).

    `engage=False` stops before the start-of-turn engagement (DAY-4): straight to the menu.
    """

    state.prompt = None
    state.queue = []
    state.team = []
    state.phase = "daylight"
    if first is not None:
        state.first = first
    state.heroes[seat]["camped"] = False
    if engage:
        push(state, {"k": "turn_start", "seat": seat})
    else:
        STEPS["turn_start"](state, {"k": "turn_start", "seat": seat})
        state.queue = [q for q in state.queue if q["k"] != "engage_all"]
    run(state)
    return state


def refresh(state: State) -> State:
    """Rebuild the open turn menu after rigging (so it reflects the rigged state)."""
    p = state.prompt
    if p is not None and p["kind"] == "turn":
        state.prompt = None
        push(state, {"k": "turn_menu", "seat": p["seat"]})
        run(state)
    return state


def start_night(state: State) -> State:
    """Everyone makes camp now; run the night phase until the next decision."""
    state.prompt = None
    state.queue = []
    state.team = []
    for h in state.heroes:
        h["camped"] = True
    push(state, {"k": "night"})
    run(state)
    return state


def run_steps(state: State, *steps: dict) -> State:
    """Run named steps now, on top of whatever was pending (used by the step-kind tests).

    If they finish without a decision, the previous prompt is restored; if they open a prompt,
    the previous turn menu (if any) is rebuilt once they are done.
    """
    old_q, old_p = state.queue, state.prompt
    state.queue, state.prompt = [], None
    push(state, *steps)
    run(state)
    if state.prompt is None and not state.queue:
        state.queue, state.prompt = old_q, old_p
    else:
        resume = (
            [{"k": "turn_menu", "seat": old_p["seat"]}] if old_p and old_p["kind"] == "turn" else []
        )
        state.queue = old_q + resume + state.queue
    return state


def ancient_in_play(state: State, k: int = 0, loc: int | str | None = None) -> State:
    a = state.ancients[k]
    a["in_play"] = True
    if loc is not None:
        a["loc"] = _loc(state, loc)
    else:
        a["loc"] = loc_index(state, content().where(card(a["id"]), state.edition))
    return state


def play_until(
    state: State, seat: int, kind: str, pick: str | None = None, limit: int = 200
) -> State:
    """Answer prompts (first option, or `pick` when offered) until `seat` gets prompt `kind`."""
    for _ in range(limit):
        p = state.prompt
        if p is None or (p["seat"] == seat and p["kind"] == kind):
            return state
        ks = keys(state, p["seat"])
        state = act(state, p["seat"], pick if pick in ks else ks[0])
    raise AssertionError(f"prompt {kind} for seat {seat} never came")

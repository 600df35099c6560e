"""Shared helpers for the engine tests (fixed heroes so attribute totals are known).

seat 0: Fellmark Dwarf Samurai  fight 4, study 1, sneak 1, influence 1 (martial skills)
seat 1: Ratling Yakuza          fight 1, study 1, sneak 4, influence 1 (shadow skills)
seat 2: Sylvan Elf Sorcerer     fight 1, study 4, sneak 1, influence 1 (arcane skills)
seat 3: Tideborn Maiden Chevalier fight 2, study 0, sneak 1, influence 4 (pious skills; the female
        side of this race card trades 1 fight for 1 influence)
Seat 1 has the highest sneak, so it is the first hero.
"""

from games.kilforth.engine import act, legal
from games.kilforth.engine import testing as T

CHOICES = [
    {"race": "race.fellmark_dwarf", "class": "class.samurai", "female": False},
    {"race": "race.ratling", "class": "class.yakuza", "female": True},
    {"race": "race.sylvan_elf", "class": "class.sorcerer", "female": False},
    {"race": "race.tideborn", "class": "class.chevalier", "female": True},
]


def game(edition="gloom", mode="competitive", heroes=2, seed=1, **settings):
    if mode == "solo":
        heroes = 1
    return T.scenario(
        edition=edition, mode=mode, heroes=heroes, seed=seed, choices=CHOICES[:heroes], **settings
    )


def keys(state, seat):
    return [c.key for c in legal(state, seat)]


def events(state, name):
    return [e for e in state.log if e["e"] == name]


def answer(state, seat, *keys_):
    for k in keys_:
        state = act(state, seat, k)
    return state


def prompt(state):
    return (state.prompt["seat"], state.prompt["kind"]) if state.prompt else None


def at(state, seat):
    return state.map[state.heroes[seat]["loc"]]["id"]


def loc_of_terrain(state, terrain, n=0):
    """The n-th map location of a terrain (colour side), by map order."""
    from games.kilforth.engine.rules.position import card

    found = [loc["id"] for loc in state.map if card(loc["id"])["terrain"] == terrain]
    return found[n]


def neighbour_of(state, loc_id):
    from games.kilforth.engine.rules.position import loc_index, neighbours

    return [state.map[j]["id"] for j in neighbours(loc_index(state, loc_id))]


def no_fate(state, *seats):
    """Mark fate as already used today so tests are not interrupted by fate offers."""
    for seat in seats or range(len(state.heroes)):
        state.heroes[seat]["fate_day"] = state.day
    return state


def alone(state, seat=0):
    """Move the other heroes to a corner so no team offers appear at `seat`'s location."""
    for h in state.heroes:
        if h["seat"] != seat:
            h["loc"] = 0 if state.heroes[seat]["loc"] != 0 else 24
    return state


def empty_hand(state, seat):
    """Discard a hero's rumours (keeps every card in exactly one place)."""
    from games.kilforth.engine.cards.effects import discard_card

    for c in list(state.heroes[seat]["hand"]):
        state.heroes[seat]["hand"].remove(c)
        discard_card(state, c)
    return state

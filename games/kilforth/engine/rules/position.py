"""Read-only helpers about the board, heroes and attribute totals (no state changes here)."""

from __future__ import annotations

from games.kilforth.engine.cards.catalogue import ATTRS, content
from games.kilforth.engine.state import State


def card(cid: str) -> dict:
    return content().cards[cid]


def neighbours(i: int) -> list[int]:
    r, c = divmod(i, 5)
    out = []
    if r > 0:
        out.append(i - 5)
    if r < 4:
        out.append(i + 5)
    if c > 0:
        out.append(i - 1)
    if c < 4:
        out.append(i + 1)
    return out


def loc_card(state: State, i: int) -> dict:
    return card(state.map[i]["id"])


def destinations(state: State, i: int) -> list[int]:
    """MOVE-1: orthogonal neighbours plus locations showing the same shortcut symbol."""
    out = neighbours(i)
    sym = loc_card(state, i)["symbol"]
    if sym:
        for j, loc in enumerate(state.map):
            if j != i and j not in out and card(loc["id"])["symbol"] == sym:
                out.append(j)
    return sorted(out)


def loc_index(state: State, loc_id: str) -> int | None:
    for i, loc in enumerate(state.map):
        if loc["id"] == loc_id:
            return i
    return None


def active_heroes(state: State) -> list[int]:
    return [h["seat"] for h in state.heroes if not h["eliminated"]]


def first_active(state: State) -> int:
    """The first hero, or the next hero clockwise still in the game (ANC-6)."""
    n = len(state.heroes)
    for i in range(n):
        seat = (state.first + i) % n
        if not state.heroes[seat]["eliminated"]:
            return seat
    return state.first


def heroes_at(state: State, i: int) -> list[int]:
    return [h["seat"] for h in state.heroes if h["loc"] == i and not h["eliminated"]]


def is_enemy_for(state: State, cid: str, seat: int) -> bool:
    """ENG-1/CONF-7: enemy cards, and strangers bearing this hero's enemy token."""
    t = card(cid)["type"]
    return t == "enemy" or (t == "stranger" and seat in state.encounters[cid]["enemies"])


def enemies_for(state: State, seat: int) -> list[str]:
    """Enemies this hero must engage at its location (evaded ones are ignored: ENG-4)."""
    h = state.heroes[seat]
    return [
        cid
        for cid in state.map[h["loc"]]["enc"]
        if is_enemy_for(state, cid, seat) and seat not in state.encounters[cid]["evaded"]
    ]


def all_enemies_at(state: State, i: int, seat: int) -> list[str]:
    return [cid for cid in state.map[i]["enc"] if is_enemy_for(state, cid, seat)]


def in_play_cards(state: State, seat: int) -> list[str]:
    """Assets and skills of a hero that are not veiled (TEST-5)."""
    h = state.heroes[seat]
    return [c for c in h["assets"] + h["skills"] if c not in h["veiled"]]


def bonus(state: State, seat: int, attr: str) -> list[tuple[str, int]]:
    """Every source of dice for an attribute: race, class, unveiled skills and assets, weather."""
    h = state.heroes[seat]
    out = [("race", race_value(h, attr)), ("class", card(h["class"])[attr])]
    for cid in in_play_cards(state, seat):
        b = card(cid).get("bonus", {}).get(attr, 0)
        if b:
            out.append((cid, b))
    if state.weather:
        b = card(state.weather)["mods"].get(attr, 0)
        if b:
            out.append((state.weather, b))
    return out


def race_value(h: dict, attr: str) -> int:
    """SET-2: the female side has the same numbers unless the card lists `female_attrs`."""
    rc = card(h["race"])
    if h["female"] and attr in rc.get("female_attrs", {}):
        return rc["female_attrs"][attr]
    return rc[attr]


def attr_total(state: State, seat: int, attr: str) -> int:
    return total_of(bonus(state, seat, attr))


def total_of(sources: list[tuple[str, int]]) -> int:
    """An attribute's dice from its sources (`bonus`): their sum, never below 0."""
    return max(0, sum(v for _, v in sources))


def keywords_of(cid: str) -> list[str]:
    """SAGA-3: a card's keywords plus its reward deck or encounter type."""
    c = card(cid)
    kws = [k.lstrip("*") for k in c.get("keywords", [])]
    if c["kind"] == "reward":
        kws.append(c["deck"])
    elif c["kind"] in ("encounter", "night") and c["type"] != "weather":
        kws.append(c["type"])
    return kws


def unique_keywords(cid: str) -> list[str]:
    return [k[1:] for k in card(cid).get("keywords", []) if k.startswith("*")]


def gold_value(cid: str) -> int:
    return card(cid).get("gold", 0)


def success_min(state: State) -> int:
    """TEST-3: 5-6 succeed, 4-6 on the easier setting."""
    return 4 if state.settings["difficulty"] == "easier" else 5


def name(cid: str) -> str:
    return card(cid)["name"]


def hero_name(state: State, seat: int) -> str:
    return state.heroes[seat]["name"]


def team_of(state: State, seat: int) -> list[int]:
    """Members (active first) if `seat` leads the current team, else just [seat]."""
    if state.team and state.team[0] == seat:
        here = state.heroes[seat]["loc"]
        # Only members still with the active hero count (it may have moved away from them).
        return [
            m
            for m in state.team
            if not state.heroes[m]["eliminated"] and state.heroes[m]["loc"] == here
        ]
    return [seat]


def encounter_value(cid: str, attr: str) -> int:
    return card(cid)[attr] if attr in ATTRS else 0


# -- changes to the position that many rules share (leaving a place, encounters on the map)


def clear_progress(state: State, seat: int) -> None:
    """CONF-3: drop this hero's accumulated successes against encounters."""
    key = str(seat)
    for info in state.encounters.values():
        info["progress"].pop(key, None)


def leave_location(state: State, seat: int) -> None:
    """Leaving loses confront successes (CONF-3), finale/interlude successes (SAGA-6) and
    evasions (ENG-4: ignored "until the day ends or you leave the location")."""
    clear_progress(state, seat)
    for info in state.encounters.values():
        if seat in info["evaded"]:
            info["evaded"].remove(seat)
    state.heroes[seat]["saga_progress"] = {"n": 0, "day": 0}


def place_encounter(state: State, cid: str, i: int, fresh: int = -1) -> None:
    state.map[i]["enc"].append(cid)
    state.encounters[cid] = {
        "loc": i,
        "progress": {},
        "enemies": [],
        "fresh": fresh,
        "token_turn": -1,
        "evaded": [],
        "hp": None,
    }


def remove_encounter(state: State, cid: str) -> None:
    """Take an encounter off the map; tokens go back to their heroes."""
    info = state.encounters.pop(cid)
    state.map[info["loc"]]["enc"].remove(cid)
    for seat in info["enemies"]:
        state.heroes[seat]["enemy_tokens"] += 1

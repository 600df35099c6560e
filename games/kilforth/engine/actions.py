"""The 1-AP actions: move, clear, search, hide, confront, rest, discover, market, regale.

`action_options` lists every action whose restriction is met (DAY-10); each option's
continuation is [spend_ap, <action steps>, after_action].
"""

from __future__ import annotations

from .board import (
    card,
    destinations,
    encounter_value,
    gold_value,
    heroes_at,
    is_enemy_for,
    loc_card,
    name,
)
from .cards import ATTRS, REWARD_DECKS
from .effects import add_asset, discard_card, draw, remove_asset
from .state import State, log
from .steps import ask, bind, option, push, step

CONFRONTABLE = ("place", "quest", "stranger")


def _act(seat: int, *steps: dict) -> list[dict]:
    return [{"k": "spend_ap", "seat": seat}, *steps, {"k": "after_action", "seat": seat}]


def clear_progress(state: State, seat: int) -> None:
    """CONF-3: drop this hero's accumulated successes against encounters."""
    key = str(seat)
    for info in state.encounters.values():
        info["progress"].pop(key, None)


def leave_location(state: State, seat: int) -> None:
    """Leaving loses confront successes (CONF-3) and finale/interlude successes (SAGA-6)."""
    clear_progress(state, seat)
    state.heroes[seat]["saga_progress"] = {"n": 0, "day": 0}


def confrontable(state: State, seat: int) -> list[str]:
    h = state.heroes[seat]
    loc = state.map[h["loc"]]
    out = []
    for cid in loc["enc"]:
        c = card(cid)
        if c["type"] not in CONFRONTABLE or is_enemy_for(state, cid, seat):
            continue
        if c["type"] == "stranger" and h["hidden"]:
            continue  # CONF-4 / HIDE-3
        out.append(cid)
    return out


def action_options(state: State, seat: int) -> list[dict]:
    from .ancients import plot_options
    from .sagas import regale_options

    h = state.heroes[seat]
    i = h["loc"]
    loc = state.map[i]
    lc = loc_card(state, i)
    opts: list[dict] = []
    # MOVE-1
    for j in destinations(state, i):
        opts.append(
            option(
                f"move:{state.map[j]['id']}",
                f"Move to {name(state.map[j]['id'])}",
                _act(seat, {"k": "move", "seat": seat, "to": j}),
                loc=j,
            )
        )
    # CLEAR-1: an obstacle, or (if none) a plot card
    if loc["obstacles"]:
        opts.append(
            option("clear", "Clear an obstacle", _act(seat, {"k": "clear_obstacle", "seat": seat}))
        )
    else:
        opts.extend(plot_options(state, seat))
    # SEARCH-1 (LIM-4: plots block nothing)
    if not loc["enc"] and not loc["obstacles"] and lc["terrain"] != "none":
        opts.append(
            option(
                "search",
                "Search for an encounter",
                _act(seat, {"k": "draw_encounter", "seat": seat, "loc": i}),
            )
        )
    # HIDE-1
    if not h["hidden"]:
        opts.append(option("hide", "Hide", _act(seat, {"k": "hide", "seat": seat})))
    # CONF-1..6
    if not loc["obstacles"]:
        for cid in confrontable(state, seat):
            c = card(cid)
            prog = state.encounters[cid]["progress"].get(str(seat))
            attrs = [a for a in ATTRS if encounter_value(cid, a) > 0]
            if c["type"] == "stranger":
                attrs = ["influence"] if c["influence"] > 0 else []
            if prog:
                attrs = [prog["attr"]]
            for a in attrs:
                opts.append(
                    option(
                        f"confront:{cid}:{a}",
                        f"Confront {name(cid)} with {a}",
                        _act(seat, {"k": "confront", "seat": seat, "enc": cid, "attr": a}),
                        card=cid,
                        attr=a,
                    )
                )
            if c["type"] == "stranger" and h["enemy_tokens"] > 0 and not prog:
                opts.append(
                    option(
                        f"enemy:{cid}",
                        f"Make {name(cid)} your enemy",
                        _act(seat, {"k": "make_enemy", "seat": seat, "enc": cid}),
                        card=cid,
                    )
                )
    # REST-1
    if not loc["enc"] and h["hp"] < h["max_hp"]:
        opts.append(option("rest", "Rest (+1 HP)", _act(seat, {"k": "rest", "seat": seat})))
    # DISC-1
    for cid in h["hand"]:
        if loc["id"] in card(cid).get("where", []):
            opts.append(
                option(
                    f"discover:{cid}",
                    f"Discover {name(cid)}",
                    _act(seat, {"k": "discover", "seat": seat, "card": cid}),
                    card=cid,
                )
            )
    # MKT-1
    if lc["market"] and market_possible(state, seat):
        opts.append(
            option(
                "market",
                "Visit the market",
                _act(seat, {"k": "market_menu", "seat": seat, "done": []}),
            )
        )
    opts.extend(regale_options(state, seat, _act))
    return opts


# --------------------------------------------------------------------------- move / search


@step("move")
def _move(state: State, s: dict) -> None:
    seat = s["seat"]
    leave_location(state, seat)
    state.heroes[seat]["loc"] = s["to"]
    log(state, "moved", seat=seat, to=state.map[s["to"]]["id"])
    push(state, {"k": "arrive", "seat": seat})


@step("arrive")
def _arrive(state: State, s: dict) -> None:
    """MOVE-2: the location's own effects, then an encounter if it has none."""
    seat = s["seat"]
    i = state.heroes[seat]["loc"]
    lc = loc_card(state, i)
    effects = lc["gloom_arrive"] if state.map[i]["gloom"] else lc["arrive"]
    push(
        state,
        *bind(effects, seat),
        {"k": "draw_encounter", "seat": seat, "loc": i, "if_empty": True},
    )


@step("draw_encounter")
def _draw_encounter(state: State, s: dict) -> None:
    """MOVE-2/3/5, SEARCH-1: draw from the terrain deck; events resolve at once."""
    seat, i = s["seat"], s["loc"]
    terrain = loc_card(state, i)["terrain"]
    if terrain == "none":
        return
    if s.get("if_empty") and state.map[i]["enc"]:
        return
    cid = draw(state, terrain)
    if cid is None:
        return
    c = card(cid)
    log(state, "encounter_drawn", seat=seat, card=cid, loc=state.map[i]["id"], type=c["type"])
    if c["type"] == "event":
        state.limbo.append(cid)
        push(
            state,
            *bind(c["effect"], seat, card=cid),
            {"k": "discard_limbo", "card": cid, "cleanup": True},
        )
        return
    place_encounter(state, cid, i, fresh=state.turn_no)


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


@step("discard_limbo")
def _discard_limbo(state: State, s: dict) -> None:
    if s["card"] in state.limbo:
        state.limbo.remove(s["card"])
        discard_card(state, s["card"])


# --------------------------------------------------------------------------- small actions


@step("clear_obstacle")
def _clear_obstacle(state: State, s: dict) -> None:
    i = state.heroes[s["seat"]]["loc"]
    state.map[i]["obstacles"] -= 1
    log(state, "obstacle_cleared", seat=s["seat"], loc=state.map[i]["id"])


@step("hide", card=True, params={})
def _hide(state: State, s: dict) -> None:
    """HIDE-1; HIDE-3: a hero that hides leaves its team (a leader that hides disbands it)."""
    seat = s["seat"]
    state.heroes[seat]["hidden"] = True
    log(state, "hidden", seat=seat)
    if seat in state.team:
        state.team = [] if state.team[0] == seat else [m for m in state.team if m != seat]
        if len(state.team) < 2:
            state.team = []
        log(state, "left_team", seat=seat, team=state.team)


@step("unhide")
def _unhide(state: State, s: dict) -> None:
    h = state.heroes[s["seat"]]
    if h["hidden"]:
        h["hidden"] = False
        log(state, "revealed", seat=s["seat"])


@step("rest")
def _rest(state: State, s: dict) -> None:
    h = state.heroes[s["seat"]]
    h["hp"] = min(h["max_hp"], h["hp"] + 1)
    log(state, "rested", seat=s["seat"], hp=h["hp"])


@step("discover")
def _discover(state: State, s: dict) -> None:
    h = state.heroes[s["seat"]]
    h["hand"].remove(s["card"])
    log(state, "discovered", seat=s["seat"], card=s["card"])
    add_asset(state, s["seat"], s["card"])


# --------------------------------------------------------------------------- confront


@step("confront")
def _confront(state: State, s: dict) -> None:
    tag = f"confront{state.turn_no}"
    push(
        state,
        {"k": "test", "seat": s["seat"], "attr": s["attr"], "tag": tag, "team": True},
        {
            "k": "confront_resolve",
            "seat": s["seat"],
            "enc": s["enc"],
            "attr": s["attr"],
            "tag": tag,
        },
        {"k": "disband_after_test", "seat": s["seat"]},
    )


@step("confront_resolve")
def _confront_resolve(state: State, s: dict) -> None:
    """CONF-2: successes accumulate; CONF-5: zero total makes a stranger your enemy."""
    seat, cid = s["seat"], s["enc"]
    res = state.scratch.pop(s["tag"])
    info = state.encounters.get(cid)
    if info is None:
        return
    prog = info["progress"].setdefault(str(seat), {"attr": s["attr"], "n": 0})
    prog["n"] += res["succ"]
    need = encounter_value(cid, s["attr"])
    log(state, "confront", seat=seat, card=cid, attr=s["attr"], total=prog["n"], need=need)
    if prog["n"] >= need:
        push(state, {"k": "claim_reward", "seat": seat, "enc": cid, "how": "confront"})
    elif card(cid)["type"] == "stranger" and prog["n"] == 0:
        place_enemy_token(state, seat, cid)


def place_enemy_token(state: State, seat: int, cid: str) -> None:
    h = state.heroes[seat]
    info = state.encounters[cid]
    if h["enemy_tokens"] <= 0 or seat in info["enemies"]:
        log(state, "no_enemy_token", seat=seat, card=cid)
        return
    h["enemy_tokens"] -= 1
    info["enemies"].append(seat)
    info["token_turn"] = state.turn_no
    info["progress"].pop(str(seat), None)
    log(state, "enemy_token", seat=seat, card=cid)


@step("make_enemy")
def _make_enemy(state: State, s: dict) -> None:
    """CONF-6: deliberately make a stranger your enemy; engaged at the end of the action."""
    place_enemy_token(state, s["seat"], s["enc"])


# --------------------------------------------------------------------------- market


def _heal_targets(state: State, seat: int) -> list[int]:
    i = state.heroes[seat]["loc"]
    return [
        t
        for t in heroes_at(state, i)
        if state.heroes[t]["hp"] < state.heroes[t]["max_hp"] and not state.heroes[t]["defeated"]
    ]


def _sellable(state: State, seat: int) -> list[str]:
    h = state.heroes[seat]
    return list(h["hand"]) + list(h["assets"])


def market_possible(state: State, seat: int) -> bool:
    h = state.heroes[seat]
    heal = h["gold"] >= 1 and bool(_heal_targets(state, seat))
    buy = any(state.decks[d] or state.discards[d] for d in REWARD_DECKS)
    return heal or buy or bool(_sellable(state, seat))


@step("market_menu")
def _market_menu(state: State, s: dict) -> None:
    """MKT-1: at least one of heal, purchase, sell; each at most once, any order."""
    seat, done = s["seat"], s["done"]
    h = state.heroes[seat]
    opts = []
    if "heal" not in done and h["gold"] >= 1 and _heal_targets(state, seat):
        opts.append(
            option(
                "heal",
                "Heal (1 gold per HP)",
                [
                    {"k": "market_heal", "seat": seat},
                    {"k": "market_menu", "seat": seat, "done": done + ["heal"]},
                ],
            )
        )
    if "buy" not in done:
        for d in REWARD_DECKS:
            if state.decks[d] or state.discards[d]:
                opts.append(
                    option(
                        f"buy:{d}",
                        f"Purchase: look at the top 3 {d} cards",
                        [
                            {"k": "market_buy", "seat": seat, "deck": d},
                            {"k": "market_menu", "seat": seat, "done": done + ["buy"]},
                        ],
                    )
                )
    if "sell" not in done and _sellable(state, seat):
        opts.append(
            option(
                "sell",
                "Sell rumours and assets",
                [
                    {"k": "market_sell", "seat": seat, "sold": 0},
                    {"k": "market_menu", "seat": seat, "done": done + ["sell"]},
                ],
            )
        )
    if done:
        opts.append(option("leave", "Leave the market"))
    if not opts:
        return
    if len(opts) == 1 and done:
        return
    ask(state, seat, "market", "Market: choose what to do", opts)


@step("market_heal")
def _market_heal(state: State, s: dict) -> None:
    """MKT-2: buy HP at 1 gold each for any hero here below max (one HP per choice)."""
    seat = s["seat"]
    h = state.heroes[seat]
    opts = []
    if h["gold"] >= 1:
        for t in _heal_targets(state, seat):
            opts.append(
                option(
                    f"hp:{t}",
                    f"Buy 1 HP for {state.heroes[t]['name']} (1 gold)",
                    [
                        {"k": "market_heal_one", "seat": seat, "target": t},
                        {"k": "market_heal", "seat": seat, "more": True},
                    ],
                    target=t,
                )
            )
    if not opts:
        return
    if s.get("more"):
        opts.append(option("done", "Done healing"))
    ask(state, seat, "market_heal", "Heal: 1 gold per HP", opts)


@step("market_heal_one")
def _market_heal_one(state: State, s: dict) -> None:
    h, t = state.heroes[s["seat"]], state.heroes[s["target"]]
    h["gold"] -= 1
    t["hp"] += 1
    log(state, "market_heal", seat=s["seat"], target=s["target"], hp=t["hp"])


@step("market_buy")
def _market_buy(state: State, s: dict) -> None:
    """MKT-3: top 3 of one deck; buy exactly one if gold allows; the rest are discarded."""
    seat = s["seat"]
    drawn = []
    for _ in range(3):
        cid = draw(state, s["deck"])
        if cid is None:
            break
        drawn.append(cid)
        state.limbo.append(cid)
    log(state, "market_look", vis=seat, seat=seat, cards=drawn)
    gold = state.heroes[seat]["gold"]
    affordable = [c for c in drawn if gold_value(c) <= gold]
    opts = [
        option(
            f"buy:{c}",
            f"Buy {name(c)} for {gold_value(c)} gold",
            [{"k": "market_take", "seat": seat, "card": c, "drawn": drawn}],
            card=c,
        )
        for c in affordable
    ]
    if not opts:
        push(state, {"k": "market_take", "seat": seat, "card": None, "drawn": drawn})
        return
    ask(state, seat, "market_buy", "Purchase exactly one card", opts, cards=drawn)


@step("market_take")
def _market_take(state: State, s: dict) -> None:
    seat = s["seat"]
    for c in s["drawn"]:
        state.limbo.remove(c)
        if c != s["card"]:
            discard_card(state, c)
    if s["card"]:
        state.heroes[seat]["gold"] -= gold_value(s["card"])
        log(state, "purchased", seat=seat, card=s["card"])
        add_asset(state, seat, s["card"])


@step("market_sell")
def _market_sell(state: State, s: dict) -> None:
    """MKT-4: each rumour or asset sold gives half its gold value, rounded down."""
    seat = s["seat"]
    h = state.heroes[seat]
    opts = []
    for c in h["hand"]:
        opts.append(
            option(
                f"sell:{c}",
                f"Sell rumour {name(c)} ({gold_value(c) // 2} gold)",
                [
                    {"k": "market_sell_one", "seat": seat, "card": c},
                    {"k": "market_sell", "seat": seat, "sold": s["sold"] + 1},
                ],
                card=c,
            )
        )
    for c in h["assets"]:
        opts.append(
            option(
                f"sell:{c}",
                f"Sacrifice {name(c)} ({gold_value(c) // 2} gold)",
                [
                    {"k": "market_sell_one", "seat": seat, "card": c},
                    {"k": "market_sell", "seat": seat, "sold": s["sold"] + 1},
                ],
                card=c,
            )
        )
    if s["sold"]:
        opts.append(option("done", "Done selling"))
    if not opts or (len(opts) == 1 and s["sold"]):
        return
    ask(state, seat, "market_sell", "Sell a card", opts)


@step("market_sell_one")
def _market_sell_one(state: State, s: dict) -> None:
    seat, c = s["seat"], s["card"]
    h = state.heroes[seat]
    if c in h["hand"]:
        h["hand"].remove(c)
    else:
        remove_asset(state, seat, c)
    h["gold"] += gold_value(c) // 2
    discard_card(state, c)
    log(state, "sold", seat=seat, card=c, gold=gold_value(c) // 2)

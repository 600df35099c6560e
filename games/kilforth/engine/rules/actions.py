"""The 1-AP actions: move, clear, search, hide, confront, rest, discover, market, regale.

`action_options` lists every action whose restriction is met (DAY-10); each option's
continuation is [spend_ap, <action steps>, after_action].
"""

from __future__ import annotations

from games.kilforth.engine.cards.catalogue import ATTRS, REWARD_DECKS
from games.kilforth.engine.cards.effects import add_asset, discard_card, draw, remove_asset
from games.kilforth.engine.cards.steps import ask, bind, option, push, step
from games.kilforth.engine.events import Ctx, article, event, person_ref
from games.kilforth.engine.rules import odds
from games.kilforth.engine.rules.ancients import plot_options
from games.kilforth.engine.rules.dice import dice_sources
from games.kilforth.engine.rules.explain import card_text, finish, place, plural
from games.kilforth.engine.rules.explain import gold as gold_text
from games.kilforth.engine.rules.position import (
    card,
    destinations,
    encounter_value,
    gold_value,
    heroes_at,
    is_enemy_for,
    leave_location,
    loc_card,
    name,
    neighbours,
    place_encounter,
    success_min,
)
from games.kilforth.engine.rules.sagas import regale_options
from games.kilforth.engine.state import State, log

_MOVED = {"escape": "fled to", "effect": "was sent to"}


def _left_team(e: dict, c: Ctx) -> str:
    rest = e.get("team") or []
    tail = f"; {c.people(rest)} carry on" if len(rest) > 1 else ""
    tail = f"; {c.people(rest)} carries on" if len(rest) == 1 else tail
    return f"{c.person(e['seat'])} left the team{tail or '; the team broke up'}."


event(
    "moved",
    lambda e, c: (
        f"{c.person(e['seat'])} {_MOVED.get(str(e.get('how')), 'moved to')} {c.card(e['to'])}."
    ),
    fields=("seat", "to", "how"),
    examples=({"how": None}, {"how": "escape"}, {"how": "effect"}),
)
event(
    "encounter_drawn",
    lambda e, c: (
        f"{c.card(e['card'])}, {article(str(e['type']))}, turned up at {c.card(e['loc'])}."
    ),
    fields=("card", "type", "loc"),
    examples=({"type": "enemy"}, {"type": "quest"}, {"type": "event"}),
)
event("obstacle_cleared", "{seat} cleared an obstacle at {loc}.", tone="good")
event("hidden", "{seat} slipped into hiding.")
event(
    "left_team",
    _left_team,
    fields=("seat", "team"),
    examples=({"team": []}, {"team": [1]}, {"team": [1, 2]}),
)
event("revealed", "{seat} came out of hiding.")
event("rested", "{seat} rested (now {hp:HP}).", tone="good")
event("discovered", "{seat} discovered {card}; it is now in play.", tone="good")
event(
    "confront",
    "{seat} confronted {card} with {attr}: {total} of {need:success} so far.",
)
event("no_enemy_token", "{card} turned hostile, but {seat} has no enemy token left to mark it.")
event("enemy_token", "{card} is now {seat}'s sworn enemy.", tone="bad")
event(
    "market_heal",
    lambda e, c: (
        f"{c.person(e['seat'])} paid a healer at the market"
        + (f" for {c.person(e['target'])}" if e["target"] != e["seat"] else "")
        + f" (now {e['hp']} HP)."
    ),
    fields=("seat", "target", "hp"),
)
event("market_look", "{seat} browsed {cards}.")
event("purchased", "{seat} bought {card}.", tone="good")
event("sold", "{seat} sold {card} for {gold:gold}.")


CONFRONTABLE = ("place", "quest", "stranger")


def _act(seat: int, *steps: dict) -> list[dict]:
    return [{"k": "spend_ap", "seat": seat}, *steps, {"k": "after_action", "seat": seat}]


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


def _confront_text(state: State, seat: int, cid: str, attr: str, prog: dict | None) -> str:
    """CONF-2/CONF-3/CONF-5: the test, what is already piled up, and what a stranger risks."""
    c = card(cid)
    need = encounter_value(cid, attr)
    have = prog["n"] if prog else 0
    text = (
        f"Spend 1 AP to test your {attr} against {name(cid)} ({c['type']}): "
        f"{plural(need, 'success', 'successes')} in total defeat it and earn a reward"
    )
    if have:
        text += f"; you already have {have}"
    text += ". " + _confront_odds(state, seat, attr, max(0, need - have))
    if c["type"] == "stranger":
        text += ". A test that leaves you with no successes makes it your enemy"
    return finish(text)


def _confront_odds(state: State, seat: int, attr: str, left: int) -> str:
    """TEST-1..4: the exact chance that this one test brings the rest home, fate counted apart."""
    dice = max(0, sum(n for _, n in dice_sources(state, seat, attr)))
    h = state.heroes[seat]
    threshold = success_min(state)
    chance = odds.percent(odds.at_least(dice, left, threshold))
    text = f"Chance to finish it with this test ({dice} dice, {threshold}+ to succeed): {chance}"
    if h["fate_day"] != state.day and (h["fate"] > 0 or h["hand"]):
        text += f", {odds.percent(odds.at_least(dice, left, threshold, fate=True))} with fate"
    return text


def action_options(state: State, seat: int) -> list[dict]:

    h = state.heroes[seat]
    i = h["loc"]
    loc = state.map[i]
    lc = loc_card(state, i)
    opts: list[dict] = []
    # MOVE-1
    near = neighbours(i)
    for j in destinations(state, i):
        how = "walk" if j in near else f"take the {lc['symbol']} shortcut"
        opts.append(
            option(
                f"move:{state.map[j]['id']}",
                f"Move to {name(state.map[j]['id'])}",
                _act(seat, {"k": "move", "seat": seat, "to": j}),
                explain=f"Spend 1 AP to {how} to {place(state, j, seat)}",
                rule="MOVE-1",
                cost="1 AP",
                group="action",
                topic="move",
                data={"verb": "move", "loc": j},
            )
        )
    # CLEAR-1: an obstacle, or (if none) a plot card
    if loc["obstacles"]:
        opts.append(
            option(
                "clear",
                "Clear an obstacle",
                _act(seat, {"k": "clear_obstacle", "seat": seat}),
                explain=f"Spend 1 AP to remove an obstacle from {lc['name']} "
                f"({plural(loc['obstacles'], 'obstacle')} there)"
                + (" and draw a loot token." if state.edition == "gloom" else "."),
                rule="CLEAR-1",
                cost="1 AP",
                group="action",
                topic="clear",
                data={"verb": "clear_obstacle"},
            )
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
                explain=f"Spend 1 AP to draw a {lc['terrain']} encounter and place it at "
                f"{lc['name']}; an enemy drawn this way attacks with surprise.",
                rule="SEARCH-1",
                cost="1 AP",
                group="action",
                topic="search",
                data={"verb": "search"},
            )
        )
    # HIDE-1
    if not h["hidden"]:
        opts.append(
            option(
                "hide",
                "Hide",
                _act(seat, {"k": "hide", "seat": seat}),
                explain="Spend 1 AP to become hidden: enemies you meet let you reveal yourself "
                "with surprise or try to slip past, but you cannot use deeds or join teams.",
                rule="HIDE-1",
                cost="1 AP",
                group="action",
                topic="hide",
                data={"verb": "hide"},
            )
        )
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
                        explain=_confront_text(state, seat, cid, a, prog),
                        rule="CONF-4" if c["type"] == "stranger" else "CONF-2",
                        cost="1 AP",
                        group="action",
                        topic="confront",
                        data={"verb": "confront", "card": cid, "attr": a},
                    )
                )
            if c["type"] == "stranger" and h["enemy_tokens"] > 0 and not prog:
                opts.append(
                    option(
                        f"enemy:{cid}",
                        f"Make {name(cid)} your enemy",
                        _act(seat, {"k": "make_enemy", "seat": seat, "enc": cid}),
                        explain=f"Spend 1 AP and one of your {h['enemy_tokens']} enemy tokens: "
                        f"{name(cid)} becomes your enemy (fight {c['fight']}, health "
                        f"{c['health']}) and you fight it at once, with no surprise.",
                        rule="CONF-6",
                        cost="1 AP",
                        group="action",
                        topic="enemy",
                        data={"verb": "make_enemy", "card": cid},
                    )
                )
    # REST-1
    if not loc["enc"] and h["hp"] < h["max_hp"]:
        opts.append(
            option(
                "rest",
                "Rest (+1 HP)",
                _act(seat, {"k": "rest", "seat": seat}),
                explain=f"Spend 1 AP to heal 1 HP (from {h['hp']} to {h['hp'] + 1} of "
                f"{h['max_hp']}); your AP does not go back up.",
                rule="REST-1",
                cost="1 AP",
                group="action",
                topic="rest",
                data={"verb": "rest"},
            )
        )
    # DISC-1
    for cid in h["hand"]:
        if loc["id"] in card(cid).get("where", []):
            opts.append(
                option(
                    f"discover:{cid}",
                    f"Discover {name(cid)}",
                    _act(seat, {"k": "discover", "seat": seat, "card": cid}),
                    explain=f"Spend 1 AP to put this rumour from your hand into play as an "
                    f"asset. {card_text(cid)}",
                    rule="DISC-1",
                    cost="1 AP",
                    group="action",
                    topic="discover",
                    data={"verb": "discover", "card": cid},
                )
            )
    # MKT-1
    if lc["market"] and market_possible(state, seat):
        opts.append(
            option(
                "market",
                "Visit the market",
                _act(seat, {"k": "market_menu", "seat": seat, "done": []}),
                explain=f"Spend 1 AP to shop at {lc['name']}: heal at 1 gold per HP, buy one "
                "of the top 3 cards of a reward deck, and sell cards for half their gold value.",
                rule="MKT-1",
                cost="1 AP",
                group="action",
                topic="market",
                data={"verb": "market"},
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
    if state.edition == "gloom":  # CLEAR-2 (Gloom): "Remove an Obstacle (gain Loot token)"
        push(state, {"k": "draw_loot", "seat": s["seat"]})


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
                explain=f"Buy HP at 1 gold each for you or a hurt hero here; you have "
                f"{gold_text(h['gold'])}.",
                rule="MKT-2",
                cost="1 gold per HP",
                topic="market",
                data={"verb": "heal"},
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
                        explain=f"Draw the top 3 {d} cards and buy one you can afford with your "
                        f"{gold_text(h['gold'])}; it goes straight into play and the rest are "
                        "discarded.",
                        rule="MKT-3",
                        topic="market",
                        data={"verb": "browse", "deck": d},
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
                explain="Sell rumours from your hand and assets from play, one at a time, each "
                "for half its gold value rounded down.",
                rule="MKT-4",
                topic="market",
                data={"verb": "sell"},
            )
        )
    if done:
        opts.append(
            option(
                "leave",
                "Leave the market",
                explain="Finish shopping; what you have not done yet is given up for this visit.",
                rule="MKT-1",
                topic="market",
                data={"verb": "leave"},
            )
        )
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
                    f"Buy 1 HP for {'yourself' if t == seat else person_ref(t)} (1 gold)",
                    [
                        {"k": "market_heal_one", "seat": seat, "target": t},
                        {"k": "market_heal", "seat": seat, "more": True},
                    ],
                    explain=f"Pay 1 of your {gold_text(h['gold'])}: "
                    f"{'you heal' if t == seat else person_ref(t) + ' heals'} 1 HP "
                    f"(now {state.heroes[t]['hp']} of {state.heroes[t]['max_hp']}).",
                    rule="MKT-2",
                    cost="1 gold",
                    topic="market",
                    data={"verb": "buy_hp", "target": t},
                )
            )
    if not opts:
        return
    if s.get("more"):
        opts.append(
            option(
                "done",
                "Done healing",
                explain="Stop buying HP and go back to the market.",
                rule="MKT-2",
                topic="market",
                data={"verb": "done"},
            )
        )
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
            explain=f"Pay {gold_text(gold_value(c))} of your {gold_text(gold)}; it enters play "
            f"as your asset and the other cards are discarded. {card_text(c)}",
            rule="MKT-3",
            cost=gold_text(gold_value(c)),
            topic="market",
            data={"verb": "buy", "card": c, "gold": gold_value(c)},
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
                explain=f"Discard the rumour {name(c)} from your hand for "
                f"{gold_text(gold_value(c) // 2)}, half its value of {gold_text(gold_value(c))}.",
                rule="MKT-4",
                topic="market",
                data={"verb": "sell_card", "card": c, "zone": "hand", "gold": gold_value(c) // 2},
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
                explain=f"Give up your asset {name(c)} for {gold_text(gold_value(c) // 2)}, "
                f"half its value of {gold_text(gold_value(c))}; its bonus and keywords go with it.",
                rule="MKT-4",
                topic="market",
                data={"verb": "sell_card", "card": c, "zone": "assets", "gold": gold_value(c) // 2},
            )
        )
    if s["sold"]:
        opts.append(
            option(
                "done",
                "Done selling",
                explain="Stop selling and go back to the market.",
                rule="MKT-4",
                topic="market",
                data={"verb": "done"},
            )
        )
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

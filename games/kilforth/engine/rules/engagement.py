"""Engagement and battle (ENG-1..11, DEED-7) against encounter enemies.

Flow: engage_all -> (order prompt) -> engage -> (team offer | reveal-or-evade) -> battle_round
-> skirmish -> (escape prompt) -> ... Battle HP of the foe lives in state.encounters[cid]["hp"]
only during the battle; a surviving foe returns to full health (ENG-11).
"""

from __future__ import annotations

from collections import deque

from games.kilforth.engine.cards.effects import discard_card, lose_hp, remove_asset
from games.kilforth.engine.cards.steps import abort_turn, ask, option, push, step
from games.kilforth.engine.events import Ctx, event, join, plural
from games.kilforth.engine.rules import odds
from games.kilforth.engine.rules.deeds import OFFER_CAP, engagement_deeds, team_option
from games.kilforth.engine.rules.dice import dice_sources
from games.kilforth.engine.rules.explain import place
from games.kilforth.engine.rules.position import (
    all_enemies_at,
    attr_total,
    card,
    enemies_for,
    gold_value,
    heroes_at,
    leave_location,
    name,
    neighbours,
    success_min,
    team_of,
)
from games.kilforth.engine.state import State, log


def _battle(e: dict, c: Ctx) -> str:
    who, foe = c.person(e["seat"]), c.card(e["card"])
    team = e.get("team") or []
    extra = f" together with {c.people(team[1:])}" if len(team) > 1 else ""
    first = {"foe": f"; {foe} strikes first", "hero": f"; {who} strikes first"}
    return f"Battle: {who}{extra} against {foe}{first.get(str(e.get('surprise')), '')}."


def _skirmish(e: dict, c: Ctx) -> str:
    foe = c.card(e["card"])
    hurt = [f"{c.person(m)} lost {plural(n, 'HP')}" for m, n in (e.get("taken") or []) if n]
    return (
        f"Round {e['round']} against {foe}: {plural(e['dealt'], 'hit')} dealt, "
        f"{join(hurt) or 'nobody was hurt'}; {foe} has {e['foe_hp']} HP left."
    )


event("engage", "{seat} faces {card}.", tone="battle")
event("evade_failed", "{seat} could not slip past {card} and was spotted.", tone="bad")
event("evaded", "{seat} slipped past {card} unseen.", tone="good")
event(
    "battle",
    _battle,
    tone="battle",
    fields=("seat", "card", "surprise", "team"),
    examples=(
        {"surprise": None, "team": [0]},
        {"surprise": "foe", "team": [0, 1]},
        {"surprise": "hero", "team": [0, 1, 2]},
    ),
)
event(
    "skirmish",
    _skirmish,
    tone="battle",
    fields=("seat", "card", "round", "dealt", "taken", "foe_hp"),
    examples=({"taken": [[0, 2], [1, 1]]}, {"taken": [[0, 0]], "dealt": 1}),
)
event("escape", "{seat} escaped from {card}.")
event(
    "hero_defeated",
    lambda e, c: (
        f"{c.person(e['seat'])} was defeated"
        + (f", dropped {plural(e['gold_lost'], 'gold')}" if e.get("gold_lost") else "")
        + " and was carried back to the centre."
    ),
    tone="bad",
    fields=("seat", "gold_lost"),
    examples=({"gold_lost": 0}, {"gold_lost": 3}),
)
event("card_lost", "{seat} lost {card}.", tone="bad")


@step("engage_all")
def _engage_all(state: State, s: dict) -> None:
    """DAY-4/DAY-5/ENG-1: engage every enemy here, in an order the hero chooses."""
    seat = s["seat"]
    h = state.heroes[seat]
    if h["camped"] or h["eliminated"] or state.result is not None:
        return
    foes = enemies_for(state, seat)
    if not foes:
        return
    if len(foes) == 1:
        push(
            state, {"k": "engage", "seat": seat, "enc": foes[0]}, {"k": "engage_all", "seat": seat}
        )
        return
    opts = [
        option(
            f"engage:{cid}",
            f"Engage {name(cid)} first",
            [{"k": "engage", "seat": seat, "enc": cid}, {"k": "engage_all", "seat": seat}],
            explain=f"Face {name(cid)} (fight {card(cid)['fight']}, health "
            f"{card(cid)['health']}) first; the other enemies here come after it.",
            rule="DAY-4",
            topic="enemy",
            data={"verb": "engage", "card": cid},
        )
        for cid in foes
    ]
    ask(state, seat, "engage_order", "Several enemies here: which do you engage first?", opts)


def team_partners(state: State, seat: int) -> list[int]:
    """DEED-5: heroes here, not hidden, not defeated, not already in the team."""
    h = state.heroes[seat]
    if h["hidden"]:
        return []
    return [
        t
        for t in heroes_at(state, h["loc"])
        if t != seat
        and not state.heroes[t]["hidden"]
        and not state.heroes[t]["defeated"]
        and t not in state.team
    ]


def foe_surprise(state: State, seat: int, cid: str) -> bool:
    """ENG-2: drawn from a deck this turn, unless it just got this hero's enemy token."""
    info = state.encounters[cid]
    return info["fresh"] == state.turn_no and info["token_turn"] != state.turn_no


@step("engage")
def _engage(state: State, s: dict) -> None:
    seat, cid = s["seat"], s["enc"]
    h = state.heroes[seat]
    if h["camped"] or cid not in state.encounters or cid not in enemies_for(state, seat):
        return
    log(state, "engage", seat=seat, card=cid)
    team = team_of(state, seat)
    if len(team) > 1:  # DEED-7: team battle skips surprise and evasion
        push(state, {"k": "battle_start", "seat": seat, "enc": cid, "surprise": None})
        return
    if h["hidden"]:  # ENG-3
        c = card(cid)
        opts = [
            option(
                "reveal",
                "Reveal yourself and gain surprise",
                [
                    {"k": "unhide", "seat": seat},
                    {"k": "battle_start", "seat": seat, "enc": cid, "surprise": "hero"},
                ],
                explain=f"Stop hiding and fight {name(cid)} (fight {c['fight']}, health "
                f"{c['health']}) with surprise: 1 extra die in the first round.",
                rule="ENG-3",
                topic="surprise",
                data={"verb": "reveal", "card": cid},
            ),
            option(
                "evade",
                f"Stay hidden and try to evade (sneak vs {c['sneak']})",
                [{"k": "evade", "seat": seat, "enc": cid}],
                explain=f"Roll your {attr_total(state, seat, 'sneak')} sneak dice: "
                f"{c['sneak']} or more successes slip past {name(cid)} for today; fewer and "
                "you are found and it strikes first.",
                rule="ENG-4",
                topic="evade",
                data={"verb": "evade", "card": cid, "need": c["sneak"]},
            ),
        ]
        if state.settings["auto_evasion"] and attr_total(state, seat, "sneak") > c["sneak"]:
            opts.append(
                option(
                    "auto_evade",
                    "Evade automatically (your sneak is higher)",
                    [{"k": "evaded", "seat": seat, "enc": cid}],
                    explain=f"Your sneak ({attr_total(state, seat, 'sneak')}) is higher than "
                    f"that of {name(cid)} ({c['sneak']}), so you slip past it for today without "
                    "a roll.",
                    rule="ENG-5",
                    topic="evade",
                    data={"verb": "auto_evade", "card": cid},
                )
            )
        ask(state, seat, "hidden_engage", f"{name(cid)} is here and you are hidden", opts, card=cid)
        return
    partners = team_partners(state, seat)
    surprise = "foe" if foe_surprise(state, seat, cid) else None
    fight = {"k": "battle_start", "seat": seat, "enc": cid, "surprise": surprise}

    # DAY-11: every deed whose restriction is met may be used here, before the battle.
    deeds = [] if s.get("asked") else engagement_deeds(state, seat, cid, back=dict(s))
    if not (partners and state.offers < OFFER_CAP):
        partners = []
    if (partners or deeds) and not s.get("asked"):
        fc = card(cid)
        opts = [
            option(
                "alone",
                "Fight alone" if partners else "Fight",
                [fight],
                explain=f"Battle {name(cid)} (fight {fc['fight']}, health {fc['health']})"
                + (" on your own" if partners else "")
                + (
                    "; it has surprise and rolls 1 extra die in the first round."
                    if surprise
                    else "."
                )
                + " "
                + round_odds(state, seat, cid, fc["health"] or 1, 1 if surprise else 0, "First"),
                rule="ENG-6",
                topic="fight",
                data={"verb": "fight", "card": cid},
            )
        ]
        for t in partners:
            opts.append(
                team_option(
                    state,
                    t,
                    [
                        {"k": "team_offer", "seat": seat, "target": t},
                        {"k": "engage", "seat": seat, "enc": cid, "asked": True},
                    ],
                )
            )
        opts += deeds
        ask(
            state,
            seat,
            "engage_team",
            f"Engage {name(cid)}: fight alone or ask for help?"
            if partners
            else f"Engage {name(cid)}: fight, or use a deed first?",
            opts,
            card=cid,
        )
        return
    push(state, fight)


@step("evade")
def _evade(state: State, s: dict) -> None:
    """ENG-4: a sneak test against the foe's sneak."""
    tag = f"evade{state.turn_no}"
    push(
        state,
        {"k": "test", "seat": s["seat"], "attr": "sneak", "tag": tag},
        {"k": "evade_resolve", "seat": s["seat"], "enc": s["enc"], "tag": tag},
    )


@step("evade_resolve")
def _evade_resolve(state: State, s: dict) -> None:
    seat, cid = s["seat"], s["enc"]
    res = state.scratch.pop(s["tag"])
    need = card(cid)["sneak"]
    if res["succ"] >= need:
        push(state, {"k": "evaded", "seat": seat, "enc": cid})
    else:
        log(state, "evade_failed", seat=seat, card=cid)
        push(
            state,
            {"k": "unhide", "seat": seat},
            {"k": "battle_start", "seat": seat, "enc": cid, "surprise": "foe"},
        )


@step("evaded")
def _evaded(state: State, s: dict) -> None:
    state.encounters[s["enc"]]["evaded"].append(s["seat"])
    log(state, "evaded", seat=s["seat"], card=s["enc"])


def round_odds(
    state: State, seat: int, cid: str, foe_hp: int, foe_extra: int = 0, which: str = "This"
) -> str:
    """ENG-7: the exact odds of the next battle round alone against `cid`, before the dice
    (fate not counted: the hero calls on it after seeing them)."""
    hero = max(0, sum(n for _, n in dice_sources(state, seat, "fight")))
    foe = max(0, (card(cid)["fight"] or 0) + foe_extra)
    r = odds.battle_round(hero, foe, state.heroes[seat]["hp"], foe_hp, success_min(state))
    both = f", {odds.percent(r['both'])} that you both fall" if r["both"] else ""
    return (
        f"{which} round ({hero} dice against its {foe}): {odds.percent(r['win'])} that you defeat "
        f"it, {odds.percent(r['lose'])} that you fall{both}; on average you deal "
        f"{float(r['damage_dealt']):.1f} damage and take {float(r['damage_taken']):.1f}."
    )


@step("battle_start")
def _battle_start(state: State, s: dict) -> None:
    """ENG-6: the foe gets HP equal to its health."""
    cid = s["enc"]
    state.encounters[cid]["hp"] = card(cid)["health"] or 1
    state.scratch["engagement"] = {"seat": s["seat"], "foe": cid, "round": 1}
    state.scratch["engagement"]["surprise"] = s["surprise"]
    log(
        state,
        "battle",
        seat=s["seat"],
        card=cid,
        surprise=s["surprise"],
        team=team_of(state, s["seat"]),
    )
    push(
        state,
        {"k": "battle_round", "seat": s["seat"], "enc": cid, "round": 1, "surprise": s["surprise"]},
    )


@step("battle_round")
def _battle_round(state: State, s: dict) -> None:
    """ENG-7: hero(es) and foe each make a fight test; surprise adds 1 die in round 1."""
    seat, cid, rnd = s["seat"], s["enc"], s["round"]
    if state.scratch.get("engagement", {}).get("foe") == cid:
        state.scratch["engagement"]["round"] = rnd  # for view()
    members = [m for m in team_of(state, seat) if not state.heroes[m]["defeated"]]
    steps = []
    for m in members:
        extra = [["surprise", 1]] if s["surprise"] == "hero" and rnd == 1 and m == seat else []
        steps.append({"k": "test", "seat": m, "attr": "fight", "tag": f"hero{m}", "extra": extra})
    dice = card(cid)["fight"]
    sources = [[cid, dice]]
    if s["surprise"] == "foe" and rnd == 1:
        dice += 1
        sources.append(["surprise", 1])
    for m in members:
        steps.append(
            {"k": "foe_test", "foe": cid, "dice": dice, "sources": sources, "tag": f"foe{m}"}
        )
    steps.append({"k": "skirmish", "seat": seat, "enc": cid, "round": rnd, "members": members})
    push(state, *steps)


@step("skirmish")
def _skirmish(state: State, s: dict) -> None:
    """Losses apply simultaneously; then foe-defeated, then hero-defeated checks (DEED-7)."""

    seat, cid, members = s["seat"], s["enc"], s["members"]
    info = state.encounters[cid]
    dealt = sum(state.scratch.pop(f"hero{m}")["succ"] for m in members)
    taken = {m: state.scratch.pop(f"foe{m}")["succ"] for m in members}
    info["hp"] = max(0, info["hp"] - dealt)
    for m in members:
        if taken[m]:
            lose_hp(state, m, taken[m], source=cid)
    log(
        state,
        "skirmish",
        seat=seat,
        card=cid,
        round=s["round"],
        dealt=dealt,
        taken=[[m, taken[m]] for m in members],
        foe_hp=info["hp"],
    )
    then: list[dict] = []
    foe_down = info["hp"] == 0
    if foe_down:
        then.append({"k": "claim_reward", "seat": seat, "enc": cid, "how": "battle"})
    n = len(state.heroes)
    downed = sorted(
        (m for m in members if state.heroes[m]["hp"] == 0), key=lambda m: (m - seat) % n
    )
    for m in downed:  # DEED-7: in turn order from the active hero
        then.append({"k": "defeat", "seat": m})
    if foe_down or seat in downed:
        if not foe_down:
            info["hp"] = None  # ENG-11: a surviving foe returns to full health
        then.append({"k": "battle_over", "seat": seat})
        push(state, *then)
        return
    # A fallen team member camps (ENG-9); the others fight on with the active hero.
    push(state, *then, {"k": "battle_next", "seat": seat, "enc": cid, "round": s["round"]})


@step("battle_next")
def _battle_next(state: State, s: dict) -> None:
    """Another round for a team (DEED-7: no escape), or the fight-on/escape question alone."""
    seat, cid = s["seat"], s["enc"]
    members = [m for m in team_of(state, seat) if not state.heroes[m]["defeated"]]
    if len(members) > 1:
        push(
            state,
            {
                "k": "battle_round",
                "seat": seat,
                "enc": cid,
                "round": s["round"] + 1,
                "surprise": None,
            },
        )
        return
    push(state, {"k": "battle_choice", "seat": seat, "enc": cid, "round": s["round"]})


@step("battle_choice")
def _battle_choice(state: State, s: dict) -> None:
    """ENG-10: after a round, fight on or escape; DAY-11: every deed may be used here too."""

    seat, cid = s["seat"], s["enc"]
    info = state.encounters[cid]
    nxt = {"k": "battle_round", "seat": seat, "enc": cid, "round": s["round"] + 1, "surprise": None}
    hp = state.heroes[seat]["hp"]
    opts = [
        option(
            "fight",
            "Fight another round",
            [nxt],
            explain=f"Roll another battle round against {name(cid)}, which has {info['hp']} HP "
            f"left; you have {hp} HP. " + round_odds(state, seat, cid, info["hp"]),
            rule="ENG-6",
            topic="fight",
            data={"verb": "fight", "card": cid, "foe_hp": info["hp"]},
        ),
        option(
            "escape",
            "Escape (make camp, end your turn)",
            [{"k": "escape", "seat": seat, "enc": cid}],
            explain=f"Flee from {name(cid)}: you make camp, your turn ends and you go to the "
            "nearest location without enemies; it heals back to full.",
            rule="ENG-10",
            topic="escape",
            data={"verb": "escape", "card": cid},
        ),
    ]
    opts += engagement_deeds(state, seat, cid, back=dict(s))
    ask(
        state,
        seat,
        "escape",
        f"{name(cid)} has {info['hp']} HP left. Fight on or escape?",
        opts,
        card=cid,
    )


@step("battle_over")
def _battle_over(state: State, s: dict) -> None:
    """DEED-9: the team disbands after the active hero's engagement."""
    if state.team and state.team[0] == s["seat"]:
        log(state, "team_disbanded", members=state.team)
        state.team = []


def escape_destinations(state: State, seat: int) -> list[int]:
    """ENG-10: nearest enemy-free locations by orthogonal moves (no shortcuts)."""
    start = state.heroes[seat]["loc"]
    dist = {start: 0}
    q = deque([start])
    while q:
        i = q.popleft()
        for j in neighbours(i):
            if j not in dist:
                dist[j] = dist[i] + 1
                q.append(j)
    free = [i for i in dist if i != start and not all_enemies_at(state, i, seat)]
    if not free:
        return []
    best = min(dist[i] for i in free)
    return sorted(i for i in free if dist[i] == best)


@step("escape")
def _escape(state: State, s: dict) -> None:
    seat, cid = s["seat"], s["enc"]
    state.encounters[cid]["hp"] = None  # ENG-11
    dests = escape_destinations(state, seat)
    log(state, "escape", seat=seat, card=cid)
    if len(dests) > 1:
        opts = [
            option(
                f"to:{state.map[j]['id']}",
                f"Escape to {name(state.map[j]['id'])}",
                [{"k": "escape_to", "seat": seat, "to": j}],
                explain=f"Flee to {place(state, j, seat)}",
                rule="ENG-10",
                topic="escape",
                data={"verb": "escape_to", "loc": j},
            )
            for j in dests
        ]
        ask(state, seat, "escape_to", "Choose where to escape to", opts)
    else:
        push(state, {"k": "escape_to", "seat": seat, "to": dests[0] if dests else None})


@step("escape_to")
def _escape_to(state: State, s: dict) -> None:

    seat = s["seat"]
    if s["to"] is not None:
        leave_location(state, seat)
        state.heroes[seat]["loc"] = s["to"]
        log(state, "moved", seat=seat, to=state.map[s["to"]]["id"], how="escape")
    if state.turn == seat:
        abort_turn(state)  # ENG-10: the turn ends at once
    push(state, {"k": "camp", "seat": seat})


@step("defeat")
def _defeat(state: State, s: dict) -> None:
    """ENG-9: make camp, turn ends, gold to pool, lose 1 asset or rumour, go to the centre."""

    seat = s["seat"]
    h = state.heroes[seat]
    if h["eliminated"] or h["defeated"]:
        return
    h["defeated"] = True
    h["hp"] = 0
    h["hidden"] = False
    log(state, "hero_defeated", seat=seat, gold_lost=h["gold"])
    h["gold"] = 0
    if state.team and seat in state.team:
        state.team.remove(seat)
    leave_location(state, seat)
    h["loc"] = state.centre()
    if state.turn == seat and state.phase == "daylight":
        abort_turn(state)
    push(state, {"k": "camp", "seat": seat}, {"k": "lose_card", "seat": seat})


@step("lose_card")
def _lose_card(state: State, s: dict) -> None:
    """ENG-9: the hero chooses which asset to sacrifice or rumour to discard."""
    seat = s["seat"]
    h = state.heroes[seat]
    opts = [
        option(
            f"lose:{c}",
            f"Discard rumour {name(c)}",
            [{"k": "lose_card_apply", "seat": seat, "card": c}],
            explain=f"You were defeated and must lose one card: discard the rumour {name(c)} "
            "from your hand.",
            rule="ENG-9",
            data={"verb": "lose_card", "card": c, "zone": "hand"},
        )
        for c in h["hand"]
    ]
    opts += [
        option(
            f"lose:{c}",
            f"Sacrifice {name(c)}",
            [{"k": "lose_card_apply", "seat": seat, "card": c}],
            explain=f"You were defeated and must lose one card: give up your asset {name(c)} "
            f"(worth {gold_value(c)} gold).",
            rule="ENG-9",
            data={"verb": "lose_card", "card": c, "zone": "assets"},
        )
        for c in h["assets"]
    ]
    if not opts:
        return
    if len(opts) == 1:
        push(state, opts[0]["then"][0])
        return
    ask(state, seat, "lose_card", "You were defeated: choose a card to lose", opts)


@step("lose_card_apply")
def _lose_card_apply(state: State, s: dict) -> None:

    seat, c = s["seat"], s["card"]
    h = state.heroes[seat]
    if c in h["hand"]:
        h["hand"].remove(c)
    elif c in h["assets"]:
        remove_asset(state, seat, c)
    else:
        return
    discard_card(state, c)
    log(state, "card_lost", seat=seat, card=c)

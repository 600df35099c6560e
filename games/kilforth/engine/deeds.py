"""Free deeds (DEED-1..9) and other free choices offered on the hero's own turn.

Deeds are never available to a hidden hero (DAY-11, HIDE-3). Team and exchange are OFFERS: the
other hero answers from its own seat; a hero that made camp can still accept (DEED-5).
"""

from __future__ import annotations

from .board import card, heroes_at, in_play_cards, name
from .effects import add_asset, discard_card, remove_asset, to_hand
from .engagement import OFFER_CAP
from .state import State, log
from .steps import ask, bind, option, push, step


def free_options(state: State, seat: int) -> list[dict]:
    from .ancients import assault_options

    h = state.heroes[seat]
    menu = {"k": "turn_menu", "seat": seat}
    if h["hidden"]:
        # HIDE-2: stopping being hidden is free; deeds are blocked while hidden.
        return [option("unhide", "Stop being hidden", [{"k": "unhide", "seat": seat}, menu])]
    opts: list[dict] = []
    here = [t for t in heroes_at(state, h["loc"]) if t != seat]
    others = [t for t in here if not state.heroes[t]["defeated"]]
    if state.offers < OFFER_CAP:
        for t in others:
            th = state.heroes[t]
            if not th["hidden"] and t not in state.team:
                opts.append(
                    option(
                        f"team:{t}",
                        f"Propose a team to {th['name']}",
                        [{"k": "team_offer", "seat": seat, "target": t}, menu],
                        target=t,
                    )
                )
            gifts = []
            if h["gold"]:
                gifts.append(("gold", "1 gold"))
            gifts += [(f"loot:{c}", name(c)) for c in h["loot"]]
            gifts += [(f"rumour:{c}", f"rumour {name(c)}") for c in h["hand"]]
            gifts += [
                (f"asset:{c}", name(c))
                for c in h["assets"]
                if card(c)["kind"] == "reward" and card(c)["deck"] in ("item", "spell")
            ]
            for what, label in gifts:
                opts.append(
                    option(
                        f"give:{t}:{what}",
                        f"Offer {label} to {th['name']}",
                        [{"k": "gift_offer", "seat": seat, "target": t, "what": what}, menu],
                        target=t,
                    )
                )
    # DEED-3 overcome
    mine = {k for c in in_play_cards(state, seat) for k in card(c).get("keywords", [])}
    mine = {k.lstrip("*") for k in mine}
    for cid in state.map[h["loc"]]["enc"]:
        weak = card(cid)["weakness"]
        if weak and weak in mine:
            opts.append(
                option(
                    f"overcome:{cid}",
                    f"Overcome {name(cid)} (weakness {weak})",
                    [{"k": "overcome", "seat": seat, "enc": cid}, menu],
                    card=cid,
                )
            )
    opts.extend(resolve_options(state, seat, back=menu))
    opts.extend(assault_options(state, seat))
    return opts


def resolve_options(state: State, seat: int, back: dict) -> list[dict]:
    """DEED-4 choices; `back` is the step that re-asks the interrupted question afterwards."""
    h = state.heroes[seat]
    if h["hidden"]:
        return []
    opts = []
    for cid in in_play_cards(state, seat):
        if card(cid).get("deed"):
            then = [{"k": "resolve", "seat": seat, "card": cid}, back]
            opts.append(option(f"resolve:{cid}", f"Use {name(cid)}", then, card=cid))
    for cid in h["loot"]:
        if card(cid)["deed"]:
            then = [{"k": "resolve", "seat": seat, "card": cid}, back]
            opts.append(option(f"resolve:{cid}", f"Use loot {name(cid)}", then, card=cid))
    return opts


@step("team_offer")
def _team_offer(state: State, s: dict) -> None:
    """DEED-5: the other hero accepts or declines from its own seat."""
    seat, t = s["seat"], s["target"]
    state.offers += 1
    log(state, "team_offered", seat=seat, target=t)
    ask(
        state,
        t,
        "team_offer",
        f"{state.heroes[seat]['name']} proposes a team",
        [
            option("accept", "Join the team", [{"k": "team_join", "seat": seat, "target": t}]),
            option("decline", "Decline", [{"k": "offer_declined", "seat": seat, "target": t}]),
        ],
        offer_from=seat,
    )


@step("team_join")
def _team_join(state: State, s: dict) -> None:
    if not state.team:
        state.team = [s["seat"]]
    if s["target"] not in state.team:
        state.team.append(s["target"])
    log(state, "team_formed", members=state.team)


@step("offer_declined")
def _offer_declined(state: State, s: dict) -> None:
    log(state, "offer_declined", seat=s["seat"], target=s["target"])


@step("disband_after_test")
def _disband_after_test(state: State, s: dict) -> None:
    """DEED-9: a team disbands after the active hero's next non-engagement test."""
    if state.team and state.team[0] == s["seat"]:
        log(state, "team_disbanded", members=state.team)
        state.team = []


@step("gift_offer")
def _gift_offer(state: State, s: dict) -> None:
    """DEED-2: a one-way gift the other hero must accept."""
    seat, t = s["seat"], s["target"]
    state.offers += 1
    what = s["what"]
    label = "1 gold" if what == "gold" else name(what.split(":", 1)[1])
    log(state, "gift_offered", seat=seat, target=t, kind=what.split(":")[0])
    ask(
        state,
        t,
        "gift_offer",
        f"{state.heroes[seat]['name']} offers you {label}",
        [
            option(
                "accept", "Accept", [{"k": "gift_apply", "seat": seat, "target": t, "what": what}]
            ),
            option("decline", "Decline", [{"k": "offer_declined", "seat": seat, "target": t}]),
        ],
        offer_from=seat,
    )


@step("gift_apply")
def _gift_apply(state: State, s: dict) -> None:
    giver, taker = state.heroes[s["seat"]], state.heroes[s["target"]]
    what = s["what"]
    if what == "gold":
        if giver["gold"] < 1:
            return
        giver["gold"] -= 1
        taker["gold"] += 1
    else:
        kind, cid = what.split(":", 1)
        if kind == "loot" and cid in giver["loot"]:
            giver["loot"].remove(cid)
            taker["loot"].append(cid)
            push(state, {"k": "limits", "seat": s["target"]})
        elif kind == "rumour" and cid in giver["hand"]:
            giver["hand"].remove(cid)
            to_hand(state, s["target"], cid)
        elif kind == "asset" and cid in giver["assets"]:
            remove_asset(state, s["seat"], cid)
            add_asset(state, s["target"], cid)
        else:
            return
    log(state, "gift", seat=s["seat"], target=s["target"], kind=what.split(":")[0])


@step("overcome")
def _overcome(state: State, s: dict) -> None:
    """DEED-3: defeat automatically and claim a reward."""
    log(state, "overcome", seat=s["seat"], card=s["enc"])
    push(state, {"k": "claim_reward", "seat": s["seat"], "enc": s["enc"], "how": "overcome"})


@step("resolve")
def _resolve(state: State, s: dict) -> None:
    """DEED-4: use a deed ability; loot is used once, veil abilities veil until dawn."""
    seat, cid = s["seat"], s["card"]
    h = state.heroes[seat]
    c = card(cid)
    log(state, "resolve", seat=seat, card=cid)
    if c["kind"] == "loot":
        h["loot"].remove(cid)
        discard_card(state, cid)
    elif c.get("veil"):
        h["veiled"].append(cid)
    else:
        # A non-veil deed on an asset is single use: the asset is sacrificed. (Skills' deeds
        # always veil: card validation refuses anything else.)
        remove_asset(state, seat, cid)
        discard_card(state, cid)
    push(state, *bind(c["deed"], seat, card=cid))

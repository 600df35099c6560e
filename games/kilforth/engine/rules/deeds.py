"""Free deeds (DEED-1..9) and other free choices offered on the hero's own turn.

Deeds are never available to a hidden hero (DAY-11, HIDE-3). Team and exchange are OFFERS: the
other hero answers from its own seat; a hero that made camp can still accept (DEED-5).
"""

from __future__ import annotations

from games.kilforth.engine.cards.effects import add_asset, discard_card, remove_asset, to_hand
from games.kilforth.engine.cards.steps import ask, bind, option, push, step
from games.kilforth.engine.events import event, person_ref
from games.kilforth.engine.rules.ancients import assault_options
from games.kilforth.engine.rules.explain import card_text, finish
from games.kilforth.engine.rules.position import card, heroes_at, in_play_cards, name
from games.kilforth.engine.state import State, log

OFFER_CAP = 3  # declined offers per turn, then no more offers: stops propose/decline spam

GIFTS = {"gold": "1 gold", "loot": "a loot token", "rumour": "a rumour", "asset": "an asset"}
_GIFT_EXAMPLES = tuple({"kind": k} for k in GIFTS)


def _gift(kind: object) -> str:
    return GIFTS.get(str(kind), "a gift")


event("trade_offered", "{seat} proposed a trade to {target}.")
event("team_offered", "{seat} asked {target} to team up.")
event("team_formed", "{members} joined forces.", tone="good")
event("offer_declined", "{target} turned down {seat}'s offer.")
event(
    "gift_offered",
    lambda e, c: (
        f"{c.person(e['seat'])} offered {_gift(e.get('kind'))} to {c.person(e['target'])}."
    ),
    fields=("seat", "target", "kind"),
    examples=_GIFT_EXAMPLES,
)
event(
    "gift",
    lambda e, c: (
        f"{c.person(e['target'])} accepted {_gift(e.get('kind'))} from {c.person(e['seat'])}."
    ),
    tone="good",
    fields=("seat", "target", "kind"),
    examples=_GIFT_EXAMPLES,
)
event("overcome", "{seat} overcame {card} through its weakness.", tone="good")
event("resolve", "{seat} used {card}.")


def free_options(state: State, seat: int) -> list[dict]:

    h = state.heroes[seat]
    menu = {"k": "turn_menu", "seat": seat}
    if h["hidden"]:
        # HIDE-2: stopping being hidden is free; deeds are blocked while hidden.
        return [unhide_option([{"k": "unhide", "seat": seat}, menu])]
    opts: list[dict] = []
    here = [t for t in heroes_at(state, h["loc"]) if t != seat]
    others = [t for t in here if not state.heroes[t]["defeated"]]
    if state.offers < OFFER_CAP:
        for t in others:
            th = state.heroes[t]
            if not th["hidden"] and t not in state.team:
                opts.append(
                    team_option(state, t, [{"k": "team_offer", "seat": seat, "target": t}, menu])
                )
            for what, label in giftables(state, seat):
                opts.append(_give_option(state, seat, t, what, label, menu))
            if giftables(state, seat) and giftables(state, t):
                opts.append(
                    option(
                        f"trade:{t}",
                        f"Propose a trade to {person_ref(t)} (you give one thing, they give one)",
                        [{"k": "trade_pick", "seat": seat, "target": t}, menu],
                        explain=f"Free: pick one thing of yours and one of {person_ref(t)}'s to "
                        "swap; both change hands only if they accept the whole trade.",
                        rule="DEED-2",
                        cost="free",
                        group="deed",
                        topic="trade",
                        data={"verb": "trade", "target": t},
                    )
                )
    # DEED-3 overcome
    for cid in state.map[h["loc"]]["enc"]:
        if can_overcome(state, seat, cid):
            opts.append(_overcome_option(cid, seat, [menu], state))
    opts.extend(resolve_options(state, seat, back=menu))
    opts.extend(assault_options(state, seat))
    return opts


def can_overcome(state: State, seat: int, cid: str) -> bool:
    """DEED-3: the encounter's weakness is a keyword on one of the hero's cards in play.

    DEED-4: veil stops a card's bonuses and deed, not its keywords, so veiled cards count.
    """
    h = state.heroes[seat]
    weak = card(cid)["weakness"]
    if not weak or h["hidden"]:
        return False
    mine = {k.lstrip("*") for c in h["assets"] + h["skills"] for k in card(c).get("keywords", [])}
    return weak in mine


def unhide_option(then: list[dict]) -> dict:
    """HIDE-2: stopping being hidden is free, on the hero's own decisions and anyone else's."""
    return option(
        "unhide",
        "Stop being hidden",
        then,
        explain="Free: you stop being hidden at once, so you can use deeds, join teams and "
        "confront strangers again, and enemies no longer let you slip past.",
        rule="HIDE-2",
        cost="free",
        group="deed",
        topic="unhide",
        data={"verb": "unhide"},
    )


def team_option(state: State, t: int, then: list[dict]) -> dict:
    """DEED-5: propose a team to hero `t` here; it answers from its own seat."""
    who = person_ref(t)
    return option(
        f"team:{t}",
        f"Propose a team to {who}",
        then,
        explain=f"Free: ask {who}, here with you, to team up for one encounter or battle; each "
        "member adds a die to your tests and fights beside you, and you share out the reward.",
        rule="DEED-5",
        cost="free",
        group="deed",
        topic="team",
        data={"verb": "team", "target": t},
    )


def _give_option(state: State, seat: int, t: int, what: str, label: str, back: dict) -> dict:
    who = person_ref(t)
    return option(
        f"give:{t}:{what}",
        f"Offer {label} to {who}",
        [{"k": "gift_offer", "seat": seat, "target": t, "what": what}, back],
        explain=f"Free: offer {label} to {who} as a gift; it changes hands only if they accept.",
        rule="DEED-2",
        cost="free",
        group="deed",
        topic="give",
        data={"verb": "give", "target": t, **_gift_data(what)},
    )


def _overcome_option(cid: str, seat: int, then: list[dict], state: State) -> dict:
    weak = card(cid)["weakness"]
    h = state.heroes[seat]
    bearers = [
        name(c)
        for c in h["assets"] + h["skills"]
        if weak in {k.lstrip("*") for k in card(c).get("keywords", [])}
    ]
    return option(
        f"overcome:{cid}",
        f"Overcome {name(cid)} (weakness {weak})",
        [{"k": "overcome", "seat": seat, "enc": cid}, *then],
        explain=f"Free: {name(cid)} is weak to {weak} and your {', '.join(bearers)} bears it, "
        "so you defeat it outright and claim its reward.",
        rule="DEED-3",
        cost="free",
        group="deed",
        topic="overcome",
        data={"verb": "overcome", "card": cid},
    )


def engagement_deeds(state: State, seat: int, engaged: str, back: dict) -> list[dict]:
    """DAY-11: every deed whose restriction is met, offered at an engagement's decision point.

    Overcoming the engaged foe ends the battle (the reward is claimed instead); any other deed
    re-asks the interrupted question (`back`). Team offers have their own place at the start.
    """
    h = state.heroes[seat]
    if h["hidden"]:
        return []
    opts = []
    for cid in state.map[h["loc"]]["enc"]:
        if can_overcome(state, seat, cid):
            opts.append(_overcome_option(cid, seat, [] if cid == engaged else [back], state))
    if state.offers < OFFER_CAP:
        for t in heroes_at(state, h["loc"]):
            if t == seat or state.heroes[t]["defeated"]:
                continue
            for what, label in giftables(state, seat):
                opts.append(_give_option(state, seat, t, what, label, back))
    opts.extend(resolve_options(state, seat, back=back))
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
            after = (
                "it is then veiled until dawn"
                if card(cid).get("veil")
                else "the card is then sacrificed"
            )
            opts.append(_resolve_option(cid, f"Use {name(cid)}", then, after, "assets"))
    for cid in h["loot"]:
        if card(cid)["deed"]:
            then = [{"k": "resolve", "seat": seat, "card": cid}, back]
            after = "the token is used up"
            opts.append(_resolve_option(cid, f"Use loot {name(cid)}", then, after, "loot"))
    return opts


def _resolve_option(cid: str, label: str, then: list[dict], after: str, zone: str) -> dict:
    return option(
        f"resolve:{cid}",
        label,
        then,
        explain=f"Free: use the ability of {name(cid)}; {after}. {card_text(cid)}",
        rule="REW-5" if card(cid)["kind"] == "loot" else "DEED-4",
        cost="free",
        group="deed",
        topic="resolve",
        data={"verb": "resolve", "card": cid, "zone": zone},
    )


def giftables(state: State, seat: int) -> list[tuple[str, str]]:
    """DEED-2: what a hero may hand over: 1 gold, a loot token, a rumour, an item or spell."""
    h = state.heroes[seat]
    gifts = []
    if h["gold"]:
        gifts.append(("gold", "1 gold"))
    gifts += [(f"loot:{c}", f"loot token {name(c)}") for c in h["loot"]]
    gifts += [(f"rumour:{c}", f"rumour {name(c)}") for c in h["hand"]]
    gifts += [
        (f"asset:{c}", name(c))
        for c in h["assets"]
        if card(c)["kind"] == "reward" and card(c)["deck"] in ("item", "spell")
    ]
    return gifts


def _gift_data(what: str, theirs: bool = False) -> dict:
    """The data facts of a giftable ('gold', 'loot:<card>', ...): its kind and its card.

    Another hero's rumours and loot are private to them (`theirs`): only the kind is stated.
    """
    kind, _, cid = what.partition(":")
    if not cid or (theirs and kind != "asset"):
        return {"what": kind}
    return {"what": kind, "card": cid}


def _label(what: str) -> str:
    return "1 gold" if what == "gold" else name(what.split(":", 1)[1])


def asked_for(state: State, seat: int, target: int) -> list[tuple[str, str]]:
    """What `seat` may ask `target` for (DEED-2), as `seat` may see it: the target's rumours and
    loot tokens are private (hidden unless open hands in co-op), so they are asked for by their
    place in the target's hand ("rumour@1"), never by a name the asker has not seen."""
    open_hands = state.settings["open_hands"] and state.mode == "cooperative"
    if open_hands:
        return giftables(state, target)
    h = state.heroes[target]
    out: list[tuple[str, str]] = []
    for what, label in giftables(state, target):
        kind = what.split(":", 1)[0]
        if kind == "rumour":
            i = sum(1 for w, _ in out if w.startswith("rumour@"))
            out.append((f"rumour@{i}", f"their rumour no. {i + 1} of {len(h['hand'])}"))
        elif kind == "loot":
            i = sum(1 for w, _ in out if w.startswith("loot@"))
            out.append((f"loot@{i}", f"their loot token no. {i + 1} of {len(h['loot'])}"))
        else:
            out.append((what, label))
    return out


def _asked_card(state: State, target: int, what: str) -> str:
    """A private item asked for by place ("rumour@1") as the card it is now ("rumour:<id>")."""
    kind, at, index = what.partition("@")
    if not at:
        return what
    held = state.heroes[target]["hand" if kind == "rumour" else "loot"]
    return f"{kind}:{held[int(index)]}"


@step("trade_pick")
def _trade_pick(state: State, s: dict) -> None:
    """DEED-2 two-way trade, first the offerer picks what it gives, then what it asks for."""
    seat, t = s["seat"], s["target"]
    give = s.get("give")
    who = person_ref(t)
    if give is None:
        opts = [
            option(
                f"tgive:{w}",
                f"Give {label}",
                [dict(s, give=w)],
                explain=f"Offer {label} as your side of the trade with {who}; next you pick "
                "what you ask for.",
                rule="DEED-2",
                topic="trade",
                data={"verb": "trade_give", **_gift_data(w)},
            )
            for w, label in giftables(state, seat)
        ]
        prompt = f"Trade with {who}: what do you give?"
    else:
        opts = [
            option(
                f"ttake:{w}",
                f"Ask for {label}",
                [{"k": "trade_offer", "seat": seat, "target": t, "give": give, "take": w}],
                explain=f"Ask {who} for {label} in return for your {_label(give)}; they then "
                "accept or decline the whole trade.",
                rule="DEED-2",
                topic="trade",
                data={"verb": "trade_take", **_gift_data(w.replace("@", ":"), theirs=True)},
            )
            for w, label in asked_for(state, seat, t)
        ]
        prompt = f"Trade with {who}: you give {_label(give)}; what in return?"
    opts.append(
        option(
            "cancel",
            "Call off the trade",
            [],
            explain=f"Make no offer to {who}; nothing changes hands.",
            rule="DEED-2",
            topic="trade",
            data={"verb": "cancel"},
        )
    )
    ask(state, seat, "trade_pick", prompt, opts)


@step("trade_offer")
def _trade_offer(state: State, s: dict) -> None:
    """DEED-2: the other hero accepts or declines the whole trade as one agreement."""
    seat, t = s["seat"], s["target"]
    s = dict(s, take=_asked_card(state, t, s["take"]))
    log(state, "trade_offered", seat=seat, target=t)
    swap = [
        {"k": "gift_apply", "seat": seat, "target": t, "what": s["give"]},
        {"k": "gift_apply", "seat": t, "target": seat, "what": s["take"]},
    ]
    ask(
        state,
        t,
        "trade_offer",
        f"{person_ref(seat)} offers {_label(s['give'])} for your {_label(s['take'])}",
        [
            option(
                "accept",
                "Accept the trade",
                swap,
                explain=f"You give {_label(s['take'])} and receive {_label(s['give'])} from "
                f"{person_ref(seat)}.",
                rule="DEED-2",
                topic="trade",
                data={"verb": "accept"},
            ),
            _decline(state, seat, t, "trade"),
        ],
        offer_from=seat,
    )


@step("team_offer")
def _team_offer(state: State, s: dict) -> None:
    """DEED-5: the other hero accepts or declines from its own seat."""
    seat, t = s["seat"], s["target"]
    log(state, "team_offered", seat=seat, target=t)
    ask(
        state,
        t,
        "team_offer",
        f"{person_ref(seat)} proposes a team",
        [
            option(
                "accept",
                "Join the team",
                [{"k": "team_join", "seat": seat, "target": t}],
                explain=f"Team up with {person_ref(seat)}: you add a die to their "
                "tests and fight beside them in their next battle, and they share out the reward.",
                rule="DEED-5",
                topic="team",
                data={"verb": "accept"},
            ),
            _decline(state, seat, t, "team"),
        ],
        offer_from=seat,
    )


def _decline(state: State, seat: int, t: int, topic: str) -> dict:
    """The answer no to an offer (DEED-2, DEED-5): nothing changes."""
    return option(
        "decline",
        "Decline",
        [{"k": "offer_declined", "seat": seat, "target": t}],
        explain=finish(f"Say no to {person_ref(seat)}; nothing changes"),
        rule="DEED-5" if topic == "team" else "DEED-2",
        topic=topic,
        data={"verb": "decline"},
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
    state.offers += 1  # the anti-spam guard counts declined offers only (DEED-2)
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
    what = s["what"]
    label = "1 gold" if what == "gold" else name(what.split(":", 1)[1])
    log(state, "gift_offered", seat=seat, target=t, kind=what.split(":")[0])
    ask(
        state,
        t,
        "gift_offer",
        f"{person_ref(seat)} offers you {label}",
        [
            option(
                "accept",
                "Accept",
                [{"k": "gift_apply", "seat": seat, "target": t, "what": what}],
                explain=f"Receive {label} from {person_ref(seat)} as a gift.",
                rule="DEED-2",
                topic="give",
                data={"verb": "accept"},
            ),
            _decline(state, seat, t, "give"),
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

"""Setup (KSET, KPC), turns and hands (KTURN, KCARD), minions and the end of round (KMIN, KEND)."""

from __future__ import annotations

from .board import CENTRE, CORNERS, at, name, neighbours, tile_name
from .content import BACKS, content
from .core import GameState, Slot, Unit, ask, event, log, option, push, shuffle, step
from .powers import turn_start
from .steps import SUPPLY, clear_halos, controller, move_choices, place, targets, unit

event("round", "Round {n} begins.")
event("turn", "{who}'s turn.")
event("played", "{who} plays {card} for its {how}.")
event("discarded", "{who} discards {card}.")
event("end_round", "Night deepens: the end of the round.")
event("chose", "{text}")
event("skipped", "Slot {slot} has no character; its turn is skipped.")


def _card(cid: str) -> dict:
    return content().cards[cid.split("#")[0]]


def draw(state: GameState, team: str) -> str:
    """Draw one power card; an empty deck is reshuffled from its discards (KCARD-8)."""
    deck = state["decks"][team]
    if not deck:
        deck.extend(state["discards"][team])
        state["discards"][team].clear()
        shuffle(state, deck)
    return deck.pop()


def fill_hand(state: GameState, seat: int) -> None:
    """KTURN-4/5, KVAR-4/5: hold the basic card plus 3 (or 4) power cards."""
    p = state["players"][seat]
    want = 4 if state["settings"]["five_card"] else 3
    if not any(c.startswith("basic") for c in p["hand"]):
        p["hand"].append(f"basic_{seat}")
    while sum(1 for c in p["hand"] if not c.startswith("basic")) < want:
        p["hand"].append(draw(state, p["team"]))


def coop_level(state: GameState) -> dict | None:
    """The co-op difficulty level's figures (content/track.json), None in standard mode."""
    if state["settings"]["mode"] != "coop":
        return None
    return content().coop_levels[state["settings"].get("coop_level", "normal")]


def make_character(state: GameState, cid: str, seat: int | None, slot: int, fresh: bool) -> Unit:
    """A character off the board (KSET-6; a replacement knight has 1 DEFENSE, KDEATH-2).

    A demon the co-op deck runs gets its difficulty level's extra HEALTH (start and maximum;
    one that enters at a fixed HEALTH still enters at it, KMAGIC-4).
    """
    c = content().chars[cid]
    state["next_id"] += 1
    lv = coop_level(state)
    extra = lv["demon_health"] if lv and seat is None and c["team"] == "demons" else 0
    maxhp = c["max_health"] + (1 if c["power"]["kind"] == "hardy" else 0) + extra
    u: Unit = {
        "id": f"c{state['next_id']}",
        "type": c["team"][:-1],
        "side": c["team"],
        "tile": None,
        "hp": c["enters_at"] if "enters_at" in c else c["health"] + extra,  # KMAGIC-4
        "max_hp": maxhp,
        "char": cid,
        "seat": seat,
        "slot": slot,
        "seal": None,
        "defense": 0,
        "max_def": 0,
    }
    if "ice" in c:  # KSET-6: an extra track starts at its card's value
        u["ice"], u["max_ice"] = c["ice"]["start"], c["ice"]["max"]
    if c["team"] == "knights":
        u["max_def"] = c["max_defense"] + (1 if c["power"]["kind"] == "ironskin" else 0)
        u["defense"] = c["defense"] if fresh else 1
    state["units"][u["id"]] = u
    return u


# ---- setup ------------------------------------------------------------------------------------
@step("setup_chars")
def _setup_chars(state: GameState, s: dict) -> None:
    """KSET-5, KPC-2..6, KCOOP-2: each player draws characters and keeps 1 or 2 (ordered)."""
    seat = s["seat"]
    p = state["players"][seat]
    deck = state["decks"][f"chars_{p['team']}"]
    drawn = [deck.pop() for _ in range(s["draw"])]
    opts = []
    if s["keep"] == 1:
        for c in drawn:
            opts.append(
                option(
                    f"keep:{c}",
                    f"Keep {content().chars[c]['name']}",
                    [{"k": "kept", "seat": seat, "chars": [c], "drawn": drawn}],
                    content().chars[c]["power"]["text"],
                    rule="KSET-5",
                )
            )
    else:
        for a in drawn:
            for b in drawn:
                if a != b:
                    opts.append(
                        option(
                            f"keep:{a}+{b}",
                            f"Keep {content().chars[a]['name']} (first) and "
                            f"{content().chars[b]['name']} (second)",
                            [{"k": "kept", "seat": seat, "chars": [a, b], "drawn": drawn}],
                            "The first takes your earlier slot.",
                            rule="KSET-7",
                        )
                    )
    opts.append(
        option(
            "keep:dice",
            "Let the dice decide",
            [{"k": "kept_by_lot", "seat": seat, "keep": s["keep"], "drawn": drawn}],
            "The server picks at random among the cards you drew"
            + (", and their order." if s["keep"] == 2 else "."),
            rule="KSET-5",
        )
    )
    ask(state, seat, "characters", "Choose your character(s)", opts)


@step("kept_by_lot")
def _kept_by_lot(state: GameState, s: dict) -> None:
    """A player who lets the dice decide keeps characters drawn by lot from the ones drawn."""
    pool = list(s["drawn"])
    shuffle(state, pool)
    push(state, {"k": "kept", "seat": s["seat"], "chars": pool[: s["keep"]], "drawn": s["drawn"]})


@step("kept")
def _kept(state: GameState, s: dict) -> None:
    p = state["players"][s["seat"]]
    deck = state["decks"][f"chars_{p['team']}"]
    deck.extend(c for c in s["drawn"] if c not in s["chars"])
    shuffle(state, deck)
    state["fx"].setdefault("kept", {})[str(s["seat"])] = s["chars"]


@step("build_slots")
def _build_slots(state: GameState, s: dict) -> None:
    """KSET-7/KPC-1/KPC-5: slots alternate demon, knight, a random demon first."""
    kept = state["fx"]["kept"]
    coop = state["settings"]["mode"] == "coop"
    order: dict[str, list[tuple[int, str]]] = {"demons": [], "knights": []}
    for p in state["players"]:
        for i in range(2):
            for seat_s, chars in kept.items():
                if int(seat_s) == p["seat"] and i < len(chars):
                    order[p["team"]].append((p["seat"], chars[i]))
    demons, knights = order["demons"], order["knights"]
    # A player's second character plays after its first: interleave players' lists.
    demons = sorted(demons, key=lambda x: kept[str(x[0])].index(x[1]))
    knights = sorted(knights, key=lambda x: kept[str(x[0])].index(x[1]))
    if demons:
        from .core import below

        r = below(state, len(demons))
        demons = demons[r:] + demons[:r]
    slots: list[Slot] = []
    seq: list[tuple[str, int, str]] = []
    for i in range(max(len(demons), len(knights))):
        if i < len(demons):
            seq.append(("demons", *demons[i]))
        if i < len(knights):
            seq.append(("knights", *knights[i]))
    for team, seat, cid in seq:
        slot = len(slots)
        u = make_character(state, cid, seat, slot, True)
        slots.append({"seat": seat, "team": team, "unit": u["id"], "waiting": None, "pair": None})
    if coop:  # KCOOP-2: one demon paired with each knight
        for sl in slots:
            cid = state["decks"]["chars_demons"].pop()
            d = make_character(state, cid, None, slots.index(sl), True)
            d["tile"] = CENTRE
            sl["pair"] = d["id"]
    state["slots"] = slots
    for u in state["units"].values():
        if u["type"] == "demon":
            u["tile"] = CENTRE  # KSET-9
    places = [{"k": "place_knight", "unit": sl["unit"]} for sl in slots if sl["team"] == "knights"]
    push(state, *places, {"k": "setup_minions"})


@step("place_knight")
def _place_knight(state: GameState, s: dict) -> None:
    """KSET-10 / KDEATH-5: a knight goes on a corner (a free one at setup)."""
    u = state["units"][s["unit"]]
    taken = {x["tile"] for x in state["units"].values() if x["type"] == "knight"}
    free = [c for c in CORNERS if c not in taken] if not s.get("any") else list(CORNERS)
    ask(
        state,
        u["seat"],
        "place",
        f"Place {name(state, u)} on a corner tile",
        [  # type: ignore[arg-type]
            option(
                f"corner:{c}",
                f"The {tile_name(state, c)}",
                [{"k": "put", "unit": u["id"], "tile": c}],
                "A corner tile.",
                rule="KSET-10",
            )
            for c in free
        ],
    )


@step("put")
def _put(state: GameState, s: dict) -> None:
    u = state["units"][s["unit"]]
    place(state, u, s["tile"])
    log(state, "enters", who=name(state, u), tile=tile_name(state, s["tile"]))


@step("setup_minions")
def _setup_minions(state: GameState, s: dict) -> None:
    """KSET-9/10, KPC-4/5, KVAR-3: imps by the seal, golems on free corners, weak elders."""
    st = state["settings"]
    q: list[dict] = []
    if not st["desperate"]:
        for c in CORNERS:
            if not any(u["type"] == "knight" for u in at(state, c)):
                q.append({"k": "spawn", "minion": "stone_golem", "where": "corner", "tile": c})
    imps = (2 if st["players"] >= 5 and st["mode"] == "standard" else 3) + int(st["desperate"])
    q += [{"k": "place_imp"}] * imps
    if st["desperate"]:
        q += [{"k": "weaken_elder"}] * 4
    push(state, *q, {"k": "begin_round"})


@step("place_imp")
def _place_imp(state: GameState, s: dict) -> None:
    used = {u["tile"] for u in state["units"].values() if u["type"] == "imp"}
    free = [t for t in neighbours(CENTRE) if t not in used]
    if not free:
        return
    seat = _team_seat(state, "demons")
    ask(
        state,
        seat,
        "imp",
        "Place an imp next to the seal tile",
        [
            option(
                f"imp:{t}",
                f"The {tile_name(state, t)}",
                [{"k": "spawn", "minion": "imp", "where": "corner", "tile": t}],
                "Each starting imp takes a different tile.",
                rule="KSET-9",
            )
            for t in free
        ],
    )


def _team_seat(state: GameState, team: str) -> int:
    """The seat deciding team choices; in co-op the players decide for the demons (KCOOP-3)."""
    from .steps import captain

    seat = captain(state, team)
    return seat if seat is not None else state["players"][0]["seat"]


@step("weaken_elder")
def _weaken_elder(state: GameState, s: dict) -> None:
    elders = [u for u in state["units"].values() if u["type"] == "elder" and u["hp"] == 6]
    ask(
        state,
        _team_seat(state, "knights"),
        "desperate",
        "Choose an elder to start at 5 HEALTH",
        [
            option(
                f"elder:{u['id']}",
                f"The elder at the {tile_name(state, u['tile'])}",
                [{"k": "set_hp", "unit": u["id"], "hp": 5}],
                "Desperate variant.",
                rule="KVAR-3",
            )
            for u in elders
        ],
    )


@step("set_hp")
def _set_hp(state: GameState, s: dict) -> None:
    state["units"][s["unit"]]["hp"] = s["hp"]


# ---- rounds and turns -------------------------------------------------------------------------
@step("begin_round")
def _begin_round(state: GameState, s: dict) -> None:
    state["round"] += 1
    state["slot"] = 0
    log(state, "round", n=state["round"])
    push(state, {"k": "begin_turn"})


@step("begin_turn")
def _begin_turn(state: GameState, s: dict) -> None:
    """KTURN-1/2, KDEATH-5, KCOOP-4, KMIN-7/8."""
    sl = state["slots"][state["slot"]]
    state["turn_no"] += 1
    state["turn"] = {
        "slot": state["slot"],
        "seat": sl["seat"],
        "unit": None,
        "magic": 0,
        "orb": False,
    }
    steps: list[dict] = []
    if sl["pair"] is not None or sl.get("pair_waiting"):
        steps.append({"k": "coop_turn", "slot": state["slot"]})
    if sl["waiting"]:
        u = make_character(state, sl["waiting"], sl["seat"], state["slot"], False)
        sl["unit"], sl["waiting"] = u["id"], None
        steps.append({"k": "enter", "unit": u["id"]})
    steps.append({"k": "turn_body"})
    push(state, *steps)


@step("enter")
def _enter(state: GameState, s: dict) -> None:
    u = state["units"][s["unit"]]
    clear_halos(state, u["slot"])  # KDEATH-7: the embers stay only until the new one enters
    if u["type"] == "demon":
        push(state, {"k": "put", "unit": u["id"], "tile": CENTRE})
    else:
        push(state, {"k": "place_knight", "unit": u["id"], "any": True})


@step("turn_body")
def _turn_body(state: GameState, s: dict) -> None:
    sl = state["slots"][state["slot"]]
    u = state["units"].get(sl["unit"] or "")
    if u is None or u["tile"] is None:
        log(state, "skipped", slot=state["slot"] + 1)  # KDEATH-8
        push(state, {"k": "end_turn", "skip": True})
        return
    state["turn"]["unit"] = u["id"]
    log(state, "turn", who=name(state, u))
    clear_halos(state, state["slot"])  # KMAGIC-5
    steps = turn_start(state, u)
    for m in list(state["units"].values()):
        if m.get("owner_slot") == state["slot"] and m["tile"] is not None:
            n = 1 if m["type"] == "bone_crawler" else 2  # KMIN-7/8
            steps.append({"k": "minion_act", "unit": m["id"], "left": n, "free_order": True})
    push(state, *steps, {"k": "menu"})


def _ways(state: GameState, cid: str, seat: int, minor_only: bool) -> list:
    c = _card(cid)
    src = state["turn"]["unit"]
    who = name(state, state["units"][src])
    out = []
    if cid.startswith("basic"):
        for a in ("move", "heal", "magic"):
            out.append(
                option(
                    f"basic:{a}",
                    f"Basic action: {a}",
                    [
                        {"k": "used", "seat": seat, "card": cid, "how": f"basic {a}"},
                        {"k": "action", "a": a, "src": src},
                    ],
                    "The basic action card gives 1 move, 1 heal or 1 magic symbol.",
                    rule="KCARD-6",
                )
            )
        out.append(
            option(
                "discard:" + cid,
                "Discard the basic action card",
                [{"k": "used", "seat": seat, "card": cid, "how": "nothing"}],
                "No effect.",
                rule="KTURN-3",
            )
        )
        return out
    if not minor_only:
        then = [{**x, "src": src} for x in c["steps"]]
        if c.get("seal"):
            then = [{"k": "seal", "card": cid, "src": src}]
        out.append(
            option(
                f"primary:{cid}",
                f"{c['name']}: {c['text']}",
                [
                    {
                        "k": "used",
                        "seat": seat,
                        "card": cid,
                        "how": "primary ability",
                        "keep": bool(c.get("seal")),
                    },
                    *then,
                ],
                f"{who} carries out the text.",
                rule="KCARD-3" if c.get("seal") else "KCARD-2",
            )
        )
        syms = c["symbols"]
        out.append(
            option(
                f"secondary:{cid}",
                f"{c['name']}: symbols {' + '.join(syms)}",
                [
                    {"k": "used", "seat": seat, "card": cid, "how": "symbols"},
                    {"k": "symbols", "left": list(syms), "src": src},
                ],
                "Take one or both actions, one after the other.",
                rule="KCARD-4",
            )
        )
    for a in BACKS[state["players"][seat]["team"]]:
        out.append(
            option(
                f"minor:{cid}:{a}",
                f"{c['name']} as a minor action: {a}",
                [
                    {"k": "used", "seat": seat, "card": cid, "how": f"minor {a}"},
                    {"k": "action", "a": a, "src": src},
                ],
                "Discard the card for one action from its back.",
                rule="KCARD-5",
            )
        )
    out.append(
        option(
            "discard:" + cid,
            f"Discard {c['name']}",
            [{"k": "used", "seat": seat, "card": cid, "how": "nothing"}],
            "No effect.",
            rule="KTURN-3",
        )
    )
    return out


def _slowed_now(state: GameState, slowed: dict) -> bool:
    """KSLOW-3: a card slowed during its owner's own turn waits for the owner's next turn."""
    return bool(slowed.get("own")) and slowed["turn"] == state["turn_no"]


def usable(state: GameState, seat: int) -> list[str]:
    """Cards the active player must still use this turn (KTURN-3, KSLOW-3, KVAR-5)."""
    p = state["players"][seat]
    slowed = p["slowed"]
    cards = [
        c for c in p["hand"] if not (slowed and slowed["card"] == c and _slowed_now(state, slowed))
    ]
    if state["settings"]["five_card"]:
        power = [c for c in cards if not c.startswith("basic")]
        keepable = [c for c in power if not (slowed and slowed["card"] == c)]
        if len(power) <= 1 and (len(power) == 0 or keepable):
            cards = [c for c in cards if c.startswith("basic")]
        elif len(power) == 2 and len(keepable) == 1:  # the slowed card is never the one kept
            cards = [c for c in cards if c not in keepable]
    return cards


@step("menu")
def _menu(state: GameState, s: dict) -> None:
    seat = state["turn"]["seat"]
    if state["units"].get(state["turn"]["unit"] or "") is None:
        push(state, {"k": "end_turn"})
        return
    cards = usable(state, seat)
    if not cards:
        push(state, {"k": "end_turn"})
        return
    p = state["players"][seat]
    opts = []
    for cid in dict.fromkeys(cards):
        minor_only = bool(p["slowed"] and p["slowed"]["card"] == cid)  # KSLOW-2
        opts += _ways(state, cid, seat, minor_only)
    u = state["units"][state["turn"]["unit"]]
    eff = content().tiles[state["tiles"][u["tile"]]].get("effect")  # type: ignore[index]
    if state["settings"]["locations"] and eff == "orb" and not state["turn"]["orb"]:
        for cid in dict.fromkeys(cards):
            opts.append(
                option(
                    f"orb:{cid}",
                    f"Discard {_card(cid)['name']} at the magic orb",
                    [
                        {"k": "used", "seat": seat, "card": cid, "how": "the orb"},
                        {"k": "orb"},
                        {"k": "gain_magic", "n": 2, "src": u["id"]},
                    ],
                    "Gain 2 magic symbols (one use of your ability).",
                    rule="KLOC-9",
                )
            )
    if u.get("max_ice"):  # KMAGIC-6: on its own turn, a power card for 2 frost
        for cid in dict.fromkeys(cards):
            if cid.startswith("basic") or (p["slowed"] and p["slowed"]["card"] == cid):
                continue
            opts.append(
                option(
                    f"frost:{cid}",
                    f"Discard {_card(cid)['name']} for 2 frost",
                    [
                        {"k": "used", "seat": seat, "card": cid, "how": "frost"},
                        {"k": "gain_ice", "n": 2, "src": u["id"]},
                    ],
                    f"Frost {u['ice']} of {u['max_ice']}; each frost blocks 1 damage.",
                    rule="KMAGIC-6",
                )
            )
    push(state, {"k": "menu"})
    ask(state, seat, "turn", "Use a card from your hand", opts)


@step("orb")
def _orb(state: GameState, s: dict) -> None:
    state["turn"]["orb"] = True


@step("used")
def _used(state: GameState, s: dict) -> None:
    p = state["players"][s["seat"]]
    p["hand"].remove(s["card"])
    if p["slowed"] and p["slowed"]["card"] == s["card"]:
        p["slowed"] = None
    who = name(state, state["units"][state["turn"]["unit"]])
    if s["how"] == "nothing":
        log(state, "discarded", who=who, card=_card(s["card"])["name"])
    else:
        log(state, "played", who=who, card=_card(s["card"])["name"], how=s["how"])
    if not s["card"].startswith("basic") and not s.get("keep"):
        state["discards"][p["team"]].append(s["card"])


@step("seal")
def _seal(state: GameState, s: dict) -> None:
    """KCARD-3: at most one seal or mark; the old one is discarded first."""
    u = unit(state, s["src"])
    team = state["units"][s["src"]]["side"]
    if u is None:
        state["discards"][team].append(s["card"])
        return
    if u.get("seal"):
        state["discards"][team].append(u["seal"])  # type: ignore[arg-type]
    u["seal"] = s["card"]


@step("symbols")
def _symbols(state: GameState, s: dict) -> None:
    """KCARD-4: one or both symbols, one after the other, nothing between them."""
    left = s["left"]
    if not left:
        return
    seat = state["turn"]["seat"]
    opts = [
        option(
            f"sym:{i}:{a}",
            f"Take the {a} action",
            [{"k": "action", "a": a, "src": s["src"]}, {**s, "left": left[:i] + left[i + 1 :]}],
            "One action of this kind.",
            rule="KACT-1",
        )
        for i, a in enumerate(left)
    ]
    opts.append(
        option("sym:stop", "Stop (lose the rest)", [], "Forgo the other symbol.", rule="KCARD-4")
    )
    ask(state, seat, "symbols", "Take the card's actions", opts)


@step("end_turn")
def _end_turn(state: GameState, s: dict) -> None:
    """KTURN-4: take back the basic card and draw; the next slot, or the end of round."""
    seat = state["turn"]["seat"]
    if seat is not None and not s.get("skip"):
        fill_hand(state, seat)
    state["turn"]["magic"] = 0  # KMAGIC-2: an unpaired symbol is lost
    state["slot"] += 1
    if state["slot"] >= len(state["slots"]):
        push(state, {"k": "end_round"})
    else:
        push(state, {"k": "begin_turn"})


@step("end_round")
def _end_round(state: GameState, s: dict) -> None:
    """KEND-1..3, KPC-5."""
    from .steps import add_score

    log(state, "end_round")
    state["turn"] = {"slot": None, "seat": None, "unit": None, "magic": 0, "orb": False}
    add_score(state, "knights", 1, "the night wears on")
    if state["result"] is not None:
        return
    steps: list[dict] = []
    steps += [{"k": "minions_next", "kind": kind, "done": []} for kind in ("stone_golem", "imp")]
    golems = (
        4 if state["settings"]["players"] == 5 and state["settings"]["mode"] == "standard" else 1
    )
    steps += [{"k": "place_golem"}] * golems
    lv = coop_level(state)  # a co-op level may have the demons place more imps (track.json)
    imps = 1 + (lv["imps"] if lv else 0)
    steps += [{"k": "spawn", "minion": "imp", "where": "seal"}] * imps + [{"k": "begin_round"}]
    push(state, *steps)


@step("minions_next")
def _minions_next(state: GameState, s: dict) -> None:
    """KMIN-6: each minion of a kind takes both its actions in turn, in the order its team picks."""
    left = [
        m
        for m in sorted(state["units"].values(), key=lambda x: x["id"])
        if m["type"] == s["kind"] and m["tile"] is not None and m["id"] not in s["done"]
    ]
    if not left:
        return
    seat = controller(state, left[0])

    def go(m: Unit) -> list[dict]:
        return [
            {"k": "minion_act", "unit": m["id"], "left": 2},
            {**s, "done": s["done"] + [m["id"]]},
        ]

    if seat is None or len(left) == 1:
        push(state, *go(left[0]))
        return
    ask(
        state,
        seat,
        "minion_order",
        f"Which {s['kind'].replace('_', ' ')} acts next?",
        [
            option(
                f"next:{m['id']}",
                f"{name(state, m)} on the {tile_name(state, m['tile'])}",
                go(m),
                "It takes both its actions before the next one acts.",
                rule="KMIN-6",
            )
            for m in left
        ],
    )


@step("place_golem")
def _place_golem(state: GameState, s: dict) -> None:
    if state["supply"]["stone_golem"] <= 0:
        return
    ask(
        state,
        _team_seat(state, "knights"),
        "golem",
        "Place a new stone golem",
        [
            option(
                f"golem:{c}",
                f"The {tile_name(state, c)}",
                [{"k": "spawn", "minion": "stone_golem", "where": "corner", "tile": c}],
                "A corner tile.",
                rule="KEND-3",
            )
            for c in CORNERS
        ],
    )


@step("minion_act")
def _minion_act(state: GameState, s: dict) -> None:
    """KMIN-5/6, KCOOP-12: move, melee or heal itself; a wounded imp or stone golem heals first."""
    m = unit(state, s["unit"])
    if m is None or s["left"] <= 0:
        return
    nxt = {**s, "left": s["left"] - 1, "first": False}
    wounded = m["hp"] < m["max_hp"]
    if wounded and s.get("first", True) and not s.get("free_order"):
        push(state, {"k": "restore", "unit": m["id"], "n": 1}, nxt)
        return
    seat = controller(state, m)
    if seat is None:
        from .coop import imp_action

        push(state, *imp_action(state, m), nxt)
        return
    opts = [
        option(
            f"m:{m['id']}:melee:{t['id']}",
            f"{name(state, m)} hits {name(state, t)}",
            [{"k": "hit", "target": t["id"], "n": 1, "attack": True, "src": m["id"]}, nxt],
            "Melee: 1 damage.",
            rule="KMIN-5",
        )
        for t in targets(state, m, "close")
    ]
    opts += [
        option(
            f"m:{m['id']}:move:{key}",
            f"{name(state, m)}: {label[0].lower()}{label[1:]}",
            [{"k": "move", "unit": m["id"], "own": True, **fields}, nxt],
            "Moving away from enemies costs disengagement damage.",
            rule="KENG-6",
        )
        for key, label, fields in move_choices(state, m)
    ]
    if wounded:
        opts.append(
            option(
                f"m:{m['id']}:heal",
                f"{name(state, m)} heals",
                [{"k": "restore", "unit": m["id"], "n": 1}, nxt],
                "Heal 1.",
                rule="KMIN-5",
            )
        )
    opts.append(
        option(f"m:{m['id']}:rest", f"{name(state, m)} waits", [nxt], "Do nothing.", rule="KMIN-5")
    )
    ask(state, seat, "minion", f"{name(state, m)} on the {tile_name(state, m['tile'])} acts", opts)


def replace_character(state: GameState, u: Unit) -> None:
    """KDEATH-2/4/5/6, KCOOP-6: a random new character takes the same slot."""
    deck = state["decks"][f"chars_{u['side']}"]
    sl = state["slots"][u["slot"]]
    if u["seat"] is None:  # a co-op demon
        sl["pair"] = None
        sl["pair_waiting"] = deck.pop() if deck else None  # type: ignore[typeddict-unknown-key]
        return
    sl["unit"] = None
    if not deck:
        return  # KDEATH-8
    cid = deck.pop()
    if state["turn"].get("unit") == u["id"]:  # KDEATH-6: at once, and the turn goes on
        nu = make_character(state, cid, u["seat"], u["slot"], False)
        sl["unit"] = nu["id"]
        state["turn"]["unit"] = nu["id"]
        push(state, {"k": "enter", "unit": nu["id"]})
    else:
        sl["waiting"] = cid


SUPPLY_KINDS = tuple(SUPPLY)

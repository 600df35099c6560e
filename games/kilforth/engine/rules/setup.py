"""Game setup (SET-1..13): everything deterministic from the seed, then SET-8 prompts."""

from __future__ import annotations

from games.kilforth.engine import rng
from games.kilforth.engine.cards.catalogue import REWARD_DECKS, TERRAINS, content
from games.kilforth.engine.cards.steps import ask, option, push, run, step
from games.kilforth.engine.events import event
from games.kilforth.engine.rules.explain import card_text
from games.kilforth.engine.rules.position import card, name, race_value
from games.kilforth.engine.settings import Settings
from games.kilforth.engine.state import State, log

event(
    "setup",
    lambda e, c: (
        f"The game begins ({str(e['edition']).capitalize()}); the heroes gather at "
        f"{c.card(e['centre'])}."
    ),
    tone="big",
    fields=("edition", "centre"),
    examples=({"edition": "gloom"},),
)
event("pre_gloom", "Before the first day, {loc} fell into gloom (night card {card}).", tone="night")
event("set8_look", "{seat} looked at {cards}.")
event("set8_kept", "{seat} kept {card} as a first rumour.", tone="good")
event(
    "set8_done",
    "{seat} drew a first rumour from the {deck} deck.",
    minor="own",
    examples=({"deck": "ally"},),
)
event(
    "side_chosen",
    "{seat} set their choose-sides token to the {side}.",
    examples=({"side": "skull"},),
)


def _pick(state: State, pool: list[str]) -> str:
    return pool[rng.below(state, len(pool))]


def new_game(settings: Settings, seed: int) -> State:
    """Full setup for the given settings and seed; returns the state awaiting SET-8 choices."""
    settings.validate()
    c = content()
    state = State(settings=settings.to_dict(), seed=seed, rng=rng.seed_counter(seed))
    ed = settings.edition
    # SET-1: the centre, then the other 24 shuffled around it, colour side up.
    locs = c.locations(ed)
    want = (
        "harder"
        if (ed == "shadows" and settings.difficulty == "harder" and settings.harder_couch)
        else "standard"
    )
    centre = next(x for x in locs if card(x)["centre"] == want)
    others = [x for x in locs if not card(x)["centre"]]
    rng.shuffle(state, others)
    ids = others[:12] + [centre] + others[12:24]
    state.map = [{"id": x, "gloom": False, "enc": [], "obstacles": 0, "plots": []} for x in ids]
    state.removed.extend(x for x in locs if x not in ids)
    # SET-2 / SET-3: race, class, saga per seat.
    races, classes, sagas = list(c.races), list(c.classes), list(c.by_kind["saga"])
    choices = list(settings.choices) + [None] * (settings.heroes - len(settings.choices))
    for ch in choices:  # fixed choices are taken first so random draws avoid them
        if ch:
            if ch.get("race") in races:
                races.remove(ch["race"])
            if ch.get("class") in classes:
                classes.remove(ch["class"])
    heroes = []
    for seat, ch in enumerate(choices):
        ch = ch or {}
        race = ch.get("race") or races.pop(rng.below(state, len(races)))
        klass = ch.get("class") or classes.pop(rng.below(state, len(classes)))
        female = ch.get("female")
        if female is None:
            female = rng.below(state, 2) == 1
        heroes.append((seat, race, klass, bool(female)))
    taken_sagas: list[str] = [ch["saga"] for ch in choices if ch and ch.get("saga")]
    for seat, race, klass, female in heroes:
        chosen = (choices[seat] or {}).get("saga")
        if chosen:
            sg = chosen
        elif settings.saga_allocation == "matched" and card(klass).get("saga") not in taken_sagas:
            sg = card(klass)["saga"]
        else:
            free = [x for x in sagas if x not in taken_sagas]
            sg = _pick(state, free)
        if sg not in taken_sagas:
            taken_sagas.append(sg)
        rc = card(race)
        # SET-9 (SET-13: every hero starts on the centre)
        state.heroes.append(
            {
                "seat": seat,
                "race": race,
                "class": klass,
                "female": female,
                "saga": sg,
                "name": f"{rc['female'] if female else rc['name']} {card(klass)['name']}",
                "hp": 4,
                "max_hp": 4,
                "ap": 4,
                "gold": 1,
                "fate": 4,
                "enemy_tokens": 4,
                "hidden": False,
                "side": None,  # Shadows: each hero sets its choose-sides token after SET-8
                "loc": 12,
                "camped": False,
                "defeated": False,
                "eliminated": False,
                "hand": [],
                "assets": [],
                "veiled": [],
                "loot": [],
                "skills": [],
                "chapter": 1,
                "chapter_day": 0,
                "ch4_day": 0,
                "fate_day": 0,
                "saga_progress": {"n": 0, "day": 0},
            }
        )
    # SET-4: unused sagas leave the game (races/classes/skills are not cards in play).
    # SET-5: night deck; Shadows pre-draws by hero count and difficulty.
    night = sorted(c.night(ed))
    rng.shuffle(state, night)
    state.decks["night"] = night
    state.discards["night"] = []
    if ed == "shadows":
        n = settings.heroes + 1 + {"easier": -1, "standard": 0, "harder": 1}[settings.difficulty]
        for _ in range(n):
            cid = night.pop()
            state.discards["night"].append(cid)
            i = next(k for k, loc in enumerate(state.map) if loc["id"] == card(cid)["location"])
            state.map[i]["gloom"] = True
            log(state, "pre_gloom", card=cid, loc=state.map[i]["id"])
    # SET-6 / SET-7
    for t in TERRAINS:
        deck = sorted(x for x in c.by_kind["encounter"] if card(x)["terrain"] == t)
        rng.shuffle(state, deck)
        state.decks[t], state.discards[t] = deck, []
    for d in REWARD_DECKS:
        deck = sorted(x for x in c.by_kind["reward"] if card(x)["deck"] == d)
        rng.shuffle(state, deck)
        state.decks[d], state.discards[d] = deck, []
    # SET-10
    state.loot_bag = sorted(c.by_kind["loot"])
    # SET-11
    ancients = sorted(c.by_kind["ancient"])
    rng.shuffle(state, ancients)
    n_anc = settings.heroes if settings.mode == "cooperative" else 1
    for aid in ancients[:n_anc]:
        plots = [p["id"] for p in card(aid)["plots"]]
        rng.shuffle(state, plots)
        state.decks[f"plots:{aid}"] = plots
        state.ancients.append(
            {"id": aid, "in_play": False, "loc": None, "damage": 0, "defeated": False, "plots": []}
        )
    for aid in ancients[n_anc:]:
        state.removed.extend(p["id"] for p in card(aid)["plots"])
    # SET-12: highest sneak (race + class) goes first; ties at random.
    sneak = [race_value(h, "sneak") + card(h["class"])["sneak"] for h in state.heroes]
    best = [h["seat"] for h in state.heroes if sneak[h["seat"]] == max(sneak)]
    state.first = _pick_int(state, best)
    log(
        state,
        "setup",
        edition=ed,
        centre=centre,
        first=state.first,
        heroes=[{"seat": h["seat"], "name": h["name"], "saga": h["saga"]} for h in state.heroes],
    )
    # SET-8 choices, then the first day.
    sides = [{"k": "choose_side", "seat": h["seat"]} for h in state.heroes if ed == "shadows"]
    push(
        state,
        *[{"k": "set8_choose", "seat": h["seat"]} for h in state.heroes],
        *sides,
        {"k": "start_day"},
    )
    run(state)
    return state


def _pick_int(state: State, pool: list[int]) -> int:
    return pool[rng.below(state, len(pool))] if len(pool) > 1 else pool[0]


@step("set8_choose")
def _set8_choose(state: State, s: dict) -> None:
    seat = s["seat"]
    opts = [
        option(
            f"deck:{d}",
            f"Draw 2 {d} cards",
            [{"k": "set8_draw", "seat": seat, "deck": d}],
            explain=f"Look at the top 2 cards of the {d} deck; you keep one in your hand as a "
            "rumour and the other is shuffled back.",
            rule="SET-8",
            topic=d,
            data={"verb": "draw_from", "deck": d},
        )
        for d in REWARD_DECKS
        if len(state.decks[d]) >= 2
    ]
    ask(state, seat, "set8_deck", "Choose a reward deck to draw your first rumour from", opts)


@step("set8_draw")
def _set8_draw(state: State, s: dict) -> None:
    seat, d = s["seat"], s["deck"]
    two = [state.decks[d].pop(), state.decks[d].pop()]
    state.limbo.extend(two)
    log(state, "set8_look", vis=seat, seat=seat, cards=two)
    opts = [
        option(
            f"keep:{c}",
            f"Keep {name(c)}",
            [{"k": "set8_keep", "seat": seat, "deck": d, "keep": c, "back": two[1 - k]}],
            explain=f"Keep it in your hand as a rumour; {name(two[1 - k])} goes back into the "
            f"{d} deck. {card_text(c)}",
            rule="SET-8",
            topic="rumour",
            data={"verb": "keep_first", "card": c, "deck": d},
        )
        for k, c in enumerate(two)
    ]
    ask(
        state,
        seat,
        "set8_keep",
        "Keep one as a rumour; the other is shuffled back",
        opts,
        cards=two,
    )


@step("set8_keep")
def _set8_keep(state: State, s: dict) -> None:
    seat = s["seat"]
    state.limbo.remove(s["keep"])
    state.limbo.remove(s["back"])
    state.heroes[seat]["hand"].append(s["keep"])
    state.decks[s["deck"]].append(s["back"])
    rng.shuffle(state, state.decks[s["deck"]])
    log(state, "set8_kept", vis=seat, seat=seat, card=s["keep"])
    log(state, "set8_done", seat=seat, deck=s["deck"])


@step("choose_side")
def _choose_side(state: State, s: dict) -> None:
    """SET-9 (Shadows): each hero sets its choose-sides token to skull or rose."""
    seat = s["seat"]
    opts = [
        option(
            f"side:{x}",
            f"Set your choose-sides token to {x}",
            [{"k": "set_side", "seat": seat, "side": x}],
            explain=f"Your choose-sides token shows the {x}; some cards treat skull and rose "
            "heroes differently.",
            rule="SET-9",
            topic="side",
            data={"verb": "choose_side", "side": x},
        )
        for x in ("skull", "rose")
    ]
    ask(state, seat, "choose_side", "Choose a side for your choose-sides token", opts)


@step("set_side")
def _set_side(state: State, s: dict) -> None:
    state.heroes[s["seat"]]["side"] = s["side"]
    log(state, "side_chosen", seat=s["seat"], side=s["side"])

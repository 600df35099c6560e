"""Shared state changes and the generic card effect steps (those usable in card files).

Every zone change of a card goes through `draw`, `to_hand`, `add_asset` or `discard_card`, so
card conservation holds by construction.
"""

from __future__ import annotations

from copy import deepcopy

from games.kilforth.engine import rng
from games.kilforth.engine.cards.catalogue import ATTRS, REWARD_DECKS, content
from games.kilforth.engine.cards.schema import BOOL, INT, STEPS, STR, ListOf, Table, one_of
from games.kilforth.engine.cards.steps import ask, bind, option, push, step
from games.kilforth.engine.events import Ctx, event, plural
from games.kilforth.engine.rules.explain import finish
from games.kilforth.engine.rules.position import (
    card,
    first_active,
    hero_name,
    leave_location,
    unique_keywords,
)
from games.kilforth.engine.state import State, log
from games.kilforth.engine.verbs import ChoiceData


def _gold_gained(e: dict, c: Ctx) -> str:
    src = c.source(e.get("source"), "from")
    return f"{c.person(e['seat'])} gained {plural(e['n'], 'gold')}{src}."


def _text(e: dict, c: Ctx) -> str:
    text = str(e.get("text") or "").strip()
    if text == "trophy":  # older games logged a taken trophy this way
        return f"{c.person(e['seat'])} took a trophy."
    if not text:
        return f"{c.person(e['seat'])} read a card."
    return f"{c.person(e['seat'])}: {text}{'' if text[-1] in '.!?' else '.'}"


def _test_gate(e: dict, c: Ctx) -> str:
    verdict = "passed" if e.get("passed") else "failed"
    return (
        f"{c.person(e['seat'])} {verdict} a test: {plural(e['successes'], 'success')}, "
        f"{e['need']} needed."
    )


event(
    "reshuffle",
    "The {deck} deck was shuffled again from its discards.",
    examples=({"deck": "spell"},),
)
event("deck_empty", "The {deck} deck has run out.", examples=({"deck": "night"},))
event("rumour_gained", "{seat} took {card} into hand as a rumour.", tone="good")
event("rumour_gained_public", "{seat} gained a rumour.", minor="own")
event(
    "asset_replaced",
    "{seat}'s {by} replaced {card} (only one {keyword} card at a time).",
    types={"by": "card"},
    examples=({"keyword": "mount"},),
)
event("asset_gained", "{seat} put {card} into play.", tone="good")
event("loot_bag_empty", "The loot bag was empty, so {seat} drew nothing.")
event("loot_cashed", "{seat} cashed {token} for {gold:gold}.", tone="good")
event("loot_gained", "{seat} drew the loot token {token}.", tone="good")
event("loot_gained_public", "{seat} drew a loot token.", minor="own")
event(
    "hp_lost",
    "{seat} lost {n:HP}{source} (now {hp:HP}, {ap:AP}).",
    tone="bad",
    examples=({"source": "gloom"}, {"source": "weather"}, {"source": None}),
)
event(
    "gold_gained",
    _gold_gained,
    tone="good",
    fields=("seat", "n", "source"),
    examples=({"source": None}, {"source": "e.cinder_hound"}),
)
event(
    "gold_lost",
    lambda e, c: (
        f"{c.person(e['seat'])} lost {plural(e['n'], 'gold')}."
        if e["n"]
        else f"{c.person(e['seat'])} had no gold to lose."
    ),
    tone="bad",
    fields=("seat", "n"),
    examples=({"n": 0}, {"n": 1}),
)
event(
    "hp_gained",
    lambda e, c: (
        f"{c.person(e['seat'])} healed {plural(e['n'], 'HP')} (now {e['hp']} HP)."
        if e["n"]
        else f"{c.person(e['seat'])} was already at full health ({e['hp']} HP)."
    ),
    tone="good",
    fields=("seat", "n", "hp"),
    examples=({"n": 0}, {"n": 2}),
)
event("ap_lost", "{seat} lost {n:AP} (now {ap:AP}).", tone="bad")
event("fate_gained", "{seat} gained {n:fate}.", tone="good")
event("obstacle_placed", "An obstacle now blocks {loc}.", tone="bad")
event(
    "test_gate",
    _test_gate,
    fields=("seat", "passed", "successes", "need"),
    examples=({"passed": True}, {"passed": False, "successes": 1}),
)
event(
    "side_flipped",
    "{seat} turned their choose-sides token over: it now shows the {side}.",
    examples=({"side": "rose"},),
)
event(
    "text",
    _text,
    fields=("seat", "text"),
    examples=(
        {"text": "The drowned bells ring out across Kilforth."},
        {"text": "You leave the dead their goods"},
        {"text": "trophy"},
        {"text": ""},
    ),
)
event(
    "defeated",
    lambda e, c: f"{c.person(e['seat'])} was struck down{c.source(e.get('by'), 'by')}.",
    tone="bad",
    fields=("seat", "by"),
    examples=({"by": "gloom"}, {"by": "effect"}, {"by": "e.cinder_hound"}, {"by": None}),
)


# --------------------------------------------------------------------------- zones


def discard_pile(cid: str) -> str | None:
    """Which discard pile a card returns to (None: it leaves the game)."""
    c = card(cid)
    if c["kind"] == "reward":
        return c["deck"]
    if c["kind"] == "encounter":
        return c["terrain"]
    if c["kind"] == "night":
        return "night"
    if c["kind"] == "loot":
        return "loot"
    return None


def discard_card(state: State, cid: str) -> None:
    pile = discard_pile(cid)
    if pile == "loot":
        state.loot_used.append(cid)
    elif pile is None:
        state.removed.append(cid)
    else:
        state.discards[pile].append(cid)


def draw(state: State, deck: str) -> str | None:
    """Top card of a deck; an empty deck is refilled by shuffling its discard pile first.

    Returns None when both are empty (rules-decisions: the draw simply does not happen).
    """
    pile = state.decks[deck]
    if not pile and state.discards.get(deck):
        pile.extend(state.discards[deck])
        state.discards[deck].clear()
        rng.shuffle(state, pile)
        log(state, "reshuffle", deck=deck)
    if not pile:
        log(state, "deck_empty", deck=deck)
        return None
    return pile.pop()


def draw_loot_token(state: State) -> str | None:
    """REW-5: loot is drawn at random; an empty bag is refilled from used tokens."""
    if not state.loot_bag and state.loot_used:
        state.loot_bag.extend(state.loot_used)
        state.loot_used.clear()
    if not state.loot_bag:
        return None
    return state.loot_bag.pop(rng.below(state, len(state.loot_bag)))


def to_hand(state: State, seat: int, cid: str) -> None:
    state.heroes[seat]["hand"].append(cid)
    log(state, "rumour_gained", vis=seat, seat=seat, card=cid)
    log(state, "rumour_gained_public", seat=seat)
    push(state, {"k": "limits", "seat": seat})


def add_asset(state: State, seat: int, cid: str) -> None:
    """Put a card into play; LIM-2 replaces an asset sharing a unique keyword."""
    h = state.heroes[seat]
    for kw in unique_keywords(cid):
        for old in list(h["assets"]):
            if kw in unique_keywords(old):
                h["assets"].remove(old)
                if old in h["veiled"]:
                    h["veiled"].remove(old)
                discard_card(state, old)
                log(state, "asset_replaced", seat=seat, card=old, by=cid, keyword=kw)
    h["assets"].append(cid)
    log(state, "asset_gained", seat=seat, card=cid)
    push(state, {"k": "limits", "seat": seat})


def remove_asset(state: State, seat: int, cid: str) -> None:
    h = state.heroes[seat]
    h["assets"].remove(cid)
    if cid in h["veiled"]:
        h["veiled"].remove(cid)


def gain_loot(state: State, seat: int) -> None:
    """Draw a loot token: gold tokens are cashed at once (REW-5), others are kept."""
    tok = draw_loot_token(state)
    if tok is None:
        log(state, "loot_bag_empty", seat=seat)
        return
    c = card(tok)
    if c["gold"] and not c["deed"]:
        state.heroes[seat]["gold"] += c["gold"]
        state.loot_used.append(tok)
        log(state, "loot_cashed", seat=seat, token=tok, gold=c["gold"])
    else:
        state.heroes[seat]["loot"].append(tok)
        log(state, "loot_gained", vis=seat, seat=seat, token=tok)
        log(state, "loot_gained_public", seat=seat)
        push(state, {"k": "limits", "seat": seat})


def can_be_affected(state: State, seat: int | None) -> bool:
    """ENG-9/ANC-6: defeated or eliminated heroes are not affected by abilities."""
    if seat is None:
        return False
    h = state.heroes[seat]
    return not h["defeated"] and not h["eliminated"]


def lose_hp(state: State, seat: int, n: int, source: str) -> None:
    """DAY-9: each HP lost also costs 1 AP; at 0 HP the hero is defeated."""
    h = state.heroes[seat]
    lost = min(n, h["hp"])
    h["hp"] -= lost
    h["ap"] = max(0, h["ap"] - lost)
    log(state, "hp_lost", seat=seat, n=lost, source=source, hp=h["hp"], ap=h["ap"])


# --------------------------------------------------------------------------- card steps
# Each declares the parameters card files give it (the hero's seat is filled in by `bind`).

# A choice's options: a label for each, and the steps it leads to (none: nothing happens).
OPTIONS = ListOf(
    Table({"label": STR, "steps": STEPS}, ("label",), "an option {label, steps}"),
    "a list of options {label, steps}",
)


@step("gain_gold", card=True, params={"n": INT})
def _gain_gold(state: State, s: dict) -> None:
    if can_be_affected(state, s["seat"]):
        state.heroes[s["seat"]]["gold"] += s["n"]
        log(state, "gold_gained", seat=s["seat"], n=s["n"])


@step("lose_gold", card=True, params={"n": INT})
def _lose_gold(state: State, s: dict) -> None:
    if can_be_affected(state, s["seat"]):
        h = state.heroes[s["seat"]]
        n = min(h["gold"], s["n"])
        h["gold"] -= n
        log(state, "gold_lost", seat=s["seat"], n=n)


@step("gain_hp", card=True, params={"n": INT})
def _gain_hp(state: State, s: dict) -> None:
    if can_be_affected(state, s["seat"]):
        h = state.heroes[s["seat"]]
        n = min(s["n"], h["max_hp"] - h["hp"])
        h["hp"] += n
        log(state, "hp_gained", seat=s["seat"], n=n, hp=h["hp"])


@step("lose_hp", card=True, params={"n": INT}, optional={"source": STR})
def _lose_hp(state: State, s: dict) -> None:
    if can_be_affected(state, s["seat"]):
        lose_hp(state, s["seat"], s["n"], s.get("source", "effect"))
        push(state, {"k": "check_defeat", "seat": s["seat"], "source": s.get("source", "effect")})


@step("lose_ap", card=True, params={"n": INT})
def _lose_ap(state: State, s: dict) -> None:
    if can_be_affected(state, s["seat"]):
        h = state.heroes[s["seat"]]
        h["ap"] = max(0, h["ap"] - s["n"])
        log(state, "ap_lost", seat=s["seat"], n=s["n"], ap=h["ap"])


@step("gain_fate", card=True, params={"n": INT})
def _gain_fate(state: State, s: dict) -> None:
    if can_be_affected(state, s["seat"]):
        state.heroes[s["seat"]]["fate"] += s["n"]
        log(state, "fate_gained", seat=s["seat"], n=s["n"])


@step("draw_loot", card=True, params={})
def _draw_loot(state: State, s: dict) -> None:
    if can_be_affected(state, s["seat"]):
        gain_loot(state, s["seat"])


@step("draw_reward", card=True, params={"deck": one_of(*REWARD_DECKS)})
def _draw_reward(state: State, s: dict) -> None:
    """Draw a reward card from the named deck into hand as a rumour."""
    if can_be_affected(state, s["seat"]):
        cid = draw(state, s["deck"])
        if cid is not None:
            to_hand(state, s["seat"], cid)


@step("place_obstacle", card=True, params={}, optional={"loc": INT})
def _place_obstacle(state: State, s: dict) -> None:
    """Put an obstacle on the acting hero's location (or on `loc` if the step gives one)."""
    i = s.get("loc")
    if i is None:
        if s["seat"] is None:
            return
        i = state.heroes[s["seat"]]["loc"]
    state.map[i]["obstacles"] += 1
    log(state, "obstacle_placed", loc=state.map[i]["id"])


def _card_option_data(i: int, o: dict, cid: str | None) -> ChoiceData:
    """A card choice as data: its place among the card's options and its own (public) steps."""
    data: ChoiceData = {"verb": "card_option", "index": i, "steps": deepcopy(o.get("steps", []))}
    if cid is not None:
        data["card"] = cid
    return data


_CHOICE_RULE = {"night": "NIGHT-5", "encounter": "MOVE-5", "plot": "ANC-8", "location": "MOVE-2"}


@step(
    "choose",
    card=True,
    params={"options": OPTIONS},
    optional={"who": one_of("self", "first"), "text": STR},
)
def _choose(state: State, s: dict) -> None:
    """A card's choice; `who` = "self" (default: the acting hero) or "first" (NIGHT-5)."""
    seat = first_active(state) if s.get("who") == "first" else s["seat"]
    if seat is None or state.heroes[seat]["eliminated"]:
        return
    cid = s.get("card")
    known = isinstance(cid, str) and cid in content().cards
    source = card(cid)["name"] if known else "The card"
    # NIGHT-5: a night card's choice falls to the first hero; an event's to whoever drew it.
    rule = _CHOICE_RULE.get(card(cid)["kind"], "DEED-4") if known else "MOVE-5"
    opts = [
        option(
            f"opt{i}",
            o["label"],
            bind(o.get("steps", []), seat),
            explain=finish(f"{source} lets you choose: {o['label']}"),
            rule=rule,
            data=_card_option_data(i, o, cid if known else None),
        )
        for i, o in enumerate(s["options"])
    ]
    ask(state, seat, "card_choice", s.get("text", "Choose one"), opts, card=s.get("card"))


@step("each_hero", card=True, params={"steps": STEPS}, optional={"here": BOOL})
def _each_hero(state: State, s: dict) -> None:
    """Apply steps to every hero (only those at the acting hero's location if `here`)."""
    where = state.heroes[s["seat"]]["loc"] if s.get("here") and s["seat"] is not None else None
    seats = [
        h["seat"]
        for h in state.heroes
        if not h["eliminated"] and (where is None or h["loc"] == where)
    ]
    batch = []
    for seat in seats:
        batch.extend(bind(s["steps"], seat))
    push(state, *batch)


@step(
    "test_gate",
    card=True,
    params={"attr": one_of(*ATTRS), "need": INT},
    optional={"pass": STEPS, "fail": STEPS},
)
def _test_gate(state: State, s: dict) -> None:
    """A card test: roll `attr`, then run `pass` (successes >= need) or `fail` steps."""
    if not can_be_affected(state, s["seat"]):
        return
    tag = f"gate{state.prompt_seq}_{state.logged}"
    push(
        state,
        {"k": "test", "seat": s["seat"], "attr": s["attr"], "tag": tag, "team": False},
        {
            "k": "gate_resolve",
            "seat": s["seat"],
            "tag": tag,
            "need": s["need"],
            "pass": s.get("pass", []),
            "fail": s.get("fail", []),
        },
    )


@step("gate_resolve")
def _gate_resolve(state: State, s: dict) -> None:
    res = state.scratch.pop(s["tag"])
    ok = res["succ"] >= s["need"]
    log(state, "test_gate", seat=s["seat"], passed=ok, successes=res["succ"], need=s["need"])
    push(state, *bind(s["pass"] if ok else s["fail"], s["seat"]))


@step(
    "if_side",
    card=True,
    params={"side": one_of("skull", "rose"), "then": STEPS},
    optional={"else": STEPS},
)
def _if_side(state: State, s: dict) -> None:
    """SET-9 (Shadows): run `then` if the hero's choose-sides token shows `side`, else `else`."""
    h = state.heroes[s["seat"]]
    if h["eliminated"]:
        return
    push(state, *bind(s["then"] if h.get("side") == s["side"] else s.get("else", []), s["seat"]))


@step("flip_side", card=True, params={})
def _flip_side(state: State, s: dict) -> None:
    """SET-9 (Shadows): turn the hero's choose-sides token over (skull <-> rose)."""
    h = state.heroes[s["seat"]]
    if h["eliminated"] or h.get("side") not in ("skull", "rose"):
        return
    h["side"] = "rose" if h["side"] == "skull" else "skull"
    log(state, "side_flipped", seat=s["seat"], side=h["side"])


@step("move_to_centre", card=True, params={})
def _move_to_centre(state: State, s: dict) -> None:
    if can_be_affected(state, s["seat"]):
        leave_location(state, s["seat"])
        state.heroes[s["seat"]]["loc"] = state.centre()
        log(state, "moved", seat=s["seat"], to=state.map[state.centre()]["id"], how="effect")


@step("extra_night_card", card=True, params={})
def _extra_night_card(state: State, s: dict) -> None:
    """Dark Pinnacle (NIGHT-1): draw and resolve one more night card."""
    push(state, {"k": "darkness", "extra": True})


@step("log_text", card=True, params={}, optional={"text": STR})
def _log_text(state: State, s: dict) -> None:
    """Flavour only: record a card's text in the log."""
    log(state, "text", seat=s["seat"], text=s.get("text", ""))


@step("check_defeat")
def _check_defeat(state: State, s: dict) -> None:
    """After HP loss outside battle: 0 HP means defeat (ENG-9, NIGHT-8)."""
    h = state.heroes[s["seat"]]
    if h["hp"] == 0 and not h["defeated"] and not h["eliminated"]:
        log(state, "defeated", seat=s["seat"], by=s.get("source"), name=hero_name(state, s["seat"]))
        push(state, {"k": "defeat", "seat": s["seat"]})

"""Tests and fate (TEST-1..6): dice pools, rolls, re-rolls and calling on fate.

A test stores its outcome in `state.scratch[tag]` = {"seat", "attr", "faces", "succ"}; the step
that queued it reads the result afterwards. Calling on fate happens after the dice are seen.
"""

from __future__ import annotations

from games.kilforth.engine import rng
from games.kilforth.engine.cards.effects import discard_card
from games.kilforth.engine.cards.steps import ask, option, push, step
from games.kilforth.engine.events import Ctx, event, plural
from games.kilforth.engine.rules.deeds import resolve_options
from games.kilforth.engine.rules.position import bonus, card, name, success_min, team_of
from games.kilforth.engine.state import State, log


def _roll(e: dict, c: Ctx) -> str:
    roller = c.card(e["foe"]) if e.get("foe") else c.person(e.get("seat"))
    dice = plural(e["dice"], f"{c.attr(e['attr'])} die")
    return f"{roller} rolled {dice}: {plural(e['successes'], 'success')}."


def _fate_called(e: dict, c: Ctx) -> str:
    paid = "a fate token" if e.get("paid") == "token" else f"the rumour {c.card(e.get('card'))}"
    return f"{c.person(e['seat'])} called on fate for 1 more success, spending {paid}."


event(
    "roll",
    _roll,
    tone="dice",
    fields=("seat", "foe", "attr", "dice", "successes"),
    examples=({"foe": None, "dice": 1, "successes": 1}, {"foe": "e.cinder_hound", "dice": 3}),
)
event(
    "reroll",
    "{seat} used {card} to roll the failed dice again: now {successes:success}.",
    tone="dice",
)
event(
    "fate_called",
    _fate_called,
    tone="dice",
    fields=("seat", "paid", "card"),
    examples=({"paid": "token", "card": None}, {"paid": "rumour"}),
)


def dice_sources(state: State, seat: int, attr: str, extra: list | None = None) -> list:
    """TEST-1: every source of dice for this test, as [source, count] pairs."""
    # SET-2/TEST-1: race and class are always named, even at 0 ("fight 0: race 0, class 0").
    out = [[src, n] for src, n in bonus(state, seat, attr) if n or src in ("race", "class")]
    out.extend(extra or [])
    return out


def roll(state: State, n: int) -> list[int]:
    return [rng.die(state) for _ in range(max(0, n))]


def count(state: State, faces: list[int]) -> int:
    lo = success_min(state)
    return sum(1 for f in faces if f >= lo)


@step("test")
def _test(state: State, s: dict) -> None:
    """Roll a hero's test; team tests add 1 die per other member (DEED-6)."""
    seat, attr = s["seat"], s["attr"]
    extra = list(s.get("extra", []))
    members = team_of(state, seat) if s.get("team") else [seat]
    for m in members[1:]:
        extra.append([f"team:{m}", 1])
    sources = dice_sources(state, seat, attr, extra)
    n = max(0, sum(v for _, v in sources))
    faces = roll(state, n)
    succ = count(state, faces)
    state.scratch[s["tag"]] = {
        "seat": seat,
        "attr": attr,
        "faces": faces,
        "succ": succ,
        "sources": sources,
    }
    log(state, "roll", seat=seat, attr=attr, dice=n, sources=sources, faces=faces, successes=succ)
    # Fate offers after seeing the dice: the tester, then each other team member (DEED-6).
    push(state, *[{"k": "fate_offer", "seat": m, "tag": s["tag"]} for m in members])


def successes_text(n: int) -> str:
    return f"{n} success" if n == 1 else f"{n} successes"


def can_call_fate(state: State, seat: int) -> bool:
    h = state.heroes[seat]
    return h["fate_day"] != state.day and (h["fate"] > 0 or bool(h["hand"]))


def rerollers(state: State, seat: int) -> list[str]:
    h = state.heroes[seat]
    return [c for c in h["assets"] + h["skills"] if card(c).get("reroll") and c not in h["veiled"]]


@step("fate_offer")
def _fate_offer(state: State, s: dict) -> None:
    """TEST-2/TEST-4: re-roll abilities, then once per day call on fate (+1 success)."""
    seat, tag = s["seat"], s["tag"]
    h = state.heroes[seat]
    if h["eliminated"] or h["defeated"] or tag not in state.scratch:
        return
    res = state.scratch[tag]
    opts = [
        option(
            "accept",
            f"Accept {successes_text(res['succ'])}",
            explain=f"Keep the dice as they are: {successes_text(res['succ'])} of "
            f"{len(res['faces'])} dice.",
            rule="TEST-3",
            topic="success",
            data={"verb": "accept_roll", "successes": res["succ"]},
        )
    ]
    if can_call_fate(state, seat):
        if h["fate"] > 0:
            opts.append(
                option(
                    "fate",
                    "Call on fate: discard a fate token for +1 success",
                    [{"k": "fate_apply", "seat": seat, "tag": tag, "pay": "token"}],
                    explain=f"Spend 1 of your {h['fate']} fate tokens to add 1 success "
                    f"(making {successes_text(res['succ'] + 1)}); you can call on fate once a "
                    "day.",
                    rule="TEST-4",
                    cost="1 fate",
                    topic="fate",
                    data={"verb": "call_fate", "pay": "token"},
                )
            )
        for cid in h["hand"]:
            opts.append(
                option(
                    f"fate:{cid}",
                    f"Call on fate: discard rumour {name(cid)}",
                    [{"k": "fate_apply", "seat": seat, "tag": tag, "pay": cid}],
                    explain=f"Discard the rumour {name(cid)} from your hand to add 1 success "
                    f"(making {successes_text(res['succ'] + 1)}); you can call on fate once a "
                    "day.",
                    rule="TEST-4",
                    cost="1 rumour",
                    topic="fate",
                    data={"verb": "call_fate", "pay": "rumour", "card": cid},
                )
            )
    if res["seat"] == seat:
        for cid in rerollers(state, seat):
            fails = [f for f in res["faces"] if f < success_min(state)]
            if fails:
                opts.append(
                    option(
                        f"reroll:{cid}",
                        f"Re-roll failed dice with {name(cid)}",
                        [
                            {"k": "reroll", "seat": seat, "tag": tag, "card": cid},
                            {"k": "fate_offer", "seat": seat, "tag": tag},
                        ],
                        explain=f"Use {name(cid)} to roll your "
                        f"{len(fails)} failed {'die' if len(fails) == 1 else 'dice'} again"
                        + ("; the card is veiled until dawn." if card(cid).get("veil") else "."),
                        rule="TEST-2",
                        cost="free",
                        data={"verb": "reroll", "card": cid, "fails": len(fails)},
                    )
                )
    if state.turn == seat and state.phase == "daylight":
        # DAY-11: deeds inside an action; e.g. a loot token that gives fate before calling on it.

        opts += resolve_options(state, seat, back={"k": "fate_offer", "seat": seat, "tag": tag})
    if len(opts) == 1:
        return
    ask(
        state,
        seat,
        "fate",
        f"You rolled {', '.join(map(str, res['faces'])) or 'no dice'}: "
        f"{successes_text(res['succ'])}.",
        opts,
        faces=res["faces"],
        successes=res["succ"],
        tester=res["seat"],
        tag=tag,
    )


@step("fate_apply")
def _fate_apply(state: State, s: dict) -> None:
    h = state.heroes[s["seat"]]
    if s["pay"] == "token":
        h["fate"] -= 1
    else:
        h["hand"].remove(s["pay"])
        discard_card(state, s["pay"])
    h["fate_day"] = state.day
    state.scratch[s["tag"]]["succ"] += 1
    log(
        state,
        "fate_called",
        seat=s["seat"],
        paid=s["pay"] if s["pay"] == "token" else "rumour",
        card=None if s["pay"] == "token" else s["pay"],
    )


@step("reroll")
def _reroll(state: State, s: dict) -> None:
    """TEST-2: re-roll every failed die; the card that allowed it is veiled until dawn."""
    res = state.scratch[s["tag"]]
    lo = success_min(state)
    faces = [f if f >= lo else rng.die(state) for f in res["faces"]]
    res["faces"] = faces
    res["succ"] = count(state, faces)
    state.heroes[s["seat"]]["veiled"].append(s["card"])
    log(state, "reroll", seat=s["seat"], card=s["card"], faces=faces, successes=res["succ"])


@step("foe_test")
def _foe_test(state: State, s: dict) -> None:
    """A foe's fight test (no fate for foes)."""
    n = max(0, s["dice"])
    faces = roll(state, n)
    succ = count(state, faces)
    state.scratch[s["tag"]] = {"seat": None, "attr": "fight", "faces": faces, "succ": succ}
    log(
        state,
        "roll",
        foe=s["foe"],
        attr="fight",
        dice=n,
        sources=s.get("sources", []),
        faces=faces,
        successes=succ,
    )

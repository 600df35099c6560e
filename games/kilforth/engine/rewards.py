"""Claiming a reward (REW-1..5): loot step, rumour step, trophy; team split (DEED-8)."""

from __future__ import annotations

from .board import card, name, team_of
from .cards import REWARD_FOR
from .effects import discard_card, draw, to_hand
from .state import State, log
from .steps import ask, bind, option, push, step


@step("claim_reward")
def _claim_reward(state: State, s: dict) -> None:
    """The encounter leaves the map; every hero's successes against it are discarded."""
    from .actions import remove_encounter

    seat, cid = s["seat"], s["enc"]
    if cid not in state.encounters:
        return
    own_token = seat in state.encounters[cid]["enemies"]
    remove_encounter(state, cid)
    state.limbo.append(cid)
    log(state, "encounter_defeated", seat=seat, card=cid, how=s.get("how"))
    members = team_of(state, seat)
    if len(members) > 1:  # DEED-8: the active hero decides who gets the reward
        opts = [
            option(
                f"give:{m}",
                f"Give the reward to {state.heroes[m]['name']}",
                [{"k": "reward_steps", "seat": m, "enc": cid, "own": own_token and m == seat}],
                target=m,
            )
            for m in members
        ]
        ask(state, seat, "reward_split", f"Who receives the reward for {name(cid)}?", opts)
        return
    push(state, {"k": "reward_steps", "seat": seat, "enc": cid, "own": own_token})


@step("reward_steps")
def _reward_steps(state: State, s: dict) -> None:
    seat, cid = s["seat"], s["enc"]
    c = card(cid)
    if s["own"]:  # REW-3: own enemy stranger gives gold and the card itself
        push(
            state,
            {"k": "loot_gold", "seat": seat, "enc": cid},
            {"k": "keep_rumour", "seat": seat, "enc": cid},
            {"k": "trophy", "seat": seat, "enc": cid},
        )
        return
    deck = REWARD_FOR[c["type"]]
    loot = [
        option("gold", f"Take {c['gold']} gold", [{"k": "loot_gold", "seat": seat, "enc": cid}]),
        option("loot", "Draw a loot token", [{"k": "draw_loot", "seat": seat}]),
    ]
    rumour = [
        option(
            "keep",
            f"Keep {name(cid)} as a rumour",
            [{"k": "keep_rumour", "seat": seat, "enc": cid}],
        ),
        option(
            "draw",
            f"Discard it and draw a {deck} card",
            [{"k": "swap_rumour", "seat": seat, "enc": cid, "deck": deck}],
        ),
    ]
    push(
        state,
        {
            "k": "ask_step",
            "seat": seat,
            "kind": "loot_step",
            "options": loot,
            "text": f"Loot step for {name(cid)}",
        },
        {
            "k": "ask_step",
            "seat": seat,
            "kind": "rumour_step",
            "options": rumour,
            "text": f"Rumour step for {name(cid)}",
        },
        {"k": "trophy", "seat": seat, "enc": cid},
    )


@step("ask_step")
def _ask_step(state: State, s: dict) -> None:
    """A prompt whose options were prepared earlier (keeps the order of several prompts)."""
    ask(state, s["seat"], s["kind"], s["text"], s["options"])


@step("loot_gold")
def _loot_gold(state: State, s: dict) -> None:
    g = card(s["enc"])["gold"]
    state.heroes[s["seat"]]["gold"] += g
    log(state, "gold_gained", seat=s["seat"], n=g, source=s["enc"])


@step("keep_rumour")
def _keep_rumour(state: State, s: dict) -> None:
    state.limbo.remove(s["enc"])
    to_hand(state, s["seat"], s["enc"])


@step("swap_rumour")
def _swap_rumour(state: State, s: dict) -> None:
    state.limbo.remove(s["enc"])
    discard_card(state, s["enc"])
    new = draw(state, s["deck"])
    if new is not None:
        to_hand(state, s["seat"], new)


@step("trophy")
def _trophy(state: State, s: dict) -> None:
    """REW-4: trophy benefits after loot and rumour steps; optional unless forced."""
    seat, cid = s["seat"], s["enc"]
    c = card(cid)
    if cid in state.limbo:  # reward never reached hand/discard (e.g. swap skipped)
        state.limbo.remove(cid)
        discard_card(state, cid)
    if not c["trophy"]:
        return
    steps = bind(c["trophy"], seat, card=cid)
    if c["trophy_forced"]:
        log(state, "trophy", seat=seat, card=cid, forced=True)
        push(state, *steps)
        return
    ask(
        state,
        seat,
        "trophy",
        f"Take the trophy of {name(cid)}?",
        [
            option(
                "take",
                "Take the trophy",
                [{"k": "log_text", "seat": seat, "text": "trophy"}, *steps],
            ),
            option("decline", "Decline the trophy"),
        ],
        card=cid,
    )

"""Claiming a reward (REW-1..5): loot step, rumour step, trophy; team split (DEED-8)."""

from __future__ import annotations

from games.kilforth.engine.cards.catalogue import REWARD_FOR
from games.kilforth.engine.cards.effects import discard_card, draw, to_hand
from games.kilforth.engine.cards.steps import ask, bind, option, push, step
from games.kilforth.engine.events import article, event, person_ref
from games.kilforth.engine.rules.explain import finish
from games.kilforth.engine.rules.position import card, keywords_of, name, remove_encounter, team_of
from games.kilforth.engine.state import State, log

_DEFEATED_HOW = {"battle": " in battle", "overcome": " through its weakness"}


event(
    "encounter_defeated",
    lambda e, c: (
        f"{c.person(e['seat'])} defeated {c.card(e['card'])}"
        f"{_DEFEATED_HOW.get(str(e.get('how')), '')}."
    ),
    tone="good",
    fields=("seat", "card", "how"),
    examples=({"how": "confront"}, {"how": "battle"}, {"how": "overcome"}, {"how": None}),
)
event(
    "trophy",
    lambda e, c: (
        f"{c.person(e['seat'])} took the trophy of {c.card(e['card'])}"
        f"{' (it must be taken)' if e.get('forced') else ''}."
    ),
    tone="good",
    fields=("seat", "card", "forced"),
    examples=({"forced": True}, {"forced": False}),
)


@step("claim_reward")
def _claim_reward(state: State, s: dict) -> None:
    """The encounter leaves the map; every hero's successes against it are discarded."""

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
                "Keep the reward yourself" if m == seat else f"Give the reward to {person_ref(m)}",
                [{"k": "reward_steps", "seat": m, "enc": cid, "own": own_token and m == seat}],
                explain=f"{'You take' if m == seat else person_ref(m) + ' takes'} the "
                f"reward for {name(cid)}: its loot, rumour and trophy steps.",
                rule="DEED-8",
                topic="team",
                data={"verb": "reward_to", "target": m},
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
        option(
            "gold",
            f"Take {c['gold']} gold",
            [{"k": "loot_gold", "seat": seat, "enc": cid}],
            explain=f"Take the {c['gold']} gold {name(cid)} is worth; gold counts towards your VP.",
            rule="REW-1",
            topic="gold",
            data={"verb": "take_gold", "card": cid, "gold": c["gold"]},
        ),
        option(
            "loot",
            "Draw a loot token",
            [{"k": "draw_loot", "seat": seat}],
            explain="Draw a random token from the loot bag instead: gold, or an ability you "
            "can use once.",
            rule="REW-1",
            topic="loot",
            data={"verb": "draw_loot"},
        ),
    ]
    rumour = [
        option(
            "keep",
            f"Keep {name(cid)} as a rumour",
            [{"k": "keep_rumour", "seat": seat, "enc": cid}],
            explain=finish(
                f"{name(cid)} goes to your hand as a rumour, bearing its keywords: "
                + ", ".join(keywords_of(cid))
            ),
            rule="REW-2",
            topic="rumour",
            data={"verb": "keep_rumour", "card": cid},
        ),
        option(
            "draw",
            f"Discard it and draw {article(deck + ' card')}",
            [{"k": "swap_rumour", "seat": seat, "enc": cid, "deck": deck}],
            explain=f"Discard {name(cid)} and draw the top card of the {deck} deck into your "
            "hand as a rumour instead.",
            rule="REW-2",
            topic=deck,
            data={"verb": "swap_rumour", "card": cid, "deck": deck},
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


def _trophy_text(cid: str) -> str:
    """The trophy part of a card's text ('heal 1 HP'), or a plain fallback."""
    text = str(card(cid).get("text") or "")
    head, sep, tail = text.partition("Trophy:")
    out = (tail if sep else "").strip().split(".")[0].strip()
    return out or "its trophy benefit"


@step("trophy_taken")
def _trophy_taken(state: State, s: dict) -> None:
    log(state, "trophy", seat=s["seat"], card=s["enc"], forced=False)


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
    gives = _trophy_text(cid)
    ask(
        state,
        seat,
        "trophy",
        f"Take the trophy of {name(cid)}: {gives}?",
        [
            option(
                "take",
                # What the trophy gives ("Gain 1 fate"), as the card's text says.
                "Take the trophy"
                if gives == "its trophy benefit"
                else gives[:1].upper() + gives[1:],
                [{"k": "trophy_taken", "seat": seat, "enc": cid}, *steps],
                explain=finish(f"Take the trophy of {name(cid)}: {_trophy_text(cid)}"),
                rule="REW-4",
                data={"verb": "take_trophy", "card": cid},
            ),
            option(
                "decline",
                "Decline the trophy",
                explain=f"Skip the trophy of {name(cid)} ({_trophy_text(cid)}).",
                rule="REW-4",
                data={"verb": "decline"},
            ),
        ],
        card=cid,
    )

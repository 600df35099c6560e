"""Hand, play-area and loot limits (LIM-1; LIM-2 lives in effects.add_asset)."""

from __future__ import annotations

from games.kilforth.engine.cards.effects import discard_card, remove_asset
from games.kilforth.engine.cards.steps import ask, option, step
from games.kilforth.engine.events import event
from games.kilforth.engine.rules.position import name
from games.kilforth.engine.state import State, log

event(
    "limit_discard",
    "{seat} discarded {card} to stay within the limit of {limit}.",
    types={"limit": "count"},
)


LIMIT = 6


@step("limits")
def _limits(state: State, s: dict) -> None:
    """LIM-1: over 6 rumours/assets/loot, the hero chooses what to discard, one at a time."""
    seat = s["seat"]
    h = state.heroes[seat]
    again = {"k": "limits", "seat": seat}
    for zone, label in (("hand", "rumour"), ("assets", "asset"), ("loot", "loot token")):
        if len(h[zone]) > LIMIT:
            opts = [
                option(
                    f"drop:{c}",
                    f"Discard {label} {name(c)}",
                    [{"k": "limit_drop", "seat": seat, "zone": zone, "card": c}, again],
                    explain=f"Discard {name(c)}: you have {len(h[zone])} {label}s and may keep "
                    f"at most {LIMIT}.",
                    rule="LIM-1",
                    data={"verb": "discard", "card": c, "zone": zone},
                )
                for c in h[zone]
            ]
            ask(
                state,
                seat,
                "discard_down",
                f"You have {len(h[zone])} {label}s: discard to 6",
                opts,
                zone=zone,
            )
            return


@step("limit_drop")
def _limit_drop(state: State, s: dict) -> None:
    seat, c = s["seat"], s["card"]
    h = state.heroes[seat]
    if s["zone"] == "assets":
        remove_asset(state, seat, c)
    else:
        h[s["zone"]].remove(c)
    discard_card(state, c)
    log(state, "limit_discard", seat=seat, card=c, zone=s["zone"], limit=LIMIT)

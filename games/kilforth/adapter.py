"""What the tables app needs from Kilforth: the game behind a small, fixed interface.

The tables app (lobby, seats, persistence, sockets) calls only these functions, so it never learns
the engine's internals and another game could later sit beside this one.
"""

from __future__ import annotations

import random
import secrets
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock

from django.conf import settings as django_settings

from games.kilforth import engine
from games.kilforth.engine import IllegalAction, State
from games.tables.frames import Unjoined

__all__ = [
    "HeroOption",
    "IllegalAction",
    "State",
    "act",
    "bot_choice",
    "bot_levels",
    "dump",
    "hero_options",
    "legal",
    "load",
    "new_seed",
    "render",
    "render_full_log",
    "setup",
    "view",
]


@dataclass(frozen=True)
class HeroOption:
    id: str
    name: str
    detail: str


def hero_options() -> dict[str, list[HeroOption]]:
    """The races and classes a player may pick from (SET-2), with a short line about each."""
    c = engine.content()

    def attrs(card: dict) -> str:
        parts = [f"{a} {card.get(a, 0)}" for a in ("fight", "study", "sneak", "influence")]
        return ", ".join(parts)

    def race_detail(card: dict) -> str:
        """SET-2: both sides' numbers (the female side may differ: `female_attrs`)."""
        female = {**card, **card.get("female_attrs", {})}
        return f"{card['name']}: {attrs(card)}; {card['female']}: {attrs(female)}"

    races = [HeroOption(r, c.card(r)["name"], race_detail(c.card(r))) for r in c.races]
    classes = []
    for k in c.classes:
        card = c.card(k)
        saga = c.cards.get(card.get("saga", ""), {}).get("name")
        detail = attrs(card) + (f"; saga: {saga}" if saga else "")
        classes.append(HeroOption(k, card["name"], detail))
    sagas = [
        HeroOption(sg, c.card(sg)["name"], f"the {c.card(c.card(sg)['class'])['name']}'s saga")
        if c.card(sg).get("class") in c.cards
        else HeroOption(sg, c.card(sg)["name"], "")
        for sg in c.by_kind["saga"]
    ]
    return {"races": races, "classes": classes, "sagas": sagas}


def new_seed() -> int:
    # The seed decides every die and shuffle: it is drawn fresh and never shown to anyone.
    # Tests replay known games: settings.KILFORTH_TEST_SEED (never set in production).
    fixed = getattr(django_settings, "KILFORTH_TEST_SEED", None)
    if fixed:
        return int(fixed)
    return secrets.randbits(62)


def setup(table_settings: dict, heroes: list[dict | None], seed: int) -> State:
    """A new game for a table's settings and each seat's hero pick (None: random)."""
    settings = engine.Settings(
        edition=table_settings["edition"],
        mode=table_settings["mode"],
        heroes=len(heroes),
        difficulty=table_settings["difficulty"],
        choices=list(heroes),
        saga_allocation=table_settings["saga_allocation"],
        auto_evasion=table_settings["auto_evasion"],
        chapter_cost_2x=table_settings["chapter_cost_2x"],
        open_hands=table_settings["open_hands"],
    )
    settings.validate()
    return engine.new_game(settings, seed)


def load(document: str) -> State:
    return State.from_json(document)


def dump(state: State) -> str:
    return state.to_json()


def bot_levels() -> list[str]:
    """The bot levels the engine offers (the host may only pick from these)."""
    from games.kilforth.engine.bots.play import BOTS

    return list(BOTS)


def bot_choice(state: State, seat: int, level: str, rng: random.Random) -> str:
    """The key a bot of `level` picks for `seat` (its own randomness, never the game's)."""
    from games.kilforth.engine.bots.play import BOTS

    return BOTS[level](state, seat, engine.legal(state, seat), rng)


def legal(state: State, seat: int) -> list[engine.Choice]:
    return engine.legal(state, seat)


def act(state: State, seat: int, key: str) -> State:
    return engine.act(state, seat, key)


def view(state: State, viewer: int | None) -> dict:
    return engine.view(state, viewer)


def render(
    state: State,
    viewer: int | None,
    players: dict[int, str],
    online: set[int],
    table_slug: str,
    joined: bool = True,
) -> str | Unjoined:
    """The board for one viewer: a seat (its own hand shown) or None (a spectator);
    `joined=False`: composed but not joined into one string (`frames.Unjoined`)."""
    from games.kilforth.board import render_board

    # The view lists the viewer's own choices (on its prompt and off-turn), each explained;
    # what every view shows alike is made once per state (`_public_facts`).
    return render_board(
        engine.view(state, viewer, _public_facts(state)),
        viewer=viewer,
        players=players,
        online=online,
        table_slug=table_slug,
        source=state,  # every view of this state shares what they see alike
        joined=joined,
    )


# The public facts of the states rendered last (a table's views of one state render together),
# by the state object itself (held weakly: a state never changes once the platform has it).
FACTS_KEPT = 64
_facts: OrderedDict[int, tuple[weakref.ref, dict]] = OrderedDict()
_facts_lock = Lock()


def _public_facts(state: State) -> dict:
    with _facts_lock:
        found = _facts.get(id(state))
        if found is not None and found[0]() is state:
            return found[1]
    facts = engine.public_facts(state)
    with _facts_lock:
        _facts[id(state)] = (weakref.ref(state), facts)
        while len(_facts) > FACTS_KEPT:
            _facts.popitem(last=False)
    return facts


def new_events(before: State | None, after: State) -> list[dict]:
    return engine.new_events(before, after)


def render_full_log(
    state: State, viewer: int | None, players: dict[int, str], history: list[dict]
) -> str:
    """Every event of `history` (the whole game's log) this viewer may see, as sentences."""
    from games.kilforth.board import render_full_log as render_log

    picture = engine.view(state, viewer)
    picture["log"] = [e for e in history if e["vis"] == "all" or e["vis"] == viewer]
    return render_log(picture, viewer=viewer, players=players)

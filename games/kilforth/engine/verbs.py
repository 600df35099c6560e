"""What a choice is, as data: `Choice.data` and the registry of verbs it may name.

Every option the engine offers carries `data`, a small JSON-safe dict: `data["verb"]` names what
the option does (one entry of VERBS) and the other entries are the facts that verb declares, e.g.
`{"verb": "confront", "card": "gloom.enc.wolf", "attr": "fight"}` or `{"verb": "move", "loc": 7}`.
Bots and boards read these facts and never parse an option's key or label (both are for
people and for act(); the key stays the one stable handle to answer with).

`option(..., data=...)` checks the data against its verb as the option is made, so a misspelt
verb, a missing fact or a fact of the wrong type fails at once (a programming error, never a game
state). Data holds only what the option's own seat may see: the option is shown to that seat
alone, and its label already names the same cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Required, TypedDict


class ChoiceData(TypedDict, total=False):
    """The structured facts of one option; which keys are present is declared per verb."""

    verb: Required[str]
    card: str  # the card the option is about (an encounter, rumour, asset, skill, plot...)
    ancient: str  # an ancient's card id
    attr: str  # an attribute: fight, sneak, influence, lore (or a test's attribute)
    loc: int  # a location, as an index into state.map
    target: int  # another hero's seat (or one's own, e.g. healing at the market)
    deck: str  # a reward deck
    stage: Literal["chapter", "interlude", "finale"]
    chapter: int
    need: int  # successes a test needs
    what: str  # a gift: "gold", "loot", "rumour" or "asset"
    zone: str  # where a card sits: "hand", "assets" or "loot"
    how: str  # how a keyword is paid: "discard", "keep" or "sacrifice"
    pay: str  # how fate is called: "token" or "rumour"
    keyword: str
    side: str  # "skull" or "rose"
    gold: int
    foe_hp: int  # the foe's HP left in a battle
    successes: int
    fails: int  # failed dice a re-roll would roll again
    index: int  # a card choice's position among the card's options
    steps: list  # a card choice's own steps (public card text)


# Python types of each field (for the check; bool is accepted where int is not meant).
FIELD_TYPES: dict[str, type] = {
    "verb": str,
    "card": str,
    "ancient": str,
    "attr": str,
    "loc": int,
    "target": int,
    "deck": str,
    "stage": str,
    "chapter": int,
    "need": int,
    "what": str,
    "zone": str,
    "how": str,
    "pay": str,
    "keyword": str,
    "side": str,
    "gold": int,
    "foe_hp": int,
    "successes": int,
    "fails": int,
    "index": int,
    "steps": list,
}


@dataclass(frozen=True)
class Verb:
    """One kind of option: the facts it always states (`fields`) and those it may (`optional`)."""

    name: str
    doc: str
    fields: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    allowed: frozenset[str] = field(default=frozenset(), compare=False)


VERBS: dict[str, Verb] = {}


def verb(name: str, doc: str, fields: tuple[str, ...] = (), optional: tuple[str, ...] = ()) -> Verb:
    """Register a verb with the data fields its options carry."""
    if name in VERBS:
        raise ValueError(f"verb {name!r} registered twice")
    for f in fields + optional:
        if f not in FIELD_TYPES or f == "verb":
            raise ValueError(f"verb {name!r}: unknown field {f!r}")
    v = Verb(name, doc, fields, optional, frozenset(("verb",) + fields + optional))
    VERBS[name] = v
    return v


class ChoiceDataError(ValueError):
    """An option's data does not fit its verb (a programming error)."""


def check_data(data: object) -> ChoiceData:
    """Return `data` if it fits its verb's declaration; raise ChoiceDataError naming the fault."""
    if not isinstance(data, dict):
        raise ChoiceDataError(f"choice data must be a dict, not {data!r}")
    name = data.get("verb")
    v = VERBS.get(name) if isinstance(name, str) else None
    if v is None:
        raise ChoiceDataError(f"choice data names no known verb: {data!r}")
    for f in v.fields:
        if f not in data:
            raise ChoiceDataError(f"verb {name!r} needs the field {f!r}: {data!r}")
    for f, value in data.items():
        if f not in v.allowed:
            raise ChoiceDataError(f"verb {name!r} does not declare the field {f!r}: {data!r}")
        want = FIELD_TYPES[f]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise ChoiceDataError(f"verb {name!r}: field {f!r} must be {want.__name__}: {data!r}")
    return data  # type: ignore[return-value]


# --------------------------------------------------------------------------- the verbs

# Turn actions (1 AP) and making camp.
verb("move", "walk or take a shortcut to a location", ("loc",))
verb("clear_obstacle", "remove an obstacle here")
verb("clear_plot", "test against a plot card here", ("card", "attr", "need"))
verb("search", "draw an encounter here")
verb("hide", "become hidden")
verb("confront", "test an attribute against an encounter here", ("card", "attr"))
verb("make_enemy", "put an enemy token on a stranger and fight it", ("card",))
verb("rest", "heal 1 HP")
verb("discover", "put a rumour from hand into play here", ("card",))
verb("market", "visit the market here")
verb(
    "regale",
    "work on the saga: a chapter, an interlude or the finale",
    ("stage", "chapter"),
    ("attr", "need"),
)
verb("camp", "end one's daylight")
verb("confirm", "go ahead with what was just chosen (making camp with AP left)")
verb("back", "go back to the question before, nothing done")
# Free deeds.
verb("unhide", "stop being hidden")
verb("team", "propose a team to a hero here", ("target",))
verb("give", "offer a gift to a hero here", ("target", "what"), ("card",))
verb("trade", "propose a trade to a hero here", ("target",))
verb("overcome", "defeat an encounter through its weakness", ("card",))
verb("resolve", "use a card's or loot token's deed", ("card", "zone"))
verb("assault", "assault an ancient here", ("ancient",))
# Trades and offers.
verb("trade_give", "what one gives in a trade", ("what",), ("card",))
verb("trade_take", "what one asks for in a trade", ("what",), ("card",))
verb("cancel", "call off a trade")
verb("accept", "accept an offer (team, gift or trade)")
verb("decline", "say no (to an offer, a trophy or a free chapter)")
# Engagements and battles.
verb("engage", "face this enemy first", ("card",))
verb("reveal", "stop hiding and fight with surprise", ("card",))
verb("evade", "roll sneak to slip past an enemy", ("card", "need"))
verb("auto_evade", "slip past an enemy without a roll (sneak higher)", ("card",))
verb("fight", "fight (on) against an enemy", ("card",), ("foe_hp",))
verb("escape", "flee from a battle", ("card",))
verb("escape_to", "the location to flee to", ("loc",))
verb("lose_card", "the card lost on defeat", ("card", "zone"))
# Tests.
verb("accept_roll", "keep the dice as rolled", ("successes",))
verb("call_fate", "add 1 success with a fate token or a rumour", ("pay",), ("card",))
verb("reroll", "roll the failed dice again with a card", ("card", "fails"))
# Rewards.
verb("reward_to", "the team member who takes the reward", ("target",))
verb("take_gold", "take an encounter's gold", ("card", "gold"))
verb("draw_loot", "draw a loot token")
verb("keep_rumour", "keep the defeated encounter as a rumour", ("card",))
verb("swap_rumour", "discard the encounter and draw from a reward deck", ("card", "deck"))
verb("take_trophy", "take a trophy benefit", ("card",))
# Sagas.
verb("pay_keyword", "pay a chapter keyword with a card", ("card", "keyword", "how"))
verb("learn_skill", "gain a skill", ("card",))
verb("no_skill", "gain no skill")
verb("catch_up", "complete a chapter for free", ("chapter",))
verb("keep_totem", "keep one's totem as an asset", ("card",))
verb("sell_totem", "remove one's totem for its gold", ("card", "gold"))
# Market.
verb("heal", "buy HP at the market")
verb("browse", "look at the top cards of a reward deck to buy one", ("deck",))
verb("sell", "sell rumours and assets")
verb("leave", "leave the market")
verb("buy_hp", "buy 1 HP for a hero here", ("target",))
verb("buy", "buy a card", ("card", "gold"))
verb("sell_card", "sell one card", ("card", "zone", "gold"))
verb("done", "stop (healing or selling) and go back")
# Setup.
verb("draw_from", "draw the first rumour from a reward deck", ("deck",))
verb("keep_first", "keep one of the two cards drawn", ("card", "deck"))
verb("choose_side", "set the choose-sides token", ("side",))
# Limits.
verb("discard", "discard down to the limit", ("card", "zone"))
# Card choices.
verb("card_option", "one of a card's own options", ("index", "steps"), ("card",))

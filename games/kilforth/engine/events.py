"""The log-event registry: every kind of event the engine may log, declared once.

Each engine module declares the events it emits near its top, beside the steps that emit them:

    event("evaded", "{seat} slipped past {card} unseen.", tone="good")

The sentence is a format template over the event's fields; each field is drawn by the renderer
its name implies (see FIELD_TYPES: `seat` -> the player's name, `card`/`loc` -> a card name,
`members` -> "Ann, Bea and Cid", an `attr` -> its label). A count with a unit after the colon is
pluralised: `{n:gold}` -> "3 gold", `{successes:success}` -> "1 success" / "2 successes",
`{dice:die}` -> "2 dice". The few events that need logic give a small function `(event, ctx)`
instead of a template, and list the fields they read.

`state.log()` refuses a kind that is not declared here, and tests render every declared kind (from
synthetic events built out of the declared fields and examples) and every kind emitted in seeded
playouts. This module imports no engine module at load time (they import it), so the registry
fills as the engine package is imported.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

Names = Callable[[int | None], str]
Minor = bool | Literal["own"]

# How a field is drawn, by its name. An event may override a field's type with `types=`.
#   person: a seat, shown as the player's name   people: a list of seats ("Ann and Bea")
#   card: a card id, shown as its name           cards: a list of card ids
#   count: an integer, optionally with a unit    attr: an attribute (fight, study, ...)
#   word: a plain word from the engine's own vocabulary (a deck, a side, an encounter type)
#   text: an English phrase (card flavour text, an end reason)
#   source: what caused a loss: a card id, or "gloom", "weather", "night", "effect"
#   flag: a yes/no used by a sentence function     data: kept for the board, never shown
FIELD_TYPES: dict[str, str] = {
    "seat": "person",
    "target": "person",
    "first": "person",
    "members": "people",
    "team": "people",
    "winners": "people",
    "card": "card",
    "loc": "card",
    "to": "card",
    "centre": "card",
    "ancient": "card",
    "plot": "card",
    "token": "card",
    "saga": "card",
    "foe": "card",
    "cards": "cards",
    "n": "count",
    "gold": "count",
    "hp": "count",
    "ap": "count",
    "successes": "count",
    "dice": "count",
    "total": "count",
    "need": "count",
    "dealt": "count",
    "round": "count",
    "chapter": "count",
    "foe_hp": "count",
    "day": "count",
    "gold_lost": "count",
    "team_vp": "count",
    "attr": "attr",
    "deck": "word",
    "side": "word",
    "edition": "word",
    "type": "word",
    "keyword": "word",
    "how": "word",
    "paid": "word",
    "kind": "word",
    "surprise": "word",
    "text": "text",
    "reason": "text",
    "label": "text",
    "source": "source",
    "by": "source",
    "taken": "data",
    "forced": "flag",
    "free": "flag",
    "interlude": "flag",
    "defeated": "flag",
    "passed": "flag",
    "extra": "flag",
    "won": "flag",
    "offturn": "flag",
}
TYPES = frozenset(FIELD_TYPES.values()) | {"data"}

ATTR_LABEL = {"fight": "fight", "study": "study", "sneak": "sneak", "influence": "influence"}
# Plurals that do not just add "s"; units that never change.
PLURAL = {"success": "successes", "die": "dice", "dice": "dice", "loss": "losses"}
UNCOUNTED = {"gold", "HP", "AP", "fate", "VP"}
SOURCES = {
    "gloom": "the gloom",
    "weather": "the weather",
    "night": "the night",
    "effect": "a card's effect",
}


def plural(n: int, unit: str) -> str:
    """'1 success', '2 successes', '3 gold', '2 fight dice' (the last word is pluralised)."""
    if not unit:
        return str(n)
    head, _, last = unit.rpartition(" ")
    if n != 1 and last not in UNCOUNTED:
        last = PLURAL.get(last, last + "s")
    return f"{n} {head + ' ' if head else ''}{last}"


def article(phrase: str) -> str:
    """'a quest', 'an enemy', 'an item'."""
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def join(parts: Iterable[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    items = [p for p in parts if p]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def tidy_id(cid: object) -> str:
    """A card id read as a word ("e.stone_ogre" -> "Stone ogre"): the fallback when the reader
    of a sentence gives no card names (the board gives the printed ones)."""
    if not cid:
        return "a card"
    return str(cid).rsplit(".", 1)[-1].replace("_", " ").capitalize()


def _default_phrase(kind: str) -> str:
    return "decide"


@dataclass
class Ctx:
    """What a sentence may use besides the event: names, the viewer, the prompt phrases.

    `viewer` (the seat whose view it is, None for a spectator) is read through a property that
    notes the reading (`viewer_read`): a sentence that never reads it is the same for every
    viewer, and the board makes it once for all of them (board/log_text.py)."""

    names: Names
    seen_by: int | None = None
    phrase: Callable[[str], str] = _default_phrase  # prompt kind -> "choose an action"
    card_name: Callable[[object], str] = tidy_id  # card id -> its printed name
    viewer_read: bool = False

    @property
    def viewer(self) -> int | None:
        self.viewer_read = True
        return self.seen_by

    def person(self, seat: object) -> str:
        return self.names(seat) if isinstance(seat, int) else "Someone"

    def people(self, seats: object) -> str:
        return join(self.person(s) for s in seats or [])  # type: ignore[attr-defined]

    def card(self, cid: object) -> str:
        return self.card_name(cid)

    def cards(self, ids: object) -> str:
        return join(self.card_name(c) for c in ids or [])  # type: ignore[attr-defined]

    def attr(self, a: object) -> str:
        return ATTR_LABEL.get(str(a), str(a))

    def source(self, src: object, to: str = "to") -> str:
        """' to the gloom', ' to Crag Harpy' or '' (for an unknown or missing source)."""
        if not src:
            return ""
        if src in SOURCES:
            return f" {to} {SOURCES[str(src)]}"
        return f" {to} {self.card_name(src)}"

    def shown(self, kind: str, value: object) -> object:
        """A field's value drawn by its type (counts stay ints for `plural`)."""
        if kind == "person":
            return self.person(value)
        if kind == "people":
            return self.people(value)
        if kind == "card":
            return self.card(value)
        if kind == "cards":
            return self.cards(value)
        if kind == "attr":
            return self.attr(value)
        if kind == "count":
            return int(value)  # type: ignore[call-overload]
        if kind == "source":
            return self.source(value)
        return "" if value is None else str(value)


class _Fill(string.Formatter):
    def __init__(self, ctx: Ctx, event: dict, types: Mapping[str, str]) -> None:
        self.ctx, self.event, self.types = ctx, event, types

    def get_value(self, key: int | str, args: object, kwargs: object) -> object:
        name = str(key)
        return self.ctx.shown(self.types.get(name, FIELD_TYPES.get(name, "text")), self.event[name])

    def format_field(self, value: object, spec: str) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            return plural(value, spec)
        return str(value)


Sentence = str | Callable[[dict, Ctx], str]


@dataclass(frozen=True)
class EventKind:
    kind: str
    sentence: Sentence
    tone: str = ""  # "", "good", "bad", "dice", "night", "battle", "turn", "big"
    minor: Minor = False  # bookkeeping: shown with "Show every detail"; "own": to its `seat` only
    marker: bool = False  # starts a new stretch of play (groups dice and battles on the board)
    fields: tuple[str, ...] = ()  # the fields the sentence reads
    types: Mapping[str, str] = field(default_factory=dict)  # per-event field type overrides
    examples: tuple[dict, ...] = ()  # values for word/text/flag fields, for the tests

    def type_of(self, name: str) -> str:
        return self.types.get(name, FIELD_TYPES.get(name, "text"))

    def render(self, e: dict, ctx: Ctx) -> str:
        if callable(self.sentence):
            return self.sentence(e, ctx)
        return _Fill(ctx, e, self.types).format(self.sentence)


EVENTS: dict[str, EventKind] = {}
_FIELD = re.compile(r"{([a-z_]+)")

# A person named in an option's label or explanation, or in a prompt's text. The engine knows
# seats and heroes, not the players' names: it writes `person_ref(seat)` and whoever shows the
# words fills in the name (`name_people`; the board gives the player's name, as in the log).
PERSON_REF = re.compile(r"\{person:(\d+)\}")


def person_ref(seat: int) -> str:
    """'{person:2}': the person at seat 2, named by whoever shows the words."""
    return f"{{person:{seat}}}"


def name_people(text: str, names: Names) -> str:
    """`text` with every person_ref replaced by `names(seat)`."""
    return PERSON_REF.sub(lambda m: names(int(m.group(1))), text)


def event(
    kind: str,
    sentence: Sentence,
    *,
    tone: str = "",
    minor: Minor = False,
    marker: bool = False,
    fields: Iterable[str] = (),
    types: Mapping[str, str] | None = None,
    examples: Iterable[dict] = (),
) -> EventKind:
    """Declare a log event kind, its sentence and its tone (once, beside the step emitting it).

    A template's fields are read from it; a sentence function lists the fields it reads.
    """
    if kind in EVENTS:
        raise ValueError(f"log event {kind!r} declared twice")
    names = list(fields)
    if isinstance(sentence, str):
        names += [f for f in _FIELD.findall(sentence) if f not in names]
    elif not names:
        raise ValueError(f"log event {kind!r}: a sentence function must list its fields")
    types = dict(types or {})
    for name in names:
        t = types.get(name, FIELD_TYPES.get(name))
        if t is None or t not in TYPES:
            raise ValueError(f"log event {kind!r}: field {name!r} has no known type")
    ev = EventKind(
        kind=kind,
        sentence=sentence,
        tone=tone,
        minor=minor,
        marker=marker,
        fields=tuple(names),
        types=types,
        examples=tuple(examples),
    )
    EVENTS[kind] = ev
    return ev


def declared(kind: str) -> bool:
    return kind in EVENTS

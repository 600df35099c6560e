"""State shapes, seeded randomness, the step registry and its interpreter loop.

The whole game is one JSON-able dict (`GameState`). A step is `{"k": kind, ...}`; the queue
runs front first. A step that needs a decision opens `state["prompt"]` whose options carry
their continuation (a list of steps), so a paused game is plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypedDict


class IllegalAction(ValueError):
    """Raised (with the state untouched) for an action that is not legal now."""


class Unit(TypedDict, total=False):
    id: str
    type: str  # knight, demon, elder, imp, stone_golem, bone_crawler, ice_golem, slag_golem
    side: str  # knights or demons
    tile: int | None
    hp: int
    max_hp: int
    defense: int
    max_def: int
    char: str
    seat: int | None
    slot: int
    seal: str | None
    bank: str  # on the sewer: the bank it stands on (KLOC-5)
    ice: int  # an extra track (KSET-6, KMAGIC-6)
    max_ice: int
    owner: str
    owner_seat: int | None
    owner_slot: int
    n: int  # a minion's standee number among its kind on the board ("imp 2"), or an elder's


class Player(TypedDict):
    seat: int
    team: str
    hand: list[str]
    slowed: dict | None


class Slot(TypedDict):
    seat: int | None
    team: str
    unit: str | None
    waiting: str | None  # a character card waiting to enter (KDEATH-5)
    pair: str | None  # co-op: the demon unit paired with this knight slot


class Option(TypedDict):
    key: str
    label: str
    explanation: str
    cost: str
    rule: str
    then: list[dict]


class Prompt(TypedDict):
    id: int
    seat: int
    kind: str
    text: str
    options: list[Option]


class GameState(TypedDict, total=False):
    version: int
    rng: int
    settings: dict
    tiles: list[str]
    units: dict[str, Unit]
    next_id: int
    players: list[Player]
    slots: list[Slot]
    slot: int
    round: int
    turn_no: int
    turn: dict
    score: dict[str, int]
    door: int
    decks: dict[str, list[str]]
    discards: dict[str, list[str]]
    supply: dict[str, int]
    queue: list[dict]
    prompt: Prompt | None
    prompt_seq: int
    log: list[dict]
    result: dict | None
    fx: dict
    effects: list[dict]  # board effects such as embers (KMAGIC-5)


_MASK = (1 << 64) - 1


def _next(counter: int) -> tuple[int, int]:
    counter = (counter + 0x9E3779B97F4A7C15) & _MASK
    z = counter
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return counter, z ^ (z >> 31)


def seed_rng(seed: int) -> int:
    """A starting generator counter for a user seed."""
    return _next(seed & _MASK)[1]


def below(state: GameState, n: int) -> int:
    """A uniform int in [0, n) from the state's generator."""
    state["rng"], out = _next(state["rng"])
    return (out * n) >> 64


def shuffle(state: GameState, items: list) -> None:
    """Fisher-Yates in place with the state's generator."""
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]


# ---- log events: every kind has a sentence template --------------------------------------
EVENTS: dict[str, str | Callable[[dict], str]] = {}


def event(kind: str, template: str | Callable[[dict], str]) -> None:
    """Register a log event kind with its sentence: a template, or a function of the entry."""
    EVENTS[kind] = template


def log(state: GameState, ev: str, vis: int | None = None, **data: Any) -> None:
    """Append an event; `vis` limits it to one seat (hidden information)."""
    if ev not in EVENTS:
        raise KeyError(f"unregistered log event {ev!r}")
    state["log"].append({"e": ev, "vis": vis, **data})


def sentence(entry: dict) -> str:
    """Render a log entry with its template."""
    template = EVENTS[entry["e"]]
    if callable(template):
        return template(entry)
    return template.format(**{k: v for k, v in entry.items() if k != "e"})


# ---- step registry -------------------------------------------------------------------------
Handler = Callable[[GameState, dict], None]
STEPS: dict[str, Handler] = {}
CARD_STEPS: dict[str, dict[str, type]] = {}


def step(
    kind: str, card: bool = False, params: Mapping[str, type] | None = None
) -> Callable[[Handler], Handler]:
    """Register a step kind; `card=True` lets content use it with the declared params."""

    def deco(fn: Handler) -> Handler:
        if kind in STEPS:
            raise ValueError(f"step kind {kind!r} registered twice")
        STEPS[kind] = fn
        if card:
            CARD_STEPS[kind] = dict(params or {})
        return fn

    return deco


def push(state: GameState, *steps: dict) -> None:
    """Queue steps to run in the order given, before anything already queued."""
    state["queue"][0:0] = [dict(s) for s in steps]


def run(state: GameState) -> None:
    """Run steps until a prompt is open, the game is over, or the queue is empty."""
    count = 0
    while state["prompt"] is None and state["result"] is None and state["queue"]:
        s = state["queue"].pop(0)
        STEPS[s["k"]](state, s)
        count += 1
        if count > 100_000:  # pragma: no cover - bug guard
            raise RuntimeError("step loop did not reach a decision")


def option(
    key: str,
    label: str,
    then: list[dict] | None = None,
    explanation: str = "",
    cost: str = "",
    rule: str = "",
) -> Option:
    """One answer to a prompt, with its explanation, cost, rule id and continuation."""
    return {
        "key": key,
        "label": label,
        "explanation": explanation,
        "cost": cost,
        "rule": rule,
        "then": list(then or []),
    }


def ask(state: GameState, seat: int, kind: str, text: str, options: list[Option]) -> None:
    """Open a prompt for `seat`."""
    keys = [o["key"] for o in options]
    if len(set(keys)) != len(keys):  # pragma: no cover
        raise RuntimeError(f"duplicate option keys in {kind}: {keys}")
    state["prompt_seq"] += 1
    state["prompt"] = {
        "id": state["prompt_seq"],
        "seat": seat,
        "kind": kind,
        "text": text,
        "options": options,
    }


event("note", "{text}")

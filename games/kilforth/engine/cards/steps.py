"""The step interpreter: one registry of named step kinds and the loop that runs them.

A step is a dict `{"k": kind, ...args}`. The queue is a stack (last element runs next), so a
handler that pushes `[a, b]` has a and then b run before whatever was already queued. A handler
that needs a player's decision sets `state.prompt` (see `ask`) and the loop stops: the options'
continuations are themselves lists of steps, so a paused game is plain data.

Step kinds registered with `card=True` may appear in card data files. Each declares its parameters
beside it (`params=` required, `optional=` may be left out; types from schema.py), and the card
loader refuses a card whose steps miss, mistype or misspell one. Every kind is tested in
tests/engine/test_steps.py.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping

from games.kilforth.engine.cards.schema import Spec, Table, step_params
from games.kilforth.engine.events import event
from games.kilforth.engine.state import State, log
from games.kilforth.engine.verbs import ChoiceData, check_data

event(
    "prompt",
    lambda e, c: f"{c.person(e.get('seat', c.viewer))} was asked to {c.phrase(e['kind'])}.",
    minor=True,
    fields=("seat", "kind"),
    examples=({"kind": "turn"},),
)


Handler = Callable[[State, dict], None]
STEPS: dict[str, Handler] = {}
CARD_STEPS: dict[str, Handler] = {}
# The parameters each card step kind takes in card files (the seat is filled in by `bind`).
CARD_PARAMS: dict[str, Table] = {}
MAX_STEPS_PER_RUN = 200_000

_MODULES = (
    "cards.effects",
    "rules.turn",
    "rules.actions",
    "rules.engagement",
    "rules.dice",
    "rules.rewards",
    "rules.deeds",
    "rules.sagas",
    "rules.ancients",
    "rules.night",
    "rules.limits",
    "rules.endgame",
)


def step(
    kind: str,
    card: bool = False,
    params: Mapping[str, Spec] | None = None,
    optional: Mapping[str, Spec] | None = None,
) -> Callable[[Handler], Handler]:
    """Register a step handler under `kind`; `card=True` lets card files use it.

    A card step must declare the parameters card files give it: `params` (required; `{}` for
    none) and `optional` (those it reads with a default), e.g.
    `@step("lose_hp", card=True, params={"n": INT}, optional={"source": STR})`.
    """
    if card and params is None:
        raise ValueError(f"card step kind {kind!r} must declare its params (`params={{}}`: none)")
    if not card and (params is not None or optional is not None):
        raise ValueError(f"step kind {kind!r}: only card steps declare params")
    table = step_params(params or {}, optional or {})

    def deco(fn: Handler) -> Handler:
        if kind in STEPS:
            raise ValueError(f"step kind {kind!r} registered twice")
        STEPS[kind] = fn
        if card:
            CARD_STEPS[kind] = fn
            CARD_PARAMS[kind] = table
        return fn

    return deco


def load_all() -> None:
    """Import every module that registers steps (idempotent)."""
    for name in _MODULES:
        importlib.import_module(f"games.kilforth.engine.{name}")


def push(state: State, *steps: dict) -> None:
    """Queue steps so that they run in the order given, before anything already queued."""
    state.queue.extend(reversed(steps))


def bind(steps: list, seat: int | None, **ctx: object) -> list[dict]:
    """Copy card steps, filling in the hero they apply to (unless the step names one)."""
    out = []
    for s in steps:
        b = dict(s)
        b.setdefault("seat", seat)
        for k, v in ctx.items():
            b.setdefault(k, v)
        out.append(b)
    return out


def run(state: State) -> None:
    """Run queued steps until a prompt is open or the game is over."""
    count = 0
    while state.prompt is None and state.result is None and state.queue:
        s = state.queue.pop()
        STEPS[s["k"]](state, s)
        count += 1
        if count > MAX_STEPS_PER_RUN:  # pragma: no cover - a bug guard, never a rule
            raise RuntimeError("step loop did not reach a decision")


GROUPS = ("action", "deed", "end", "other")


def option(
    key: str,
    label: str,
    then: list | None = None,
    *,
    explain: str,
    rule: str,
    cost: str = "",
    group: str = "other",
    topic: str | None = None,
    data: ChoiceData,
) -> dict:
    """One answer to a prompt: a stable key, a label, structured data, and its continuation.

    `data` is what bots and boards read (never the key or label): a verb of verbs.VERBS and the
    facts that verb declares, e.g. `{"verb": "move", "loc": 7}`; it is checked here.
    Beside it the option states its own facts for players: `explain` (what it costs and does,
    in one or two plain sentences naming the card, place or amount), `rule` (the rule id that
    grants it, e.g. "MOVE-1"), `cost` ("1 AP", "free", "5 gold" or ""), `group` (one of
    GROUPS) and `topic` (a glossary entry, or None).
    """
    if group not in GROUPS:  # pragma: no cover - a programming error, never a game state
        raise ValueError(f"option {key!r}: unknown group {group!r}")
    return {
        "key": key,
        "label": label,
        "data": dict(check_data(data)),
        "then": list(then or []),
        "explain": explain,
        "rule": rule,
        "cost": cost,
        "group": group,
        "topic": topic,
    }


def ask(
    state: State, seat: int, kind: str, text: str, options: list[dict], **extra: object
) -> None:
    """Open a prompt for `seat`. With a single forced option the caller should just proceed."""
    keys = [o["key"] for o in options]
    if len(set(keys)) != len(keys):  # pragma: no cover - guards stable keys
        raise RuntimeError(f"duplicate option keys in prompt {kind}: {keys}")
    state.prompt_seq += 1
    state.prompt = {
        "id": state.prompt_seq,
        "seat": seat,
        "kind": kind,
        "text": text,
        "options": options,
        **extra,
    }
    log(state, "prompt", vis=seat, seat=seat, kind=kind, id=state.prompt_seq)


def abort_turn(state: State) -> None:
    """End the active turn at once: drop queued steps down to the turn's end marker.

    Steps marked `"cleanup": True` (e.g. discarding an event card that is being resolved) are
    kept, so a card never stays stranded in limbo.
    """
    kept = []
    while state.queue and state.queue[-1]["k"] != "end_turn":
        s = state.queue.pop()
        if s.get("cleanup"):
            kept.append(s)
    state.queue.extend(reversed(kept))

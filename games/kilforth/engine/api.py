"""The public entry points: legal() and act().

act() never mutates its input: it clones the state, applies the chosen option's continuation,
and runs the interpreter forward until the next decision.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass, field

from games.kilforth.engine.cards.steps import push, run
from games.kilforth.engine.events import event, name_people
from games.kilforth.engine.rules.deeds import unhide_option
from games.kilforth.engine.state import IllegalAction, State, log, trim_log

event(
    "decision",
    lambda e, c: (
        f"{c.person(e['seat'])} chose: {name_people(e['label'], c.person)}."
        if e.get("label")
        else f"{c.person(e['seat'])} made a choice."
    ),
    minor=True,
    fields=("seat", "label"),
    examples=({"label": "Move to Sprawl City"}, {"label": None}),
)
event(
    "decided",
    lambda e, c: f"{c.person(e['seat'])} was asked to {c.phrase(e['kind'])}, and answered.",
    minor=True,
    fields=("seat", "kind"),
    examples=({"kind": "turn"},),
)


@dataclass(frozen=True)
class Choice:
    """One legal decision: a stable short key, a human label, optional structured data.

    The engine also states, for players, what the choice costs and does (`explain`), the rule
    that grants it (`rule`), its `cost`, its `group` (action, deed, end, other) and a glossary
    `topic`; these never take part in comparisons.
    """

    key: str
    label: str
    data: dict = field(default_factory=dict, compare=False, hash=False)
    kind: str = ""
    explain: str = field(default="", compare=False)
    rule: str = field(default="", compare=False)
    cost: str = field(default="", compare=False)
    group: str = field(default="other", compare=False)
    topic: str | None = field(default=None, compare=False)

    @property
    def offturn(self) -> bool:
        """True for a choice outside the open prompt (e.g. stopping hiding on another's turn)."""
        return self.kind == "offturn"


def _choice(o: dict, kind: str) -> Choice:
    # .get: a game saved before options stated their facts still loads and plays.
    return Choice(
        o["key"],
        o["label"],
        o["data"],
        kind,
        explain=o.get("explain", ""),
        rule=o.get("rule", ""),
        cost=o.get("cost", ""),
        group=o.get("group", "other"),
        topic=o.get("topic"),
    )


def _offturn_unhide(state: State, seat: int) -> bool:
    """HIDE-2: a hidden hero may stop hiding at any time, on its turn or not.

    Its own turn menu already lists it, and the reveal-or-evade question answers it, so the
    extra choice is added everywhere else (other seats' questions and its own other ones).
    """
    if not (0 <= seat < len(state.heroes)) or state.prompt is None:
        return False
    h = state.heroes[seat]
    if not h["hidden"] or h["eliminated"]:
        return False
    p = state.prompt
    return not (p["seat"] == seat and p["kind"] in ("turn", "hidden_engage"))


def legal(state: State, seat: int) -> list[Choice]:
    """Everything `seat` may decide right now (including off-turn choices)."""
    if state.result is not None:
        return []
    out: list[Choice] = []
    p = state.prompt
    if p is not None and p["seat"] == seat:
        out = [_choice(o, p["kind"]) for o in p["options"]]
    if _offturn_unhide(state, seat):
        out.append(_choice(unhide_option([]), "offturn"))
    return out


def act(state: State, seat: int, key: str) -> State:
    """Apply one legal choice; raise IllegalAction (state untouched) for anything else."""
    if state.result is not None:
        raise IllegalAction("The game is over.")
    p = state.prompt
    if p is not None and p["seat"] == seat:
        for o in p["options"]:
            if o["key"] == key:
                new = state.clone(keep_prompt=False)
                trim_log(new)
                log(new, "decision", vis=seat, seat=seat, kind=p["kind"], key=key, label=o["label"])
                log(new, "decided", seat=seat, kind=p["kind"])
                push(new, *marshal.loads(marshal.dumps(o["then"])))
                return _finish(new, seat, key)
    if key == "unhide" and _offturn_unhide(state, seat):
        new = state.clone()
        trim_log(new)
        new.heroes[seat]["hidden"] = False
        log(new, "revealed", seat=seat, offturn=True)
        if p is not None and p["kind"] == "turn":
            # The active hero's menu may gain options (e.g. a team with this hero): rebuild it.
            new.prompt = None
            push(new, {"k": "turn_menu", "seat": p["seat"]})
        return _finish(new, seat, key)
    if p is None:
        raise IllegalAction("Nobody can act now.")
    if p["seat"] != seat:
        who = state.heroes[p["seat"]]["name"]
        raise IllegalAction(f"It is not your decision now: waiting for {who}.")
    raise IllegalAction(f"'{key}' is not one of your options right now.")


def _finish(new: State, seat: int, key: str) -> State:
    new.version += 1
    run(new)
    return new

"""Guided first games: a kit's script of steps, and where the guide stands at one table.

A kit may offer a tutorial (`kits.tutorial_of`): fixed options, a fixed pre-game answer (the
hero), a fixed seed, and a script. The game itself is an ordinary one, played through the same
services and the same board; only the coach panel beside the board is added, for the seated
player, while `Table.tutorial` says the guide is on.

A step either explains (the person presses Next) or points at one of the offered choices. It is
matched on the choices' structured facts (`Offer.choices`' data: a kit's verbs and their facts),
never on their labels or keys. The guide never blocks play: a choice other than the one pointed
at is taken like any other, and the guide then looks ahead for the next of its steps that fits
what the game offers (or says it waits for one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Step:
    """One step of a script: a short title and one or two sentences of why.

    `point` (the facts a choice's data must hold, e.g. {"verb": "move", "loc": 17}) makes it a
    step done by clicking that choice; without it the step explains and waits for Next, shown
    while a choice with the facts in `when` is offered (any choice when `when` is empty).
    `phase`: shown only in that phase of the game (a day, a round). `spot`: the id of an element
    of the kit's board to draw the eye to (a map location), if any.
    """

    title: str
    say: str
    point: dict[str, Any] | None = None
    when: dict[str, Any] = field(default_factory=dict)
    phase: int | None = None
    spot: str = ""

    @property
    def explains(self) -> bool:
        return self.point is None


@dataclass(frozen=True)
class Offer:
    """What the game offers one seat now: its phase and its choices as (key, label, data)."""

    phase: int
    choices: list[tuple[str, str, dict]]


class Tutorial(Protocol):
    """A kit's guided first game (the kit's `tutorial` attribute)."""

    title: str  # "Learn to play Kilforth"
    blurb: str  # one sentence for the lobby
    options: dict[str, Any]  # the table's options, as the kit's options form would clean them
    setup: dict  # the one seat's answer to the kit's pre-game prompt
    seed: int
    script: list[Step]

    def offer(self, state: Any, seat: int) -> Offer:
        """The seat's choices now (none when the game waits on nobody there)."""


@dataclass(frozen=True)
class Coaching:
    """What the coach panel shows: a step (`index` in the script), or the guide waiting."""

    index: int | None
    number: int
    total: int
    title: str
    say: str
    key: str = ""  # the choice to click
    label: str = ""  # its label, as the button reads
    spot: str = ""
    explains: bool = False
    last: bool = False
    strayed: bool = False


WAITING = (
    "Your own way",
    "You chose something the guide did not point at, which is fine: this is a real game. "
    "The guide speaks up again when one of its steps comes round; until then, play as you like.",
)


def new_progress(seed: int) -> dict[str, Any]:
    """`Table.tutorial` of a tutorial table just opened."""
    return {"seed": seed, "step": 0, "strayed": False, "left": False}


def _fits(facts: dict[str, Any], data: dict) -> bool:
    return all(data.get(name) == value for name, value in facts.items())


def applies(step: Step, offer: Offer) -> bool:
    if step.phase is not None and offer.phase != step.phase:
        return False
    facts = step.point if step.point is not None else step.when
    if not facts:
        return bool(offer.choices)
    return any(_fits(facts, data) for _, _, data in offer.choices)


def current(script: list[Step], progress: dict[str, Any], offer: Offer) -> int | None:
    """The step to show: the first from the guide's place on that fits what is offered."""
    for index in range(int(progress.get("step", 0)), len(script)):
        if applies(script[index], offer):
            return index
    return None


def active(progress: dict[str, Any] | None, script: list[Step]) -> bool:
    return bool(progress) and not progress.get("left") and progress.get("step", 0) < len(script)


def coach(script: list[Step], progress: dict[str, Any] | None, offer: Offer) -> Coaching | None:
    """The coach panel's content now; None once the guide was left or has finished."""
    if not active(progress, script) or not offer.choices:
        return None
    total = len(script)
    index = current(script, progress, offer)
    if index is None:
        title, say = WAITING
        return Coaching(None, int(progress["step"]) + 1, total, title, say, strayed=True)
    step = script[index]
    key = label = ""
    if step.point is not None:
        key, label = next((k, lab) for k, lab, data in offer.choices if _fits(step.point, data))
    return Coaching(
        index,
        index + 1,
        total,
        step.title,
        step.say,
        key=key,
        label=label,
        spot=step.spot,
        explains=step.explains,
        last=index == total - 1,
        strayed=bool(progress.get("strayed")),
    )


def after_decision(
    script: list[Step], progress: dict[str, Any], offer: Offer, key: str
) -> dict[str, Any]:
    """The guide's place after the seat answered `key` to `offer` (the offer it answered).

    The choice pointed at (or, past explanations not yet read, the next one pointed at) moves
    the guide on; any other choice leaves it at that step, marked as strayed.
    """
    if not active(progress, script):
        return progress
    data = next((d for k, _, d in offer.choices if k == key), None)
    shown = current(script, progress, offer)
    start = shown if shown is not None else int(progress["step"])
    pointing = next((i for i in range(start, len(script)) if not script[i].explains), None)
    if pointing is None:
        return progress
    if data is not None and _fits(script[pointing].point or {}, data):
        return {**progress, "step": pointing + 1, "strayed": False}
    if shown is None:
        return progress
    return {**progress, "step": pointing, "strayed": True}


def after_next(
    script: list[Step], progress: dict[str, Any], offer: Offer, index: int
) -> dict[str, Any]:
    """Next pressed on step `index`: only that explanation, if it is the one shown, moves on."""
    if not active(progress, script) or current(script, progress, offer) != index:
        return progress
    if not script[index].explains:
        return progress
    return {**progress, "step": index + 1, "strayed": False}


def coaching_for(
    kit: Any, progress: dict[str, Any] | None, state: Any, seat: int
) -> Coaching | None:
    """The coach panel of `seat` at a table of `kit` whose guide stands at `progress`."""
    from .kits import tutorial_of

    tutorial = tutorial_of(kit)
    if tutorial is None or not active(progress, tutorial.script):
        return None
    return coach(tutorial.script, progress, tutorial.offer(state, seat))

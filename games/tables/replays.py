"""Replays: a game stepped through decision by decision, rebuilt exactly from its first state.

`Game.initial` is the state the game began with (the seed inside it); each Action row is one
accepted decision. Step N is the state after the first N decisions, made by the kit's own `act`
on the same seat and key, so a replay is the game itself, not a recording of its boards.

Who sees what: while the game runs, a replay shows only what a spectator saw (the public board)
and only up to the present. Once it has ended, a viewer may also see the board as any seat saw it
(`as_seat`): every hand is then history. Access to the table is checked by the view, as for the
table page (an unlisted table's replay only by its links).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import caches, kits
from .kits import GameKit
from .models import UNDO, Action, Game

CHECKPOINT = 25  # a state is remembered every CHECKPOINT steps


class ReplayUnavailable(Exception):
    """A game begun before replays were recorded (no first state)."""


@dataclass(frozen=True)
class Step:
    """One decision as the replay lists it."""

    number: int  # 1-based: the state after this decision is step `number`
    seat: int
    key: str
    who: str  # the player's name as it is now, or "Bot (level)"
    events: list
    version: int  # the game version this decision made
    restored: str = ""  # an undo's row: the state it restored (the replay loads it)
    undone: bool = False  # a decision someone took back later

    @property
    def is_undo(self) -> bool:
        return self.key == UNDO


def steps_of(game: Game) -> list[Step]:
    rows = Action.objects.filter(game=game).order_by("version").select_related("player")
    steps = []
    for number, row in enumerate(rows, start=1):
        who = row.player.name if row.player else (f"Bot ({row.bot})" if row.bot else "?")
        steps.append(
            Step(
                number,
                row.seat,
                row.key,
                who,
                list(row.events),
                row.version,
                row.restored,
                row.undone,
            )
        )
    return steps


def state_after(game: Game, kit: GameKit, steps: list[Step], step: int) -> Any:
    """The game's state after its first `step` decisions (0: as it began)."""
    if not game.initial:
        raise ReplayUnavailable("This game began before replays were recorded.")
    step = max(0, min(step, len(steps)))
    base = step - step % CHECKPOINT
    state = caches.checkpoint(game.pk, base)
    if state is None:
        # The nearest remembered checkpoint below, else the first state.
        start = base
        while start > 0 and caches.checkpoint(game.pk, start) is None:
            start -= CHECKPOINT
        state = caches.checkpoint(game.pk, start) if start > 0 else kit.load(game.initial)
        for done in range(start, base):
            state = _apply(kit, state, steps[done])
            if (done + 1) % CHECKPOINT == 0:
                caches.remember_checkpoint(game.pk, done + 1, state)
        caches.remember_checkpoint(game.pk, base, state)
    for done in range(base, step):
        state = _apply(kit, state, steps[done])
    return state


def _apply(kit: GameKit, state: Any, step: Step) -> Any:
    """One step of the game: a decision, or an undo (which restored a stored state)."""
    if step.is_undo:
        return kit.load(step.restored)
    return kit.act(state, step.seat, step.key)


def kit_of(game: Game) -> GameKit:
    return kits.kit_for(game.table)

"""Replays: a game stepped through decision by decision, rebuilt exactly from its first state.

`Game.initial` is the state the game began with (the seed inside it); each Action row is one
accepted decision. Step N is the state after the first N decisions, made by the kit's own `act`
on the same seat and key, so a replay is the game itself, not a recording of its boards.

A replay also moves by phase (day, round): each Action row keeps the kit's `progress` after it,
whose first number is the phase; `marks` lists the first step of each phase, named with the
kit's `phase_word` ("Day 7", "Round 3"), for the slider and the keys.

Who sees what: while the game runs, a replay shows only what a spectator saw (the public board)
and only up to the present. Once it has ended, a viewer may also see the board as any seat saw it
(`?seat=`), or reveal every seat's hand at each step (`?hands=1`, the kit's `hands`): every hand
is then history. `revealed` is the one place that decides it. Access to the table is checked by
the view, as for the table page (an unlisted table's replay only by its links).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
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
    phase: int | None = None  # the day or round the game was in after it (None: not recorded)

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
                _phase_of(row.progress),
            )
        )
    return steps


def _phase_of(progress: Any) -> int | None:
    try:
        return int(progress[0])
    except (TypeError, ValueError, IndexError, KeyError):
        return None


@dataclass(frozen=True)
class Mark:
    """The first step of a phase: where the slider's "Day 7" points."""

    step: int
    phase: int
    label: str  # "Day 7"
    at: float  # where it sits along the slider, 0 to 100
    # Whether its label has room beside the labels before it on a wide screen and on a phone
    # (every mark keeps its tick and its link; a crowded label is left to the buttons and keys).
    roomy: bool = True
    tight: bool = True


# How far apart (in % of the slider) two labels must be to be both written.
ROOMY_GAP, TIGHT_GAP = 6.5, 17.0


def marks(steps: list[Step], first_phase: int | None, word: str) -> list[Mark]:
    """The first step of every phase the game went through, in order.

    `first_phase`: the phase of the state the game began with (step 0). A step whose phase was
    not recorded (a decision made before replays kept it) keeps the phase before it. Phases
    below 1 (the game still setting up) get no mark."""
    last = len(steps)
    found: list[Mark] = []
    current = first_phase
    for number in range(last + 1):
        phase = steps[number - 1].phase if number else first_phase
        if phase is None:
            continue
        if (number == 0 or phase != current) and phase >= 1:
            at = round(100 * number / last, 2) if last else 0.0
            found.append(Mark(number, phase, f"{word} {phase}", at))
        current = phase
    return _spaced(found)


def _spaced(found: list[Mark]) -> list[Mark]:
    spaced = []
    last_roomy = last_tight = -100.0
    for mark in found:
        roomy, tight = mark.at - last_roomy >= ROOMY_GAP, mark.at - last_tight >= TIGHT_GAP
        last_roomy = mark.at if roomy else last_roomy
        last_tight = mark.at if tight else last_tight
        spaced.append(replace(mark, roomy=roomy, tight=tight))
    return spaced


def phase_at(all_marks: list[Mark], step: int) -> Mark | None:
    """The mark of the phase that step `step` is in (None before the first mark)."""
    here = None
    for mark in all_marks:
        if mark.step > step:
            break
        here = mark
    return here


def neighbours(all_marks: list[Mark], step: int) -> tuple[Mark | None, Mark | None]:
    """Where "the previous day" and "the next day" go from step `step`: the start of this phase
    (or of the one before, when at its start already), and the start of the next one."""
    earlier = [m for m in all_marks if m.step < step]
    later = [m for m in all_marks if m.step > step]
    return (earlier[-1] if earlier else None), (later[0] if later else None)


def first_phase(game: Game, kit: GameKit, steps: list[Step]) -> int | None:
    """The phase of the state the game began with (step 0)."""
    if not game.initial:
        return None
    return _phase_of(kit.progress(state_after(game, kit, steps, 0)))


def revealed(ended: bool, asked: bool) -> bool:
    """Whether this replay shows every seat's hand: only asked for, and only once the game is
    over (while it runs, a replay shows what a spectator saw and nothing more)."""
    return ended and asked


def hands_at(kit: GameKit, state: Any, players: dict[int, str]) -> list[dict[str, Any]]:
    """Every seat's hidden cards at a step, with the seat's name: [{seat, name, cards}]."""
    return [
        {"seat": seat, "name": players.get(seat, f"Seat {seat + 1}"), "cards": cards}
        for seat, cards in sorted(kit.hands(state).items())
    ]


def checkpoint_key(game: Game) -> tuple:
    """The game's replay checkpoints' key: a row id can come back (a database reset, SQLite
    reusing the highest id); with the moment the game began it names one game only."""
    return (game.pk, game.created.isoformat())


def state_after(game: Game, kit: GameKit, steps: list[Step], step: int) -> Any:
    """The game's state after its first `step` decisions (0: as it began)."""
    if not game.initial:
        raise ReplayUnavailable("This game began before replays were recorded.")
    step = max(0, min(step, len(steps)))
    base = step - step % CHECKPOINT
    game_key = checkpoint_key(game)
    state = caches.checkpoint(game_key, base)
    if state is None:
        # The nearest remembered checkpoint below, else the first state.
        start = base
        while start > 0 and caches.checkpoint(game_key, start) is None:
            start -= CHECKPOINT
        state = caches.checkpoint(game_key, start) if start > 0 else kit.load(game.initial)
        for done in range(start, base):
            state = _apply(kit, state, steps[done])
            if (done + 1) % CHECKPOINT == 0:
                caches.remember_checkpoint(game_key, done + 1, state)
        caches.remember_checkpoint(game_key, base, state)
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

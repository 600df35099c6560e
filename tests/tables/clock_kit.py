"""A tiny game kit for the clock tests, defined only in the test suite: "Turns".

The seats take turns, one decision each ("move"), and the game ends after LIMIT decisions; a
"wait" on a seat's turn passes it on too. Everything a clock needs: one seat waited on at a
time, the same seat again a round later, and an end.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.safestring import SafeString, mark_safe

from games.tables.frames import mark
from games.tables.kits import KitRefusal
from tests.tables.kit_basics import WithoutExtras

LIMIT = 6


@dataclass(frozen=True)
class TurnsState:
    seats: int
    moves: list[list[int | str]]
    version: int = 1

    @property
    def waiting_for(self) -> list[int]:
        return [] if len(self.moves) >= LIMIT else [len(self.moves) % self.seats]


class TurnsOptions(forms.Form):
    @staticmethod
    def check(options: dict[str, Any], seat_count: int | None) -> dict[str, str]:
        return {}


class TurnsKit(WithoutExtras):
    key = "turns"
    name = "Turns"
    blurb = "Each in turn, six decisions in all."
    min_seats = 2
    max_seats = 3
    seats_label = "Players"
    duration = "a minute"
    bot_levels = {"steady": "steady", "hasty": "hasty"}
    options_form = TurnsOptions
    prompt_template = "tables/_flash.html"

    def options_summary(self, options: dict[str, Any]) -> list[str]:
        return []

    def new_seed(self) -> int:
        return 1

    def setup(self, options: dict[str, Any], setups: list[dict], seed: int) -> TurnsState:
        return TurnsState(seats=len(setups), moves=[])

    def load(self, document: str) -> TurnsState:
        return TurnsState(**json.loads(document))

    def dump(self, state: TurnsState) -> str:
        return json.dumps({"seats": state.seats, "moves": state.moves, "version": state.version})

    def act(self, state: TurnsState, seat: int, key: str) -> TurnsState:
        if seat not in state.waiting_for or key not in ("move", "wait"):
            raise KitRefusal("It is not your turn.")
        return TurnsState(state.seats, [*state.moves, [seat, key]], state.version + 1)

    def version(self, state: TurnsState) -> int:
        return state.version

    def events(self, before: TurnsState | None, after: TurnsState) -> list:
        return [] if before is None else [{"move": after.moves[-1]}]

    def waiting_for(self, state: TurnsState) -> list[int]:
        return state.waiting_for

    def result(self, state: TurnsState) -> dict | None:
        return None if state.waiting_for else {"moves": len(state.moves)}

    def bot_choice(self, state: TurnsState, seat: int, level: str, rng: random.Random) -> str:
        return "wait"

    def bot_setup(self) -> dict:
        return {}

    def check_setup(
        self, answer: dict, others: list[tuple[int, dict]], options: dict[str, Any]
    ) -> dict:
        return {}

    def prompt_context(self, seats: list[Any], my_seat: int | None) -> dict[str, Any]:
        return {"message": "Ready?"}

    def render(
        self,
        state: TurnsState,
        viewer: int | None,
        players: dict[int, str],
        online: set[int],
        table_slug: str,
        joined: bool = True,
    ) -> SafeString:
        status = mark("turns-status", f'<p id="turns-status">{len(state.moves)} moves</p>')
        return mark_safe(f'<div class="turns-board">{status}</div>')

    def page_parts(self) -> str:
        return ""

    def render_full_log(
        self, state: TurnsState, viewer: int | None, players: dict, history: list
    ) -> str:
        return mark_safe(f"<p>{len(history)} moves</p>")


KIT = TurnsKit()

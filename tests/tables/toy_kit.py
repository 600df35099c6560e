"""A tiny second game kit, defined only in the test suite: "High card".

Two seats; each picks a card (1-3) once, in secret; the higher card wins (a tie is shared). Until
both have picked, a seat sees its own card and only *that* the other has picked (hidden
information). It plugs into the platform through games.tables.kits alone.
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.template import engines
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.tables.kits import KitRefusal
from tests.tables.kit_basics import WithoutExtras

CARDS = (1, 2, 3)
PROMPT = engines["django"].from_string(
    '<section class="panel toy-prompt"><h2>Pick your colour</h2>'
    "{% for seat in seats %}<p>{{ seat.label }}: "
    "{% if seat.ready %}ready{% else %}still choosing{% endif %}</p>{% endfor %}"
    '{% if my_pick and not my_pick.ready %}<form method="post" '
    'action="{% url \'setup_seat\' table.slug %}"><button name="colour" value="red">'
    "Red</button></form>{% endif %}</section>"
)


@dataclass(frozen=True)
class HighCardState:
    colours: list[str]
    picks: list[int | None] = field(default_factory=lambda: [None, None])
    version: int = 1

    @property
    def waiting_for(self) -> list[int]:
        return [seat for seat, pick in enumerate(self.picks) if pick is None]

    @property
    def result(self) -> dict | None:
        if self.waiting_for:
            return None
        best = max(self.picks)
        return {"winners": [seat for seat, pick in enumerate(self.picks) if pick == best]}


class HighCardOptions(forms.Form):
    stakes = forms.ChoiceField(choices=[("low", "Low"), ("high", "High")], initial="low")

    @staticmethod
    def check(options: dict[str, Any], seat_count: int | None) -> dict[str, str]:
        return {} if seat_count in (None, 2) else {"seat_count": "High card is for two."}


class HighCardKit(WithoutExtras):
    key = "highcard"
    name = "High card"
    blurb = "Two players, one secret card each."
    min_seats = 2
    max_seats = 2
    seats_label = "Players"
    duration = "a minute"
    bot_levels = {"lowest": "cautious"}
    options_form = HighCardOptions
    prompt_template = PROMPT

    def options_summary(self, options: dict[str, Any]) -> list[str]:
        return [f"{options.get('stakes', 'low').title()} stakes"]

    def new_seed(self) -> int:
        return secrets.randbits(32)

    def setup(self, options: dict[str, Any], setups: list[dict], seed: int) -> HighCardState:
        return HighCardState(colours=[s.get("colour") or "grey" for s in setups])

    def load(self, document: str) -> HighCardState:
        return HighCardState(**json.loads(document))

    def dump(self, state: HighCardState) -> str:
        data = {"colours": state.colours, "picks": state.picks, "version": state.version}
        return json.dumps(data)

    def legal(self, state: HighCardState, seat: int) -> list[str]:
        return [f"card:{c}" for c in CARDS] if seat in state.waiting_for else []

    def act(self, state: HighCardState, seat: int, key: str) -> HighCardState:
        if key not in self.legal(state, seat):
            raise KitRefusal("That card is not yours to play now.")
        picks = list(state.picks)
        picks[seat] = int(key.split(":")[1])
        return HighCardState(state.colours, picks, state.version + 1)

    def version(self, state: HighCardState) -> int:
        return state.version

    def waiting_for(self, state: HighCardState) -> list[int]:
        return state.waiting_for

    def result(self, state: HighCardState) -> dict | None:
        return state.result

    def outcome(self, state: HighCardState, players: dict[int, str]) -> str:
        names = " and ".join(players[s] for s in state.result["winners"])
        return f"The game is over: {names} drew the highest card."

    def bot_choice(self, state: HighCardState, seat: int, level: str, rng: random.Random) -> str:
        return self.legal(state, seat)[0]

    def bot_setup(self) -> dict:
        return {"colour": "grey"}

    def check_setup(
        self, answer: dict, others: list[tuple[int, dict]], options: dict[str, Any]
    ) -> dict:
        colour = answer.get("colour")
        if colour not in ("red", "blue", "grey"):
            raise KitRefusal("Pick red, blue or grey.")
        if any(setup.get("colour") == colour for _, setup in others):
            raise KitRefusal("That colour is taken.")
        return {"colour": colour}

    def prompt_context(self, seats: list[Any], my_seat: int | None) -> dict[str, Any]:
        return {"my_pick": next((s for s in seats if s.number == my_seat), None)}

    def render(
        self,
        state: HighCardState,
        viewer: int | None,
        players: dict[int, str],
        online: set[int],
        table_slug: str,
        joined: bool = True,
    ) -> SafeString:
        rows = []
        for seat, pick in enumerate(state.picks):
            shown = state.result is not None or seat == viewer
            said = "waiting" if pick is None else (f"played {pick}" if shown else "has played")
            rows.append(f"<li>{escape(players.get(seat, '?'))}: {said}</li>")
        choices = ""
        if viewer is not None and viewer in state.waiting_for:
            choices = "".join(
                f'<form ws-send><input type="hidden" name="action" value="act">'
                f'<input type="hidden" name="key" value="{key}">'
                f'<input type="hidden" name="version" value="{state.version}">'
                f"<button>{key}</button></form>"
                for key in self.legal(state, viewer)
            )
        end = ""
        if state.result is not None:
            end = "<p>Winners: " + ", ".join(players[s] for s in state.result["winners"]) + "</p>"
        return mark_safe(f'<div class="toy-board"><ul>{"".join(rows)}</ul>{choices}{end}</div>')

    def page_parts(self) -> str:
        return ""

    def events(self, before: HighCardState | None, after: HighCardState) -> list:
        if before is None:
            return [{"dealt": len(after.picks)}]
        return [{"played": s} for s, pick in enumerate(after.picks) if pick != before.picks[s]]

    def render_full_log(
        self, state: HighCardState, viewer: int | None, players: dict, history: list
    ) -> str:
        played = sum(1 for e in history if "played" in e)
        return mark_safe(f"<p>{played} cards played</p>")


KIT = HighCardKit()

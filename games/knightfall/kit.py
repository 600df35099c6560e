"""Knight Fall as a game kit: everything the platform (games/tables) needs, behind tables.kits.

The platform never imports this module: KnightfallConfig.ready registers `KIT` under
"knightfall". The engine deals the characters itself (its first prompts), so the pre-game prompt
is only a "Ready" confirmation that shows each seat its team; `Seat.setup` stays `{}`.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from django import forms

from games.knightfall import board, summary
from games.knightfall.engine import api, bots
from games.knightfall.engine.content import content
from games.knightfall.engine.core import GameState, IllegalAction
from games.tables.kits import HandCard, KitRefusal, show_when

MODES = [("standard", "Standard (knights against demons)"), ("coop", "Co-op (all knights)")]
COOP_LEVELS = [
    ("easy", "Easy (a shorter night, plain demons)"),
    ("normal", "Normal"),
    ("hard", "Hard (tougher demons, more imps)"),
]
LONE_TEAMS = [("demons", "plays the demons"), ("knights", "plays the knights")]
BOTS = {"heuristic": bots.heuristic_bot, "random": bots.random_bot}
# The state keeps the newest log events (the board shows a few); the platform keeps them all on
# its Action rows (`events`), so the state document does not grow with the game.
LOG_KEPT = 200


def _trim_log(state: GameState) -> GameState:
    extra = len(state["log"]) - LOG_KEPT
    if extra > 0:
        state["log_dropped"] = state.get("log_dropped", 0) + extra  # type: ignore[typeddict-unknown-key]
        del state["log"][:extra]
    return state


def _logged(state: GameState) -> int:
    """Every event the game has logged so far, the dropped ones included."""
    return state.get("log_dropped", 0) + len(state["log"])  # type: ignore[typeddict-item]


def teams(options: dict[str, Any], seat_count: int) -> list[str]:
    """Each seat's team ("knights" / "demons") at a table with these options, as dealt."""
    mode, lone = options.get("mode", "standard"), options.get("lone_team", "demons")
    return api._teams(seat_count, mode, lone)


class KnightfallOptionsForm(forms.Form):
    """A Knight Fall table's options: the engine settings a host picks (KPC-1, KVAR-1..5)."""

    mode = forms.ChoiceField(choices=MODES, initial="standard", widget=forms.RadioSelect)
    lone_team = show_when(
        forms.ChoiceField(
            choices=LONE_TEAMS,
            initial="demons",
            widget=forms.RadioSelect,
            label="With 3 players, the lone player",
        ),
        "mode",
        "standard",
    )
    coop_level = show_when(
        forms.ChoiceField(
            choices=COOP_LEVELS,
            initial="normal",
            required=False,
            widget=forms.RadioSelect,
            label="Co-op difficulty",
        ),
        "mode",
        "coop",
    )
    locations = forms.BooleanField(
        required=False, initial=True, label="Location effects (the nook bites, the orb gives magic)"
    )
    experienced = forms.BooleanField(
        required=False, label="Experienced players (the knights start level on the track)"
    )
    desperate = forms.BooleanField(
        required=False, label="Desperate (weaker elders, no golems at the start, one more imp)"
    )
    five_card = forms.BooleanField(
        required=False, label="Five-card hands (draw 4 power cards, keep 1 each turn)"
    )

    @staticmethod
    def check(options: dict[str, Any], seat_count: int | None) -> dict[str, str]:
        """Impossible combinations, as {field: message} ("seat_count" names the table's seats)."""
        problems: dict[str, str] = {}
        mode = options.get("mode")
        if mode == "coop" and seat_count is not None and not 1 <= seat_count <= 3:
            problems["seat_count"] = "A co-op game is for 1 to 3 players."
        if mode == "standard" and seat_count is not None and seat_count < 2:
            problems["seat_count"] = "Knights against demons needs 2 to 6 players."
        lone = options.get("lone_team", "demons")
        if lone != "demons" and (mode != "standard" or seat_count not in (None, 3)):
            problems["lone_team"] = "Only a 3-player standard game has a lone player."
        return problems

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for field, message in self.check(data, None).items():
            self.add_error(field if field in self.fields else None, message)
        return data


def settings(options: dict[str, Any], players: int) -> dict[str, Any]:
    """The engine settings for a table's options and seat count."""
    fields = KnightfallOptionsForm.base_fields
    full = {name: field.initial or False for name, field in fields.items()} | dict(options)
    return full | {"players": players, "coop_level": full.get("coop_level") or "normal"}


class KnightfallKit:
    key = "knightfall"
    name = "Knight Fall"
    blurb = "Knights guard the monastery's elders through the night while demons break in."
    min_seats = 1
    max_seats = 6
    seats_label = "Players"
    duration = "45-90 minutes"
    bot_levels = {"heuristic": "sensible", "random": "random"}
    prompt_template = "knightfall/_ready.html"
    simulate_command = "simulate_knightfall"

    def teams(self, options: dict[str, Any], seat_count: int) -> list[str] | None:
        """Knights and demons each get a team chat; co-op is one team (the table chat)."""
        if options.get("mode") == "coop":
            return None
        return [team.capitalize() for team in teams(options, seat_count)]

    def undoable(self, before: GameState, after: GameState) -> bool:
        """Nothing random or hidden came out: the dice did not move, no card was drawn, the
        same turn, the game not over."""
        decks = {k: len(v) for k, v in before["decks"].items()}
        return (
            after["result"] is None
            and before["rng"] == after["rng"]
            and before["turn_no"] == after["turn_no"]
            and decks == {k: len(v) for k, v in after["decks"].items()}
        )

    def rewind(self, state: GameState, version: int) -> GameState:
        new = api.from_json(api.to_json(state))
        new["version"] = version
        return new

    def progress(self, state: GameState) -> tuple[int, list[float]]:
        return summary.progress(state)

    def summary(self, state: GameState, history: list, players: dict[int, str]) -> Any:
        return summary.summary(state, history, players)

    def outcome(self, state: GameState, players: dict[int, str]) -> str:
        return summary.outcome(state)

    phase_word = "Round"

    def hands(self, state: GameState) -> dict[int, list[HandCard]]:
        """Each player's power cards: what only their own seat sees (a finished game's replay)."""
        cards = content().cards
        hands: dict[int, list[HandCard]] = {}
        for p in state["players"]:
            held = [cards.get(cid.split("#")[0], {"name": cid, "text": ""}) for cid in p["hand"]]
            hands[p["seat"]] = [
                {"name": c["name"], "text": c.get("text", ""), "kind": "Power card"} for c in held
            ]
        return hands

    options_form = KnightfallOptionsForm

    # Engine interface
    def new_seed(self) -> int:
        return secrets.randbits(48)

    def setup(self, options: dict[str, Any], setups: list[dict], seed: int) -> GameState:
        try:
            return _trim_log(api.new_game(settings(options, len(setups)), seed))
        except IllegalAction as exc:
            raise KitRefusal(str(exc)) from exc

    def load(self, document: str) -> GameState:
        return api.from_json(document)

    def dump(self, state: GameState) -> str:
        return api.to_json(state)

    def act(self, state: GameState, seat: int, key: str) -> GameState:
        try:
            return _trim_log(api.act(state, seat, key))
        except IllegalAction as exc:
            raise KitRefusal(str(exc)) from exc

    def version(self, state: GameState) -> int:
        return api.version(state)

    def events(self, before: GameState | None, after: GameState) -> list:
        added = _logged(after) - (_logged(before) if before is not None else 0)
        return list(after["log"][-added:]) if added > 0 else []

    def waiting_for(self, state: GameState) -> list[int]:
        return api.waiting_for(state)

    def result(self, state: GameState) -> Any:
        return api.result(state)

    def bot_choice(self, state: GameState, seat: int, level: str, rng: random.Random) -> str:
        bot = BOTS.get(level, bots.heuristic_bot)
        return bot(state, seat, api.legal(state, seat), rng)

    # Options
    def options_summary(self, options: dict[str, Any]) -> list[str]:
        mode = options.get("mode", "standard")
        summary = ["Co-op" if mode == "coop" else "Knights against demons"]
        if options.get("lone_team") == "knights":
            summary.append("A lone knight player")
        if mode == "coop":
            level = dict(COOP_LEVELS).get(options.get("coop_level") or "normal", "Normal")
            summary.append(f"Difficulty: {level.split(' (')[0].lower()}")
        labels = {
            "locations": "location effects",
            "experienced": "experienced",
            "desperate": "desperate",
            "five_card": "five-card hands",
        }
        picked = [label for key, label in labels.items() if options.get(key)]
        if picked:
            summary.append("Variants: " + ", ".join(picked))
        return summary

    # Pre-game prompt: a "Ready" confirmation (the engine deals the characters in play)
    def bot_setup(self) -> dict:
        return {}

    def check_setup(
        self, answer: dict, others: list[tuple[int, dict]], options: dict[str, Any]
    ) -> dict:
        return {}

    def prompt_context(self, seats: list[Any], my_seat: int | None) -> dict[str, Any]:
        return {"kf_my_pick": next((s for s in seats if s.number == my_seat), None)}

    # Rendering
    def render(
        self,
        state: GameState,
        viewer: int | None,
        players: dict[int, str],
        online: set[int],
        table_slug: str,
        joined: bool = True,
    ) -> str:
        return board.render(api.view(state, viewer), viewer, players, online)

    def page_parts(self) -> str:
        return board.page_parts()

    def render_full_log(
        self, state: GameState, viewer: int | None, players: dict[int, str], history: list
    ) -> str:
        return board.render_full_log(history, viewer)


KIT = KnightfallKit()

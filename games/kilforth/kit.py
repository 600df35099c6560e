"""Kilforth as a game kit: everything the platform (games/tables) needs, behind tables.kits.GameKit.

The platform never imports this module: KilforthConfig.ready registers `KIT` under "kilforth".
Pre-game prompt: each seat picks a race, a class, a side and (at matched tables) a saga (SET-2),
stored as that seat's `Seat.setup` ({"race", "class", "female", "saga"?}; None: the dice decide).
"""

from __future__ import annotations

import random
from typing import Any

from django import forms

from games.kilforth import adapter, summary
from games.tables.frames import Unjoined
from games.tables.kits import HandCard, KitRefusal, show_when

EDITIONS = [("gloom", "Gloom of Kilforth"), ("shadows", "Shadows of Kilforth")]
MODES = [("competitive", "Competitive"), ("cooperative", "Cooperative"), ("solo", "Solo")]
DIFFICULTIES = [("easier", "Easier"), ("standard", "Standard"), ("harder", "Harder")]
SAGA_ALLOCATIONS = [("matched", "Matched to class"), ("random", "Random")]


class KilforthOptionsForm(forms.Form):
    """A Kilforth table's options (OPT-1..5): the one place they are declared and checked.

    Its cleaned data is stored as Table.options and handed to the engine's Settings as is.
    """

    edition = forms.ChoiceField(choices=EDITIONS, initial="shadows", widget=forms.RadioSelect)
    mode = forms.ChoiceField(choices=MODES, initial="competitive", widget=forms.RadioSelect)
    difficulty = forms.ChoiceField(
        choices=DIFFICULTIES, initial="standard", widget=forms.RadioSelect
    )
    auto_evasion = forms.BooleanField(
        required=False,
        label="Automatic evasion (a sneakier hero slips past foes without a test)",
    )
    chapter_cost_2x = forms.BooleanField(
        required=False, label="Chapters cost 2 gold x chapter number instead of 5"
    )
    open_hands = show_when(
        forms.BooleanField(required=False, label="Open hands (co-op: everyone sees every rumour)"),
        "mode",
        "cooperative",
    )
    saga_allocation = forms.ChoiceField(
        choices=SAGA_ALLOCATIONS, initial="matched", widget=forms.RadioSelect, label="Sagas"
    )

    @staticmethod
    def check(options: dict[str, Any], seat_count: int | None) -> dict[str, str]:
        """Impossible combinations, as {field: message} ("seat_count" names the table's seats)."""
        problems: dict[str, str] = {}
        mode = options.get("mode")
        if mode == "solo" and seat_count not in (None, 1):
            problems["seat_count"] = "A solo game has exactly one hero seat."
        if mode in ("competitive", "cooperative") and seat_count == 1:
            problems["seat_count"] = f"A {mode} game needs 2 to 4 heroes; choose Solo for one."
        if options.get("open_hands") and mode != "cooperative":
            problems["open_hands"] = "Open hands is a cooperative variant."
        if options.get("edition") == "gloom" and options.get("difficulty") == "harder":
            # OPT-3: the harder setting is the Couch of Death centre and an extra pre-drawn
            # night card, both Shadows only; Gloom has no harder setting to offer.
            problems["difficulty"] = (
                "Harder is a Shadows setting (Couch of Death, one more night card drawn at the "
                "start); Gloom offers easier or standard."
            )
        return problems

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for field, message in self.check(data, None).items():
            self.add_error(field if field in self.fields else None, message)
        return data


def variants(options: dict[str, Any]) -> list[str]:
    labels = []
    if options.get("auto_evasion"):
        labels.append("automatic evasion")
    if options.get("chapter_cost_2x"):
        labels.append("chapter cost 2 x chapter")
    if options.get("open_hands"):
        labels.append("open hands")
    return labels


class KilforthKit:
    key = "kilforth"
    name = "Kilforth"
    blurb = "Heroes roam a haunted land, gather gear and race to finish their sagas."
    min_seats = 1
    max_seats = 4
    seats_label = "Hero seats"
    duration = "60-120 minutes"
    bot_levels = {"random": "random", "heuristic": "sensible"}
    prompt_template = "kilforth/_hero_choice.html"
    simulate_command = "simulate_kilforth"

    @property
    def tutorial(self) -> Any:
        """ "Learn to play Kilforth": the guided first game (games/kilforth/tutorial.py)."""
        from games.kilforth.tutorial import TUTORIAL

        return TUTORIAL

    def teams(self, options: dict[str, Any], seat_count: int) -> list[str] | None:
        return None  # everyone plays for themselves, or all together (co-op): no team channel

    def undoable(self, before: adapter.State, after: adapter.State) -> bool:
        """Nothing random or hidden came out: no die or shuffle (the generator did not move),
        no card drawn or put aside, the same day and turn, the game not over."""
        return (
            after.result is None
            and before.rng == after.rng
            and (before.day, before.turn, before.turn_no) == (after.day, after.turn, after.turn_no)
            and {k: len(v) for k, v in before.decks.items()}
            == {k: len(v) for k, v in after.decks.items()}
            and len(before.loot_bag) == len(after.loot_bag)
            and before.limbo == after.limbo
        )

    def rewind(self, state: adapter.State, version: int) -> adapter.State:
        new = state.clone()
        new.version = version
        return new

    def progress(self, state: adapter.State) -> tuple[int, list[float]]:
        return summary.progress(state)

    def summary(self, state: adapter.State, history: list, players: dict[int, str]) -> Any:
        return summary.summary(state, history, players)

    def outcome(self, state: adapter.State, players: dict[int, str]) -> str:
        return summary.outcome(state, players)

    phase_word = "Day"

    def hands(self, state: adapter.State) -> dict[int, list[HandCard]]:
        """Each hero's rumours and loot: what only its own seat sees (a finished game's replay)."""
        from games.kilforth.board.card_facts import card, card_name

        piles = (("hand", "Rumour"), ("loot", "Loot"))
        return {
            h["seat"]: [
                {"name": card_name(cid), "text": str(card(cid).get("text", "")), "kind": kind}
                for pile, kind in piles
                for cid in h[pile]
            ]
            for h in state.heroes
        }

    options_form = KilforthOptionsForm

    # Engine interface
    def new_seed(self) -> int:
        return adapter.new_seed()

    def setup(self, options: dict[str, Any], setups: list[dict], seed: int) -> adapter.State:
        fields = KilforthOptionsForm.base_fields
        full = {name: field.initial or False for name, field in fields.items()} | options
        return adapter.setup(full, [dict(s or {}) for s in setups], seed)

    def load(self, document: str) -> adapter.State:
        return adapter.load(document)

    def dump(self, state: adapter.State) -> str:
        return adapter.dump(state)

    def act(self, state: adapter.State, seat: int, key: str) -> adapter.State:
        try:
            return adapter.act(state, seat, key)
        except adapter.IllegalAction as exc:
            raise KitRefusal(exc.reason) from exc

    def version(self, state: adapter.State) -> int:
        return state.version

    def events(self, before: adapter.State | None, after: adapter.State) -> list:
        return adapter.new_events(before, after)

    def waiting_for(self, state: adapter.State) -> list[int]:
        return list(state.waiting_for)

    def result(self, state: adapter.State) -> Any:
        return state.result

    def bot_choice(self, state: adapter.State, seat: int, level: str, rng: random.Random) -> str:
        return adapter.bot_choice(state, seat, level, rng)

    # Options
    def options_summary(self, options: dict[str, Any]) -> list[str]:
        names = dict(EDITIONS + MODES + DIFFICULTIES + SAGA_ALLOCATIONS)
        summary = [names.get(options.get(k, ""), "?") for k in ("edition", "mode", "difficulty")]
        summary.append(f"Sagas {names.get(options.get('saga_allocation', ''), '?').lower()}")
        if variants(options):
            summary.append("Variants: " + ", ".join(variants(options)))
        return summary

    # Pre-game prompts
    def bot_setup(self) -> dict:
        return {"race": None, "class": None, "female": False}

    def check_setup(
        self, answer: dict, others: list[tuple[int, dict]], options: dict[str, Any]
    ) -> dict:
        race = str(answer.get("race") or "")
        klass = str(answer.get("class") or "")
        saga = str(answer.get("saga") or "")
        heroes = adapter.hero_options()
        if race and race not in {o.id for o in heroes["races"]}:
            raise KitRefusal("That race is not one of the choices.")
        if klass and klass not in {o.id for o in heroes["classes"]}:
            raise KitRefusal("That class is not one of the choices.")
        if saga and saga not in {o.id for o in heroes["sagas"]}:
            raise KitRefusal("That saga is not one of the choices.")
        for number, picked in others:
            label = f"Seat {number + 1}"
            if race and picked.get("race") == race:
                raise KitRefusal(f"{label} has already picked that race.")
            if klass and picked.get("class") == klass:
                raise KitRefusal(f"{label} has already picked that class.")
            if saga and picked.get("saga") == saga:
                raise KitRefusal(f"{label} has already picked that saga.")
        if saga and options.get("saga_allocation", "matched") != "matched":
            raise KitRefusal("At this table the sagas are dealt at random.")
        hero = {"race": race or None, "class": klass or None, "female": bool(answer.get("female"))}
        if saga:
            hero["saga"] = saga
        return hero

    def prompt_context(self, seats: list[Any], my_seat: int | None) -> dict[str, Any]:
        options = adapter.hero_options()
        taken = [s.setup or {} for s in seats if s.ready and s.number != my_seat]
        return {
            "hero_options": options,
            "names": {o.id: o.name for group in options.values() for o in group},
            "my_pick": next((s for s in seats if s.number == my_seat), None),
            "taken": {v for pick in taken for v in pick.values() if isinstance(v, str)},
        }

    # Rendering
    def render(
        self,
        state: adapter.State,
        viewer: int | None,
        players: dict[int, str],
        online: set[int],
        table_slug: str,
        joined: bool = True,
    ) -> str | Unjoined:
        return adapter.render(state, viewer, players, online, table_slug, joined)

    def page_parts(self) -> str:
        from games.kilforth.board import page_parts

        return page_parts()

    def render_full_log(
        self, state: adapter.State, viewer: int | None, players: dict[int, str], history: list
    ) -> str:
        return adapter.render_full_log(state, viewer, players, history)


KIT = KilforthKit()


def pick_hero(table: Any, player: Any, race: str, klass: str, female: bool, saga: str = "") -> None:
    """One seat's hero pick through the platform's pre-game prompt ("": the dice decide)."""
    from games.tables import services

    answer = {"race": race, "class": klass, "female": female, "saga": saga}
    services.do_setup_seat(table, player, answer)

"""The game-kit seam: everything one game brings, behind one small protocol.

The platform (this package: lobby, seats, sockets, persistence, bots) knows games only through
`GameKit`. A kit registers itself under its key (`register`, from its AppConfig.ready); the
platform finds a table's kit by `Table.game` (`kit_for`). Nothing in games/tables imports a
kit's module (tests/tables/test_kit_seam.py checks this).

Seat numbers are one convention everywhere below the page: 0-based (engine, services, sockets,
`Seat.number`, part ids, seat URLs); only what a person reads ("Seat 1") counts from 1.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, TypedDict, runtime_checkable

from django import forms

from .frames import Unjoined


class KitRefusal(Exception):
    """A kit refused an answer (an illegal decision, a bad pre-game pick): `reason` is shown."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SummaryRow(TypedDict):
    """One seat (or team) at the end: its score and what the score is made of."""

    name: str
    score: float
    won: bool
    parts: list[tuple[str, float]]  # [("Gold", 5), ("Assets", 7)]


class LuckRow(TypedDict):
    """Dice luck of one seat: successes rolled against the successes expected from the dice."""

    name: str
    rolled: int
    expected: float


class Moment(TypedDict):
    phase: int  # the day or round it happened in
    text: str  # one sentence, the kit's own words


class HandCard(TypedDict):
    """One card a seat holds out of the others' sight (`GameKit.hands`)."""

    name: str
    text: str
    kind: str  # which of the seat's hidden piles it is in ("Rumour", "Loot", "Power card")


class GameSummary(TypedDict):
    """The end of a game in numbers (`GameKit.summary`); the platform draws the charts."""

    phase: str  # what a phase is called: "Day", "Round"
    score: str  # what the score is called: "Victory points"
    series: list[str]  # the names of `progress`'s values, in order
    rows: list[SummaryRow]
    luck: list[LuckRow]  # empty in a game without dice
    moments: list[Moment]


@runtime_checkable
class GameKit(Protocol):
    """What one game brings to the platform. States are the kit's own objects; the platform only
    stores them (`dump`/`load`) and asks about them through these methods."""

    key: str  # the registry key, stored in Table.game
    name: str  # shown in the lobby
    blurb: str  # one sentence for the lobby
    min_seats: int
    max_seats: int
    seats_label: str  # what the settings form calls the seat count ("Hero seats")
    duration: str  # "45-90 minutes"
    # Bot levels on offer: level -> label a person reads ("sensible"). The first is the default.
    bot_levels: dict[str, str]
    # The kit's management command that plays bot games and reports (`manage.py simulate --game
    # KEY ...` forwards the rest of its arguments to it); "" when the kit has none.
    simulate_command: str

    # Engine interface: the fixed API every engine has.
    def new_seed(self) -> int: ...
    def setup(self, options: dict[str, Any], setups: list[dict], seed: int) -> Any: ...
    def load(self, document: str) -> Any: ...
    def dump(self, state: Any) -> str: ...
    def act(self, state: Any, seat: int, key: str) -> Any:
        """The new state; raises KitRefusal for an illegal decision."""

    def version(self, state: Any) -> int: ...
    def events(self, before: Any | None, after: Any) -> list:
        """What `after` added to the game's history since `before` (None: a new game), as JSON.

        The platform stores it with the decision (Action.events; Game.opening for a new game)
        and hands the whole history back to `render_full_log`: the state keeps only what the
        position needs, so its document does not grow with the game."""

    def waiting_for(self, state: Any) -> list[int]: ...
    def result(self, state: Any) -> Any: ...

    # Undo, with the board-game sites' policy: a decision may be taken back when nothing random
    # or hidden came out of it (no die, no shuffle, no card drawn, the same turn); `rewind` is
    # the earlier state as the game's next version.
    def undoable(self, before: Any, after: Any) -> bool: ...
    def rewind(self, state: Any, version: int) -> Any: ...
    def bot_choice(self, state: Any, seat: int, level: str, rng: random.Random) -> str: ...

    # Pre-game prompts: what each seat answers between Start and play (stored in Seat.setup).
    def bot_setup(self) -> dict:
        """The setup a bot seat gets without asking."""

    def check_setup(
        self, answer: dict, others: list[tuple[int, dict]], options: dict[str, Any]
    ) -> dict:
        """A seat's answer, cleaned; KitRefusal when not allowed (unknown, or taken).

        `others`: (seat number, setup) of the seats already ready."""

    # Options: a Django form class whose fields the table form shows and whose staticmethod
    # `check(options, seat_count) -> {field: message}` judges their combinations; its cleaned
    # data is Table.options, handed to `setup` as is.
    options_form: type[forms.Form]

    def options_summary(self, options: dict[str, Any]) -> list[str]:
        """The options in a few words each, for the lobby and the table page."""

    def teams(self, options: dict[str, Any], seat_count: int) -> list[str] | None:
        """Each seat's team name ("Knights") in a team game, or None: the team chat channel."""

    # The end of the game: `progress` is asked after every decision and kept on its Action row
    # (a point of the score chart); `summary` once the game is over, with the whole history.
    def progress(self, state: Any) -> tuple[int, list[float]]:
        """The phase (day, round) the game is in and each series' score now."""

    def summary(self, state: Any, history: list, players: dict[int, str]) -> GameSummary: ...
    def outcome(self, state: Any, players: dict[int, str]) -> str:
        """Once `result` is set: one sentence for the table's chat saying that the game is over,
        who won and why, with `players`' names for the seats."""

    # Replays (games/tables/replays.py): the word for a phase of `progress` ("Day", "Round"),
    # marked on the replay's slider; and every seat's hidden cards at a moment, by seat. The
    # platform shows `hands` only in the replay of a finished game ("Reveal hands").
    phase_word: str

    def hands(self, state: Any) -> dict[int, list[HandCard]]: ...

    def prompt_context(self, seats: list[Any], my_seat: int | None) -> dict[str, Any]:
        """Template context for the kit's pre-game prompt (`prompt_template`)."""

    prompt_template: str

    # Rendering (HTML marked safe, the kit escapes what it shows): the board for one viewer (a
    # seat, or None for a spectator: never another seat's hidden information) with its changing
    # parts marked (frames.mark), the page's once-only assets, and the whole log. Once `result`
    # is set, the board carries the kit's end-of-game summary (Kilforth: the scores table).
    # `joined=False` (a socket's rendering): a kit that composes its board (frames.compose) may
    # leave it `Unjoined`; a string is always right.
    def render(
        self,
        state: Any,
        viewer: int | None,
        players: dict[int, str],
        online: set[int],
        table_slug: str,
        joined: bool = True,
    ) -> str | Unjoined: ...
    def page_parts(self) -> str: ...
    def render_full_log(
        self, state: Any, viewer: int | None, players: dict[int, str], history: list
    ) -> str: ...


def show_when(field: forms.Field, option: str, *values: str) -> forms.Field:
    """Mark a kit's option field as applying only while `option` has one of `values` (e.g. a
    co-op variant): the table form hides and disables it otherwise. The kit's `check` still
    refuses the combination, so a page without script is judged the same way."""
    field.show_when = (option, " ".join(values))  # type: ignore[attr-defined]
    return field


_kits: dict[str, GameKit] = {}


def register(kit: GameKit) -> None:
    """Make a kit available under `kit.key` (a later registration of the same key replaces it)."""
    if not isinstance(kit, GameKit):
        raise TypeError(f"{kit!r} does not implement the GameKit protocol")
    _kits[kit.key] = kit


def unregister(key: str) -> None:
    _kits.pop(key, None)


def get(key: str) -> GameKit:
    """The kit registered under `key`; LookupError when there is none."""
    try:
        return _kits[key]
    except KeyError:
        raise LookupError(f"No game called {key!r} is offered here.") from None


def kit_for(table: Any) -> GameKit:
    return get(table.game)


def all_kits() -> list[GameKit]:
    return list(_kits.values())


def bot_label(game: str, level: str) -> str:
    kit = _kits.get(game)
    return kit.bot_levels.get(level, level) if kit else level


# -- Optional: a guided first game ---------------------------------------------------------------
# A kit may offer a tutorial as its `tutorial` attribute (a games.tables.tutorials.Tutorial: fixed
# options, hero and seed, and a script of steps). It is not part of GameKit: a kit without one
# simply has no "Learn to play" entry in the lobby.


def tutorial_of(kit: GameKit) -> Any:
    """The kit's tutorial (games.tables.tutorials.Tutorial), or None when it offers none."""
    return getattr(kit, "tutorial", None)


def kits_with_tutorials() -> list[GameKit]:
    return [kit for kit in _kits.values() if tutorial_of(kit) is not None]

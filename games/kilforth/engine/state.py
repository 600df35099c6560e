"""The one game-state value.

Everything a game needs to continue lives in `State`: the board, decks (draw piles are lists whose
LAST element is the top card), heroes, the generator counter, the queue of pending steps and the
open prompt. It holds only JSON types (str keys, lists, ints, bools, None) so `to_json`/`from_json`
round-trip exactly and a paused game is just a document.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass, field, fields

import orjson

from games.kilforth.engine.events import EVENTS
from games.kilforth.engine.rules import recent


class IllegalAction(Exception):  # noqa: N818 - public name fixed by the interface
    """Raised by act() for any choice that is not legal now; `reason` is player-readable."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class State:
    settings: dict
    seed: int
    rng: int
    version: int = 0
    day: int = 1
    phase: str = "setup"  # setup | daylight | night | over
    turn: int | None = None  # seat of the active hero (whose turn it is)
    first: int = 0  # seat holding the first-hero marker
    first_camper: int | None = None
    turn_no: int = 0  # global turn counter; "drawn this turn" compares against it
    heroes: list = field(default_factory=list)
    map: list = field(default_factory=list)  # 25 locations, index = row * 5 + col
    decks: dict = field(default_factory=dict)
    discards: dict = field(default_factory=dict)
    encounters: dict = field(default_factory=dict)  # card id -> runtime info while on the map
    loot_bag: list = field(default_factory=list)
    loot_used: list = field(default_factory=list)
    weather: str | None = None
    ancients: list = field(default_factory=list)
    removed: list = field(default_factory=list)  # cards out of the game
    limbo: list = field(default_factory=list)  # cards drawn and awaiting a decision
    queue: list = field(default_factory=list)  # pending steps; the LAST element runs next
    prompt: dict | None = None
    prompt_seq: int = 0
    scratch: dict = field(default_factory=dict)  # results of the current test/battle
    team: list = field(default_factory=list)
    offers: int = 0  # offers declined this turn (anti-spam guard, see rules-decisions)
    forced_dice: list = field(default_factory=list)
    # The newest log events only (at most LOG_KEPT before an act adds its own): the history
    # lives outside the state (the platform stores each act's `new_events` with the decision),
    # so the document is bounded by the position, not by the length of the game.
    log: list = field(default_factory=list)
    logged: int = 0  # events ever logged, so that new_events(before, after) can find them
    # Recent play as facts for the board (see recent.py): bounded by a turn or a night.
    stretch: list = field(default_factory=list)
    tests_seen: dict | None = None
    night_seen: dict | None = None
    result: dict | None = None

    # -- who must answer -------------------------------------------------------------------
    @property
    def waiting_for(self) -> list[int]:
        """Seats that must answer now (empty only when the game is over)."""
        if self.result is not None or self.prompt is None:
            return []
        return [self.prompt["seat"]]

    # -- serialisation ---------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The fields as they are (no copy): JSON types only, by construction."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_json(self) -> str:
        # orjson: the same compact JSON, several times faster both ways (docs/benchmarks.md).
        return orjson.dumps(self.to_dict(), option=orjson.OPT_NON_STR_KEYS).decode()

    @classmethod
    def from_json(cls, text: str | dict) -> State:
        data = orjson.loads(text) if isinstance(text, str) else text
        if "logged" not in data:  # a document from before the history left the state
            data = {k: v for k, v in data.items() if k != "actions"}
            data["logged"] = len(data.get("log", []))
        return cls(**data)

    def clone(self, keep_prompt: bool = True) -> State:
        """Deep copy, except the append-only log and the recent-play facts, whose events are
        shared (their lists and dicts copied).

        Log events are never mutated after being appended, so sharing them is safe and keeps
        act() O(board) rather than O(game length). act() answers the open prompt, so it clones
        without it (`keep_prompt=False`) and copies only the chosen continuation.
        """
        names = _DEEP if keep_prompt else _DEEP_NO_PROMPT
        # marshal handles exactly the JSON-like builtins a State holds, faster than pickle.
        blob = marshal.loads(marshal.dumps([getattr(self, n) for n in names]))
        new = State.__new__(State)
        for n, v in zip(names, blob, strict=True):
            setattr(new, n, v)
        if not keep_prompt:
            new.prompt = None
        new.log = list(self.log)
        # The recent-play facts hold log events too (recent.note): their containers are copied,
        # the events shared, as the log's are, so the board knows them from the state before.
        new.stretch = list(self.stretch)
        tests = self.tests_seen
        new.tests_seen = None if tests is None else {**tests, "events": list(tests["events"])}
        night = self.night_seen
        new.night_seen = None if night is None else {**night, "events": list(night["events"])}
        return new

    # -- small accessors used everywhere -----------------------------------------------------
    @property
    def edition(self) -> str:
        return self.settings["edition"]

    @property
    def mode(self) -> str:
        return self.settings["mode"]

    @property
    def n_heroes(self) -> int:
        return len(self.heroes)

    def hero(self, seat: int) -> dict:
        return self.heroes[seat]

    def centre(self) -> int:
        return 12


# Copied by `clone` itself, sharing their events: the log and the recent-play facts.
_SHALLOW = frozenset({"log", "stretch", "tests_seen", "night_seen"})
_DEEP = [f.name for f in fields(State) if f.name not in _SHALLOW]
# Events kept in the state between acts: the board shows at most view.LOG_TAIL of them.
LOG_KEPT = 150
_DEEP_NO_PROMPT = [n for n in _DEEP if n != "prompt"]


def log(state: State, event: str, vis: str | int = "all", **data: object) -> None:
    """Append a structured event; `vis` is "all" or the one seat allowed to see it.

    The kind must be declared in the events registry (engine/events.py) with its sentence.
    """
    assert event in EVENTS, f"log event {event!r} is not declared (see engine/events.py)"
    entry = {"e": event, "vis": vis, "day": state.day}
    entry.update(data)
    state.log.append(entry)
    state.logged += 1
    recent.note(state, entry)


def trim_log(state: State) -> None:
    """Keep only the newest LOG_KEPT events (called by act before it logs its own)."""
    if len(state.log) > LOG_KEPT:
        del state.log[: len(state.log) - LOG_KEPT]


def new_events(before: State | None, after: State) -> list[dict]:
    """The events `after` logged since `before` (all of them for a new game: before=None)."""
    count = after.logged - (before.logged if before is not None else 0)
    if count <= 0:
        return []
    if count > len(after.log):  # pragma: no cover - act keeps every event it logs
        raise ValueError("the state no longer holds all of those events")
    return after.log[len(after.log) - count :]

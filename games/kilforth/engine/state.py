"""The one game-state value.

Everything a game needs to continue lives in `State`: the board, decks (draw piles are lists whose
LAST element is the top card), heroes, the generator counter, the queue of pending steps and the
open prompt. It holds only JSON types (str keys, lists, ints, bools, None) so `to_json`/`from_json`
round-trip exactly and a paused game is just a document.
"""

from __future__ import annotations

import json
import marshal
from dataclasses import dataclass, field, fields


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
    offers: int = 0  # offers made this turn (anti-stall cap, see rules-decisions)
    forced_dice: list = field(default_factory=list)
    log: list = field(default_factory=list)
    actions: list = field(default_factory=list)  # [seat, key] per act, for replay
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
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | dict) -> State:
        data = json.loads(text) if isinstance(text, str) else text
        return cls(**data)

    def clone(self, keep_prompt: bool = True) -> State:
        """Deep copy, except the append-only log/actions lists which are copied shallowly.

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
        new.actions = list(self.actions)
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


_DEEP = [f.name for f in fields(State) if f.name not in ("log", "actions")]
_DEEP_NO_PROMPT = [n for n in _DEEP if n != "prompt"]


def log(state: State, event: str, vis: str | int = "all", **data: object) -> None:
    """Append a structured event; `vis` is "all" or the one seat allowed to see it."""
    entry = {"e": event, "vis": vis, "day": state.day}
    entry.update(data)
    state.log.append(entry)

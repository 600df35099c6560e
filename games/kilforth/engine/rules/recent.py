"""What just happened, kept as facts in the state: the latest tests and the latest night.

The board shows the stretch of play holding the newest dice roll (the tests, battle rounds and
their outcomes) and what the last night did. Rather than the board digging both out of the log,
`log()` hands every event to `note()`, which keeps them in three small state fields:

- `stretch`: the test events since the last marker (a turn, night, daylight or dawn);
- `tests_seen`: `{"day", "events"}`, the newest stretch that holds a roll;
- `night_seen`: `{"day", "events", "open", "before_day_one"}`, the newest night (or, before the
  first night, the gloom spread at setup), `open` while it is still being resolved.

All three are bounded by one turn or one night, never by the length of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from games.kilforth.engine.state import State

# Events that start a new stretch of play.
MARKERS = frozenset({"turn", "night", "daylight", "dawn"})
# Events shown in the tests panel.
TEST_KINDS = frozenset(
    {
        "roll",
        "reroll",
        "fate_called",
        "battle",
        "skirmish",
        "escape",
        "confront",
        "test_gate",
        "plot_attempt",
        "finale_attempt",
        "interlude_attempt",
        "assault",
        "ancient_skirmish",
        "ancient_defeated",
        "encounter_defeated",
        "hero_defeated",
        "evaded",
        "evade_failed",
        "engage",
        "enemy_token",
        "hp_lost",
    }
)
# Events shown in the night panel (between a night and the next dawn or daylight).
NIGHT_KINDS = frozenset(
    {
        "night_card",
        "gloomed",
        "hp_lost",
        "hp_gained",
        "plot_enters",
        "hero_defeated",
        "gold_lost",
        "gold_gained",
        "defeated",
        "moved",
        "obstacle_placed",
        "fate_gained",
        "dawn",
        "ancient_enters",
    }
)


class TestsSeen(TypedDict):
    day: int
    events: list[dict]


class NightSeen(TypedDict):
    day: int
    events: list[dict]
    open: bool
    before_day_one: bool


def note(state: State, entry: dict) -> None:
    """Fold one new log event into the recent-play facts."""
    kind = entry["e"]
    night = state.night_seen
    if kind == "night":
        state.night_seen = {
            "day": entry["day"],
            "events": [],
            "open": True,
            "before_day_one": False,
        }
    elif kind == "pre_gloom":
        if night is None or night["before_day_one"]:
            if night is None:
                night = state.night_seen = {
                    "day": 0,
                    "events": [],
                    "open": False,
                    "before_day_one": True,
                }
            night["events"].append(entry)
    elif night is not None and night["open"]:
        if kind in NIGHT_KINDS:
            night["events"].append(entry)
        if kind in ("dawn", "daylight"):
            night["open"] = False
    if kind in MARKERS:
        state.stretch = []
        return
    if kind not in TEST_KINDS:
        return
    state.stretch.append(entry)
    if any(e["e"] == "roll" for e in state.stretch):  # this stretch is now the newest with dice
        state.tests_seen = {"day": entry["day"], "events": list(state.stretch)}


def visible(events: list[dict], viewer: int | None) -> list[dict]:
    return [e for e in events if e["vis"] == "all" or e["vis"] == viewer]

"""What the test suite's small games (toy_kit, clock_kit) do without, in one place."""

from __future__ import annotations

from typing import Any

from games.tables.kits import GameSummary


class WithoutExtras:
    """The parts of the GameKit protocol a small test game does without: no bot-game
    simulation, no teams, no undo, no end-of-game numbers, an end that names nobody."""

    simulate_command = ""
    phase_word = "Turn"

    def teams(self, options: dict[str, Any], seat_count: int) -> list[str] | None:
        return None

    def undoable(self, before: Any, after: Any) -> bool:
        return False

    def rewind(self, state: Any, version: int) -> Any:
        return state

    def progress(self, state: Any) -> tuple[int, list[float]]:
        return 1, []

    def hands(self, state: Any) -> dict[int, list]:
        return {}

    def summary(self, state: Any, history: list, players: dict[int, str]) -> GameSummary:
        return {"phase": "Turn", "score": "Points", "series": [], "rows": [], "luck": [],
                "moments": []}  # fmt: skip

    def outcome(self, state: Any, players: dict[int, str]) -> str:
        return "The game is over."

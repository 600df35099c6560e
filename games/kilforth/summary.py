"""Kilforth's end of the game in numbers, for the platform's summary (tables.kits.GameSummary).

`progress`: the day and each hero's victory points (END-4: gold plus the gold value of assets in
play) after a decision. `summary`: each hero's score and its parts, dice luck from the public
rolls of the history (successes against dice x the chance of one die), and the moments that
decide a game (ancients, eliminations, sagas), in the log's own sentences. `outcome`: the game's
end as the log says it (who won and why), for the table's chat.
"""

from __future__ import annotations

from games.kilforth.board.log_text import describe
from games.kilforth.engine.rules.endgame import vp
from games.kilforth.engine.rules.position import gold_value, success_min
from games.kilforth.engine.state import State
from games.tables.kits import GameSummary, LuckRow, Moment, SummaryRow

MOMENTS = {
    "ancient_enters",
    "ancient_defeated",
    "hero_eliminated",
    "chapter_completed",
    "finale_completed",
}


def progress(state: State) -> tuple[int, list[float]]:
    return state.day, [float(vp(state, h["seat"])) for h in state.heroes]


def summary(state: State, history: list, players: dict[int, str]) -> GameSummary:
    def person(seat: int | None) -> str:
        return players.get(seat, f"Seat {seat + 1}") if seat is not None else "someone"

    result = state.result or {}
    winners = set(result.get("winners") or [])
    together = state.mode != "competitive"
    rows: list[SummaryRow] = []
    for h in state.heroes:
        assets = sum(gold_value(c) for c in h["assets"])
        rows.append(
            {
                "name": f"{person(h['seat'])} ({h['name']})",
                "score": float(vp(state, h["seat"])),
                "won": bool(result.get("won")) if together else h["seat"] in winners,
                "parts": [("Gold", float(h["gold"])), ("Assets in play", float(assets))],
            }
        )
    chance = (7 - success_min(state)) / 6
    rolled = {h["seat"]: 0 for h in state.heroes}
    dice = {h["seat"]: 0 for h in state.heroes}
    moments: list[Moment] = []
    for e in history:
        if e.get("vis") != "all":
            continue
        kind = e.get("e")
        if kind == "roll" and isinstance(e.get("seat"), int) and e["seat"] in rolled:
            rolled[e["seat"]] += int(e.get("successes", 0))
            dice[e["seat"]] += int(e.get("dice", 0))
        elif kind in MOMENTS:
            text = describe(e, person).text
            moments.append({"phase": int(e.get("day", state.day)), "text": text})
    luck: list[LuckRow] = [
        {"name": person(seat), "rolled": rolled[seat], "expected": round(dice[seat] * chance, 1)}
        for seat in rolled
        if dice[seat]
    ]
    return {
        "phase": "Day",
        "score": "Victory points",
        "series": [person(h["seat"]) for h in state.heroes],
        "rows": rows,
        "luck": luck,
        "moments": moments,
    }


def outcome(state: State, players: dict[int, str]) -> str:
    """The sentence of the game's end (the log's `game_over`, END-2..5), with the seats' names."""

    def person(seat: int | None) -> str:
        return players.get(seat, f"Seat {seat + 1}") if seat is not None else "someone"

    return describe({"e": "game_over", **(state.result or {})}, person).text

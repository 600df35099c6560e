"""Knight Fall's end of the game in numbers, for the platform's summary (tables.kits.GameSummary).

`progress`: the round and both teams' points. `summary`: each team's points by what scored them
(KEND-4, KEND-5: elders, knights and demons killed, the rounds survived), and the kills that
scored, round by round. Knight Fall rolls no dice, so there is no luck chart. `outcome`: the
winning team and its last point, for the table's chat.
"""

from __future__ import annotations

from typing import Any

from games.knightfall.engine.core import sentence
from games.tables.kits import GameSummary, Moment, SummaryRow

TEAMS = ("demons", "knights")


def progress(state: dict[str, Any]) -> tuple[int, list[float]]:
    return int(state["round"]), [float(state["score"][team]) for team in TEAMS]


def summary(state: dict[str, Any], history: list, players: dict[int, str]) -> GameSummary:
    winner = (state.get("result") or {}).get("winner")
    parts: dict[str, dict[str, float]] = {team: {} for team in TEAMS}
    scored: list[list] = []  # [round, team, why, points], one per kill that scored
    round_ = 0
    follows = False  # the previous public event was a point of the same kill
    for e in history:
        if e.get("vis") is not None:
            continue
        kind = e.get("e")
        if kind == "round":
            round_ = int(e.get("n", round_))
        if kind != "score" or e.get("team") not in parts:
            follows = False
            continue
        team, why = e["team"], str(e.get("why", ""))
        parts[team][why] = parts[team].get(why, 0) + int(e.get("n", 1))
        if why == "the night wears on":
            continue
        if follows and scored[-1][:3] == [round_, team, why]:
            scored[-1][3] += int(e.get("n", 1))  # an elder's 2 points are logged one by one
        else:
            scored.append([round_, team, why, int(e.get("n", 1))])
        follows = True
    moments: list[Moment] = [
        {"phase": r, "text": _moment(why, team, n)} for r, team, why, n in scored
    ]
    # The starting point a level knights' team may have (KSET-2) is not "scored": show it.
    start = {team: state["score"][team] - sum(parts[team].values()) for team in TEAMS}
    rows: list[SummaryRow] = []
    for team in TEAMS:
        items = [(why.capitalize(), n) for why, n in parts[team].items()]
        if start[team]:
            items.insert(0, ("Head start", float(start[team])))
        rows.append(
            {
                "name": team.capitalize(),
                "score": float(state["score"][team]),
                "won": team == winner,
                "parts": items,
            }
        )
    return {
        "phase": "Round",
        "score": "Points",
        "series": [team.capitalize() for team in TEAMS],
        "rows": rows,
        "luck": [],
        "moments": moments,
    }


def _moment(why: str, team: str, n: int) -> str:
    return f"{why.capitalize()}: the {team} score {n} point{'s' if n != 1 else ''}."


def outcome(state: dict[str, Any]) -> str:
    """KEND-6: the first team at the door wins; the log's sentence of it, and the round."""
    result = state.get("result") or {}
    won = sentence({"e": "won", "team": result.get("winner", "?"), "why": result.get("reason", "")})
    at = f" (round {result['round']})" if result.get("round") else ""
    return f"The game is over{at}. {won}"

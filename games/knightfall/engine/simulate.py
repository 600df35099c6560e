"""Seeded bot playouts and the simulation report (`manage.py simulate_knightfall`).

Pure Python (no Django). `playout()` plays one game; `report()` plays N games for every
(mode, player count) asked, with one bot per team, and returns win rates by side, average
rounds, end reasons and speed; `write()` saves the report as JSON, CSV and a PNG chart
(matplotlib with the Agg backend, imported only there; ChartUnavailable when it is missing).
"""

from __future__ import annotations

import csv
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from .api import act, legal, new_game, waiting_for
from .bots import BOTS, Bot, random_bot
from .core import GameState

PLAYER_COUNTS = {"standard": (2, 3, 4, 5, 6), "coop": (1, 2, 3)}


class ChartUnavailable(RuntimeError):
    """matplotlib is not installed: the JSON and CSV were written, the chart was not."""


def playout(
    settings: dict,
    seed: int,
    bot: Bot | Callable = random_bot,
    max_steps: int = 20000,
    bots: dict[str, Bot] | None = None,
) -> GameState:
    """Play one game to its end with bots on every seat (`bots` by team overrides `bot`)."""
    rnd = random.Random(seed)
    state = new_game(settings, seed)
    for _ in range(max_steps):
        seats = waiting_for(state)
        if not seats:
            break
        seat = seats[0]
        chooser = bot
        if bots:
            chooser = bots.get(state["players"][seat]["team"], bot)
        state = act(state, seat, chooser(state, seat, legal(state, seat), rnd))
    return state


def interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default), as (low, high) rates."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * ((p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5) / (1 + z * z / games)
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def _bot(name: str) -> Bot:
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; choose from {sorted(BOTS)}")
    return BOTS[name]


def report(
    games: int,
    modes: Iterable[str] = ("standard",),
    players: Iterable[int] | None = None,
    seed: int = 1,
    knights: str = "heuristic",
    demons: str = "heuristic",
    settings: dict | None = None,
    progress: Callable[[int], object] | None = None,
) -> dict:
    """Play `games` games per (mode, player count), seeds seed, seed+1, ...

    `knights` and `demons` name the bot of each team (co-op demons are always the engine's
    co-op deck). `players` None means every count the mode allows; counts a mode does not allow
    are skipped. Returns {"games", "seed", "bots", "settings", "rows": [...], "games_per_second"}
    with one row per (mode, players): wins and win rates by side, average and longest rounds,
    end reasons, unfinished games.
    """
    kb, db = _bot(knights), _bot(demons)
    rows = []
    total_games, total_time = 0, 0.0
    for mode in modes:
        counts = PLAYER_COUNTS[mode]
        wanted = [n for n in (players or counts) if n in counts]
        for n in wanted:
            wins: Counter[str] = Counter()
            reasons: Counter[str] = Counter()
            rounds: list[int] = []
            t0 = time.perf_counter()
            for i in range(games):
                st = {**(settings or {}), "mode": mode, "players": n}
                end = playout(st, seed + i, bots={"knights": kb, "demons": db})
                res = end["result"]
                if res is None:
                    wins["unfinished"] += 1
                    reasons["unfinished"] += 1
                else:
                    wins[res["winner"]] += 1
                    reasons[f"{res['winner']}: {res['reason']}"] += 1
                rounds.append(end["round"])
                if progress:
                    progress(1)
            spent = time.perf_counter() - t0
            total_games += games
            total_time += spent
            done = max(1, games)
            rows.append(
                {
                    "mode": mode,
                    "players": n,
                    "games": games,
                    "knights_wins": wins["knights"],
                    "demons_wins": wins["demons"],
                    "unfinished": wins["unfinished"],
                    "knights_rate": round(wins["knights"] / done, 4),
                    "knights_ci95": list(interval(wins["knights"], games)),
                    "demons_rate": round(wins["demons"] / done, 4),
                    "unfinished_rate": round(wins["unfinished"] / done, 4),
                    "avg_rounds": round(sum(rounds) / done, 2),
                    "max_rounds": max(rounds, default=0),
                    "end_reasons": dict(sorted(reasons.items())),
                    "games_per_second": round(games / spent, 2) if spent else 0.0,
                }
            )
    return {
        "game": "knightfall",
        "games": games,
        "seed": seed,
        "bots": {"knights": knights, "demons": demons},
        "settings": dict(settings or {}),
        "rows": rows,
        "games_per_second": round(total_games / total_time, 2) if total_time else 0.0,
    }


def lines(rep: dict) -> list[str]:
    """The report as text, one line per (mode, players)."""
    b = rep["bots"]
    out = [
        f"Knight Fall: {rep['games']} games per count, seed {rep['seed']},"
        f" knights {b['knights']} vs demons {b['demons']}"
    ]
    for r in rep["rows"]:
        out.append(
            f"{r['mode']:8} {r['players']}p: knights {100 * r['knights_rate']:5.1f}%"
            f" (95% {100 * r['knights_ci95'][0]:.1f}-{100 * r['knights_ci95'][1]:.1f})"
            f"  demons {100 * r['demons_rate']:5.1f}%"
            f"  unfinished {r['unfinished']}  avg rounds {r['avg_rounds']:5.2f}"
            f"  {r['games_per_second']:.1f} games/s"
        )
    out.append(f"overall {rep['games_per_second']:.1f} games/s (one process)")
    return out


CSV_FIELDS = (
    "mode",
    "players",
    "games",
    "knights_wins",
    "demons_wins",
    "unfinished",
    "knights_rate",
    "knights_ci95",
    "demons_rate",
    "unfinished_rate",
    "avg_rounds",
    "max_rounds",
    "games_per_second",
    "end_reasons",
)


def csv_rows(rep: dict) -> list[list]:
    rows: list[list] = [list(CSV_FIELDS)]
    for r in rep["rows"]:
        rows.append(
            [
                "; ".join(f"{k}={v}" for k, v in r[f].items())
                if f == "end_reasons"
                else ("-".join(str(x) for x in r[f]) if f == "knights_ci95" else r[f])
                for f in CSV_FIELDS
            ]
        )
    return rows


def write(rep: dict, folder: str | Path, stem: str = "report") -> list[Path]:
    """Write <stem>.json, <stem>.csv and <stem>.png; ChartUnavailable if matplotlib is missing
    (the JSON and CSV are written first)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{stem}.json", folder / f"{stem}.csv"]
    paths[0].write_text(json.dumps(rep, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    with paths[1].open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(csv_rows(rep))
    png = folder / f"{stem}.png"
    chart(rep, png)
    paths.append(png)
    return paths


def chart(rep: dict, path: Path) -> None:
    """Stacked bars per (mode, players): knights' and demons' win rates, the 40-60% band."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ChartUnavailable(
            "matplotlib is not installed: pip install 'matplotlib>=3.8,<4' to get the PNG chart"
        ) from exc
    rows = rep["rows"]
    labels = [f"{r['mode']}\n{r['players']}p" for r in rows]
    k = [100 * r["knights_rate"] for r in rows]
    d = [100 * r["demons_rate"] for r in rows]
    u = [100 * r["unfinished_rate"] for r in rows]
    x = range(len(rows))
    fig, ax = plt.subplots(figsize=(max(7.0, 1.1 * len(rows) + 2), 4.2))
    ax.bar(x, k, color="#5b7fa6", label="knights")
    ax.bar(x, d, bottom=k, color="#a65b5b", label="demons")
    if any(u):
        ax.bar(
            x,
            u,
            bottom=[a + b for a, b in zip(k, d, strict=True)],
            color="#999999",
            label="unfinished",
        )
    ax.axhspan(40, 60, color="#dddd88", alpha=0.35, zorder=0, label="40-60%")
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("share of games (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8, loc="upper right")
    b = rep["bots"]
    ax.set_title(
        f"Knight Fall: {rep['games']} games per count, knights {b['knights']}"
        f" vs demons {b['demons']}",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)

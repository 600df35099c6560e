"""Seeded bot playouts and the simulation report (for `manage.py simulate --game knightfall`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from .api import act, legal, new_game, waiting_for
from .bots import heuristic_bot, random_bot
from .core import GameState

BOTS: dict[str, Callable] = {"random": random_bot, "heuristic": heuristic_bot}
# (mode, players): every player count of both modes (KPC-1).
CONFIGS: tuple[tuple[str, int], ...] = tuple(("standard", n) for n in range(2, 7)) + tuple(
    ("coop", n) for n in (1, 2, 3)
)


def playout(
    settings: dict, seed: int, bot: Callable = random_bot, max_steps: int = 20000
) -> GameState:
    """Play one game to its end with bots on every seat."""
    rnd = random.Random(seed)
    state = new_game(settings, seed)
    for _ in range(max_steps):
        seats = waiting_for(state)
        if not seats:
            break
        opts = legal(state, seats[0])
        state = act(state, seats[0], bot(state, seats[0], opts, rnd))
    return state


def _rate(n: int, d: int) -> float:
    return round(n / d, 3) if d else 0.0


def report(
    games: int,
    seed: int = 1,
    bot: str = "heuristic",
    configs: Iterable[tuple[str, int]] = CONFIGS,
    settings: dict | None = None,
) -> dict:
    """Play `games` bot games per (mode, player count); win rates by side for each and overall.

    Game i of a configuration uses seed `seed + i`, so a report is reproducible. `settings` adds
    options (desperate, five_card, experienced, locations, door) to every game. A game still
    running after the step limit counts as undecided.
    """
    if bot not in BOTS:
        raise ValueError(f"unknown bot {bot!r}; choose one of {sorted(BOTS)}")
    if games < 1:
        raise ValueError("play at least 1 game per configuration")
    rows = []
    totals: dict[str, dict[str, int]] = {}
    for mode, players in configs:
        wins = {"knights": 0, "demons": 0, "undecided": 0}
        rounds = 0
        for i in range(games):
            options = {**(settings or {}), "mode": mode, "players": players}
            st = playout(options, seed + i, BOTS[bot])
            res = st["result"]
            wins[res["winner"] if res else "undecided"] += 1
            rounds += st["round"]
        rows.append(
            {
                "mode": mode,
                "players": players,
                "games": games,
                "wins": wins,
                "win_rate": {side: _rate(n, games) for side, n in wins.items()},
                "rounds_mean": round(rounds / games, 2),
            }
        )
        t = totals.setdefault(mode, {"games": 0, "knights": 0, "demons": 0, "undecided": 0})
        t["games"] += games
        for side, n in wins.items():
            t[side] += n
    by_mode = {
        mode: {
            "games": t["games"],
            "win_rate": {s: _rate(t[s], t["games"]) for s in ("knights", "demons", "undecided")},
        }
        for mode, t in totals.items()
    }
    return {"bot": bot, "seed": seed, "games_per_config": games, "rows": rows, "by_mode": by_mode}


def lines(rep: dict) -> list[str]:
    """The report as plain text lines (one per configuration, then one per mode)."""
    n = rep["games_per_config"]
    out = [f"Knight Fall: {n} game{'' if n == 1 else 's'} per setup, {rep['bot']} bots"]
    for r in rep["rows"]:
        w = r["win_rate"]
        out.append(
            f"{r['mode']:8} {r['players']} player{'' if r['players'] == 1 else 's'}: "
            f"knights {w['knights']:.0%}, "
            f"demons {w['demons']:.0%}, undecided {w['undecided']:.0%}, "
            f"{r['rounds_mean']} rounds on average"
        )
    for mode, t in rep["by_mode"].items():
        w = t["win_rate"]
        out.append(
            f"{mode:8} overall ({t['games']} game{'' if t['games'] == 1 else 's'}): "
            f"knights {w['knights']:.0%}, "
            f"demons {w['demons']:.0%}"
        )
    return out

"""Simulation reports: play games with a bot per seat and aggregate what happened.

Pure Python (no Django). `run()` plays N games (seeds seed, seed+1, ...) with one bot level per
seat, times every act() call (so the speed figures of `simulate.Report` stay available) and
returns one outcome dict per game; `aggregate()` turns outcomes into the report (win rate or win
share per seat, mean VP and day, finale and ancient-defeat rates, chapter completion per saga,
win rate per race/class/ancient, cards most and least often acquired); `write()` saves it as
JSON, CSV and a PNG chart (matplotlib, imported only there).
"""

from __future__ import annotations

import csv
import json
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from games.kilforth.engine.api import act, legal
from games.kilforth.engine.bots.play import BOTS
from games.kilforth.engine.cards.catalogue import content
from games.kilforth.engine.rules.setup import new_game
from games.kilforth.engine.settings import Settings
from games.kilforth.engine.simulation.simulate import Report, percentile
from games.kilforth.engine.state import State, new_events

TOP_CARDS = 10


class ChartUnavailable(RuntimeError):
    """matplotlib is not installed: the JSON and CSV were written, the chart was not."""


def seat_bots(spec: str | list[str], heroes: int) -> list[str]:
    """'heuristic' -> one level for every seat; 'heuristic,random' -> one per seat."""
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    names = [n.strip() for n in names if n.strip()]
    if len(names) == 1:
        names = names * heroes
    if len(names) != heroes:
        raise ValueError(f"{len(names)} bot levels given for {heroes} seats")
    for n in names:
        if n not in BOTS:
            raise ValueError(f"unknown bot level {n!r}; choose from {sorted(BOTS)}")
    return names


def play_game(
    settings: Settings,
    seed: int,
    bots: list[str],
    times: list[int] | None = None,
    max_actions: int = 100_000,
) -> tuple[State, int, list[dict]]:
    """Play one game to the end with bots[seat] deciding for each seat.

    With the same level at every seat the bots share one generator seeded like bots.play(), so
    the figures of the old single-bot simulation are reproduced exactly.
    """
    state = new_game(settings, seed)
    history = list(new_events(None, state))
    if len(set(bots)) == 1:
        shared = random.Random(seed ^ 0x5EED)
        rngs = [shared] * len(bots)
    else:
        rngs = [random.Random((seed << 3) ^ 0x5EED ^ seat) for seat in range(len(bots))]
    choosers = [BOTS[b] for b in bots]
    n = 0
    while state.result is None:
        seat = state.waiting_for[0]
        choices = legal(state, seat)
        key = choosers[seat](state, seat, choices, rngs[seat])
        before = state
        if times is not None:
            t0 = time.perf_counter_ns()
            state = act(state, seat, key)
            times.append(time.perf_counter_ns() - t0)
        else:
            state = act(state, seat, key)
        history += new_events(before, state)
        n += 1
        if n > max_actions:
            raise RuntimeError(f"game with seed {seed} did not end in {max_actions} actions")
    return state, n, history


def outcome(state: State, bots: list[str], history: list[dict]) -> dict:
    """What one finished game (and its whole log, `history`) says about each seat."""
    res = state.result or {}
    mode = state.mode
    winners = list(res.get("winners", []))
    reward_ids = set(content().by_kind["reward"])
    acquired: set[str] = set()
    for e in history:
        if e["e"] in ("rumour_gained", "asset_gained") and e.get("card") in reward_ids:
            acquired.add(e["card"])
    seats = []
    for h in state.heroes:
        chapter = h["chapter"]
        seats.append(
            {
                "seat": h["seat"],
                "bot": bots[h["seat"]],
                "race": h["race"],
                "class": h["class"],
                "saga": h["saga"],
                "vp": res.get("vp", [0] * len(state.heroes))[h["seat"]],
                "chapters": min(4, chapter - 1),
                "finale": chapter >= 6,
                "eliminated": h["eliminated"],
                "won": h["seat"] in winners,
            }
        )
    if mode == "competitive":
        won = res.get("reason") == "ancient defeated"
    else:
        won = bool(res.get("won"))
    return {
        "seed": state.seed,
        "mode": mode,
        "day": state.day,
        "reason": res.get("reason", ""),
        "won": won,
        "winners": winners,
        "ancient_defeated": res.get("reason") == "ancient defeated",
        "ancients": [a["id"] for a in state.ancients],
        "vp_mean": sum(s["vp"] for s in seats) / len(seats) if seats else 0.0,
        "seats": seats,
        "acquired": sorted(acquired),
    }


def run(
    settings: Settings,
    games: int,
    seed: int,
    bots: list[str],
    progress: Callable[[int], None] | None = None,
) -> tuple[Report, list[dict]]:
    """Play `games` games; the speed Report of simulate.py plus one outcome per game."""
    settings.validate()
    times: list[int] = []
    outcomes: list[dict] = []
    actions = 0
    reasons: Counter = Counter()
    t0 = time.perf_counter()
    for i in range(games):
        state, n, history = play_game(settings, seed + i, bots, times)
        actions += n
        out = outcome(state, bots, history)
        reasons[out["reason"]] += 1
        outcomes.append(out)
        if progress:
            progress(1)
    seconds = time.perf_counter() - t0
    wins = sum(o["won"] for o in outcomes)
    report = Report(
        games=games,
        seconds=seconds,
        act_p50_us=percentile(times, 0.50) / 1000,
        act_p99_us=percentile(times, 0.99) / 1000,
        actions_mean=actions / games if games else 0.0,
        wins=wins,
        losses=games - wins,
        vp_mean=sum(o["vp_mean"] for o in outcomes) / games if games else 0.0,
        day_mean=sum(o["day"] for o in outcomes) / games if games else 0.0,
        reasons=dict(reasons),
    )
    return report, outcomes


def _rate(num: float, den: float) -> float:
    return round(num / den, 4) if den else 0.0


def _win_table(outcomes: list[dict], key: str) -> dict[str, dict]:
    """Per race/class: heroes played and the share of them that won."""
    played: Counter = Counter()
    won: Counter = Counter()
    for o in outcomes:
        for s in o["seats"]:
            played[s[key]] += 1
            won[s[key]] += _seat_won(o, s)
    return {k: {"heroes": played[k], "win_rate": _rate(won[k], played[k])} for k in sorted(played)}


def _seat_won(o: dict, s: dict) -> float:
    """Co-op/solo: the table's win; competitive: the seat's share of the win (ties shared)."""
    if o["mode"] == "competitive":
        return 1 / len(o["winners"]) if s["won"] and o["winners"] else 0.0
    return 1.0 if o["won"] else 0.0


def aggregate(outcomes: list[dict], settings: Settings, bots: list[str], seed: int) -> dict:
    """The report: JSON types only, rates in [0, 1] rounded to 4 places."""
    n = len(outcomes)
    heroes = settings.heroes
    all_seats = [s for o in outcomes for s in o["seats"]]
    rep: dict = {
        "settings": settings.to_dict(),
        "games": n,
        "seed": seed,
        "bots": bots,
        "mean_vp": round(sum(o["vp_mean"] for o in outcomes) / n, 3) if n else 0.0,
        "mean_day": round(sum(o["day"] for o in outcomes) / n, 3) if n else 0.0,
        "finale_rate": _rate(sum(s["finale"] for s in all_seats), len(all_seats)),
        "ancient_defeat_rate": _rate(sum(o["ancient_defeated"] for o in outcomes), n),
        "ended_by": dict(Counter(o["reason"] for o in outcomes)),
    }
    if settings.mode == "competitive":
        rep["win_share"] = {
            str(seat): _rate(
                sum(_seat_won(o, o["seats"][seat]) for o in outcomes if len(o["seats"]) > seat),
                n,
            )
            for seat in range(heroes)
        }
    else:
        rep["win_rate"] = _rate(sum(o["won"] for o in outcomes), n)
    rep["per_seat"] = {
        str(seat): {
            "bot": bots[seat],
            "mean_vp": round(sum(o["seats"][seat]["vp"] for o in outcomes) / n, 3) if n else 0.0,
            "mean_chapters": round(sum(o["seats"][seat]["chapters"] for o in outcomes) / n, 3)
            if n
            else 0.0,
            "finale_rate": _rate(sum(o["seats"][seat]["finale"] for o in outcomes), n),
        }
        for seat in range(heroes)
    }
    sagas: dict[str, list[dict]] = defaultdict(list)
    for s in all_seats:
        sagas[s["saga"]].append(s)
    rep["chapters_per_saga"] = {
        sg: {
            "heroes": len(rows),
            "mean_chapters": round(sum(r["chapters"] for r in rows) / len(rows), 3),
            **{
                f"chapter_{k}": _rate(sum(r["chapters"] >= k for r in rows), len(rows))
                for k in (
                    1,
                    2,
                    3,
                    4,
                )
            },
            "finale": _rate(sum(r["finale"] for r in rows), len(rows)),
        }
        for sg, rows in sorted(sagas.items())
    }
    rep["win_rate_by_race"] = _win_table(outcomes, "race")
    rep["win_rate_by_class"] = _win_table(outcomes, "class")
    anc_played: Counter = Counter()
    anc_won: Counter = Counter()
    for o in outcomes:
        for a in o["ancients"]:
            anc_played[a] += 1
            anc_won[a] += o["ancient_defeated"]
    rep["win_rate_by_ancient"] = {
        a: {"games": anc_played[a], "win_rate": _rate(anc_won[a], anc_played[a])}
        for a in sorted(anc_played)
    }
    counts: Counter = Counter({cid: 0 for cid in content().by_kind["reward"]})
    for o in outcomes:
        counts.update(o["acquired"])
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    rep["cards_most_acquired"] = [
        {"card": c, "games": k, "rate": _rate(k, n)} for c, k in ranked[:TOP_CARDS]
    ]
    least = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]))[:TOP_CARDS]
    rep["cards_least_acquired"] = [{"card": c, "games": k, "rate": _rate(k, n)} for c, k in least]
    return rep


def lines(rep: dict) -> list[str]:
    """Human-readable summary of a report."""
    out = [f"bots: {', '.join(rep['bots'])}"]
    if "win_rate" in rep:
        out.append(f"win rate: {rep['win_rate']:.1%}")
    else:
        shares = ", ".join(f"seat {k} {v:.1%}" for k, v in rep["win_share"].items())
        out.append(f"win share: {shares}")
    out.append(
        f"mean VP {rep['mean_vp']:.2f}, mean day {rep['mean_day']:.2f}, finale rate "
        f"{rep['finale_rate']:.1%}, ancient defeated {rep['ancient_defeat_rate']:.1%}"
    )
    for sg, row in rep["chapters_per_saga"].items():
        out.append(
            f"  {sg}: {row['heroes']} heroes, mean chapters {row['mean_chapters']:.2f},"
            f" finale {row['finale']:.0%}"
        )
    for title, key in (("class", "win_rate_by_class"), ("ancient", "win_rate_by_ancient")):
        parts = ", ".join(f"{k.split('.', 1)[-1]} {v['win_rate']:.0%}" for k, v in rep[key].items())
        out.append(f"win rate by {title}: {parts}")
    most = ", ".join(f"{c['card']} ({c['games']})" for c in rep["cards_most_acquired"][:5])
    least = ", ".join(f"{c['card']} ({c['games']})" for c in rep["cards_least_acquired"][:5])
    out.append(f"most acquired: {most}")
    out.append(f"least acquired: {least}")
    return out


def csv_rows(rep: dict) -> list[list]:
    """The report flattened to (section, key, metric, value) rows."""
    rows: list[list] = [["section", "key", "metric", "value"]]
    for k in ("games", "seed", "mean_vp", "mean_day", "finale_rate", "ancient_defeat_rate"):
        rows.append(["summary", "", k, rep[k]])
    rows.append(["summary", "", "bots", ",".join(rep["bots"])])
    for k in ("mode", "heroes", "edition", "difficulty"):
        rows.append(["summary", "", k, rep["settings"][k]])
    if "win_rate" in rep:
        rows.append(["summary", "", "win_rate", rep["win_rate"]])
    else:
        for seat, v in rep["win_share"].items():
            rows.append(["win_share", seat, "win_share", v])
    for reason, k in rep["ended_by"].items():
        rows.append(["ended_by", reason, "games", k])
    for section in (
        "per_seat",
        "chapters_per_saga",
        "win_rate_by_race",
        "win_rate_by_class",
        "win_rate_by_ancient",
    ):
        for key, row in rep[section].items():
            for metric, value in row.items():
                rows.append([section, key, metric, value])
    for section in ("cards_most_acquired", "cards_least_acquired"):
        for row in rep[section]:
            rows.append([section, row["card"], "games", row["games"]])
            rows.append([section, row["card"], "rate", row["rate"]])
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
    """Bar charts of the win rate by class and by ancient."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ChartUnavailable(
            "matplotlib is not installed: pip install 'matplotlib>=3.8,<4' to get the PNG chart"
        ) from exc
    names = content().cards
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, key, title in (
        (axes[0], "win_rate_by_class", "Win rate by class"),
        (axes[1], "win_rate_by_ancient", "Win rate by ancient"),
    ):
        items = list(rep[key].items())
        labels = [names.get(k, {}).get("name", k) for k, _ in items]
        values = [100 * row["win_rate"] for _, row in items]
        ax.bar(range(len(values)), values, color="#5b7fa6")
        ax.set_xticks(range(len(values)))
        ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)
        ax.set_ylabel("win rate (%)")
        ax.set_ylim(0, min(105.0, max([10.0] + [v * 1.2 for v in values])))
        ax.set_title(title)
    s = rep["settings"]
    fig.suptitle(
        f"{s['edition']} {s['mode']}, {s['heroes']} hero(es), {rep['games']} games,"
        f" bots {','.join(rep['bots'])}",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)

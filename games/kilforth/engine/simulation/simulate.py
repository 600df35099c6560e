"""Bot simulations for the `simulate` management command (pure Python, no Django).

`simulate()` plays N games and returns a Report with throughput, act() latency percentiles,
mean actions per game and an outcome table. Progress is reported through an optional callback
so the command can drive a tqdm bar without this module importing it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from games.kilforth.engine.bots.play import play
from games.kilforth.engine.settings import Settings


@dataclass
class Report:
    games: int
    seconds: float
    act_p50_us: float
    act_p99_us: float
    actions_mean: float
    wins: int
    losses: int
    vp_mean: float
    day_mean: float
    reasons: dict = field(default_factory=dict)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    def lines(self) -> list[str]:
        """Human-readable summary, one line each."""
        out = [
            f"games: {self.games} in {self.seconds:.2f} s = {self.games_per_second:.1f} games/s",
            f"act(): p50 {self.act_p50_us:.0f} us, p99 {self.act_p99_us:.0f} us",
            f"mean actions per game: {self.actions_mean:.1f}",
            "outcome   wins  losses  mean VP  mean day",
            f"          {self.wins:>4}  {self.losses:>6}  {self.vp_mean:>7.2f}"
            f"  {self.day_mean:>8.2f}",
        ]
        for reason, n in sorted(self.reasons.items()):
            out.append(f"  ended by {reason}: {n}")
        return out


def percentile(values: list[int], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return float(ordered[k])


def simulate(
    settings: Settings,
    games: int,
    seed: int,
    bot: str = "random",
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Play `games` games with seeds seed, seed+1, ...; time every act() call."""
    settings.validate()
    times: list[int] = []
    actions = wins = losses = 0
    vp_total = day_total = 0.0
    reasons: dict[str, int] = {}
    t0 = time.perf_counter()
    for i in range(games):
        state, rec = play(settings, seed + i, bot=bot, timed=True)
        times.extend(rec.act_ns)
        actions += rec.actions
        res = state.result
        reasons[res["reason"]] = reasons.get(res["reason"], 0) + 1
        if settings.mode == "competitive":
            # A "win" for a competitive table: the game ended with the ancient slain.
            won = res["reason"] == "ancient defeated"
        else:
            won = bool(res["won"])
        wins += won
        losses += not won
        vp_total += sum(res["vp"]) / len(res["vp"])
        day_total += state.day
        if progress:
            progress(1)
    seconds = time.perf_counter() - t0
    return Report(
        games=games,
        seconds=seconds,
        act_p50_us=percentile(times, 0.50) / 1000,
        act_p99_us=percentile(times, 0.99) / 1000,
        actions_mean=actions / games if games else 0.0,
        wins=wins,
        losses=losses,
        vp_mean=vp_total / games if games else 0.0,
        day_mean=day_total / games if games else 0.0,
        reasons=reasons,
    )

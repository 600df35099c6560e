"""The end of a game in numbers: the kit's summary, and the charts the platform draws from it.

A kit knows its game (`GameKit.summary`: rows, dice luck, key moments; `progress`: each series'
score at a moment); the platform keeps the progress after every decision on its Action row and
draws three charts as inline SVG (no image files, no script, readable by screen readers through
their titles and the tables beside them): score by phase, dice luck, and the moments on a line.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .kits import GameKit, GameSummary
from .models import Action, Game

WIDTH, HEIGHT, PAD = 560, 220, 36
# Distinct on the page's paper and for the common colour-vision deficiencies (Okabe-Ito).
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]


@dataclass(frozen=True)
class Charts:
    summary: GameSummary
    scores: SafeString
    luck: SafeString
    timeline: SafeString
    colours: list[str]


def points(game: Game, kit: GameKit) -> list[tuple[int, list[float]]]:
    """Each phase's last score of every series, the game's first state included."""
    by_phase: dict[int, list[float]] = {}
    if game.initial:
        phase, values = kit.progress(kit.load(game.initial))
        by_phase[phase] = list(values)
    rows = Action.objects.filter(game=game, progress__isnull=False).order_by("version")
    for phase, values in rows.values_list("progress", flat=True):
        by_phase[int(phase)] = [float(v) for v in values]
    return sorted(by_phase.items())


def charts(game: Game, kit: GameKit, state: object, players: dict[int, str]) -> Charts:
    summary = kit.summary(state, game.history(), players)
    series = points(game, kit)
    return Charts(
        summary=summary,
        scores=score_chart(summary, series),
        luck=luck_chart(summary),
        timeline=moments_chart(summary, series),
        colours=COLOURS,
    )


def _svg(title: str, body: str, height: int = HEIGHT) -> SafeString:
    return mark_safe(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img"'
        f' aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>{body}</svg>"
    )


def score_chart(summary: GameSummary, series: list[tuple[int, list[float]]]) -> SafeString:
    """One line per series: its score at the end of each phase."""
    if len(series) < 1 or not summary["series"]:
        return mark_safe("")
    phases = [p for p, _ in series]
    top = max([1.0] + [v for _, values in series for v in values])
    low, high = min(phases), max(phases)
    span = max(1, high - low)

    def x(phase: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * (phase - low) / span

    def y(value: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * value / top

    body = [
        f'<line class="axis" x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}"'
        f' y2="{HEIGHT - PAD}"/>',
        f'<line class="axis" x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}"/>',
        f'<text class="tick" x="{PAD - 6}" y="{y(top) + 4:.1f}" text-anchor="end">{top:g}</text>',
        f'<text class="tick" x="{PAD - 6}" y="{HEIGHT - PAD + 4}" text-anchor="end">0</text>',
        f'<text class="tick" x="{x(low):.1f}" y="{HEIGHT - PAD + 16}" text-anchor="middle">'
        f"{escape(summary['phase'])} {low}</text>",
        f'<text class="tick" x="{x(high):.1f}" y="{HEIGHT - PAD + 16}" text-anchor="middle">'
        f"{escape(summary['phase'])} {high}</text>",
    ]
    for i, name in enumerate(summary["series"]):
        line = " ".join(f"{x(p):.1f},{y(values[i]):.1f}" for p, values in series if i < len(values))
        colour = COLOURS[i % len(COLOURS)]
        body.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="{line}">'
            f"<title>{escape(name)}</title></polyline>"
        )
    title = f"{summary['score']} by {summary['phase'].lower()}"
    return _svg(title, "".join(body))


def luck_chart(summary: GameSummary) -> SafeString:
    """Per seat: successes rolled (bar) against successes expected (tick)."""
    rows = summary["luck"]
    if not rows:
        return mark_safe("")
    top = max([1.0] + [max(r["rolled"], r["expected"]) for r in rows])
    band = 30
    height = PAD + band * len(rows) + 10
    left = 150
    body = []
    for i, r in enumerate(rows):
        top_y = PAD / 2 + i * band
        rolled = (WIDTH - left - 20) * r["rolled"] / top
        expected = left + (WIDTH - left - 20) * r["expected"] / top
        colour = COLOURS[i % len(COLOURS)]
        body.append(
            f'<text class="tick" x="{left - 8}" y="{top_y + 15}" text-anchor="end">'
            f"{escape(r['name'])}</text>"
            f'<rect x="{left}" y="{top_y + 4}" width="{rolled:.1f}" height="16" fill="{colour}">'
            f"<title>{r['rolled']} successes rolled, {r['expected']:.1f} expected</title></rect>"
            f'<line class="expected" x1="{expected:.1f}" y1="{top_y}" x2="{expected:.1f}"'
            f' y2="{top_y + 24}"/>'
        )
    return _svg("Successes rolled against expected", "".join(body), height=int(height))


def moments_chart(summary: GameSummary, series: list[tuple[int, list[float]]]) -> SafeString:
    """The key moments as dots on a line of phases (their sentences are listed beside it)."""
    moments = summary["moments"]
    if not moments:
        return mark_safe("")
    phases = [p for p, _ in series] + [m["phase"] for m in moments]
    low, high = min(phases), max(phases)
    span = max(1, high - low)
    height = 70
    body = [f'<line class="axis" x1="{PAD}" y1="35" x2="{WIDTH - PAD}" y2="35"/>']
    for number, m in enumerate(moments, start=1):
        cx = PAD + (WIDTH - 2 * PAD) * (m["phase"] - low) / span
        body.append(
            f'<circle cx="{cx:.1f}" cy="35" r="7" class="moment"><title>{escape(m["text"])}</title>'
            f'</circle><text class="tick" x="{cx:.1f}" y="{20 if number % 2 else 60}"'
            f' text-anchor="middle">{number}</text>'
        )
    return _svg("Key moments", "".join(body), height=height)

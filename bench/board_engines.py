"""Django vs Jinja2 board templates: byte-identical boards over seeded random games.

Run while both the Django templates (templates/kilforth/) and their Jinja2 ports
(jinja_templates/kilforth/) exist: `python -m bench.board_engines` (EQ_GAMES, EQ_POINTS,
EQ_EVERY: how many games, about how many states of each, every how many of the 30 games). Every
compared state is rendered whole (nothing memoized) for each seat and a spectator with each
engine, and the game's full log for every viewer at its end; exits 1 on any difference. Names
carry ', ", <, > and & to check escaping.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kilforth_site.settings")

NAMES = {0: "Ann", 1: "Bea O'Neil", 2: 'Cid "C" <b>', 3: "Dov & co"}


def configs() -> list[tuple[str, str, int, int]]:
    one = []
    for edition in ("gloom", "shadows"):
        one += [(edition, "solo", 1)]
        one += [(edition, mode, n) for mode in ("competitive", "cooperative") for n in (2, 3, 4)]
    games = [(*c, seed) for seed in (1, 2) for c in one]
    return games + [("gloom", "competitive", 4, 3), ("shadows", "cooperative", 4, 3)]


def first_difference(a: str, b: str) -> str:
    k = next((j for j, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    lo = max(0, k - 150)
    return f"at {k}:\n  django: {a[lo : k + 150]!r}\n  jinja:  {b[lo : k + 150]!r}"


def main() -> int:
    import django

    django.setup()
    from django.template.loader import render_to_string

    from games.kilforth import adapter
    from games.kilforth.board import parts
    from games.kilforth.board import render as render_module
    from games.kilforth.engine import Settings, act, legal, new_game
    from games.kilforth.engine.bots.play import random_bot

    engines: dict[str, Callable[[str, dict], str]] = {
        "django": render_to_string,
        "jinja": parts.render,
    }

    def both(draw: Callable[[], str]) -> dict[str, str]:
        out = {}
        for name, fn in engines.items():
            parts.render = render_module.render = fn
            parts._memo.clear()
            out[name] = draw()
        return out

    # EQ_EVERY=3: every third game (1 to 4 heroes, both editions, still both modes).
    games = configs()[:: int(os.environ.get("EQ_EVERY", "1"))][
        : int(os.environ.get("EQ_GAMES", "30"))
    ]
    per_game = int(os.environ.get("EQ_POINTS", "30"))
    total = diffs = states_n = 0
    t0 = time.time()
    for edition, mode, n, seed in games:
        state = new_game(Settings(edition=edition, mode=mode, heroes=n), seed=seed)
        r = random.Random(seed)
        states = [state]
        history: list[dict] = []
        while state.result is None and len(states) < 3000:
            seat = state.waiting_for[0]
            state = act(state, seat, random_bot(state, seat, legal(state, seat), r))
            history += adapter.new_events(states[-1], state)
            states.append(state)
        picked = states[:: max(1, len(states) // per_game)] + [states[-1]]
        players = {s: NAMES[s] for s in range(n)}
        where = f"{edition} {mode} {n} seed {seed}"
        for i, st in enumerate(picked):
            online = {s for s in range(n) if (s + i) % 3}
            for viewer in [*range(n), None]:
                out = both(lambda: adapter.render(st, viewer, players, online, "t-slug"))  # noqa: B023
                for html in out.values():
                    assert "data-fallback" not in html and 'class="kb kb-' in html, html[:300]
                total += 1
                if out["django"] != out["jinja"]:
                    diffs += 1
                    if diffs <= 3:
                        print(f"DIFF {where} state {i} viewer {viewer}", end=" ")
                        print(first_difference(out["django"], out["jinja"]))
            states_n += 1
        for viewer in [*range(n), None]:
            out = both(lambda: adapter.render_full_log(states[-1], viewer, players, history))  # noqa: B023
            assert "log-row" in out["jinja"]
            total += 1
            if out["django"] != out["jinja"]:
                diffs += 1
                print(f"DIFF full log {where} viewer {viewer}")
        print(
            f"{where}: {len(states)} states, {len(picked)} compared; renders so far {total}, "
            f"differing {diffs} ({time.time() - t0:.0f}s)",
            flush=True,
        )
    print(f"TOTAL: {len(games)} games, {states_n} states, {total} renders compared, {diffs} differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())

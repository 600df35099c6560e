"""Every registered step kind runs in a seeded playout (the step registry has no dead entries).

The interpreter's registry (`@step` in core.py: steps.py, turns.py, coop.py) is wrapped to record
each kind as it runs; seeded bot games in every mode and variant are played until every kind has
run. A kind no game reaches fails the test by name: give it a rule test or retire it.
"""

from __future__ import annotations

import random

import pytest

from games.knightfall.engine import api, core
from games.knightfall.engine.bots import heuristic_bot, random_bot

from .test_invariants import games

MAX_GAMES = 40


def test_every_registered_step_kind_runs_in_a_seeded_playout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: set[str] = set()
    for kind, handler in list(core.STEPS.items()):

        def wrapped(state: dict, s: dict, kind: str = kind, handler=handler) -> None:
            seen.add(kind)
            handler(state, s)

        monkeypatch.setitem(core.STEPS, kind, wrapped)
    played = 0
    for settings, seed in games(MAX_GAMES):
        bot = heuristic_bot if seed % 2 else random_bot
        rnd = random.Random(seed)
        s = api.new_game(settings, seed)
        while api.waiting_for(s):
            seat = api.waiting_for(s)[0]
            s = api.act(s, seat, bot(s, seat, api.legal(s, seat), rnd))
        played += 1
        if seen >= set(core.STEPS):
            break
    assert sorted(set(core.STEPS) - seen) == [], f"not run in {played} games"


def test_the_registry_refuses_a_kind_registered_twice() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        core.step("hit")(lambda state, s: None)

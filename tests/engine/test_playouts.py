"""Random playouts through legal()/act() with invariants after every step.

1,000 seeded games over both editions, all modes and 1-4 heroes. A failure names the seed so it
can be replayed with `play(settings, seed)` from games.kilforth.engine.bots.play.
"""

import json
import random

import pytest

from games.kilforth.engine import Settings, State, act, legal, new_events, new_game, view
from games.kilforth.engine.rules.position import card, unique_keywords
from games.kilforth.engine.state import LOG_KEPT
from games.kilforth.engine.testing import card_ids, card_locations, conserved_universe

# (mode, heroes) -> games per edition: every mode and hero count, weighted towards the
# shorter games so 1,000 fully checked games fit the CI budget (see docs/benchmarks.md).
MIX = {
    ("solo", 1): 200,
    ("competitive", 2): 80,
    ("competitive", 3): 40,
    ("competitive", 4): 30,
    ("cooperative", 2): 80,
    ("cooperative", 3): 40,
    ("cooperative", 4): 30,
}
COMBOS = [(edition, mode, heroes) for edition in ("gloom", "shadows") for mode, heroes in MIX]
assert sum(MIX.values()) * 2 >= 1000
DIFFICULTIES = ("easier", "standard", "harder")


def settings_for(edition, mode, heroes, seed):
    return Settings(
        edition=edition,
        mode=mode,
        heroes=heroes,
        difficulty=DIFFICULTIES[seed % 3],
        auto_evasion=seed % 2 == 0,
        chapter_cost_2x=seed % 5 == 0,
        open_hands=mode == "cooperative" and seed % 4 == 0,
        saga_allocation="random" if seed % 3 == 1 else "matched",
    )


def check_invariants(state, universe, seed, before, all_views=True):
    where = f"seed {seed}, version {state.version}"
    p = state.prompt
    for h in state.heroes:
        assert 0 <= h["hp"] <= h["max_hp"], where
        assert h["ap"] >= 0, where
        over = [z for z in ("hand", "assets", "loot") if len(h[z]) > 6]
        if over:
            assert p and p["kind"] == "discard_down" and p["seat"] == h["seat"], where
        uniques = [k for c in h["assets"] for k in unique_keywords(c)]
        assert len(uniques) == len(set(uniques)), where
        assert h["gold"] >= 0 and h["fate"] >= 0 and 0 <= h["loc"] < 25, where
        placed = sum(1 for e in state.encounters.values() if h["seat"] in e["enemies"])
        assert h["enemy_tokens"] + placed == 4 or h["eliminated"], where
    on_map = [c for loc in state.map for c in loc["enc"]]
    assert sorted(on_map) == sorted(state.encounters), where
    assert not any(state.heroes[m]["hidden"] for m in state.team), where
    if p is None or p["kind"] == "turn":  # limbo only holds cards under a decision
        assert not state.limbo, f"{where}: stranded {state.limbo}"
    # Card conservation: every card exactly once (the flat list also holds out-of-game race,
    # location and totem ids, which are not conserved kinds; they are filtered out).
    ids = [c for c in card_ids(state) if c in universe]
    if len(ids) != len(universe) or set(ids) != universe:
        locations = card_locations(state)
        missing = universe - set(locations)
        doubled = {c: z for c, z in locations.items() if len(z) != 1}
        raise AssertionError(f"{where}: missing {missing}, doubled {doubled}")
    if state.result is None:
        assert state.waiting_for, where
        assert legal(state, state.waiting_for[0]), where
    # JSON round trip every step: the whole state except the append-only log, plus the events
    # this step logged. Events are never changed once logged, so this equals a full round trip;
    # the full-state equality State.from_json(state.to_json()) == state is also asserted at
    # sampled steps and at the end.
    body = {k: v for k, v in state.to_dict().items() if k != "log"}
    assert json.loads(json.dumps(body)) == body, where
    new = new_events(before, state)
    assert json.loads(json.dumps(new)) == new, where
    assert len(state.log) <= LOG_KEPT + len(new), f"{where}: the state keeps its whole history"
    everyone = [None, *range(len(state.heroes))]
    if all_views:
        viewers = everyone
    else:  # one viewer per step in rotation (spectator, seat 0, ...); all of them every 10th
        viewers = [everyone[state.version % len(everyone)]]
    check_views(state, where, viewers)


def strings(obj):
    """Every string (values and keys) anywhere in a JSON-like structure."""
    out = set()
    stack = [obj]
    while stack:
        o = stack.pop()
        t = type(o)
        if t is str:
            out.add(o)
        elif t is dict:
            out.update(o)
            stack.extend(o.values())
        elif t is list:
            stack.extend(o)
    return out


def check_views(state, where, viewers):
    hands = {h["seat"]: set(h["hand"]) | set(h["loot"]) for h in state.heroes}
    hidden_piles = set(state.loot_bag)
    for pile in state.decks.values():
        hidden_piles.update(pile)
    open_hands = state.settings["open_hands"] and state.settings["mode"] == "cooperative"
    for viewer in viewers:
        v = view(state, viewer)
        # The log and the recent-play facts are history: they may name a card that has since
        # gone back into a pile (everyone saw it happen); only their visibility is checked.
        log = v.pop("log")
        for part in ("recent_tests", "night"):
            log += (v.pop(part) or {}).get("events", [])
        assert "rng" not in v and "queue" not in v, where
        forbidden = set(hidden_piles)
        for seat, ids in hands.items():
            if seat != viewer and not (open_hands and viewer is not None):
                forbidden |= ids
        if len(viewers) > 1:  # every 10th step: the whole view is JSON-safe
            assert json.loads(json.dumps(v)) == v, where
        leaked = strings(v) & forbidden
        assert not leaked, f"{where}: viewer {viewer} sees {leaked}"
        assert all(e["vis"] in ("all", viewer) for e in log), where


def replay(state, actions):
    s = new_game(Settings.from_dict(state.settings), state.seed)
    for seat, key in actions:
        s = act(s, seat, key)
    return s


def play_checked(edition, mode, heroes, seed):
    settings = settings_for(edition, mode, heroes, seed)
    universe = None
    state = new_game(settings, seed)
    universe = conserved_universe(state)
    r = random.Random(seed)
    sample_at = r.randrange(5, 60)
    actions = []
    check_invariants(state, universe, seed, None)
    steps = 0
    while state.result is None:
        seat = state.waiting_for[0]
        # Now and then a seat that is not being asked uses an off-turn choice (stop hiding).
        offturn = [x for x in range(len(state.heroes)) if x != seat and legal(state, x)]
        if offturn and r.random() < 0.2:
            seat = r.choice(offturn)
        choices = legal(state, seat)
        key = choices[r.randrange(len(choices))].key
        prev = state
        state = act(state, seat, key)
        actions.append((seat, key))
        steps += 1
        check_invariants(state, universe, seed, prev, all_views=steps % 10 == 0)
        if steps == sample_at:
            assert State.from_json(state.to_json()) == state, f"seed {seed}"
            assert replay(state, actions) == state, f"seed {seed}: replay differs at {steps}"
        assert steps < 20_000, f"seed {seed}: game does not end"
    check_invariants(state, universe, seed, prev, all_views=True)
    assert State.from_json(state.to_json()) == state, f"seed {seed}"
    assert replay(state, actions) == state, f"seed {seed}: replay differs at the end"
    assert state.waiting_for == []
    assert legal(state, 0) == []
    return state


@pytest.mark.slow
@pytest.mark.rule("END-1", "DAY-1", "DAY-8", "LIM-1", "LIM-2", "TEST-6")
@pytest.mark.parametrize(("edition", "mode", "heroes"), COMBOS)
def test_random_games_run_to_the_end_with_every_invariant_holding(edition, mode, heroes):
    base = 1000 * (COMBOS.index((edition, mode, heroes)) + 1)
    for seed in range(base, base + MIX[(mode, heroes)]):
        try:
            final = play_checked(edition, mode, heroes, seed)
        except AssertionError:
            print(f"FAILING SEED: edition={edition} mode={mode} heroes={heroes} seed={seed}")
            raise
        assert final.result is not None
        assert final.phase == "over"
        if edition == "gloom" and final.result["reason"] == "day 25 is over":
            assert final.day == 25
        assert all(card(c)["kind"] for c in final.removed)

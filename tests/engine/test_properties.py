"""Hypothesis property tests: dice and tests, limits, and the effect interpreter."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.kilforth.engine import State, act, legal, rng
from games.kilforth.engine import testing as T
from games.kilforth.engine.rules.position import attr_total, card

from .kit import game

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BASE = game()


def base():
    return State.from_json(BASE.to_json())


@FAST
@given(seed=st.integers(0, 2**63), n=st.integers(1, 50))
def test_rng_below_is_in_range_and_reproducible(seed, n):
    a = type("S", (), {"rng": rng.seed_counter(seed)})()
    b = type("S", (), {"rng": rng.seed_counter(seed)})()
    xs = [rng.below(a, n) for _ in range(20)]
    assert xs == [rng.below(b, n) for _ in range(20)]
    assert all(0 <= x < n for x in xs)


@FAST
@given(seed=st.integers(0, 2**32), items=st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation(seed, items):
    s = type("S", (), {"rng": rng.seed_counter(seed)})()
    out = list(items)
    rng.shuffle(s, out)
    assert sorted(out) == sorted(items)


@pytest.mark.rule("TEST-1", "TEST-3", "TEST-6")
@FAST
@given(
    faces=st.lists(st.integers(1, 6), min_size=8, max_size=8),
    attr=st.sampled_from(["fight", "study", "sneak", "influence"]),
    easier=st.booleans(),
)
def test_a_test_rolls_the_attribute_total_and_counts_fives_and_sixes(faces, attr, easier):
    s = base()
    s.settings["difficulty"] = "easier" if easier else "standard"
    T.set_hero(s, 0, fate_day=s.day)
    T.dice(s, *faces)
    T.run_steps(s, {"k": "test", "seat": 0, "attr": attr, "tag": "t"})
    n = attr_total(s, 0, attr)
    res = s.scratch["t"]
    assert res["faces"] == faces[:n]
    lo = 4 if easier else 5
    assert res["succ"] == sum(1 for f in faces[:n] if f >= lo)
    roll = [e for e in s.log if e["e"] == "roll"][-1]
    assert roll["dice"] == n and roll["faces"] == faces[:n]


@pytest.mark.rule("TEST-4")
@FAST
@given(faces=st.lists(st.integers(1, 6), min_size=4, max_size=4))
def test_calling_on_fate_always_adds_exactly_one_success(faces):
    s = base()
    T.dice(s, *faces)
    T.run_steps(s, {"k": "test", "seat": 0, "attr": "fight", "tag": "t"})
    before = s.scratch["t"]["succ"]
    s = act(s, 0, "fate")
    assert s.scratch["t"]["succ"] == before + 1
    assert s.heroes[0]["fate_day"] == s.day


@pytest.mark.rule("LIM-1")
@FAST
@given(extra=st.integers(0, 6), seed=st.integers(0, 1000))
def test_after_any_number_of_rumour_draws_the_hand_ends_at_most_six(extra, seed):
    s = base()
    r = random.Random(seed)
    universe = T.conserved_universe(s)
    for _ in range(5 + extra):
        T.run_steps(s, {"k": "draw_reward", "seat": 0, "deck": r.choice(["item", "spell"])})
        while s.prompt and s.prompt["kind"] == "discard_down":
            s = act(s, 0, r.choice(legal(s, 0)).key)
    assert len(s.heroes[0]["hand"]) <= 6
    locations = T.card_locations(s)
    assert set(locations) == universe and all(len(z) == 1 for z in locations.values())


@pytest.mark.rule("LIM-2")
@FAST
@given(
    order=st.permutations(
        [
            "r.moonsilver_sabre",
            "r.rusty_falchion",
            "r.grey_mare",
            "r.warhorse",
            "r.tame_falcon",
            "r.fire_sprite",
        ]
    )
)
def test_no_two_assets_ever_share_a_unique_keyword(order):
    s = base()
    for c in order:
        T.give(s, 0, c)
        T.run_steps(s, {"k": "discover", "seat": 0, "card": c})
    kws = [k for c in s.heroes[0]["assets"] for k in card(c)["keywords"] if k.startswith("*")]
    assert len(kws) == len(set(kws)) == 3
    assert s.heroes[0]["assets"][-1] == order[-1]


STEP = st.one_of(
    st.builds(lambda n: {"k": "gain_gold", "n": n}, st.integers(0, 5)),
    st.builds(lambda n: {"k": "lose_gold", "n": n}, st.integers(0, 5)),
    st.builds(lambda n: {"k": "gain_hp", "n": n}, st.integers(0, 5)),
    st.builds(lambda n: {"k": "lose_hp", "n": n}, st.integers(0, 2)),
    st.builds(lambda n: {"k": "lose_ap", "n": n}, st.integers(0, 5)),
    st.builds(lambda n: {"k": "gain_fate", "n": n}, st.integers(0, 3)),
)


@FAST
@given(steps=st.lists(STEP, max_size=12))
def test_the_interpreter_keeps_hero_numbers_in_range_for_any_effect_sequence(steps):
    s = base()
    T.set_hero(s, 0, hp=4, ap=4)
    gold, hp, fate = 1, 4, 4
    for step in steps:
        if s.heroes[0]["defeated"]:
            break
        T.run_steps(s, {**step, "seat": 0})
        k, n = step["k"], step["n"]
        gold = gold + n if k == "gain_gold" else max(0, gold - n) if k == "lose_gold" else gold
        hp = min(4, hp + n) if k == "gain_hp" else max(0, hp - n) if k == "lose_hp" else hp
        fate = fate + n if k == "gain_fate" else fate
        if s.heroes[0]["defeated"]:
            gold = 0
        h = s.heroes[0]
        assert 0 <= h["hp"] <= h["max_hp"] and h["ap"] >= 0 and h["gold"] >= 0
        assert (h["gold"], h["hp"], h["fate"]) == (gold, hp, fate)


@FAST
@given(n=st.integers(0, 60), seed=st.integers(0, 10_000))
def test_any_reachable_state_round_trips_through_json(n, seed):
    s = base()
    r = random.Random(seed)
    for _ in range(n):
        if s.result:
            break
        seat = s.waiting_for[0]
        s = act(s, seat, r.choice(legal(s, seat)).key)
    assert State.from_json(s.to_json()) == s

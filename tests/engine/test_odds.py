"""The odds shown before a roll are exact (binomial on the success faces)."""

from fractions import Fraction
from itertools import product

import pytest

from games.kilforth.engine.rules import odds


def brute_force(dice: int, need: int, success_min: int) -> Fraction:
    hits = sum(
        1
        for faces in product(range(1, 7), repeat=dice)
        if sum(f >= success_min for f in faces) >= need
    )
    return Fraction(hits, 6**dice)


@pytest.mark.rule("TEST-3")
def test_five_dice_needing_three_successes_is_seventeen_in_eighty_one():
    assert odds.at_least(5, 3) == Fraction(17, 81)
    assert odds.percent(odds.at_least(5, 3)) == "21%"


@pytest.mark.rule("TEST-3", "OPT-3")
@pytest.mark.parametrize("success_min", [5, 4])
@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4])
def test_the_chance_matches_counting_every_roll(dice, success_min):
    for need in range(0, 6):
        assert odds.at_least(dice, need, success_min) == brute_force(dice, need, success_min)


@pytest.mark.rule("TEST-4")
def test_fate_in_hand_makes_the_test_one_success_easier():
    assert odds.at_least(3, 2, fate=True) == odds.at_least(3, 1)
    assert odds.at_least(0, 1, fate=True) == 1
    assert odds.at_least(0, 2, fate=True) == 0


def test_no_dice_and_no_need_is_certain_and_a_need_beyond_the_dice_is_impossible():
    assert odds.percent(odds.at_least(0, 0)) == "certain"
    assert odds.percent(odds.at_least(2, 3)) == "impossible"
    assert odds.percent(odds.at_least(12, 12)) == "under 1%"


@pytest.mark.rule("ENG-7")
def test_a_battle_round_splits_into_win_lose_both_and_neither():
    # Hero 2 dice vs a 1-HP foe; foe 1 die vs a 1-HP hero, successes on 5-6.
    round_ = odds.battle_round(hero_dice=2, foe_dice=1, hero_hp=1, foe_hp=1)
    hero_hits = 1 - Fraction(2, 3) ** 2  # 5/9
    foe_hits = Fraction(1, 3)
    assert round_["win"] == hero_hits * (1 - foe_hits)
    assert round_["lose"] == foe_hits * (1 - hero_hits)
    assert round_["both"] == hero_hits * foe_hits
    # Damage stops at the HP there is: 2 dice against a 1-HP foe deal at most 1.
    assert round_["damage_dealt"] == hero_hits
    assert round_["damage_taken"] == foe_hits


@pytest.mark.rule("ENG-7")
def test_expected_damage_is_dice_times_the_chance_when_health_is_plenty():
    assert odds.expected_damage(6, 10) == 2
    assert odds.expected_damage(6, 10, success_min=4) == 3


@pytest.mark.rule("TEST-1")
def test_a_confront_option_states_the_exact_chance_of_finishing_with_this_test():
    import random
    import re
    from math import comb

    from games.kilforth.engine import Settings, act, legal, new_game

    checked = 0
    for seed in range(1, 30):
        s = new_game(Settings(edition="shadows", mode="competitive", heroes=2), seed)
        r = random.Random(seed)
        for _ in range(150):
            seat = s.waiting_for[0]
            choices = legal(s, seat)
            for c in choices:
                if not c.key.startswith("confront:"):
                    continue
                found = re.search(
                    r"(\d+) successes? in total.*?(?:have (\d+))?\. Chance", c.explain
                )
                m = re.search(r"\((\d+) dice, (\d)\+ to succeed\): ([^,.]+)", c.explain)
                assert found and m, c.explain
                need = int(found.group(1)) - int(found.group(2) or 0)
                dice, threshold = int(m.group(1)), int(m.group(2))
                p = (7 - threshold) / 6
                exact = sum(
                    comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(need, dice + 1)
                )
                shown = m.group(3)
                if shown == "impossible":
                    assert exact == 0
                elif shown == "certain":
                    assert exact == 1
                elif shown.startswith("under"):
                    assert 0 < exact < 0.01
                else:
                    assert abs(int(shown.rstrip("%")) - 100 * exact) <= 0.5 + 1e-9, c.explain
                checked += 1
            s = act(s, seat, r.choice(choices).key)
            if s.result is not None:
                break
    assert checked >= 20


@pytest.mark.rule("ENG-7")
def test_fighting_another_round_states_the_exact_odds_of_that_round():
    import re

    from games.kilforth.engine import legal
    from games.kilforth.engine import testing as T
    from games.kilforth.engine.rules.dice import dice_sources
    from games.kilforth.engine.rules.position import card, success_min

    from .test_engagement import fight_setup

    s = fight_setup()
    T.dice(s, 1, 1, 1, 1, 1, 1, 1)  # a first round where nobody scores
    T.begin_turn(s, 0)
    fight = next(c for c in legal(s, 0) if c.key == "fight")
    hero = sum(n for _, n in dice_sources(s, 0, "fight"))
    foe = card("e.stone_ogre")["fight"]
    foe_hp = s.encounters["e.stone_ogre"]["hp"]
    exact = odds.battle_round(hero, foe, s.heroes[0]["hp"], foe_hp, success_min(s))
    said = re.search(
        r"This round \((\d+) dice against its (\d+)\): (.+?) that you defeat it, (.+?) that you "
        r"fall.*?you deal ([\d.]+) damage and take ([\d.]+)\.",
        fight.explain,
    )
    assert said, fight.explain
    assert (int(said.group(1)), int(said.group(2))) == (hero, foe)
    assert said.group(3) == odds.percent(exact["win"])
    assert said.group(4) == odds.percent(exact["lose"])
    assert float(said.group(5)) == round(float(exact["damage_dealt"]), 1)
    assert float(said.group(6)) == round(float(exact["damage_taken"]), 1)

import pytest

from games.kilforth.engine import act, legal
from games.kilforth.engine import testing as T
from games.kilforth.engine.rules.position import card

from .kit import alone, answer, events, game, keys, loc_of_terrain, no_fate, prompt


def confront_setup(s, enc="e.lost_lantern", terrain="forest"):
    alone(s)
    loc = loc_of_terrain(s, terrain)
    T.place_hero(s, 0, loc)
    T.place_encounter(s, enc, loc)
    T.begin_turn(s, 0)
    return s


@pytest.mark.rule("TEST-1", "TEST-6")
def test_dice_equal_the_attribute_total_with_every_source_logged():
    s = game()
    T.give(s, 0, "r.moonsilver_sabre", "assets")  # +1 fight
    no_fate(s)
    confront_setup(s, "e.old_watchtower", "plains")
    attr = next(k.split(":")[2] for k in keys(s, 0) if k.startswith("confront:"))
    s = act(s, 0, next(k for k in keys(s, 0) if k.startswith("confront:")))
    roll = events(s, "roll")[-1]
    expected = card("race.fellmark_dwarf")[attr] + card("class.samurai")[attr]
    expected += card("r.moonsilver_sabre")["bonus"].get(attr, 0)
    assert roll["dice"] == expected == len(roll["faces"])
    assert ["race", card("race.fellmark_dwarf")[attr]] in roll["sources"] or not card(
        "race.fellmark_dwarf"
    )[attr]
    assert all(1 <= f <= 6 for f in roll["faces"])


@pytest.mark.rule("TEST-1", "ENG-7")
def test_surprise_adds_one_die_in_the_first_battle_round_only():
    s = game()
    alone(no_fate(s))
    T.place_encounter(s, "e.stone_ogre", 12)
    T.set_hero(s, 0, hidden=True)
    T.begin_turn(s, 0)
    T.dice(s, *[1] * 20)
    s = act(s, 0, "reveal")
    rolls = events(s, "roll")
    assert rolls[-2]["dice"] == 5 and ["surprise", 1] in rolls[-2]["sources"]
    s = act(s, 0, "fight")
    assert events(s, "roll")[-2]["dice"] == 4


@pytest.mark.rule("TEST-2")
def test_a_reroll_ability_rerolls_failed_dice_and_veils_the_card():
    s = game()
    T.give(s, 0, "r.lucky_knucklebone", "assets")
    no_fate(s)
    confront_setup(s, "e.old_watchtower", "plains")
    key = next(k for k in keys(s, 0) if k.startswith("confront:"))
    n = len(events(s, "roll"))
    T.dice(s, *[2] * 4, *[6] * 4)
    s = act(s, 0, key)
    assert prompt(s) == (0, "fate") and "reroll:r.lucky_knucklebone" in keys(s, 0)
    s = act(s, 0, "reroll:r.lucky_knucklebone")
    assert events(s, "reroll")[-1]["successes"] >= 1
    assert "r.lucky_knucklebone" in s.heroes[0]["veiled"]
    assert len(events(s, "roll")) == n + 1


@pytest.mark.rule("TEST-3")
def test_fives_and_sixes_succeed_and_on_easier_fours_too():
    for difficulty, expected in (("standard", 2), ("easier", 3)):
        s = game(difficulty=difficulty)
        no_fate(s)
        confront_setup(s, "e.old_watchtower", "plains")
        T.set_hero(s, 0, fate=0)
        T.dice(s, 6, 5, 4, 3)
        s = act(s, 0, "confront:e.old_watchtower:fight")  # 4 fight dice: 6, 5, 4, 3
        faces = events(s, "roll")[-1]["faces"]
        assert faces == [6, 5, 4, 3]
        assert events(s, "roll")[-1]["successes"] == expected


@pytest.mark.rule("TEST-4")
def test_calling_on_fate_after_the_roll_adds_one_success_once_per_day():
    s = game()
    confront_setup(s, "e.old_watchtower", "plains")
    key = next(k for k in keys(s, 0) if k.startswith("confront:"))
    T.dice(s, *[1] * 8)
    s = act(s, 0, key)
    assert prompt(s) == (0, "fate")
    rumour = s.heroes[0]["hand"][0]
    assert {"accept", "fate", f"fate:{rumour}"} <= set(keys(s, 0))
    s = act(s, 0, "fate")
    assert s.heroes[0]["fate"] == 3
    assert events(s, "confront")[-1]["total"] == 1
    s = T.begin_turn(s, 0)
    T.dice(s, *[1] * 8)
    s = act(s, 0, key)
    assert s.prompt is None or s.prompt["kind"] != "fate"  # already used today


@pytest.mark.rule("TEST-4")
def test_fate_can_be_paid_with_a_rumour():
    s = game()
    confront_setup(s, "e.old_watchtower", "plains")
    key = next(k for k in keys(s, 0) if k.startswith("confront:"))
    rumour = s.heroes[0]["hand"][0]
    T.dice(s, *[1] * 8)
    s = act(s, 0, key)
    s = act(s, 0, f"fate:{rumour}")
    assert rumour not in s.heroes[0]["hand"] and s.heroes[0]["fate"] == 4


@pytest.mark.rule("TEST-5", "DEED-4")
def test_a_veiled_card_gives_no_bonus():
    s = game()
    T.give(s, 0, "r.frost_bind", "assets")  # +1 fight
    from games.kilforth.engine.rules.position import attr_total

    assert attr_total(s, 0, "fight") == 5
    s.heroes[0]["veiled"].append("r.frost_bind")
    assert attr_total(s, 0, "fight") == 4


@pytest.mark.rule("TEST-6")
def test_every_foe_roll_is_logged_with_faces_and_sources():
    s = game()
    alone(no_fate(s))
    T.place_encounter(s, "e.stone_ogre", 12)
    T.dice(s, *[1] * 10)
    T.begin_turn(s, 0)
    foe = [e for e in events(s, "roll") if e.get("foe")][-1]
    assert foe["foe"] == "e.stone_ogre" and foe["dice"] == card("e.stone_ogre")["fight"]
    assert len(foe["faces"]) == foe["dice"] and foe["sources"]


# ------------------------------------------------------------------------------ rewards


def defeat_place(s, enc="e.fungus_ring"):
    no_fate(s)
    confront_setup(s, enc, "forest")
    T.run_steps(s, {"k": "claim_reward", "seat": 0, "enc": enc})
    return s


@pytest.mark.rule("REW-1")
def test_the_loot_step_offers_the_gold_value_or_a_loot_token():
    s = defeat_place(game())
    assert prompt(s) == (0, "loot_step") and sorted(keys(s, 0)) == ["gold", "loot"]
    gold = s.heroes[0]["gold"]
    s = act(s, 0, "gold")
    assert s.heroes[0]["gold"] == gold + card("e.fungus_ring")["gold"]
    s2 = defeat_place(game(seed=3))
    bag = len(s2.loot_bag)
    s2 = act(s2, 0, "loot")
    assert len(s2.loot_bag) == bag - 1


@pytest.mark.rule("REW-2")
def test_the_rumour_step_keeps_the_card_or_swaps_it_for_the_matching_reward_deck():
    s = defeat_place(game())
    s = act(s, 0, "gold")
    assert prompt(s) == (0, "rumour_step")
    keep = act(s, 0, "keep")
    assert "e.fungus_ring" in keep.heroes[0]["hand"]
    top_title = s.decks["title"][-1]
    swap = act(s, 0, "draw")
    assert top_title in swap.heroes[0]["hand"] and "e.fungus_ring" in swap.discards["forest"]


@pytest.mark.rule("REW-2")
@pytest.mark.parametrize(
    ("enc", "deck"),
    [
        ("e.bramble_wolf", "item"),
        ("e.fungus_ring", "title"),
        ("e.lost_lantern", "spell"),
        ("e.masked_poacher", "ally"),
    ],
)
def test_each_encounter_type_maps_to_its_reward_deck(enc, deck):
    s = game()
    no_fate(s)
    confront_setup(s, "e.fungus_ring" if enc != "e.fungus_ring" else "e.lost_lantern", "forest")
    T.place_encounter(s, enc, s.heroes[0]["loc"])
    T.run_steps(s, {"k": "claim_reward", "seat": 0, "enc": enc})
    s = act(s, 0, "gold")
    top = s.decks[deck][-1]
    s = act(s, 0, "draw")
    assert top in s.heroes[0]["hand"]


@pytest.mark.rule("REW-3")
def test_a_stranger_defeated_with_the_heros_own_token_gives_gold_and_the_card():
    s = game()
    alone(no_fate(s))
    T.place_encounter(s, "e.goat_herder", 12, enemies=(0,))
    gold = s.heroes[0]["gold"]
    T.dice(s, 6, 6, 6, 6, 1, 1)
    T.begin_turn(s, 0)
    assert "e.goat_herder" in s.heroes[0]["hand"]
    assert s.heroes[0]["gold"] == gold + card("e.goat_herder")["gold"]
    assert not events(s, "prompt") or all(
        e["kind"] not in ("loot_step", "rumour_step") for e in events(s, "prompt")[-3:]
    )


@pytest.mark.rule("REW-4")
def test_an_optional_trophy_is_offered_after_the_loot_and_rumour_steps():
    s = game()
    alone(no_fate(s))
    T.place_encounter(s, "e.hollow_stag", 12)
    T.dice(s, 6, 6, 6, 6, 1, 1)
    T.begin_turn(s, 0)
    s = act(s, 0, "gold")
    s = act(s, 0, "keep")
    assert prompt(s) == (0, "trophy")
    fate = s.heroes[0]["fate"]
    assert act(s, 0, "take").heroes[0]["fate"] == fate + 1
    assert act(s, 0, "decline").heroes[0]["fate"] == fate


@pytest.mark.rule("REW-4")
def test_the_trophy_question_says_what_the_trophy_gives():
    s = game()
    alone(no_fate(s))
    T.place_encounter(s, "e.hollow_stag", 12)
    T.dice(s, 6, 6, 6, 6, 1, 1)
    T.begin_turn(s, 0)
    s = answer(s, 0, "gold", "keep")
    assert s.prompt["text"] == "Take the trophy of Hollow Stag: gain 1 fate?"
    take = next(c for c in legal(s, 0) if c.key == "take")
    assert take.label == "Gain 1 fate"
    assert take.data == {"verb": "take_trophy", "card": "e.hollow_stag"}


@pytest.mark.rule("REW-4")
def test_a_forced_trophy_applies_without_asking():
    s = game()
    alone(no_fate(s))
    T.set_hero(s, 0, gold=3)
    T.place_encounter(s, "e.crag_harpy", 12)
    T.dice(s, 6, 6, 6, 6, 1, 1)
    T.begin_turn(s, 0)
    s = act(s, 0, "loot")
    s = act(s, 0, "keep")
    assert s.prompt["kind"] != "trophy"
    assert events(s, "gold_lost")


@pytest.mark.rule("REW-5", "DEED-4")
def test_gold_loot_is_cashed_at_once_and_other_loot_is_used_once_as_a_resolve_deed():
    s = game()
    no_fate(s)
    T.begin_turn(s, 0)
    s.loot_bag[:] = [c for c in s.loot_bag if c == "l.coins3"]
    T.run_steps(s, {"k": "draw_loot", "seat": 0})
    assert s.heroes[0]["gold"] == 1 + card("l.coins3")["gold"] and "l.coins3" in s.loot_used
    s = game()
    T.give(s, 0, "l.fortune_coin1", "loot")
    T.begin_turn(s, 0)
    s = act(s, 0, "resolve:l.fortune_coin1")
    assert s.heroes[0]["fate"] == 5 and "l.fortune_coin1" in s.loot_used
    assert "resolve:l.fortune_coin1" not in keys(s, 0)


@pytest.mark.rule("REW-5")
def test_an_empty_loot_bag_is_refilled_from_used_tokens():
    s = game()
    used = list(s.loot_bag)
    s.loot_used.extend(used)
    s.loot_bag.clear()
    T.run_steps(s, {"k": "draw_loot", "seat": 0})
    assert len(s.loot_bag) + len(s.loot_used) + len(s.heroes[0]["loot"]) == len(used)
    assert s.loot_bag


@pytest.mark.rule("DAY-11", "TEST-4")
def test_a_resolve_deed_can_be_used_after_seeing_the_dice_before_calling_on_fate():
    s = game()
    T.set_hero(s, 0, fate=0)
    empty = [c for c in s.heroes[0]["hand"]]
    for c in empty:
        T.take(s, c)
        s.discards[T.content().cards[c]["deck"]].append(c)
    T.give(s, 0, "l.fortune_coin1", "loot")
    confront_setup(s, "e.old_watchtower", "plains")
    T.dice(s, 1, 1, 1, 1)
    s = act(s, 0, "confront:e.old_watchtower:fight")
    assert prompt(s) == (0, "fate") and "fate" not in keys(s, 0)
    s = act(s, 0, "resolve:l.fortune_coin1")
    assert prompt(s) == (0, "fate") and "fate" in keys(s, 0)
    s = act(s, 0, "fate")
    assert events(s, "confront")[-1]["total"] == 1

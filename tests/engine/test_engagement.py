import pytest

from games.kilforth.engine import act
from games.kilforth.engine import testing as T
from games.kilforth.engine.rules.engagement import escape_destinations
from games.kilforth.engine.rules.position import card, loc_index, neighbours

from .kit import alone, events, game, keys, no_fate, prompt


def fight_setup(enc="e.stone_ogre", hidden=False, fresh=False, **settings):
    s = game(**settings)
    alone(no_fate(s))
    T.place_encounter(s, enc, 12, fresh=fresh)
    T.set_hero(s, 0, hidden=hidden)
    return s


@pytest.mark.rule("ENG-1")
def test_engagement_is_mandatory_and_costs_no_ap():
    s = fight_setup()
    T.dice(s, *[1] * 10)
    T.begin_turn(s, 0)
    assert prompt(s) == (0, "escape")  # no way to skip it
    assert s.heroes[0]["ap"] == 4


@pytest.mark.rule("ENG-2")
def test_an_enemy_drawn_this_turn_has_surprise_unless_the_hero_is_hidden():
    s = game()
    loc = next(x["id"] for x in s.map if card(x["id"])["terrain"] == "mountain")
    T.place_hero(s, 0, loc)
    alone(no_fate(s))
    T.begin_turn(s, 0)
    T.top(s, "mountain", "e.stone_ogre")
    T.dice(s, *[1] * 10)
    s = act(s, 0, "search")
    assert events(s, "battle")[-1]["surprise"] == "foe"
    foe = [e for e in events(s, "roll") if e.get("foe")][-1]
    assert foe["dice"] == card("e.stone_ogre")["fight"] + 1


@pytest.mark.rule("ENG-2")
def test_an_enemy_that_was_already_there_has_no_surprise():
    s = fight_setup(fresh=False)
    T.dice(s, *[1] * 10)
    T.begin_turn(s, 0)
    assert events(s, "battle")[-1]["surprise"] is None


@pytest.mark.rule("ENG-3")
def test_a_hidden_hero_may_evade_an_enemy_drawn_this_turn():
    s = game()
    loc = next(x["id"] for x in s.map if card(x["id"])["terrain"] == "mountain")
    T.place_hero(s, 0, loc)
    alone(no_fate(s))
    T.set_hero(s, 0, hidden=True)
    T.begin_turn(s, 0)
    T.top(s, "mountain", "e.crag_harpy")
    s = act(s, 0, "search")
    assert prompt(s) == (0, "hidden_engage")
    assert sorted(keys(s, 0)) == ["evade", "reveal"]
    T.dice(s, 6)
    s = act(s, 0, "evade")
    assert events(s, "evaded")[-1]["card"] == "e.crag_harpy"
    assert s.heroes[0]["hidden"]
    assert "e.crag_harpy" in s.encounters and s.turn == 1  # the search action is over


@pytest.mark.rule("ENG-3")
def test_a_hidden_hero_may_reveal_itself_to_gain_surprise():
    s = fight_setup(hidden=True)
    T.begin_turn(s, 0)
    T.dice(s, *[1] * 10)
    s = act(s, 0, "reveal")
    assert not s.heroes[0]["hidden"]
    assert events(s, "battle")[-1]["surprise"] == "hero"


@pytest.mark.rule("ENG-4")
def test_evasion_succeeds_with_successes_at_least_the_foes_sneak_and_lasts_until_dawn():
    s = fight_setup(enc="e.stone_ogre", hidden=True)  # sneak 2
    T.begin_turn(s, 0)
    T.dice(s, 6)  # hero 0 has 1 sneak die: 1 success < 2
    s2 = act(s, 0, "evade")
    assert not s2.heroes[0]["hidden"]
    assert events(s2, "battle")[-1]["surprise"] == "foe"
    s = fight_setup(enc="e.crag_harpy", hidden=True)  # sneak 1
    T.begin_turn(s, 0)
    T.dice(s, 5)
    s = act(s, 0, "evade")
    assert events(s, "evaded")
    s = T.begin_turn(s, 0)  # ignored on later turns the same day
    assert prompt(s) == (0, "turn") and "e.crag_harpy" in s.map[12]["enc"]
    s = T.start_night(s)
    assert s.encounters["e.crag_harpy"]["evaded"] == []


@pytest.mark.rule("ENG-4")
def test_evasion_ends_when_the_hero_leaves_the_location_and_comes_back_the_same_day():
    s = fight_setup(enc="e.crag_harpy", hidden=True)  # sneak 1
    T.begin_turn(s, 0)
    T.dice(s, 5)
    s = act(s, 0, "evade")
    assert s.encounters["e.crag_harpy"]["evaded"] == [0]
    away = neighbours(12)[0]
    T.run_steps(s, {"k": "move", "seat": 0, "to": away})
    assert s.encounters["e.crag_harpy"]["evaded"] == []
    T.place_hero(s, 0, 12)
    T.dice(s, *[1] * 10)
    s = T.begin_turn(s, 0)
    assert prompt(s)[1] != "turn"  # the harpy is a foe again: engagement before the turn


@pytest.mark.rule("ENG-5", "OPT-4")
def test_with_the_auto_evasion_variant_a_sneakier_hero_evades_without_a_test():
    s = game(auto_evasion=True)
    alone(no_fate(s), 1)
    T.place_encounter(s, "e.crag_harpy", s.heroes[1]["loc"])  # sneak 1 < ratling's 4
    T.set_hero(s, 1, hidden=True)
    T.begin_turn(s, 1)
    assert "auto_evade" in keys(s, 1)
    n = len(events(s, "roll"))
    s = act(s, 1, "auto_evade")
    assert events(s, "evaded") and len(events(s, "roll")) == n
    plain = game()
    alone(no_fate(plain), 1)
    T.place_encounter(plain, "e.crag_harpy", plain.heroes[1]["loc"])
    T.set_hero(plain, 1, hidden=True)
    T.begin_turn(plain, 1)
    assert "auto_evade" not in keys(plain, 1)


@pytest.mark.rule("ENG-6", "ENG-7")
def test_battle_rounds_trade_successes_simultaneously():
    s = fight_setup(enc="e.stone_ogre")  # fight 3, health 3
    T.set_hero(s, 0, ap=4)
    T.dice(s, 6, 1, 1, 1, 6, 6, 1)  # hero 1 success, foe 2 successes
    T.begin_turn(s, 0)
    sk = events(s, "skirmish")[-1]
    assert sk["dealt"] == 1 and sk["taken"] == [[0, 2]] and sk["foe_hp"] == 2
    assert s.heroes[0]["hp"] == 2 and s.heroes[0]["ap"] == 2
    assert prompt(s) == (0, "escape")
    T.dice(s, 6, 6, 1, 1, 1, 1, 1)
    s = act(s, 0, "fight")
    assert "e.stone_ogre" not in s.encounters


@pytest.mark.rule("ENG-8")
def test_a_foe_at_zero_hp_is_defeated_and_the_hero_claims_a_reward():
    s = fight_setup(enc="e.mire_boar")  # health 2
    T.dice(s, 6, 6, 1, 1, 1, 1)
    T.begin_turn(s, 0)
    assert events(s, "encounter_defeated")[-1]["card"] == "e.mire_boar"
    assert prompt(s) == (0, "loot_step")


@pytest.mark.rule("ENG-9")
def test_a_defeated_hero_camps_loses_gold_and_a_chosen_card_and_goes_to_the_centre():
    s = game()
    loc = next(x["id"] for x in s.map if card(x["id"])["terrain"] == "forest")
    T.place_hero(s, 0, loc)
    alone(no_fate(s))
    T.place_encounter(s, "e.bramble_wolf", loc)  # fight 4
    T.give(s, 0, "r.signet_ring", "assets")
    T.set_hero(s, 0, hp=1, gold=3)
    T.dice(s, 1, 1, 1, 1, 6, 6, 6, 6)
    T.begin_turn(s, 0)
    assert s.heroes[0]["defeated"] and s.heroes[0]["camped"]
    assert s.heroes[0]["gold"] == 0 and s.heroes[0]["loc"] == 12
    assert prompt(s) == (0, "lose_card")
    rumour = s.heroes[0]["hand"][0]
    assert sorted(keys(s, 0)) == sorted([f"lose:{rumour}", "lose:r.signet_ring"])
    s = act(s, 0, "lose:r.signet_ring")
    assert s.heroes[0]["assets"] == [] and s.turn == 1


@pytest.mark.rule("ENG-9")
def test_a_defeated_hero_is_not_affected_by_abilities():
    s = game()
    T.set_hero(s, 0, defeated=True, hp=0, gold=0)
    T.run_steps(s, {"k": "gain_gold", "seat": 0, "n": 3}, {"k": "lose_hp", "seat": 0, "n": 1})
    assert s.heroes[0]["gold"] == 0


@pytest.mark.rule("ENG-10")
def test_after_a_round_the_hero_may_escape_to_the_nearest_enemy_free_location():
    s = fight_setup()
    T.dice(s, 1, 1, 1, 1, 1, 1, 1)
    T.begin_turn(s, 0)
    dests = escape_destinations(s, 0)
    assert dests and all(d in neighbours(12) for d in dests)
    s = act(s, 0, "escape")
    if s.prompt and s.prompt["kind"] == "escape_to":
        assert len(keys(s, 0)) == len(dests) > 1
        s = act(s, 0, keys(s, 0)[0])
    assert s.heroes[0]["camped"] and s.heroes[0]["loc"] in dests and s.turn == 1


@pytest.mark.rule("ENG-10")
def test_escape_skips_locations_with_enemies_and_ignores_shortcuts():
    s = fight_setup()
    i = next(k for k, x in enumerate(s.map) if card(x["id"])["symbol"] and k != 12)
    partner = next(
        k
        for k, x in enumerate(s.map)
        if k != i and card(x["id"])["symbol"] == card(s.map[i]["id"])["symbol"]
    )
    T.place_hero(s, 0, i)
    T.place_encounter(s, "e.stone_ogre", i)
    enemies = iter(["e.mire_boar", "e.crag_harpy", "e.moss_troll", "e.dune_stalker"])
    for j in neighbours(i):
        T.place_encounter(s, next(enemies), j)
    dests = escape_destinations(s, 0)
    manhattan = [abs(d // 5 - i // 5) + abs(d % 5 - i % 5) for d in dests]
    assert dests and set(manhattan) == {2}
    if abs(partner // 5 - i // 5) + abs(partner % 5 - i % 5) > 2:
        assert partner not in dests


@pytest.mark.rule("ENG-11")
def test_a_surviving_foe_returns_to_full_health():
    s = fight_setup()
    T.dice(s, 6, 6, 1, 1, 1, 1, 1)
    T.begin_turn(s, 0)
    assert events(s, "skirmish")[-1]["foe_hp"] == 1
    s = act(s, 0, "escape")
    if s.prompt and s.prompt["kind"] == "escape_to":
        s = act(s, 0, keys(s, 0)[0])
    assert s.encounters["e.stone_ogre"]["hp"] is None
    T.place_hero(s, 1, 12)
    T.set_hero(s, 1, fate_day=s.day)
    T.dice(s, 1, 1, 1, 1)
    s = T.begin_turn(s, 1)
    assert events(s, "battle")[-1]["card"] == "e.stone_ogre"
    assert events(s, "skirmish")[-1]["foe_hp"] == card("e.stone_ogre")["health"]


def test_loc_helper_sanity():
    s = game()
    assert loc_index(s, "g.sprawl_city") == 12


@pytest.mark.rule("DAY-11", "DEED-4")
def test_a_resolve_deed_can_be_used_between_battle_rounds():
    s = fight_setup()
    T.give(s, 0, "l.tonic0", "loot")
    T.set_hero(s, 0, hp=4)
    T.dice(s, 1, 1, 1, 1, 6, 1, 1)
    T.begin_turn(s, 0)
    assert prompt(s) == (0, "engage_team") and "resolve:l.tonic0" in keys(s, 0)  # before it
    s = act(s, 0, "alone")
    assert prompt(s) == (0, "fate") and "resolve:l.tonic0" in keys(s, 0)  # after the roll
    s = act(s, 0, "accept")
    assert s.heroes[0]["hp"] == 3
    assert "resolve:l.tonic0" in keys(s, 0)
    s = act(s, 0, "resolve:l.tonic0")
    assert s.heroes[0]["hp"] == 4 and prompt(s) == (0, "escape")
    assert "resolve:l.tonic0" not in keys(s, 0)


@pytest.mark.rule("ENG-6", "ENG-7")
def test_the_view_states_the_engagement_foe_round_surprise_and_hp_on_both_sides():
    from games.kilforth.engine import view

    s = fight_setup(enc="e.stone_ogre")  # health 3
    T.dice(s, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    s = T.begin_turn(s, 0)
    assert prompt(s) == (0, "escape")
    e = view(s, 1)["engagement"]
    assert e["seat"] == 0 and e["foe"] == "e.stone_ogre" and e["round"] == 1
    assert e["foe_hp"] == 2 and e["foe_health"] == 3 and e["heroes_hp"] == {"0": s.heroes[0]["hp"]}
    s = act(s, 0, "escape")
    assert view(s, 1)["engagement"] is None

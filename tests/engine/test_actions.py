import pytest

from games.kilforth.engine import IllegalAction, act, legal
from games.kilforth.engine import testing as T
from games.kilforth.engine.events import name_people, person_ref
from games.kilforth.engine.rules.position import card, destinations, loc_index, neighbours

from .kit import alone, empty_hand, events, game, keys, loc_of_terrain, no_fate, prompt


def turn0(s):
    alone(no_fate(s))
    return T.begin_turn(s, 0)


@pytest.mark.rule("MOVE-1")
def test_a_hero_moves_orthogonally_or_along_a_shortcut_but_never_off_the_map():
    s = turn0(game())
    T.place_hero(s, 0, 0)
    T.refresh(s)
    moves = sorted(k for k in keys(s, 0) if k.startswith("move:"))
    sym = card(s.map[0]["id"])["symbol"]
    expected = {s.map[j]["id"] for j in neighbours(0)}
    if sym:
        expected |= {x["id"] for x in s.map[1:] if card(x["id"])["symbol"] == sym}
    assert moves == sorted(f"move:{x}" for x in expected)
    assert len(neighbours(0)) == 2  # a corner has only two neighbours


@pytest.mark.rule("MOVE-1")
def test_shortcut_symbols_link_distant_locations():
    s = game()
    pairs = [
        (i, j)
        for i in range(25)
        for j in range(25)
        if i != j
        and j not in neighbours(i)
        and card(s.map[i]["id"])["symbol"]
        and card(s.map[i]["id"])["symbol"] == card(s.map[j]["id"])["symbol"]
    ]
    assert pairs
    i, j = pairs[0]
    assert j in destinations(s, i)
    turn0(s)
    T.place_hero(s, 0, i)
    T.refresh(s)
    s = act(s, 0, f"move:{s.map[j]['id']}")
    assert s.heroes[0]["loc"] == j or events(s, "moved")[-1]["to"] == s.map[j]["id"]


@pytest.mark.rule("MOVE-2", "MOVE-4")
def test_arriving_at_an_empty_location_draws_an_encounter_of_its_terrain_and_engages_it():
    s = turn0(game())
    target = [j for j in neighbours(12) if card(s.map[j]["id"])["terrain"] != "none"][0]
    terrain = card(s.map[target]["id"])["terrain"]
    enemy = next(c for c in s.decks[terrain] if card(c)["type"] == "enemy")
    T.top(s, terrain, enemy)
    T.dice(s, *[1] * 12)
    s = act(s, 0, f"move:{s.map[target]['id']}")
    assert events(s, "encounter_drawn")[-1]["card"] == enemy
    assert events(s, "engage")[-1]["card"] == enemy
    assert events(s, "battle")[-1]["surprise"] == "foe"


@pytest.mark.rule("MOVE-2")
def test_arrival_applies_the_location_effect_first():
    s = turn0(game())
    fate_loc = next(x["id"] for x in s.map if card(x["id"])["arrive"])
    i = loc_index(s, fate_loc)
    T.place_hero(s, 0, neighbours(i)[0])
    T.refresh(s)
    fate = s.heroes[0]["fate"]
    s = act(s, 0, f"move:{fate_loc}")
    assert s.heroes[0]["fate"] == fate + 1


@pytest.mark.rule("MOVE-2")
def test_a_location_that_already_has_an_encounter_draws_no_new_one():
    s = turn0(game())
    j = [j for j in neighbours(12) if card(s.map[j]["id"])["terrain"] != "none"][0]
    T.place_encounter(s, "e.fungus_ring", j)
    drawn = len(events(s, "encounter_drawn"))
    s = act(s, 0, f"move:{s.map[j]['id']}")
    assert len(events(s, "encounter_drawn")) == drawn


@pytest.mark.rule("MOVE-3")
def test_the_centre_never_gets_an_encounter_by_arrival_or_search():
    s = turn0(game())
    T.place_hero(s, 0, neighbours(12)[0])
    T.refresh(s)
    s = act(s, 0, "move:g.sprawl_city")
    assert s.map[12]["enc"] == [] and not [e for e in events(s, "encounter_drawn")]
    s = T.begin_turn(s, 0)
    assert "search" not in keys(s, 0)


@pytest.mark.rule("MOVE-5")
def test_a_drawn_event_resolves_at_once_and_is_discarded():
    s = turn0(game())
    loc = loc_of_terrain(s, "mountain")
    T.place_hero(s, 0, loc)
    T.top(s, "mountain", "e.rockslide")
    T.refresh(s)
    s = act(s, 0, "search")
    assert "e.rockslide" in s.discards["mountain"]
    assert s.map[loc_index(s, loc)]["obstacles"] == 1
    assert s.heroes[0]["hp"] == 3


@pytest.mark.rule("MOVE-5", "DEED-5")
def test_heroes_cannot_team_against_an_event():
    s = game()
    loc = loc_of_terrain(s, "badlands")
    T.place_hero(s, 0, loc)
    T.place_hero(s, 1, loc)
    no_fate(s)
    T.begin_turn(s, 0)
    T.top(s, "badlands", "e.sandstorm")
    s = act(s, 0, "search")
    assert prompt(s) == (0, "card_choice")  # the active hero alone resolves it
    assert not [k for k in keys(s, 0) if k.startswith("team")]
    assert s.team == []


@pytest.mark.rule("CLEAR-1", "CLEAR-2")
def test_clearing_removes_one_obstacle_back_to_the_pool():
    s = turn0(game())
    loc = loc_of_terrain(s, "forest")
    T.place_hero(s, 0, loc)
    T.obstacle(s, loc, 2)
    T.place_plot(s, s.decks[f"plots:{s.ancients[0]['id']}"][-1], loc)
    T.refresh(s)
    assert "clear" in keys(s, 0)
    assert not [k for k in keys(s, 0) if k.startswith("clear:")]  # obstacle first
    s = act(s, 0, "clear")
    assert s.map[loc_index(s, loc)]["obstacles"] == 1


@pytest.mark.rule("CLEAR-1", "CLEAR-2", "LIM-4")
def test_a_plot_is_defeated_by_its_test_and_goes_to_hand_with_a_loot_token():
    s = turn0(game())
    loc = loc_of_terrain(s, "forest")
    pid = next(p for p in s.decks[f"plots:{s.ancients[0]['id']}"] if card(p)["attr"] == "fight")
    T.place_hero(s, 0, loc)
    T.place_plot(s, pid, loc)
    T.refresh(s)
    assert "search" in keys(s, 0)  # LIM-4: plots do not block search
    assert "clear" not in keys(s, 0) and f"clear:{pid}" in keys(s, 0)
    T.dice(s, 6, 6, 6, 6)
    loot = len(s.loot_bag)
    s = act(s, 0, f"clear:{pid}")
    assert pid in s.heroes[0]["hand"]
    assert len(s.loot_bag) == loot - 1
    assert s.map[loc_index(s, loc)]["plots"] == []


@pytest.mark.rule("CLEAR-1")
def test_clear_is_not_offered_without_an_obstacle_or_plot():
    s = turn0(game())
    assert not [k for k in keys(s, 0) if k.startswith("clear")]


@pytest.mark.rule("CLEAR-2")
def test_in_gloom_clearing_an_obstacle_gains_a_loot_token_and_in_shadows_not():
    for edition, gained in (("gloom", 1), ("shadows", 0)):
        s = turn0(game(edition=edition))
        T.obstacle(s, s.heroes[0]["loc"])
        T.refresh(s)
        n = len(s.heroes[0]["loot"])
        s = act(s, 0, "clear")
        assert s.map[s.heroes[0]["loc"]]["obstacles"] == 0
        assert len(s.heroes[0]["loot"]) == n + gained


@pytest.mark.rule("SEARCH-1")
def test_search_needs_no_encounter_and_no_obstacle_here():
    s = turn0(game())
    loc = loc_of_terrain(s, "plains")
    T.place_hero(s, 0, loc)
    T.refresh(s)
    assert "search" in keys(s, 0)
    T.obstacle(s, loc)
    T.refresh(s)
    assert "search" not in keys(s, 0)
    T.obstacle(s, loc, -1)
    T.place_encounter(s, "e.harvest_fair", loc)
    T.refresh(s)
    assert "search" not in keys(s, 0)


@pytest.mark.rule("HIDE-1")
def test_hiding_makes_the_hero_hidden_and_is_not_offered_twice():
    s = turn0(game())
    s = act(s, 0, "hide")
    assert s.heroes[0]["hidden"]
    s = T.begin_turn(s, 0)
    assert "hide" not in keys(s, 0)


@pytest.mark.rule("HIDE-2")
def test_a_hidden_hero_may_stop_hiding_off_turn_and_everyone_is_revealed_at_dawn():
    s = game()
    T.set_hero(s, 0, hidden=True)
    assert s.waiting_for == [1]
    assert "unhide" in keys(s, 0)
    s2 = act(s, 0, "unhide")
    assert not s2.heroes[0]["hidden"] and s.heroes[0]["hidden"]
    assert s2.waiting_for == [1]
    T.set_hero(s, 1, hidden=True)
    s = T.start_night(s)
    s = T.play_until(s, s.first, "turn")
    assert not any(h["hidden"] for h in s.heroes)


@pytest.mark.rule("HIDE-3", "CONF-4")
def test_a_hidden_hero_cannot_confront_a_stranger():
    s = turn0(game())
    T.place_encounter(s, "e.retired_knight", 12)
    T.refresh(s)
    assert "confront:e.retired_knight:influence" in keys(s, 0)
    T.set_hero(s, 0, hidden=True)
    T.refresh(s)
    assert not [k for k in keys(s, 0) if "retired_knight" in k]


@pytest.mark.rule("HIDE-3")
def test_a_hidden_hero_cannot_be_offered_a_team():
    s = game()
    T.set_hero(s, 0, hidden=True)
    T.refresh(s)
    assert "team:0" not in keys(s, 1)


@pytest.mark.rule("CONF-1", "CONF-2")
def test_confronting_accumulates_successes_until_the_value_is_reached():
    s = turn0(game())
    loc = loc_of_terrain(s, "forest")
    T.place_hero(s, 0, loc)
    T.place_encounter(s, "e.fungus_ring", loc)  # a place
    T.refresh(s)
    attrs = [k for k in keys(s, 0) if k.startswith("confront:e.fungus_ring")]
    assert attrs
    attr = "fight" if "confront:e.fungus_ring:fight" in attrs else attrs[0].split(":")[2]
    need = card("e.fungus_ring")[attr]
    from games.kilforth.engine.rules.position import attr_total

    T.dice(s, 5, *[1] * (attr_total(s, 0, attr) - 1))
    s = act(s, 0, f"confront:e.fungus_ring:{attr}")
    assert s.encounters["e.fungus_ring"]["progress"]["0"]["n"] == 1
    s = T.begin_turn(s, 0)
    # CONF-3: the same attribute must be used again
    assert [k for k in keys(s, 0) if k.startswith("confront:")] == [
        f"confront:e.fungus_ring:{attr}"
    ]
    T.dice(s, *[6] * 10)
    s = act(s, 0, f"confront:e.fungus_ring:{attr}")
    assert need <= 1 + 10
    assert "e.fungus_ring" not in s.encounters
    assert prompt(s) == (0, "loot_step")


@pytest.mark.rule("CONF-1")
def test_confront_needs_no_obstacle_and_a_quest_place_or_stranger():
    s = turn0(game())
    loc = loc_of_terrain(s, "forest")
    T.place_hero(s, 0, loc)
    T.place_encounter(s, "e.lost_lantern", loc)
    T.refresh(s)
    assert [k for k in keys(s, 0) if k.startswith("confront:")]
    T.obstacle(s, loc)
    T.refresh(s)
    assert not [k for k in keys(s, 0) if k.startswith("confront:")]


@pytest.mark.rule("CONF-3")
def test_confront_successes_are_lost_on_leaving_on_camp_and_when_another_hero_defeats_it():
    s = turn0(game())
    loc = loc_of_terrain(s, "forest")
    T.place_hero(s, 0, loc)
    T.place_encounter(s, "e.lost_lantern", loc)
    T.refresh(s)
    key = [k for k in keys(s, 0) if k.startswith("confront:")][0]
    from games.kilforth.engine.rules.position import attr_total

    T.dice(s, 6, *[1] * (attr_total(s, 0, key.split(":")[2]) - 1))
    s = act(s, 0, key)
    assert s.encounters["e.lost_lantern"]["progress"]["0"]["n"] == 1
    s = T.begin_turn(s, 0)
    s = T.make_camp(s, 0)
    assert s.encounters["e.lost_lantern"]["progress"] == {}
    # another hero's defeat of it removes everyone's successes with the card
    s.encounters["e.lost_lantern"]["progress"]["0"] = {"attr": key.split(":")[2], "n": 1}
    T.run_steps(s, {"k": "claim_reward", "seat": 1, "enc": "e.lost_lantern"})
    assert "e.lost_lantern" not in s.encounters


@pytest.mark.rule("CONF-4")
def test_strangers_can_only_be_tested_with_influence():
    s = turn0(game())
    T.place_encounter(s, "e.retired_knight", 12)
    T.refresh(s)
    assert [k for k in keys(s, 0) if k.startswith("confront:")] == [
        "confront:e.retired_knight:influence"
    ]


@pytest.mark.rule("CONF-5", "CONF-7", "ENG-2")
def test_zero_successes_against_a_stranger_make_it_that_heros_enemy_without_surprise():
    s = turn0(game())
    T.place_encounter(s, "e.retired_knight", 12, fresh=True)
    T.refresh(s)
    T.dice(s, 1, 1, 1, 1, 1, 1, 1, 1)
    tokens = s.heroes[0]["enemy_tokens"]
    s = act(s, 0, "confront:e.retired_knight:influence")
    assert s.encounters["e.retired_knight"]["enemies"] == [0]
    assert s.heroes[0]["enemy_tokens"] == tokens - 1
    battle = events(s, "battle")[-1]
    assert battle["card"] == "e.retired_knight" and battle["surprise"] is None
    # CONF-7: for the other hero it is still a stranger
    from games.kilforth.engine.rules.position import is_enemy_for

    assert is_enemy_for(s, "e.retired_knight", 0) and not is_enemy_for(s, "e.retired_knight", 1)


@pytest.mark.rule("CONF-6")
def test_a_hero_may_deliberately_make_a_stranger_its_enemy_and_engage_it_at_once():
    s = turn0(game())
    T.place_encounter(s, "e.goat_herder", 12)
    T.refresh(s)
    T.dice(s, *[1] * 12)
    s = act(s, 0, "enemy:e.goat_herder")
    assert s.encounters["e.goat_herder"]["enemies"] == [0]
    assert events(s, "battle")[-1]["surprise"] is None
    assert prompt(s) == (0, "escape")


@pytest.mark.rule("CONF-7")
def test_another_hero_can_still_confront_a_stranger_that_is_someone_elses_enemy():
    s = game()
    T.place_encounter(s, "e.goat_herder", 12, enemies=(0,))
    T.refresh(s)
    assert "confront:e.goat_herder:influence" in keys(s, 1)


@pytest.mark.rule("REST-1")
def test_rest_heals_one_hp_without_raising_ap_and_needs_no_encounter():
    s = turn0(game())
    T.set_hero(s, 0, hp=2, ap=2)
    T.refresh(s)
    s = act(s, 0, "rest")
    assert s.heroes[0]["hp"] == 3 and s.heroes[0]["ap"] == 1
    s = T.begin_turn(s, 0)
    T.place_encounter(s, "e.fungus_ring", 12)
    T.refresh(s)
    assert "rest" not in keys(s, 0)


@pytest.mark.rule("DISC-1")
def test_a_rumour_is_discovered_at_its_listed_location_and_becomes_an_asset():
    s = turn0(game())
    cid = "r.moonsilver_sabre"
    where = next(w for w in card(cid)["where"] if w.startswith("g."))
    T.give(s, 0, cid)
    T.refresh(s)
    assert f"discover:{cid}" not in keys(s, 0)
    T.place_hero(s, 0, where)
    T.refresh(s)
    s = act(s, 0, f"discover:{cid}")
    assert cid in s.heroes[0]["assets"] and cid not in s.heroes[0]["hand"]


@pytest.mark.rule("MKT-1")
def test_the_market_is_only_at_the_centre_or_a_market_location():
    s = turn0(game())
    assert "market" in keys(s, 0)
    T.place_hero(s, 0, loc_of_terrain(s, "forest"))
    T.refresh(s)
    assert "market" not in keys(s, 0)
    T.place_hero(s, 0, "g.tollbridge_market")
    T.refresh(s)
    assert "market" in keys(s, 0)


@pytest.mark.rule("MKT-1")
def test_market_operations_are_each_done_at_most_once_and_at_least_one_is_needed():
    s = turn0(game())
    T.set_hero(s, 0, gold=5, hp=3)
    T.refresh(s)
    s = act(s, 0, "market")
    assert "leave" not in keys(s, 0)
    s = act(s, 0, "sell")
    s = act(s, 0, keys(s, 0)[0])
    if "done" in keys(s, 0):
        s = act(s, 0, "done")
    assert "sell" not in keys(s, 0) and "leave" in keys(s, 0)


@pytest.mark.rule("MKT-2")
def test_heal_buys_hp_for_any_hero_here_at_one_gold_each():
    s = game()
    T.set_hero(s, 0, gold=3, hp=2)
    T.set_hero(s, 1, hp=3)
    no_fate(s)
    T.begin_turn(s, 0)
    s = act(s, 0, "market")
    s = act(s, 0, "heal")
    assert sorted(keys(s, 0)) == ["hp:0", "hp:1"]
    s = answer_all(s, 0, "hp:0", "hp:1", "done")
    assert s.heroes[0]["hp"] == 3 and s.heroes[1]["hp"] == 4 and s.heroes[0]["gold"] == 1


@pytest.mark.rule("MKT-2")
def test_healing_at_the_market_says_yourself_for_the_buyer_and_names_another_as_a_person():
    s = game()
    T.set_hero(s, 0, gold=3, hp=2)
    T.set_hero(s, 1, hp=3)
    no_fate(s)
    T.begin_turn(s, 0)
    s = answer_all(s, 0, "market", "heal")
    labels = {c.key: c for c in legal(s, 0)}
    assert labels["hp:0"].label == "Buy 1 HP for yourself (1 gold)"
    # The engine knows seats, not players' names: the board fills in the person.
    assert labels["hp:1"].label == f"Buy 1 HP for {person_ref(1)} (1 gold)"
    assert s.heroes[1]["name"] not in labels["hp:1"].label + labels["hp:1"].explain
    assert name_people(labels["hp:1"].label, {1: "Brenna"}.get) == "Buy 1 HP for Brenna (1 gold)"
    assert labels["hp:1"].data == {"verb": "buy_hp", "target": 1}


def answer_all(s, seat, *ks):
    for k in ks:
        s = act(s, seat, k)
    return s


@pytest.mark.rule("MKT-3")
def test_purchase_shows_three_cards_buys_exactly_one_affordable_and_discards_the_rest():
    s = turn0(game())
    T.set_hero(s, 0, gold=3)
    T.top(s, "item", "r.moonsilver_sabre", "r.tinderbox", "r.hooded_cloak")
    T.refresh(s)
    s = act(s, 0, "market")
    s = act(s, 0, "buy:item")
    assert sorted(keys(s, 0)) == ["buy:r.hooded_cloak", "buy:r.tinderbox"]  # sabre costs 5
    s = act(s, 0, "buy:r.tinderbox")
    assert "r.tinderbox" in s.heroes[0]["assets"] and s.heroes[0]["gold"] == 1
    assert {"r.moonsilver_sabre", "r.hooded_cloak"} <= set(s.discards["item"])


@pytest.mark.rule("MKT-4")
def test_selling_gives_half_the_gold_value_rounded_down():
    s = turn0(game())
    empty_hand(s, 0)
    T.set_hero(s, 0, gold=0)
    T.give(s, 0, "r.moonsilver_sabre", "assets")  # gold 5
    T.give(s, 0, "r.hooded_cloak")  # gold 3, as a rumour
    T.refresh(s)
    s = act(s, 0, "market")
    s = act(s, 0, "sell")
    s = answer_all(s, 0, "sell:r.moonsilver_sabre", "sell:r.hooded_cloak")
    assert s.heroes[0]["gold"] == 2 + 1
    assert s.heroes[0]["assets"] == [] and s.heroes[0]["hand"] == []


@pytest.mark.rule("REG-1", "REG-2", "SAGA-1")
def test_a_chapter_is_regaled_anywhere_but_only_once_per_daylight():
    s = turn0(game())
    T.set_hero(s, 0, gold=10)
    T.give(s, 0, "e.stone_ogre")
    T.give(s, 0, "e.moss_troll")
    T.place_hero(s, 0, loc_of_terrain(s, "badlands"))
    T.refresh(s)
    s = act(s, 0, "regale")
    assert prompt(s) == (0, "keyword")
    s = act(s, 0, "rumour:e.stone_ogre")
    s = act(s, 0, "noskill")
    assert s.heroes[0]["chapter"] == 2 and s.heroes[0]["gold"] == 5
    s = T.begin_turn(s, 0)
    T.set_hero(s, 0, chapter=1)  # even with the same chapter again, not twice in one day
    T.refresh(s)
    assert "regale" not in keys(s, 0)
    with pytest.raises(IllegalAction):
        act(s, 0, "regale")


@pytest.mark.rule("HIDE-2")
def test_a_hidden_hero_may_stop_hiding_in_the_middle_of_its_own_other_decisions():
    s = turn0(game())
    T.set_hero(s, 0, hidden=True)
    T.refresh(s)
    s = act(s, 0, "market")
    assert prompt(s)[1] == "market" and "unhide" in keys(s, 0)
    s = act(s, 0, "unhide")
    assert not s.heroes[0]["hidden"] and prompt(s)[1] == "market"


@pytest.mark.rule("HIDE-2")
def test_stopping_hiding_off_turn_rebuilds_the_active_heros_menu():
    s = game()
    T.set_hero(s, 0, hidden=True)
    T.refresh(s)
    assert "team:0" not in keys(s, 1)
    s = act(s, 0, "unhide")
    assert "team:0" in keys(s, 1)


@pytest.mark.rule("MOVE-5", "ENG-9")
def test_an_event_that_defeats_the_active_hero_is_still_discarded():
    s = turn0(game())
    loc = loc_of_terrain(s, "mountain")
    T.place_hero(s, 0, loc)
    T.set_hero(s, 0, hp=1)
    T.top(s, "mountain", "e.rockslide")
    T.refresh(s)
    s = act(s, 0, "search")
    assert s.heroes[0]["defeated"] and s.heroes[0]["loc"] == 12
    assert "e.rockslide" in s.discards["mountain"] and s.limbo == []

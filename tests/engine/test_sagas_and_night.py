import pytest

from games.kilforth.engine import act
from games.kilforth.engine import testing as T
from games.kilforth.engine.rules.position import attr_total, card, loc_index

from .kit import alone, empty_hand, events, game, keys, no_fate, prompt


def regale_ready(chapter=1, gold=10, heroes=2, **kw):
    s = game(heroes=heroes, **kw)
    alone(no_fate(s))
    empty_hand(s, 0)
    T.set_hero(s, 0, chapter=chapter, gold=gold)
    return s


@pytest.mark.rule("SAGA-1", "SAGA-3")
def test_a_chapter_costs_5_gold_and_a_rumour_per_keyword_with_types_counting_as_keywords():
    s = regale_ready(chapter=1, gold=5)
    T.begin_turn(s, 0)
    assert "regale" not in keys(s, 0)  # no card with the keyword "enemy"
    T.give(s, 0, "e.moss_troll")  # an enemy encounter kept as a rumour
    T.refresh(s)
    s = act(s, 0, "regale")
    assert s.heroes[0]["gold"] == 0
    assert keys(s, 0) == ["rumour:e.moss_troll"]
    s = act(s, 0, "rumour:e.moss_troll")
    assert "e.moss_troll" in s.discards["forest"]


@pytest.mark.rule("SAGA-1")
def test_an_asset_bearing_the_keyword_may_be_kept_or_sacrificed_for_its_gold():
    s = regale_ready(chapter=2, gold=5)  # Great Feast Hall chapter 2: "item"
    T.give(s, 0, "r.moonsilver_sabre", "assets")
    T.begin_turn(s, 0)
    s = act(s, 0, "regale")
    assert sorted(keys(s, 0)) == ["keep:r.moonsilver_sabre", "sac:r.moonsilver_sabre"]
    kept = act(s, 0, "keep:r.moonsilver_sabre")
    assert "r.moonsilver_sabre" in kept.heroes[0]["assets"] and kept.heroes[0]["chapter"] == 3
    sac = act(s, 0, "sac:r.moonsilver_sabre")
    assert sac.heroes[0]["assets"] == [] and sac.heroes[0]["gold"] == 5
    assert sac.heroes[0]["chapter"] == 3


@pytest.mark.rule("SAGA-2", "OPT-4")
def test_the_chapter_cost_variant_charges_twice_the_chapter_number():
    s = regale_ready(chapter=1, gold=2, chapter_cost_2x=True)
    T.give(s, 0, "e.moss_troll")
    T.begin_turn(s, 0)
    s = act(s, 0, "regale")
    assert s.heroes[0]["gold"] == 0
    s2 = regale_ready(chapter=1, gold=2)
    T.give(s2, 0, "e.moss_troll")
    T.begin_turn(s2, 0)
    assert "regale" not in keys(s2, 0)


@pytest.mark.rule("SAGA-3")
def test_keywords_marked_for_1_2_players_are_required_only_with_that_many_heroes():
    # Great Feast Hall chapter 3 needs "title" and "fire", plus "place" with 1-2 heroes.
    for heroes, offered in ((2, False), (3, True)):
        s = regale_ready(chapter=3, heroes=heroes)
        T.give(s, 0, "r.flamebearer")  # a title bearing "fire"
        T.give(s, 0, "r.tinderbox")  # an item bearing "fire"
        T.begin_turn(s, 0)
        assert ("regale" in keys(s, 0)) is offered
        if offered:
            s = act(s, 0, "regale")
            assert s.prompt["keyword"] == "title"
    s = regale_ready(chapter=3, heroes=2)
    for c in ("r.flamebearer", "r.tinderbox", "e.fungus_ring"):  # a place encounter
        T.give(s, 0, c)
    T.begin_turn(s, 0)
    s = act(s, 0, "regale")
    while s.prompt["kind"] == "keyword":
        s = act(s, 0, keys(s, 0)[0])
    assert s.heroes[0]["chapter"] == 4 and s.heroes[0]["hand"] == []


@pytest.mark.rule("SAGA-4", "SET-4")
def test_completing_a_chapter_raises_max_hp_and_hp_offers_a_skill_and_advances():
    s = regale_ready(chapter=1)
    T.set_hero(s, 0, hp=3)
    T.give(s, 0, "e.moss_troll")
    T.begin_turn(s, 0)
    s = act(s, 0, "regale")
    s = act(s, 0, "rumour:e.moss_troll")
    h = s.heroes[0]
    assert (h["max_hp"], h["hp"], h["chapter"]) == (5, 4, 2)
    assert prompt(s) == (0, "skill")
    skill = next(k for k in keys(s, 0) if k.startswith("skill:"))
    s = act(s, 0, skill)
    assert s.heroes[0]["skills"] == [skill.split(":", 1)[1]]


@pytest.mark.rule("SAGA-4")
def test_after_chapter_4_the_finale_becomes_current():
    s = regale_ready(chapter=4)
    T.give(s, 0, "e.retired_knight")
    T.give(s, 0, "r.warhorse")
    T.begin_turn(s, 0)
    s = act(s, 0, "regale")
    while s.prompt["kind"] == "keyword":
        s = act(s, 0, keys(s, 0)[0])
    assert s.heroes[0]["chapter"] == 5 and s.heroes[0]["ch4_day"] == s.day


@pytest.mark.rule("SAGA-5")
def test_completing_chapter_3_lets_heroes_without_chapter_1_complete_it_for_free():
    s = regale_ready(chapter=3, heroes=3)
    for c in ("r.flamebearer", "r.tinderbox"):
        T.give(s, 0, c)
    T.begin_turn(s, 0)
    s = act(s, 0, "regale")
    while s.prompt["seat"] == 0 and s.prompt["kind"] in ("keyword", "skill"):
        s = act(s, 0, keys(s, 0)[0])
    assert s.heroes[0]["chapter"] == 4
    assert prompt(s) == (1, "catch_up")
    gold = s.heroes[1]["gold"]
    s = act(s, 1, "complete")
    if s.prompt and s.prompt["kind"] == "skill":
        s = act(s, 1, "noskill")
    assert s.heroes[1]["chapter"] == 2 and s.heroes[1]["gold"] == gold
    assert prompt(s) == (2, "catch_up")


@pytest.mark.rule("SAGA-5")
def test_there_is_no_catch_up_in_cooperative_games():
    s = regale_ready(chapter=3, heroes=3, mode="cooperative")
    for c in ("r.flamebearer", "r.tinderbox"):
        T.give(s, 0, c)
    T.begin_turn(s, 0)
    s = act(s, 0, "regale")
    s = T.play_until(s, 1, "turn")
    assert not any(e["kind"] == "catch_up" for e in events(s, "prompt"))


@pytest.mark.rule("SAGA-6")
def test_a_finale_cannot_be_attempted_on_the_day_chapter_4_was_completed():
    s = regale_ready(chapter=5)
    fin = next(w for w in card(s.heroes[0]["saga"])["finale"]["where"] if w.startswith("g."))
    T.place_hero(s, 0, fin)
    T.set_hero(s, 0, ch4_day=s.day)
    T.begin_turn(s, 0)
    assert "regale" not in keys(s, 0)
    T.set_hero(s, 0, ch4_day=s.day - 1)
    T.refresh(s)
    assert "regale" in keys(s, 0)


@pytest.mark.rule("SAGA-6")
def test_finale_successes_are_lost_on_leaving_the_location():
    s = regale_ready(chapter=5)
    fin = next(w for w in card(s.heroes[0]["saga"])["finale"]["where"] if w.startswith("g."))
    T.place_hero(s, 0, fin)
    T.begin_turn(s, 0)
    T.dice(s, 6, 6, 1, 1)
    s = act(s, 0, "regale")
    assert s.heroes[0]["saga_progress"]["n"] == 2
    s = T.begin_turn(s, 0)
    move = next(k for k in keys(s, 0) if k.startswith("move:"))
    s = act(s, 0, move)
    assert s.heroes[0]["saga_progress"]["n"] == 0


@pytest.mark.rule("SAGA-8", "OPT-1")
def test_a_shadows_interlude_is_tested_at_its_location_and_then_paid_for():
    s = regale_ready(chapter=2, gold=6, edition="shadows")
    il = card(s.heroes[0]["saga"])["chapters"][1]["interlude"]
    T.give(s, 0, "r.tinderbox")  # keyword fire for 1-2 players
    T.begin_turn(s, 0)
    assert "regale" not in keys(s, 0)  # not at the location
    T.place_hero(s, 0, il["where"][0])
    T.refresh(s)
    assert "regale" in keys(s, 0)
    T.dice(s, *[6] * attr_total(s, 0, il["attr"]))
    s = act(s, 0, "regale")
    assert s.heroes[0]["gold"] == 1
    assert keys(s, 0) == ["rumour:r.tinderbox"]
    s = act(s, 0, "rumour:r.tinderbox")
    h = s.heroes[0]
    assert h["chapter"] == 3 and h["max_hp"] == 5 and h["hp"] == 4
    assert prompt(s) == (0, "skill")
    assert all(card(k.split(":", 1)[1])["level"] == 2 for k in keys(s, 0) if ":" in k)


@pytest.mark.rule("SAGA-8")
def test_an_interlude_cannot_be_attempted_on_a_day_another_chapter_was_completed():
    s = regale_ready(chapter=2, gold=6, edition="shadows")
    il = card(s.heroes[0]["saga"])["chapters"][1]["interlude"]
    T.give(s, 0, "r.tinderbox")
    T.place_hero(s, 0, il["where"][0])
    T.set_hero(s, 0, chapter_day=s.day)
    T.begin_turn(s, 0)
    assert "regale" not in keys(s, 0)


@pytest.mark.rule("SAGA-8")
def test_gloom_edition_plays_interlude_chapters_as_ordinary_chapters():
    s = regale_ready(chapter=2, gold=6, edition="gloom")
    T.give(s, 0, "r.tinderbox")
    T.begin_turn(s, 0)
    assert "regale" in keys(s, 0)
    s = act(s, 0, "regale")
    assert prompt(s) == (0, "keyword")


# ------------------------------------------------------------------------------ night


@pytest.mark.rule("NIGHT-1")
def test_in_shadows_heroes_on_gloom_locations_lose_hp_equal_to_the_gloom_value():
    s = game(edition="shadows")
    loc = next(x for x in s.map if card(x["id"])["gloom"] == 2)
    loc["gloom"] = True
    T.place_hero(s, 0, loc["id"])
    T.top(s, "night", next(c for c in s.decks["night"] if card(c)["type"] == "place"))
    s = T.start_night(s)
    assert events(s, "hp_lost")[0]["n"] == 2 and events(s, "hp_lost")[0]["seat"] == 0


@pytest.mark.rule("NIGHT-1")
def test_in_gloom_heroes_on_gloom_locations_lose_1_hp_whatever_the_shield_value():
    s = game()
    loc = next(x for x in s.map if card(x["id"])["gloom"] == 2)
    loc["gloom"] = True
    T.place_hero(s, 0, loc["id"])
    T.top(s, "night", next(c for c in s.decks["night"] if card(c)["type"] == "place"))
    s = T.start_night(s)
    assert events(s, "hp_lost")[0]["n"] == 1 and events(s, "hp_lost")[0]["seat"] == 0


@pytest.mark.rule("NIGHT-1")
def test_dark_pinnacle_in_gloom_heals_and_draws_an_extra_night_card_instead():
    s = game(edition="shadows")
    T.gloom(s, "s.dark_pinnacle")
    T.place_hero(s, 0, "s.dark_pinnacle")
    T.set_hero(s, 0, hp=1)
    n = len(s.decks["night"])
    s = T.start_night(s)
    s = T.play_until(s, s.first, "turn")
    assert s.heroes[0]["hp"] == 4
    assert len(events(s, "night_card")) == 2 and n - len(s.decks["night"]) == 2


@pytest.mark.rule("NIGHT-2")
def test_the_first_hero_draws_a_night_card_and_its_location_falls_into_gloom():
    s = game()
    cid = s.decks["night"][-1]
    s = T.start_night(s)
    assert events(s, "night_card")[0]["card"] == cid
    assert s.map[loc_index(s, card(cid)["location"])]["gloom"]


@pytest.mark.rule("NIGHT-3")
def test_weather_replaces_the_previous_weather_and_applies_everywhere_including_the_centre():
    s = game()
    fog = "g.night.creeping_fog"  # +1 sneak, -1 fight
    T.set_weather(s, "g.night.clear_skies")
    T.top(s, "night", fog)
    fight = attr_total(s, 0, "fight")
    s = T.start_night(s)
    assert s.weather == fog and "g.night.clear_skies" in s.discards["night"]
    assert s.heroes[0]["loc"] == 12 and attr_total(s, 0, "fight") == fight - 1


@pytest.mark.rule("NIGHT-4")
def test_an_encounter_night_card_goes_into_play_at_its_named_location():
    s = game()
    cid = next(c for c in s.decks["night"] if card(c)["type"] == "enemy")
    T.top(s, "night", cid)
    s = T.start_night(s)
    assert cid in s.map[loc_index(s, card(cid)["location"])]["enc"]


@pytest.mark.rule("NIGHT-5")
def test_a_night_event_resolves_with_the_first_hero_choosing_and_is_discarded():
    s = game()
    cid = "g.night.omen_of_crows"
    T.top(s, "night", cid)
    s = T.start_night(s)
    assert prompt(s) == (s.first, "card_choice")
    s = act(s, s.first, "opt1")
    assert cid in s.discards["night"]


@pytest.mark.rule("NIGHT-7")
def test_dawn_clears_successes_hiding_defeat_and_veils():
    s = game()
    T.place_encounter(s, "e.fungus_ring", 3)
    s.encounters["e.fungus_ring"]["progress"]["0"] = {"attr": "fight", "n": 2}
    T.set_hero(s, 0, hidden=True, veiled=["x"])
    T.set_hero(s, 1, defeated=True, hp=0)
    T.top(s, "night", next(c for c in s.decks["night"] if card(c)["type"] == "quest"))
    s = T.start_night(s)
    assert s.encounters["e.fungus_ring"]["progress"] == {}
    assert not s.heroes[0]["hidden"] and s.heroes[0]["veiled"] == []
    assert not s.heroes[1]["defeated"] and s.heroes[1]["hp"] == 2


@pytest.mark.rule("NIGHT-8", "ENG-9")
def test_a_hero_defeated_by_gloom_goes_to_the_centre_with_the_defeat_losses():
    s = game()
    loc = next(x for x in s.map if card(x["id"])["gloom"] == 2)
    loc["gloom"] = True
    T.place_hero(s, 0, loc["id"])
    T.set_hero(s, 0, hp=1, gold=4)
    T.top(s, "night", next(c for c in s.decks["night"] if card(c)["type"] == "quest"))
    s = T.start_night(s)
    assert s.heroes[0]["loc"] == 12 and s.heroes[0]["gold"] == 0
    assert events(s, "hero_defeated")[-1]["seat"] == 0


@pytest.mark.rule("NIGHT-8")
def test_a_hero_defeated_by_weather_goes_to_the_centre():
    s = game()
    T.set_weather(s, "g.night.biting_frost")  # every hero loses 1 HP each night
    T.place_hero(s, 1, 3)
    T.set_hero(s, 1, hp=1)
    T.top(s, "night", next(c for c in s.decks["night"] if card(c)["type"] == "quest"))
    s = T.start_night(s)
    assert s.heroes[1]["loc"] == 12 and events(s, "hero_defeated")[-1]["seat"] == 1


@pytest.mark.rule("NIGHT-5", "ANC-6")
def test_if_the_first_hero_was_eliminated_the_next_hero_clockwise_makes_night_choices():
    s = game(heroes=3)
    s.first = 1
    T.run_steps(s, {"k": "eliminate", "seat": 1})
    T.top(s, "night", "g.night.omen_of_crows")
    s = T.start_night(s)
    assert prompt(s) == (2, "card_choice")

import pytest

from games.kilforth.engine import IllegalAction, act, legal
from games.kilforth.engine import testing as T
from games.kilforth.engine.rules.position import card

from .kit import alone, events, game, keys, no_fate, prompt


def camp_all(s):
    day = s.day
    while s.day == day and s.phase == "daylight" and s.prompt and s.prompt["kind"] == "turn":
        s = T.make_camp(s, s.prompt["seat"])
    return s


@pytest.mark.rule("DAY-1", "DAY-8")
def test_when_every_hero_has_made_camp_night_falls_and_a_new_day_begins():
    s = game(heroes=2)
    assert s.day == 1 and s.phase == "daylight"
    s = T.make_camp(s, 1)
    assert s.phase == "daylight" and s.waiting_for == [0]
    s = T.make_camp(s, 0)
    assert events(s, "night")
    s = T.play_until(s, s.first, "turn")
    order = [e["e"] for e in s.log]
    assert order.index("night") < order.index("night_card") < order.index("dawn")
    assert s.day == 2 and s.phase == "daylight"


@pytest.mark.rule("DAY-6")
def test_making_camp_with_ap_left_asks_first_and_going_back_keeps_the_turn():
    s = game(heroes=2)
    ap = s.heroes[1]["ap"]
    asked = act(s, 1, "camp")
    assert prompt(asked) == (1, "camp_confirm")
    assert asked.prompt["text"] == f"Make camp with {ap} AP unused?"
    assert not asked.heroes[1]["camped"] and asked.heroes[1]["ap"] == ap
    assert {c.data["verb"] for c in legal(asked, 1)} == {"confirm", "back"}
    back = act(asked, 1, "back")
    assert prompt(back) == (1, "turn") and back.heroes[1]["ap"] == ap
    assert "camp" in keys(back, 1)
    camped = act(asked, 1, "confirm")
    assert camped.heroes[1]["camped"] and camped.heroes[1]["ap"] == 0
    assert camped.waiting_for == [0]


@pytest.mark.rule("DAY-2")
def test_breaking_camp_sets_ap_to_current_hp():
    s = game(heroes=2)
    T.set_hero(s, 0, hp=2)
    T.set_hero(s, 1, hp=3)
    s = camp_all(s)
    s = T.play_until(s, 1, "turn")
    assert s.day == 2
    assert s.heroes[0]["ap"] == s.heroes[0]["hp"] and s.heroes[1]["ap"] == s.heroes[1]["hp"]
    assert s.heroes[0]["hp"] <= 2


@pytest.mark.rule("DAY-3")
def test_heroes_take_one_action_per_turn_clockwise_from_the_first_hero():
    s = game(heroes=3)
    assert s.turn == 1
    s = act(s, 1, "hide")
    assert s.turn == 2 and s.heroes[1]["ap"] == 3
    s = act(s, 2, "hide")
    assert s.turn == 0
    s = act(s, 0, "hide")
    assert s.turn == 1


@pytest.mark.rule("DAY-4", "ENG-1")
def test_at_the_start_of_its_turn_a_hero_engages_an_enemy_before_anything_else():
    s = game(heroes=2)
    T.place_encounter(s, "e.mire_boar", 12)
    alone(no_fate(s))
    T.dice(s, 1, 1, 1, 1, 1, 1)
    T.begin_turn(s, 0)
    assert events(s, "engage")[-1]["card"] == "e.mire_boar"
    assert prompt(s) == (0, "escape")  # nobody fell: fight on or escape; no turn menu yet


@pytest.mark.rule("DAY-4")
def test_the_hero_chooses_the_order_of_engaging_several_enemies():
    s = game(heroes=1, mode="solo")
    T.place_encounter(s, "e.mire_boar", 12)
    T.place_encounter(s, "e.glass_scorpion", 12)
    no_fate(s)
    T.begin_turn(s, 0)
    assert prompt(s) == (0, "engage_order")
    assert sorted(keys(s, 0)) == ["engage:e.glass_scorpion", "engage:e.mire_boar"]
    T.dice(s, 6, 6, 6, 6, 1, 1)
    s = act(s, 0, "engage:e.glass_scorpion")
    assert events(s, "engage")[0]["card"] == "e.glass_scorpion"


@pytest.mark.rule("DAY-5", "SEARCH-1", "MOVE-4")
def test_after_an_action_the_hero_engages_enemies_at_its_location():
    s = game(heroes=2)
    loc = next(
        x["id"]
        for x in s.map
        if x["id"] != "g.sprawl_city" and T.content().cards[x["id"]]["terrain"] == "plains"
    )
    T.place_hero(s, 0, loc)
    T.top(s, "plains", "e.mire_boar")
    no_fate(s)
    T.begin_turn(s, 0)
    T.dice(s, 1, 1, 1, 1, 1, 1, 1)
    s = act(s, 0, "search")
    assert events(s, "encounter_drawn")[-1]["card"] == "e.mire_boar"
    assert events(s, "engage")[-1]["card"] == "e.mire_boar"


@pytest.mark.rule("DAY-6")
def test_making_camp_discards_ap_and_the_hero_takes_no_more_turns():
    s = game(heroes=2)
    s = T.make_camp(s, 1)
    assert s.heroes[1]["ap"] == 0 and s.heroes[1]["camped"]
    s = act(s, 0, "hide")
    assert s.turn == 0  # seat 1 is skipped
    assert "camp" in keys(s, 0)


@pytest.mark.rule("DAY-6")
def test_a_hero_with_zero_ap_must_make_camp():
    s = game(heroes=2)
    T.set_hero(s, 0, ap=0)
    T.begin_turn(s, 0)
    assert s.heroes[0]["camped"]
    assert s.turn == 1


@pytest.mark.rule("DAY-7")
def test_in_shadows_the_first_hero_to_make_camp_takes_the_first_hero_marker_at_once():
    s = game(edition="shadows", heroes=3)
    s = act(s, 1, "hide")
    s = T.make_camp(s, 2)
    assert s.first == 2
    s = T.make_camp(s, 0)
    assert s.first == 2
    s = T.make_camp(s, 1)
    s = T.play_until(s, 2, "turn")
    assert s.day == 2 and s.turn == 2


@pytest.mark.rule("DAY-7")
def test_in_gloom_the_marker_passes_at_dawn_so_the_days_first_hero_makes_the_night_choices():
    s = game(heroes=3)
    assert s.first == 1  # this seed: seat 1, then 2, then 0
    s = act(s, 1, "hide")
    s = T.make_camp(s, 2)
    assert s.first == 1
    event = next(c for c in s.decks["night"] if card(c)["type"] == "event")
    T.top(s, "night", event)
    s = T.make_camp(s, 0)
    s = T.make_camp(s, 1)
    if s.prompt is not None and s.phase == "night":
        assert s.prompt["seat"] == 1  # the night's choices: still the day's first hero
    s = T.play_until(s, 2, "turn")
    assert s.day == 2 and s.turn == 2 and s.first == 2
    order = [e["e"] for e in s.log if e["e"] in ("dawn", "first_hero")]
    assert order[-2:] == ["dawn", "first_hero"]


@pytest.mark.rule("DAY-9")
def test_losing_hp_also_loses_that_much_ap():
    s = game(heroes=2)
    T.set_hero(s, 0, hp=4, ap=3)
    T.run_steps(s, {"k": "lose_hp", "seat": 0, "n": 2})
    assert s.heroes[0]["hp"] == 2 and s.heroes[0]["ap"] == 1
    T.run_steps(s, {"k": "lose_hp", "seat": 0, "n": 1})
    T.set_hero(s, 0, ap=0)
    T.run_steps(s, {"k": "lose_hp", "seat": 0, "n": 1})
    assert s.heroes[0]["ap"] == 0


@pytest.mark.rule("DAY-10")
def test_an_action_whose_restriction_is_not_met_is_not_offered_and_is_refused():
    s = game(heroes=2)
    assert "rest" not in keys(s, 1)  # full HP
    with pytest.raises(IllegalAction) as err:
        act(s, 1, "rest")
    assert "not one of your options" in err.value.reason
    before = s.to_json()
    with pytest.raises(IllegalAction):
        act(s, 0, "hide")  # not seat 0's decision
    assert s.to_json() == before


@pytest.mark.rule("DAY-11", "HIDE-3")
def test_deeds_are_offered_on_the_own_turn_but_not_while_hidden():
    s = game(heroes=2)
    assert "team:0" in keys(s, 1) and "give:0:gold" in keys(s, 1)
    T.set_hero(s, 1, hidden=True)
    T.refresh(s)
    assert not [k for k in keys(s, 1) if k.startswith(("team:", "give:"))]
    assert "unhide" in keys(s, 1)


@pytest.mark.rule("DAY-11", "DEED-5")
def test_a_deed_can_be_taken_inside_an_engagement_before_the_battle():
    s = game(heroes=2)
    T.place_encounter(s, "e.mire_boar", 12)
    T.begin_turn(s, 0)
    assert prompt(s) == (0, "engage_team")
    assert "team:1" in keys(s, 0)

import pytest

from games.kilforth.engine import Settings, act, legal, new_game, view
from games.kilforth.engine import testing as T
from games.kilforth.engine.cards.catalogue import content
from games.kilforth.engine.rules.position import card

from .kit import CHOICES, game, keys


@pytest.mark.rule("SET-1", "OPT-1")
def test_the_gloom_map_is_5_by_5_with_sprawl_city_in_the_centre():
    s = game("gloom")
    assert len(s.map) == 25
    assert s.map[12]["id"] == "g.sprawl_city"
    assert not any(loc["gloom"] for loc in s.map)  # colour side up, no pre-draw in Gloom
    assert {card(loc["id"])["terrain"] for loc in s.map} == {
        "badlands",
        "forest",
        "mountain",
        "plains",
        "none",
    }


@pytest.mark.rule("SET-1", "OPT-1", "OPT-3")
def test_the_shadows_centre_is_moneshoba_shrine_or_couch_of_death_on_harder():
    assert game("shadows").map[12]["id"] == "s.moneshoba_shrine"
    assert game("shadows", difficulty="harder").map[12]["id"] == "s.couch_of_death"
    assert game("shadows", difficulty="harder", harder_couch=False).map[12]["id"] == (
        "s.moneshoba_shrine"
    )


@pytest.mark.rule("SET-1")
def test_setup_is_deterministic_per_seed_and_differs_between_seeds():
    a = new_game(Settings(heroes=3), 42)
    b = new_game(Settings(heroes=3), 42)
    c = new_game(Settings(heroes=3), 43)
    assert a == b
    assert [x["id"] for x in a.map] != [x["id"] for x in c.map]


@pytest.mark.rule("SET-2")
def test_heroes_get_their_chosen_race_and_class_and_the_female_side_is_cosmetic():
    s = game(heroes=2)
    assert s.heroes[0]["race"] == "race.fellmark_dwarf"
    assert s.heroes[1]["class"] == "class.yakuza"
    assert s.heroes[1]["name"].startswith("Ratling Matron")  # female side name
    assert s.heroes[0]["name"].startswith("Ratling") is False


@pytest.mark.rule("SET-2")
def test_random_heroes_get_distinct_races_and_classes():
    s = new_game(Settings(heroes=4), 5)
    assert len({h["race"] for h in s.heroes}) == 4
    assert len({h["class"] for h in s.heroes}) == 4


@pytest.mark.rule("SET-3", "OPT-5")
def test_matched_saga_allocation_gives_each_class_its_recommended_saga():
    s = game(heroes=4)
    sagas = {h["class"]: h["saga"] for h in s.heroes}
    assert sagas["class.samurai"] == "saga.great_feast_hall"
    assert sagas["class.yakuza"] == "saga.farmers_daughter"
    assert sagas["class.sorcerer"] == "saga.recover_heirloom"
    assert sagas["class.chevalier"] == "saga.capture_lawbreaker"
    assert all(h["chapter"] == 1 for h in s.heroes)


@pytest.mark.rule("SET-3", "OPT-5")
def test_random_saga_allocation_deals_distinct_sagas_and_varies_with_the_seed():
    seen = set()
    for seed in range(8):
        s = T.scenario(heroes=4, seed=seed, saga_allocation="random", choices=CHOICES)
        assert len({h["saga"] for h in s.heroes}) == 4
        seen.add(tuple(h["saga"] for h in s.heroes))
    assert len(seen) > 1


@pytest.mark.rule("SET-4")
def test_skills_offered_come_only_from_the_class_skill_types():
    s = game(heroes=2)
    T.set_hero(s, 0, gold=10)
    T.give(s, 0, "e.stone_ogre")  # an enemy rumour pays Great Feast Hall chapter 1 ("enemy")
    T.begin_turn(s, 0)
    s = act(s, 0, "regale")
    s = act(s, 0, "rumour:e.stone_ogre")
    assert s.prompt["kind"] == "skill"
    offered = [k.split(":", 1)[1] for k in keys(s, 0) if k.startswith("skill:")]
    assert offered and all(card(x)["type"] == "martial" and card(x)["level"] == 1 for x in offered)


@pytest.mark.rule("SET-5")
@pytest.mark.parametrize(
    ("heroes", "difficulty", "drawn"),
    [
        (1, "standard", 2),
        (2, "standard", 3),
        (3, "standard", 4),
        (4, "standard", 5),
        (2, "harder", 4),
        (2, "easier", 2),
    ],
)
def test_shadows_pre_draws_night_cards_by_hero_count_and_difficulty(heroes, difficulty, drawn):
    mode = "solo" if heroes == 1 else "competitive"
    s = new_game(Settings(edition="shadows", mode=mode, heroes=heroes, difficulty=difficulty), 3)
    assert len(s.discards["night"]) == drawn
    named = {card(c)["location"] for c in s.discards["night"]}
    gloomed = {loc["id"] for loc in s.map if loc["gloom"]}
    assert gloomed == named
    assert len(s.decks["night"]) == len(content().night("shadows")) - drawn


@pytest.mark.rule("SET-5")
def test_gloom_edition_shuffles_the_night_deck_without_a_pre_draw():
    a, b = new_game(Settings(), 1), new_game(Settings(), 2)
    assert a.discards["night"] == []
    assert len(a.decks["night"]) == len(content().night("gloom"))
    assert a.decks["night"] != b.decks["night"]


@pytest.mark.rule("SET-6")
def test_encounters_form_four_shuffled_terrain_decks():
    a, b = new_game(Settings(), 1), new_game(Settings(), 2)
    for t in ("badlands", "forest", "mountain", "plains"):
        assert a.decks[t] and all(card(c)["terrain"] == t for c in a.decks[t])
        assert sorted(a.decks[t]) == sorted(b.decks[t])
    assert any(a.decks[t] != b.decks[t] for t in ("badlands", "forest"))


@pytest.mark.rule("SET-7")
def test_rewards_form_four_shuffled_decks():
    s = new_game(Settings(), 1)
    for d in ("spell", "title", "item", "ally"):
        assert s.decks[d] and all(card(c)["deck"] == d for c in s.decks[d])


@pytest.mark.rule("SET-8")
def test_each_hero_picks_a_reward_deck_keeps_one_of_two_and_shuffles_the_other_back():
    s = new_game(Settings(heroes=2, choices=CHOICES[:2]), 9)
    assert s.waiting_for == [0] and s.prompt["kind"] == "set8_deck"
    assert sorted(keys(s, 0)) == ["deck:ally", "deck:item", "deck:spell", "deck:title"]
    size = len(s.decks["spell"])
    s = act(s, 0, "deck:spell")
    assert s.prompt["kind"] == "set8_keep" and len(keys(s, 0)) == 2
    two = [k.split(":", 1)[1] for k in keys(s, 0)]
    assert s.waiting_for == [0]
    s = act(s, 0, f"keep:{two[1]}")
    assert s.heroes[0]["hand"] == [two[1]]
    assert two[0] in s.decks["spell"] and len(s.decks["spell"]) == size - 1
    assert s.waiting_for == [1]
    # hands are secret: seat 1 and spectators see only the count
    assert "hand" not in view(s, 1)["heroes"][0] and view(s, 1)["heroes"][0]["hand_size"] == 1
    assert view(s, 0)["heroes"][0]["hand"] == [two[1]]


@pytest.mark.rule("SET-9")
def test_heroes_start_with_4_hp_4_fate_1_gold_4_enemy_tokens_and_4_ap():
    for edition in ("gloom", "shadows"):
        s = game(edition, heroes=2)
        for h in s.heroes:
            assert (h["hp"], h["max_hp"], h["fate"], h["gold"], h["enemy_tokens"]) == (
                4,
                4,
                4,
                1,
                4,
            )
            assert not h["hidden"]
            assert h["side"] == ("skull" if edition == "shadows" else None)  # first option
        assert s.heroes[s.turn]["ap"] == 4


@pytest.mark.rule("SET-10", "REW-5")
def test_loot_tokens_start_in_the_bag_and_are_drawn_at_random():
    s = new_game(Settings(), 1)
    assert sorted(s.loot_bag) == sorted(content().by_kind["loot"])
    drawn = set()
    for seed in range(6):
        g = game(seed=seed)
        T.run_steps(g, {"k": "draw_loot", "seat": 0})
        got = [e["token"] for e in g.log if e["e"] in ("loot_cashed", "loot_gained")]
        assert len(got) == 1 and got[0] not in g.loot_bag
        drawn.add(got[0])
    assert len(drawn) > 1


@pytest.mark.rule("SET-11")
def test_competitive_and_solo_draw_one_ancient_and_cooperative_one_per_hero():
    assert len(new_game(Settings(heroes=3), 1).ancients) == 1
    assert len(new_game(Settings(mode="solo", heroes=1), 1).ancients) == 1
    s = new_game(Settings(mode="cooperative", heroes=3), 1)
    assert len(s.ancients) == 3
    for a in s.ancients:
        plots = s.decks[f"plots:{a['id']}"]
        assert len(plots) == 6 and all(card(p)["ancient"] == a["id"] for p in plots)
    unused = set(content().plots) - {p for a in s.ancients for p in s.decks[f"plots:{a['id']}"]}
    assert unused <= set(s.removed)


@pytest.mark.rule("SET-12")
def test_the_hero_with_the_highest_sneak_is_first_hero():
    s = game(heroes=3)
    assert s.first == 1 and s.turn == 1


@pytest.mark.rule("SET-12")
def test_ties_for_highest_sneak_are_broken_at_random():
    same = [
        {"race": "race.tideborn", "class": "class.chevalier"},
        {"race": "race.fellmark_dwarf", "class": "class.samurai"},
    ]
    firsts = {new_game(Settings(heroes=2, choices=same), seed).first for seed in range(12)}
    assert firsts == {0, 1}


@pytest.mark.rule("SET-13")
def test_all_heroes_start_on_the_centre_location():
    s = game(heroes=4)
    assert all(h["loc"] == 12 for h in s.heroes)


def test_setup_choices_are_the_only_legal_answers():
    s = new_game(Settings(heroes=2), 1)
    assert legal(s, 1) == []


@pytest.mark.rule("SET-3")
def test_a_seat_may_choose_its_saga_and_others_do_not_get_it():
    choices = [dict(CHOICES[0], saga="saga.recover_heirloom"), None, None]
    s = new_game(Settings(heroes=3, choices=choices), 4)
    assert s.heroes[0]["saga"] == "saga.recover_heirloom"
    assert len({h["saga"] for h in s.heroes}) == 3
    with pytest.raises(Exception, match="unknown saga"):
        Settings(heroes=2, choices=[{"saga": "saga.nope"}]).validate()


@pytest.mark.rule("SET-2")
def test_a_race_cards_female_side_keeps_its_numbers_unless_the_card_says_otherwise():
    from games.kilforth.engine.rules.position import attr_total

    s = game(heroes=4)
    maiden = s.heroes[3]
    assert maiden["female"] and maiden["name"].startswith("Tideborn Maiden")
    assert attr_total(s, 3, "fight") == 2 and attr_total(s, 3, "influence") == 4
    male = new_game(Settings(heroes=2, choices=[dict(CHOICES[3], female=False), None]), 1)
    assert attr_total(male, 0, "fight") == 3 and attr_total(male, 0, "influence") == 3
    ratling = s.heroes[1]  # no female_attrs on the card: same numbers on both sides
    assert ratling["female"] and attr_total(s, 1, "sneak") == 4


@pytest.mark.rule("SET-2", "TEST-1")
def test_the_view_and_the_dice_use_the_chosen_sides_numbers_and_name_every_source():
    from games.kilforth.adapter import hero_options

    s = game(heroes=4)
    maiden = view(s, None)["heroes"][3]
    fight = maiden["attrs"]["fight"]
    assert fight["sources"][0] == ["race", 0]  # the Maiden's own fight, not the male side's 1
    assert fight["total"] == sum(n for _, n in fight["sources"])
    T.dice(s, *[1] * 10)
    s = T.run_steps(s, {"k": "test", "seat": 3, "attr": "study", "tag": "t", "team": False})
    roll = [e for e in s.log if e["e"] == "roll"][-1]
    assert roll["sources"][:2] == [["race", 0], ["class", card(s.heroes[3]["class"])["study"]]]
    tide = next(o for o in hero_options()["races"] if o.id == "race.tideborn")
    assert "Tideborn: fight 1" in tide.detail and "Tideborn Maiden: fight 0" in tide.detail


@pytest.mark.rule("SET-9")
def test_the_choose_sides_token_is_read_and_flipped_by_night_cards():
    s = game(edition="shadows")
    T.set_hero(s, 0, side="rose", hp=1)
    T.set_hero(s, 1, side="skull", gold=1)
    T.top(s, "night", "s.night.feast_of_roses")
    s = T.start_night(s)
    assert s.heroes[0]["hp"] == 3 and s.heroes[1]["gold"] == 2
    sided = [
        c
        for c in content().night("shadows")
        if any(k in str(card(c)["effect"]) for k in ("if_side", "flip_side"))
    ]
    assert len(sided) >= 6
    s = game(edition="shadows")
    T.set_hero(s, 0, side="rose")
    T.top(s, "night", "s.night.turning_moon")
    s = T.start_night(s)
    assert s.heroes[0]["side"] == "skull" and view(s, 0)["heroes"][0]["side"] == "skull"


@pytest.mark.rule("SET-9")
def test_in_shadows_each_hero_sets_its_choose_sides_token():
    s = new_game(Settings(edition="shadows", heroes=2, choices=CHOICES[:2]), 2)
    for seat in (0, 1):
        s = act(s, seat, legal(s, seat)[0].key)
        s = act(s, seat, legal(s, seat)[0].key)
    assert s.prompt["kind"] == "choose_side" and sorted(keys(s, 0)) == ["side:rose", "side:skull"]
    s = act(s, 0, "side:rose")
    s = act(s, 1, "side:skull")
    assert [h["side"] for h in s.heroes] == ["rose", "skull"]
    assert s.phase == "daylight"

import pytest

from games.kilforth.engine import act, legal
from games.kilforth.engine import testing as T
from games.kilforth.engine.cards.catalogue import content
from games.kilforth.engine.events import name_people, person_ref
from games.kilforth.engine.rules.ancients import ancient_stats
from games.kilforth.engine.rules.position import card, loc_index, name

from .kit import alone, events, game, keys, no_fate, prompt


def ready_to_assault(mode="competitive", heroes=2, **kw):
    s = game(mode=mode, heroes=heroes, **kw)
    no_fate(s)
    T.ancient_in_play(s, 0)
    loc = s.ancients[0]["loc"]
    for h in s.heroes:
        h["chapter"] = 6
    T.place_hero(s, 0, loc)
    for h in s.heroes[1:]:
        h["loc"] = 0 if loc != 0 else 24
    T.begin_turn(s, 0)
    return s


@pytest.mark.rule("ANC-1", "SAGA-6", "SAGA-7")
def test_the_first_finale_brings_the_ancient_into_play_at_its_location():
    s = game()
    no_fate(s)
    sg = card(s.heroes[0]["saga"])
    fin = next(w for w in sg["finale"]["where"] if w.startswith("g."))
    T.set_hero(s, 0, chapter=5)
    T.place_hero(s, 0, fin)
    alone(s)
    T.begin_turn(s, 0)
    assert "regale" in keys(s, 0)
    T.dice(s, 6, 6, 6, 6)
    s = act(s, 0, "regale")  # fight 4 dice: 4 successes of 5 needed
    assert s.heroes[0]["chapter"] == 5 and s.heroes[0]["saga_progress"]["n"] == 4
    s = T.begin_turn(s, 0)
    T.dice(s, 6, 1, 1, 1)
    s = act(s, 0, "regale")
    assert s.heroes[0]["chapter"] == 6
    assert prompt(s) == (0, "totem")
    s = act(s, 0, "asset")
    assert f"{s.heroes[0]['saga']}.totem" in s.heroes[0]["assets"]
    anc = s.ancients[0]
    assert anc["in_play"]
    assert s.map[anc["loc"]]["id"] == content().where(card(anc["id"]), "gloom")


@pytest.mark.rule("ANC-1", "SAGA-7")
def test_in_coop_every_ancient_enters_and_a_totem_can_be_sold_for_gold():
    s = game(mode="cooperative", heroes=3)
    T.run_steps(s, {"k": "finale_complete", "seat": 0})
    gold = s.heroes[0]["gold"]
    s = act(s, 0, "gold")
    assert all(a["in_play"] for a in s.ancients) and len(s.ancients) == 3
    assert s.heroes[0]["gold"] == gold + card(f"{s.heroes[0]['saga']}.totem")["gold"]


@pytest.mark.rule("ANC-2", "DEED-1")
def test_heroes_sharing_the_ancients_location_are_not_forced_to_fight_it():
    s = ready_to_assault()
    assert prompt(s) == (0, "turn")
    assert f"assault:{s.ancients[0]['id']}" in keys(s, 0)
    assert not events(s, "assault")


@pytest.mark.rule("DEED-1", "SAGA-9")
def test_assault_requires_the_finale_and_an_encounter_free_location():
    s = ready_to_assault()
    aid = s.ancients[0]["id"]
    T.set_hero(s, 0, chapter=5)
    T.refresh(s)
    assert f"assault:{aid}" not in keys(s, 0)
    T.set_hero(s, 0, chapter=6)
    T.place_encounter(s, "e.fungus_ring", s.ancients[0]["loc"])
    T.refresh(s)
    assert f"assault:{aid}" not in keys(s, 0)


@pytest.mark.rule("DEED-1")
def test_in_coop_every_hero_must_have_completed_its_finale_before_an_assault():
    s = ready_to_assault(mode="cooperative")
    aid = s.ancients[0]["id"]
    assert f"assault:{aid}" in keys(s, 0)
    T.set_hero(s, 1, chapter=4)
    T.refresh(s)
    assert f"assault:{aid}" not in keys(s, 0)


@pytest.mark.rule("ANC-3", "ANC-4")
def test_on_assault_unresolved_plots_join_the_ancient_and_no_surprise_or_escape_exists():
    s = ready_to_assault()
    anc = s.ancients[0]
    plots = s.decks[f"plots:{anc['id']}"][-2:]
    T.place_plot(s, plots[0], 3)
    T.place_plot(s, plots[1], 21)
    base = ancient_stats(s, anc)
    T.set_hero(s, 0, hidden=False)
    T.dice(s, *[1] * 4, *[1] * 10)
    s = act(s, 0, f"assault:{anc['id']}")
    anc = s.ancients[0]
    assert sorted(anc["plots"]) == sorted(plots)
    assert s.map[3]["plots"] == [] and s.map[21]["plots"] == []
    hp, fight = ancient_stats(s, anc)
    assert (hp, fight) != base
    assert not any(e["kind"] in ("escape", "hidden_engage") for e in events(s, "prompt"))
    first = [e for e in events(s, "roll") if e.get("foe") == anc["id"]][0]
    assert first["dice"] == fight  # no surprise die


@pytest.mark.rule("ANC-5", "END-2")
def test_defeating_the_ancient_pays_its_gold_and_ends_a_competitive_game_with_that_winner():
    s = ready_to_assault()
    anc = s.ancients[0]
    s.ancients[0]["damage"] = ancient_stats(s, anc)[0] - 1
    gold = s.heroes[0]["gold"]
    T.dice(s, 6, 1, 1, 1, *[1] * 10)
    s = act(s, 0, f"assault:{anc['id']}")
    assert s.result is not None and s.result["winners"] == [0]
    assert s.result["reason"] == "ancient defeated"
    assert s.heroes[0]["gold"] == gold + card(anc["id"])["gold"]
    assert s.waiting_for == []


@pytest.mark.rule("ANC-6", "END-5")
def test_a_hero_at_zero_hp_against_an_ancient_is_eliminated_and_its_cards_return():
    s = ready_to_assault(mode="solo")
    anc = s.ancients[0]
    T.give(s, 0, "r.tinderbox", "assets")
    T.set_hero(s, 0, hp=1)
    T.dice(s, 1, 1, 1, 1, *[6] * 10)
    s = act(s, 0, f"assault:{anc['id']}")
    h = s.heroes[0]
    assert h["eliminated"] and h["assets"] == [] and h["hand"] == []
    assert "r.tinderbox" in s.discards["item"]
    assert s.result is not None and s.result["winners"] == [] and not s.result["won"]


@pytest.mark.rule("ANC-6")
def test_an_eliminated_hero_takes_no_more_turns():
    s = ready_to_assault(heroes=3)
    anc = s.ancients[0]
    T.set_hero(s, 0, hp=1)
    T.dice(s, 1, 1, 1, 1, *[6] * 10)
    s = act(s, 0, f"assault:{anc['id']}")
    assert s.heroes[0]["eliminated"] and s.result is None
    for _ in range(6):
        assert s.turn != 0
        s = (
            T.make_camp(s, s.waiting_for[0])
            if "camp" in keys(s, s.waiting_for[0])
            else act(s, s.waiting_for[0], keys(s, s.waiting_for[0])[0])
        )


@pytest.mark.rule("ANC-7")
def test_damage_dealt_to_an_ancient_stays_after_the_battle():
    s = ready_to_assault(heroes=2)
    anc = s.ancients[0]
    T.set_hero(s, 1, chapter=6)
    T.dice(s, 6, 6, 1, 1, *[6] * 6)  # 2 damage; hero takes 4+ and falls
    T.set_hero(s, 0, hp=4)
    s = act(s, 0, f"assault:{anc['id']}")
    assert s.ancients[0]["damage"] == 2
    assert s.heroes[0]["eliminated"]
    assert s.result is None


@pytest.mark.rule("ANC-8", "NIGHT-6")
def test_a_gloomed_location_of_a_named_terrain_brings_the_next_plot_after_the_night_card():
    s = game()
    anc = s.ancients[0]
    terr = card(anc["id"])["gloom_terrains"][0]
    cid = next(
        c
        for c in s.decks["night"]
        if card(c)["type"] != "weather" and card(card(c)["location"])["terrain"] == terr
    )
    T.top(s, "night", cid)
    nxt = s.decks[f"plots:{anc['id']}"][-1]
    s = T.start_night(s)
    i = loc_index(s, card(cid)["location"])
    assert nxt in s.map[i]["plots"]
    order = [e["e"] for e in s.log]
    assert order.index("plot_enters") > order.index("night_card")


@pytest.mark.rule("ANC-8")
def test_a_gloomed_location_of_another_terrain_brings_no_plot():
    s = game()
    anc = s.ancients[0]
    terrs = card(anc["id"])["gloom_terrains"]
    cid = next(c for c in s.decks["night"] if card(card(c)["location"])["terrain"] not in terrs)
    T.top(s, "night", cid)
    n = len(s.decks[f"plots:{anc['id']}"])
    s = T.start_night(s)
    assert len(s.decks[f"plots:{anc['id']}"]) == n


# ------------------------------------------------------------------------------ deeds


@pytest.mark.rule("DEED-2", "DEED-5")
def test_offers_name_the_other_hero_as_a_person_and_never_by_its_hero_title():
    s = game()
    T.set_hero(s, 1, gold=2)
    offer = next(c for c in legal(s, 1) if c.key == "give:0:gold")
    assert offer.label == f"Offer 1 gold to {person_ref(0)}"
    assert offer.data == {"verb": "give", "target": 0, "what": "gold"}
    title = s.heroes[0]["name"]
    for c in legal(s, 1):
        assert title not in c.label + c.explain, c.key
    asked = act(s, 1, "give:0:gold")
    assert asked.prompt["text"] == f"{person_ref(1)} offers you 1 gold"
    assert name_people(asked.prompt["text"], {1: "Brenna"}.get) == "Brenna offers you 1 gold"


@pytest.mark.rule("DEED-2")
def test_an_exchange_is_an_offer_the_other_hero_accepts_from_its_own_seat():
    s = game()
    rumour = s.heroes[1]["hand"][0]
    assert f"give:0:rumour:{rumour}" in keys(s, 1)
    s = act(s, 1, f"give:0:rumour:{rumour}")
    assert s.waiting_for == [0] and prompt(s) == (0, "gift_offer")
    declined = act(s, 0, "decline")
    assert rumour in declined.heroes[1]["hand"] and declined.waiting_for == [1]
    s = act(s, 0, "accept")
    assert rumour in s.heroes[0]["hand"] and rumour not in s.heroes[1]["hand"]
    assert s.waiting_for == [1] and prompt(s) == (1, "turn")


@pytest.mark.rule("DEED-2")
def test_gold_loot_and_item_or_spell_assets_can_be_given_but_not_titles_or_allies():
    s = game()
    T.set_hero(s, 1, gold=2)
    T.give(s, 1, "r.tinderbox", "assets")
    T.give(s, 1, "r.ember_lance", "assets")
    T.give(s, 1, "r.flamebearer", "assets")
    T.give(s, 1, "l.tonic0", "loot")
    T.refresh(s)
    ks = keys(s, 1)
    assert {
        "give:0:gold",
        "give:0:asset:r.tinderbox",
        "give:0:asset:r.ember_lance",
        "give:0:loot:l.tonic0",
    } <= set(ks)
    assert "give:0:asset:r.flamebearer" not in ks
    s = act(act(s, 1, "give:0:asset:r.ember_lance"), 0, "accept")
    assert "r.ember_lance" in s.heroes[0]["assets"]
    s = act(act(s, 1, "give:0:gold"), 0, "accept")
    assert (s.heroes[0]["gold"], s.heroes[1]["gold"]) == (2, 1)


@pytest.mark.rule("DEED-2")
def test_any_number_of_agreed_exchanges_and_a_two_way_trade_is_one_agreement():
    s = game()
    T.set_hero(s, 1, gold=6)
    for _ in range(5):  # no cap on agreed exchanges
        s = act(act(s, 1, "give:0:gold"), 0, "accept")
    assert (s.heroes[0]["gold"], s.heroes[1]["gold"]) == (6, 1)
    T.give(s, 1, "r.tinderbox", "assets")
    T.give(s, 0, "l.tonic0", "loot")
    T.refresh(s)
    s = act(s, 1, "trade:0")
    s = act(s, 1, "tgive:asset:r.tinderbox")
    s = act(s, 1, "ttake:loot@0")  # asked for by its place: the loot is private to hero 0
    assert prompt(s) == (0, "trade_offer")
    s = act(s, 0, "accept")
    assert "r.tinderbox" in s.heroes[0]["assets"] and "l.tonic0" in s.heroes[1]["loot"]
    assert prompt(s) == (1, "turn")


@pytest.mark.rule("DEED-2")
def test_a_trade_never_names_the_other_heroes_private_rumours_or_loot_to_the_asker():
    s = game()  # competitive: hands and loot are private
    T.give(s, 1, "r.tinderbox", "assets")
    T.give(s, 0, "l.tonic0", "loot")
    rumour = s.heroes[0]["hand"][0] if s.heroes[0]["hand"] else None
    T.refresh(s)
    s = act(act(s, 1, "trade:0"), 1, "tgive:asset:r.tinderbox")
    asks = [c for c in legal(s, 1) if c.key.startswith("ttake:")]
    shown = " ".join(f"{c.key} {c.label} {c.explain} {c.data}" for c in asks)
    assert "tonic" not in shown.lower() and "l.tonic0" not in shown
    if rumour is not None:
        assert rumour not in shown and name(rumour) not in shown
    assert "ttake:loot@0" in {c.key for c in asks}
    # The asked hero sees exactly what is asked of them; accepting hands that card over.
    s = act(s, 1, "ttake:loot@0")
    assert name("l.tonic0") in s.prompt["text"]
    s = act(s, 0, "accept")
    assert "l.tonic0" in s.heroes[1]["loot"]


@pytest.mark.rule("DEED-2")
def test_after_three_declined_offers_in_a_turn_no_more_offers_are_made():
    s = game()
    T.set_hero(s, 1, gold=6)
    T.refresh(s)
    for _ in range(3):
        s = act(act(s, 1, "give:0:gold"), 0, "decline")
    assert not [k for k in keys(s, 1) if k.startswith(("give:", "trade:", "team:"))]


@pytest.mark.rule("DEED-2")
def test_exchange_needs_the_heroes_at_the_same_location():
    s = game()
    T.place_hero(s, 0, 0)
    T.refresh(s)
    assert not [k for k in keys(s, 1) if k.startswith("give:")]


@pytest.mark.rule("DEED-3")
def test_overcome_defeats_an_encounter_and_discards_every_heros_successes_against_it():
    s = game()
    alone(no_fate(s))
    T.place_encounter(s, "e.abandoned_mine", 12)
    weak = card("e.abandoned_mine")["weakness"]
    assert weak
    s.encounters["e.abandoned_mine"]["progress"]["1"] = {"attr": "study", "n": 1}
    asset = next(c for c in content().by_kind["reward"] if weak in card(c)["keywords"])
    T.begin_turn(s, 0)
    assert "overcome:e.abandoned_mine" not in keys(s, 0)
    T.give(s, 0, asset, "assets")
    T.refresh(s)
    s = act(s, 0, "overcome:e.abandoned_mine")
    assert "e.abandoned_mine" not in s.encounters
    assert prompt(s) == (0, "loot_step")


@pytest.mark.rule("DEED-3", "DEED-4")
def test_a_veiled_card_still_carries_its_keywords_for_overcome():
    s = game()
    alone(no_fate(s))
    T.place_encounter(s, "e.abandoned_mine", 12)
    weak = card("e.abandoned_mine")["weakness"]
    asset = next(c for c in content().by_kind["reward"] if weak in card(c)["keywords"])
    T.give(s, 0, asset, "assets")
    s.heroes[0]["veiled"].append(asset)
    T.begin_turn(s, 0)
    assert "overcome:e.abandoned_mine" in keys(s, 0)


@pytest.mark.rule("DEED-3")
def test_overcome_is_offered_for_an_enemy_weakness_and_skips_the_battle():
    s = game()
    no_fate(s)
    T.give(s, 0, "r.friend_of_crows", "assets")  # keyword beast
    T.begin_turn(s, 0)
    T.place_encounter(s, "e.dune_stalker", 12)  # weakness beast, placed after the engagement
    T.refresh(s)
    assert "overcome:e.dune_stalker" in keys(s, 0)
    s = act(s, 0, "overcome:e.dune_stalker")
    assert "e.dune_stalker" not in s.encounters and not events(s, "battle")


@pytest.mark.rule("DAY-11", "DEED-3")
def test_a_hero_may_overcome_the_enemy_it_is_engaging_before_and_between_battle_rounds():
    s = game()
    alone(no_fate(s))
    T.give(s, 0, "r.friend_of_crows", "assets")  # keyword beast
    T.place_encounter(s, "e.dune_stalker", 12)  # weakness beast, already there
    T.begin_turn(s, 0)
    assert prompt(s) == (0, "engage_team") and "overcome:e.dune_stalker" in keys(s, 0)
    done = act(s, 0, "overcome:e.dune_stalker")
    assert "e.dune_stalker" not in done.encounters and not events(done, "battle")
    T.dice(s, *[1] * 20)  # nobody scores: the battle goes on to the fight-on question
    s = act(s, 0, "alone")
    assert prompt(s) == (0, "escape") and "overcome:e.dune_stalker" in keys(s, 0)
    assert any(k.startswith("give:1:") for k in keys(s, 0)) is False  # the other hero is away
    s = act(s, 0, "overcome:e.dune_stalker")
    assert "e.dune_stalker" not in s.encounters and events(s, "overcome")


@pytest.mark.rule("DEED-4")
def test_a_veil_deed_veils_the_card_until_dawn():
    s = game()
    T.give(s, 0, "r.second_sight", "assets")
    T.begin_turn(s, 0)
    s = act(s, 0, "resolve:r.second_sight")
    assert s.heroes[0]["fate"] == 5 and "r.second_sight" in s.heroes[0]["veiled"]
    assert "resolve:r.second_sight" not in keys(s, 0)
    s = T.start_night(s)
    assert s.heroes[0]["veiled"] == []


@pytest.mark.rule("DEED-5")
def test_a_team_offer_is_accepted_from_the_other_seat_even_after_making_camp():
    s = game()
    s = T.make_camp(s, 1)
    assert s.heroes[1]["camped"]
    s = act(s, 0, "team:1")
    assert s.waiting_for == [1] and set(keys(s, 1)) == {"accept", "decline"}
    s = act(s, 1, "accept")
    assert s.team == [0, 1] and s.waiting_for == [0]


@pytest.mark.rule("DEED-6")
def test_a_team_test_adds_a_die_per_member_and_each_member_may_call_on_fate():
    s = game()
    loc = next(x["id"] for x in s.map if card(x["id"])["terrain"] == "forest")
    T.place_hero(s, 0, loc)
    T.place_hero(s, 1, loc)
    T.place_encounter(s, "e.lost_lantern", loc)
    T.begin_turn(s, 0)
    s = act(act(s, 0, "team:1"), 1, "accept")
    key = next(k for k in keys(s, 0) if k.startswith("confront:"))
    from games.kilforth.engine.rules.position import attr_total

    n = attr_total(s, 0, key.split(":")[2])
    T.dice(s, *[1] * (n + 1))
    s = act(s, 0, key)
    roll = events(s, "roll")[-1]
    assert roll["dice"] == n + 1 and ["team:1", 1] in roll["sources"]
    s = act(s, 0, "accept")
    assert prompt(s) == (1, "fate")
    s = act(s, 1, "fate")
    assert events(s, "confront")[-1]["total"] == 1 and s.heroes[1]["fate"] == 3
    assert s.team == []  # DEED-9: disbanded after the test


@pytest.mark.rule("DEED-7", "DEED-8", "DEED-9")
def test_a_team_battle_has_every_member_fight_and_the_active_hero_splits_the_reward():
    s = game()
    no_fate(s)
    T.place_encounter(s, "e.stone_ogre", 12, fresh=True)
    T.begin_turn(s, 0)
    assert prompt(s) == (0, "engage_team")
    s = act(s, 0, "team:1")
    T.dice(s, 6, 6, 1, 1, 6, 1, 1, 1, 1, 1, 1)  # seat 0: 2 hits; seat 1: 1 hit; foe misses
    s = act(s, 1, "accept")
    assert prompt(s) == (0, "reward_split")
    assert len(events(s, "skirmish")) == 1 and events(s, "skirmish")[0]["dealt"] == 3
    battle = events(s, "battle")[-1]
    assert battle["surprise"] is None and battle["team"] == [0, 1]
    hero_rolls = [e for e in events(s, "roll") if e.get("seat") in (0, 1)][-2:]
    assert {e["seat"] for e in hero_rolls} == {0, 1}
    assert sorted(keys(s, 0)) == ["give:0", "give:1"]
    s = act(s, 0, "give:1")
    assert prompt(s) == (1, "loot_step")
    assert not any(e["kind"] == "escape" for e in events(s, "prompt"))
    s = T.play_until(s, 0, "turn")
    assert s.team == []  # disbanded after the engagement


@pytest.mark.rule("DEED-9")
def test_a_team_disbands_at_the_end_of_the_turn():
    s = game()
    s = act(act(s, 1, "team:0"), 0, "accept")
    assert s.team == [1, 0]
    s = act(s, 1, "hide")
    assert s.team == []


@pytest.mark.rule("HIDE-3", "DEED-5")
def test_a_team_member_who_becomes_hidden_leaves_the_team():
    s = game(heroes=3)
    s = act(act(s, 1, "team:0"), 0, "accept")
    s = act(act(s, 1, "team:2"), 2, "accept")
    assert s.team == [1, 0, 2]
    T.run_steps(s, {"k": "hide", "seat": 2})
    assert s.team == [1, 0]
    T.give(s, 1, "l.smoke_pellet2", "loot")
    T.refresh(s)
    s = act(s, 1, "resolve:l.smoke_pellet2")  # the leader hides: the team disbands
    assert s.heroes[1]["hidden"] and s.team == []


@pytest.mark.rule("DEED-7", "ENG-9")
def test_a_fallen_team_member_camps_and_the_active_hero_fights_on_alone():
    s = game()
    no_fate(s)
    T.place_encounter(s, "e.stone_ogre", 12)
    T.set_hero(s, 1, hp=1)
    T.begin_turn(s, 0)
    s = act(s, 0, "team:1")
    T.dice(s, 1, 1, 1, 1, 1, 1, 1, 1, 6, 1, 1)  # heroes miss; the ogre hits seat 1 once
    s = act(s, 1, "accept")
    assert s.heroes[1]["defeated"] and s.heroes[1]["camped"]
    assert s.team == [0] or s.team == []
    assert "escape" in keys(s, 0) and "e.stone_ogre" in s.encounters


@pytest.mark.rule("DEED-5")
def test_a_team_only_helps_while_its_members_share_the_active_heros_location():
    s = game()
    no_fate(s)
    T.begin_turn(s, 0)
    s = act(act(s, 0, "team:1"), 1, "accept")
    target = next(k for k in keys(s, 0) if k.startswith("move:"))
    loc = target.split(":", 1)[1]
    T.place_encounter(s, "e.stone_ogre", loc)
    T.dice(s, *[1] * 12)
    s = act(s, 0, target)
    battle = events(s, "battle")[-1]
    assert battle["team"] == [0]  # seat 1 stayed behind

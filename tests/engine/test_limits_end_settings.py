import math

import pytest

from games.kilforth.engine import Settings, SettingsError, act, new_game, view
from games.kilforth.engine import testing as T
from games.kilforth.engine.rules.endgame import vp
from games.kilforth.engine.rules.position import card

from .kit import empty_hand, game, keys, no_fate, prompt

REWARDS = [
    "r.tinderbox",
    "r.signet_ring",
    "r.wax_sealed_map",
    "r.healing_draught",
    "r.ember_lance",
    "r.mind_lantern",
    "r.glamour",
]


@pytest.mark.rule("LIM-1")
def test_a_seventh_rumour_forces_a_discard_of_the_heros_choice():
    s = empty_hand(game(), 0)
    for c in REWARDS[:6]:
        T.give(s, 0, c)
    T.top(s, "title", "r.ratcatcher")
    T.run_steps(s, {"k": "draw_reward", "seat": 0, "deck": "title"})
    assert prompt(s) == (0, "discard_down") and len(keys(s, 0)) == 7
    s = act(s, 0, "drop:r.tinderbox")
    assert len(s.heroes[0]["hand"]) == 6 and "r.tinderbox" in s.discards["item"]


@pytest.mark.rule("LIM-1")
def test_a_seventh_asset_and_a_seventh_loot_token_are_discarded_down_to_six():
    s = empty_hand(game(), 0)
    for c in REWARDS[:6]:
        T.give(s, 0, c, "assets")
    T.give(s, 0, "r.hooded_cloak")
    T.run_steps(s, {"k": "discover", "seat": 0, "card": "r.hooded_cloak"})
    assert prompt(s) == (0, "discard_down") and s.prompt["zone"] == "assets"
    s = act(s, 0, keys(s, 0)[0])
    assert len(s.heroes[0]["assets"]) == 6
    s = game()
    deeds = [c for c in s.loot_bag if card(c)["deed"]]
    for c in deeds[:6]:
        T.give(s, 0, c, "loot")
    s.loot_bag[:] = [c for c in s.loot_bag if card(c)["deed"]]
    T.run_steps(s, {"k": "draw_loot", "seat": 0})
    assert prompt(s) == (0, "discard_down") and s.prompt["zone"] == "loot"


@pytest.mark.rule("LIM-2")
def test_a_new_asset_with_the_same_unique_keyword_replaces_the_old_one():
    s = game()
    T.give(s, 0, "r.moonsilver_sabre", "assets")  # *blade
    T.give(s, 0, "r.rusty_falchion")  # *blade
    T.run_steps(s, {"k": "discover", "seat": 0, "card": "r.rusty_falchion"})
    assert s.heroes[0]["assets"] == ["r.rusty_falchion"]
    assert "r.moonsilver_sabre" in s.discards["item"]


@pytest.mark.rule("LIM-2")
def test_assets_with_different_unique_keywords_coexist():
    s = game()
    T.give(s, 0, "r.grey_mare", "assets")  # *steed
    T.give(s, 0, "r.tame_falcon")  # *pet
    T.run_steps(s, {"k": "discover", "seat": 0, "card": "r.tame_falcon"})
    assert sorted(s.heroes[0]["assets"]) == ["r.grey_mare", "r.tame_falcon"]


@pytest.mark.rule("LIM-3")
def test_any_number_of_encounters_may_share_a_location():
    s = game()
    for c in ("e.fungus_ring", "e.lost_lantern", "e.witch_s_errand", "e.masked_poacher"):
        T.place_encounter(s, c, 7)
    assert len(s.map[7]["enc"]) == 4
    assert len(view(s, None)["map"][7]["encounters"]) == 4


@pytest.mark.rule("LIM-4")
def test_plots_block_neither_search_nor_rest():
    s = game()
    loc = next(x["id"] for x in s.map if card(x["id"])["terrain"] == "plains")
    no_fate(s)
    T.place_hero(s, 0, loc)
    T.set_hero(s, 0, hp=3)
    T.place_plot(s, s.decks[f"plots:{s.ancients[0]['id']}"][-1], loc)
    T.begin_turn(s, 0)
    assert "search" in keys(s, 0) and "rest" in keys(s, 0)


@pytest.mark.rule("END-1")
def test_gloom_ends_after_the_night_of_day_25():
    s = game()
    s.day = 25
    s = T.start_night(s)
    s = T.play_until(s, 0, "never")
    assert s.result is not None and s.result["reason"] == "day 25 is over" and s.day == 25


@pytest.mark.rule("END-1")
def test_shadows_ends_at_the_end_of_daylight_when_one_night_card_is_left():
    s = game(edition="shadows")
    s.removed.extend(s.decks["night"][:-2])
    del s.decks["night"][:-2]
    s = T.start_night(s)
    s = T.play_until(s, s.first, "turn")
    assert s.result is None and s.phase == "daylight"
    assert len(s.decks["night"]) == 1
    while s.result is None:
        s = act(
            s,
            s.waiting_for[0],
            "camp" if "camp" in keys(s, s.waiting_for[0]) else keys(s, s.waiting_for[0])[0],
        )
    assert s.result["reason"] == "the night deck is down to one card"


@pytest.mark.rule("END-1", "SET-5")
def test_a_shadows_game_with_four_heroes_lasts_until_day_25_and_fewer_heroes_play_longer():
    four = game(edition="shadows", heroes=4)
    assert len(four.decks["night"]) + len(four.discards["night"]) == 30
    assert len(four.discards["night"]) == 5 and len(four.decks["night"]) == 25
    assert view(four, 0)["last_day"] == 25
    two = game(edition="shadows", heroes=2)
    assert len(two.discards["night"]) == 3 and view(two, 0)["last_day"] == 27
    assert view(game(), 0)["last_day"] == 25  # Gloom: a fixed 25 days


@pytest.mark.rule("END-1")
def test_the_last_day_shown_is_the_day_a_shadows_game_really_ends():
    s = game(edition="shadows")
    s.removed.extend(s.decks["night"][:-4])
    del s.decks["night"][:-4]
    predicted = view(s, 0)["last_day"]
    assert predicted == s.day + 3
    while s.result is None:
        seat = s.waiting_for[0]
        ks = keys(s, seat)
        s = act(s, seat, "camp" if "camp" in ks else ks[0])
        assert view(s, 0)["last_day"] >= s.day
    assert s.day == view(s, 0)["last_day"]
    if not any(e.get("extra") for e in s.log if e["e"] == "night_card"):
        assert s.day == predicted


@pytest.mark.rule("END-2", "END-4")
def test_competitive_highest_vp_wins_and_ties_share_the_win():
    s = game(heroes=3)
    T.set_hero(s, 0, gold=5)
    T.set_hero(s, 1, gold=2)
    T.give(s, 1, "r.signet_ring", "assets")  # gold value 4: VP 6
    T.set_hero(s, 2, gold=6)
    assert vp(s, 1) == 6
    s.day = 25
    s = T.start_night(s)
    s = T.play_until(s, 0, "never")  # the last night resolves (choices: first options)
    assert s.result["reason"] == "day 25 is over"
    best = max(s.result["vp"])
    assert s.result["winners"] == [i for i, v in enumerate(s.result["vp"]) if v == best]
    assert s.result["vp"][1] == s.heroes[1]["gold"] + 4


@pytest.mark.rule("END-3")
def test_coop_wins_only_if_every_ancient_is_defeated_and_scores_the_rounded_up_mean():
    s = game(mode="cooperative", heroes=3)
    for seat, g in enumerate((1, 2, 2)):
        T.set_hero(s, seat, gold=g)
    lost = T.run_steps(s.clone(), {"k": "end_game", "reason": "time"})
    assert not lost.result["won"] and lost.result["winners"] == []
    assert lost.result["team_vp"] == math.ceil(5 / 3) == 2
    for a in s.ancients:
        a["defeated"] = True
    won = T.run_steps(s, {"k": "end_game", "reason": "ancient defeated"})
    assert won.result["won"] and won.result["winners"] == [0, 1, 2]


@pytest.mark.rule("END-3")
def test_coop_still_wins_if_the_last_hero_falls_while_killing_the_last_ancient():
    s = game(mode="solo")
    no_fate(s)
    T.ancient_in_play(s, 0)
    T.set_hero(s, 0, chapter=6, hp=1)
    T.place_hero(s, 0, s.ancients[0]["loc"])
    from games.kilforth.engine.rules.ancients import ancient_stats

    s.ancients[0]["damage"] = ancient_stats(s, s.ancients[0])[0] - 1
    T.begin_turn(s, 0)
    T.dice(s, 6, 1, 1, 1, *[6] * 8)
    s = act(s, 0, f"assault:{s.ancients[0]['id']}")
    assert s.result["won"] and s.result["winners"] == [0]


@pytest.mark.rule("END-5")
def test_when_every_hero_is_eliminated_nobody_wins():
    s = game(heroes=2)
    T.run_steps(s, {"k": "eliminate", "seat": 0}, {"k": "eliminate", "seat": 1})
    assert s.result is not None and s.result["winners"] == [] and not s.result["won"]


@pytest.mark.rule("OPT-1", "OPT-2")
def test_settings_validate_edition_mode_and_hero_count():
    with pytest.raises(SettingsError, match="edition"):
        Settings(edition="ashes").validate()
    with pytest.raises(SettingsError, match="solo"):
        Settings(mode="solo", heroes=2).validate()
    with pytest.raises(SettingsError, match="2-4"):
        Settings(mode="cooperative", heroes=1).validate()
    with pytest.raises(SettingsError, match="between 1 and 4"):
        Settings(heroes=5).validate()
    with pytest.raises(SettingsError, match="already taken"):
        Settings(heroes=2, choices=[{"race": "race.ratling"}, {"race": "race.ratling"}]).validate()
    with pytest.raises(SettingsError, match="unknown settings"):
        Settings.from_dict({"edition": "gloom", "colour": "red"})


@pytest.mark.rule("OPT-2")
def test_solo_and_cooperative_score_as_a_team():
    solo = game(mode="solo")
    assert len(solo.heroes) == 1 and len(solo.ancients) == 1
    T.run_steps(solo, {"k": "end_game", "reason": "time"})
    assert "team_vp" in solo.result


@pytest.mark.rule("OPT-3")
def test_difficulty_changes_pre_draws_success_faces_and_the_centre():
    easy = new_game(Settings(edition="shadows", heroes=2, difficulty="easier"), 1)
    hard = new_game(Settings(edition="shadows", heroes=2, difficulty="harder"), 1)
    assert len(hard.discards["night"]) - len(easy.discards["night"]) == 2
    assert hard.map[12]["id"] == "s.couch_of_death"
    from games.kilforth.engine.rules.position import success_min

    assert success_min(easy) == 4 and success_min(hard) == 5


@pytest.mark.rule("OPT-4")
def test_open_hands_in_coop_show_every_hand_to_every_seat_but_not_to_spectators():
    s = game(mode="cooperative", heroes=2, open_hands=True)
    assert view(s, 1)["heroes"][0]["hand"] == s.heroes[0]["hand"]
    assert "hand" not in view(s, None)["heroes"][0]
    closed = game(mode="cooperative", heroes=2)
    assert "hand" not in view(closed, 1)["heroes"][0]
    with pytest.raises(SettingsError):
        Settings(mode="competitive", open_hands=True).validate()


@pytest.mark.rule("OPT-5")
def test_settings_round_trip_through_a_dict():
    st = Settings(
        edition="shadows",
        mode="cooperative",
        heroes=3,
        saga_allocation="random",
        auto_evasion=True,
        chapter_cost_2x=True,
        open_hands=True,
    )
    assert Settings.from_dict(st.to_dict()) == st
    with pytest.raises(SettingsError):
        Settings(saga_allocation="draft").validate()


@pytest.mark.rule("END-2", "END-4")
def test_heroes_tied_on_vp_share_the_win():
    s = game(heroes=3)
    T.set_hero(s, 0, gold=5)
    T.set_hero(s, 1, gold=2)
    T.give(s, 1, "r.signet_ring", "assets")  # gold value 4: VP 6
    T.set_hero(s, 2, gold=6)
    T.run_steps(s, {"k": "end_game", "reason": "day 25 is over"})
    assert s.result["winners"] == [1, 2] and s.result["vp"] == [5, 6, 6]

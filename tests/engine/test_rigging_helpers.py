"""The rigging helpers of games.kilforth.engine.testing do what their names say."""

from games.kilforth.engine import testing as T
from games.kilforth.engine.rules.position import attr_total

from .kit import game, prompt


def test_scenario_sets_the_choose_sides_token_it_is_given():
    s = T.scenario(edition="shadows", side="rose")
    assert {h["side"] for h in s.heroes} == {"rose"}


def test_discard_puts_a_card_on_its_own_discard_pile_and_conservation_holds():
    s = game()
    cid = s.decks["night"][-1]
    T.discard(s, cid)
    assert s.discards["night"][-1] == cid
    assert all(len(z) == 1 for z in T.card_locations(s).values())


def test_loot_bag_sets_the_contents_and_the_old_tokens_go_to_the_used_pile():
    s = game()
    bag = list(s.loot_bag)
    T.loot_bag(s, bag[0], bag[1])
    assert s.loot_bag == [bag[0], bag[1]] and set(bag[2:]) <= set(s.loot_used)
    T.loot_bag(s, bag[2], refill=True)
    assert s.loot_bag == [bag[2]] and len(s.loot_bag) + len(s.loot_used) == len(bag)
    assert all(len(z) == 1 for z in T.card_locations(s).values())


def test_successes_ancient_damage_and_attr_total_helpers():
    s = game()
    T.place_encounter(s, "e.abandoned_mine", 12)
    T.successes(s, "e.abandoned_mine", 0, "study", 2)
    assert s.encounters["e.abandoned_mine"]["progress"]["0"] == {"attr": "study", "n": 2}
    T.ancient_damage(s, 0, 3)
    assert s.ancients[0]["damage"] == 3
    assert T.attr_total(s, 0, "fight") == attr_total(s, 0, "fight")


def test_begin_turn_can_stop_before_the_start_of_turn_engagement():
    s = game()
    T.place_encounter(s, "e.stone_ogre", s.heroes[0]["loc"])
    s = T.begin_turn(s, 0, engage=False)
    assert prompt(s) == (0, "turn")

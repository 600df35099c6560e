"""Each card-usable step kind of the interpreter, tested on its own through run_steps."""

import inspect
import sys

from games.kilforth.engine import act
from games.kilforth.engine import testing as T
from games.kilforth.engine.cards.steps import CARD_STEPS, bind, push, run

from .kit import events, game, keys, prompt


def fresh():
    s = game()
    T.set_hero(s, 0, fate_day=s.day)
    return s


def test_step_gain_gold():
    s = T.run_steps(fresh(), {"k": "gain_gold", "seat": 0, "n": 3})
    assert s.heroes[0]["gold"] == 4


def test_step_lose_gold():
    s = T.run_steps(fresh(), {"k": "lose_gold", "seat": 0, "n": 3})
    assert s.heroes[0]["gold"] == 0  # never below zero


def test_step_gain_hp():
    s = fresh()
    T.set_hero(s, 0, hp=2)
    T.run_steps(s, {"k": "gain_hp", "seat": 0, "n": 5})
    assert s.heroes[0]["hp"] == 4  # capped at max


def test_step_lose_hp():
    s = fresh()
    T.set_hero(s, 0, ap=2)
    T.run_steps(s, {"k": "lose_hp", "seat": 0, "n": 1})
    assert (s.heroes[0]["hp"], s.heroes[0]["ap"]) == (3, 1)
    T.run_steps(s, {"k": "lose_hp", "seat": 0, "n": 9})
    assert s.heroes[0]["hp"] == 0 and s.heroes[0]["defeated"]


def test_step_lose_ap():
    s = T.run_steps(fresh(), {"k": "lose_ap", "seat": 1, "n": 1})
    assert s.heroes[1]["ap"] == 3


def test_step_gain_fate():
    s = T.run_steps(fresh(), {"k": "gain_fate", "seat": 0, "n": 2})
    assert s.heroes[0]["fate"] == 6


def test_step_draw_loot():
    s = fresh()
    bag = len(s.loot_bag)
    T.run_steps(s, {"k": "draw_loot", "seat": 0})
    assert len(s.loot_bag) == bag - 1


def test_step_draw_reward():
    s = fresh()
    top = s.decks["ally"][-1]
    T.run_steps(s, {"k": "draw_reward", "seat": 0, "deck": "ally"})
    assert top in s.heroes[0]["hand"]


def test_step_place_obstacle():
    s = T.run_steps(fresh(), {"k": "place_obstacle", "seat": 0})
    assert s.map[12]["obstacles"] == 1
    T.run_steps(s, {"k": "place_obstacle", "seat": None, "loc": 3})
    assert s.map[3]["obstacles"] == 1


def test_step_choose():
    s = fresh()
    T.run_steps(
        s,
        {
            "k": "choose",
            "seat": 0,
            "options": [
                {"label": "gold", "steps": [{"k": "gain_gold", "n": 2}]},
                {"label": "fate", "steps": [{"k": "gain_fate", "n": 1}]},
            ],
        },
    )
    assert prompt(s) == (0, "card_choice") and keys(s, 0) == ["opt0", "opt1"]
    assert act(s, 0, "opt0").heroes[0]["gold"] == 3
    assert act(s, 0, "opt1").heroes[0]["fate"] == 5


def test_step_choose_by_the_first_hero():
    s = fresh()
    T.run_steps(
        s,
        {
            "k": "choose",
            "seat": 0,
            "who": "first",
            "options": [{"label": "a", "steps": []}, {"label": "b", "steps": []}],
        },
    )
    assert prompt(s) == (s.first, "card_choice")


def test_step_each_hero():
    s = fresh()
    T.place_hero(s, 1, 3)
    T.run_steps(s, {"k": "each_hero", "seat": 0, "steps": [{"k": "gain_gold", "n": 1}]})
    assert [h["gold"] for h in s.heroes] == [2, 2]
    T.run_steps(
        s, {"k": "each_hero", "seat": 0, "here": True, "steps": [{"k": "gain_gold", "n": 1}]}
    )
    assert [h["gold"] for h in s.heroes] == [3, 2]


def test_step_test_gate():
    s = fresh()
    T.dice(s, 6, 1, 1, 1)
    T.run_steps(
        s,
        {
            "k": "test_gate",
            "seat": 0,
            "attr": "fight",
            "need": 1,
            "pass": [{"k": "gain_gold", "n": 5}],
            "fail": [{"k": "lose_gold", "n": 1}],
        },
    )
    assert s.heroes[0]["gold"] == 6
    T.dice(s, 1, 1, 1, 1)
    T.run_steps(
        s,
        {
            "k": "test_gate",
            "seat": 0,
            "attr": "fight",
            "need": 1,
            "pass": [{"k": "gain_gold", "n": 5}],
            "fail": [{"k": "lose_gold", "n": 1}],
        },
    )
    assert s.heroes[0]["gold"] == 5


def test_step_move_to_centre():
    s = fresh()
    T.place_hero(s, 0, 4)
    T.run_steps(s, {"k": "move_to_centre", "seat": 0})
    assert s.heroes[0]["loc"] == 12


def test_step_extra_night_card():
    s = fresh()
    n = len(s.decks["night"])
    T.run_steps(s, {"k": "extra_night_card", "seat": 0})
    assert len(s.decks["night"]) == n - 1 and events(s, "night_card")


def test_step_log_text():
    s = T.run_steps(fresh(), {"k": "log_text", "seat": 0, "text": "hello"})
    assert s.log[-1]["e"] == "text" and s.log[-1]["text"] == "hello"


def test_step_hide():
    s = T.run_steps(fresh(), {"k": "hide", "seat": 0})
    assert s.heroes[0]["hidden"]


def test_step_if_side():
    s = fresh()
    T.set_hero(s, 0, side="skull")
    branch = {"then": [{"k": "gain_gold", "n": 3}], "else": [{"k": "gain_hp", "n": 1}]}
    T.run_steps(s, {"k": "if_side", "seat": 0, "side": "skull", **branch})
    assert s.heroes[0]["gold"] == 4
    T.set_hero(s, 0, side="rose", hp=2)
    T.run_steps(s, {"k": "if_side", "seat": 0, "side": "skull", **branch})
    assert s.heroes[0]["gold"] == 4 and s.heroes[0]["hp"] == 3


def test_step_flip_side():
    s = fresh()
    T.set_hero(s, 0, side="skull")
    T.run_steps(s, {"k": "flip_side", "seat": 0})
    assert s.heroes[0]["side"] == "rose" and events(s, "side_flipped")
    T.run_steps(s, {"k": "flip_side", "seat": 0})
    assert s.heroes[0]["side"] == "skull"


def test_every_card_step_kind_has_its_own_test():
    here = sys.modules[__name__]
    names = {n for n, _ in inspect.getmembers(here, inspect.isfunction)}
    missing = [k for k in CARD_STEPS if f"test_step_{k}" not in names]
    assert not missing


def test_queued_steps_run_in_the_order_given_before_older_ones():
    s = fresh()
    s.prompt = None
    s.queue = [{"k": "gain_gold", "seat": 1, "n": 1}]
    push(s, {"k": "gain_gold", "seat": 0, "n": 1}, {"k": "lose_gold", "seat": 0, "n": 2})
    run(s)
    assert s.heroes[0]["gold"] == 0 and s.heroes[1]["gold"] == 2


def test_bind_fills_in_the_hero_without_overriding_explicit_seats():
    out = bind([{"k": "gain_gold", "n": 1}, {"k": "gain_gold", "n": 1, "seat": 3}], 1)
    assert [x["seat"] for x in out] == [1, 3]


def test_a_prompt_stops_the_interpreter_and_the_state_is_plain_data():
    s = fresh()
    T.run_steps(s, {"k": "choose", "seat": 0, "options": [{"label": "x", "steps": []}]})
    assert s.prompt["options"][0]["then"] == []
    restored = T.State.from_json(s.to_json())
    assert restored == s and keys(restored, 0) == ["opt0"]

import json
from pathlib import Path

import pytest

from games.kilforth.engine import IllegalAction, State, act, legal, view
from games.kilforth.engine import testing as T
from games.kilforth.engine.cards.catalogue import ContentError, load_files
from games.kilforth.engine.cards.steps import CARD_STEPS

from .kit import alone, events, game, keys, no_fate, prompt


def test_act_never_mutates_its_input_and_bumps_the_version():
    s = game()
    before = s.to_json()
    s2 = act(s, 1, "hide")
    assert s.to_json() == before
    assert s2.version == s.version + 1


def test_an_illegal_action_raises_a_readable_reason_and_changes_nothing():
    s = game()
    before = s.to_json()
    with pytest.raises(IllegalAction, match="not your decision"):
        act(s, 0, "hide")
    with pytest.raises(IllegalAction, match="not one of your options"):
        act(s, 1, "fly")
    assert s.to_json() == before
    over = T.run_steps(game(), {"k": "end_game", "reason": "x"})
    with pytest.raises(IllegalAction, match="over"):
        act(over, 0, "camp")


def test_choices_have_stable_keys_labels_and_data():
    s = game()
    for c in legal(s, 1):
        assert c.key and c.label and isinstance(c.data, dict)
    moves = [c for c in legal(s, 1) if c.key.startswith("move:")]
    assert all("loc" in c.data for c in moves)


def test_a_game_paused_mid_engagement_resumes_from_its_json():
    s = game()
    alone(no_fate(s))
    T.place_encounter(s, "e.stone_ogre", 12)
    T.dice(s, 1, 1, 1, 1, 1, 1, 1)
    T.begin_turn(s, 0)
    assert prompt(s) == (0, "escape")
    saved = json.loads(s.to_json())
    restored = State.from_json(json.dumps(saved))
    assert restored == s
    assert act(restored, 0, "fight") == act(s, 0, "fight")


def test_a_game_paused_mid_market_resumes_from_its_json():
    s = game()
    no_fate(s)
    T.begin_turn(s, 0)
    s = act(s, 0, "market")
    s = act(s, 0, "buy:item")
    restored = State.from_json(s.to_json())
    assert restored == s and keys(restored, 0) == keys(s, 0)


def test_whose_turn_and_who_must_answer_are_separate():
    s = game()
    s = act(s, 1, "team:0")
    assert s.turn == 1 and s.waiting_for == [0]


def test_view_hides_other_hands_deck_order_and_the_generator():
    s = game()
    v = view(s, 0)
    text = json.dumps(v)
    assert "rng" not in v and "queue" not in v and "forced_dice" not in v
    for c in s.heroes[1]["hand"]:
        assert f'"{c}"' not in json.dumps({k: x for k, x in v.items() if k != "log"})
    assert v["decks"]["forest"] == len(s.decks["forest"])
    assert all(f'"{c}"' not in text for c in s.decks["forest"])
    assert view(s, 1)["prompt"]["options"] and "options" not in view(s, 0)["prompt"]
    assert view(s, None)["heroes"][1]["hand_size"] == 1


def test_views_made_from_facts_shared_by_every_viewer_are_the_views_made_alone():
    import random

    from games.kilforth.engine import Settings, new_game, public_facts

    s = new_game(Settings(edition="shadows", mode="cooperative", heroes=3, open_hands=True), 5)
    rng = random.Random(5)
    for _ in range(120):
        shared = public_facts(s)
        # Nobody's hand or loot is among what everyone sees.
        assert all("hand" not in h and "loot" not in h for h in shared["heroes"])
        for viewer in (0, 1, 2, None):
            assert view(s, viewer, shared) == view(s, viewer)
        if s.result is not None:
            break
        seat = s.waiting_for[0]
        s = act(s, seat, rng.choice(legal(s, seat)).key)


def test_log_events_are_tagged_with_who_may_see_them():
    s = game()
    private = [e for e in s.log if e["vis"] != "all"]
    assert private and all(isinstance(e["vis"], int) for e in private)
    assert all(e["vis"] in ("all", 0) for e in view(s, 0)["log"])
    assert all(e["vis"] == "all" for e in view(s, None)["log"])


def test_an_empty_encounter_deck_is_refilled_from_its_discard_pile():
    s = game()
    no_fate(s)
    loc = next(x["id"] for x in s.map if T.content().cards[x["id"]]["terrain"] == "forest")
    T.place_hero(s, 0, loc)
    alone(s)
    pile = list(s.decks["forest"])
    s.decks["forest"].clear()
    s.discards["forest"].extend(pile)
    T.begin_turn(s, 0)
    s = act(s, 0, "search")
    assert events(s, "reshuffle")[-1]["deck"] == "forest"
    assert len(s.decks["forest"]) == len(pile) - 1 and s.discards["forest"] == []


def test_a_draw_from_an_empty_deck_and_discard_simply_does_not_happen():
    s = game()
    s.removed.extend(s.decks["ally"])
    s.decks["ally"].clear()
    T.run_steps(s, {"k": "draw_reward", "seat": 0, "deck": "ally"})
    assert events(s, "deck_empty")[-1]["deck"] == "ally"


def write(tmp_path, text):
    p = Path(tmp_path) / "bad.toml"
    p.write_text(text)
    return [p]


def test_card_loading_reports_the_file_and_card_id_of_an_unknown_step(tmp_path):
    files = write(tmp_path, 'loot = [{id = "l.x", name = "X", deed = [{k = "teleport"}]}]\n')
    with pytest.raises(ContentError, match=r"bad\.toml: card 'l\.x': unknown step kind"):
        load_files(files, set(CARD_STEPS))


def test_card_loading_reports_missing_fields_and_bad_values(tmp_path):
    with pytest.raises(ContentError, match="missing field 'deck'"):
        load_files(write(tmp_path, 'reward = [{id = "r.x", name = "X", gold = 1}]\n'), set())
    bad = 'encounter = [{id = "e.x", name = "X", type = "enemy", terrain = "swamp", health = 1}]\n'
    with pytest.raises(ContentError, match="terrain 'swamp'"):
        load_files(write(tmp_path, bad), set())
    with pytest.raises(ContentError, match="invalid TOML"):
        load_files(write(tmp_path, "reward = [\n"), set())


def test_the_starter_set_covers_every_encounter_type_on_every_terrain():
    c = T.content()
    for terrain in ("badlands", "forest", "mountain", "plains"):
        types = {
            c.cards[e]["type"] for e in c.by_kind["encounter"] if c.cards[e]["terrain"] == terrain
        }
        assert types == {"enemy", "place", "quest", "stranger", "event"}
    for ed in ("gloom", "shadows"):
        assert {c.cards[n]["type"] for n in c.night(ed)} >= {"weather", "event", "enemy"}
    assert len(c.races) >= 4 and len(c.classes) >= 4 and len(c.by_kind["saga"]) >= 4


def test_the_simulation_core_reports_speed_and_outcomes():
    from games.kilforth.engine import Settings
    from games.kilforth.engine.simulation.simulate import simulate

    seen = []
    report = simulate(Settings(mode="solo", heroes=1), 2, seed=7, progress=seen.append)
    assert report.games == 2 and seen == [1, 1]
    assert report.wins + report.losses == 2 and report.actions_mean > 0
    assert report.act_p50_us > 0 and report.act_p99_us >= report.act_p50_us
    assert any("games/s" in line for line in report.lines())


def test_a_game_paused_mid_chapter_resumes_from_its_json():
    s = game()
    no_fate(s)
    T.set_hero(s, 0, gold=10, chapter=3)
    for c in ("r.flamebearer", "r.tinderbox", "e.fungus_ring"):
        T.give(s, 0, c)
    T.begin_turn(s, 0)
    s = act(s, 0, "regale")
    s = act(s, 0, keys(s, 0)[0])
    assert prompt(s) == (0, "keyword")
    restored = State.from_json(s.to_json())
    assert restored == s
    for _ in range(3):
        if restored.prompt["kind"] != "keyword":
            break
        k = keys(restored, 0)[0]
        restored, s = act(restored, 0, k), act(s, 0, k)
    assert restored == s and s.heroes[0]["chapter"] == 4


def test_replaying_the_recorded_actions_from_the_seed_reproduces_the_game():
    import random

    from games.kilforth.engine import Settings, new_game

    settings = Settings(edition="shadows", mode="cooperative", heroes=3)
    s = new_game(settings, 77)
    r = random.Random(3)
    actions = []
    for _ in range(120):
        seat = s.waiting_for[0]
        actions.append((seat, r.choice(legal(s, seat)).key))
        s = act(s, *actions[-1])
    again = new_game(Settings.from_dict(s.settings), s.seed)
    for seat, key in actions:
        again = act(again, seat, key)
    assert again == s and again.version == 120


def test_a_new_state_shares_the_recent_plays_events_with_the_state_before_and_copies_the_rest():
    import random

    from games.kilforth.engine import Settings, new_game

    s = new_game(Settings(edition="gloom", mode="competitive", heroes=4), 5)
    r = random.Random(5)
    nights = tests = 0
    for _ in range(250):
        if s.result is not None:
            break
        before = s.to_json()
        seat = s.waiting_for[0]
        after = act(s, seat, r.choice(legal(s, seat)).key)
        assert s.to_json() == before  # nothing of the state before changed
        # Every event of the recent play is an event object of the log or of the state before.
        known = {id(e) for e in after.log}
        for old in (s.tests_seen, s.night_seen):
            known |= {id(e) for e in old["events"]} if old else set()
        for recent in (after.tests_seen, after.night_seen):
            if recent is not None:
                assert all(id(e) in known for e in recent["events"])
        assert all(id(e) in known for e in after.stretch)
        # ... while the lists and dicts holding them are the new state's own.
        assert after.stretch is not s.stretch
        if after.night_seen is not None:
            assert after.night_seen is not s.night_seen
            assert after.night_seen["events"] is not (s.night_seen or {}).get("events")
            nights += 1
        if after.tests_seen is not None:
            assert after.tests_seen is not s.tests_seen
            tests += 1
        s = after
    assert nights and tests


def test_the_engine_package_imports_nothing_from_django():
    import subprocess
    import sys

    code = (
        "import sys, games.kilforth.engine as e, games.kilforth.engine.testing, "
        "games.kilforth.engine.simulation.simulate; "
        "print(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(root)},
        check=True,
    )
    assert out.stdout.strip() == "False"


@pytest.mark.rule("TEST-1", "TEST-3")
def test_the_view_states_the_test_in_progress_with_its_dice_sources_and_threshold():
    s = game()
    T.set_hero(s, 0, fate=1, fate_day=0)
    T.dice(s, *[6] + [1] * 10)
    s = T.run_steps(s, {"k": "test", "seat": 0, "attr": "fight", "tag": "t", "team": False})
    assert s.prompt["kind"] == "fate"
    v = view(s, 0)
    test = v["test"]
    assert test["tester"] == 0 and test["attr"] == "fight" and test["threshold"] == 5
    assert [src for src, _ in test["sources"][:2]] == ["race", "class"]
    assert test["dice"] == sum(n for _, n in test["sources"]) and test["successes"] == 1
    assert test["fate_available"] and v["success_min"] == 5
    assert "(s)" not in s.prompt["text"] and all(
        "(s)" not in o["label"] for o in s.prompt["options"]
    )
    s = act(s, 0, "accept")
    assert view(s, 0)["test"] is None

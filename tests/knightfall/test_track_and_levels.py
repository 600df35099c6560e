"""The track's length and the standees per player count, and the co-op difficulty levels: content
data (content/track.json) read by the engine (KEND-7 and KMIN-3 leave these numbers to content)."""

from __future__ import annotations

import copy
import json

import pytest

from games.knightfall.engine import api
from games.knightfall.engine.content import ROOT, ContentError, content, validate
from games.knightfall.engine.steps import SUPPLY
from games.knightfall.engine.turns import make_character
from games.knightfall.kit import KIT, KnightfallOptionsForm, settings

from .rig import chars, run_steps


def _track() -> dict:
    return json.loads((ROOT / "track.json").read_text(encoding="utf-8"))


@pytest.mark.rule("KEND-7")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_door_and_the_standees_follow_the_player_count(players: int) -> None:
    s = api.new_game({"players": players}, 1)
    assert s["door"] == content().doors[players]
    assert s["supply"] == {**SUPPLY, **content().supply[players]}
    assert api.new_game({"players": players, "door": 12}, 1)["door"] == 12


@pytest.mark.rule("KMIN-3")
def test_the_supply_of_a_count_limits_its_golems() -> None:
    s = api.new_game({"players": 3}, 1)
    total = content().supply[3]["stone_golem"]
    while s["prompt"]["kind"] != "turn":
        s = api.act(s, s["prompt"]["seat"], s["prompt"]["options"][0]["key"])
    on = [u for u in s["units"].values() if u["type"] == "stone_golem" and u["tile"] is not None]
    assert len(on) + s["supply"]["stone_golem"] == total


@pytest.mark.rule("KCOOP-3", "KMAGIC-4")
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_co_op_level_sets_the_door_and_the_demons_health(level: str) -> None:
    lv = content().coop_levels[level]
    s = api.new_game({"mode": "coop", "players": 1, "coop_level": level}, 3)
    assert s["door"] == lv["door"]
    assert s["supply"] == {**SUPPLY, "stone_golem": lv["golems"], "imp": lv["imp_standees"]}
    while s["prompt"]["kind"] != "turn":
        s = api.act(s, s["prompt"]["seat"], s["prompt"]["options"][0]["key"])
    for d in chars(s, "demons"):
        card = content().chars[d["char"]]
        hardy = 1 if card["power"]["kind"] == "hardy" else 0
        assert d["max_hp"] == card["max_health"] + hardy + lv["demon_health"]
    fresh = make_character(s, "rime_hulk", None, 0, True)  # as a co-op respawn makes it
    card = content().chars["rime_hulk"]
    assert fresh["hp"] == card["health"] + lv["demon_health"]
    assert make_character(s, "rime_hulk", 0, 0, True)["hp"] == card["health"]  # a player's
    wraith = content().chars["crimson_wraith"]
    assert make_character(s, "crimson_wraith", None, 0, True)["hp"] == wraith["enters_at"]


@pytest.mark.rule("KEND-3")
def test_a_co_op_level_with_extra_imps_places_them_at_the_end_of_the_round() -> None:
    level = max(content().coop_levels, key=lambda k: content().coop_levels[k]["imps"])
    extra = content().coop_levels[level]["imps"]
    s = api.new_game({"mode": "coop", "players": 1, "coop_level": level}, 3)
    while s["prompt"]["kind"] != "turn":
        s = api.act(s, s["prompt"]["seat"], s["prompt"]["options"][0]["key"])
    s = copy.deepcopy(s)
    s["supply"]["imp"] = 6
    before = len(s["log"])
    s = run_steps(s, {"k": "end_round"})
    while s["prompt"] is not None and s["prompt"]["kind"] != "turn":  # golems act, one is placed
        s = api.act(s, s["prompt"]["seat"], s["prompt"]["options"][0]["key"])
    log = s["log"][before:]
    upto = next(i for i, e in enumerate(log) if e["e"] == "round")  # the end of round phase
    spawned = [e for e in log[:upto] if e["e"] == "spawned" and e["kind"] == "imp"]
    assert len(spawned) == 1 + extra
    standard = api.new_game({"players": 4}, 3)
    assert standard["settings"]["coop_level"] == "normal"  # no effect outside co-op


def test_an_unknown_co_op_level_is_refused() -> None:
    with pytest.raises(api.IllegalAction, match="no co-op level"):
        api.new_game({"mode": "coop", "players": 1, "coop_level": "nightmare"}, 1)


def test_the_track_validator_wants_every_count_and_a_normal_level() -> None:
    validate("track", _track())
    bad = _track()
    del bad["door"]["6"]
    with pytest.raises(ContentError, match="every standard count"):
        validate("track", bad)
    bad = _track()
    del bad["coop_levels"]["normal"]
    with pytest.raises(ContentError, match="normal level"):
        validate("track", bad)
    bad = _track()
    bad["supply"]["2"]["stone_golem"] = 0
    with pytest.raises(ContentError, match="standees"):
        validate("track", bad)


def test_the_host_picks_the_co_op_difficulty_in_the_new_table_form() -> None:
    form = KnightfallOptionsForm()
    assert [k for k, _ in form.fields["coop_level"].choices] == list(content().coop_levels)
    assert settings({"mode": "coop"}, 1)["coop_level"] == "normal"
    assert settings({"mode": "coop", "coop_level": "hard"}, 1)["coop_level"] == "hard"
    assert "Difficulty: hard" in KIT.options_summary({"mode": "coop", "coop_level": "hard"})

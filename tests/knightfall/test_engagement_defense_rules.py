"""Engagement and defense (KENG-*, KDEF-*): leaving a fight, blocking, guarding and defending."""

from __future__ import annotations

import pytest

from games.knightfall.engine.board import CENTRE, name

from .rig import at, bare, chars, elder, events, hp, keys, minion, pick, plain, run_steps


def _board(**settings):
    s = bare(locations=False, **settings)
    ks = [plain(s, k["id"])["id"] for k in chars(s, "knights")]
    ds = [plain(s, d["id"])["id"] for d in chars(s, "demons")]
    return s, ks, ds


@pytest.mark.rule("KENG-1")
def test_leaving_a_tile_costs_one_damage_per_enemy_before_the_move() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, k, 3)
    at(s, d, 3)
    minion(s, "imp", 3)
    s = pick(run_steps(s, {"k": "step", "n": 1, "src": k}), "move:0")
    assert s["units"][k]["hp"] == s["units"][k]["max_hp"] - 2 and s["units"][k]["tile"] == 0


@pytest.mark.rule("KENG-1")
def test_disengagement_damage_that_kills_stops_the_move() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, d, 3)
    at(s, k, 3)
    s["units"][d]["hp"] = 1
    s = pick(run_steps(s, {"k": "step", "n": 1, "src": d}), "move:0")
    assert d not in s["units"] and not [e for e in events(s, "moved")]


@pytest.mark.rule("KENG-2", "KELD-3")
def test_elders_neither_count_toward_disengagement_nor_take_it() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, d, 3)
    elder(s, 3)
    s1 = pick(run_steps(s, {"k": "step", "n": 1, "src": d}), "move:0")
    assert s1["units"][d]["hp"] == s1["units"][d]["max_hp"]
    e = elder(s, 0)
    at(s, d, 0)
    s2 = run_steps(s, {"k": "move", "unit": e, "to": 1, "own": True})
    assert hp(s2, e) == 6 and s2["units"][e]["tile"] == 1


@pytest.mark.rule("KENG-3", "KDEF-1")
def test_a_knight_may_spend_defense_to_block_disengagement() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, k, 3)
    at(s, d, 3)
    minion(s, "imp", 3)
    s["units"][k]["defense"] = 1
    s = run_steps(s, {"k": "step", "n": 1, "src": k})
    s = pick(s, "move:0")
    assert s["prompt"]["kind"] == "block" and keys(s) == ["block:0", "block:1"]
    s = pick(s, "block:1")
    u = s["units"][k]
    assert (u["hp"], u["defense"], u["tile"]) == (u["max_hp"] - 1, 0, 0)


@pytest.mark.rule("KENG-4", "KDEF-2")
def test_a_knight_leaping_to_defend_an_ally_takes_no_disengagement_damage() -> None:
    s, (k, k2, *_), (d, *_) = _board()
    at(s, k, 0)
    at(s, k2, 1)
    s["units"][k2]["defense"] = 2
    minion(s, "imp", 1)
    minion(s, "imp", 1)
    at(s, d, 0)
    s = run_steps(s, {"k": "hit", "target": k, "n": 2, "attack": True, "src": d})
    assert s["prompt"]["kind"] == "defend" and s["prompt"]["seat"] == s["units"][k2]["seat"]
    s = pick(s, "defend:2")
    u = s["units"][k2]
    assert (u["tile"], u["hp"], u["defense"]) == (0, u["max_hp"], 0)
    assert hp(s, k) == s["units"][k]["max_hp"]


@pytest.mark.rule("KENG-4")
def test_a_character_displaced_by_an_enemys_ability_takes_no_disengagement() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, k, 3)
    at(s, d, 3)
    minion(s, "imp", 3)
    s = pick(pick(run_steps(s, {"k": "push", "reach": "close", "src": d}), f"target:{k}"), "to:0")
    assert s["units"][k]["tile"] == 0 and hp(s, k) == s["units"][k]["max_hp"]


@pytest.mark.rule("KENG-5")
def test_in_coop_a_demon_moved_by_a_card_takes_disengagement() -> None:
    s = bare(mode="coop", players=1, locations=False)
    d = plain(s, chars(s, "demons")[0]["id"])["id"]
    at(s, d, 3)
    minion(s, "stone_golem", 3)
    elder(s, 0)
    s = run_steps(s, {"k": "ai_move", "n": 1, "src": d})
    assert s["units"][d]["tile"] == 0 and hp(s, d) == s["units"][d]["max_hp"] - 1


@pytest.mark.rule("KENG-6", "KMIN-5")
def test_a_minion_moving_on_its_own_takes_disengagement_but_not_when_displaced() -> None:
    s, (k, *_), (d, *_) = _board()
    imp = minion(s, "imp", 3)
    minion(s, "stone_golem", 3)
    s1 = run_steps(s, {"k": "minion_act", "unit": imp, "left": 1})
    assert {x.split(":")[2] for x in keys(s1)} == {"melee", "move", "rest"}
    s1 = pick(s1, f"m:{imp}:move:0")
    assert hp(s1, imp) == 1 and s1["units"][imp]["tile"] == 0
    at(s, k, 3)
    s2 = pick(run_steps(s, {"k": "push", "reach": "close", "src": k}), f"target:{imp}")
    s2 = pick(s2, "to:0")
    assert hp(s2, imp) == 2 and s2["units"][imp]["tile"] == 0


@pytest.mark.rule("KDEF-1")
def test_only_knights_have_defense_and_a_demon_is_never_asked_to_block() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, k, 3)
    at(s, d, 3)
    s["units"][k]["defense"] = 3
    s1 = run_steps(s, {"k": "hit", "target": k, "n": 2, "attack": True, "src": d})
    assert keys(s1) == ["block:0", "block:1", "block:2"]
    s1 = pick(s1, "block:2")
    assert hp(s1, k) == s1["units"][k]["max_hp"] and s1["units"][k]["defense"] == 1
    s2 = run_steps(s, {"k": "hit", "target": d, "n": 2, "attack": True, "src": k})
    assert s2["prompt"] is None and hp(s2, d) == s2["units"][d]["max_hp"] - 2
    assert "defense" not in s2["units"][d] or s2["units"][d]["defense"] == 0


@pytest.mark.rule("KDEF-2")
def test_an_adjacent_knight_defends_a_golem_on_another_players_turn() -> None:
    s, (k, k2, *_), (d, *_) = _board()
    g = minion(s, "stone_golem", CENTRE)
    at(s, d, CENTRE)
    at(s, k2, 1)
    s["units"][k2]["defense"] = 3
    s["turn"]["unit"] = d  # the demon's turn
    s = run_steps(s, {"k": "hit", "target": g, "n": 2, "attack": True, "src": d})
    assert {"pass", "defend:1", "defend:2"} == set(keys(s))
    s = pick(s, "defend:1")
    u = s["units"][k2]
    assert (u["tile"], u["defense"], u["hp"]) == (CENTRE, 2, u["max_hp"] - 1)
    assert hp(s, g) == 2


@pytest.mark.rule("KDEF-3")
def test_a_guarded_elder_cannot_be_chosen_as_a_target() -> None:
    s, (k, *_), (d, *_) = _board()
    e = elder(s, 3)
    at(s, d, 3)
    assert f"target:{e}" in keys(run_steps(s, {"k": "attack", "n": 1, "reach": "close", "src": d}))
    at(s, k, 3)
    assert f"target:{e}" not in keys(
        run_steps(s, {"k": "attack", "n": 1, "reach": "close", "src": d})
    )


@pytest.mark.rule("KDEF-4", "KCOOP-10")
def test_damage_aimed_at_a_guarded_elder_is_taken_by_the_knight_without_spending_defense() -> None:
    s, (k, k2, *_), (d, *_) = _board()
    e = elder(s, 3)
    at(s, k, 3)
    at(s, d, 3)
    s1 = run_steps(s, {"k": "hit", "target": e, "n": 2, "attack": True, "src": d})
    assert hp(s1, e) == 6 and hp(s1, k) == s1["units"][k]["max_hp"] - 2
    s["units"][k]["defense"] = 1  # open: it may still block with DEFENSE
    s2 = run_steps(s, {"k": "hit", "target": e, "n": 2, "attack": True, "src": d})
    assert s2["prompt"]["kind"] == "block"
    at(s, k2, 3)  # two knights: the knight team decides which takes it
    s["units"][k]["defense"] = 0
    s3 = run_steps(s, {"k": "hit", "target": e, "n": 2, "attack": True, "src": d})
    assert set(keys(s3)) == {f"guard:{k}", f"guard:{k2}"}
    s3 = pick(s3, f"guard:{k2}")
    assert hp(s3, k2) == s3["units"][k2]["max_hp"] - 2 and hp(s3, k) == s3["units"][k]["max_hp"]


@pytest.mark.rule("KDEF-5", "KDEF-6")
def test_all_enemies_damage_hits_knights_first_then_guarded_elders() -> None:
    s, (k, *_), (d, *_) = _board()
    e = elder(s, 3)
    g = minion(s, "stone_golem", 3)
    at(s, k, 3)
    at(s, d, 3)
    s = run_steps(s, {"k": "attack_all", "n": 1, "reach": "close", "src": d})
    assert hp(s, k) == s["units"][k]["max_hp"] - 1 and hp(s, e) == 5 and hp(s, g) == 1
    order = [x["who"] for x in events(s, "damage")]
    assert order[0] == "Iron Deacon" and order[1] == name(s, s["units"][e])


@pytest.mark.rule("KDEF-5", "KDEF-6")
def test_a_knight_on_the_tile_takes_its_own_share_then_may_take_an_elders() -> None:
    s, (k, *_), (d, *_) = _board()
    e = elder(s, 3)
    at(s, k, 3)
    at(s, d, 3)
    s["units"][k]["defense"] = 2
    s = run_steps(s, {"k": "attack_all", "n": 2, "reach": "close", "src": d})
    assert s["prompt"]["kind"] == "block"  # its own share first
    s = pick(s, "block:0")
    assert hp(s, k) == s["units"][k]["max_hp"] - 2 and hp(s, e) == 6
    assert s["prompt"]["kind"] == "defend"  # then the elder's share, which it may take
    s = pick(s, "defend:1")
    assert hp(s, k) == s["units"][k]["max_hp"] - 3 and hp(s, e) == 6


@pytest.mark.rule("KDEF-7")
def test_a_knight_moving_in_to_defend_takes_the_elders_damage_but_no_share_of_its_own() -> None:
    s, (k, *_), (d, *_) = _board()
    e = elder(s, 3)
    at(s, d, 3)
    at(s, k, 0)
    s["units"][k]["defense"] = 1
    s = run_steps(s, {"k": "attack_all", "n": 2, "reach": "close", "src": d})
    s = pick(s, "defend:1")
    u = s["units"][k]
    assert (u["tile"], u["hp"], u["defense"]) == (3, u["max_hp"] - 1, 0) and hp(s, e) == 6
    assert s["prompt"] is None

"""The co-op demon AI (KCOOP-*, KSLOW-5): cooperative cards, the hierarchy, named behaviours."""

from __future__ import annotations

import pytest

from games.knightfall.engine.board import CENTRE, name

from .rig import (
    at,
    bare,
    become,
    chars,
    elder,
    events,
    hp,
    keys,
    minion,
    pick,
    plain,
    run_steps,
)


def _coop(cid: str | None = None):
    """A bare solo co-op game; the first slot's paired demon (as `cid`) stands on the seal."""
    s = bare(mode="coop", players=1, locations=False)
    d = s["slots"][0]["pair"]
    if cid:
        become(s, d, cid)
        s["units"][d]["hp"] = s["units"][d]["max_hp"]
    else:
        plain(s, d)
    at(s, d, CENTRE)
    for k in chars(s, "knights"):
        plain(s, k["id"])
    return s, d


def _cards(s: dict, first: str, second: str) -> None:
    """Stack the co-op deck: `first` is drawn first (its top half), then `second`."""
    s["decks"]["coop"] = [second, first]


@pytest.mark.rule("KCOOP-5")
def test_a_demon_turn_plays_the_top_of_one_card_and_the_bottom_of_the_next() -> None:
    s, d = _coop()
    e = elder(s, 1)
    _cards(s, "coop_3", "coop_8")  # Spit (top) then Creep (bottom)
    s = run_steps(s, {"k": "coop_turn", "slot": 0})
    drawn = events(s, "coop_cards")[-1]
    assert (drawn["top"], drawn["bottom"]) == ("Spit", "Creep")
    assert hp(s, e) == 5 and s["units"][d]["tile"] == 1
    assert s["discards"]["coop"][-2:] == ["coop_3", "coop_8"]


@pytest.mark.rule("KCOOP-6", "KEND-4")
def test_a_killed_coop_demon_is_replaced_by_a_new_card_on_the_seal_tile_next_turn() -> None:
    s, d = _coop()
    at(s, d, 0)
    knights = s["score"]["knights"]
    s["decks"]["chars_demons"].append("murk_widow")
    s = run_steps(s, {"k": "hit", "target": d, "n": 99, "attack": False})
    assert s["score"]["knights"] == knights + 1 and s["slots"][0]["pair"] is None
    assert s["slots"][0]["pair_waiting"] == "murk_widow"
    _cards(s, "coop_9", "coop_9")
    s = run_steps(s, {"k": "coop_turn", "slot": 0})
    new = s["units"][s["slots"][0]["pair"]]
    assert (new["char"], new["tile"], new["seat"]) == ("murk_widow", CENTRE, None)


@pytest.mark.rule("KCOOP-9", "KCOOP-7")
def test_a_demon_told_to_move_leaves_even_an_undefended_elder_on_its_tile() -> None:
    s, d = _coop()
    at(s, d, 3)
    elder(s, 3)
    far = elder(s, 5)
    s = run_steps(s, {"k": "ai_move", "n": 1, "src": d})
    assert s["units"][d]["tile"] == CENTRE  # toward the closest other enemy
    assert events(s, "ai")[-1]["what"].endswith(f"{name(s, s['units'][far])} for its movement")


@pytest.mark.rule("KCOOP-8", "KCOOP-10")
def test_an_attack_picks_by_the_hierarchy_and_a_guarded_elders_damage_goes_to_its_knight() -> None:
    s, d = _coop()
    k = chars(s, "knights")[0]["id"]
    at(s, k, CENTRE)
    e = elder(s, CENTRE)
    g = minion(s, "stone_golem", CENTRE)
    s = run_steps(s, {"k": "ai_attack", "n": 1, "reach": "close", "src": d})
    assert hp(s, e) == 6 and hp(s, g) == 2 and hp(s, k) == s["units"][k]["max_hp"] - 1


@pytest.mark.rule("KCOOP-10")
def test_an_attack_with_no_enemy_in_reach_is_lost() -> None:
    s, d = _coop()
    e = elder(s, 1)  # adjacent, not close
    s = run_steps(s, {"k": "ai_attack", "n": 1, "reach": "close", "src": d})
    assert hp(s, e) == 6 and events(s, "ai")[-1]["what"] == "attacks nothing"


@pytest.mark.rule("KCOOP-11")
@pytest.mark.parametrize(("way", "end"), [("cw", 8), ("ccw", 2)])
def test_ring_movement_steps_out_of_the_centre_by_the_hierarchy_then_circles(
    way: str, end: int
) -> None:
    s, d = _coop()
    elder(s, 5)
    elder(s, 6, hp=4)  # not close: the ring ignores it
    s = run_steps(s, {"k": "ai_ring", "n": 2, "dir": way, "src": d})
    assert [e["tile"] for e in events(s, "moved")] == [
        s["tiles"][5].replace("_", " "),
        s["tiles"][end].replace("_", " "),
    ]


@pytest.mark.rule("KCOOP-12", "KMIN-6")
def test_coop_imps_heal_first_then_melee_by_the_hierarchy_or_move_toward_a_target() -> None:
    s, d = _coop()
    imp = minion(s, "imp", 3, hp=1)
    e = elder(s, 3)
    g = minion(s, "stone_golem", 3)
    s1 = run_steps(s, {"k": "minion_act", "unit": imp, "left": 2})
    assert hp(s1, imp) == 2 and hp(s1, e) == 5 and hp(s1, g) == 2
    lone = minion(s, "imp", 8)
    s2 = run_steps(s, {"k": "minion_act", "unit": lone, "left": 1})
    assert s2["units"][lone]["tile"] in (5, 7)


@pytest.mark.rule("KCOOP-13")
def test_a_respawn_replaces_the_demon_at_its_current_health_without_a_kill() -> None:
    s, d = _coop()
    s["units"][d]["hp"] = 3
    s["decks"]["chars_demons"].append("savage_husk")
    score = dict(s["score"])
    s = run_steps(s, {"k": "ai_respawn", "src": d})
    new = s["units"][s["slots"][0]["pair"]]
    assert d not in s["units"] and new["char"] == "savage_husk" and new["hp"] == 3
    assert new["tile"] == CENTRE and s["score"] == score


@pytest.mark.rule("KMAGIC-4", "KCOOP-13")
def test_the_crimson_wraith_enters_a_respawn_at_six_health_whatever_the_old_demon_had() -> None:
    s, d = _coop()
    s["units"][d]["hp"] = 2
    s["decks"]["chars_demons"].append("crimson_wraith")
    s = run_steps(s, {"k": "ai_respawn", "src": d})
    assert s["units"][s["slots"][0]["pair"]]["hp"] == 6


@pytest.mark.rule("KCOOP-14")
def test_the_rime_hulk_always_blocks_with_all_the_frost_it_can() -> None:
    s, d = _coop("rime_hulk")
    k = chars(s, "knights")[0]["id"]
    s["units"][d]["ice"] = 2
    s = run_steps(s, {"k": "hit", "target": d, "n": 3, "attack": True, "src": k})
    assert s["prompt"] is None and s["units"][d]["ice"] == 0
    assert hp(s, d) == s["units"][d]["max_hp"] - 1


@pytest.mark.rule("KCOOP-14", "KMAGIC-7")
def test_the_imp_tyrant_always_sends_damage_to_a_close_imp() -> None:
    s, d = _coop("imp_tyrant")
    k = chars(s, "knights")[0]["id"]
    imp = minion(s, "imp", CENTRE)
    s = run_steps(s, {"k": "hit", "target": d, "n": 1, "attack": True, "src": k})
    assert s["prompt"] is None and hp(s, imp) == 1 and hp(s, d) == s["units"][d]["max_hp"]


@pytest.mark.rule("KCOOP-15")
def test_the_gloom_matron_stares_after_a_card_moves_it_and_the_players_choose() -> None:
    s, d = _coop("gloom_matron")
    k = chars(s, "knights")[0]
    at(s, k["id"], 1)
    g = minion(s, "stone_golem", 1)
    s = run_steps(s, {"k": "ai_move", "n": 1, "src": d})
    assert s["units"][d]["tile"] == 1 and s["prompt"]["kind"] == "gaze"
    assert s["prompt"]["seat"] == k["seat"]
    assert set(keys(s)) == {f"gaze:{k['id']}", f"gaze:{g}"}
    s = pick(s, f"gaze:{g}")
    assert hp(s, g) == 1


@pytest.mark.rule("KCOOP-15")
def test_the_spitehorn_uses_malice_at_the_end_of_its_turn() -> None:
    s, d = _coop("spite_horn")
    e = elder(s, CENTRE)
    g = minion(s, "stone_golem", CENTRE)
    _cards(s, "coop_3", "coop_3")  # ranged only: nothing adjacent
    s = run_steps(s, {"k": "coop_turn", "slot": 0})
    assert hp(s, e) == 5 and hp(s, g) == 1


@pytest.mark.rule("KCOOP-15")
def test_the_bone_grinder_bursts_when_it_is_killed() -> None:
    s, d = _coop("bone_grinder")
    k = chars(s, "knights")[0]["id"]
    at(s, k, CENTRE)
    g = minion(s, "stone_golem", CENTRE)
    s = run_steps(s, {"k": "hit", "target": d, "n": 99, "attack": False})
    assert d not in s["units"] and hp(s, g) == 1 and hp(s, k) == s["units"][k]["max_hp"] - 1


@pytest.mark.rule("KCOOP-16")
def test_the_cinder_spawn_burns_each_tile_it_enters_and_itself() -> None:
    s, d = _coop("cinder_spawn")
    e = elder(s, 1)
    g = minion(s, "stone_golem", 1)
    s = run_steps(s, {"k": "ai_move", "n": 1, "src": d})
    assert s["units"][d]["tile"] == 1
    assert hp(s, e) == 5 and hp(s, g) == 1 and hp(s, d) == s["units"][d]["max_hp"] - 1


@pytest.mark.rule("KCOOP-17")
def test_the_soul_leech_always_makes_an_extra_move_after_its_cards() -> None:
    s, d = _coop("soul_leech")
    elder(s, 2)
    _cards(s, "coop_9", "coop_9")  # no movement on the cards
    s = run_steps(s, {"k": "coop_turn", "slot": 0})
    assert s["units"][d]["tile"] in (1, 5)


@pytest.mark.rule("KCOOP-17")
def test_the_crimson_wraith_moves_once_more_only_if_the_cards_moved_it() -> None:
    s, d = _coop("crimson_wraith")
    elder(s, 0)
    _cards(s, "coop_9", "coop_9")
    still = run_steps(s, {"k": "coop_turn", "slot": 0})
    assert still["units"][d]["tile"] == CENTRE
    _cards(s, "coop_9", "coop_2")  # Creep: move 1 on the bottom half
    moved = run_steps(s, {"k": "coop_turn", "slot": 0})
    assert moved["units"][d]["tile"] == 0 and len(events(moved, "moved")) == 2


@pytest.mark.rule("KCOOP-18", "KMAGIC-1")
def test_the_tempest_maws_ongoing_power_is_off_in_coop_only() -> None:
    s, d = _coop("tempest_maw")
    at(s, d, 3)
    minion(s, "stone_golem", 3)
    elder(s, 0)
    s1 = run_steps(s, {"k": "ai_move", "n": 1, "src": d})
    assert hp(s1, d) == s1["units"][d]["max_hp"] - 1  # it leaves the fight and pays
    std = bare(locations=False)
    sd = become(std, chars(std, "demons")[0]["id"], "tempest_maw")
    at(std, sd["id"], 3)
    minion(std, "stone_golem", 3)
    std = pick(run_steps(std, {"k": "step", "n": 1, "src": sd["id"]}), "move:0")
    assert hp(std, sd["id"]) == sd["hp"]


@pytest.mark.rule("KCOOP-19")
def test_the_savage_husk_heals_at_the_end_of_its_turn_or_moves_if_unhurt() -> None:
    s, d = _coop("savage_husk")
    elder(s, 1)
    _cards(s, "coop_9", "coop_9")
    s["units"][d]["hp"] -= 2  # its own regrowth heals 1 at the start, the trait 1 more
    hurt = run_steps(s, {"k": "coop_turn", "slot": 0})
    assert hurt["units"][d]["tile"] == CENTRE and hp(hurt, d) == hurt["units"][d]["max_hp"]
    s["units"][d]["hp"] = s["units"][d]["max_hp"]
    full = run_steps(s, {"k": "coop_turn", "slot": 0})
    assert full["units"][d]["tile"] == 1


@pytest.mark.rule("KSLOW-5")
def test_a_coop_demon_that_would_be_slowed_takes_one_damage_instead() -> None:
    s, d = _coop()
    k = chars(s, "knights")[0]["id"]
    s = run_steps(s, {"k": "hit", "target": d, "n": 1, "attack": True, "slow": True, "src": k})
    assert hp(s, d) == s["units"][d]["max_hp"] - 2

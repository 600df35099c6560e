"""Death, replacement, slow and scoring (KDEATH-*, KSLOW-*, KELD-2, KEND-4/5/7)."""

from __future__ import annotations

import pytest

from games.knightfall.engine.board import CENTRE, CORNERS
from games.knightfall.engine.content import content

from .rig import (
    at,
    bare,
    become,
    chars,
    elder,
    events,
    hand,
    hp,
    keys,
    minion,
    pick,
    plain,
    run_steps,
    start,
    turn,
    turn_slot,
)


def _board(**settings):
    s = bare(locations=False, **settings)
    ks = [plain(s, k["id"])["id"] for k in chars(s, "knights")]
    ds = [plain(s, d["id"])["id"] for d in chars(s, "demons")]
    return s, ks, ds


def _kill(s: dict, uid: str) -> dict:
    return run_steps(s, {"k": "hit", "target": uid, "n": 99, "attack": False})


@pytest.mark.rule("KDEATH-1", "KEND-5")
def test_a_killed_knight_leaves_the_game_and_the_demons_score_one() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, k, 0)
    before = s["score"]["demons"]
    s = _kill(s, k)
    assert k not in s["units"] and s["score"]["demons"] == before + 1
    assert events(s, "killed")


@pytest.mark.rule("KDEATH-2", "KDEATH-4", "KDEATH-5")
def test_a_new_knight_takes_the_slot_at_its_next_turn_on_any_corner_with_one_defense() -> None:
    s, (k, k2, *_), (d, *_) = _board()
    at(s, k, 0)
    at(s, k2, 2)
    slot, seat = s["units"][k]["slot"], s["units"][k]["seat"]
    s["decks"]["chars_knights"].append("bell_ringer")  # starting DEFENSE 2 on its card
    s = _kill(s, k)
    assert s["slots"][slot]["waiting"] == "bell_ringer" and s["slots"][slot]["unit"] is None
    assert not any(u["char"] == "bell_ringer" for u in s["units"].values())  # not yet in play
    s = turn_slot(s, slot)
    assert s["prompt"]["kind"] == "place" and set(keys(s)) == {f"corner:{c}" for c in CORNERS}
    s = pick(s, "corner:2")  # occupied by another knight: allowed
    new = s["units"][s["slots"][slot]["unit"]]
    assert (new["char"], new["tile"], new["seat"], new["slot"]) == ("bell_ringer", 2, seat, slot)
    assert new["defense"] == 1 and new["hp"] == content().chars["bell_ringer"]["health"]


@pytest.mark.rule("KDEATH-5")
def test_a_new_demon_enters_on_the_seal_tile_at_its_slots_next_turn() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, d, 0)
    slot = s["units"][d]["slot"]
    s["decks"]["chars_demons"].append("spite_horn")
    s = turn_slot(_kill(s, d), slot)
    new = s["units"][s["slots"][slot]["unit"]]
    assert new["char"] == "spite_horn" and new["tile"] == CENTRE
    assert s["prompt"]["kind"] == "turn" and s["turn"]["unit"] == new["id"]


@pytest.mark.rule("KDEATH-3", "KSLOW-3")
def test_the_player_keeps_its_hand_and_slowed_card_when_its_character_dies() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, k, 0)
    seat = s["units"][k]["seat"]
    hand(s, seat, f"basic_{seat}", "kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    s = run_steps(s, {"k": "slow", "target": k})
    slowed = s["players"][seat]["slowed"]
    held = list(s["players"][seat]["hand"])
    s = _kill(s, k)
    assert s["players"][seat]["hand"] == held and s["players"][seat]["slowed"] == slowed


@pytest.mark.rule("KDEATH-6")
def test_a_knight_killed_on_its_own_turn_is_replaced_at_once_and_plays_on() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, k, 3)
    at(s, d, 3)
    seat = s["units"][k]["seat"]
    hand(s, seat, f"basic_{seat}", "kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    s = turn(s, k)
    s["units"][k]["hp"] = 1
    s = pick(pick(s, "basic:move"), "move:0")  # disengagement kills it
    assert k not in s["units"] and s["prompt"]["kind"] == "place"
    s = pick(s, "corner:6")
    new = s["turn"]["unit"]
    assert new != k and s["units"][new]["tile"] == 6
    assert s["prompt"]["kind"] == "turn" and len(s["players"][seat]["hand"]) == 3


@pytest.mark.rule("KDEATH-7", "KMIN-7")
def test_ice_golems_outlive_their_maker_and_act_at_its_slots_turn() -> None:
    s, (k, *_), (d, *_) = _board()
    become(s, k, "frost_sentinel")
    at(s, k, 0)
    slot = s["units"][k]["slot"]
    s["turn"]["unit"] = k
    s = run_steps(s, {"k": "gain_magic", "n": 2, "src": k})
    golem = next(u["id"] for u in s["units"].values() if u["type"] == "ice_golem")
    assert s["units"][golem]["owner_seat"] == s["units"][k]["seat"]
    s["turn"]["unit"] = None  # killed on another player's turn
    s = _kill(s, k)
    assert s["units"][golem]["tile"] == 0
    s["decks"]["chars_knights"].append("grey_pilgrim")
    s = pick(turn_slot(s, slot), "corner:8")
    assert s["prompt"]["kind"] == "minion" and s["prompt"]["options"][0]["key"].startswith(
        f"m:{golem}:"
    )


@pytest.mark.rule("KDEATH-7", "KMIN-8")
def test_the_bone_grinders_crawlers_crumble_when_it_dies_and_nobody_scores_for_them() -> None:
    s, (k, *_), (d, *_) = _board()
    u = become(s, d, "bone_grinder")
    at(s, d, 3)
    imp = minion(s, "imp", 3)
    own = {"owner": d, "owner_seat": u["seat"], "owner_slot": u["slot"]}
    crawler = minion(s, "bone_crawler", 3, **own)
    s = turn(s, d)  # its power raises a second crawler; the first takes its 1 action
    assert s["prompt"]["kind"] == "minion" and f"m:{crawler}:rest" in keys(s)
    s = pick(s, f"m:{crawler}:rest")
    assert s["prompt"]["kind"] == "turn"  # one action only
    assert sum(1 for x in s["units"].values() if x["type"] == "bone_crawler") == 2
    knights = s["score"]["knights"]
    s["turn"]["unit"] = None
    s = _kill(s, d)
    assert not any(x["type"] == "bone_crawler" for x in s["units"].values())
    assert imp in s["units"] and s["score"]["knights"] == knights + 1
    assert s["supply"]["bone_crawler"] == 4


@pytest.mark.rule("KDEATH-7", "KMAGIC-5")
def test_embers_stay_after_their_maker_dies_until_its_replacement_is_placed() -> None:
    s, (k, *_), (d, *_) = _board()
    become(s, k, "ember_warden")
    at(s, k, 3)
    slot = s["units"][k]["slot"]
    s["turn"]["unit"] = k
    s = run_steps(s, {"k": "gain_magic", "n": 2, "src": k})
    s["turn"]["unit"] = None  # killed on another player's turn
    s = _kill(s, k)
    assert [e["tile"] for e in s["effects"]] == [3]
    s["decks"]["chars_knights"].append("grey_pilgrim")
    s = turn_slot(s, slot)
    assert s["effects"] == []


@pytest.mark.rule("KDEATH-8")
def test_with_the_character_deck_empty_the_slot_is_skipped() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, k, 0)
    slot = s["units"][k]["slot"]
    s["decks"]["chars_knights"] = []
    s = turn_slot(_kill(s, k), slot)
    assert events(s, "skipped") and s["slot"] != slot


@pytest.mark.rule("KSLOW-1", "KSLOW-2")
def test_a_slowed_card_is_a_random_power_card_used_only_as_a_minor_action_next_turn() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, k, 0)
    seat = s["units"][k]["seat"]
    hand(s, seat, f"basic_{seat}", "kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    s = run_steps(s, {"k": "slow", "target": k})
    card = s["players"][seat]["slowed"]["card"]
    assert not card.startswith("basic")
    s = turn(s, k)
    mine = {x.split(":")[0] for x in keys(s) if card in x}
    assert mine == {"minor", "discard"}
    s = pick(s, f"minor:{card}:defend")
    assert s["players"][seat]["slowed"] is None


@pytest.mark.rule("KSLOW-3")
def test_a_second_slow_or_a_slow_on_an_empty_hand_has_no_effect() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, k, 0)
    seat = s["units"][k]["seat"]
    hand(s, seat, f"basic_{seat}", "kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    s = run_steps(s, {"k": "slow", "target": k})
    first = s["players"][seat]["slowed"]
    s = run_steps(s, {"k": "slow", "target": k})
    assert s["players"][seat]["slowed"] == first and len(events(s, "slowed")) == 1
    hand(s, seat, f"basic_{seat}")
    s = run_steps(s, {"k": "slow", "target": k})
    assert s["players"][seat]["slowed"] is None


@pytest.mark.rule("KSLOW-4")
def test_minions_and_elders_are_never_slowed_and_a_guarding_knight_is_slowed_instead() -> None:
    s, (k, *_), (d, *_) = _board()
    imp = minion(s, "imp", 0)
    s1 = run_steps(s, {"k": "hit", "target": imp, "n": 1, "attack": True, "slow": True, "src": k})
    assert not events(s1, "slowed") and hp(s1, imp) == 1
    e = elder(s, 3)
    at(s, k, 3)
    at(s, d, 3)
    seat = s["units"][k]["seat"]
    hand(s, seat, f"basic_{seat}", "kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    s2 = run_steps(s, {"k": "hit", "target": e, "n": 1, "attack": True, "slow": True, "src": d})
    assert hp(s2, e) == 6 and s2["players"][seat]["slowed"] is not None


@pytest.mark.rule("KELD-2", "KEND-5")
def test_an_elder_at_zero_health_is_removed_and_the_demons_score_two() -> None:
    s, (k, *_), (d, *_) = _board()
    e = elder(s, 0, hp=1)
    at(s, d, 0)
    before = s["score"]["demons"]
    s = run_steps(s, {"k": "hit", "target": e, "n": 1, "attack": True, "src": d})
    assert hp(s, e) is None and s["score"]["demons"] == before + 2


@pytest.mark.rule("KEND-4", "KEND-5", "KMIN-4")
def test_a_demon_kill_scores_one_for_the_knights_and_a_minion_kill_scores_nothing() -> None:
    s, (k, *_), (d, *_) = _board()
    at(s, d, 0)
    imp = minion(s, "imp", 0)
    g = minion(s, "stone_golem", 0)
    score = dict(s["score"])
    s = _kill(_kill(s, imp), g)
    assert s["score"] == score
    s = _kill(s, d)
    assert s["score"] == {**score, "knights": score["knights"] + 1}


@pytest.mark.rule("KEND-7", "KEND-6")
def test_points_come_one_at_a_time_and_stop_at_the_door() -> None:
    s, (k, *_), (d, *_) = _board()
    s["score"] = {"demons": s["door"] - 1, "knights": s["door"] - 1}
    e = elder(s, 0, hp=1)
    at(s, d, 0)
    at(s, k, 0)
    s = run_steps(
        s,
        {"k": "hit", "target": e, "n": 1, "attack": True, "all": True, "src": d},
        {"k": "hit", "target": d, "n": 99, "attack": False},
    )
    assert s["result"]["winner"] == "demons"
    assert s["score"] == {"demons": s["door"], "knights": s["door"] - 1}


@pytest.mark.rule("KSLOW-2")
def test_a_card_slowed_on_another_players_turn_is_a_minor_action_on_the_owners_next_turn() -> None:
    s = start(players=2, locations=False)
    demons = s["prompt"]["seat"]
    knights = 1 - demons
    for seat in (demons, knights):  # a full round of turns: everything discarded
        for card in list(s["players"][seat]["hand"]):
            s = pick(s, f"discard:{card}")
    knight = next(u for u in s["units"].values() if u["type"] == "knight" and u["tile"] is not None)
    s = run_steps(s, {"k": "slow", "target": knight["id"]}, {"k": "menu"})  # on the demons' turn
    card = s["players"][knights]["slowed"]["card"]
    for c in list(s["players"][demons]["hand"]):
        s = pick(s, f"discard:{c}")
    assert s["prompt"]["seat"] == knights
    assert {k.split(":")[0] for k in keys(s) if card in k} == {"minor", "discard"}
    s = pick(s, f"minor:{card}:defend")
    assert s["players"][knights]["slowed"] is None and card not in s["players"][knights]["hand"]

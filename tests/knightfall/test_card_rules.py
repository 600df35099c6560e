"""Playing cards, actions, magic and powers (KCARD-*, KACT-*, KMAGIC-*)."""

from __future__ import annotations

import pytest

from games.knightfall.engine.board import CENTRE
from games.knightfall.engine.content import content

from .rig import (
    at,
    bare,
    become,
    chars,
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
)


def _knight_turn(*cards: str, **settings):
    """A bare game on a plain knight's turn (tile 3) holding `cards`, a plain demon close."""
    s = bare(locations=False, **settings)
    k, d = chars(s, "knights")[0], chars(s, "demons")[0]
    plain(s, k["id"])
    plain(s, d["id"])
    k["defense"] = 0
    for other in chars(s, "knights")[1:] + chars(s, "demons")[1:]:
        at(s, other["id"], 8)
    at(s, k["id"], 3)
    at(s, d["id"], 3)
    seat = k["seat"]
    hand(s, seat, f"basic_{seat}", *cards)
    return turn(s, k["id"]), k["id"], d["id"], seat


@pytest.mark.rule("KCARD-2")
def test_a_primary_ability_resolves_fully_then_its_card_is_discarded() -> None:
    s, k, d, seat = _knight_turn("kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    s = pick(s, "primary:kp_strike#1")
    assert s["prompt"]["kind"] == "target"  # nothing else may be played meanwhile
    s = pick(s, f"target:{d}")
    assert hp(s, d) == s["units"][d]["max_hp"] - 2
    assert "kp_strike#1" in s["discards"]["knights"]
    assert "kp_strike#1" not in s["players"][seat]["hand"]


@pytest.mark.rule("KCARD-3", "KDEATH-1")
def test_a_seal_stays_in_front_one_at_a_time_and_is_discarded_when_its_bearer_dies() -> None:
    s, k, d, seat = _knight_turn("kp_shieldseal#1", "kp_lifeseal#1", "kp_focus#1")
    s = pick(s, "primary:kp_shieldseal#1")
    assert s["units"][k]["seal"] == "kp_shieldseal#1"
    assert "kp_shieldseal#1" not in s["discards"]["knights"] + s["players"][seat]["hand"]
    s = pick(s, "primary:kp_lifeseal#1")
    assert s["units"][k]["seal"] == "kp_lifeseal#1"
    assert "kp_shieldseal#1" in s["discards"]["knights"]
    s = run_steps(s, {"k": "hit", "target": k, "n": 99, "attack": False})
    assert "kp_lifeseal#1" in s["discards"]["knights"]


@pytest.mark.rule("KCARD-4", "KACT-1")
def test_a_secondary_ability_gives_one_action_per_symbol_one_after_the_other() -> None:
    s, k, d, seat = _knight_turn("kp_sweep#1", "kp_bulwark#1", "kp_focus#1")
    s = pick(s, "secondary:kp_sweep#1")
    assert keys(s) == ["sym:0:melee", "sym:1:melee", "sym:stop"]
    s = pick(pick(s, "sym:0:melee"), f"target:{d}")
    assert s["prompt"]["kind"] == "symbols"  # the second symbol comes before any other card
    s = pick(pick(s, "sym:0:melee"), f"target:{d}")
    assert hp(s, d) == s["units"][d]["max_hp"] - 2
    assert "kp_sweep#1" in s["discards"]["knights"]


@pytest.mark.rule("KCARD-4")
def test_stopping_after_one_symbol_loses_the_other() -> None:
    s, k, d, seat = _knight_turn("kp_bulwark#1", "kp_strike#1", "kp_focus#1")
    s = pick(s, "secondary:kp_bulwark#1")
    s = pick(pick(s, "sym:0:defend"), "sym:stop")
    assert s["units"][k]["defense"] == 1 and s["prompt"]["kind"] == "turn"


@pytest.mark.rule("KCARD-5")
def test_a_minor_action_offers_the_six_actions_of_the_teams_card_back() -> None:
    s, k, d, seat = _knight_turn("kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    minor = {x.split(":")[2] for x in keys(s) if x.startswith("minor:kp_strike#1:")}
    assert minor == {"melee", "ranged", "move", "heal", "magic", "defend"}
    s = pick(s, "minor:kp_strike#1:defend")
    assert s["units"][k]["defense"] == 1 and "kp_strike#1" in s["discards"]["knights"]
    dem = bare(locations=False)
    dd = chars(dem, "demons")[0]
    at(dem, dd["id"], 0)
    hand(dem, dd["seat"], f"basic_{dd['seat']}", "dp_claw#1", "dp_hurl#1", "dp_feast#1")
    dem = turn(dem, dd["id"])
    back = {x.split(":")[2] for x in keys(dem) if x.startswith("minor:dp_claw#1:")}
    assert back == {"melee", "ranged", "move", "heal", "magic", "command"}


@pytest.mark.rule("KCARD-6", "KMAGIC-2")
def test_one_magic_symbol_does_nothing_and_a_second_completes_a_use() -> None:
    s, k, d, seat = _knight_turn("kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    become(s, k, "oath_breaker")  # Reckoning: 2 damage to a close or adjacent enemy
    s = pick(s, "basic:magic")
    assert s["prompt"]["kind"] == "turn" and not events(s, "ability")
    s = pick(s, "minor:kp_strike#1:magic")
    assert s["prompt"]["kind"] == "target" and len(events(s, "ability")) == 1


@pytest.mark.rule("KMAGIC-3", "KMAGIC-2")
def test_four_magic_symbols_in_a_turn_give_two_uses() -> None:
    s, k, d, seat = _knight_turn("kp_focus#1", "kp_focus#2", "kp_bulwark#1")
    become(s, k, "grey_pilgrim")  # Steady hand: gain 2 DEFENSE
    s["units"][k]["hp"] = s["units"][k]["max_hp"]
    s = pick(pick(s, "primary:kp_focus#1"), "primary:kp_focus#2")
    assert len(events(s, "ability")) == 2 and s["units"][k]["defense"] == 3


@pytest.mark.rule("KMAGIC-2")
def test_an_unpaired_magic_symbol_is_lost_at_the_end_of_the_turn() -> None:
    s, k, d, seat = _knight_turn("kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    s = pick(s, "basic:magic")
    assert s["turn"]["magic"] == 1
    for card in ("kp_strike#1", "kp_bulwark#1", "kp_focus#1"):
        s = pick(s, f"discard:{card}")
    assert s["turn"]["unit"] != k and s["turn"]["magic"] == 0


@pytest.mark.rule("KCARD-7", "KENG-1")
def test_a_characters_own_power_beats_the_general_disengagement_rule() -> None:
    s = bare(locations=False)
    k = chars(s, "knights")[0]["id"]
    become(s, k, "veil_strider")  # takes no disengagement damage
    s["units"][k]["defense"] = 0
    at(s, k, 3)
    minion(s, "imp", 3)
    s = pick(run_steps(s, {"k": "step", "n": 1, "src": k}), "move:0")
    assert s["units"][k]["tile"] == 0 and s["units"][k]["hp"] == s["units"][k]["max_hp"]


@pytest.mark.rule("KCARD-8", "KTURN-4")
def test_an_empty_power_deck_is_rebuilt_from_its_discards() -> None:
    s, k, d, seat = _knight_turn("kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    old = list(s["decks"]["knights"])
    s["discards"]["knights"] = old
    s["decks"]["knights"] = []
    for card in (f"basic_{seat}", "kp_strike#1", "kp_bulwark#1", "kp_focus#1"):
        s = pick(s, f"discard:{card}")
    held = s["players"][seat]["hand"]
    assert len(held) == 4 and f"basic_{seat}" in held
    assert s["discards"]["knights"] == []
    assert sorted(s["decks"]["knights"] + held[1:]) == sorted(
        old + ["kp_strike#1", "kp_bulwark#1", "kp_focus#1"]
    )


@pytest.mark.rule("KACT-2", "KACT-8")
def test_melee_deals_one_damage_and_a_minion_at_zero_is_removed_to_the_supply() -> None:
    s, k, d, seat = _knight_turn("kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    imp = minion(s, "imp", 3, hp=1)
    supply = s["supply"]["imp"]
    s = pick(pick(s, "minor:kp_strike#1:melee"), f"target:{imp}")
    assert imp not in s["units"] and s["supply"]["imp"] == supply + 1
    s = pick(pick(s, "minor:kp_bulwark#1:melee"), f"target:{d}")
    assert hp(s, d) == s["units"][d]["max_hp"] - 1


@pytest.mark.rule("KACT-5")
def test_healing_never_lifts_a_unit_above_its_maximum() -> None:
    s, k, d, seat = _knight_turn("kp_prayer#1", "kp_bulwark#1", "kp_focus#1")
    s["units"][k]["hp"] = s["units"][k]["max_hp"] - 1
    s = pick(s, "primary:kp_prayer#1")  # 2 HEALTH for the only hurt unit
    assert s["units"][k]["hp"] == s["units"][k]["max_hp"]
    s = pick(s, "basic:heal")
    assert s["units"][k]["hp"] == s["units"][k]["max_hp"]


@pytest.mark.rule("KACT-6")
def test_defend_raises_defense_by_one_but_never_past_the_top_of_the_track() -> None:
    s, k, d, seat = _knight_turn("kp_bulwark#1", "kp_strike#1", "kp_focus#1")
    top = s["units"][k]["max_def"]
    s["units"][k]["defense"] = top - 1
    s = pick(s, "minor:kp_strike#1:defend")
    assert s["units"][k]["defense"] == top
    s = pick(s, "primary:kp_bulwark#1")
    assert s["units"][k]["defense"] == top


@pytest.mark.rule("KACT-7")
def test_command_moves_or_melees_with_an_imp_close_or_adjacent_to_the_demon() -> None:
    s = bare(locations=False)
    d = chars(s, "demons")[0]["id"]
    k = chars(s, "knights")[0]["id"]
    plain(s, d)
    at(s, d, CENTRE)
    near = minion(s, "imp", 1)
    far = minion(s, "imp", 0)
    at(s, k, 1)
    s["units"][k]["defense"] = 0
    s = run_steps(s, {"k": "action", "a": "command", "src": d})
    assert set(keys(s)) == {f"cmd:{near}:melee", f"cmd:{near}:move"}
    s = pick(pick(s, f"cmd:{near}:melee"), f"target:{k}")
    assert hp(s, k) == s["units"][k]["max_hp"] - 1 and far in s["units"]


@pytest.mark.rule("KMAGIC-1")
def test_every_character_has_its_own_ability_and_an_ongoing_power_that_works_in_play() -> None:
    c = content().chars.values()
    assert all(ch["magic"]["steps"] and ch["power"]["kind"] for ch in c)
    assert len({ch["magic"]["name"] for ch in c}) == len(list(c))
    s = bare(locations=False)
    k = chars(s, "knights")[0]["id"]
    become(s, k, "lantern_nun")  # regains 1 HEALTH at the start of its turns
    s["units"][k]["hp"] = 3
    at(s, k, 0)
    assert turn(s, k)["units"][k]["hp"] == 4


@pytest.mark.rule("KMAGIC-4", "KSET-6")
def test_the_crimson_wraith_starts_at_six_health_whatever_its_track() -> None:
    s = bare(locations=False)
    d = chars(s, "demons")[0]["id"]
    u = become(s, d, "crimson_wraith")
    assert u["hp"] == 6 < u["max_hp"]


@pytest.mark.rule("KMAGIC-5")
def test_embers_burn_an_entering_enemy_until_the_ember_wardens_next_turn() -> None:
    s = bare(locations=False)
    k = chars(s, "knights")[0]["id"]
    d = chars(s, "demons")[0]["id"]
    become(s, k, "ember_warden")
    plain(s, d)
    at(s, k, 3)
    at(s, d, CENTRE)
    s["turn"]["unit"] = k
    s = run_steps(s, {"k": "gain_magic", "n": 2, "src": k})
    assert [e["tile"] for e in s["effects"]] == [3]
    s2 = pick(run_steps(s, {"k": "step", "n": 1, "src": d}), "move:3")
    assert hp(s2, d) == s2["units"][d]["max_hp"] - 1
    s3 = turn(s, k)
    assert s3["effects"] == [] and events(s3, "halo_out")


@pytest.mark.rule("KMAGIC-6", "KSET-6")
def test_the_rime_hulk_discards_a_power_card_for_two_frost_on_its_own_turn_only() -> None:
    s = bare(locations=False)
    d = chars(s, "demons")[0]
    become(s, d["id"], "rime_hulk")
    at(s, d["id"], 0)
    assert (d["ice"], d["max_ice"]) == (1, 5)
    hand(s, d["seat"], f"basic_{d['seat']}", "dp_claw#1", "dp_hurl#1", "dp_feast#1")
    s = turn(s, d["id"])
    frost = [x for x in keys(s) if x.startswith("frost:")]
    assert sorted(frost) == ["frost:dp_claw#1", "frost:dp_feast#1", "frost:dp_hurl#1"]
    s = pick(pick(s, "frost:dp_claw#1"), "frost:dp_hurl#1")
    assert s["units"][d["id"]]["ice"] == 5  # 1 + 2 + 2, the top of the track
    k = chars(s, "knights")[0]
    at(s, k["id"], 8)
    s = turn(s, k["id"])
    assert s["prompt"]["seat"] == k["seat"] and not any(x.startswith("frost:") for x in keys(s))


@pytest.mark.rule("KMAGIC-6")
def test_frost_blocks_damage_one_for_one_when_its_player_spends_it() -> None:
    s = bare(locations=False)
    d = chars(s, "demons")[0]
    k = chars(s, "knights")[0]
    become(s, d["id"], "rime_hulk")
    at(s, d["id"], 0)
    d["ice"] = 2
    s = run_steps(s, {"k": "hit", "target": d["id"], "n": 3, "attack": True, "src": k["id"]})
    assert keys(s) == ["frost:0", "frost:1", "frost:2"]
    s = pick(s, "frost:2")
    assert s["units"][d["id"]]["ice"] == 0
    assert s["units"][d["id"]]["hp"] == s["units"][d["id"]]["max_hp"] - 1


@pytest.mark.rule("KMAGIC-7")
def test_damage_sent_to_a_bound_imp_beyond_what_kills_it_is_lost() -> None:
    s = bare(locations=False)
    d = chars(s, "demons")[0]
    k = chars(s, "knights")[0]
    become(s, d["id"], "imp_tyrant")
    at(s, d["id"], 3)
    imp = minion(s, "imp", 3)
    s = run_steps(s, {"k": "hit", "target": d["id"], "n": 3, "attack": True, "src": k["id"]})
    assert set(keys(s)) == {f"bound:{imp}", "bound:none"}
    s = pick(s, f"bound:{imp}")
    assert imp not in s["units"]
    assert s["units"][d["id"]]["hp"] == s["units"][d["id"]]["max_hp"]


@pytest.mark.rule("KMAGIC-8", "KDEATH-6")
def test_retribution_that_kills_the_active_demon_brings_in_a_new_one_who_plays_on() -> None:
    s = bare(locations=False)
    d = chars(s, "demons")[0]
    k = chars(s, "knights")[0]
    plain(s, d["id"])
    become(s, k["id"], "oath_breaker")
    k["defense"] = 0
    at(s, d["id"], 3)
    at(s, k["id"], 3)
    hand(s, d["seat"], f"basic_{d['seat']}", "dp_claw#1", "dp_hurl#1", "dp_feast#1")
    s = turn(s, d["id"])
    s["units"][d["id"]]["hp"] = 2
    s = pick(pick(s, "primary:dp_claw#1"), f"target:{k['id']}")
    assert s["prompt"]["seat"] == k["seat"] and f"retribution:{d['id']}" in keys(s)
    score = s["score"]["knights"]
    s = pick(s, f"retribution:{d['id']}")
    assert d["id"] not in s["units"] and s["score"]["knights"] == score + 1
    new = s["units"][s["slots"][d["slot"]]["unit"]]
    assert new["tile"] == CENTRE and s["turn"]["unit"] == new["id"]
    assert s["prompt"]["kind"] == "turn" and s["prompt"]["seat"] == d["seat"]
    assert len(s["players"][d["seat"]]["hand"]) == 3


@pytest.mark.rule("KMAGIC-8")
def test_retribution_is_not_offered_on_the_knights_own_turn() -> None:
    s = start(locations=False)
    k = chars(s, "knights")[0]
    become(s, k["id"], "oath_breaker")
    s["turn"]["unit"] = k["id"]
    d = chars(s, "demons")[0]
    at(s, d["id"], k["tile"])
    k["defense"] = 0
    s = run_steps(s, {"k": "hit", "target": k["id"], "n": 1, "attack": True, "src": d["id"]})
    assert s["prompt"] is None

"""Location tiles and board terms (KLOC-*, KVAR-2): the sewer's banks, the nook, the orb."""

from __future__ import annotations

import pytest

from games.knightfall.engine import api
from games.knightfall.engine.board import CENTRE
from games.knightfall.engine.content import content

from .rig import (
    NOOK,
    ORB,
    SEWER,
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
    turn,
)


def _pair(**settings):
    """A bare game with a plain knight (no DEFENSE) and a plain demon."""
    s = bare(**settings)
    k, d = chars(s, "knights")[0], chars(s, "demons")[0]
    plain(s, k["id"])
    plain(s, d["id"])
    k["defense"] = 0
    for other in chars(s, "knights")[1:] + chars(s, "demons")[1:]:
        at(s, other["id"], 8 if other["side"] == "knights" else 6)
    return s, k["id"], d["id"]


@pytest.mark.rule("KLOC-5")
def test_on_the_sewer_melee_reaches_only_enemies_on_the_same_bank() -> None:
    s, k, d = _pair()
    k2 = chars(s, "knights")[1]["id"]
    at(s, d, SEWER, "west")
    at(s, k, SEWER, "east")
    at(s, k2, SEWER, "west")
    s = run_steps(s, {"k": "attack", "n": 1, "reach": "close", "src": d})
    assert f"target:{k2}" in keys(s) and f"target:{k}" not in keys(s)


@pytest.mark.rule("KLOC-5", "KENG-1")
def test_crossing_the_water_costs_a_move_and_disengagement_from_the_bank_left() -> None:
    s, k, d = _pair()
    at(s, k, SEWER, "west")
    at(s, d, SEWER, "west")
    s = run_steps(s, {"k": "step", "n": 1, "src": k})
    s = pick(s, f"move:{SEWER}:east")
    u = s["units"][k]
    assert (u["tile"], u["bank"]) == (SEWER, "east")
    assert u["hp"] == u["max_hp"] - 1  # one enemy on the bank it left
    assert s["prompt"] is None  # the single move is spent


@pytest.mark.rule("KLOC-5", "KENG-4")
def test_an_enemy_ability_moves_a_unit_off_the_sewer_ignoring_the_water() -> None:
    s, k, d = _pair()
    at(s, k, SEWER, "east")
    at(s, d, SEWER, "east")
    s = run_steps(s, {"k": "push", "reach": "close", "src": d})
    s = pick(s, f"target:{k}")
    assert f"to:{NOOK}" in keys(s)  # west of the sewer, though the east bank does not border it
    before = s["units"][k]["hp"]
    s = pick(s, f"to:{NOOK}")
    assert s["units"][k]["tile"] == NOOK and s["units"][k]["hp"] == before


@pytest.mark.rule("KLOC-5", "KENG-5")
def test_in_coop_a_demon_moved_by_a_card_ignores_the_water() -> None:
    s = bare(mode="coop", players=1)
    d = chars(s, "demons")[0]["id"]
    plain(s, d)
    for k in chars(s, "knights"):
        at(s, k["id"], 8)
    for other in chars(s, "demons")[1:]:
        at(s, other["id"], 8)
    at(s, d, SEWER, "east")
    e = elder(s, NOOK)
    s = run_steps(s, {"k": "ai_move", "n": 1, "src": d})
    assert s["units"][d]["tile"] == NOOK and hp(s, e) == 6


@pytest.mark.rule("KLOC-6", "KACT-3")
def test_ranged_reaches_across_the_water_and_from_a_neighbour_onto_either_bank() -> None:
    s, k, d = _pair()
    at(s, d, SEWER, "west")
    at(s, k, SEWER, "east")
    s1 = run_steps(s, {"k": "attack", "n": 1, "reach": "adjacent", "src": d})
    assert f"target:{k}" in keys(s1)
    at(s, k, SEWER, "west")  # same bank: close, so not a ranged target
    s2 = run_steps(s, {"k": "attack", "n": 1, "reach": "adjacent", "src": d})
    assert f"target:{k}" not in keys(s2)
    at(s, d, CENTRE)
    for b in ("west", "east"):
        at(s, k, SEWER, b)
        s3 = run_steps(s, {"k": "attack", "n": 1, "reach": "adjacent", "src": d})
        assert f"target:{k}" in keys(s3)


@pytest.mark.rule("KLOC-7")
def test_a_unit_lands_on_the_bank_bordering_the_tile_it_came_from() -> None:
    s, k, d = _pair()
    at(s, k, NOOK)
    s1 = run_steps(s, {"k": "step", "n": 1, "src": k})
    assert f"move:{SEWER}" in keys(s1)
    s1 = pick(s1, f"move:{SEWER}")
    assert s1["units"][k]["bank"] == "west"
    at(s, k, ORB)
    s2 = pick(run_steps(s, {"k": "step", "n": 1, "src": k}), f"move:{SEWER}")
    assert s2["units"][k]["bank"] == "east"
    at(s, k, CENTRE)  # the seal tile borders both banks: the mover chooses
    s3 = run_steps(s, {"k": "step", "n": 1, "src": k})
    assert {f"move:{SEWER}:west", f"move:{SEWER}:east"} <= set(keys(s3))


@pytest.mark.rule("KLOC-7")
def test_a_unit_leaves_the_sewer_only_toward_a_tile_its_bank_borders() -> None:
    s, k, d = _pair()
    at(s, k, SEWER, "west")
    ks = keys(run_steps(s, {"k": "step", "n": 1, "src": k}))
    assert f"move:{NOOK}" in ks and f"move:{CENTRE}" in ks and f"move:{ORB}" not in ks
    at(s, k, SEWER, "east")
    ks = keys(run_steps(s, {"k": "step", "n": 1, "src": k}))
    assert f"move:{ORB}" in ks and f"move:{NOOK}" not in ks


@pytest.mark.rule("KLOC-7", "KENG-1")
def test_leaving_the_sewer_counts_only_the_enemies_on_the_movers_bank() -> None:
    s, k, d = _pair()
    at(s, k, SEWER, "west")
    at(s, d, SEWER, "east")
    minion(s, "imp", SEWER, bank="east")
    minion(s, "imp", SEWER, bank="west")
    s = pick(run_steps(s, {"k": "step", "n": 1, "src": k}), f"move:{NOOK}")
    u = s["units"][k]
    assert u["tile"] == NOOK and u["hp"] == u["max_hp"] - 1


@pytest.mark.rule("KLOC-8")
def test_entering_the_nook_with_enemies_there_costs_one_damage_once() -> None:
    s, k, d = _pair()
    at(s, k, CENTRE - 1)  # the chapel, below the nook
    minion(s, "imp", NOOK)
    minion(s, "imp", NOOK)
    s1 = pick(run_steps(s, {"k": "step", "n": 1, "src": k}), f"move:{NOOK}")
    assert s1["units"][k]["hp"] == s1["units"][k]["max_hp"] - 1
    assert [e["why"] for e in events(s1, "damage")] == [" in the shadowy nook"]


@pytest.mark.rule("KLOC-8")
def test_entering_the_nook_with_only_allies_there_costs_nothing() -> None:
    s, k, d = _pair()
    at(s, k, CENTRE - 1)
    minion(s, "stone_golem", NOOK)
    s1 = pick(run_steps(s, {"k": "step", "n": 1, "src": k}), f"move:{NOOK}")
    assert s1["units"][k]["hp"] == s1["units"][k]["max_hp"]


@pytest.mark.rule("KLOC-9", "KMAGIC-2")
def test_the_orb_turns_one_discard_a_turn_into_two_magic_symbols() -> None:
    s, k, d = _pair()
    at(s, d, ORB)
    become(s, d, "soul_leech")  # Siphon: 2 damage to a close enemy
    at(s, k, ORB)
    seat = s["units"][d]["seat"]
    hand(s, seat, f"basic_{seat}", "dp_claw", "dp_hurl", "dp_lunge")
    s = turn(s, d)
    orb = [x for x in keys(s) if x.startswith("orb:")]
    assert f"orb:basic_{seat}" in orb and len(orb) == 4
    s = pick(s, f"orb:basic_{seat}")
    s = pick(s, f"target:{k}")  # the ability at once (soul_leech's own symbol is unpaired)
    assert s["units"][k]["hp"] == s["units"][k]["max_hp"] - 2
    assert not any(x.startswith("orb:") for x in keys(s))  # once per turn


@pytest.mark.rule("KVAR-2")
def test_without_location_effects_the_tiles_do_nothing() -> None:
    s, k, d = _pair(locations=False)
    k2 = chars(s, "knights")[1]["id"]
    at(s, d, SEWER, "west")
    at(s, k, SEWER, "east")
    at(s, k2, CENTRE)
    assert f"target:{k}" in keys(run_steps(s, {"k": "attack", "n": 1, "reach": "close", "src": d}))
    at(s, d, ORB)
    seat = s["units"][d]["seat"]
    assert not any(x.startswith("orb:") for x in keys(turn(s, d)))
    at(s, k, CENTRE - 1)
    minion(s, "imp", NOOK)
    s1 = pick(run_steps(s, {"k": "step", "n": 1, "src": k}), f"move:{NOOK}")
    assert s1["units"][k]["hp"] == s1["units"][k]["max_hp"]
    assert seat is not None


@pytest.mark.rule("KLOC-1", "KSET-1")
@pytest.mark.parametrize("options", [{"players": 4}, {"mode": "coop", "players": 2}])
def test_standard_and_coop_lay_out_the_nine_abbey_tiles(options: dict) -> None:
    s = api.new_game(options, 5)
    assert sorted(s["tiles"]) == sorted(content().tiles) and s["tiles"][CENTRE] == "seal"


@pytest.mark.rule("KLOC-2", "KACT-4")
def test_a_move_goes_only_to_an_edge_sharing_tile() -> None:
    s, k, d = _pair(locations=False)
    at(s, k, 0)
    assert sorted(keys(run_steps(s, {"k": "step", "n": 1, "src": k}))) == [
        "move:1",
        "move:3",
        "stay",
    ]
    at(s, k, CENTRE)
    assert len(keys(run_steps(s, {"k": "step", "n": 1, "src": k}))) == 5


@pytest.mark.rule("KLOC-3", "KACT-2", "KACT-3")
def test_close_is_the_same_tile_adjacent_shares_an_edge_and_diagonal_is_neither() -> None:
    s, k, d = _pair(locations=False)
    k2 = chars(s, "knights")[1]["id"]
    at(s, d, CENTRE)
    at(s, k, CENTRE)
    at(s, k2, 1)
    g = minion(s, "stone_golem", 0)  # diagonal to the centre
    melee = keys(run_steps(s, {"k": "action", "a": "melee", "src": d}))
    ranged = keys(run_steps(s, {"k": "action", "a": "ranged", "src": d}))
    assert f"target:{k}" in melee and f"target:{k2}" not in melee
    assert f"target:{k2}" in ranged and f"target:{k}" not in ranged
    assert f"target:{g}" not in melee + ranged


@pytest.mark.rule("KLOC-4", "KELD-1", "KACT-5")
def test_knights_golems_and_elders_are_allies_and_demon_side_units_are_enemies() -> None:
    s, k, d = _pair(locations=False)
    at(s, k, 3)
    at(s, d, 3)
    e = elder(s, 3, hp=4)
    g = minion(s, "stone_golem", 3, hp=1)
    i = minion(s, "imp", 3, hp=1)
    s["units"][k]["hp"] -= 1
    heal = keys(run_steps(s, {"k": "heal", "n": 1, "reach": "close", "src": k}))
    assert {f"heal:{k}", f"heal:{e}", f"heal:{g}"} == set(heal)
    hit = keys(run_steps(s, {"k": "attack", "n": 1, "reach": "close", "src": d}))
    assert {f"target:{k}", f"target:{g}"} <= set(hit) and f"target:{i}" not in hit
    imp_hit = keys(run_steps(s, {"k": "attack", "n": 1, "reach": "close", "src": k}))
    assert f"target:{i}" in imp_hit and f"target:{d}" in imp_hit and f"target:{g}" not in imp_hit

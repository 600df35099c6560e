"""Setup, player counts, turns, minions and the end of round (KSET, KPC, KTURN, KMIN, KEND)."""

from __future__ import annotations

import pytest

from games.knightfall.engine import api
from games.knightfall.engine.board import CENTRE, CORNERS
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


def _team_of(cid: str) -> str:
    return content().cards[cid.split("#")[0]]["team"]


@pytest.mark.rule("KSET-4", "KSET-8")
def test_each_player_holds_its_basic_card_and_three_from_its_own_teams_deck() -> None:
    s = api.new_game({"players": 4}, 3)
    for p in s["players"]:
        basics = [c for c in p["hand"] if c.startswith("basic")]
        power = [c for c in p["hand"] if not c.startswith("basic")]
        assert basics == [f"basic_{p['seat']}"] and len(power) == 3
        assert all(_team_of(c) == p["team"] for c in power)
    for team in ("knights", "demons"):
        assert all(_team_of(c) == team for c in s["decks"][team])
        assert all(content().chars[c]["team"] == team for c in s["decks"][f"chars_{team}"])
    other = api.new_game({"players": 4}, 4)
    assert s["decks"]["knights"] != other["decks"]["knights"]  # shuffled


@pytest.mark.rule("KSET-5", "KPC-4", "KPC-5")
@pytest.mark.parametrize(
    ("n", "demons", "knights"), [(2, 1, 1), (3, 1, 2), (4, 2, 2), (5, 3, 2), (6, 3, 3)]
)
def test_players_split_into_teams_as_even_as_possible(n: int, demons: int, knights: int) -> None:
    s = api.new_game({"players": n}, 1)
    teams = [p["team"] for p in s["players"]]
    assert (teams.count("demons"), teams.count("knights")) == (demons, knights)


@pytest.mark.rule("KSET-5", "KPC-3")
def test_three_players_the_lone_player_keeps_two_of_three_and_the_pair_one_of_two() -> None:
    for lone in ("demons", "knights"):
        s = api.new_game({"players": 3, "lone_team": lone}, 2)
        assert [p["team"] for p in s["players"]].count(lone) == 1
        sizes = {}
        while s["prompt"]["kind"] == "characters":
            seat = s["prompt"]["seat"]
            assert keys(s)[-1] == "keep:dice"  # or let the dice decide
            sizes[seat] = len(keys(s)) - 1
            s = pick(s, keys(s)[0])
        for p in s["players"]:
            assert sizes[p["seat"]] == (6 if p["team"] == lone else 2)  # 3x2 ordered, or 2
    full = {t: sum(1 for c in content().chars.values() if c["team"] == t) for t in ("knights",)}
    kept = sum(1 for u in s["units"].values() if u["type"] == "knight")
    assert len(s["decks"]["chars_knights"]) == full["knights"] - kept  # the rest went back


@pytest.mark.rule("KSET-6")
def test_characters_start_at_their_cards_health_and_knights_at_their_cards_defense() -> None:
    s = start(players=6, seed=8)
    for u in s["units"].values():
        if u["type"] in ("knight", "demon"):
            c = content().chars[u["char"]]
            assert u["hp"] == c.get("enters_at", c["health"])
            if u["type"] == "knight":
                assert u["defense"] == c["defense"]


@pytest.mark.rule("KPC-6", "KCOOP-2")
@pytest.mark.parametrize(("n", "choices"), [(1, 6), (2, 2), (3, 2)])
def test_coop_players_keep_knights_and_each_knight_gets_a_demon(n: int, choices: int) -> None:
    s = api.new_game({"mode": "coop", "players": n}, 4)
    assert len(keys(s)) == choices + 1 and keys(s)[-1] == "keep:dice"
    s = start(mode="coop", players=n, seed=4)
    knights = [sl for sl in s["slots"] if sl["team"] == "knights"]
    assert len(knights) == (2 if n == 1 else n) == len(s["slots"])
    pairs = [s["units"][sl["pair"]] for sl in knights]
    assert all(d["type"] == "demon" and d["seat"] is None for d in pairs)
    assert len({d["id"] for d in pairs}) == len(knights)


@pytest.mark.rule("KTURN-4", "KTURN-2")
def test_at_the_end_of_a_turn_the_hand_is_refilled_to_four_and_play_passes_on() -> None:
    s = start(players=2)
    seat = s["prompt"]["seat"]
    slot = s["slot"]
    for card in list(s["players"][seat]["hand"]):
        s = pick(s, f"discard:{card}")
        while s["prompt"]["kind"] != "turn":
            s = pick(s, keys(s)[0])
    assert s["slot"] == slot + 1 and len(s["players"][seat]["hand"]) == 4
    assert f"basic_{seat}" in s["players"][seat]["hand"]


@pytest.mark.rule("KTURN-5", "KSLOW-3")
def test_a_card_slowed_during_its_own_turn_stays_and_counts_toward_the_four() -> None:
    s = bare(locations=False)
    k = plain(s, chars(s, "knights")[0]["id"])["id"]
    at(s, k, 0)
    seat = s["units"][k]["seat"]
    hand(s, seat, f"basic_{seat}", "kp_strike#1", "kp_bulwark#1", "kp_focus#1")
    s = turn(s, k)
    s = run_steps(s, {"k": "slow", "target": k}, {"k": "menu"})
    card = s["players"][seat]["slowed"]["card"]
    assert not any(card in x for x in keys(s))  # not usable in the turn it was slowed
    for c in [c for c in s["players"][seat]["hand"] if c != card]:
        s = pick(s, f"discard:{c}")
    assert s["turn"]["unit"] != k
    held = s["players"][seat]["hand"]
    assert card in held and len(held) == 4 and s["players"][seat]["slowed"]["card"] == card


@pytest.mark.rule("KMIN-1", "KMIN-4")
@pytest.mark.parametrize(
    ("kind", "side", "health"),
    [
        ("imp", "demons", 2),
        ("bone_crawler", "demons", 1),
        ("stone_golem", "knights", 2),
        ("ice_golem", "knights", 2),
        ("slag_golem", "knights", 2),
    ],
)
def test_each_minion_kind_has_its_side_and_health(kind: str, side: str, health: int) -> None:
    s = bare(locations=False)
    s = run_steps(s, {"k": "spawn", "minion": kind, "where": "seal"})
    m = next(u for u in s["units"].values() if u["type"] == kind)
    assert (m["side"], m["hp"], m["tile"]) == (side, health, CENTRE)


@pytest.mark.rule("KMIN-2")
def test_team_minions_answer_to_their_team_and_made_minions_to_their_maker() -> None:
    s = bare(locations=False)
    k = chars(s, "knights")[1]
    become(s, k["id"], "stone_abbot")
    at(s, k["id"], 0)
    s["turn"]["unit"] = k["id"]
    s = run_steps(s, {"k": "gain_magic", "n": 2, "src": k["id"]})
    slag = next(u["id"] for u in s["units"].values() if u["type"] == "slag_golem")
    golem = minion(s, "stone_golem", 2)
    imp = minion(s, "imp", 3)
    teams = ("knights", "demons")
    first = {t: next(p["seat"] for p in s["players"] if p["team"] == t) for t in teams}
    assert k["seat"] != first["knights"]
    for uid, seat in ((slag, k["seat"]), (golem, first["knights"]), (imp, first["demons"])):
        assert run_steps(s, {"k": "minion_act", "unit": uid, "left": 1})["prompt"]["seat"] == seat


@pytest.mark.rule("KMIN-3")
def test_no_spawn_happens_when_the_supply_is_empty() -> None:
    s = bare(locations=False)
    s["supply"]["imp"] = 0
    s = run_steps(s, {"k": "spawn", "minion": "imp", "where": "seal"})
    assert not any(u["type"] == "imp" for u in s["units"].values()) and events(s, "no_supply")


@pytest.mark.rule("KMIN-5", "KMIN-6")
def test_a_wounded_stone_golem_heals_itself_before_anything_else() -> None:
    s = bare(locations=False)
    g = minion(s, "stone_golem", 0, hp=1)
    s = run_steps(s, {"k": "minion_act", "unit": g, "left": 2})
    assert hp(s, g) == 2 and s["prompt"]["kind"] == "minion"
    assert not any(x.endswith(":heal") for x in keys(s))  # full again: nothing to heal


@pytest.mark.rule("KMIN-7", "KMIN-5")
def test_a_wounded_ice_golem_is_not_bound_to_heal_first() -> None:
    s = bare(locations=False)
    g = minion(s, "ice_golem", 0, hp=1, owner_seat=1, owner_slot=1, owner="x")
    s = run_steps(s, {"k": "minion_act", "unit": g, "left": 2, "free_order": True})
    assert hp(s, g) == 1 and f"m:{g}:heal" in keys(s) and f"m:{g}:move:1" in keys(s)
    s = pick(s, f"m:{g}:heal")
    assert hp(s, g) == 2


@pytest.mark.rule("KEND-2", "KEND-3", "KMIN-6", "KELD-3")
def test_the_end_of_round_scores_then_golems_then_imps_act_then_new_golem_and_imp() -> None:
    s = bare(locations=False)
    g = minion(s, "stone_golem", 0)
    imp = minion(s, "imp", 8)
    score = s["score"]["knights"]
    s = run_steps(s, {"k": "end_round"})
    assert s["score"]["knights"] == score + 1
    seen = []
    while s["prompt"]["kind"] == "minion":
        seen.append(s["prompt"]["options"][0]["key"].split(":")[1])
        s = pick(s, keys(s)[-1])  # wait
    assert seen == [g, g, imp, imp]  # elders never act
    assert s["prompt"]["kind"] == "golem" and set(keys(s)) == {f"golem:{c}" for c in CORNERS}
    imps = s["supply"]["imp"]
    s = pick(s, "golem:8")
    assert s["supply"]["imp"] == imps - 1
    new_imps = [u for u in s["units"].values() if u["type"] == "imp" and u["id"] != imp]
    assert [u["tile"] for u in new_imps] == [CENTRE] and s["round"] == 2


@pytest.mark.rule("KEND-3", "KPC-5")
def test_with_five_players_the_knights_place_four_stone_golems() -> None:
    s = bare(players=5, locations=False)
    s = run_steps(s, {"k": "end_round"})
    placed = 0
    while s["prompt"] and s["prompt"]["kind"] == "golem":
        s = pick(s, keys(s)[0])
        placed += 1
    assert placed == 4


@pytest.mark.rule("KEND-3", "KMIN-3")
def test_no_new_golem_is_placed_when_the_supply_is_empty() -> None:
    s = bare(locations=False)
    s["supply"]["stone_golem"] = 0
    s = run_steps(s, {"k": "end_round"})
    assert s["prompt"]["kind"] != "golem" and s["round"] == 2


@pytest.mark.rule("KMIN-6", "KEND-2")
def test_the_team_picks_which_golem_acts_next_and_each_takes_both_actions_in_turn() -> None:
    s = bare(locations=False)
    a = minion(s, "stone_golem", 0)
    b = minion(s, "stone_golem", 8)
    s = run_steps(s, {"k": "end_round"})
    knights = next(p["seat"] for p in s["players"] if p["team"] == "knights")
    assert s["prompt"]["kind"] == "minion_order" and s["prompt"]["seat"] == knights
    assert set(keys(s)) == {f"next:{a}", f"next:{b}"}
    s = pick(s, f"next:{b}")
    acted = []
    while s["prompt"]["kind"] == "minion":
        acted.append(s["prompt"]["options"][0]["key"].split(":")[1])
        s = pick(s, keys(s)[-1])
    assert acted == [b, b, a, a]

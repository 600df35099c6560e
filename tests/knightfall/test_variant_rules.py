"""Variants and options (KVAR-*): the desperate variant and the 5-card hand."""

from __future__ import annotations

import pytest

from games.knightfall.engine import api
from games.knightfall.engine.board import CENTRE, neighbours

from .rig import at, bare, chars, hand, keys, pick, plain, turn


@pytest.mark.rule("KVAR-3")
def test_desperate_four_chosen_elders_start_at_five_no_golems_and_one_more_imp() -> None:
    s = api.new_game({"players": 4, "desperate": True}, 6)
    chosen = []
    while s["prompt"]["kind"] != "turn":
        if s["prompt"]["kind"] == "desperate":
            knights = [p["seat"] for p in s["players"] if p["team"] == "knights"]
            assert s["prompt"]["seat"] == knights[0]  # the knight team chooses
            chosen.append(keys(s)[-1].split(":")[1])
        s = pick(s, keys(s)[-1])
    elders = {u["id"]: u for u in s["units"].values() if u["type"] == "elder"}
    assert sorted(chosen) == sorted(i for i, e in elders.items() if e["hp"] == 5)
    assert len(chosen) == 4 and all(e["max_hp"] == 6 for e in elders.values())
    assert not any(u["type"] == "stone_golem" for u in s["units"].values())
    imps = [u["tile"] for u in s["units"].values() if u["type"] == "imp"]
    assert len(imps) == 4 and len(set(imps)) == 4 and set(imps) <= set(neighbours(CENTRE))


@pytest.mark.rule("KVAR-4")
def test_the_five_card_variant_deals_four_power_cards_and_the_basic_card() -> None:
    s = api.new_game({"players": 4, "five_card": True}, 6)
    for p in s["players"]:
        assert len(p["hand"]) == 5 and sum(c.startswith("basic") for c in p["hand"]) == 1


def _five(slowed: str | None = None):
    s = bare(locations=False, five_card=True)
    k = plain(s, chars(s, "knights")[0]["id"])["id"]
    at(s, k, 0)
    seat = s["units"][k]["seat"]
    hand(s, seat, f"basic_{seat}", "kp_strike#1", "kp_bulwark#1", "kp_focus#1", "kp_volley#1")
    if slowed:
        s["players"][seat]["slowed"] = {"card": slowed, "turn": 0}
    return turn(s, k), k, seat


@pytest.mark.rule("KVAR-5")
def test_the_five_card_turn_uses_the_basic_card_and_three_power_cards_keeping_one() -> None:
    s, k, seat = _five()
    s = pick(s, f"discard:basic_{seat}")
    for card in ("kp_strike#1", "kp_bulwark#1", "kp_focus#1"):
        s = pick(s, f"discard:{card}")
    assert s["turn"]["unit"] != k  # the turn is over with one card kept
    held = s["players"][seat]["hand"]
    assert "kp_volley#1" in held and len(held) == 5


@pytest.mark.rule("KVAR-5", "KSLOW-2")
def test_in_the_five_card_variant_a_slowed_card_cannot_be_the_one_kept() -> None:
    s, k, seat = _five(slowed="kp_volley#1")
    s = pick(s, f"discard:basic_{seat}")
    for card in ("kp_strike#1", "kp_bulwark#1"):
        s = pick(s, f"discard:{card}")
    assert "discard:kp_volley#1" in keys(s)
    assert not any("kp_focus#1" in x for x in keys(s))  # the card to keep
    s = pick(s, "minor:kp_volley#1:defend")
    assert s["turn"]["unit"] != k and "kp_focus#1" in s["players"][seat]["hand"]

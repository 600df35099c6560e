"""Exact odds of a test or a battle round, before the dice are rolled (TEST-1..4, ENG-7).

Each die is a success on `success_min` or more on a six-sided die (5-6, or 4-6 at the easier
setting). Fate adds 1 success after the roll (TEST-4), so a hero with fate in hand needs one
success fewer from the dice. Everything is a `Fraction`: the board rounds for show, tests compare
exact values.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import TypedDict


def die_success(success_min: int = 5) -> Fraction:
    """The chance that one die is a success."""
    if not 1 <= success_min <= 7:
        raise ValueError("a success needs a face from 1 to 6 (7: never)")
    return Fraction(7 - success_min, 6)


@cache
def exactly(dice: int, successes: int, success_min: int = 5) -> Fraction:
    """P(exactly `successes` successes on `dice` dice)."""
    if dice < 0 or successes < 0 or successes > dice:
        return Fraction(0)
    p = die_success(success_min)
    return comb(dice, successes) * p**successes * (1 - p) ** (dice - successes)


def at_least(dice: int, need: int, success_min: int = 5, fate: bool = False) -> Fraction:
    """P(the test reaches `need` successes), with the +1 of fate if the hero may call on it."""
    need = max(0, need - (1 if fate else 0))
    if need == 0:
        return Fraction(1)
    return sum((exactly(dice, k, success_min) for k in range(need, dice + 1)), Fraction(0))


def expected_damage(dice: int, health: int, success_min: int = 5) -> Fraction:
    """Expected HP lost by a side with `health` HP facing `dice` dice (losses stop at 0 HP)."""
    return sum(
        (min(k, health) * exactly(dice, k, success_min) for k in range(dice + 1)), Fraction(0)
    )


class RoundOdds(TypedDict):
    win: Fraction  # the foe falls this round and the hero stands
    lose: Fraction  # the hero falls this round and the foe stands
    both: Fraction  # both fall at once (losses are simultaneous, ENG-7)
    damage_dealt: Fraction  # expected foe HP removed
    damage_taken: Fraction  # expected hero HP removed


def battle_round(
    hero_dice: int, foe_dice: int, hero_hp: int, foe_hp: int, success_min: int = 5
) -> RoundOdds:
    """One skirmish round (ENG-7): each hero success removes 1 foe HP, each foe success 1 hero HP,
    at the same time. Fate is not counted: the hero decides on it after seeing the dice."""
    hero_hits = [exactly(hero_dice, k, success_min) for k in range(hero_dice + 1)]
    foe_hits = [exactly(foe_dice, k, success_min) for k in range(foe_dice + 1)]
    foe_falls = sum((p for k, p in enumerate(hero_hits) if k >= foe_hp), Fraction(0))
    hero_falls = sum((p for k, p in enumerate(foe_hits) if k >= hero_hp), Fraction(0))
    return {
        "win": foe_falls * (1 - hero_falls),
        "lose": hero_falls * (1 - foe_falls),
        "both": foe_falls * hero_falls,
        "damage_dealt": expected_damage(hero_dice, foe_hp, success_min),
        "damage_taken": expected_damage(foe_dice, hero_hp, success_min),
    }


def percent(chance: Fraction) -> str:
    """How a person reads a chance: "38%", "under 1%", "certain", "impossible"."""
    if chance <= 0:
        return "impossible"
    if chance >= 1:
        return "certain"
    shown = round(float(chance) * 100)
    if shown < 1:
        return "under 1%"
    if shown > 99:
        return "over 99%"
    return f"{shown}%"

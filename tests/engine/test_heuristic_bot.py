"""The heuristic bot: legal, deterministic, fair (its own view only) and better than random."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from games.kilforth.engine import Choice, Settings, State, act, legal, new_game
from games.kilforth.engine.bots import heuristic as H
from games.kilforth.engine.bots.play import BOTS
from games.kilforth.engine.simulation.report import run


@pytest.fixture(autouse=True)
def strict_bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Inside these tests an internal error of the bot fails the test instead of falling back."""
    monkeypatch.setattr(H, "STRICT", True)
    yield


def play(settings: Settings, seed: int, bot_seed: int = 0) -> tuple[State, list[str]]:
    state = new_game(settings, seed)
    r = random.Random(bot_seed)
    keys: list[str] = []
    while state.result is None:
        seat = state.waiting_for[0]
        choices = legal(state, seat)
        key = BOTS["heuristic"](state, seat, choices, r)
        assert key in {c.key for c in choices}
        keys.append(key)
        state = act(state, seat, key)
    return state, keys


def test_the_heuristic_bot_is_offered_beside_the_random_bot() -> None:
    assert {"random", "heuristic"} <= set(BOTS)
    assert BOTS["heuristic"] is H.heuristic_bot


@pytest.mark.parametrize(
    ("edition", "mode", "heroes", "seed"),
    [
        ("gloom", "solo", 1, 3),
        ("shadows", "solo", 1, 4),
        ("shadows", "cooperative", 2, 5),
        ("gloom", "competitive", 3, 6),
        ("shadows", "competitive", 4, 7),
    ],
)
def test_the_heuristic_bot_plays_every_mode_to_the_end_with_legal_keys_only(
    edition: str, mode: str, heroes: int, seed: int
) -> None:
    state, keys = play(Settings(edition=edition, mode=mode, heroes=heroes), seed)
    assert state.result is not None and keys


def test_the_heuristic_bot_plays_the_same_game_again_given_the_same_generator() -> None:
    settings = Settings(mode="cooperative", heroes=2)
    assert play(settings, 11, bot_seed=5)[1] == play(settings, 11, bot_seed=5)[1]


def test_the_heuristic_bot_decides_the_same_whatever_the_hidden_cards_are() -> None:
    """Deck order and other heroes' hands are hidden: changing them never changes a decision."""
    state = new_game(Settings(mode="competitive", heroes=3), 21)
    r = random.Random(1)
    for _ in range(400):
        if state.result is not None:
            break
        seat = state.waiting_for[0]
        choices = legal(state, seat)
        twin = state.clone()
        for deck in twin.decks.values():
            deck.reverse()
        others = [h for h in twin.heroes if h["seat"] != seat]
        if len(others) >= 2:
            a, b = others[0], others[1]
            if len(a["hand"]) == len(b["hand"]):
                a["hand"], b["hand"] = b["hand"], a["hand"]
        for h in others:
            h["hand"].reverse()
        assert H.heuristic_bot(state, seat, choices, random.Random(0)) == H.heuristic_bot(
            twin, seat, choices, random.Random(0)
        )
        state = act(state, seat, BOTS["heuristic"](state, seat, choices, r))


def test_an_unknown_prompt_kind_gets_a_safe_legal_answer() -> None:
    state = new_game(Settings(mode="solo", heroes=1), 2)
    choices = [
        Choice("explode", "Lose 3 HP", {}, "mystery"),
        Choice("decline", "Decline", {}, "mystery"),
    ]
    assert H.heuristic_bot(state, 0, choices, random.Random(0)) == "decline"
    odd = [Choice("x", "Lose 2 gold", {}, "mystery"), Choice("y", "Gain 2 gold", {}, "mystery")]
    assert H.heuristic_bot(state, 0, odd, random.Random(0)) == "y"


def test_the_heuristic_bot_never_raises_even_on_nonsense_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(H, "STRICT", False)
    state = new_game(Settings(mode="solo", heroes=1), 2)
    nonsense = [Choice("move:nowhere", "Move to Nowhere", {"loc": 99}, "turn")]
    assert H.heuristic_bot(state, 0, nonsense, random.Random(0)) == "move:nowhere"


def test_fight_odds_favour_the_stronger_side_and_the_easier_setting() -> None:
    assert H.p_win_battle(6, 1, 2, 5, 1 / 3) > 0.95
    assert H.p_win_battle(1, 6, 6, 2, 1 / 3) < 0.05
    assert H.p_win_battle(3, 3, 3, 3, 1 / 2) == pytest.approx(H.p_win_battle(3, 3, 3, 3, 1 / 3))
    assert H.p_win_first(3, 3, 3, 3, 1 / 3, "hero") > H.p_win_battle(3, 3, 3, 3, 1 / 3)
    assert H.p_win_first(3, 3, 3, 3, 1 / 3, "foe") < H.p_win_battle(3, 3, 3, 3, 1 / 3)
    assert H.p_at_least(3, 1, 1 / 3) == pytest.approx(1 - (2 / 3) ** 3)


def _escape_answer(choice: dict, hero_faces: list[int], foe_faces: list[int]) -> str:
    """Rig a battle against a Cinder Hound (fight 4, health 4) and return the bot's answer to
    the fight-on-or-escape question after the first round."""
    from games.kilforth.engine import testing as T

    s = T.scenario(mode="solo", heroes=1, seed=9, choices=[choice])
    T.set_weather(s, None)
    T.set_hero(s, 0, hp=6, max_hp=6, fate=0, gold=6)
    s.heroes[0]["hand"] = []
    T.place_encounter(s, "e.cinder_hound", 6)
    T.place_hero(s, 0, 6)
    T.dice(s, *hero_faces, *foe_faces)
    T.begin_turn(s, 0)
    assert s.prompt["kind"] == "escape"
    return H.heuristic_bot(s, 0, legal(s, 0), random.Random(0))


def test_the_heuristic_bot_escapes_a_battle_it_is_losing_and_fights_on_when_winning() -> None:
    weak = {"race": "race.ratling", "class": "class.yakuza", "female": False}  # fight 1
    strong = {"race": "race.fellmark_dwarf", "class": "class.samurai", "female": False}  # 4
    assert _escape_answer(weak, [1], [6, 6, 6, 6]) == "escape"
    assert _escape_answer(strong, [6, 6, 6, 1], [1, 1, 1, 1]) == "fight"


def test_the_heuristic_bot_beats_the_random_bot_in_solo_games() -> None:
    """The issue's comparison, smaller: 60 solo games each, fixed seeds."""
    settings = Settings(mode="solo", heroes=1)
    smart, smart_out = run(settings, 60, 500, ["heuristic"])
    rand, rand_out = run(settings, 60, 500, ["random"])
    assert smart.wins > rand.wins
    assert smart.vp_mean > rand.vp_mean
    assert sum(o["seats"][0]["chapters"] for o in smart_out) > sum(
        o["seats"][0]["chapters"] for o in rand_out
    )

"""The heuristic bot: legal, deterministic, fair (its own view only) and better than random."""

from __future__ import annotations

import ast
import copy
import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from games.kilforth.engine import Choice, Settings, State, act, legal, new_game
from games.kilforth.engine.bots import heuristic as H
from games.kilforth.engine.bots.play import BOTS
from games.kilforth.engine.bots.play import play as bot_play
from games.kilforth.engine.cards.steps import option
from games.kilforth.engine.simulation.report import run
from games.kilforth.engine.verbs import FIELD_TYPES, VERBS, ChoiceData, ChoiceDataError, check_data


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
        Choice("explode", "Lose 3 HP", {"verb": "mystery"}, "mystery"),
        Choice("no", "Decline", {"verb": "decline"}, "mystery"),
    ]
    assert H.heuristic_bot(state, 0, choices, random.Random(0)) == "no"
    odd = [Choice("y", "Lose 2 gold", {}, "mystery"), Choice("x", "Gain 2 gold", {}, "mystery")]
    assert H.heuristic_bot(state, 0, odd, random.Random(0)) in {"x", "y"}


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


# --------------------------------------------------------------------------- Choice.data only

HEURISTIC = Path(H.__file__)
STRING_METHODS = {
    "startswith",
    "endswith",
    "split",
    "rsplit",
    "partition",
    "rpartition",
    "removeprefix",
    "removesuffix",
    "find",
    "rfind",
}


def test_the_heuristic_bot_reads_no_label_text_or_key_structure_in_its_source() -> None:
    """No `.label` or prompt text, no string surgery, no regex, no keys built or compared:
    what a choice is comes from `Choice.data` alone (a key is only returned or breaks ties)."""
    tree = ast.parse(HEURISTIC.read_text(encoding="utf-8"))
    docstrings = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    }
    found = []
    for n in ast.walk(tree):
        where = getattr(n, "lineno", "?")
        if isinstance(n, ast.Attribute) and n.attr in {"label", "text"} | STRING_METHODS:
            found.append(f"line {where}: .{n.attr}")
        if isinstance(n, ast.Import | ast.ImportFrom):
            mods = [a.name for a in n.names] + [getattr(n, "module", None) or ""]
            if "re" in mods or "string" in mods:
                found.append(f"line {where}: imports {mods}")
        if isinstance(n, ast.JoinedStr):
            found.append(f"line {where}: an f-string (a key or label built)")
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings:
            if ":" in n.value or n.value in {"label", "text"}:
                found.append(f"line {where}: the string {n.value!r}")
        if isinstance(n, ast.Compare) and any(
            isinstance(x, ast.Attribute) and x.attr == "key" for x in ast.walk(n)
        ):
            found.append(f"line {where}: a key compared")
    assert not found, found


def test_the_heuristic_bot_decides_the_same_when_keys_and_labels_mean_nothing() -> None:
    """Every label and prompt text blanked and every key renamed to a meaningless token (in the
    same sorted order, as keys break ties): the bot picks the same choice at every decision."""
    for settings, seed in (
        (Settings(edition="gloom", mode="cooperative", heroes=2), 31),
        (Settings(edition="shadows", mode="competitive", heroes=3), 32),
        (Settings(edition="gloom", mode="solo", heroes=1, difficulty="easier"), 33),
    ):
        state = new_game(settings, seed)
        r = random.Random(seed)
        while state.result is None:
            seat = state.waiting_for[0]
            choices = legal(state, seat)
            token = {k: f"k{i:03d}" for i, k in enumerate(sorted(c.key for c in choices))}
            blank = [replace(c, key=token[c.key], label="") for c in choices]
            twin = state.clone()
            twin.prompt["text"] = ""
            for o in twin.prompt["options"]:
                o["key"], o["label"] = token.get(o["key"], "k999"), ""
            r2 = copy.deepcopy(r)
            key = H.heuristic_bot(state, seat, choices, r)
            assert H.heuristic_bot(twin, seat, blank, r2) == token[key], (seed, state.version)
            state = act(state, seat, key)


def test_every_option_in_seeded_games_carries_its_verbs_declared_data() -> None:
    """Both bots, both editions, every mode: each seat's every choice has a registered verb with
    exactly the fields that verb declares, JSON-safe, and it survives the state's JSON trip."""
    seen: set[str] = set()
    combos = [
        (edition, mode, heroes)
        for edition in ("gloom", "shadows")
        for mode, heroes in (("solo", 1), ("competitive", 3), ("cooperative", 2))
    ]
    for i, (edition, mode, heroes) in enumerate(combos * 2):
        settings = Settings(
            edition=edition, mode=mode, heroes=heroes, auto_evasion=i % 2 == 0, open_hands=False
        )
        bot = "random" if i < len(combos) else "heuristic"

        def check(state: State) -> None:
            for seat in range(len(state.heroes)):
                for c in legal(state, seat):
                    assert check_data(c.data) is c.data, c
                    assert json.loads(json.dumps(c.data)) == c.data, c
                    seen.add(c.data["verb"])
            if state.prompt is not None and state.version % 25 == 0:
                assert State.from_json(state.to_json()).prompt == state.prompt

        bot_play(settings, 500 + i, bot=bot, on_step=check)
    common = {"move", "confront", "rest", "camp", "search", "accept_roll", "take_gold"}
    assert common <= seen, common - seen
    assert len(seen) >= 30, sorted(seen)


def test_every_registered_verb_is_made_by_the_engine_and_every_verb_made_is_registered() -> None:
    """A meta-test of the registry: the verbs written in `data={"verb": ...}` at the engine's
    option call sites are exactly VERBS, and every field a verb declares is a ChoiceData key."""
    engine = HEURISTIC.parents[1]
    written: set[str] = set()
    for path in engine.rglob("*.py"):
        if path.name == "verbs.py" or path.relative_to(engine).parts[0] == "bots":
            continue
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(n, ast.Dict):
                for k, v in zip(n.keys, n.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == "verb":
                        assert isinstance(v, ast.Constant), f"{path.name}: a verb not written out"
                        written.add(v.value)
    assert written == set(VERBS), written ^ set(VERBS)
    declared = set(ChoiceData.__annotations__)
    for v in VERBS.values():
        assert set(v.fields) | set(v.optional) <= declared, v
        assert v.doc, v.name
    assert declared == set(FIELD_TYPES)


@pytest.mark.parametrize(
    "data",
    [
        {"loc": 3},
        {"verb": "teleport", "loc": 3},
        {"verb": "move"},
        {"verb": "move", "loc": "a7"},
        {"verb": "move", "loc": True},
        {"verb": "move", "loc": 3, "card": "e.wolf"},
    ],
)
def test_an_option_whose_data_does_not_fit_its_verb_is_refused_where_it_is_made(
    data: dict,
) -> None:
    with pytest.raises(ChoiceDataError):
        option("move:x", "Move", explain="Move.", rule="MOVE-1", data=data)  # type: ignore[arg-type]

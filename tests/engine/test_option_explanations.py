"""Every option the engine offers states its own facts: explanation, rule, cost, group, topic.

Seeded games are played by the engine's bots over both editions, every mode and several hero
counts; at every decision, every seat's choices (legal()) are checked. KILFORTH_LONG=1 plays
1,000 games (marked slow); otherwise a bounded mix that runs in well under a minute.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.kilforth.engine import Choice, Settings, State, legal, view
from games.kilforth.engine.bots.play import play
from games.kilforth.engine.cards.steps import GROUPS
from games.kilforth.engine.events import name_people, person_ref
from games.kilforth.engine.rules.position import name

RULES = Path(__file__).resolve().parents[3] / "shared" / "rules" / "kilforth-rules.md"
RULE_ID = re.compile(r"^[A-Z]+-\d+$")
LONG = os.environ.get("KILFORTH_LONG") == "1"
BOUNDED = 150  # games in the default run: about 20 s on the 2-core machine

# (edition, mode, heroes): both editions, every mode, 1-4 heroes.
COMBOS = [
    (edition, mode, heroes)
    for edition in ("gloom", "shadows")
    for mode, heroes in (
        ("solo", 1),
        ("competitive", 2),
        ("competitive", 3),
        ("competitive", 4),
        ("cooperative", 2),
        ("cooperative", 3),
    )
]

# (prompt kind, key head) pairs the bounded run must meet at least once.
EXPECTED = {
    ("turn", "move"),
    ("turn", "camp"),
    ("turn", "hide"),
    ("turn", "confront"),
    ("turn", "search"),
    ("turn", "rest"),
    ("turn", "clear"),
    ("turn", "market"),
    ("turn", "regale"),
    ("turn", "resolve"),
    ("set8_deck", "deck"),
    ("set8_keep", "keep"),
    ("choose_side", "side"),
    ("fate", "accept"),
    ("fate", "fate"),
    ("loot_step", "gold"),
    ("loot_step", "loot"),
    ("rumour_step", "keep"),
    ("rumour_step", "draw"),
    ("escape", "fight"),
    ("escape", "escape"),
    ("hidden_engage", "reveal"),
    ("hidden_engage", "evade"),
    ("market", "buy"),
    ("market_buy", "buy"),
    ("keyword", "rumour"),
    ("skill", "skill"),
    ("lose_card", "lose"),
    ("card_choice", "opt0"),
    ("offturn", "unhide"),
}


def rule_ids() -> set[str] | None:
    """The rule ids defined in the shared rules file, or None where the file is absent."""
    if not RULES.exists():
        return None
    return set(re.findall(r"^- ([A-Z]+-\d+) ", RULES.read_text(encoding="utf-8"), re.M))


def help_topics() -> set[str]:
    from games.kilforth.board import rules_help

    return set(rules_help.ACTIONS) | set(rules_help.DEEDS) | set(rules_help.KEYWORDS)


def settings_for(edition: str, mode: str, heroes: int, seed: int) -> Settings:
    return Settings(
        edition=edition,
        mode=mode,
        heroes=heroes,
        difficulty=("easier", "standard", "harder")[seed % 3],
        auto_evasion=seed % 2 == 0,
        chapter_cost_2x=seed % 5 == 0,
        open_hands=mode == "cooperative" and seed % 4 == 0,
        saga_allocation="random" if seed % 3 == 1 else "matched",
    )


def games(n: int) -> Iterator[tuple[Settings, int, str]]:
    """n (settings, seed, bot) triples cycling through the combos and both bots."""
    for i in range(n):
        edition, mode, heroes = COMBOS[i % len(COMBOS)]
        seed = 7_000 + i
        bot = "heuristic" if (i // len(COMBOS)) % 2 else "random"
        yield settings_for(edition, mode, heroes, seed), seed, bot


def check_facts(state: State, seat: int, c: Choice, what: str) -> None:
    """The explanation names the option's own facts: its card, place, ancient or person."""
    for field_ in ("card", "ancient"):
        if isinstance(c.data.get(field_), str):
            assert name(c.data[field_]) in c.explain, (what, c.explain)
    if isinstance(c.data.get("loc"), int):
        assert name(state.map[c.data["loc"]]["id"]) in c.explain, (what, c.explain)
    t = c.data.get("target")
    if isinstance(t, int) and t != seat:
        # Another hero is a person: named by the player's name where the words are shown.
        assert person_ref(t) in c.explain, (what, c.explain)
        assert f"Player {t}" in name_people(c.explain, "Player {}".format), (what, c.explain)
    if isinstance(t, int) and t == seat and c.data["verb"] in ("buy_hp", "reward_to"):
        assert "yourself" in c.label, (what, c.label)
    titles = {h["name"] for h in state.heroes}
    assert not any(title in c.label + c.explain for title in titles), (what, c.label)


def check_choice(c: Choice, where: str, rules: set[str] | None, topics: set[str]) -> None:
    what = f"{where}: {c.kind} {c.key}"
    assert isinstance(c.explain, str) and c.explain.strip(), what
    assert c.explain.endswith("."), (what, c.explain)
    assert ".." not in c.explain and "None" not in c.explain, (what, c.explain)
    shown = name_people(c.explain, "Player {}".format)
    assert "{" not in shown and "[" not in shown, (what, c.explain)
    assert RULE_ID.match(c.rule), (what, c.rule)
    if rules is not None:
        assert c.rule in rules, (what, c.rule)
    assert c.group in GROUPS, (what, c.group)
    assert c.topic is None or c.topic in topics, (what, c.topic)
    assert isinstance(c.cost, str), what
    if c.group == "action":
        assert c.cost.startswith("1 AP"), (what, c.cost)
    if c.group in ("deed", "end"):
        assert c.cost == "free", (what, c.cost)


def check_games(n: int) -> set[tuple[str, str]]:
    rules, topics = rule_ids(), help_topics()
    seen: set[tuple[str, str]] = set()
    for settings, seed, bot in games(n):

        def on_step(state: State, settings: Settings = settings, seed: int = seed) -> None:
            where = f"{settings.edition}/{settings.mode}/{settings.heroes} seed {seed}"
            for seat in range(len(state.heroes)):
                for c in legal(state, seat):
                    check_choice(c, f"{where} v{state.version}", rules, topics)
                    check_facts(state, seat, c, f"{where} v{state.version}: {c.key}")
                    seen.add((c.kind, c.key.split(":", 1)[0]))

        play(settings, seed, bot=bot, on_step=on_step)
    return seen


def test_every_option_in_bot_games_explains_itself_with_its_own_facts_rule_and_group() -> None:
    seen = check_games(BOUNDED)
    assert EXPECTED <= seen, sorted(EXPECTED - seen)


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="set KILFORTH_LONG=1 to play 1,000 games")
def test_every_option_in_a_thousand_bot_games_explains_itself() -> None:
    seen = check_games(1000)
    assert EXPECTED <= seen, sorted(EXPECTED - seen)


def sample_states(n_games: int = 4, every: int = 7) -> Iterator[State]:
    for settings, seed, bot in games(n_games):
        states: list[State] = []
        play(settings, seed, bot=bot, on_step=states.append)
        yield from states[::every]


def test_a_seats_view_lists_exactly_its_legal_choices_and_a_spectator_none() -> None:
    checked = 0
    for state in sample_states():
        assert view(state, None)["choices"] == []
        for seat in range(len(state.heroes)):
            mine = view(state, seat)["choices"]
            choices = legal(state, seat)
            assert [c["key"] for c in mine] == [c.key for c in choices]
            for d, c in zip(mine, choices, strict=True):
                assert d["explain"] == c.explain and d["rule"] == c.rule
                assert d["group"] == c.group and d["offturn"] == (c.kind == "offturn")
            asked = state.prompt is not None and state.prompt["seat"] == seat
            if not asked:
                # Never another seat's options: only its own off-turn ones.
                assert all(d["offturn"] for d in mine)
                if not state.heroes[seat]["hidden"]:
                    assert mine == [], "nothing to decide, nothing listed"
            checked += 1
    assert checked > 50


def test_the_options_facts_survive_the_json_round_trip() -> None:
    for state in sample_states(n_games=2, every=11):
        again = State.from_json(state.to_json())
        for seat in range(len(state.heroes)):
            a, b = legal(state, seat), legal(again, seat)
            assert [(c.key, c.explain, c.rule, c.cost, c.group, c.topic) for c in a] == [
                (c.key, c.explain, c.rule, c.cost, c.group, c.topic) for c in b
            ]


def test_an_option_from_a_game_saved_before_options_stated_facts_still_loads_and_plays() -> None:
    state = next(s for s in sample_states(n_games=1) if s.prompt is not None)
    old = State.from_json(state.to_json())
    for o in old.prompt["options"]:
        for k in ("explain", "rule", "cost", "group", "topic"):
            del o[k]
    c = legal(old, old.prompt["seat"])[0]
    assert c.explain == "" and c.group == "other"
    from games.kilforth.engine import act

    act(old, old.prompt["seat"], c.key)


@pytest.mark.rule("HIDE-2")
def test_a_hidden_hero_off_turn_gets_its_own_explained_stop_hiding_choice() -> None:
    state = next(
        s for s in sample_states(n_games=6, every=3) if s.prompt is not None and len(s.heroes) > 1
    ).clone()
    other = (state.prompt["seat"] + 1) % len(state.heroes)
    state.heroes[other]["hidden"] = True
    state.heroes[other]["eliminated"] = False
    (c,) = legal(state, other)
    assert (c.key, c.kind, c.rule, c.group, c.cost) == (
        "unhide",
        "offturn",
        "HIDE-2",
        "deed",
        "free",
    )
    assert c.explain.startswith("Free: you stop being hidden")
    (d,) = view(state, other)["choices"]
    assert d["offturn"] is True and d["explain"] == c.explain

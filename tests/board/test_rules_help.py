"""Rules help: every action, deed, keyword and prompt the engine can show has our own words."""

from __future__ import annotations

import re

from games.kilforth.board import rules_help
from games.kilforth.engine import content, legal

from .games import CONFIGS, playout
from .test_render import render


def test_every_card_keyword_and_weakness_in_the_content_has_a_help_text():
    words = set()
    for c in content().cards.values():
        words.update(c.get("keywords") or [])
        if c.get("weakness"):
            words.add(c["weakness"])
        for ch in c.get("chapters") or []:
            words.update(ch.get("keywords", []) + ch.get("solo_keywords", []))
    assert words
    for w in words:
        assert rules_help.help_for(w), w


def test_every_prompt_kind_seen_in_random_games_has_a_waiting_phrase():
    kinds = set()
    for edition, mode, heroes in CONFIGS:
        for state in playout(edition, mode, heroes):
            if state.prompt:
                kinds.add(state.prompt["kind"])
    assert "turn" in kinds
    for k in kinds:
        assert k in rules_help.DECIDING, k


def test_every_choice_offered_on_a_turn_names_an_action_or_deed_with_a_help_text():
    topics = set()
    for edition, mode, heroes in CONFIGS:
        for state in playout(edition, mode, heroes):
            if state.prompt and state.prompt["kind"] == "turn":
                for c in legal(state, state.prompt["seat"]):
                    topics.add(c.topic)
                    assert c.group in ("action", "deed", "end"), c.key
                    assert c.topic in rules_help.ACTIONS or c.topic in rules_help.DEEDS, c.key
    assert {"move", "camp"} <= topics


def test_turn_choices_come_with_a_plain_explanation_of_cost_and_effect():
    state = next(
        s
        for s in playout("gloom", "competitive", 2)
        if s.prompt and s.prompt["kind"] == "turn" and s.day > 1
    )
    seat = state.prompt["seat"]
    html = render(state, seat)
    explained = re.findall(r'<span class="choice-explain" id="[^"]+">([^<]+)</span>', html)
    assert len(explained) == len(state.prompt["options"])
    move = [t for t in explained if t.startswith("Spend 1 AP to walk to ")]
    assert move and all(".." not in t for t in explained)
    assert any(t.startswith("Give up your remaining") for t in explained), "making camp"


def test_help_tips_work_on_hover_focus_and_tap_without_javascript():
    state = playout("shadows", "competitive", 2)[40]
    html = render(state, 0)
    tips = re.findall(
        r'<button type="button" class="tip-btn" aria-describedby="([\w-]+-tip-\d+)"', html
    )
    assert len(tips) >= 10
    for tip in tips:
        assert f'role="tooltip" id="{tip}"' in html
    assert "<script" not in html

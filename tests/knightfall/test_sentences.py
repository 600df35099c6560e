"""Knight Fall's log reads as English: no "(s)", no "a" before a vowel, no internal braces."""

import re

import pytest

from games.knightfall.engine.core import sentence
from games.knightfall.engine.simulate import playout

BAD = re.compile(r"\(s\)|\{|\}|\bA [aeiouAEIOU]|\ba [aeiouAEIOU]")
INTERNAL_ID = re.compile(r"\b[mce]\d+\b")  # the engine's unit ids ("imp m42") never show


@pytest.mark.parametrize(
    "options", [{"players": 3}, {"players": 4}, {"mode": "coop", "players": 2}]
)
def test_the_sentences_of_seeded_games_read_as_english(options):
    for seed in (1, 2, 3):
        state = playout(options, seed)
        for entry in state["log"]:
            text = sentence(entry)
            assert not BAD.search(text), text
            assert not INTERNAL_ID.search(text), text


def test_minions_and_elders_are_named_by_kind_and_number() -> None:
    state = playout({"players": 4}, 1)
    texts = [sentence(e) for e in state["log"]]
    assert any(re.search(r"\bimp \d\b", t) for t in texts)
    assert any(re.search(r"\bstone golem \d\b", t) for t in texts)
    assert any(re.search(r"\belder [1-8]\b", t) for t in texts)

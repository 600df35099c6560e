"""Knight Fall's log reads as English: no "(s)", no "a" before a vowel, no internal braces."""

import re

import pytest

from games.knightfall.engine.core import sentence
from games.knightfall.engine.simulate import playout

BAD = re.compile(r"\(s\)|\{|\}|\bA [aeiouAEIOU]|\ba [aeiouAEIOU]")


@pytest.mark.parametrize(
    "options", [{"players": 3}, {"players": 4}, {"mode": "coop", "players": 2}]
)
def test_the_sentences_of_seeded_games_read_as_english(options):
    for seed in (1, 2, 3):
        state = playout(options, seed)
        for entry in state["log"]:
            text = sentence(entry)
            assert not BAD.search(text), text

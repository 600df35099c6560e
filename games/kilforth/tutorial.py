"""Learn to play Kilforth: a guided solo game through one day and one night.

The game is an ordinary solo game of Gloom with a fixed hero (a Fellmark Dwarf Chevalier) and a
fixed seed, so every die falls the same way each time it is played by the script: the first
move meets a place to confront, its test falls one success short so that fate decides it, the
second move meets an enemy, and with the action points spent the night falls.
tests/tables/test_tutorial.py plays the script on the engine and checks each step's facts.

Steps point at choices by their data (the verbs of games/kilforth/engine/verbs.py and their
facts), never by labels or keys. The sentences are ours.
"""

from __future__ import annotations

from typing import Any

from games.kilforth import engine
from games.kilforth.engine.events import name_people
from games.tables.tutorials import Offer, Step

SEED = 7
HERO = {"race": "race.fellmark_dwarf", "class": "class.chevalier", "female": False}
OPTIONS = {
    "edition": "gloom",
    "mode": "solo",
    "difficulty": "standard",
    "auto_evasion": False,
    "chapter_cost_2x": False,
    "open_hands": False,
    "saga_allocation": "matched",
}
QUARRY = 17  # Greystone Quarry, south of the centre
HEIGHTS = 16  # Ironcrag Heights, west of the quarry

SCRIPT = [
    Step(
        "Welcome",
        "You play one hero, a dwarf knight, in a land that grows darker every night. This guide "
        "walks you through your first day and night; follow the marked button, or leave the "
        "guide whenever you like and play on.",
        when={"verb": "draw_from"},
    ),
    Step(
        "Your first rumour",
        "Before the first day you draw a rumour: a card kept in your hand until you bring it "
        "into play. Draw from the item deck.",
        point={"verb": "draw_from", "deck": "item"},
    ),
    Step(
        "Keep one",
        "Keep the Hooded Cloak; the other card goes back into the deck. A rumour in hand can "
        "later be discovered for its reward.",
        point={"verb": "keep_first", "card": "r.hooded_cloak"},
    ),
    Step(
        "Daylight",
        "Your day has 4 action points (AP); moving, searching and confronting cost 1 each. "
        "Wounds cost you actions too: you never have more AP than hit points (HP).",
        when={"verb": "move"},
        phase=1,
        spot="kb-hero-card-0",
    ),
    Step(
        "Moving",
        "Walk south to Greystone Quarry. A location nobody has explored yet shows you an "
        "encounter when you arrive.",
        point={"verb": "move", "loc": QUARRY},
        spot=f"kb-loc-{QUARRY}",
    ),
    Step(
        "An encounter",
        "The quarry holds the Abandoned Mine, a place you can confront. Confront it with study: "
        "you roll one die per point of study, each 5 or 6 is a success, and it needs 2.",
        point={"verb": "confront", "card": "e.abandoned_mine", "attr": "study"},
    ),
    Step(
        "A test, and fate",
        "One die, one success: one short of the two the mine needs. Once a day, after seeing "
        "the dice, you may call on fate and spend a fate token for one more success.",
        point={"verb": "call_fate", "pay": "token"},
    ),
    Step(
        "Your reward",
        "The mine is yours. Take its gold: gold buys help at a market and counts for victory "
        "at the end.",
        point={"verb": "take_gold", "card": "e.abandoned_mine"},
    ),
    Step(
        "A new rumour",
        "Keep the mine as a rumour in your hand: rumours can be brought into play later and pay "
        "for fate when your tokens run out.",
        point={"verb": "keep_rumour", "card": "e.abandoned_mine"},
    ),
    Step(
        "Onwards",
        "Two AP left. Move west to Ironcrag Heights and see what waits there.",
        point={"verb": "move", "loc": HEIGHTS},
        spot=f"kb-loc-{HEIGHTS}",
    ),
    Step(
        "An engagement",
        "A Stone Ogre! An enemy fights you as soon as you meet it, and this one struck first. "
        "Each round both sides roll fight dice and every success is a hit; it has 1 HP left, "
        "so fight on.",
        point={"verb": "fight", "card": "e.stone_ogre"},
    ),
    Step(
        "Spoils",
        "The ogre is beaten. Take its gold.",
        point={"verb": "take_gold", "card": "e.stone_ogre"},
    ),
    Step(
        "A trophy rumour",
        "Keep the ogre as a rumour too. Your wounds have used up your AP, so your day ends here.",
        point={"verb": "keep_rumour", "card": "e.stone_ogre"},
    ),
    Step(
        "The night",
        "You made camp and night fell. Each night a card is drawn: enemies appear, the gloom "
        "spreads over the land and the ancients stir; the Night panel tells what happened.",
        when={"verb": "camp"},
        phase=2,
        spot="kb-night",
    ),
    Step(
        "Your own game now",
        "That is a day and a night: move, meet encounters, test your luck and fight, then rest. "
        "This game goes on; play it to the end, or open a table with friends.",
        when={"verb": "camp"},
        phase=2,
    ),
]


def _you(seat: int) -> str:
    return "you"


class KilforthTutorial:
    title = "Learn to play Kilforth"
    blurb = "A guided solo game: one day and one night, each step explained."
    options: dict[str, Any] = OPTIONS
    setup = HERO
    seed = SEED
    script = SCRIPT

    def offer(self, state: engine.State, seat: int) -> Offer:
        choices = []
        if seat in state.waiting_for:
            choices = [
                (c.key, name_people(c.label, _you), dict(c.data))
                for c in engine.legal(state, seat)
                if not c.offturn
            ]
        return Offer(phase=state.day, choices=choices)


TUTORIAL = KilforthTutorial()

"""Every card of the full set appears in at least one random-playout game.

The test plays a fixed list of seeded games with the random bot (`engine.bots.play`, i.e. the public
`new_game` / `legal` / `act` interface) over both editions, every mode, every hero count and, for
Shadows, the harder difficulty (the only way Couch of Death becomes the centre). Seeds are fixed,
so the test either always passes or always fails; it fails listing every card never seen.

When a card counts as used (the rule, per kind):

- encounters, rewards, night cards, loot tokens: drawn in play, i.e. named by any event of the
  game's log (drawn, gained as a rumour, looked at in the market or in setup, cashed, pre-gloomed
  ...) or found at the end in a zone other than its draw pile or the loot bag (map, hands, assets,
  loot, discards, used loot, weather).
- locations: on the game's map (setup deals 25 of them; Shadows' two centres need the harder
  difficulty for Couch of Death).
- races, classes, sagas: dealt to a hero at setup (sagas by the "matched" allocation or at random).
- ancients and their plots: the ancient dealt into the game together with its plot deck (an
  ancient's plots come out only when the map falls into gloom, too rarely to wait for each of
  the 24).
- skills: gained by a hero in play, or dealt with a class: random bots seldom complete a chapter
  (a handful of skills are gained over the whole table), so a skill counts as used when a hero of
  a class that may learn it (its type is in the class's `skill_types`) is dealt into a game: by
  SET-4 the skills of that type are then laid out beside the map, on offer at chapters 1-4. The
  test prints how many skills were actually gained in play.

The table (211 games, about 7 s on an idle core) has a margin: today the last card is first seen
in game 144, and the same table played from other seeds (1000.., 2000.., 3000..) also sees every
card, so a change in the engine's dice should not make it fail. The test prints the game in which
the last card was first seen.
"""

from __future__ import annotations

import time

from games.kilforth.engine import Settings
from games.kilforth.engine.bots.play import play
from games.kilforth.engine.cards.catalogue import content

# (edition, mode, heroes, difficulty, games): seeds 0..games-1 for each line.
TABLE = [
    ("gloom", "solo", 1, "standard", 30),
    ("gloom", "competitive", 2, "standard", 23),
    ("gloom", "competitive", 4, "standard", 15),
    ("gloom", "cooperative", 2, "standard", 15),
    ("gloom", "cooperative", 3, "standard", 15),
    ("gloom", "cooperative", 4, "standard", 15),
    ("shadows", "solo", 1, "standard", 30),
    ("shadows", "solo", 1, "harder", 8),
    ("shadows", "competitive", 2, "standard", 15),
    ("shadows", "competitive", 3, "harder", 15),
    ("shadows", "cooperative", 2, "easier", 15),
    ("shadows", "cooperative", 4, "standard", 15),
]


def _strings(value, out: set) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)


def seen_in_game(state, history: list[dict]) -> tuple[set, set]:
    """(card ids used in this finished game, given its whole log; skill ids gained)."""
    c = content()
    seen: set = set()
    for event in history:
        _strings(event, seen)
    for pile in state.discards.values():
        seen.update(pile)
    seen.update(state.loot_used)
    if state.weather:
        seen.add(state.weather)
    for loc in state.map:
        seen.add(loc["id"])
        seen.update(loc["enc"])
        seen.update(loc["plots"])
    gained: set = set()
    for h in state.heroes:
        seen.update(h["hand"] + h["assets"] + h["loot"])
        gained.update(h["skills"])
        seen.update((h["race"], h["class"], h["saga"]))
        types = c.cards[h["class"]]["skill_types"]
        seen.update(sk for sk in c.by_kind["skill"] if c.cards[sk]["type"] in types)
    for a in state.ancients:
        seen.add(a["id"])
        seen.update(p["id"] for p in c.cards[a["id"]]["plots"])
    seen |= gained
    return {x for x in seen if x in c.cards}, gained


def test_every_card_appears_in_a_random_playout_game():
    c = content()
    t0 = time.perf_counter()
    seen: set = set()
    gained: set = set()
    games = last_new = 0
    for edition, mode, heroes, difficulty, n in TABLE:
        settings = Settings(edition=edition, mode=mode, heroes=heroes, difficulty=difficulty)
        for seed in range(n):
            state, record = play(settings, seed, keep_history=True)
            s, g = seen_in_game(state, record.history)
            if s - seen:
                last_new = games + 1
            seen |= s
            gained |= g
            games += 1
    universe = set(c.cards)
    # Totems are part of their saga (id "<saga>.totem"): used with the saga.
    seen |= {x for x in universe if x.endswith(".totem") and x[: -len(".totem")] in seen}
    missing = sorted(universe - seen)
    print(
        f"{games} games in {time.perf_counter() - t0:.1f} s; "
        f"{len(universe) - len(missing)} of {len(universe)} cards seen; "
        f"{len(gained)} skills gained in play; the last new card came in game {last_new}"
    )
    assert not missing, f"{len(missing)} cards never seen in {games} games: {', '.join(missing)}"

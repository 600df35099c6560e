"""Invariants over seeded bot playouts in every mode, player count and variant.

After every action: each unit on the board has 1..max HEALTH (DEFENSE and frost within their
tracks); the minion supply plus the standees on the board equal the content's counts; scores
never fall and never pass the door; a hand holds at most one basic card and at most its size;
every power card is in exactly one place (deck, discards, a hand, or one character's seal or
mark); the state survives the JSON round trip; every option offered has a label, an explanation
and a rule id; and replaying the same actions from the seed gives the same state, step for step.
The default run plays 100 games; KILFORTH_LONG=1 plays 1,000."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from collections import Counter
from collections.abc import Iterator

import pytest

from games.knightfall.engine import api
from games.knightfall.engine.board import sewer
from games.knightfall.engine.bots import heuristic_bot, random_bot
from games.knightfall.engine.content import content
from games.knightfall.engine.steps import SUPPLY

RULE_ID = re.compile(r"^K[A-Z]+-\d+$")
LONG = os.environ.get("KILFORTH_LONG") == "1"
BOUNDED = 100

MODES = [{"players": n} for n in range(2, 7)] + [{"mode": "coop", "players": n} for n in (1, 2, 3)]


def games(n: int) -> Iterator[tuple[dict, int]]:
    """n (settings, seed) pairs cycling through the modes with seeded variant mixes."""
    for i in range(n):
        seed = 9_000 + i
        rnd = random.Random(seed)
        settings = {
            **MODES[i % len(MODES)],
            "desperate": rnd.random() < 0.3,
            "five_card": rnd.random() < 0.3,
            "experienced": rnd.random() < 0.3,
            "locations": rnd.random() < 0.8,
        }
        if settings["players"] == 3 and "mode" not in settings:
            settings["lone_team"] = rnd.choice(["demons", "knights"])
        yield settings, seed


def _all_cards() -> Counter:
    return Counter(
        f"{cid}#{i}"
        for cid, card in content().cards.items()
        if card.get("team") in ("knights", "demons")
        for i in range(card.get("copies", 1))
    )


ALL_CARDS = _all_cards()


def check(s: dict, before: dict[str, int], where: str) -> None:
    st = s["settings"]
    for u in s["units"].values():
        if u["tile"] is None:
            continue
        assert 1 <= u["hp"] <= u["max_hp"], (where, u)
        if u["type"] == "knight":
            assert 0 <= u["defense"] <= u["max_def"], (where, u)
        if "ice" in u:
            assert 0 <= u["ice"] <= u["max_ice"], (where, u)
        if u.get("bank") is not None:
            assert u["tile"] == sewer(s), (where, u)
    if st["mode"] == "standard":
        counts = content().supply[st["players"]]
    else:
        lv = content().coop_levels[st["coop_level"]]
        counts = {"stone_golem": lv["golems"], "imp": lv["imp_standees"]}
    for kind, total in {**SUPPLY, **counts}.items():
        on = sum(1 for u in s["units"].values() if u["type"] == kind and u["tile"] is not None)
        assert s["supply"][kind] >= 0 and on + s["supply"][kind] == total, (where, kind)
    for team, n in s["score"].items():
        assert before[team] <= n <= s["door"], (where, team, n)
        before[team] = n
    size = 1 + (4 if st["five_card"] else 3)
    places: Counter = Counter()
    for p in s["players"]:
        assert sum(c.startswith("basic") for c in p["hand"]) <= 1, (where, p)
        assert len(p["hand"]) <= size, (where, p)
        places.update(c for c in p["hand"] if not c.startswith("basic"))
        if p["slowed"] is not None:
            assert p["slowed"]["card"] in p["hand"], (where, p)
    for team in ("knights", "demons"):
        places.update(s["decks"][team])
        places.update(s["discards"][team])
    seals = [u for u in s["units"].values() if u.get("seal")]
    assert all(u["type"] in ("knight", "demon") for u in seals), where  # one field: one seal
    places.update(u["seal"] for u in seals)
    assert places == ALL_CARDS, (where, places - ALL_CARDS, ALL_CARDS - places)
    for seat in api.waiting_for(s):
        for o in api.legal(s, seat):
            assert o["label"] and o["explanation"] and RULE_ID.match(o["rule"]), (where, o)


def _digest(s: dict) -> str:
    """The state's JSON (the append-only log stands in by its length) round-tripped and hashed.

    The log only grows, so checking the whole log's round trip once at the end of a game covers
    every entry; every other part is checked after every step.
    """
    text = json.dumps({**s, "log": len(s["log"])}, sort_keys=True)
    assert json.loads(text) == {**s, "log": len(s["log"])}
    return hashlib.sha1(text.encode()).hexdigest()


def play_and_check(settings: dict, seed: int) -> dict:
    bot = heuristic_bot if seed % 2 else random_bot
    rnd = random.Random(seed)
    s = api.new_game(settings, seed)
    before = dict(s["score"])
    where = f"{settings} seed {seed}"
    check(s, before, where)
    moves: list[tuple[int, str]] = []
    digests = [_digest(s)]
    for _ in range(20_000):
        seats = api.waiting_for(s)
        if not seats:
            break
        opts = api.legal(s, seats[0])
        assert opts, where
        key = bot(s, seats[0], opts, rnd)
        moves.append((seats[0], key))
        s = api.act(s, seats[0], key)
        check(s, before, f"{where} v{s['version']}")
        digests.append(_digest(s))
    assert api.result(s) is not None, where
    assert api.from_json(api.to_json(s)) == s, where
    replay = api.new_game(settings, seed)
    assert _digest(replay) == digests[0], where
    for i, (seat, key) in enumerate(moves, start=1):
        replay = api.act(replay, seat, key)
        assert _digest(replay) == digests[i], (where, i)
    assert api.to_json(replay) == api.to_json(s), where
    return s


def test_seeded_playouts_keep_every_invariant_after_every_step() -> None:
    winners: Counter = Counter()
    for settings, seed in games(BOUNDED):
        winners[play_and_check(settings, seed)["result"]["winner"]] += 1
    assert sum(winners.values()) == BOUNDED


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="set KILFORTH_LONG=1 to play 1,000 games")
def test_a_thousand_seeded_playouts_keep_every_invariant() -> None:
    for settings, seed in games(1000):
        play_and_check(settings, seed)

"""The work any server of this game must do for a decision, measured on the machine of the run.

`manage.py loadtest` sets the server's CPU per decision beside three figures no design of the
site can go below (issue 14's budget is 4 ms in all):

- the floor's fan-out: its server CPU per frame fanned out to the table's sockets, measured in
  the same run (bench/floor.py: a bare Channels consumer sending one frame of the same size);
- the rules: the kit's work for the decision that `services._apply` asks of it, done once: the
  new state (`act`), its document (`dump`), the decision's log events (`events`), the game's
  progress (`progress`) and whether it may be taken back (`undoable`);
- the pictures: what the five viewers (four seats and the spectators) may see of the new state,
  the public facts made once for them (`engine.view`), written as JSON: what any board has to
  make of a decision before it draws anything (the same floor `bench_instructions` counts).

The game is played in this process, in memory (no database, no HTML): one 4-hero Gloom game,
competitive, by random legal decisions (seed fixed), and after `warm` decisions each of the
next `decisions` is timed with this process's CPU clock (`time.process_time`: what other
processes do slows it but is not counted). The sum leaves out the database, the socket's own
message and the board's HTML: what is left of the budget for them is the budget less the sum.
"""

from __future__ import annotations

import random
import time
from typing import TypedDict

import orjson

SEATS = 4


class Necessary(TypedDict):
    decisions: int  # decisions timed (fewer than asked if the game ended)
    rules_ms: float  # the kit's work per decision (act, dump, events, progress, undoable)
    pictures_ms: float  # the five viewers' pictures per decision, as JSON


def measure(decisions: int = 200, warm: int = 40, seed: int = 1) -> Necessary:
    """The rules' and the pictures' CPU per decision, played in memory (see the module)."""
    from games.kilforth import engine
    from games.tables import kits

    kit = kits.get("kilforth")
    state = engine.new_game(
        engine.Settings(heroes=SEATS, edition="gloom", mode="competitive"), seed
    )
    rng = random.Random(seed)
    rules = pictures = 0.0
    timed = 0
    for n in range(warm + decisions):
        if kit.result(state) is not None:
            break
        seat = kit.waiting_for(state)[0]
        key = rng.choice(engine.legal(state, seat)).key
        started = time.process_time()
        new = kit.act(state, seat, key)
        kit.dump(new)
        kit.events(state, new)
        kit.progress(new)
        kit.undoable(state, new)
        ruled = time.process_time()
        facts = engine.public_facts(new)  # once for the five, as the board makes them
        for viewer in (*range(SEATS), None):
            orjson.dumps(engine.view(new, viewer, facts))
        pictured = time.process_time()
        if n >= warm:
            rules += ruled - started
            pictures += pictured - ruled
            timed += 1
        state = new
    per = 1000 / max(1, timed)
    return {"decisions": timed, "rules_ms": rules * per, "pictures_ms": pictures * per}


def line(necessary: Necessary, floor_cpu_ms: float, ours_cpu_ms: float, budget_ms: float) -> str:
    """The report's line: the three figures, their sum, and what the budget leaves beside them."""
    total = floor_cpu_ms + necessary["rules_ms"] + necessary["pictures_ms"]
    left = budget_ms - total
    verdict = (
        f"the {budget_ms:g} ms budget leaves {left:.2f} ms for the database, the decision's "
        "message and the boards' HTML"
        if left > 0
        else f"above the {budget_ms:g} ms budget on this machine, before any database work or HTML"
    )
    return (
        f"necessary work per decision, measured in this run: the floor's fan-out "
        f"{floor_cpu_ms:.2f} + the rules {necessary['rules_ms']:.2f} (act, document, events, "
        f"progress; {necessary['decisions']} decisions in memory) + the five pictures as JSON "
        f"{necessary['pictures_ms']:.2f} = {total:.2f} ms ({verdict}); ours is "
        f"{ours_cpu_ms / total:.1f}x that"
    )

"""`manage.py bench_instructions`: the instructions a decision costs the server, counted.

Timings on a shared two-core machine move by 10-25% from one run to the next; a change to the
renders worth a few percent cannot be told from that. Instructions are counted the same in
every run (valgrind's callgrind: two runs of the same code differ by about 0.1%), whatever else
the machine is doing.

Run as `python -m bench.instructions PHASE` under `valgrind --tool=callgrind
--instr-atstart=no` in a fresh database (the command does both): one 4-hero Gloom game,
competitive, is played by random legal decisions (`do_act`, seed fixed). After `--warm`
decisions, for each of the next `--decisions`, counting is switched on (`callgrind_control`)
around one phase only:

- `views`: the five views of the new state (four seats and the spectators), each as a server
  makes it for its sockets: `render_table_live`, `Rendering.of`, kept, and the partial frame
  from the view's previous rendering;
- `decision`: `do_act` (the rules, the state document and the writes, on SQLite);
- `floor`: the five views' pictures (`engine.view`, the public facts made once for them, as
  the board makes them) written as JSON (orjson): what any board has to make of a decision
  before it draws anything, next to which `views` is read.

Prints JSON with the number of decisions counted; the command reads the instructions from
callgrind's output file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

PHASES = ("views", "decision", "floor")


def _counting(on: bool) -> None:
    """Switch callgrind's counting on or off for this process (it was started off)."""
    subprocess.run(
        ["callgrind_control", "--instr=on" if on else "--instr=off", str(os.getpid())],
        check=True,
        capture_output=True,
    )


def play(
    phase: str, warm: int, decisions: int, seed: int, counting: Callable[[bool], None] = _counting
) -> int:
    """Play the game and count `phase` for `decisions` decisions after `warm`; how many were
    counted (fewer if the game ended). `counting` switches the count on and off."""
    import orjson

    from games.kilforth import adapter, engine
    from games.tables import services
    from games.tables.identity import PLAYER_ACCESS, SPECTATOR_ACCESS
    from games.tables.models import Game
    from games.tables.rendering import load_snapshot

    from .prepare import one_game, server_views

    table, players = one_game("Instructions", seed)
    viewers = [(p.pk, PLAYER_ACCESS) for p in players] + [(None, SPECTATOR_ACCESS)]
    rng = random.Random(seed)
    shown: dict = {}
    counted = 0
    for n in range(warm + decisions):
        state = adapter.load(Game.objects.get(table=table).state)
        if state.result is not None:
            break
        seat = state.waiting_for[0]
        key = rng.choice(adapter.legal(state, seat)).key
        measured = n >= warm
        if measured and phase == "decision":
            counting(True)
        services.do_act(table, players[seat], key, state.version)
        if measured and phase == "decision":
            counting(False)
        snapshot = load_snapshot(table.pk, presence=False)
        version = snapshot.table.game_state.version
        if measured and phase == "floor":
            counting(True)
            facts = engine.public_facts(snapshot.game)  # once for the five, as the board does
            for seat_of in (0, 1, 2, 3, None):
                orjson.dumps(engine.view(snapshot.game, seat_of, facts))
            counting(False)
        if measured and phase == "views":
            counting(True)
        views = server_views(table, snapshot, viewers, version, shown)
        if measured and phase == "views":
            counting(False)
        shown = views
        counted += measured
    return counted


def totals(path: Path) -> int:
    """The instructions counted in one callgrind output file (its `totals:` line)."""
    for line in path.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise ValueError(f"no totals in {path}")


def lines(result: dict) -> list[str]:
    """The report: each phase's instructions per decision, the views next to their floor."""
    per = {phase: result[phase] / max(1, result["decisions"]) for phase in PHASES}
    out = [
        f"instructions per decision, counted by callgrind over {result['decisions']} decisions "
        f"after {result['warm']} (one 4-hero Gloom game, competitive, seed {result['seed']}):",
        f"the five views (render_table_live, Rendering.of, kept, partial frame): "
        f"{per['views'] / 1e6:.2f} M",
        f"floor (the five views' pictures made and written as JSON): {per['floor'] / 1e6:.2f} M; "
        f"views / floor {per['views'] / max(1.0, per['floor']):.1f}x",
        f"do_act (rules, state document, writes; SQLite): {per['decision'] / 1e6:.2f} M",
    ]
    return out


def main(argv: list[str] | None = None) -> None:
    import django

    parser = argparse.ArgumentParser()
    parser.add_argument("phase", choices=PHASES)
    parser.add_argument("--warm", type=int, default=40)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    django.setup()
    from .prepare import quiet

    quiet()  # nobody listens
    counted = play(args.phase, args.warm, args.decisions, args.seed)
    json.dump({"phase": args.phase, "decisions": counted}, sys.stdout)


if __name__ == "__main__":
    main()

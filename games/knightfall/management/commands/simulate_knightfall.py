"""python manage.py simulate_knightfall --games N --players K|all --mode standard|coop|all
--seed S --bot heuristic|random [--knights BOT --demons BOT] [--report DIR] [--no-progress]

A thin wrapper: the simulation lives in games.knightfall.engine.simulate (pure Python).
`--bot` sets both teams' bot; `--knights` / `--demons` override one team (co-op demons are
always the engine's co-op deck). `--report DIR` writes report.json, report.csv and report.png.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.knightfall.engine.bots import BOTS
from games.knightfall.engine.simulate import PLAYER_COUNTS, ChartUnavailable, lines, report, write


class Command(BaseCommand):
    help = "Play Knight Fall games with bots and report win rates by side and player count."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=100, help="games per player count")
        parser.add_argument("--players", default="all", help="a player count, or all")
        parser.add_argument("--mode", default="standard", choices=["standard", "coop", "all"])
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--bot", default="heuristic", choices=sorted(BOTS))
        parser.add_argument("--knights", default=None, choices=sorted(BOTS))
        parser.add_argument("--demons", default=None, choices=sorted(BOTS))
        parser.add_argument(
            "--report", default=None, metavar="DIR", help="write JSON, CSV and a PNG chart here"
        )
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: object, **opts: object) -> None:
        modes = ["standard", "coop"] if opts["mode"] == "all" else [str(opts["mode"])]
        if opts["players"] == "all":
            players = None
        else:
            try:
                n = int(str(opts["players"]))
            except ValueError as exc:
                raise CommandError("--players takes a number or 'all'") from exc
            if not any(n in PLAYER_COUNTS[m] for m in modes):
                raise CommandError(f"{', '.join(modes)} mode cannot be played by {n} players")
            players = [n]
        games = int(str(opts["games"]))
        if games < 1:
            raise CommandError("--games must be at least 1")
        counts = sum(
            len([n for n in (players or PLAYER_COUNTS[m]) if n in PLAYER_COUNTS[m]]) for m in modes
        )
        bot = str(opts["bot"])
        with tqdm(total=games * counts, unit="game", disable=bool(opts["no_progress"])) as bar:
            rep = report(
                games,
                modes,
                players,
                seed=int(str(opts["seed"])),
                knights=str(opts["knights"] or bot),
                demons=str(opts["demons"] or bot),
                progress=bar.update,
            )
        for line in lines(rep):
            self.stdout.write(line)
        if opts["report"]:
            try:
                paths = write(rep, str(opts["report"]))
            except ChartUnavailable as exc:
                self.stderr.write(f"{exc}; report.json and report.csv were written.")
                return
            for p in paths:
                self.stdout.write(f"wrote {p}")

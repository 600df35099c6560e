"""python manage.py simulate --game kilforth --games N --heroes K --mode M --edition E --seed S
[--bot random|heuristic | --bots heuristic,random,...] [--report DIR]

A thin wrapper: the simulation lives in games.kilforth.engine.simulation (simulate, report;
pure Python).
`--bot` gives every seat the same bot level, `--bots` one level per seat; `--report DIR` writes
report.json, report.csv and report.png (win rate by class and ancient) into DIR.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.kilforth.engine import Settings, SettingsError
from games.kilforth.engine.bots.play import BOTS
from games.kilforth.engine.simulation.report import (
    ChartUnavailable,
    aggregate,
    lines,
    run,
    seat_bots,
    write,
)


class Command(BaseCommand):
    help = "Play N Kilforth games with bots and report speed and outcomes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--heroes", type=int, default=4)
        parser.add_argument(
            "--mode", default="competitive", choices=["competitive", "cooperative", "solo"]
        )
        parser.add_argument("--edition", default="gloom", choices=["gloom", "shadows"])
        parser.add_argument(
            "--difficulty", default="standard", choices=["easier", "standard", "harder"]
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--bot", default="random", choices=sorted(BOTS), help="bot level for every seat"
        )
        parser.add_argument(
            "--bots",
            default=None,
            help="one bot level per seat, comma-separated (e.g. heuristic,random); overrides --bot",
        )
        parser.add_argument(
            "--report", default=None, metavar="DIR", help="write JSON, CSV and a PNG chart here"
        )
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: object, **opts: object) -> None:
        heroes = 1 if opts["mode"] == "solo" else int(opts["heroes"])
        try:
            settings = Settings(
                edition=opts["edition"],
                mode=opts["mode"],
                heroes=heroes,
                difficulty=opts["difficulty"],
            )
            settings.validate()
            bots = seat_bots(str(opts["bots"] or opts["bot"]), heroes)
        except (SettingsError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        games = int(opts["games"])
        seed = int(opts["seed"])
        with tqdm(total=games, unit="game", disable=bool(opts["no_progress"])) as bar:
            speed, outcomes = run(settings, games, seed, bots, progress=bar.update)
        for line in speed.lines():
            self.stdout.write(line)
        rep = aggregate(outcomes, settings, bots, seed)
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

"""python manage.py simulate --games N --heroes K --mode M --edition E --seed S [--bot random]

A thin wrapper: the simulation itself lives in games.kilforth.engine.simulate (pure Python).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.kilforth.engine import Settings, SettingsError
from games.kilforth.engine.bots import BOTS
from games.kilforth.engine.simulate import simulate


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
        parser.add_argument("--bot", default="random", choices=sorted(BOTS))
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: object, **opts: object) -> None:
        try:
            settings = Settings(
                edition=opts["edition"],
                mode=opts["mode"],
                heroes=opts["heroes"],
                difficulty=opts["difficulty"],
            )
            settings.validate()
        except SettingsError as exc:
            raise CommandError(str(exc)) from exc
        games = int(opts["games"])
        with tqdm(total=games, unit="game", disable=bool(opts["no_progress"])) as bar:
            report = simulate(
                settings, games, int(opts["seed"]), bot=str(opts["bot"]), progress=bar.update
            )
        for line in report.lines():
            self.stdout.write(line)

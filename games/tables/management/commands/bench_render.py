"""The game page's server render time at several points of a game: see bench/render.py."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Time the game page, the live fragment and the board at several points of a game."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--points", default="0,150,300", help="decisions played before each")
        parser.add_argument("--repeat", type=int, default=50)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--postgres", action="store_true", help="a fresh PostgreSQL database")
        parser.add_argument(
            "--profile", default="", help="write cProfile stats of the timed decisions to this file"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from bench import render, servers

        backend = servers.Backend(
            postgres=servers.DEFAULT_POSTGRES if options["postgres"] else None
        )
        try:
            backend.migrate()
            result = backend.run_json(
                "bench.render",
                "--points",
                options["points"],
                "--repeat",
                str(max(1, min(options["repeat"], 10_000))),
                "--seed",
                str(options["seed"]),
                *(["--profile", options["profile"]] if options["profile"] else []),
            )
        finally:
            backend.close()
        self.stdout.write(f"database: {backend.describe()}")
        for line in render.lines(result):
            self.stdout.write(line)

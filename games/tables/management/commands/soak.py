"""A long run of bot-played tables through server kills and a Redis restart: see bench/soak.py."""

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Soak: N bot-played tables x V watchers on 2 daphne + Redis (+ PostgreSQL) for a while, "
        "killing one daphne every few minutes and restarting Redis once; reports decisions, "
        "lost updates, errors, RSS per minute and presence rows left."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--tables", type=int, default=50)
        parser.add_argument("--viewers", type=int, default=5, help="watchers per table")
        parser.add_argument("--minutes", type=float, default=60.0)
        parser.add_argument("--kill-every", type=float, default=10.0, help="minutes; 0: never")
        parser.add_argument(
            "--redis-restart-at", type=float, default=None, help="minute (default: halfway)"
        )
        parser.add_argument("--sample-seconds", type=float, default=60.0, help="RSS sampling")
        parser.add_argument("--bot-delay-ms", type=int, default=2000)
        parser.add_argument("--sqlite", action="store_true", help="a SQLite file, not PostgreSQL")
        parser.add_argument("--postgres", default=None, help="PostgreSQL server URL (no db name)")
        parser.add_argument("--json", action="store_true", help="print the report as JSON")
        parser.add_argument(
            "--presence-wait",
            type=float,
            default=90.0,
            help="seconds to wait, after the watchers close, for every presence row to go",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from bench import servers
        from bench.soak import SoakOptions, lines, run

        opts = SoakOptions(
            tables=max(1, min(options["tables"], 500)),
            viewers=max(0, min(options["viewers"], 50)),
            minutes=max(0.2, min(options["minutes"], 24 * 60)),
            kill_every=max(0.0, options["kill_every"]),
            redis_restart_at=options["redis_restart_at"],
            sample_seconds=max(1.0, options["sample_seconds"]),
            bot_delay_ms=max(0, min(options["bot_delay_ms"], 60_000)),
            presence_wait=max(1.0, min(options["presence_wait"], 3600.0)),
            postgres=None
            if options["sqlite"]
            else (options["postgres"] or servers.DEFAULT_POSTGRES),
        )
        report = run(opts)
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        for line in lines(report):
            self.stdout.write(line)

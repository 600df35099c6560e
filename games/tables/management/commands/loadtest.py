"""Load and latency over real daphne processes: see bench/load.py and docs/benchmarks.md."""

import asyncio
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Drive N tables x (4 players + S spectators) over real websockets against 1-2 daphne "
        "processes; print delivery latency, errors, memory per socket and the floor."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--tables", type=int, default=10)
        parser.add_argument("--spectators", type=int, default=1, help="per table")
        parser.add_argument("--processes", type=int, default=1, choices=[1, 2])
        parser.add_argument("--rate", type=float, default=1.0, help="decisions per table per s")
        parser.add_argument("--seconds", type=float, default=20.0)
        parser.add_argument("--redis", action="store_true", help="channels-redis pub/sub layer")
        parser.add_argument("--redis-db", type=int, default=9)
        parser.add_argument("--postgres", action="store_true", help="a fresh PostgreSQL database")
        parser.add_argument("--no-floor", action="store_true", help="skip the floor run")
        parser.add_argument("--floor-seconds", type=float, default=None)
        parser.add_argument("--visibility", default="public", choices=["public", "unlisted"])
        parser.add_argument(
            "--anonymous-spectators",
            action="store_true",
            help="spectators without a session cookie (public tables only)",
        )
        parser.add_argument("--plain", action="store_true", help="serve without the counters")
        parser.add_argument(
            "--timeline",
            action="store_true",
            help="record each decision's steps across the servers (bench/timeline.py; one table)",
        )
        parser.add_argument(
            "--route",
            default="spread",
            choices=["spread", "table"],
            help="spread each table's sockets over the processes, or put them on one (by table)",
        )
        parser.add_argument("--connect-concurrency", type=int, default=50)
        parser.add_argument("--settle-limit", type=float, default=300.0)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        from bench.load import Options, lines, run

        if options["processes"] > 1 and not options["redis"]:
            self.stderr.write("several processes share tables only through Redis: add --redis")
            return
        opts = Options(
            tables=max(1, min(options["tables"], 1000)),
            spectators=max(0, min(options["spectators"], 2000)),
            processes=options["processes"],
            rate=max(0.01, min(options["rate"], 20.0)),
            seconds=max(1.0, min(options["seconds"], 600.0)),
            redis=options["redis"],
            redis_db=options["redis_db"],
            postgres=options["postgres"],
            floor=not options["no_floor"],
            floor_seconds=options["floor_seconds"],
            visibility=options["visibility"],
            instrumented=not options["plain"],
            timeline=options["timeline"] and not options["plain"],
            settle_limit=options["settle_limit"],
            connect_concurrency=max(1, min(options["connect_concurrency"], 500)),
            seed=options["seed"],
            anonymous_spectators=options["anonymous_spectators"],
            route=options["route"],
            progress=not options["no_progress"],
        )
        report = asyncio.run(run(opts))
        for line in lines(report):
            self.stdout.write(line)

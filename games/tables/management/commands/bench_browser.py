"""Click-to-updated-board in a real Chromium: see bench/browser.py."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Time decision clicks to the swapped board in Debian's Chromium against real daphne."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--clicks", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        from bench import browser

        result = browser.run(max(1, min(options["clicks"], 2000)), seed=options["seed"])
        for line in browser.lines(result):
            self.stdout.write(line)

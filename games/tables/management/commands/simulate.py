"""python manage.py simulate --game KEY [the game's own options]

Plays bot games of one game kit and reports speed and outcomes. The platform knows no game: it
finds the kit registered under KEY (the first registered kit when --game is not given) and
forwards every other argument to the kit's own command (`GameKit.simulate_command`), e.g.
`simulate --game kilforth --games 100 --heroes 4` or `simulate --game knightfall --players 4`.
`simulate --game KEY --help` shows that game's options.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.tables import kits


class Command(BaseCommand):
    help = "Play bot games of one game (--game KEY) and report; other options are the game's own."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, add_help=False, **kwargs)
        parse_known = parser.parse_known_args

        def parse_args(args: Any = None, namespace: Any = None) -> Any:
            # Everything this command does not know belongs to the game's command.
            options, rest = parse_known(args, namespace)
            options.forward = rest
            return options

        parser.parse_args = parse_args  # type: ignore[method-assign]
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        keys = [kit.key for kit in kits.all_kits()]
        parser.add_argument(
            "--game", default=keys[0] if keys else None, help=f"one of: {', '.join(keys)}"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            kit = kits.get(str(options["game"]))
        except LookupError as exc:
            raise CommandError(str(exc)) from exc
        if not kit.simulate_command:
            raise CommandError(f"{kit.name} has no bot-game simulation.")
        forward = [*args, *options.get("forward", [])]
        call_command(kit.simulate_command, *forward, stdout=self.stdout, stderr=self.stderr)

"""Forget every open-socket row: for a single server starting up, none of them can be alive."""

from typing import Any

from django.core.management.base import BaseCommand

from games.tables.models import Connection


class Command(BaseCommand):
    help = "Delete all presence rows (run before starting the only server process)."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted, _ = Connection.objects.all().delete()
        self.stdout.write(f"cleared {deleted} stale connection(s)")

"""Tables with running 4-hero games, and the sessions that play and watch them.

Run as `python -m bench.prepare --tables N --spectators S` with the server's DATABASE_URL, before
the servers start; prints JSON: for each table its slug and the session keys of its four players
(seat order) and of its spectators. Everything goes through the services (do_create_table,
do_start_game, the kit's pick_hero), as at a real table; only the broadcasts are skipped, since no
server is listening yet.
"""

from __future__ import annotations

import argparse
import json
import sys


def prepare(tables: int, spectators: int, visibility: str, seed: int) -> dict:
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import override_settings

    from games.kilforth.kit import pick_hero
    from games.tables import realtime, services
    from games.tables.identity import PLAYER_KEY, SPECTATOR_ACCESS, grant_access
    from games.tables.models import Player, Seat

    # Nobody listens before the servers start; rendering the lobby per write would only cost time.
    realtime.broadcast_table = lambda table_id, **kwargs: None

    def session(player: Player | None = None, table: object = None) -> str:
        store = SessionStore()
        if player is not None:
            store[PLAYER_KEY] = player.pk
        if table is not None:
            grant_access(store, table, SPECTATOR_ACCESS)
        store.create()
        return store.session_key

    out = []
    for n in range(tables):
        names = [f"T{n} seat {s + 1}" for s in range(4)]
        players = [Player.objects.create(name=name) for name in names]
        table = services.do_create_table(
            players[0],
            {
                "name": f"Bench table {n}",
                "options": {
                    "edition": "shadows" if n % 2 else "gloom",
                    "mode": "competitive",
                },
                "seat_count": 4,
                "visibility": visibility,
            },
        )
        for number, player in enumerate(players):
            Seat.objects.filter(table=table, number=number).update(player=player)
        services.do_start_game(table, players[0])
        with override_settings(KILFORTH_TEST_SEED=seed + n):
            for player in players:
                pick_hero(table, player, "", "", False)
        out.append(
            {
                "slug": table.slug,
                "players": [session(p) for p in players],
                "spectators": [session(None, table) for _ in range(spectators)],
            }
        )
    return {"tables": out}


def main(argv: list[str] | None = None) -> None:
    import django

    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--spectators", type=int, default=1)
    parser.add_argument("--visibility", default="public", choices=["public", "unlisted"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    django.setup()
    result = prepare(args.tables, args.spectators, args.visibility, args.seed)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()

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


def quiet() -> None:
    """No broadcasts from this process (nobody listens): for a benchmark's own process, where
    rendering the lobby after every write would only cost time."""
    from games.tables import realtime

    realtime.broadcast_table = lambda table_id, **kwargs: None


def one_game(name: str, seed: int) -> tuple:
    """One started 4-hero Gloom game, competitive, its heroes dealt from `seed`, played by
    nobody yet: (table, its four players in seat order). For the benchmarks that play a game
    in process (bench/render.py, bench/instructions.py)."""
    from django.test import override_settings

    from games.kilforth.kit import pick_hero
    from games.tables import services
    from games.tables.models import Player, Seat

    players = [Player.objects.create(name=f"Seat {n + 1}") for n in range(4)]
    table = services.do_create_table(
        players[0],
        {"name": name, "options": {"edition": "gloom", "mode": "competitive"}, "seat_count": 4},
    )
    for number, player in enumerate(players):
        Seat.objects.filter(table=table, number=number).update(player=player)
    services.do_start_game(table, players[0])
    with override_settings(KILFORTH_TEST_SEED=seed):
        for player in players:
            pick_hero(table, player, "", "", False)
    return table, players


def server_views(
    table: object, snapshot: object, viewers: list, version: int, shown: dict | None = None
) -> dict:
    """The views of one table state as a server makes them for its sockets: each viewer's
    live fragment (unjoined), its rendering kept, and the partial frame from the rendering
    `shown` names for that view, if any. {view: the key it is kept by}."""
    from games.tables import caches
    from games.tables.frames import Rendering
    from games.tables.rendering import render_table_live, viewer_key

    views = {}
    for player_id, access in viewers:
        html = render_table_live(snapshot, player_id, access, joined=False)
        view = (table.pk, viewer_key(snapshot, player_id, access), access)
        key = (table.pk, table.slug, version, ((), ()))
        caches.renderings.put(view, key, Rendering.of(html, 0), version)
        if shown and view in shown:
            caches.renderings.frame(view, key, shown[view])
        views[view] = key
    return views


def prepare(tables: int, spectators: int, visibility: str, seed: int) -> dict:
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import override_settings

    from games.kilforth.kit import pick_hero
    from games.tables import services
    from games.tables.identity import PLAYER_KEY, SPECTATOR_ACCESS, grant_access
    from games.tables.models import Player, Seat

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
    quiet()  # nobody listens before the servers start
    result = prepare(args.tables, args.spectators, args.visibility, args.seed)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()

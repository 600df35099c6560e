"""`manage.py bench_render`: the game page's server render time, and its parts.

Run as `python -m bench.render` in a fresh database (the command sets DATABASE_URL): one 4-hero
table is started through the services and played on by random legal decisions (do_act); at
each chosen point of the game it times, `--repeat` times each:

- page: GET /t/<slug>/ through Django's test Client (middleware, session, view, templates), for
  the seated player of seat 1 and for a spectator;
- live: the websocket fragment (load_snapshot + render_table_live), as the consumer renders it;
- board: adapter.render alone (engine.view for the viewer, then the board templates);
- view: engine.view alone, to tell the engine's share from the templates'.

Prints JSON (the command turns it into report lines).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import sys
import time
from collections.abc import Callable
from functools import partial


def _time(fn: Callable[[], object], repeat: int) -> tuple[list[float], object]:
    out = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        out.append((time.perf_counter() - start) * 1000)
    return out, result


def bench(
    points: list[int], repeat: int, seed: int, profile: cProfile.Profile | None = None
) -> dict:
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import Client

    from games.kilforth import adapter, engine
    from games.kilforth.board import parts as board_parts
    from games.tables import caches, realtime, services
    from games.tables.identity import PLAYER_ACCESS, PLAYER_KEY, SPECTATOR_ACCESS, grant_access
    from games.tables.models import Game
    from games.tables.rendering import (
        load_snapshot,
        pack_snapshot,
        render_table_live,
        unpack_snapshot,
    )

    from .prepare import one_game, server_views

    table, players = one_game("Render bench", seed)

    def client(player: object = None) -> Client:
        store = SessionStore()
        if player is not None:
            store[PLAYER_KEY] = player.pk
        else:
            grant_access(store, table, SPECTATOR_ACCESS)
        store.create()
        c = Client()
        c.cookies["sessionid"] = store.session_key
        return c

    seat_client, spectator_client = client(players[0]), client()
    rng = random.Random(seed)
    played = 0
    results = []

    def play_one() -> object | None:
        """One random legal decision; the new state, or None once the game is over."""
        state = adapter.load(Game.objects.get(table=table).state)
        if state.result is not None:
            return None
        seat = state.waiting_for[0]
        key = rng.choice(adapter.legal(state, seat)).key
        services.do_act(table, players[seat], key, state.version)
        return adapter.load(Game.objects.get(table=table).state)

    viewers = [(p.pk, PLAYER_ACCESS) for p in players] + [(None, SPECTATOR_ACCESS)]

    def live_views(version: int, snapshot: object = None, before: dict | None = None) -> dict:
        snapshot = snapshot or load_snapshot(table.pk, presence=False)
        return server_views(table, snapshot, viewers, version, before)

    shown: dict = {}

    def decision_cost() -> float | None:
        nonlocal shown
        state = adapter.load(Game.objects.get(table=table).state)
        if state.result is not None:
            return None
        seat = state.waiting_for[0]
        key = rng.choice(adapter.legal(state, seat)).key
        if not shown:
            shown = live_views(state.version)
        if profile is not None:
            profile.enable()
        start = time.process_time()
        services.do_act(table, players[seat], key, state.version)
        # The broadcast's table message, made from the decision's rows, and its snapshot as
        # the other process has it: packed into the message here, unpacked
        # there, its state document parsed (here the state is kept: parsed apart).
        offer = caches.take_offer(table.pk)
        if offer is None:  # the decision ended the game: a finished game offers no snapshot
            if profile is not None:
                profile.disable()
            return None
        built = offer.snapshot.table
        realtime.message_of(table.pk, built.slug, built.version, built.host_id, offer.seats)
        snapshot = unpack_snapshot(pack_snapshot(offer.snapshot, offer.document))
        adapter.load(offer.document)
        version = Game.objects.filter(table=table).values_list("version", flat=True).get()
        views = live_views(version, snapshot, shown)  # with the partial frames from `shown`
        took = (time.process_time() - start) * 1000
        if profile is not None:
            profile.disable()
        shown = views
        return took

    for point in sorted(points):
        while played < point and play_one() is not None:
            played += 1
        game = Game.objects.get(table=table)
        state = adapter.load(game.state)
        names = {n: p.name for n, p in enumerate(players)}
        url = f"/t/{table.slug}/"
        row: dict = {"point": point, "played": played, "version": game.version}
        row["day"] = state.day if hasattr(state, "day") else None
        row["page_seat"], page = _time(partial(seat_client.get, url), repeat)
        assert page.status_code == 200, page.status_code
        row["page_bytes"] = len(page.content)
        row["page_spectator"], page = _time(partial(spectator_client.get, url), repeat)
        assert page.status_code == 200, page.status_code
        row["snapshot"], snapshot = _time(partial(load_snapshot, table.pk), repeat)
        row["live_seat"], html = _time(
            partial(render_table_live, snapshot, players[0].pk, "player"), repeat
        )
        row["live_bytes"] = len(html)
        row["board_seat"], board = _time(
            partial(adapter.render, state, 0, names, {0, 1, 2, 3}, table.slug), repeat
        )
        row["board_spectator"], _ = _time(
            partial(adapter.render, state, None, names, {0, 1, 2, 3}, table.slug), repeat
        )
        row["board_bytes"] = len(board)

        def cold(state: object = state, names: dict = names) -> object:
            board_parts.forget()  # nothing memoized: every part rendered
            return adapter.render(state, 0, names, {0, 1, 2, 3}, table.slug)

        row["board_cold"], _ = _time(cold, repeat)
        # What a decision really costs: the next state's five views (4 seats and spectators),
        # with the parts of the state before it memoized, as in a running server.
        row["decision_views"] = []
        for _ in range(repeat):
            following = play_one()
            if following is None:  # the game ended: time the last state below
                break
            state = following
            played += 1
            start = time.perf_counter()
            for viewer in (0, 1, 2, 3, None):
                adapter.render(state, viewer, names, {0, 1, 2, 3}, table.slug)
            row["decision_views"].append((time.perf_counter() - start) * 1000)
        # What a decision costs the server in all, as a running one does it: do_act (session-free:
        # the services' write, its transaction and Action row), the broadcast's table message,
        # its snapshot packed into it and unpacked by the other process, the five
        # views' live fragments and the partial frames sent to sockets already showing the
        # version before. CPU time of this process.
        row["decision_cpu"] = []
        for _ in range(repeat):
            cost = decision_cost()
            if cost is None:
                break
            played += 1
            row["decision_cpu"].append(cost)
        state = adapter.load(Game.objects.get(table=table).state)
        row["view_seat"], _ = _time(partial(engine.view, state, 0), repeat)
        row["load_state"], _ = _time(partial(adapter.load, game.state), repeat)
        row["state_bytes"] = len(game.state)
        results.append(row)
    return {"points": results, "repeat": repeat}


def main(argv: list[str] | None = None) -> None:
    import django

    parser = argparse.ArgumentParser()
    parser.add_argument("--points", default="0,150,300")
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default="", help="write cProfile stats of the decisions here")
    args = parser.parse_args(argv)
    django.setup()
    from .prepare import quiet

    quiet()  # nobody listens
    points = [int(p) for p in args.points.split(",") if p.strip()]
    profile = cProfile.Profile() if args.profile else None
    result = bench(points, args.repeat, args.seed, profile)
    if profile is not None:
        pstats.Stats(profile).dump_stats(args.profile)
    json.dump(result, sys.stdout)


def lines(result: dict) -> list[str]:
    from .stats import summary, verdict

    def ms(values: list[float]) -> str:
        s = summary(values)
        return f"p50 {s['p50']:.1f} / p99 {s['p99']:.1f}"

    out = [
        f"{result['repeat']} renders per figure, ms as p50 / p99; one 4-hero Gloom game, "
        "competitive, random legal decisions between points"
    ]
    for row in result["points"]:
        out.append(
            f"after {row['played']} decisions (version {row['version']}): "
            f"page as seat {ms(row['page_seat'])} ({row['page_bytes'] / 1024:.0f} KiB), "
            f"as spectator {ms(row['page_spectator'])}; "
            f"live fragment {ms(row['live_seat'])} ({row['live_bytes'] / 1024:.0f} KiB) "
            f"+ snapshot {ms(row['snapshot'])}; "
            f"board alone: seat {ms(row['board_seat'])}, spectator {ms(row['board_spectator'])} "
            f"({row['board_bytes'] / 1024:.0f} KiB), nothing memoized {ms(row['board_cold'])}; "
            f"the next decisions' 5 views together {ms(row['decision_views'] or [0.0])}; "
            f"a whole decision's server CPU (do_act, broadcast message, its snapshot packed and "
            f"unpacked, 5 live fragments, partial frames) {ms(row['decision_cpu'] or [0.0])}; "
            f"engine.view {ms(row['view_seat'])}; "
            f"state load {ms(row['load_state'])} ({row['state_bytes'] / 1024:.0f} KiB JSON)"
        )
    worst = max(summary(r["page_seat"])["p50"] for r in result["points"])
    out.append(f"budget: page p50 <= 20 ms at every point: {verdict(worst, 20)} ({worst:.1f})")
    return out


if __name__ == "__main__":
    main()

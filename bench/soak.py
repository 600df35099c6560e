"""The soak: many bot-played tables watched for a long time while servers and Redis fail.

`manage.py soak` (see the command for its flags) runs, on loopback and by itself:
- a fresh database (PostgreSQL by default) and a Redis server of its own on a free port (so
  restarting it disturbs nobody else), and two daphne processes serving the real site;
- N public tables whose four seats are bots, each watched by V spectator sockets spread over the
  two processes; a finished game is followed by a rematch, and its watchers move to the new table;
- every `kill_every` minutes the second daphne is killed with SIGKILL and a new one started; at
  `redis_restart_at` minutes Redis is killed and started again on the same port;
- the RSS of each process sampled every `sample_seconds`.

At the end the bots are paused, and the run reports: decisions applied (sum of game versions
gained), lost updates (a watcher whose board is older than its table's game once everything has
settled; must be 0), errors (error frames, sockets closed by a server that was not killed, tables
a watcher could not reach; must be 0), the RSS samples and whether they are flat (last 10 minutes
within 5% of the 10 minutes before; runs shorter than 20 minutes cannot say), and the presence
rows left once every socket has closed (must be 0).

The database work runs in short subprocesses (`python -m bench.soak prepare|rematch|versions|
pause|presence`) with the servers' environment, as `bench.prepare` does for the load test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import websockets

from . import servers
from .clients import board_version, open_socket


@dataclass
class SoakOptions:
    tables: int = 50
    viewers: int = 5
    minutes: float = 60.0
    kill_every: float = 10.0  # minutes; 0: never
    redis_restart_at: float | None = None  # minutes; None: halfway
    sample_seconds: float = 60.0
    bot_delay_ms: int = 2000
    postgres: str | None = servers.DEFAULT_POSTGRES
    rematch_seconds: float = 10.0
    presence_wait: float = 90.0
    seed: int = 1


class RedisServer:
    """A Redis of the soak's own on a free port; `restart` keeps the port."""

    def __init__(self, log: Path | None = None) -> None:
        self.port = servers.free_port()
        self.log = log
        self.process: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        if self.log is not None:
            command += ["--logfile", str(self.log)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self) -> None:
        self.stop()
        self.start()


@dataclass
class Totals:
    frames: int = 0
    errors: Counter = field(default_factory=Counter)
    reconnects_after_kill: int = 0
    moves: int = 0  # watchers moved to a rematch


class Watcher:
    """One spectator socket that follows its table (and its rematches) and reconnects."""

    def __init__(self, run: SoakRun, table: dict) -> None:
        self.run = run
        self.table = table  # shared per table: {"id", "slug"}
        self.seen: dict[int, int] = {}  # table id -> newest game version received
        self.ws = None
        self.address: str | None = None
        self.moving = False

    async def follow(self) -> None:
        totals = self.run.totals
        failures_since = None
        while not self.run.closing.is_set():
            address = self.run.pick_address()
            table_id = self.table["id"]
            try:
                self.ws = await open_socket(address, f"/ws/t/{self.table['slug']}/", None)
            except (OSError, TimeoutError, websockets.WebSocketException):
                failures_since = failures_since or time.monotonic()
                if time.monotonic() - failures_since > 60:
                    totals.errors["no server reachable for 60 s"] += 1
                    failures_since = None
                await asyncio.sleep(0.5)
                continue
            failures_since = None
            self.address = address
            try:
                async for frame in self.ws:
                    totals.frames += 1
                    if 'data-error="' in frame:
                        totals.errors["error frame"] += 1
                    version = board_version(frame)
                    if version is not None and version > self.seen.get(table_id, -1):
                        self.seen[table_id] = version
            except websockets.ConnectionClosed:
                pass
            if self.run.closing.is_set():
                return
            if self.moving:
                self.moving = False
                totals.moves += 1
            elif address in self.run.killed:
                totals.reconnects_after_kill += 1
            else:
                code = self.ws.close_code if self.ws is not None else None
                totals.errors[f"closed by a live server (code {code})"] += 1
                await asyncio.sleep(0.5)

    async def move(self) -> None:
        """The table changed (a rematch): leave the old one; `follow` opens the new one."""
        if self.ws is not None:
            self.moving = True
            await self.ws.close()


class SoakRun:
    def __init__(self, options: SoakOptions) -> None:
        self.options = options
        self.totals = Totals()
        self.closing = asyncio.Event()
        self.daphnes: list[servers.Daphne] = []
        self.killed: set[str] = set()
        self.rng = random.Random(options.seed)
        self.rss: list[list[tuple[float, int]]] = [[], []]  # per slot: (minute, KiB)
        self.events: list[str] = []

    def pick_address(self) -> str:
        return self.rng.choice([d.address for d in self.daphnes])

    def db(self, command: str, *args: str) -> dict:
        return self.backend.run_json("bench.soak", command, *args, timeout=300)

    async def run(self) -> dict:
        o = self.options
        logs = Path(tempfile.mkdtemp(prefix="kilforth-soak-"))
        self.redis = RedisServer(logs / "redis.log")
        self.backend = servers.Backend(postgres=o.postgres, redis=self.redis.url)
        started = time.monotonic()
        try:
            self.backend.migrate()
            made = self.db("prepare", "--tables", str(o.tables), "--delay-ms", str(o.bot_delay_ms))
            self.tables = made["tables"]
            first = await asyncio.to_thread(self._versions)
            self.first_version = {t: v["version"] for t, v in first.items()}
            self.daphnes = [
                servers.Daphne(servers.PLAIN_APP, self.backend.env, logs / f"daphne-{i}.log")
                for i in range(2)
            ]
            self.watchers = [Watcher(self, t) for t in self.tables for _ in range(o.viewers)]
            tasks = [asyncio.ensure_future(w.follow()) for w in self.watchers]
            await self._drive(started)
            await asyncio.to_thread(self.db, "pause")
            await asyncio.sleep(2 * o.bot_delay_ms / 1000 + 3)
            lost, final = await self._lost_updates()
            self.closing.set()
            for watcher in self.watchers:
                if watcher.ws is not None:
                    await watcher.ws.close()
            await asyncio.gather(*tasks, return_exceptions=True)
            presence = await self._presence_left()
        finally:
            for daphne in self.daphnes:
                daphne.stop()
            self.redis.stop()
            self.backend.close()
        applied = sum(v["version"] - self.first_version.get(t, 0) for t, v in final.items())
        return {
            "options": o.__dict__,
            "seconds": round(time.monotonic() - started, 1),
            "decisions": applied,
            "games_finished": sum(1 for v in final.values() if v["status"] == "finished"),
            "lost": lost,
            "errors": dict(self.totals.errors),
            "error_count": sum(self.totals.errors.values()),
            "frames": self.totals.frames,
            "reconnects_after_kill": self.totals.reconnects_after_kill,
            "moves_to_rematch": self.totals.moves,
            "kills": sum(1 for e in self.events if e.startswith("killed")),
            "redis_restarts": sum(1 for e in self.events if e.startswith("redis")),
            "events": self.events,
            "rss_kib": self.rss,
            "rss_flat": rss_flat(self.rss[0]),
            "presence_left": presence,
        }

    async def _drive(self, started: float) -> None:
        o = self.options
        end = started + o.minutes * 60
        next_kill = started + o.kill_every * 60 if o.kill_every > 0 else float("inf")
        restart_at = o.redis_restart_at if o.redis_restart_at is not None else o.minutes / 2
        next_redis = started + restart_at * 60
        next_sample = time.monotonic()
        next_rematch = time.monotonic() + o.rematch_seconds
        while (now := time.monotonic()) < end:
            minute = round((now - started) / 60, 2)
            if now >= next_sample:
                for slot, daphne in enumerate(self.daphnes):
                    self.rss[slot].append((minute, daphne.rss_kb()))
                next_sample += o.sample_seconds
            if now >= next_kill:
                victim = self.daphnes[1]
                self.killed.add(victim.address)
                victim.process.kill()
                victim.stop()
                self.daphnes[1] = await asyncio.to_thread(
                    servers.Daphne,
                    servers.PLAIN_APP,
                    self.backend.env,
                    victim.log.with_name(f"daphne-1-{len(self.killed)}.log"),
                )
                self.events.append(f"killed daphne 2 at minute {minute}")
                next_kill += o.kill_every * 60
            if now >= next_redis:
                await asyncio.to_thread(self.redis.restart)
                self.events.append(f"redis restarted at minute {minute}")
                next_redis = float("inf")
            if now >= next_rematch:
                try:
                    await self._rematches()
                except subprocess.CalledProcessError as exc:
                    # The run goes on and reports it: a soak ends with figures, not a traceback.
                    self.totals.errors[f"database query failed ({exc.returncode})"] += 1
                next_rematch = time.monotonic() + o.rematch_seconds
            await asyncio.sleep(0.25)

    def _versions(self) -> dict[int, dict]:
        ids = [str(t["id"]) for t in self.tables]
        return {int(k): v for k, v in self.db("versions", *ids)["tables"].items()}

    async def _rematches(self) -> None:
        versions = await asyncio.to_thread(self._versions)
        done = [str(t) for t, v in versions.items() if v["status"] == "finished"]
        if not done:
            return
        self.finished_versions = getattr(self, "finished_versions", {})
        for t in done:
            self.finished_versions[int(t)] = versions[int(t)]
        moved = (await asyncio.to_thread(self.db, "rematch", *done))["tables"]
        for table in self.tables:
            new = moved.get(str(table["id"]))
            if new is None:
                continue
            table.update(new)
            self.first_version[new["id"]] = new["version"]
            for watcher in self.watchers:
                if watcher.table is table:
                    await watcher.move()

    async def _lost_updates(self) -> tuple[int, dict[int, dict]]:
        """Watchers still behind their table's game after everything settled (30 s at most)."""
        deadline = time.monotonic() + 30
        while True:
            versions = await asyncio.to_thread(self._versions)
            behind = [
                w
                for w in self.watchers
                if w.seen.get(w.table["id"], -1) < versions[w.table["id"]]["version"]
            ]
            if not behind or time.monotonic() > deadline:
                break
            await asyncio.sleep(1)
        final = dict(getattr(self, "finished_versions", {}))
        final.update(versions)
        return len(behind), final

    async def _presence_left(self) -> int:
        deadline = time.monotonic() + self.options.presence_wait
        while True:
            left = (await asyncio.to_thread(self.db, "presence"))["rows"]
            if left == 0 or time.monotonic() > deadline:
                return left
            await asyncio.sleep(1)


def rss_flat(samples: list[tuple[float, int]]) -> str:
    """Is the last 10 minutes' RSS within 5% of the 10 minutes before? ("n/a" when too short)."""
    if not samples or samples[-1][0] < 20:
        return "n/a (needs 20 minutes)"
    end = samples[-1][0]
    last = [kb for minute, kb in samples if minute > end - 10]
    before = [kb for minute, kb in samples if end - 20 < minute <= end - 10]
    a, b = statistics.mean(last), statistics.mean(before)
    change = (a - b) / b * 100
    return f"{'flat' if abs(change) <= 5 else 'NOT flat'} ({change:+.1f}%)"


def lines(report: dict) -> list[str]:
    o = report["options"]
    out = [
        f"soak: {o['tables']} tables x {o['viewers']} watchers, {o['minutes']} min "
        f"({report['seconds']} s), 2 daphne + Redis + "
        f"{'PostgreSQL' if o['postgres'] else 'SQLite'}",
        f"decisions applied: {report['decisions']} "
        f"({report['games_finished']} games finished, {report['moves_to_rematch']} moves)",
        f"lost updates: {report['lost']} (must be 0)",
        f"errors: {report['error_count']} (must be 0) {report['errors'] or ''}".rstrip(),
        f"kills: {report['kills']}, reconnects after a kill: {report['reconnects_after_kill']}, "
        f"redis restarts: {report['redis_restarts']}",
        f"presence rows left: {report['presence_left']} (must be 0)",
        f"RSS flat: {report['rss_flat']}",
    ]
    for slot, samples in enumerate(report["rss_kib"]):
        figures = ", ".join(f"{m:g}: {kb / 1024:.0f}" for m, kb in samples)
        out.append(f"RSS daphne {slot + 1} (minute: MiB): {figures}")
    out += [f"event: {e}" for e in report["events"]]
    return out


def run(options: SoakOptions) -> dict:
    return asyncio.run(SoakRun(options).run())


# The database side, run as `python -m bench.soak COMMAND` with the servers' environment.


def _prepare(tables: int, delay_ms: int) -> dict:
    from games.tables import services
    from games.tables.models import Player, Table

    out = []
    for n in range(tables):
        host = Player.objects.create(name=f"Soak host {n}")
        table = services.do_create_table(
            host,
            {
                "name": f"Soak table {n}",
                "options": {
                    "edition": "shadows" if n % 2 else "gloom",
                    "mode": "competitive",
                },
                "seat_count": 4,
                "visibility": "public",
            },
        )
        Table.objects.filter(pk=table.pk).update(bot_delay_ms=delay_ms)
        for number in range(4):
            services.do_seat_bot(table, host, number, "random" if n % 3 else "heuristic")
        services.do_start_game(table, host)
        out.append({"id": table.pk, "slug": table.slug})
    return {"tables": out}


def _versions(ids: list[int]) -> dict:
    from games.tables.models import Game, Table

    status = dict(Table.objects.filter(pk__in=ids).values_list("pk", "status"))
    versions = dict(Game.objects.filter(table_id__in=ids).values_list("table_id", "version"))
    return {"tables": {t: {"status": status[t], "version": versions.get(t, 0)} for t in ids}}


def _rematch(ids: list[int]) -> dict:
    from games.tables import services
    from games.tables.models import Game, Table

    moved = {}
    for table in Table.objects.filter(pk__in=ids).select_related("host"):
        new = services.do_rematch(table, table.host)
        services.do_start_game(new, table.host)
        version = Game.objects.filter(table=new).values_list("version", flat=True).first()
        moved[table.pk] = {"id": new.pk, "slug": new.slug, "version": version or 0}
    return {"tables": moved}


def _pause() -> dict:
    from games.tables.models import Table

    # The drivers plan each move with the table's delay: an hour holds every bot still.
    return {"paused": Table.objects.update(bot_delay_ms=3_600_000)}


def _presence() -> dict:
    from games.tables.models import Connection

    return {"rows": Connection.objects.count()}


COMMANDS = {
    "prepare": lambda args: _prepare(args.tables, args.delay_ms),
    "versions": lambda args: _versions(args.ids),
    "rematch": lambda args: _rematch(args.ids),
    "pause": lambda args: _pause(),
    "presence": lambda args: _presence(),
}


def main(argv: list[str] | None = None) -> None:
    import django

    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=sorted(COMMANDS))
    parser.add_argument("ids", nargs="*", type=int)
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument("--delay-ms", type=int, default=2000)
    args = parser.parse_args(argv)
    django.setup()
    result = COMMANDS[args.command](args)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()

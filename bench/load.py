"""`manage.py loadtest`: real daphne processes, real websocket clients, real games.

One run: prepare N tables with started 4-hero games (bench/prepare.py) in a fresh database, start
P daphne processes serving the site (bench/asgi.py: the site plus counters), open 4 player sockets
(each with its own session) and S spectator sockets per table, spread over the processes, measure
server memory per idle socket, then drive `rate` decisions per table per second for `seconds`:
the player the game waits on sends one of its legal keys (parsed from its own board), and every
viewer's receipt of a board with a newer data-version is timed from the moment of sending. Then
the same topology and rate against the floor (bench/floor.py). Everything runs on 127.0.0.1 and
stops by itself.
"""

from __future__ import annotations

import asyncio
import json
import math
import platform
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import websockets
from tqdm import tqdm

from . import necessary, servers, timeline
from .clients import TableClient, Totals, address_of, open_socket
from .floor import run_floor
from .stats import collector_paused, fmt_ms, summary, verdict

# Issue 14's budget for a decision's server CPU (4 seats and a few spectators), in ms.
CPU_BUDGET_MS = 4.0


@dataclass
class Options:
    tables: int = 10
    spectators: int = 1
    processes: int = 1
    rate: float = 1.0
    seconds: float = 20.0
    redis: bool = False
    redis_db: int = 9
    postgres: bool = False
    floor: bool = True
    floor_seconds: float | None = None
    visibility: str = "public"
    connect_concurrency: int = 50
    quiet_seconds: float = 1.0
    settle_limit: float = 300.0
    seed: int = 1
    anonymous_spectators: bool = False
    progress: bool = True
    instrumented: bool = True
    timeline: bool = False  # record each decision's steps (bench/timeline.py)
    # How sockets are spread over the processes (`address_of`): "spread", each table's viewers
    # in turn; "table", every socket of a table on one process (a balancer hashing the table).
    route: str = "spread"


def _processes(
    backend: servers.Backend, app: str, count: int, logs: Path, name: str = "daphne"
) -> list:
    return [servers.Daphne(app, backend.env, logs / f"{name}-{i}.log") for i in range(count)]


async def _connect(
    tables: list[TableClient],
    addresses: list[str],
    totals: Totals,
    closing: asyncio.Event,
    options: Options,
    first: Callable[[], Awaitable[None]] | None = None,
) -> tuple[list[asyncio.Task], float]:
    """Open every table's sockets: first one player's of each table (then `first()` is awaited:
    each table's own memory is read there), then the other players', then the spectators'."""
    gate = asyncio.Semaphore(options.connect_concurrency)
    readers: list[asyncio.Task] = []
    total = sum(len(t.viewers) for t in tables)
    bar = tqdm(total=total, desc="sockets", disable=not options.progress)
    started = time.perf_counter()

    async def one(table_number: int, table: TableClient, viewer: object) -> None:
        address = address_of(addresses, table_number, viewer.index, options.route)
        async with gate:
            try:
                viewer.ws = await open_socket(address, table.path, viewer.session)
            except (OSError, TimeoutError, websockets.WebSocketException) as exc:
                totals.errors[f"connect: {type(exc).__name__}"] += 1
                bar.update()
                return
        readers.append(asyncio.ensure_future(viewer.read(totals, closing)))
        bar.update()

    # One player of each table, the rest of its players, then the spectators, as people arrive.
    await asyncio.gather(*(one(n, t, t.viewers[0]) for n, t in enumerate(tables) if t.viewers))
    if first is not None:
        await first()
    await asyncio.gather(
        *(one(n, t, v) for n, t in enumerate(tables) for v in t.viewers[1:] if v.seat is not None)
    )
    await asyncio.gather(
        *(one(n, t, v) for n, t in enumerate(tables) for v in t.viewers if v.seat is None)
    )
    bar.close()
    return readers, time.perf_counter() - started


async def _shown(viewers: list, limit: float) -> None:
    """Wait until every viewer whose socket opened has had its first board (at most `limit`
    seconds): a server may take longer to start rendering than `_settle`'s quiet spell."""
    until = time.perf_counter() + limit
    while time.perf_counter() < until:
        if all(v.ws is None or v.version >= 0 for v in viewers):
            return
        await asyncio.sleep(0.05)


async def _settle(totals: Totals, processes: list, quiet: float, limit: float) -> float:
    """Wait until the connections' aftermath is over: no frame for `quiet` seconds and, with the
    counters, no broadcast, render or send on the servers either (presence broadcasts queue up
    behind each other long after the last socket is open)."""
    started = time.perf_counter()
    last_change = started
    previous = None
    while time.perf_counter() - started < limit:
        await asyncio.sleep(0.25)
        now = time.perf_counter()
        if processes:
            try:
                stats = await asyncio.to_thread(lambda: [p.stats() for p in processes])
                work = tuple(
                    one["counters"][name]["count"]
                    for one in stats
                    for name in ("broadcast_table", "table_update", "frames_sent")
                )
            except OSError:
                work = None
            if work != previous:
                previous, last_change = work, now
        if now - max(totals.last_frame_at, last_change) >= quiet:
            break
    return time.perf_counter() - started


async def _drive(tables: list[TableClient], totals: Totals, options: Options) -> None:
    rng = random.Random(options.seed)
    loop = asyncio.get_running_loop()
    end = loop.time() + options.seconds
    period = 1 / options.rate

    async def table_loop(table: TableClient) -> None:
        await asyncio.sleep(rng.random() * period)
        tick = loop.time()
        while loop.time() < end:
            await table.decide(rng, totals)
            tick += period
            await asyncio.sleep(max(0.0, tick - loop.time()))

    bar = tqdm(total=int(options.seconds), desc="decisions: seconds", disable=not options.progress)

    async def tick_bar() -> None:
        while loop.time() < end:
            await asyncio.sleep(1)
            bar.update()
            bar.set_postfix(sent=totals.submitted, frames=totals.frames)

    await asyncio.gather(tick_bar(), *(table_loop(t) for t in tables))
    bar.close()
    # Drain: the last decisions may still be on their way.
    deadline = loop.time() + 10
    while any(t.pending for t in tables) and loop.time() < deadline:  # noqa: ASYNC110 - bounded poll
        await asyncio.sleep(0.05)
    totals.lost = sum(len(p.waiting) for t in tables for p in t.pending.values())


def _rss(processes: list, trimmed: bool = False) -> int:
    """The processes' RSS in KiB; `trimmed`: read after each has handed its allocator's free
    pages back (`counters.trim`; a server without the route is read as it is)."""
    if trimmed:
        for p in processes:
            try:
                p.get("/__bench__/trim")
            except OSError:
                pass
    return sum(p.rss_kb() for p in processes)


def _cpu(processes: list) -> float:
    return sum(p.cpu_seconds() for p in processes)


def cpu_breakdown(server: dict[str, dict[str, float]], cpu_ms: float, accepted: int) -> str:
    """Where a decision's server CPU went, by the CPU clocks of the threads that did it (the
    counters of bench/asgi.py): the decision's own thread (its reads, the rules, its writes and
    commit, the broadcast's message), the board renders (`render_table_live`), and the rest:
    the sockets' frames in and out, the channel layer, the frames' diffs and everything else of
    the servers' processes. The garbage collector runs in whichever thread allocates when a
    pass is due, so its time is inside the three; it is told apart, not taken from them."""
    decision = server["decision"]["cpu"] * 1000 / accepted
    broadcast = server["broadcast_table"]["cpu"] * 1000 / accepted
    renders = server["render_table_live"]["cpu"] * 1000 / accepted
    collector = server["gc"]["total"] * 1000 / accepted if "gc" in server else 0.0
    rest = cpu_ms - decision - renders
    threads = server["decision"]["count"] / accepted
    return (
        f"of which, by the CPU clocks of the threads that did it: the decision's thread "
        f"{decision:.2f} ms (its reads, the rules, its writes and commit; of it the broadcast "
        f"{broadcast:.2f} ms; {threads:.2f} per decision), the board renders {renders:.2f} ms, "
        f"the rest {rest:.2f} ms (the sockets' frames in and out, the channel layer, the frames' "
        f"diffs); garbage collection, within those, {collector:.2f} ms"
    )


def _sum_counters(stats: list[dict]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for one in stats:
        for name, entry in one["counters"].items():
            slot = out.setdefault(name, {"count": 0, "total": 0.0, "cpu": 0.0})
            slot["count"] += entry["count"]
            slot["total"] += entry["total"]
            slot["cpu"] += entry.get("cpu", 0.0)
    return out


async def _our_run(
    options: Options, backend: servers.Backend, plan: dict, logs: Path
) -> tuple[dict, list]:
    app = servers.SITE_APP if options.instrumented else servers.PLAIN_APP
    processes = _processes(backend, app, options.processes, logs)
    try:
        tables = [
            TableClient(
                t["slug"],
                t["players"],
                [None] * options.spectators if options.anonymous_spectators else t["spectators"],
            )
            for t in plan["tables"]
        ]
        for process in processes:
            # Warm up: templates, the board's content, a first database connection.
            process.get("/")
            try:
                process.get(f"/t/{tables[0].slug}/")
            except OSError:
                pass  # an unlisted table is not found without its link; the lobby warmed up
        # Every read of the servers' memory is trimmed (`_rss`): what they hold, not the
        # allocator's high-water mark of the boards sent while the sockets joined.
        rss_before = _rss(processes, trimmed=True)
        totals = Totals()
        closing = asyncio.Event()
        rss_first: list[int] = []

        async def first() -> None:
            # Each table's first socket brings the table's own memory (its state, its boards'
            # parts, the first view): read once each has its board and the servers settle,
            # apart from the sockets after.
            await _shown([t.viewers[0] for t in tables if t.viewers], options.settle_limit)
            await _settle(
                totals,
                processes if options.instrumented else [],
                options.quiet_seconds,
                options.settle_limit,
            )
            rss_first.append(_rss(processes, trimmed=True))

        readers, connect_s = await _connect(
            tables, [p.address for p in processes], totals, closing, options, first
        )
        await _shown([v for t in tables for v in t.viewers], options.settle_limit)
        settle_s = await _settle(
            totals,
            processes if options.instrumented else [],
            options.quiet_seconds,
            options.settle_limit,
        )
        sockets = sum(1 for t in tables for v in t.viewers if v.ws is not None)
        rss_after = _rss(processes, trimmed=True)
        connect_frames, connect_bytes = totals.frames, totals.bytes
        connect_errors = dict(totals.errors)
        if totals.closed:
            connect_errors["closed"] = totals.closed
        cache = {"entries": 0, "bytes": 0, "snapshots": 0}
        if options.instrumented:
            raw = [p.stats() for p in processes]
            connect_stats = _sum_counters(raw)
            for one in raw:
                cache["entries"] += one["fragment_cache"]["entries"]
                cache["bytes"] += one["fragment_cache"]["bytes"]
                cache["snapshots"] += one["snapshots"]
            for p in processes:
                p.get("/__bench__/reset")
        totals.frames = totals.bytes = 0
        totals.errors.clear()
        if options.timeline:
            for p in processes:
                p.get("/__bench__/timeline/start")
        cpu_before = _cpu(processes)
        with collector_paused():
            await _drive(tables, totals, options)
        # Every decision's server work is done once its last viewer has it (the drive waits
        # for that); a stats request costs next to nothing, so it is read after.
        cpu_seconds = _cpu(processes) - cpu_before
        server = _sum_counters([p.stats() for p in processes]) if options.instrumented else {}
        steps = None
        if options.timeline:
            events = [tuple(e) for p in processes for e in json.loads(p.get("/__bench__/timeline"))]
            steps = timeline.decision_steps(events)
        closing.set()
        result = {
            "sockets": sockets,
            "connect_seconds": connect_s,
            "settle_seconds": settle_s,
            "connect_frames": connect_frames,
            "connect_mb": connect_bytes / 1e6,
            "connect_errors": connect_errors,
            "connect_server": connect_stats if options.instrumented else {},
            "rss_before_kb": rss_before,
            "rss_after_kb": rss_after,
            "kb_per_socket": (rss_after - rss_before) / max(1, sockets),
            # Past each table's first socket: what one more socket at a table costs, and what
            # the first one cost beyond that (the table's own: one snapshot per table).
            "kb_per_more_socket": (rss_after - rss_first[0]) / max(1, sockets - len(tables)),
            "kb_per_table": (rss_first[0] - rss_before) / max(1, len(tables))
            - (rss_after - rss_first[0]) / max(1, sockets - len(tables)),
            "cache": cache,
            "cpu_seconds": cpu_seconds,
            "totals": totals,
            "server": server,
            "timeline": steps,
            "mean_frame_bytes": (
                totals.bytes / totals.frames
                if totals.frames
                else connect_bytes / connect_frames
                if connect_frames
                else 0
            ),
        }
        return result, readers
    finally:
        for process in processes:
            process.stop()


async def run(options: Options) -> dict:
    backend = servers.Backend(
        postgres=servers.DEFAULT_POSTGRES if options.postgres else None,
        redis=f"{servers.DEFAULT_REDIS}/{options.redis_db}" if options.redis else None,
    )
    logs = Path(tempfile.mkdtemp(prefix="kilforth-bench-logs-"))
    report: dict = {"options": options, "backend": backend.describe(), "logs": str(logs)}
    try:
        started = time.perf_counter()
        backend.migrate()
        plan = backend.run_json(
            "bench.prepare",
            "--tables",
            str(options.tables),
            "--spectators",
            "0" if options.anonymous_spectators else str(options.spectators),
            "--visibility",
            options.visibility,
            "--seed",
            str(options.seed),
        )
        report["prepare_seconds"] = time.perf_counter() - started
        ours, readers = await _our_run(options, backend, plan, logs)
        for reader in readers:
            reader.cancel()
        report["ours"] = ours
        if options.floor:
            floor_procs = _processes(
                backend, "bench.floor:application", options.processes, logs, "floor"
            )
            try:
                before = _rss(floor_procs, trimmed=True)
                memory: dict[str, float] = {}
                per_group = 4 + options.spectators
                floor = await run_floor(
                    [p.address for p in floor_procs],
                    options.tables,
                    per_group,
                    options.rate,
                    options.floor_seconds or options.seconds,
                    int(ours["mean_frame_bytes"]) or 1000,
                    progress=options.progress,
                    seed=options.seed,
                    route=options.route,
                    connected=lambda: memory.update(
                        after=_rss(floor_procs, trimmed=True), cpu=_cpu(floor_procs)
                    ),
                    first_connected=lambda: memory.update(first=_rss(floor_procs, trimmed=True)),
                )
                floor["cpu_seconds"] = _cpu(floor_procs) - memory["cpu"]
                floor["kb_per_socket"] = (memory["after"] - before) / (options.tables * per_group)
                floor["kb_per_more_socket"] = (memory["after"] - memory["first"]) / max(
                    1, options.tables * (per_group - 1)
                )
                report["floor"] = floor
            finally:
                for process in floor_procs:
                    process.stop()
            # Beside the floor, with every server stopped: the rules, the pictures and the
            # write alone.
            report["necessary"] = necessary.measure(
                seed=options.seed, database_url=backend.env["DATABASE_URL"]
            )
    finally:
        backend.close()
    return report


def lines(report: dict) -> list[str]:
    """The report as printed and pasted into docs/benchmarks.md."""
    o: Options = report["options"]
    ours = report["ours"]
    t: Totals = ours["totals"]
    out = [
        f"machine: {platform.machine()}, {_cores()} cores (shared with this load generator), "
        f"Python {platform.python_version()}",
        f"server logs: {report['logs']}",
        f"setup: {o.tables} tables x (4 players + {o.spectators} spectators) = "
        f"{ours['sockets']} sockets on {o.processes} daphne process(es)"
        f"{' (each table on one)' if o.route == 'table' and o.processes > 1 else ''}, "
        f"{report['backend']}, "
        f"{o.visibility} tables, "
        f"{'anonymous (no session) ' if o.anonymous_spectators else 'own-session '}spectators; "
        f"{o.rate:g} decision/table/s for {o.seconds:g} s",
        f"connect: {ours['sockets']} sockets in {ours['connect_seconds']:.1f} s, settled after "
        f"{ours['settle_seconds']:.1f} s more (servers idle); "
        f"{_count(ours['connect_server'], 'broadcast_table')} broadcasts, "
        f"{_count(ours['connect_server'], 'table_update')} table.update messages handled, "
        f"{_count(ours['connect_server'], 'render_table_live')} renders; "
        f"{ours['connect_frames']} frames "
        f"({ours['connect_mb']:.1f} MB) while connecting, errors: {ours['connect_errors'] or 0}",
        f"memory (read with the allocator's free pages handed back): RSS "
        f"{ours['rss_before_kb'] / 1024:.1f} -> {ours['rss_after_kb'] / 1024:.1f} MiB"
        f" = {ours['kb_per_socket']:.1f} KB per idle socket: {ours['kb_per_more_socket']:.1f} KB"
        f" each past a table's first, and {ours['kb_per_table']:.1f} KB per table (its state and"
        f" boards, once per table per process); the fragment caches then held "
        f"{ours['cache']['bytes'] / 2**20:.1f} MiB in {ours['cache']['entries']} entries, "
        f"{ours['cache']['snapshots']} snapshots",
        f"decisions: {t.submitted} sent, {t.refused} refused, {t.late_ticks} ticks skipped "
        f"(previous decision not yet shown to every seat), {t.idle_ticks} ticks with every seat "
        "up to date and nobody asked",
        f"delivery, every viewer: {fmt_ms(t.latencies)}",
        f"delivery, last viewer of each decision: {fmt_ms(t.last_viewer)}",
        f"errors: {sum(t.errors.values())} error frames {dict(t.errors) or ''}, "
        f"{t.closed} sockets closed, {t.lost} lost updates (viewer never got the version)",
        f"frames: {t.frames} received, mean {ours['mean_frame_bytes'] / 1024:.1f} KiB",
    ]
    server = ours["server"]
    accepted = max(1, t.submitted - t.refused)
    if server:
        renders = server["render_table_live"]
        snaps = server["load_snapshot"]
        unpacked = server.get("unpack_snapshot", {"count": 0, "total": 0.0})
        lobby = server["render_lobby_list"]
        casts = server["broadcast_table"]
        out.append(
            f"server work per accepted decision: {renders['count'] / accepted:.2f} board renders "
            f"({_ms(renders)} each), {snaps['count'] / accepted:.2f} snapshot loads "
            f"({_ms(snaps)} each), {unpacked['count'] / accepted:.2f} snapshots unpacked from "
            f"messages ({_ms(unpacked)} each), {lobby['count'] / accepted:.2f} lobby renders "
            f"({_ms(lobby)} each), broadcast_table {_ms(casts)} each (lobby included), "
            f"{server['frames_sent']['count'] / accepted:.1f} frames sent, "
            f"{server['table_update']['count'] / accepted:.1f} table.update messages handled"
        )
        if "gc" in server:
            collected, full = server["gc"], server["gc_full"]
            gc_ms = collected["total"] * 1000 / accepted
            passes = collected["count"] / accepted
            out.append(
                f"garbage collection per accepted decision: {gc_ms:.2f} ms in {passes:.1f} "
                f"passes ({full['count']} full passes, {_ms(full)} each)"
            )
    if ours.get("timeline"):
        out.extend(timeline.lines(*ours["timeline"]))
    summary_ours = summary(t.latencies)
    failed = t.errors or t.closed or t.lost or ours["connect_errors"]
    cpu_ms = ours["cpu_seconds"] * 1000 / accepted
    out.append(
        f"server CPU per accepted decision: {cpu_ms:.1f} ms (user + system of every server "
        f"process over the decisions, / {accepted} decisions)"
    )
    if server and "decision" in server:
        out.append(cpu_breakdown(server, cpu_ms, accepted))
    # The CPU target is for a table of 4 seats and a few spectators; a crowd's sends are the
    # floor's own work, so there the ratio to the floor's CPU tells (below).
    budgets = (
        [f"server CPU per decision <= {CPU_BUDGET_MS:g} ms: {verdict(cpu_ms, CPU_BUDGET_MS)}"]
        if o.spectators <= 10
        else []
    )
    if "floor" in report:
        f = report["floor"]
        s = summary(f["latencies"])
        last_ours, last_floor = summary(t.last_viewer), summary(f["last"])
        floor_cpu = f["cpu_seconds"] * 1000 / max(1, f["sent"])
        out.append(
            f"floor (bare Channels consumer, same sockets, same layer, "
            f"{int(ours['mean_frame_bytes'])}-byte frames): {fmt_ms(f['latencies'])}; "
            f"last viewer p99 {last_floor['p99']:.1f} ms; {f['lost']} lost, {f['closed']} closed; "
            f"{f['kb_per_socket']:.1f} KB per idle socket ({f['kb_per_more_socket']:.1f} KB each "
            f"past a group's first); server CPU {floor_cpu:.2f} ms per frame "
            f"fanned out"
        )
        p50, p99 = summary_ours["p50"] / s["p50"], summary_ours["p99"] / s["p99"]
        last = last_ours["p99"] / last_floor["p99"] if last_floor["p99"] else math.nan
        out.append(
            f"ours / floor: p50 {_ratio(summary_ours['p50'], s['p50'])}, "
            f"p99 {_ratio(summary_ours['p99'], s['p99'])}, "
            f"last viewer p99 {_ratio(last_ours['p99'], last_floor['p99'])}, "
            f"CPU {_ratio(cpu_ms, floor_cpu)}"
        )
        if "necessary" in report:
            out.append(necessary.line(report["necessary"], floor_cpu, cpu_ms, CPU_BUDGET_MS))
        # The issue-14 targets, by the shape of the run.
        if o.tables >= 200:
            budgets.append(f"p99 <= 3x the floor: {_met(p99 <= 3)} ({p99:.1f}x)")
            budgets.append(
                f"every asked decision applied (0 ticks skipped): {_met(t.late_ticks == 0)}"
            )
        elif o.spectators >= 1000 or (o.anonymous_spectators and o.spectators >= 500):
            budgets.append(
                f"last spectator p99 <= 1.2x the floor: {_met(last <= 1.2)} ({last:.1f}x)"
            )
        else:
            budgets.append(f"p50 <= 2x the floor: {_met(p50 <= 2)} ({p50:.1f}x)")
            budgets.append(f"p99 <= 2x the floor: {_met(p99 <= 2)} ({p99:.1f}x)")
        # A socket's own memory: each past a table's first, against the floor's past a
        # group's first (the table's own memory, once per table per process, is printed
        # apart, above).
        extra = ours["kb_per_more_socket"] - f["kb_per_more_socket"]
        budgets.append(
            f"idle socket <= the floor + 10 KB: {_met(extra <= 10)} ({extra:+.1f} KB a socket "
            f"past a table's first; {ours['kb_per_socket'] - f['kb_per_socket']:+.1f} KB with "
            f"the tables' own {ours['kb_per_table']:.0f} KB each spread over their sockets; "
            f"read it from a run with many sockets)"
        )
    budgets.append(f"0 lost, 0 errors: {'MISSED' if failed else 'met'}")
    out.append("budgets: " + "; ".join(budgets))
    return out


def _met(ok: bool) -> str:
    return "met" if ok else "MISSED"


def _count(server: dict, name: str) -> str:
    return str(server[name]["count"]) if name in server else "?"


def _ms(entry: dict) -> str:
    if not entry["count"]:
        return "-"
    return f"{entry['total'] / entry['count'] * 1000:.1f} ms"


def _ratio(a: float, b: float) -> str:
    if math.isnan(a) or math.isnan(b) or b == 0:
        return "n/a"
    return f"{a / b:.1f}x"


def _cores() -> int:
    import os

    return os.cpu_count() or 0

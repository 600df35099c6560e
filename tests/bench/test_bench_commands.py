"""Each benchmark command runs on tiny parameters and prints its report lines.

These check that the commands work, never the figures: budgets are reported in
docs/benchmarks.md, not asserted by timed tests.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import stats, timeline
from bench.clients import address_of, board_version, my_keys
from tests.conftest import ROOT


def manage(*args: str, timeout: float = 120) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_percentiles_use_the_nearest_rank():
    values = list(range(1, 101))
    assert stats.percentile(values, 50) == 50
    assert stats.percentile(values, 99) == 99
    assert stats.summary(values)["max"] == 100
    assert stats.verdict(5, 10) == "met"
    assert stats.verdict(20, 10).startswith("MISSED (2.0x")


def test_the_client_reads_the_board_version_and_only_its_own_decision_keys():
    frame = (
        '<div id="table-live" data-version="9"><div id="game-board" class="kb" data-version="42">'
        '<section class="kb-decision is-mine"><form ws-send><input type="hidden" name="key" '
        'value="move:a&amp;b"></form></section></div></div>'
    )
    assert board_version(frame) == 42
    assert my_keys(frame) == ["move:a&b"]
    assert my_keys(frame.replace(" is-mine", "")) == []


def test_a_tick_while_the_seat_asked_next_is_still_behind_counts_as_skipped_not_idle():
    import asyncio
    import random

    from bench.clients import TableClient, Totals

    table = TableClient("slug", ["a", "b", "c", "d"], [None])
    for viewer in table.viewers:
        viewer.ws = object()  # open (nothing is sent: nobody is asked)
        viewer.version = 5
    table.viewers[1].version, table.viewers[1].keys = 4, ["move:old"]  # not shown 5 yet
    totals = Totals()
    asyncio.run(table.decide(random.Random(1), totals))
    assert (totals.late_ticks, totals.idle_ticks, totals.submitted) == (1, 0, 0)

    table.viewers[1].version, table.viewers[1].keys = 5, []  # every seat at 5: the game is over
    asyncio.run(table.decide(random.Random(1), totals))
    assert (totals.late_ticks, totals.idle_ticks, totals.submitted) == (1, 1, 0)


def test_a_decisions_timeline_gives_each_steps_median_start_and_length_after_its_message():
    a, b = 100, 200  # two processes; thread 1 is a's event loop, thread 2 its database thread

    def decision(t0: float, act_ms: float) -> list:
        return [
            (t0, a, 1, "message"),
            (t0 + 0.5, a, 2, "decision+"),
            (t0 + 1.0, a, 2, "SQL UPDATE tables_game+"),
            (t0 + 1.0 + act_ms, a, 2, "SQL UPDATE tables_game-"),
            (t0 + 4.0, a, 2, "decision-"),
            (t0 + 4.5, a, 1, "render+"),
            (t0 + 5.5, a, 1, "render-"),
            (t0 + 5.6, a, 1, "frame"),
            (t0 + 6.0, a, 1, "render+"),
            (t0 + 6.5, a, 1, "render-"),
            (t0 + 5.0, b, 1, "render+"),  # the other process's render: known by its frame
            (t0 + 7.0, b, 1, "render-"),
            (t0 + 7.2, b, 1, "frame"),
        ]

    events = decision(1000, 1.0) + decision(2000, 3.0) + decision(3000, 2.0)
    events += [(4000, a, 1, "message"), (4001, a, 1, "frame")]  # a resync: no decision
    count, steps = timeline.decision_steps(events)
    assert count == 3
    found = {
        s.label: (round(s.start_ms, 6), None if s.length_ms is None else round(s.length_ms, 6))
        for s in steps
    }
    assert found == {
        "decision": (0.5, 3.5),
        "SQL UPDATE tables_game": (1.0, 2.0),
        "render": (4.5, 1.0),
        "first viewer's frame sent": (5.6, None),
        "render (2)": (6.0, 0.5),
        "last viewer's frame sent": (7.2, None),
    }
    assert [s.label for s in steps][0] == "decision"  # in order of their start
    assert timeline.lines(count, steps)[0].startswith("a decision's timeline (medians over 3")


@pytest.mark.server
def test_loadtest_runs_a_tiny_load_and_its_floor_and_reports_every_figure():
    out = manage(*"loadtest --tables 1 --spectators 1 --seconds 2 --no-progress --timeline".split())
    for needle in [
        "delivery, every viewer: n=",
        "KB per idle socket",
        "each past a table's first, and ",
        "KB per table (its state and boards, once per table per process)",
        "each past a group's first",
        "a socket past a table's first",
        "board renders",
        "floor (bare Channels consumer",
        "ours / floor: p50",
        "necessary work per decision, measured in this run: the floor's fan-out",
        "server CPU per accepted decision: ",
        "of which, by the CPU clocks of the threads that did it: the decision's thread ",
        "server CPU per decision <= 4 ms",
        "p99 <= 2x the floor",
        "idle socket <= the floor + 10 KB",
        "a decision's timeline (medians over",
        "SQL SELECT django_session",  # a decision's session, read with the table's rows
        "SQL UPDATE tables_game",
        "last viewer's frame sent",
    ]:
        assert needle in out, out
    assert "0 lost updates" in out, out


def test_the_cpu_breakdown_splits_a_decision_by_the_threads_clocks_and_leaves_the_rest():
    from bench.load import cpu_breakdown

    server = {
        "decision": {"count": 10, "total": 0.09, "cpu": 0.04},
        "broadcast_table": {"count": 10, "total": 0.02, "cpu": 0.002},
        "render_table_live": {"count": 50, "total": 0.05, "cpu": 0.03},
        "gc": {"count": 3, "total": 0.001, "cpu": 0.0},
    }
    line = cpu_breakdown(server, cpu_ms=12.0, accepted=10)
    # 12 ms a decision: 4 in the decision's thread (0.2 of it the broadcast), 3 in the
    # renders, and the 5 left; the collector's 0.1 is inside those, not taken from them.
    assert "the decision's thread 4.00 ms" in line, line
    assert "the broadcast 0.20 ms" in line, line
    assert "the board renders 3.00 ms" in line, line
    assert "the rest 5.00 ms" in line, line
    assert "garbage collection, within those, 0.10 ms" in line, line


def test_a_counted_function_adds_its_threads_cpu_beside_its_wall_time():
    import time

    from bench import counters as bench_counters

    def spin() -> None:
        until = time.thread_time() + 0.02
        while time.thread_time() < until:
            pass
        time.sleep(0.03)  # wall time, not CPU

    wrapped = bench_counters.counted("test_spin", spin)
    wrapped()
    count, wall, cpu = bench_counters.COUNTERS["test_spin"]
    assert count == 1
    assert cpu >= 0.02
    assert wall >= cpu + 0.03
    del bench_counters.COUNTERS["test_spin"]


@pytest.mark.server
@pytest.mark.redis
def test_loadtest_runs_on_two_processes_sharing_redis(redis_url):
    out = manage(
        "loadtest",
        "--tables",
        "1",
        "--spectators",
        "1",
        "--seconds",
        "1",
        "--processes",
        "2",
        "--redis",
        "--no-floor",
        "--no-progress",
    )
    assert "on 2 daphne process(es)" in out and "Redis pub/sub layer" in out, out
    assert "0 lost updates" in out, out


def test_a_table_s_sockets_go_to_the_processes_in_turn_or_all_to_the_table_s_own():
    servers = ["a", "b"]
    spread = [
        address_of(servers, table, viewer, "spread") for table in (0, 1) for viewer in range(5)
    ]
    assert spread == ["a", "b", "a", "b", "a", "b", "a", "b", "a", "b"]
    by_table = [
        address_of(servers, table, viewer, "table") for table in (0, 1) for viewer in range(5)
    ]
    assert by_table == ["a"] * 5 + ["b"] * 5


@pytest.mark.server
@pytest.mark.redis
def test_loadtest_with_each_table_on_one_process_needs_no_snapshot_from_another(redis_url):
    out = manage(
        *"loadtest --tables 2 --spectators 1 --seconds 2 --processes 2 --redis".split(),
        *"--route table --no-floor --no-progress".split(),
    )
    assert "on 2 daphne process(es) (each table on one)" in out, out
    # Spread, the process that did not decide unpacks the decision's snapshot for its sockets.
    assert "0.00 snapshots unpacked from messages" in out, out
    assert "0 lost updates" in out, out


def test_bench_render_times_the_page_and_its_parts():
    out = manage("bench_render", "--points", "0,5", "--repeat", "2")
    assert "after 0 decisions" in out and "after 5 decisions" in out, out
    assert "budget: page p50 <= 20 ms" in out, out
    assert "a whole decision's server CPU" in out, out


@pytest.mark.server
def test_bench_browser_clicks_in_chromium_and_times_the_swap():
    chromium = os.environ.get("KILFORTH_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        from tests.conftest import service_missing

        service_missing(f"Chromium at {chromium}", "not installed")
    out = manage("bench_browser", "--clicks", "2")
    assert "click to #game-board with the new data-version in the DOM: n=2" in out, out
    assert "timeouts (no new board within 5 s): 0" in out, out
    # The clicking page's own work, read from its renderer's counters (numbers, not nan).
    work = re.search(r"own work .*: script p50 ([\d.]+) ms; style p50 ([\d.]+) ms; layout", out)
    assert work and float(work.group(1)) > 0, out


@pytest.mark.postgres
def test_the_postgres_switch_makes_and_drops_its_own_database(postgres_url):
    from bench.servers import Backend

    backend = Backend(postgres=postgres_url.rsplit("/", 1)[0])
    name = backend.pg_name
    try:
        assert backend.env["DATABASE_URL"].endswith(f"/{name}")
    finally:
        backend.close()
    import psycopg

    with psycopg.connect(postgres_url.rsplit("/", 1)[0] + "/postgres") as conn:
        assert (
            conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None
        )


def test_the_load_generator_holds_its_collector_off_while_it_measures_and_restores_it():
    import gc

    assert gc.isenabled()
    before = gc.get_freeze_count()
    with stats.collector_paused():
        assert not gc.isenabled()
        assert gc.get_freeze_count() > before  # what the setup made is left alone
    assert gc.isenabled()
    assert gc.get_freeze_count() == before


def test_the_necessary_work_times_the_rules_and_pictures_of_a_real_game_beside_the_budget():
    from bench import necessary

    timed = necessary.measure(decisions=3, warm=2, seed=1)
    assert timed["decisions"] == 3
    assert timed["rules_ms"] > 0 and timed["pictures_ms"] > 0
    assert timed["write_ms"] is None and timed["database"] is None
    figures: necessary.Necessary = {
        "decisions": 3,
        "rules_ms": 0.5,
        "pictures_ms": 0.75,
        "write_ms": None,
        "database": None,
    }
    under = necessary.line(figures, floor_cpu_ms=1.25, ours_cpu_ms=10.0, budget_ms=4)
    assert "1.25 + the rules 0.50" in under and "JSON 0.75 = 2.50 ms" in under
    assert "the 4 ms budget leaves 1.50 ms for the decision's message" in under
    assert under.endswith("ours is 4.0x that")
    wrote = necessary.line(
        {**figures, "write_ms": 0.5, "database": "SQLite"}, 3.0, 10.0, budget_ms=4
    )
    assert "JSON 0.75 + the write 0.50 (the document and the decision's row, one " in wrote
    assert "on SQLite) = 4.75 ms (above the 4 ms budget on this machine, before" in wrote


def test_the_necessary_write_saves_the_document_at_its_version_and_leaves_nothing(tmp_path):
    import sqlite3

    from bench import necessary

    url = f"sqlite:///{tmp_path / 'run.sqlite3'}"
    with necessary._writer(url) as (database, write):
        assert database == "SQLite" and write is not None
        write(0, 1, '{"version": 1}', "move:3", b"[]")
        write(1, 2, '{"version": 2}', "rest", b'[{"kind": "rested"}]')
        with sqlite3.connect(tmp_path / "necessary.sqlite3") as db:
            game = db.execute("SELECT version, state FROM necessary_game").fetchall()
            actions = db.execute("SELECT version, key FROM necessary_action ORDER BY version")
            assert game == [(2, '{"version": 2}')]
            assert actions.fetchall() == [(1, "move:3"), (2, "rest")]
    timed = necessary.measure(decisions=3, warm=1, seed=1, database_url=url)
    assert timed["database"] == "SQLite" and timed["write_ms"] > 0
    assert list(tmp_path.iterdir()) == []  # its file, made beside the run's, is gone


@pytest.mark.postgres
def test_the_necessary_write_runs_on_postgresql_in_temporary_tables(postgres_url):
    import psycopg

    from bench import necessary
    from bench.servers import Backend

    backend = Backend(postgres=postgres_url.rsplit("/", 1)[0])  # a database of its own
    try:
        url = backend.env["DATABASE_URL"]
        timed = necessary.measure(decisions=3, warm=1, seed=1, database_url=url)
        assert timed["database"] == "PostgreSQL" and timed["write_ms"] > 0
        with psycopg.connect(url) as conn:
            left = conn.execute("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'necessary%'")
            assert left.fetchone() == (0,)
    finally:
        backend.close()


@pytest.mark.django_db
def test_the_instruction_count_switches_counting_on_around_one_phase_of_each_counted_decision():
    from bench import instructions

    for phase in instructions.PHASES:
        switches: list[bool] = []
        counted = instructions.play(phase, warm=2, decisions=3, seed=1, counting=switches.append)
        assert counted == 3
        assert switches == [True, False] * 3, phase


def test_the_instruction_report_reads_callgrind_totals_and_sets_the_views_by_their_floor(
    tmp_path,
):
    from bench import instructions

    out = tmp_path / "callgrind.views"
    out.write_text("version: 1\ncreator: callgrind\nevents: Ir\nsummary: 0\ntotals: 46000000\n")
    assert instructions.totals(out) == 46_000_000
    (tmp_path / "empty").write_text("events: Ir\n")
    with pytest.raises(ValueError):
        instructions.totals(tmp_path / "empty")
    report = instructions.lines(
        {"decisions": 2, "warm": 40, "seed": 1, "views": 46e6, "floor": 10e6, "decision": 8e6}
    )
    assert "23.00 M" in report[1]
    assert "5.00 M; views / floor 4.6x" in report[2]
    assert "4.00 M" in report[3]


@pytest.mark.skipif(
    shutil.which("valgrind") is None and not os.environ.get("CI"),
    reason="needs valgrind (Debian package valgrind; .ci/run installs it)",
)
def test_bench_instructions_counts_a_decision_under_callgrind():
    out = manage("bench_instructions", "--warm", "2", "--decisions", "1", timeout=600)
    assert "counted by callgrind over 1 decisions after 2" in out, out
    views = float(out.split("partial frame): ")[1].split(" M")[0])
    floor = float(out.split("written as JSON): ")[1].split(" M")[0])
    assert views > floor > 0, out

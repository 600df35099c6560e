"""A process that serves the site (daphne) sets Python's collector up for serving; a process
that only imports the site (tests, commands) keeps Python's defaults."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import gc, json, sys\n"
    "sys.argv[0] = sys.argv[1]\n"
    "import kilforth_site.asgi\n"
    "from kilforth_site.collector import GC_THRESHOLDS\n"
    "print(json.dumps([list(gc.get_threshold()), gc.get_freeze_count(), list(GC_THRESHOLDS)]))"
)


def imported_as(program: str) -> tuple[list[int], int, list[int]]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env["DJANGO_SETTINGS_MODULE"] = "kilforth_site.settings"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, program],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return tuple(json.loads(done.stdout.strip().splitlines()[-1]))


def test_a_daphne_process_freezes_its_start_up_heap_and_collects_less_often():
    thresholds, frozen, serving = imported_as("/usr/bin/daphne")
    assert thresholds == serving and serving[0] > 700
    assert frozen > 10_000  # Django and the site's code, out of every pass


def test_a_process_that_only_imports_the_site_keeps_pythons_collector_settings():
    thresholds, frozen, _ = imported_as("pytest")
    assert thresholds == [700, 10, 10] and frozen == 0

"""Real daphne processes on loopback, with the database and channel layer a run asks for.

Everything here is bounded: a fresh database per run (a SQLite file in a temporary folder, or a
PostgreSQL database created and dropped), servers on free 127.0.0.1 ports, stopped at the end.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_POSTGRES = "postgres://postgres:postgres@127.0.0.1:5432"
DEFAULT_REDIS = "redis://127.0.0.1:6379"
# The instrumented entry point (bench/asgi.py) adds render counters and a stats URL to the site.
SITE_APP = "bench.asgi:application"
PLAIN_APP = "kilforth_site.asgi:application"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_listening(
    port: int, process: subprocess.Popen, log: Path, seconds: float = 30
) -> None:
    """Return once 127.0.0.1:port accepts connections; RuntimeError if the process dies first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"daphne exited: {log.read_text()[-2000:]}") from None
            time.sleep(0.05)
    raise RuntimeError(f"daphne did not listen within {seconds:.0f} s")


def rss_kb(pid: int) -> int:
    """Resident set size of one process in KiB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Backend:
    """The database (and optionally Redis) a run uses; `env` is what every subprocess gets."""

    def __init__(self, postgres: str | None = None, redis: str | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="kilforth-bench-"))
        self.pg_base = postgres
        self.pg_name: str | None = None
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        env["DJANGO_SETTINGS_MODULE"] = "kilforth_site.settings"
        env["PYTHONPATH"] = str(ROOT)
        # Measured as served: debug off (no SQL recorded per query, no template reloading),
        # on plain http to this machine's loopback addresses (and the test client's name).
        env.setdefault("DJANGO_DEBUG", "0")
        env.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(40))
        env.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
        env.setdefault("DJANGO_HTTPS", "0")
        if postgres:
            self.pg_name = f"kilforth_bench_{os.getpid()}_{int(time.time())}"
            self._pg_admin(f'CREATE DATABASE "{self.pg_name}"')
            env["DATABASE_URL"] = f"{postgres.rstrip('/')}/{self.pg_name}"
            env.setdefault("DATABASE_CONN_MAX_AGE", "60")
        else:
            env["DATABASE_URL"] = f"sqlite:///{self.folder / 'bench.sqlite3'}"
        if redis:
            env["REDIS_URL"] = redis
        self.env = env

    def describe(self) -> str:
        db = "PostgreSQL" if self.pg_name else "SQLite (WAL file)"
        layer = "Redis pub/sub layer" if "REDIS_URL" in self.env else "in-memory layer"
        return f"{db}, {layer}"

    def _pg_admin(self, sql: str) -> None:
        import psycopg

        parsed = urlparse(self.pg_base)
        with psycopg.connect(
            host=parsed.hostname,
            port=parsed.port or 5432,
            user=parsed.username,
            password=parsed.password,
            dbname="postgres",
            autocommit=True,
        ) as conn:
            conn.execute(sql)

    def migrate(self) -> None:
        """The database's tables, and the static files a page served with debug off links."""
        for command in (["migrate"], ["collectstatic"]):
            subprocess.run(
                [sys.executable, "manage.py", *command, "--noinput", "-v", "0"],
                cwd=ROOT,
                env=self.env,
                check=True,
                timeout=300,
            )

    def run_json(self, module: str, *args: str, timeout: float = 600) -> dict:
        """Run `python -m module args` with this backend's environment; its stdout is JSON."""
        done = subprocess.run(
            [sys.executable, "-m", module, *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            timeout=timeout,
            stdout=subprocess.PIPE,
        )
        return json.loads(done.stdout)

    def close(self) -> None:
        if self.pg_name:
            try:
                self._pg_admin(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')
            except Exception as exc:  # noqa: BLE001 - report, never hide the run's own result
                print(f"could not drop {self.pg_name}: {exc}", file=sys.stderr)
        shutil.rmtree(self.folder, ignore_errors=True)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time one process has used so far, from /proc (every thread)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Daphne:
    """One daphne process serving `app` on a free loopback port."""

    def __init__(self, app: str, env: dict[str, str], log: Path, **extra_env: str) -> None:
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.log = log
        daphne = Path(sys.executable).with_name("daphne")
        self._log_file = open(log, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [str(daphne), "-b", "127.0.0.1", "-p", str(self.port), app],
            cwd=ROOT,
            env={**env, **extra_env},
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until_listening(self.port, self.process, log, seconds=60)
        except RuntimeError:
            self.stop()
            raise

    @property
    def pid(self) -> int:
        return self.process.pid

    def rss_kb(self) -> int:
        return rss_kb(self.pid)

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.pid)

    def get(self, path: str, timeout: float = 30) -> bytes:
        # Loopback only: never through a proxy from the environment.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"http://{self.address}{path}", timeout=timeout) as answer:
            return answer.read()

    def stats(self) -> dict:
        """Counters of the instrumented entry point (bench/asgi.py)."""
        return json.loads(self.get("/__bench__/stats"))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._log_file.close()

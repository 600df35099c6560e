"""Shared fixtures: real services (Redis, PostgreSQL) and helpers to act as people at a table.

Services: under CI=true a test that needs Redis or PostgreSQL fails when it cannot reach them;
elsewhere it skips with the reason, so a newcomer without the services still gets a green run.
"""

import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse

import pytest

from bench.servers import free_port, wait_until_listening

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_POSTGRES_URL = "postgres://postgres:postgres@127.0.0.1:5432/kilforth"


@pytest.fixture(autouse=True, scope="session")
def _a_connection_per_call() -> None:
    """In this process, a database connection per request or socket call, closed after it
    (CONN_MAX_AGE 0): tests run sockets on short-lived threads and executors, whose kept
    connections would outlive them (too many for PostgreSQL, and the test database could not
    be dropped). The servers the tests start keep theirs, as served (settings, 600 s)."""
    from django.db import connections

    connections.settings["default"]["CONN_MAX_AGE"] = 0


def service_missing(what: str, reason: str) -> None:
    message = f"{what} is not reachable ({reason})"
    if IN_CI:
        pytest.fail(f"{message}; under CI=true this test is mandatory")
    pytest.skip(f"{message}; start it or run .ci/run")


def _reachable(url: str, default_port: int) -> str | None:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname, parsed.port or default_port), timeout=2):
            return None
    except OSError as exc:
        return str(exc)


@pytest.fixture
def redis_url() -> str:
    # TEST_REDIS_URL lets parallel checkouts use separate Redis databases (bin/test unsets
    # REDIS_URL, which would switch the site's own channel layer).
    url = os.environ.get("TEST_REDIS_URL") or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    problem = _reachable(url, 6379)
    if problem:
        service_missing(f"Redis at {url}", problem)
    return url


@pytest.fixture
def postgres_url() -> str:
    url = os.environ.get("TEST_POSTGRES_URL") or DEFAULT_POSTGRES_URL
    problem = _reachable(url, 5432)
    if problem:
        service_missing(f"PostgreSQL at {url}", problem)
    return url


@pytest.fixture
def make_player(db: None) -> Callable:
    from games.tables.models import Player

    def make(name: str = "Ann") -> Player:
        return Player.objects.create(name=name)

    return make


@pytest.fixture
def person(client_factory: Callable) -> Callable:
    """A browser with a display name: person("Ann") -> (django test Client, Player)."""

    def make(name: str):
        from games.tables.identity import player_from_session

        client = client_factory()
        response = client.post("/welcome/", {"name": name})
        assert response.status_code == 302, response.content
        return client, player_from_session(client.session)

    return make


@pytest.fixture
def client_factory(db: None) -> Callable:
    from django.test import Client

    return lambda: Client()


class DaphneServer:
    """A real daphne process on a free port with its own SQLite file (or the given services)."""

    def __init__(self, folder: Path, **extra_env: str) -> None:
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        self.database = folder / "server.sqlite3"
        self.log = folder / "daphne.log"  # a file, not a pipe: a full pipe would stall daphne
        env["DATABASE_URL"] = f"sqlite:///{self.database}"
        env.update(extra_env)
        self.env = env
        self.manage("migrate", "--noinput", "-v", "0")
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.start()

    def manage(self, *args: str) -> str:
        """Run a manage.py command against this server's database and settings."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            timeout=120,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:  # what went wrong, not only that it did
            raise AssertionError(f"manage.py {args[0]} failed:\n{done.stderr[-4000:]}")
        return done.stdout

    def start(self) -> None:
        daphne = Path(sys.executable).with_name("daphne")
        self.process = subprocess.Popen(
            [
                str(daphne),
                *("-b", "127.0.0.1", "-p", str(self.port)),
                *("--websocket-max-message-size", "1048576"),  # as bin/serve runs it
                "kilforth_site.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("ab"),
        )
        try:
            wait_until_listening(self.port, self.process, self.log)
        except RuntimeError:
            self.stop()
            raise

    def kill(self) -> None:
        """SIGKILL: no clean-up, no flushing, exactly like a crash."""
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def daphne_server(tmp_path):
    """A real daphne serving the site; yields its "host:port"."""
    server = DaphneServer(tmp_path)
    yield server.address
    server.stop()


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Rate-limit counters live in the cache: each test starts with none spent."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _no_bot_driver_unless_asked(request, settings):
    """Unit tests drive bots by hand; a test marked `bot_driver` gets the real driver."""
    if "bot_driver" not in request.keywords:
        settings.KILFORTH_BOT_DRIVER = False

"""The settings read the environment: each switch is proven in a fresh process against the real
service, the way an operator would flip it."""

import os
import secrets
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def with_database(url: str, name: str) -> str:
    parts = urlparse(url)
    return urlunparse(parts._replace(path=f"/{name}"))


@pytest.fixture
def fresh_postgres_database(postgres_url):
    import psycopg

    name = f"kilforth_switch_{uuid.uuid4().hex[:8]}"
    admin = with_database(postgres_url, "postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield with_database(postgres_url, name)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.postgres
def test_database_url_switches_the_site_to_postgresql(fresh_postgres_database):
    migrated = run(["manage.py", "migrate", "--noinput"], DATABASE_URL=fresh_postgres_database)
    assert migrated.returncode == 0, migrated.stderr
    probe = run(
        [
            "manage.py",
            "shell",
            "--no-imports",
            "-c",
            "from django.db import connection; from games.tables.models import Player; "
            "Player.objects.create(name='Pat'); "
            "print(connection.vendor, connection.settings_dict['ENGINE'], "
            "Player.objects.get().name)",
        ],
        DATABASE_URL=fresh_postgres_database,
    )
    assert probe.returncode == 0, probe.stderr
    # The site's own PostgreSQL backend (its health check: test_postgres_health_check.py).
    assert probe.stdout.split() == ["postgresql", "kilforth_site.postgresql", "Pat"]


@pytest.mark.redis
def test_redis_url_switches_the_channel_layer_to_redis(redis_url):
    script = (
        "from asgiref.sync import async_to_sync\n"
        "from channels.layers import get_channel_layer\n"
        "layer = get_channel_layer()\n"
        "async def roundtrip():\n"
        "    name = await layer.new_channel()\n"
        "    await layer.send(name, {'type': 'ping'})\n"
        "    got = await layer.receive(name)\n"
        "    await layer.flush()\n"
        "    return got\n"
        "print(type(layer).__name__, async_to_sync(roundtrip)()['type'])"
    )
    probe = run(["manage.py", "shell", "--no-imports", "-c", script], REDIS_URL=redis_url)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == ["SharedDecodePubSubLayer", "ping"]


@pytest.mark.parametrize("empty", [{}, {"DATABASE_URL": "", "REDIS_URL": "", "PORT": ""}])
def test_without_service_urls_the_site_runs_embedded(empty):
    # Set but empty, as container files often leave them, means unset (it crashed with KeyError).
    probe = run(
        [
            "manage.py",
            "shell",
            "--no-imports",
            "-c",
            "from django.conf import settings; "
            "print(settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[1], "
            "settings.CHANNEL_LAYERS['default']['BACKEND'].rsplit('.', 1)[1])",
        ],
        **empty,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == ["sqlite3", "InMemoryChannelLayer"]


PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "kilforth.example",
}


def test_production_settings_pass_the_deploy_check_without_warnings():
    checked = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "System check identified no issues" in checked.stdout


def test_production_refuses_to_start_without_a_secret_key():
    broken = run(["manage.py", "check"], **{**PRODUCTION, "DJANGO_SECRET_KEY": ""})
    assert broken.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in broken.stderr


def test_a_malformed_setting_is_a_clear_error():
    broken = run(["manage.py", "check"], DJANGO_DEBUG="maybe")
    assert broken.returncode != 0
    assert "DJANGO_DEBUG must be a boolean" in broken.stderr

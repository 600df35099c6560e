"""The site's PostgreSQL backend checks a kept connection without a round trip, and still finds
one the server dropped (kilforth_site/postgresql/base.py)."""

import time

import dj_database_url
import psycopg
import pytest
from django.db.utils import ConnectionHandler

from tests.services.test_settings_switches import with_database


@pytest.fixture
def site_connection(postgres_url, django_db_blocker):
    """A connection as the site's settings make one (kept, health-checked), to the server's
    `postgres` database, with an administrator's connection beside it."""
    url = with_database(postgres_url, "postgres")
    settings = dj_database_url.parse(url, conn_max_age=600, conn_health_checks=True)
    settings["ENGINE"] = "kilforth_site.postgresql"
    handler = ConnectionHandler({"default": settings})
    wrapper = handler["default"]
    admin = psycopg.connect(url, autocommit=True)
    with django_db_blocker.unblock():  # a connection of its own, outside the test database
        yield wrapper, admin
        wrapper.close()
    admin.close()


def _last_statement(admin: psycopg.Connection, pid: int) -> str:
    row = admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    return row[0] if row else ""


@pytest.mark.postgres
def test_a_kept_idle_connection_is_found_usable_without_a_statement(site_connection):
    wrapper, admin = site_connection
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT 'the last statement' AS marker")
    pid = wrapper.connection.info.backend_pid
    assert "the last statement" in _last_statement(admin, pid)

    assert wrapper.is_usable()
    # The server saw nothing after the statement before the check (Django's sends SELECT 1).
    assert "the last statement" in _last_statement(admin, pid)


@pytest.mark.postgres
def test_a_connection_the_server_dropped_is_found_and_opened_again(site_connection):
    wrapper, admin = site_connection
    wrapper.ensure_connection()
    pid = wrapper.connection.info.backend_pid
    admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while wrapper.is_usable() and time.monotonic() < deadline:
        time.sleep(0.05)  # the server's goodbye is on its way
    assert not wrapper.is_usable()

    # As at the start of the next request: the check runs before the connection is used, so the
    # statement goes to a new connection instead of failing.
    wrapper.close_if_unusable_or_obsolete()
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert wrapper.connection.info.backend_pid != pid

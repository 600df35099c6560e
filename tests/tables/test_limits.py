"""Limits on abuse: open tables per host, and how often one may open tables, rename, sign up
and log in (per person and per address)."""

import time

import pytest

from games.tables import limits, services
from games.tables.models import Player, Table
from tests.tables.helpers import new_table_form, open_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def one_window(monkeypatch):
    """Rate windows are aligned to the clock: hold one window for the whole test, so that a
    window ending mid-test cannot reset a count (the limits themselves are unchanged)."""
    import django_ratelimit.core

    now = int(time.time())
    monkeypatch.setattr(django_ratelimit.core, "_get_window", lambda value, period: now + period)


def test_a_host_may_keep_only_a_handful_of_open_tables():
    host = Player.objects.create(name="Hal")
    for n in range(limits.MAX_OPEN_TABLES):
        open_table(host, name=f"T{n}")
    with pytest.raises(services.TooMany, match="already host 5 open tables"):
        open_table(host, name="one too many")
    # Closing one makes room again.
    services.do_close_table(Table.objects.filter(host=host).first(), host)
    open_table(host, name="now there is room")


def test_opening_tables_too_fast_is_refused_with_429(person):
    guest, _ = person("Flo")
    made = 0
    for n in range(12):
        answer = guest.post("/tables/new/", new_table_form(f"Spam {n}"))
        if answer.status_code == 429:
            assert "too often" in answer.content.decode()
            break
        made += 1
        if made % 4 == 0:  # stay under the open-table cap: the rate is what is tested here
            Table.objects.filter(host__name="Flo").update(status="closed")
    assert made == 10
    assert Table.objects.filter(host__name="Flo").count() == 10


def test_renaming_too_often_is_refused(person):
    guest, _ = person("Gus")
    codes = [guest.post("/welcome/", {"name": f"Gus {n}"}).status_code for n in range(11)]
    assert codes[:10] == [302] * 10 and codes[10] == 429


def test_log_in_attempts_for_one_account_are_limited(client):
    codes = [
        client.post("/accounts/login/", {"username": "ann", "password": f"guess-{n}"}).status_code
        for n in range(11)
    ]
    assert codes[:10] == [200] * 10  # the form again, with its error
    assert codes[10] == 429


def test_sign_ups_from_one_browser_are_limited(client):
    codes = []
    for n in range(6):
        answer = client.post(
            "/accounts/signup/",
            {
                "username": f"user{n}",
                "password1": "a-long-enough-secret-9",
                "password2": "a-long-enough-secret-9",
            },
        )
        codes.append(answer.status_code)
        client.post("/accounts/logout/")
    assert codes[-1] == 429 and codes[:5].count(429) == 0


def test_a_real_table_stays_reachable_behind_a_flood_of_tables(client):
    from games.tables.rendering import LOBBY_PAGE

    real = open_table(Player.objects.create(name="Real Host"), name="Friday quest")
    for n in range(LOBBY_PAGE * 2):
        open_table(Player.objects.create(name=f"Spammer {n}"), name=f"Spam {n}")
    first = client.get("/").content.decode()
    assert "Friday quest" not in first and "page=2" in first
    assert "Friday quest" in client.get("/?page=3").content.decode()
    found = client.get("/?q=friday").content.decode()
    assert "Friday quest" in found and "Spam 1" not in found
    assert "Friday quest" in client.get("/?q=real+host").content.decode()
    assert client.get("/?page=banana").status_code == 200
    assert real.pk


def test_the_lobby_counts_a_bots_seat_as_taken(client):
    host = Player.objects.create(name="Hal")
    table = open_table(host, name="With a bot", seat_count=2)
    services.do_seat_bot(table, host, 1, "random")
    assert "1/2" in client.get("/").content.decode()


def test_idle_empty_tables_are_closed_and_tables_with_someone_are_not():
    from django.utils import timezone

    host = Player.objects.create(name="Hal")
    empty = open_table(host, name="Forgotten")
    seated = open_table(host, name="Waiting for friends")
    services.do_take_seat(seated, host, 0, "player")
    fresh = open_table(host, name="Just opened")
    Table.objects.exclude(pk=fresh.pk).update(created=timezone.now() - timezone.timedelta(hours=2))
    assert services.close_idle_tables(60) == 1
    statuses = dict(Table.objects.values_list("name", "status"))
    assert statuses == {"Forgotten": "closed", "Waiting for friends": "open", "Just opened": "open"}
    assert empty.pk

"""Share links the host can replace, closed tables' links dead, guests kept while active,
and a Content-Security-Policy with no inline script."""

import re
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone

from games.tables import services
from games.tables.models import Table
from tests.tables.helpers import new_table_form

pytestmark = pytest.mark.django_db


def test_the_host_replaces_the_links_and_the_old_ones_stop_working(person, client_factory):
    host_browser, host = person("Hal")
    host_browser.post("/tables/new/", new_table_form("Links", visibility="unlisted"))
    table = Table.objects.get(host=host)
    old_invite, old_watch = table.invite_token, table.spectate_token
    answer = host_browser.post(f"/t/{table.slug}/links/")
    assert answer.status_code in {200, 302}
    table.refresh_from_db()
    assert {table.invite_token, table.spectate_token}.isdisjoint({old_invite, old_watch})
    visitor = client_factory()
    assert visitor.get(f"/join/{old_invite}/").status_code == 404
    assert visitor.get(f"/watch/{old_watch}/").status_code == 404
    assert visitor.get(f"/watch/{table.spectate_token}/").status_code == 302


def test_only_the_host_may_replace_the_links(person):
    host_browser, host = person("Hal")
    table = services.do_create_table(host, {"name": "T", "options": {}, "seat_count": 2})
    other, _ = person("Mal")
    before = table.invite_token
    assert other.post(f"/t/{table.slug}/links/").status_code == 403
    table.refresh_from_db()
    assert table.invite_token == before


def test_a_closed_tables_links_are_dead(person, client_factory):
    _, host = person("Hal")
    table = services.do_create_table(host, {"name": "T", "options": {}, "seat_count": 2})
    services.do_close_table(table, host)
    visitor = client_factory()
    assert visitor.get(f"/join/{table.invite_token}/").status_code == 404
    assert visitor.get(f"/watch/{table.spectate_token}/").status_code == 404


def test_a_guest_who_comes_back_keeps_30_days_from_the_latest_visit(person):
    browser, _ = person("Gus")
    key = browser.session.session_key
    # Pretend the guest was made 29 days ago and was last renewed then.
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() + timedelta(days=1))
    session = browser.session
    session["kilforth_renewed"] = "2000-01-01"
    session.save()
    browser.get("/")
    expiry = Session.objects.get(session_key=key).expire_date
    assert expiry > timezone.now() + timedelta(days=29)


def test_every_page_carries_a_policy_that_allows_no_inline_script(person):
    browser, host = person("Hal")
    table = services.do_create_table(host, {"name": "T", "options": {}, "seat_count": 2})
    for url in ["/", f"/t/{table.slug}/", "/cards/", "/welcome/"]:
        answer = browser.get(url)
        policy = answer.headers["Content-Security-Policy"]
        assert (
            "script-src 'self'" in policy
            and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
        )
        html = answer.content.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        assert not re.search(r"\son[a-z]+=\"", html), url

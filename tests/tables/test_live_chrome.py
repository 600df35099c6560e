"""The live fragment's chrome around a board (jinja_templates/tables/_table_live.html): what
every viewer of one snapshot sees alike there (the table's name, options, host, status and
watchers) is made once for them all, and its addresses follow the site's script prefix."""

from dataclasses import replace

import pytest
from django.urls import set_script_prefix
from jinja2 import Template

from games.kilforth import adapter
from games.tables import caches, services
from games.tables.identity import PLAYER_ACCESS, SPECTATOR_ACCESS
from games.tables.models import Player, Table
from games.tables.rendering import load_snapshot, render_table_live
from tests.tables.test_game_flow import current_state, started_table

pytestmark = pytest.mark.django_db


def test_the_table_s_head_is_made_once_for_every_view_of_a_snapshot(monkeypatch):
    caches.forget_all()  # as a process starts: no head made yet
    table, players = started_table()
    snapshot = load_snapshot(table.pk)
    made = []
    real = Template.render

    def counting(self, *args, **kwargs):
        made.append(self.name)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Template, "render", counting)
    pages = [render_table_live(snapshot, p.pk, PLAYER_ACCESS) for p in players]
    pages.append(render_table_live(snapshot, None, SPECTATOR_ACCESS))
    assert made.count("tables/_table_head.html") == 1
    assert made.count("tables/_table_live.html") == 3
    for page in pages:
        assert str(snapshot.head) in page
        assert f"<bdi>{table.name}</bdi>" in page
        assert "Hosted by <strong><bdi>Ann</bdi></strong>" in page


def test_the_head_shows_the_watchers_of_the_snapshot_it_is_made_for():
    table, players = started_table()
    snapshot = load_snapshot(table.pk)
    snapshot.spectators = 2
    assert "2 watching" in render_table_live(snapshot, players[0].pk, PLAYER_ACCESS)
    # A snapshot whose watchers changed (or another snapshot of the same table) shows its own.
    snapshot.spectators = 5
    assert "5 watching" in render_table_live(snapshot, players[0].pk, PLAYER_ACCESS)
    other = replace(snapshot, spectators=7)
    assert "7 watching" in render_table_live(other, None, SPECTATOR_ACCESS)


def test_the_live_fragment_s_addresses_follow_the_script_prefix():
    table, players = started_table()
    snapshot = load_snapshot(table.pk)
    set_script_prefix("/games/")
    try:
        page = render_table_live(snapshot, players[0].pk, PLAYER_ACCESS)
    finally:
        set_script_prefix("/")
    assert f'href="/games/t/{table.slug}/log/"' in page
    assert f'href="/games/t/{table.slug}/replay/"' in page
    assert f'"/t/{table.slug}/' not in page
    # Rendered again under the default prefix, as the next request would be.
    again = render_table_live(snapshot, players[0].pk, PLAYER_ACCESS)
    assert f'href="/t/{table.slug}/log/"' in again


def test_a_tables_head_is_kept_from_one_version_to_the_next_and_made_again_when_it_changes(
    monkeypatch,
):
    caches.forget_all()
    table, players = started_table()
    made = []
    real = Template.render

    def counting(self, *args, **kwargs):
        if self.name == "tables/_table_head.html":
            made.append(self.name)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Template, "render", counting)
    first = load_snapshot(table.pk)
    head = str(first.head)
    state = current_state(table)
    seat = state.waiting_for[0]
    services.do_act(table, players[seat], adapter.legal(state, seat)[0].key, state.version)
    later = load_snapshot(table.pk)
    assert later.table.version > first.table.version and later is not first
    assert str(later.head) == head and len(made) == 1  # the next version takes it whole
    # Whatever the head shows, changed, makes it again: the name, the host's name, watchers.
    Table.objects.filter(pk=table.pk).update(name="Renamed table")
    assert "<bdi>Renamed table</bdi>" in str(load_snapshot(table.pk).head)
    Player.objects.filter(pk=players[0].pk).update(name="Annabel")
    assert "<bdi>Annabel</bdi>" in str(load_snapshot(table.pk).head)
    renamed = load_snapshot(table.pk)
    renamed.spectators = 3
    assert "3 watching" in str(renamed.head)
    assert len(made) == 4

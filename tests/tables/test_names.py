"""Names people write: visible, no direction tricks, distinguishable at one table, isolated."""

import html

import pytest

from games.tables import names, services
from games.tables.forms import DisplayNameForm
from games.tables.identity import PLAYER_ACCESS
from games.tables.models import Player
from tests.tables.helpers import open_table


@pytest.mark.parametrize(
    "raw",
    [
        "\u200b\u200b",  # zero-width spaces
        "\u3164\u3164",  # Hangul fillers
        "\u2800\u2800",  # braille blanks
        " \u115f ",
        "\ufeff",
    ],
)
def test_a_name_with_nothing_visible_is_refused(raw):
    with pytest.raises(names.BadName, match="visible letter or digit|empty"):
        names.clean(raw, "A display name", 40)


def test_a_name_with_direction_controls_is_refused():
    with pytest.raises(names.BadName, match="text-direction"):
        names.clean("abc\u202edlrow", "A display name", 40)


def test_invisible_characters_are_dropped_and_spaces_collapsed():
    assert names.clean("  Ann\u200b   of  Kil\u00adforth ", "A name", 40) == "Ann of Kilforth"
    assert names.clean("مريم", "A name", 40) == "مريم"  # right-to-left names are welcome


def test_names_that_look_the_same_are_recognised():
    assert names.same("ANN", "ann")
    assert names.same("Ａnn", "Ann")  # a full-width letter
    assert not names.same("Ann", "Anne")


def test_the_name_form_refuses_an_invisible_name_with_a_clear_error():
    form = DisplayNameForm({"name": "\u3164"})
    assert not form.is_valid()
    assert "visible letter or digit" in form.errors["name"][0]


@pytest.mark.django_db
def test_two_people_with_the_same_visible_name_cannot_sit_at_one_table():
    host = Player.objects.create(name="Hal")
    table = open_table(host)
    ann = Player.objects.create(name="Ann")
    other_ann = Player.objects.create(name="ann")
    services.do_take_seat(table, ann, 0, PLAYER_ACCESS)
    with pytest.raises(services.Conflict, match="already called Ann"):
        services.do_take_seat(table, other_ann, 1, PLAYER_ACCESS)
    bea = Player.objects.create(name="Bea")
    services.do_take_seat(table, bea, 1, PLAYER_ACCESS)
    with pytest.raises(services.Conflict, match="already called Ann"):
        services.do_set_display_name(bea, "ANN")
    assert Player.objects.get(pk=bea.pk).name == "Bea"


@pytest.mark.django_db
def test_a_hosts_rename_over_many_tables_renders_the_lobby_once(
    monkeypatch, django_capture_on_commit_callbacks
):
    from games.tables import realtime

    host = Player.objects.create(name="Hal")
    for n in range(5):
        open_table(host, name=f"Table {n}")
    lobby_renders = []
    monkeypatch.setattr(realtime, "broadcast_lobby", lambda: lobby_renders.append(1))
    sent = []
    monkeypatch.setattr(
        realtime, "broadcast_table", lambda table_id, lobby=True: sent.append((table_id, lobby))
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.do_set_display_name(host, "Hal the Bold")
    assert len(sent) == 5 and not any(lobby for _, lobby in sent)
    assert len(lobby_renders) == 1


@pytest.mark.django_db
def test_names_are_shown_isolated_in_the_lobby_and_at_the_table(client):
    host = Player.objects.create(name="مريم")
    table = open_table(host, name="שולחן ערב")
    lobby = client.get("/").content.decode()
    assert "<bdi>مريم</bdi>" in lobby and "<bdi>שולחן ערב</bdi>" in lobby
    # The table's live part writes them as character references (frames.ascii_html): the same
    # text in the browser.
    page = html.unescape(client.get(table.get_absolute_url()).content.decode())
    assert "<h1><bdi>שולחן ערב</bdi></h1>" in page and "<bdi>مريم</bdi>" in page

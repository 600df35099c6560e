import pytest
from django.db import IntegrityError, transaction

from games.kilforth.kit import variants
from games.tables.models import Seat
from tests.tables.helpers import open_table


def test_each_table_gets_its_own_unguessable_address_and_links(make_player):
    host = make_player()
    first, second = open_table(host), open_table(host)
    assert first.slug != second.slug
    assert len({first.invite_token, first.spectate_token, second.invite_token}) == 3
    assert len(first.invite_token) >= 20
    assert first.get_absolute_url() == f"/t/{first.slug}/"


def test_a_player_can_hold_only_one_seat_at_a_table_even_bypassing_the_services(make_player):
    host = make_player()
    table = open_table(host)
    Seat.objects.filter(table=table, number=0).update(player=host)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(table=table, number=1).update(player=host)
    other = open_table(host)
    Seat.objects.filter(table=other, number=0).update(player=host)  # another table is fine
    assert Seat.objects.filter(player=host).count() == 2


def test_variants_are_listed_in_plain_words(make_player):
    table = open_table(make_player(), mode="cooperative", auto_evasion=True, open_hands=True)
    assert variants(table.options) == ["automatic evasion", "open hands"]
    assert variants({"chapter_cost_2x": True}) == ["chapter cost 2 x chapter"]
    assert "Variants: automatic evasion, open hands" in table.option_summary


@pytest.mark.django_db
def test_a_games_state_is_compressed_with_lz4_on_a_postgresql_server_that_has_it():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL column's compression: the PostgreSQL pass of the suite runs it")
    with connection.cursor() as cursor:
        cursor.execute("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
        assert "lz4" in cursor.fetchone()[0]  # the servers CI and the README set up have it
        cursor.execute(
            "SELECT attcompression FROM pg_attribute"
            " WHERE attrelid = 'tables_game'::regclass AND attname = 'state'"
        )
        assert cursor.fetchone()[0] == "l"

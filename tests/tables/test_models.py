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

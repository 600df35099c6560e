"""Knight Fall's cards on show: every content file's entries, read from the files the game plays."""

import pytest

from games.knightfall.engine.content import content


@pytest.mark.django_db
def test_the_gallery_shows_every_character_card_coop_card_and_tile(client):
    page = client.get("/cards/knightfall/").content.decode()
    c = content()
    for ch in c.chars.values():
        assert f'id="char-{ch["id"]}"' in page
    for card in c.cards.values():
        if card["team"] != "any":
            assert f'id="card-{card["id"]}"' in page
    for card in c.coop.values():
        assert f'id="coop-{card["id"]}"' in page
    for tile in c.tiles.values():
        assert f'id="tile-{tile["id"]}"' in page
    assert "[" not in page.split("<main", 1)[1].split("</main>")[0]  # no list shown raw


@pytest.mark.django_db
def test_each_games_gallery_links_to_the_other(client):
    assert 'href="/cards/knightfall/"' in client.get("/cards/").content.decode()
    assert 'href="/cards/"' in client.get("/cards/knightfall/").content.decode()

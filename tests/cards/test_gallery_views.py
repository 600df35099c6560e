"""The card gallery's pages (Django test client): every card listed, filters, card pages, 404."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.template.loader import get_template

from games.kilforth.engine import content
from games.kilforth.engine.cards import steps
from games.kilforth.gallery.faces import KINDS, all_ids, card_view
from games.kilforth.gallery.views import FILTERS
from games.kilforth.gallery.words import has_phrase, sentence

pytestmark = pytest.mark.django_db

DECK_OF_KIND = {"night": "night", "loot": "loot", "plot": "plot"}


def shown(response) -> list[str]:
    return re.findall(r'<article class="kc [^"]*"[^>]*data-card="([^"]+)"', response.text)


def expected(name: str, value: str) -> set[str]:
    """Which cards a filter should keep, worked out from the card data directly."""
    c = content()
    out = set()
    for cid, card in c.cards.items():
        kind = card["kind"]
        if name == "kind":
            ok = kind == value
        elif name == "type":
            ok = kind in ("encounter", "night") and card["type"] == value
        elif name == "terrain":
            ok = kind in ("location", "encounter") and card["terrain"] == value
        elif name == "deck":
            deck = {"encounter": card.get("terrain"), "reward": card.get("deck")}.get(
                kind, DECK_OF_KIND.get(kind)
            )
            ok = deck == value
        else:
            own = card.get("edition")
            if kind == "plot":
                own = c.cards[card["ancient"]].get("edition")
            ok = own in (None, value)
        if ok:
            out.add(cid)
    return out


def test_the_gallery_shows_every_loaded_card_once(client):
    response = client.get("/cards/")
    assert response.status_code == 200
    ids = shown(response)
    assert sorted(ids) == sorted(content().cards)
    assert f"Showing <strong>{len(ids)}</strong> of {len(ids)} cards" in response.text


def test_the_gallery_links_back_to_the_lobby_and_to_every_card_page(client):
    text = client.get("/cards/").text
    assert 'href="/"' in text
    for cid in content().cards:
        assert f'href="/cards/{cid}/"' in text


@pytest.mark.parametrize(
    ("name", "value"), [(name, value) for name, _label, options in FILTERS for value, _ in options]
)
def test_each_filter_keeps_exactly_the_matching_cards(client, name, value):
    response = client.get("/cards/", {name: value})
    assert set(shown(response)) == expected(name, value)


def test_filters_combine(client):
    response = client.get("/cards/", {"kind": "encounter", "terrain": "forest", "type": "enemy"})
    want = expected("kind", "encounter") & expected("terrain", "forest") & expected("type", "enemy")
    assert want
    assert set(shown(response)) == want


def test_the_count_beside_each_option_is_what_choosing_it_shows(client):
    page = client.get("/cards/", {"edition": "shadows"}).text
    for name, _label, options in FILTERS:
        select = re.search(rf'<select id="kg-f-{name}" name="{name}">(.*?)</select>', page, re.S)
        counts = dict(
            re.findall(r'<option value="([^"]*)"[^>]*>[^<]*\((\d+)\)</option>', select[1])
        )
        for value, _ in options[:4]:
            query = {"edition": "shadows", name: value}
            assert int(counts[value]) == len(shown(client.get("/cards/", query))), (name, value)


def test_unknown_filter_values_are_ignored(client):
    response = client.get("/cards/", {"kind": "dragon", "edition": "moon"})
    assert response.status_code == 200
    assert len(shown(response)) == len(content().cards)


def test_an_htmx_request_gets_only_the_gallery_with_a_tidy_address(client):
    response = client.get(
        "/cards/", {"kind": "encounter", "type": "", "deck": ""}, headers={"HX-Request": "true"}
    )
    assert response.text.lstrip().startswith('<div id="kg-gallery"')
    assert "<html" not in response.text
    assert '<p id="kg-announce" hx-swap-oob="innerHTML">Showing' in response.text
    assert response["HX-Push-Url"] == "/cards/?kind=encounter"
    assert "HX-Request" in response["Vary"]
    restore = client.get(
        "/cards/",
        {"kind": "encounter"},
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in restore.text


def test_the_filter_form_works_without_javascript(client):
    text = client.get("/cards/").text
    form = re.search(r'<form class="kg-filters[^>]*>', text)[0]
    assert 'method="get"' in form and 'action="/cards/"' in form
    assert 'hx-get="/cards/"' in form and 'hx-push-url="true"' in form
    assert 'hx-target="#kg-gallery"' in form
    assert '<button type="submit"' in text


def test_every_card_has_a_page_with_everything_about_it(client):
    for cid in all_ids():
        view = card_view(cid)
        response = client.get(f"/cards/{cid}/")
        assert response.status_code == 200, cid
        text = html.unescape(response.text)
        assert f"<h1>{view['name']}</h1>" in text, cid
        assert 'href="/"' in text and 'href="/cards/"' in text
        if view["text"]:
            assert view["text"] in text, cid
        for e in view["effects"]:
            assert e["words"] and e["words"] in text, cid
        for k in view["keywords"]:
            assert k["word"] in text
        for a in view["appears"]:
            assert a["text"] in text, cid
        assert "None" not in re.sub(r"<[^>]+>", " ", text).split(), cid
        assert "{'k'" not in text, cid


def test_no_card_text_or_effect_is_missing_from_the_gallery(client):
    text = html.unescape(client.get("/cards/").text)
    for cid, card in content().cards.items():
        view = card_view(cid)
        assert view["name"] in text
        for e in view["effects"]:
            if e["label"].startswith("At night"):
                continue  # a location shows its night rule on its gloom band instead
            assert e["words"] in text, cid
        if card["kind"] == "location":
            assert view["gloom_text"] in text, cid


def test_an_unknown_card_is_not_found(client):
    assert client.get("/cards/e.no_such_card/").status_code == 404


def test_card_view_needs_no_game_and_is_plain_data():
    for cid in all_ids():
        view = card_view(cid)
        json.dumps(view)
        assert view["id"] == cid and view["name"] and view["kind_label"]
        get_template(view["template"])


def test_every_kind_of_card_has_its_own_partial():
    kinds = {card["kind"] for card in content().cards.values()}
    assert kinds <= set(KINDS)
    for kind in KINDS:
        get_template(f"kilforth/gallery/cards/_{kind}.html")


def test_every_step_kind_cards_may_use_has_its_own_words():
    steps.load_all()
    assert [k for k in steps.CARD_STEPS if not has_phrase(k)] == []


def test_effects_read_as_sentences():
    assert sentence([{"k": "lose_hp", "n": 2}, {"k": "gain_gold", "n": 1}]) == (
        "Lose 2 HP, then gain 1 gold."
    )
    each = [{"k": "each_hero", "here": True, "steps": [{"k": "lose_hp", "n": 1}]}]
    assert sentence(each) == "Every hero at this location loses 1 HP."
    gate = [
        {"k": "test_gate", "attr": "sneak", "need": 2, "pass": [{"k": "hide"}]},
        {"k": "draw_loot"},
    ]
    assert sentence(gate) == (
        "Make a sneak test needing 2 successes; on success become hidden. Then draw a loot token."
    )
    assert sentence([{"k": "steal_gold", "n": 2}]) == "Steal gold (n 2)."


def test_a_card_added_to_the_files_shows_up_in_the_gallery_and_has_a_page(
    client, tmp_path, monkeypatch
):
    import shutil

    from games.kilforth.engine.cards.catalogue import CONTENT_DIR, load_files
    from games.kilforth.gallery import faces as gallery_cards

    folder = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, folder)
    (folder / "common" / "more.toml").write_text(
        'encounter = [\n  {id = "e.glimmer_moth", name = "Glimmer Moth", type = "enemy",'
        ' terrain = "plains", fight = 1, health = 1, gold = 1, keywords = ["*lantern"],'
        ' trophy = [{k = "gain_fate", n = 1}, {k = "draw_loot"}]},\n]\n',
        encoding="utf-8",
    )
    steps.load_all()
    grown = load_files(sorted(folder.rglob("*.toml")), set(steps.CARD_STEPS))
    monkeypatch.setattr(gallery_cards, "content", lambda: grown)
    gallery_cards.clear_cache()
    try:
        listed = shown(client.get("/cards/", {"terrain": "plains", "kind": "encounter"}))
        assert "e.glimmer_moth" in listed
        page = html.unescape(client.get("/cards/e.glimmer_moth/").text)
        assert "Glimmer Moth" in page
        assert "Gain 1 fate, then draw a loot token." in page
        assert "lantern" in page and "unique" in page
    finally:
        gallery_cards.clear_cache()

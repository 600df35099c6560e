"""Every byte a seat, a spectator or an anonymous visitor receives over HTTP carries no other
hero's hand, no deck order and no random state (the websocket frames are scanned in
tests/tables/test_game_sockets.py)."""

import json

import pytest
from django.test import Client

from games.kilforth import adapter
from games.kilforth.engine import content
from games.kilforth.engine.view import visible_log
from games.tables import services
from games.tables.identity import PLAYER_KEY
from games.tables.models import Game
from tests.tables.test_game_flow import current_state, started_table


def browser_for(player) -> Client:
    client = Client()
    if player is not None:
        session = client.session
        session[PLAYER_KEY] = player.pk
        session.save()
    return client


def forbidden_strings(state, viewer) -> set[str]:
    """What this viewer must never receive: secrets absent from everything it may see."""
    allowed = json.dumps(adapter.view(state, viewer)) + json.dumps(visible_log(state, viewer))
    secrets = {str(state.seed), str(state.rng)}
    for deck in state.decks.values():
        secrets.update(deck[-3:])
    for hero in state.heroes:
        if hero["seat"] != viewer:
            for card in hero["hand"]:
                # A card seen in public first (defeated on the map, say) is no secret.
                if card not in allowed:
                    secrets.update({card, content().card(card)["name"]})
    return {s for s in secrets if s not in allowed}


@pytest.mark.django_db
@pytest.mark.parametrize("steps", [0, 25, 80])
def test_pages_and_logs_leak_nothing_to_seats_spectators_or_anonymous_visitors(steps):
    table, players = started_table(seed=912_345_678_901 + steps)  # long enough to be unmistakable
    for _ in range(steps):
        state = current_state(table)
        if state.result is not None:
            break
        seat = state.waiting_for[0]
        services.do_act(table, players[seat], adapter.legal(state, seat)[0].key, state.version)
    state = current_state(table)
    viewers = {0: players[0], 1: players[1], None: None}
    for viewer, player in viewers.items():
        client = browser_for(player)
        received = "".join(
            client.get(path).content.decode()
            for path in (f"/t/{table.slug}/", f"/t/{table.slug}/log/", "/")
        )
        for secret in forbidden_strings(state, viewer):
            assert secret not in received, f"{secret!r} reached viewer {viewer}"
    assert str(state.seed) in Game.objects.get(table=table).state  # the scan looks for a real thing

"""Parsed game states shared within a process: parsed once, only once committed."""

import pytest
from django.db import transaction

from games.kilforth import adapter
from games.kilforth.engine import State
from games.tables import caches, services
from games.tables.models import Game
from games.tables.rendering import load_snapshot
from tests.tables.test_game_flow import current_state, deciding, started_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def parses(monkeypatch):
    """Counts the state documents parsed."""
    count = {"n": 0}
    load = adapter.load

    def counting(document):
        count["n"] += 1
        return load(document)

    monkeypatch.setattr(adapter, "load", counting)
    caches.forget_all()
    return count


def test_the_broadcast_snapshot_reuses_the_state_the_decision_committed(parses):
    table, players = started_table()
    state = current_state(table)
    seat, choices = deciding(state)
    parses["n"] = 0
    services.do_act(table, players[seat], choices[0].key, state.version)
    assert parses["n"] == 1, "the decision parses the version it answers, once"
    snapshot = load_snapshot(table.pk)
    assert parses["n"] == 1, "the snapshot of the new version needs no parse"
    assert snapshot.game == State.from_json(Game.objects.get(table=table).state)
    after = snapshot.game
    seat, choices = deciding(after)
    services.do_act(table, players[seat], choices[0].key, after.version)
    assert parses["n"] == 1, "the next decision starts from the remembered state"


def test_a_decision_whose_transaction_rolls_back_is_never_remembered(parses):
    table, players = started_table()
    state = current_state(table)
    seat, choices = deciding(state)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.do_act(table, players[seat], choices[0].key, state.version)
        raise RuntimeError("the request failed after the decision")
    assert Game.objects.get(table=table).version == state.version
    snapshot = load_snapshot(table.pk)
    assert snapshot.game.version == state.version
    assert snapshot.game == State.from_json(Game.objects.get(table=table).state)
    # Another process answers the same version differently; this one must read that answer.
    other = adapter.act(state, seat, choices[-1].key)
    assert other != adapter.act(state, seat, choices[0].key)
    Game.objects.filter(table=table).update(state=adapter.dump(other), version=other.version)
    assert load_snapshot(table.pk).game == other


def test_a_newer_version_of_a_game_replaces_the_older_ones_this_process_kept(parses):
    table, players = started_table()
    for _ in range(3):
        state = current_state(table)
        seat, choices = deciding(state)
        services.do_act(table, players[seat], choices[0].key, state.version)
    assert caches.cached_states() == 1
    table.refresh_from_db()
    assert load_snapshot(table.pk).game == current_state(table)

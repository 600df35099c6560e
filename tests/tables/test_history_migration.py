"""Migration 0008 moves a running Kilforth game's whole log out of its state document."""

import json
import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.kilforth.engine import Settings, act, legal, new_events, new_game
from games.kilforth.engine.state import LOG_KEPT

BEFORE = [("tables", "0007_merge_0005_chat_0006_status_label")]
AFTER = [("tables", "0008_history_out_of_state")]


def old_document(decisions: int) -> tuple[str, list[dict]]:
    """A document as the engine wrote it before: the whole log and the actions inside."""
    state = new_game(Settings(edition="shadows", mode="competitive", heroes=2), 5)
    r = random.Random(5)
    actions, history = [], new_events(None, state)
    for _ in range(decisions):
        seat = state.waiting_for[0]
        key = r.choice(legal(state, seat)).key
        before, state = state, act(state, seat, key)
        history += new_events(before, state)
        actions.append([seat, key])
    doc = state.to_dict() | {"log": history, "actions": actions}
    del doc["logged"]
    return json.dumps(doc), history


@pytest.mark.django_db(transaction=True)
def test_a_running_games_log_becomes_its_opening_history_and_the_state_keeps_the_tail():
    document, history = old_document(60)
    assert len(history) > LOG_KEPT
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    host = old.get_model("tables", "Player").objects.create(name="Ann")
    table = old.get_model("tables", "Table").objects.create(name="Old", host=host)
    old.get_model("tables", "Game").objects.create(table=table, state=document, version=60)
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    game = new.get_model("tables", "Game").objects.get(table__name="Old")
    assert game.opening == history
    doc = json.loads(game.state)
    assert doc["log"] == history[-LOG_KEPT:] and doc["logged"] == len(history)
    assert "actions" not in doc
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("tables"))

"""Migration 0005 carries a table's Kilforth option columns into Table.options."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tables", "0004_game_kit")]
AFTER = [("tables", "0005_table_options")]


@pytest.mark.django_db(transaction=True)
def test_existing_tables_keep_their_options_as_json():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    host = old.get_model("tables", "Player").objects.create(name="Ann")
    old.get_model("tables", "Table").objects.create(
        name="Old", host=host, edition="gloom", mode="cooperative", open_hands=True
    )
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    table = new.get_model("tables", "Table").objects.get(name="Old")
    assert table.options == {
        "edition": "gloom",
        "mode": "cooperative",
        "difficulty": "standard",
        "auto_evasion": False,
        "chapter_cost_2x": False,
        "open_hands": True,
        "saga_allocation": "matched",
    }
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("tables"))

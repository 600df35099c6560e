"""PostgreSQL compresses a game's state document with lz4, where the server has it.

Every decision rewrites the state document (about 28 KiB of JSON), which PostgreSQL compresses
out of line. lz4 does it faster than PostgreSQL's own default (pglz): 0.75-0.82 against 1.02-1.03
ms for the update and its commit on this machine (docs/benchmarks.md). Rows written before keep
the compression they were written with until their next decision. A server without lz4 (built
without it, or older than 14), and SQLite, keep their default.
"""

from typing import Any

from django.db import migrations


def _compression(apps: Any, schema_editor: Any, method: str) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
        row = cursor.fetchone()
        if row is None or "lz4" not in (row[0] or []):
            return
        table = schema_editor.quote_name(apps.get_model("tables", "Game")._meta.db_table)
        cursor.execute(f"ALTER TABLE {table} ALTER COLUMN state SET COMPRESSION {method}")


def lz4(apps: Any, schema_editor: Any) -> None:
    _compression(apps, schema_editor, "lz4")


def server_default(apps: Any, schema_editor: Any) -> None:
    _compression(apps, schema_editor, "default")


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0015_table_tutorial"),
    ]

    operations = [migrations.RunPython(lz4, server_default)]

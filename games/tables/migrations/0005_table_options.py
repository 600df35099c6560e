"""Kilforth's seven option columns become Table.options (JSON), carried over for existing tables.

The column chapter_cost_by_number is stored under the engine's own name, chapter_cost_2x.
"""

from django.db import migrations, models

OPTION_COLUMNS = [
    "edition",
    "mode",
    "difficulty",
    "auto_evasion",
    "chapter_cost_by_number",
    "open_hands",
    "saga_allocation",
]

RENAMED = {"chapter_cost_by_number": "chapter_cost_2x"}


def columns_to_options(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.all().only("pk", *OPTION_COLUMNS):
        options = {RENAMED.get(name, name): getattr(table, name) for name in OPTION_COLUMNS}
        Table.objects.filter(pk=table.pk).update(options=options)


def options_to_columns(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    for table in Table.objects.all().only("pk", "options"):
        back = {new: old for old, new in RENAMED.items()}
        options = {back.get(k, k): v for k, v in (table.options or {}).items()}
        known = {k: v for k, v in options.items() if k in OPTION_COLUMNS}
        Table.objects.filter(pk=table.pk).update(**known)


class Migration(migrations.Migration):
    dependencies = [("tables", "0004_game_kit")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(columns_to_options, options_to_columns),
        *(migrations.RemoveField(model_name="table", name=name) for name in OPTION_COLUMNS),
    ]

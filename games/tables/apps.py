from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "games.tables"
    label = "tables"
    verbose_name = "Lobby and tables"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the login hook that carries guest seats over)

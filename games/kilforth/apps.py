from django.apps import AppConfig


class KilforthConfig(AppConfig):
    name = "games.kilforth"
    label = "kilforth"
    verbose_name = "Kilforth rules engine"

    def ready(self) -> None:
        from games.kilforth.kit import KIT
        from games.tables import kits

        kits.register(KIT)

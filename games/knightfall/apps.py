from django.apps import AppConfig


class KnightfallConfig(AppConfig):
    """Knight Fall: its engine, content, board templates and its game kit."""

    name = "games.knightfall"
    label = "knightfall"
    verbose_name = "Knight Fall"

    def ready(self) -> None:
        from games.knightfall.kit import KIT
        from games.tables import kits

        kits.register(KIT)

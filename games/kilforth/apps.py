from django.apps import AppConfig


class KilforthConfig(AppConfig):
    name = "games.kilforth"
    label = "kilforth"
    verbose_name = "Kilforth rules engine"

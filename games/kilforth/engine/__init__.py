"""Kilforth rules engine: pure Python, no Django.

Public interface: Settings, new_game, legal, act, view, State, IllegalAction, Choice.
See docs/engine.md.
"""

from .api import Choice, act, legal
from .cards import ContentError, content
from .settings import Settings, SettingsError
from .setup import new_game
from .state import IllegalAction, State
from .steps import load_all
from .view import view

load_all()

__all__ = [
    "Choice",
    "ContentError",
    "IllegalAction",
    "Settings",
    "SettingsError",
    "State",
    "act",
    "content",
    "legal",
    "new_game",
    "view",
]

"""Kilforth rules engine: pure Python, no Django.

Public interface: Settings, new_game, legal, act, view (with public_facts, made once for
several views of one state), new_events, State, IllegalAction, Choice.
See docs/engine.md.
"""

from games.kilforth.engine.api import Choice, act, legal
from games.kilforth.engine.cards.catalogue import ContentError, content
from games.kilforth.engine.cards.steps import load_all
from games.kilforth.engine.rules.setup import new_game
from games.kilforth.engine.settings import Settings, SettingsError
from games.kilforth.engine.state import IllegalAction, State, new_events
from games.kilforth.engine.view import public_facts, view

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
    "new_events",
    "new_game",
    "public_facts",
    "view",
]

"""Template helpers for Knight Fall's pre-game prompt."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.simple_tag
def kf_team(table: Any, number: int) -> str:
    """The team (knights / demons) the engine will deal to seat `number` at `table`."""
    from games.knightfall.kit import teams

    dealt = teams(table.options or {}, table.seat_count)
    return dealt[number] if 0 <= number < len(dealt) else ""

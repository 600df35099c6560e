"""Template helpers for the Kilforth board as Django tags and filters: icons, dice, help tips and
card names (the gallery, the hero choice and the pages use them).

The helpers themselves live in `games/kilforth/board/html.py`, shared with the Jinja2 templates of
the board. Tips need ids unique within one rendered fragment; a counter lives in the root of the
render_context (fresh for every render), so the output depends only on the input.
"""

from __future__ import annotations

from django import template

from games.kilforth.board import html

register = template.Library()

register.filter("card_name", html.card_name)
register.filter("kb_id", html.kb_id)
register.filter("plural", html.plural)


@register.simple_tag
def kb_icon(name: str, css: str = "") -> str:
    """A decorative icon from the board's inline sprite (always paired with text)."""
    return html.icon(name, css)


@register.simple_tag
def kb_die(face: int, hit: bool = False) -> str:
    """One die drawn with its pips; the label says the face and whether it succeeded."""
    return html.die(face, hit)


@register.simple_tag(takes_context=True)
def kb_tip(context: template.Context, term: str | None, label: str = "") -> str:
    """A '?' button whose explanation shows on hover, focus and tap (CSS only)."""
    if not html.has_tip(term):
        return ""
    # One counter for the whole render (included templates share the root render context).
    root = context.render_context.dicts[0]
    n = root.get("kb_tip_n", 0) + 1
    root["kb_tip_n"] = n
    # A board part is rendered on its own (board/parts.py): its ids carry its name to stay unique.
    return html.tip(term, label, context.get("part_id") or "kb", n)

"""Template helpers for the Kilforth board: icons, dice, help tips and card names.

Tips need ids unique within one rendered fragment; a counter lives in the root of the
render_context (fresh for every render), so the output depends only on the input.
"""

from __future__ import annotations

import re

from django import template
from django.utils.html import format_html

from games.kilforth.board import rules_help
from games.kilforth.board.card_facts import card_name as _card_name

register = template.Library()

PIPS = {
    1: ((12, 12),),
    2: ((7, 7), (17, 17)),
    3: ((7, 7), (12, 12), (17, 17)),
    4: ((7, 7), (17, 7), (7, 17), (17, 17)),
    5: ((7, 7), (17, 7), (12, 12), (7, 17), (17, 17)),
    6: ((7, 7), (17, 7), (7, 12), (17, 12), (7, 17), (17, 17)),
}


@register.filter
def card_name(cid: str | None) -> str:
    """{{ "e.crag_harpy"|card_name }} -> Crag Harpy."""
    return _card_name(cid)


@register.simple_tag
def kb_icon(name: str, css: str = "") -> str:
    """A decorative icon from the board's inline sprite (always paired with text)."""
    return format_html(
        '<svg class="ic{}" aria-hidden="true"><use href="#kb-i-{}"/></svg>',
        " " + css if css else "",
        name,
    )


@register.simple_tag
def kb_die(face: int, hit: bool = False) -> str:
    """One die drawn with its pips; the label says the face and whether it succeeded."""
    label = f"{face}, success" if hit else f"{face}"
    if face not in PIPS:
        return format_html(
            '<span class="die{}" role="img" aria-label="{}">{}</span>',
            " hit" if hit else "",
            label,
            face,
        )
    return format_html(
        '<svg class="die{}" viewBox="0 0 24 24" role="img" aria-label="{}"><title>{}</title>'
        '<use href="#kb-d{}"/></svg>',
        " hit" if hit else "",
        label,
        label,
        face,
    )


@register.simple_tag(takes_context=True)
def kb_tip(context: template.Context, term: str | None, label: str = "") -> str:
    """A '?' button whose explanation shows on hover, focus and tap (CSS only)."""
    entry = rules_help.help_for(term) if term else None
    if entry is None:
        return ""
    # One counter for the whole render (included templates share the root render context).
    root = context.render_context.dicts[0]
    n = root.get("kb_tip_n", 0) + 1
    root["kb_tip_n"] = n
    # A board part is rendered on its own (board/parts.py): its ids carry its name to stay unique.
    scope = context.get("part_id") or "kb"
    title, text = entry
    return format_html(
        '<span class="tip"><button type="button" class="tip-btn" aria-describedby="{}-tip-{}"'
        ' aria-label="Rules help: {}">?</button><span class="tip-text" role="tooltip"'
        ' id="{}-tip-{}"><strong>{}</strong> {}</span></span>',
        scope,
        n,
        label or title,
        scope,
        n,
        title,
        text,
    )


@register.filter
def kb_id(key: str) -> str:
    """A choice key as a stable id fragment: 'move:s.dark_pinnacle' -> 'move-s-dark_pinnacle'."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", str(key))


@register.filter
def plural(n: int, word: str) -> str:
    """{{ 3|plural:"card" }} -> 3 cards."""
    if "," in word:
        one, many = word.split(",", 1)
    else:
        one, many = word, word + "s"
    return f"{n} {one if n == 1 else many}"

"""The board's small HTML helpers (icons, dice, help tips, ids), shared by both template engines.

One implementation each, registered twice: as Django tags and filters
(`games/kilforth/templatetags/kilforth_board.py`, for the gallery, hero choice and pages) and as
Jinja2 globals and filters (`games/kilforth/board/jinja.py`, for the board's parts). Each returns
`Markup`, which both engines print unescaped; everything inside is escaped the way Django escapes
(`format_html`), so the two engines give the same bytes.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.utils.html import format_html
from markupsafe import Markup

from . import rules_help
from .card_facts import card_name as _card_name

PIPS = {
    1: ((12, 12),),
    2: ((7, 7), (17, 17)),
    3: ((7, 7), (12, 12), (17, 17)),
    4: ((7, 7), (17, 7), (7, 17), (17, 17)),
    5: ((7, 7), (17, 7), (12, 12), (7, 17), (17, 17)),
    6: ((7, 7), (17, 7), (7, 12), (17, 12), (7, 17), (17, 17)),
}
_NOT_ID = re.compile(r"[^A-Za-z0-9_-]")


def card_name(cid: str | None) -> str:
    """ "e.crag_harpy" -> Crag Harpy."""
    return _card_name(cid)


@lru_cache(maxsize=256)
def icon(name: str, css: str = "") -> Markup:
    """A decorative icon from the board's inline sprite (always paired with text)."""
    return Markup(
        format_html(
            '<svg class="ic{}" aria-hidden="true"><use href="#kb-i-{}"/></svg>',
            " " + css if css else "",
            name,
        )
    )


@lru_cache(maxsize=64)
def die(face: int, hit: bool = False) -> Markup:
    """One die drawn with its pips; the label says the face and whether it succeeded."""
    label = f"{face}, success" if hit else f"{face}"
    if face not in PIPS:
        return Markup(
            format_html(
                '<span class="die{}" role="img" aria-label="{}">{}</span>',
                " hit" if hit else "",
                label,
                face,
            )
        )
    return Markup(
        format_html(
            '<svg class="die{}" viewBox="0 0 24 24" role="img" aria-label="{}"><title>{}</title>'
            '<use href="#kb-d{}"/></svg>',
            " hit" if hit else "",
            label,
            label,
            face,
        )
    )


def has_tip(term: str | None) -> bool:
    """Whether `term` has a rules-help entry (a tip takes a number only then)."""
    return bool(term) and rules_help.help_for(term) is not None


@lru_cache(maxsize=1024)
def tip(term: str, label: str, scope: str, n: int) -> Markup:
    """A '?' button whose explanation shows on hover, focus and tap (CSS only).

    Its ids are `<scope>-tip-<n>`: `n` counts the tips of one rendered fragment, `scope` names
    the fragment (a board part is rendered on its own, board/parts.py).
    """
    entry = rules_help.help_for(term)
    if entry is None:
        return Markup("")
    title, text = entry
    return Markup(
        format_html(
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
    )


def kb_id(key: str) -> str:
    """A choice key as a stable id fragment: 'move:s.dark_pinnacle' -> 'move-s-dark_pinnacle'."""
    return _NOT_ID.sub("-", str(key))


def plural(n: int, word: str) -> str:
    """3, "card" -> 3 cards; 1, "success,successes" -> 1 success."""
    if "," in word:
        one, many = word.split(",", 1)
    else:
        one, many = word, word + "s"
    return f"{n} {one if n == 1 else many}"

"""The Jinja2 environment of the board's templates (jinja_templates/kilforth/, see board/parts.py).

The board's parts are re-rendered for every viewer after every decision, so they use the faster
engine: the platform's environment (games/tables/jinja.py: Django's escaping, lookups and
filters) with the board's own globals and filters. tests/board/test_jinja_templates.py holds
them to Django's output; bench/board_engines.py (in git history) compared the two engines' whole
boards.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import Environment, pass_context, pass_environment
from jinja2.runtime import Context
from markupsafe import Markup

from games.tables.jinja import environment as site_environment

from . import html


@pass_context
def kb_tip(context: Context, term: str | None, label: str = "") -> Markup:
    """A rules-help tip; its ids count the tips of this render and carry the part's name."""
    if not html.has_tip(term):
        return Markup("")
    # A fresh Context for every render (and for every include: no included template has tips).
    n = context.vars.get("_kb_tip_n", 0) + 1
    context.vars["_kb_tip_n"] = n
    return html.tip(term, label, context.get("part_id") or "kb", n)


@pass_environment
def kb_minicard(
    env: Environment,
    pid: str,
    name: str,
    small: object,
    gold: object = None,
    veiled: bool = False,
    kind: str = "",
    text: str = "",
    keywords: list | tuple | None = None,
    where: str = "",
    extra: str = "",
) -> Markup:
    """One card of a hero's panel, its button and its popover (`kilforth/_minicard.html`),
    kept by everything it shows: a panel is made again when any of its hero's numbers change,
    and its cards are most often the same as before (a panel holds a dozen; each was a macro
    call, which cost more than the rest of the panel's template)."""
    args = (pid, name, small, gold, veiled, kind, text, keywords, where, extra)
    if isinstance(keywords, list):
        args = (*args[:7], tuple(keywords), *args[8:])
    try:
        return _minicard(env, *args)
    except TypeError:  # a value that cannot be a key: made afresh
        return _minicard.__wrapped__(env, *args)


MINICARDS_KEPT = 1024


@lru_cache(maxsize=MINICARDS_KEPT, typed=True)  # typed: 0, False and "" print differently
def _minicard(env: Environment, *args: object) -> Markup:
    names = ("pid", "name", "small", "gold", "veiled", "kind", "text", "keywords", "where", "extra")
    html = env.get_template("kilforth/_minicard.html").render(dict(zip(names, args, strict=True)))
    return Markup(html)


def environment(**options: Any) -> Environment:
    """The environment Django's Jinja2 backend builds (settings.TEMPLATES, "jinja2"): the
    platform's (games/tables/jinja.py) with the board's globals and filters."""
    env = site_environment(**options)
    env.globals.update(kb_icon=html.icon, kb_die=html.die, kb_tip=kb_tip, kb_minicard=kb_minicard)
    env.filters.update(card_name=html.card_name, kb_id=html.kb_id, plural=html.plural)
    return env

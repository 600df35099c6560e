"""The Jinja2 environment of the board's templates (jinja_templates/kilforth/, see board/parts.py).

Django renders the rest of the site; the board's parts are re-rendered for every viewer after every
decision, so they use the faster engine. Their output is byte for byte what Django's templates
gave: values are escaped as Django escapes them (`&#x27;`, `&quot;`, where MarkupSafe writes
`&#39;`, `&#34;`), and the few filters the templates use keep Django's meaning (`default` and
`capfirst` differ in Jinja2, `join` escapes its items as Django does, `pluralize` is Django's).
"""

from __future__ import annotations

from typing import Any

from django.template import defaultfilters
from django.utils.html import conditional_escape
from jinja2 import Environment, Undefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

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


def join(value: Any, separator: str) -> str:
    """Django's `join`: items escaped; the separator is a literal of the template, so, as in
    Django, not escaped."""
    return defaultfilters.join(value, Markup(separator))


def _finalize(value: Any) -> Any:
    # Escaped as Django escapes; MarkupSafe then leaves the result (it has __html__) as it is.
    return conditional_escape(value)


def environment(**options: Any) -> Environment:
    """The environment Django's Jinja2 backend builds (settings.TEMPLATES, "jinja2")."""
    options.setdefault("keep_trailing_newline", True)
    # Django's backend picks DebugUndefined in DEBUG, which prints "{{ name }}" for a missing
    # name; Django's templates print nothing.
    options["undefined"] = Undefined
    env = Environment(finalize=_finalize, **options)
    env.globals.update(kb_icon=html.icon, kb_die=html.die, kb_tip=kb_tip)
    env.filters.update(
        card_name=html.card_name,
        kb_id=html.kb_id,
        plural=html.plural,
        # Django's meanings: `default` replaces any false value, `capfirst` keeps the rest as it
        # is, `join` escapes the items as Django does.
        default=defaultfilters.default,
        capfirst=defaultfilters.capfirst,
        join=join,
        pluralize=defaultfilters.pluralize,
    )
    return env

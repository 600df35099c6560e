"""The Jinja2 environment of the board's templates (jinja_templates/kilforth/, see board/parts.py).

Django renders the rest of the site; the board's parts are re-rendered for every viewer after every
decision, so they use the faster engine. Their output is byte for byte what Django's templates
gave: printed values are escaped as Django escapes them (`&#x27;`, `&quot;`, where MarkupSafe
writes `&#39;`, `&#34;`), a dotted name is a key before an attribute, and the few filters the
templates use keep Django's meaning (`default` and `capfirst` differ in Jinja2, `join` escapes its
items as Django does, `pluralize` is Django's). tests/board/test_jinja_templates.py holds them to
it; bench/board_engines.py (in git history) compared the two engines' whole boards.
"""

from __future__ import annotations

from html import escape
from types import CodeType
from typing import Any

from django.template import defaultfilters
from jinja2 import Environment, Template, Undefined, pass_context
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


def _escape(value: Any) -> str:
    """What a template prints, escaped as Django's conditional_escape escapes it (html.escape is
    Django's escape); MarkupSafe's escape writes &#39; and &#34; where Django writes &#x27; and
    &quot;. The pieces are joined into the rendered string, so a plain str will do."""
    if value.__class__ is str:
        return escape(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))


class DjangoEscapingTemplate(Template):
    """A template whose printed values go through `_escape` rather than MarkupSafe's escape."""

    @classmethod
    def from_code(
        cls, environment: Environment, code: CodeType, globals: Any, uptodate: Any = None
    ) -> Template:
        rv = super().from_code(environment, code, globals, uptodate)
        # The compiled module prints `escape(value)` with the `escape` of its own globals.
        rv.root_render_func.__globals__["escape"] = _escape
        return rv


class BoardEnvironment(Environment):
    """Looks a dotted name up as a key first, as Django does (the board's contexts are dicts:
    Jinja2 would try, and fail, an attribute first)."""

    template_class = DjangoEscapingTemplate

    def make_globals(self, d: Any) -> Any:
        """A template's globals as one plain dict, not Jinja2's ChainMap over the environment's:
        every render copies them into its context, and iterating a ChainMap cost more than
        a small part's whole render. The environment's globals are all set before any template
        loads (`environment`), so nothing is missed."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if obj.__class__ is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options: Any) -> Environment:
    """The environment Django's Jinja2 backend builds (settings.TEMPLATES, "jinja2")."""
    options.setdefault("keep_trailing_newline", True)
    # Django's backend picks DebugUndefined in DEBUG, which prints "{{ name }}" for a missing
    # name; Django's templates print nothing.
    options["undefined"] = Undefined
    env = BoardEnvironment(**options)
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

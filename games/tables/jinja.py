"""The site's Jinja2 environment, for the templates rendered for every viewer after every change
(jinja_templates/: the live part of a table page, a kit's board parts). Django renders the rest.

Their output is byte for byte what Django's templates give (but that a printed character beyond
ASCII comes as a character reference: `_escape`): printed values are escaped as Django
escapes them (`&#x27;`, `&quot;`, where MarkupSafe writes `&#39;`, `&#34;`), a dotted name is a
key before an attribute, and the filters the templates use keep Django's meaning (`default` and
`capfirst` differ in Jinja2, `join` escapes its items as Django does; `pluralize`, `urlencode`,
`date` and `time` are Django's, `epoch_ms` the site's own). `url(name, *args)` is Django's
`{% url %}`. A kit adds its own globals and filters in an environment function of its own that
starts from `environment` here (settings.TEMPLATES names it).
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from types import CodeType
from typing import Any

from django.conf import settings
from django.template import defaultfilters
from django.urls import get_script_prefix, get_urlconf, reverse
from jinja2 import Environment, Template, Undefined
from markupsafe import Markup

from .frames import ascii_html


def join(value: Any, separator: str) -> Any:
    """Django's `join`: items escaped as `conditional_escape` escapes them (`_escape`), safe
    HTML; the separator is a literal of the template, so, as in Django, not escaped; a value
    that is not iterable is given back as it is. (Django's own filter went through its lazy
    string wrappers for every item: a tenth of a board part's render.)"""
    try:
        return Markup(separator.join([_escape(item) for item in value]))
    except TypeError:
        return value


def _escape(value: Any) -> str:
    """What a template prints, escaped as Django's conditional_escape escapes it (html.escape is
    Django's escape); MarkupSafe's escape writes &#39; and &#34; where Django writes &#x27; and
    &quot;. The pieces are joined into the rendered string, so a plain str will do.

    A character beyond ASCII (a name's accent, an emoji) is written as a character reference:
    the same text in the browser, and the frames stay ASCII (frames.ascii_html says why).

    Short plain strings and numbers are kept escaped (`_escaped`): the templates print the same
    few thousand names, labels and numbers in every render."""
    cls = value.__class__
    if (cls is str and len(value) <= ESCAPED_LENGTH) or cls is int:
        return _escaped(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return ascii_html(escape(str(value)))


# `_escaped` keeps at most ESCAPES_KEPT values of at most ESCAPED_LENGTH characters (a few MiB).
ESCAPED_LENGTH = 120
ESCAPES_KEPT = 16384


@lru_cache(maxsize=ESCAPES_KEPT, typed=True)
def _escaped(value: str | int) -> str:
    return ascii_html(escape(value if value.__class__ is str else str(value)))


def url(name: str, *args: Any) -> str:
    """Django's `{% url name arg ... %}`, kept per URL configuration and script prefix (a board
    asks for the same few addresses in every render; reversing one walks Django's resolver)."""
    return _reversed(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF, name, args)


def bound_url() -> Any:
    """`url` with the script prefix and URL configuration read now, once: for a template that
    asks for several addresses in one render (given as its `url`). Each read of them goes
    through asgiref's context-local storage, which cost more than the cached reverse itself."""
    prefix, urlconf = get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF

    def url(name: str, *args: Any) -> str:
        return _reversed(prefix, urlconf, name, args)

    return url


@lru_cache(maxsize=4096)
def _reversed(prefix: str, urlconf: Any, name: str, args: tuple) -> str:
    return reverse(name, args=args, urlconf=urlconf)


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


class SiteEnvironment(Environment):
    """Looks a dotted name up as a key first, as Django does (most contexts are dicts: Jinja2
    would try, and fail, an attribute first)."""

    template_class = DjangoEscapingTemplate

    def make_globals(self, d: Any) -> Any:
        """A template's globals as one plain dict, not Jinja2's ChainMap over the environment's:
        every render copies them into its context, and iterating a ChainMap cost more than
        a small part's whole render. The environment's globals are all set before any template
        loads (the environment functions), so nothing is missed."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if obj.__class__ is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options: Any) -> Environment:
    """The platform's environment (a kit's environment function builds on it)."""
    options.setdefault("keep_trailing_newline", True)
    # Django's backend picks DebugUndefined in DEBUG, which prints "{{ name }}" for a missing
    # name; Django's templates print nothing.
    options["undefined"] = Undefined
    from .templatetags.tables_extras import epoch_ms  # the site's own filters (after apps load)

    env = SiteEnvironment(**options)
    env.globals.update(url=url)
    env.filters.update(
        default=defaultfilters.default,
        capfirst=defaultfilters.capfirst,
        join=join,
        pluralize=defaultfilters.pluralize,
        urlencode=defaultfilters.urlencode,
        date=defaultfilters.date,
        time=defaultfilters.time,
        epoch_ms=epoch_ms,
    )
    return env

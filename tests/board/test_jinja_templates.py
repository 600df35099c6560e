"""The board's Jinja2 templates print what Django's templates printed, byte for byte.

The board's parts are Jinja2 (jinja_templates/kilforth/, board/jinja.py); the rest of the site is
Django's. Both engines share the helpers (board/html.py), escape the same way and read the
filters the same way, so a helper or a filter gives the same bytes in either engine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template, engines
from django.utils.safestring import mark_safe
from jinja2 import DebugUndefined

from games.kilforth.board import render_board
from games.kilforth.board.jinja import environment
from games.kilforth.engine import view

from .games import sample


def jinja(source: str, **context: object) -> str:
    return engines["jinja2"].env.from_string(source).render(context)


def django(source: str, **context: object) -> str:
    return Template("{% load kilforth_board %}" + source).render(Context(context))


AWKWARD = 'O\'Neil & "Sons" <b>'


@pytest.mark.parametrize(
    ("django_source", "jinja_source", "context"),
    [
        ("{{ x }}", "{{ x }}", {"x": AWKWARD}),
        (
            "{{ x }}|{{ n }}|{{ b }}|{{ missing }}",
            "{{ x }}|{{ n }}|{{ b }}|{{ missing }}",
            {"x": None, "n": 12345, "b": True},
        ),
        (
            '{{ x|default:"plain" }}{{ y|default:"plain" }}',
            '{{ x|default("plain") }}{{ y|default("plain") }}',
            {"x": "", "y": AWKWARD},
        ),
        (
            "{{ xs }}|{{ s }}|{{ d.items }}|{{ d.values.0 }}",
            '{{ xs }}|{{ s }}|{{ d.items }}|{{ d["values"][0] }}',
            {"xs": [AWKWARD, 2], "s": mark_safe("<i>x</i>"), "d": {"items": "i", "values": "v"}},
        ),
        ("{{ x|capfirst }}", "{{ x|capfirst }}", {"x": "fight BIG"}),
        ('{{ xs|join:" & " }}', '{{ xs|join(" & ") }}', {"xs": [AWKWARD, "b"]}),
        ('{{ xs|join:", " }}', '{{ xs|join(", ") }}', {"xs": [mark_safe("<i>a</i>"), 3, AWKWARD]}),
        (
            '{{ n|join:", " }}|{{ e|join:"-" }}',
            '{{ n|join(", ") }}|{{ e|join("-") }}',
            {"n": 5, "e": []},
        ),
        (
            '{% url "lobby" %} {% url "replay" s %} {% url "take_seat" s 2 %}',
            '{{ url("lobby") }} {{ url("replay", s) }} {{ url("take_seat", s, 2) }}',
            {"s": "abc-123"},
        ),
        (
            "{{ xs|length|pluralize }}{{ ys|length|pluralize }}",
            "{{ xs|length|pluralize }}{{ ys|length|pluralize }}",
            {"xs": [1], "ys": [1, 2]},
        ),
        (
            '{{ 1|plural:"success,successes" }} {{ 3|plural:"card" }}',
            '{{ 1|plural("success,successes") }} {{ 3|plural("card") }}',
            {},
        ),
        (
            "{{ k|kb_id }} {{ c|card_name }}",
            "{{ k|kb_id }} {{ c|card_name }}",
            {"k": "move:s.dark_pinnacle", "c": "e.crag_harpy"},
        ),
        (
            '{% kb_icon "gold" %}{% kb_icon t "big" %}',
            '{{ kb_icon("gold") }}{{ kb_icon(t, "big") }}',
            {"t": "forest"},
        ),
        (
            "{% kb_die 5 True %}{% kb_die 2 %}{% kb_die 9 %}",
            "{{ kb_die(5, True) }}{{ kb_die(2) }}{{ kb_die(9) }}",
            {},
        ),
        # Tips count within one render; a term without help takes no number.
        (
            '{% kb_tip "hp" %}{% kb_tip "no-such-term" %}{% kb_tip "gloom" "Gloom" %}'
            "{% kb_tip t %}",
            '{{ kb_tip("hp") }}{{ kb_tip("no-such-term") }}{{ kb_tip("gloom", "Gloom") }}'
            "{{ kb_tip(t) }}",
            {"part_id": "kb-x", "t": "ap"},
        ),
        ('{% kb_tip "hp" %}', '{{ kb_tip("hp") }}', {}),
    ],
)
def test_a_helper_or_filter_prints_the_same_bytes_in_both_engines(
    django_source, jinja_source, context
):
    expected = django(django_source, **context)
    assert jinja(jinja_source, **context) == expected
    assert expected  # something was printed


def test_text_on_the_board_is_escaped_as_django_escapes_it():
    state = sample("gloom", "competitive", 2)[3]
    html = render_board(
        view(state, 1),
        viewer=1,
        players={0: AWKWARD, 1: "Bea"},
        online={0},
        table_slug="t",
    )
    assert "O&#x27;Neil &amp; &quot;Sons&quot; &lt;b&gt;" in html
    assert "&#39;" not in html and "&#34;" not in html
    assert "<b>" not in html


@pytest.mark.parametrize(
    "value",
    [
        'O\'Neil & "Sons" <b>',
        "x" * 119 + "<",  # kept escaped
        "<" + "x" * 500,  # too long to keep
        7,
        True,
        2.5,
        None,
        "Zoë's café",
        mark_safe("<i>safe</i>"),
    ],
)
def test_a_printed_value_is_escaped_as_django_escapes_it_the_first_time_and_every_time(value):
    template = environment(autoescape=True).from_string("[{{ v }}]")
    expected = django("[{{ v }}]", v=value).encode("ascii", "xmlcharrefreplace").decode()
    assert template.render(v=value) == expected
    assert template.render(v=value) == expected  # once kept


def test_a_missing_name_prints_nothing_even_with_debug_undefined():
    # Django's backend asks for DebugUndefined in DEBUG ("{{ name }}" printed for a typo).
    env = environment(undefined=DebugUndefined, autoescape=True)
    assert env.from_string("[{{ nothing }}][{{ h.nothing }}]").render(h={}) == "[][]"


def test_every_template_a_django_template_includes_or_extends_is_a_django_template():
    # The board's parts moved to Jinja2; the gallery, hero choice and pages stay on Django's.
    name = re.compile(r"""\{%\s*(?:include|extends)\s+["']([^"']+)["']""")
    django_engine = engines["django"]
    roots = [
        Path(d)
        for t in settings.TEMPLATES
        if t["BACKEND"].endswith("DjangoTemplates")
        for d in t["DIRS"]
    ]
    named = set()
    for root in roots:
        for path in root.rglob("*.html"):
            named.update(name.findall(path.read_text(encoding="utf-8")))
            django_engine.get_template(str(path.relative_to(root)))  # and it compiles
    assert named
    for template in sorted(named):
        django_engine.get_template(template)


def test_every_board_template_compiles():
    env = engines["jinja2"].env
    names = env.list_templates()
    assert "kilforth/board.html" in names
    for template in names:
        env.get_template(template)


def test_an_address_follows_the_script_prefix_it_is_served_under():
    # Addresses are kept once reversed (games/tables/jinja.py): per prefix, not across them.
    from django.urls import get_script_prefix, set_script_prefix

    before = get_script_prefix()
    try:
        assert jinja('{{ url("replay", "t1") }}') == "/t/t1/replay/"
        set_script_prefix("/games/")
        assert jinja('{{ url("replay", "t1") }}') == "/games/t/t1/replay/"
    finally:
        set_script_prefix(before)
    assert jinja('{{ url("replay", "t1") }}') == "/t/t1/replay/"


def test_a_heros_card_is_kept_by_all_it_shows_and_printed_as_its_template_prints_it():
    env = engines["jinja2"].env
    template = env.get_template("kilforth/_minicard.html")
    card = {
        "pid": "kb-hero-card-1-a0",
        "name": AWKWARD,
        "small": "+1 Might",
        "gold": 3,
        "veiled": False,
        "kind": "asset",
        "text": "Strike <twice>",
        "keywords": ["iron", "blade"],
        "where": "",
        "extra": "minicard",
    }
    call = "{{ kb_minicard(pid=c.pid, name=c.name, small=c.small, gold=c.gold, veiled=c.veiled, kind=c.kind, text=c.text, keywords=c.keywords, where=c.where, extra=c.extra) }}"  # noqa: E501
    first = jinja(call, c=card)
    assert first == template.render(card)
    assert "&lt;twice&gt;" in first and "Keywords: iron, blade" in first and "3g" in first
    assert jinja(call, c=card) == first, "the same card, kept"
    # Kept by value and type: 1 and True are equal keys to a plain cache, but print apart.
    for small, shown in ((1, "<small>1</small>"), (True, "<small>True</small>"), (0, ""), ("", "")):
        printed = jinja(call, c=dict(card, small=small, gold=0))
        assert printed == template.render(dict(card, small=small, gold=0))
        assert (shown in printed) if shown else ("<small>" not in printed)

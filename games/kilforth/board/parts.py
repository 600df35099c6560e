"""The board's changing parts, each rendered from its own slice of the context and memoized.

A decision changes little of the board: on average 1.4 of the 25 map cells and 1.8 of the hero
panels (docs/benchmarks.md). Each part below is a pure function of the context slice it is given
(its template sees nothing else), so its HTML is memoized by that slice: the four seat views and
the spectator view of one version share every public part, and the next version re-renders only
what changed.

Each part is wrapped in `<!--[id-->...<!--]-->` markers around one element carrying that id. The
tables app reads the markers to send a socket only the parts that changed since its last frame
(`games/tables/frames.py`); in a page they are inert comments.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from threading import Lock
from typing import NamedTuple

import orjson
from django.template import engines
from django.utils.safestring import SafeString
from jinja2 import Environment

from games.tables.frames import slot

from .log_text import LogRow, LogTail, event_day, json_key

# Bounded: up to 2 KB per entry (cells, hero panels, panels, log rows).
PARTS_KEPT = 8192
_memo: OrderedDict[tuple[str, str], str] = OrderedDict()
_lock = Lock()


@cache
def _jinja() -> Environment:
    return engines["jinja2"].env


def render(template: str, context: dict) -> SafeString:
    """`template` (under jinja_templates/; Jinja2, escaping as Django: board/jinja.py), safe HTML
    as Django's render_to_string gives (pages put the board in Django templates)."""
    return SafeString(_jinja().get_template(template).render(context))  # autoescaped


def snippet(template: str, **context: object) -> SafeString:
    """`template` rendered with only `context`, memoized by that context.

    The key is the context slice itself where it is hashable (scalars, tuples of rendered rows),
    else its JSON (`_key`): views are plain dicts, lists and scalars built in the same order
    every time, so equal slices have equal keys.
    """
    key = (template, tuple((k, _key(v)) for k, v in sorted(context.items())))
    html = _recent(_memo, key)
    if html is None:
        # Kept safe: a part is asked for thousands of times per render of it.
        html = SafeString(render(template, context).strip())
        _keep_recent(_memo, key, html, PARTS_KEPT)
    return html


def _recent(kept: OrderedDict, key: tuple) -> SafeString | None:
    """The HTML kept in `kept` for `key` (None if there is none), now the most recently used."""
    with _lock:
        html = kept.get(key)
        if html is not None:
            kept.move_to_end(key)
        return html


def _keep_recent(kept: OrderedDict, key: tuple, html: SafeString, bound: int) -> None:
    """Keep `html` for `key`; the least recently used beyond `bound` go. (Made outside the
    lock: two threads that make the same at once keep the same HTML.)"""
    with _lock:
        kept[key] = html
        while len(kept) > bound:
            kept.popitem(last=False)


def _key(value: object) -> object:
    # Strings and tuples of strings (rendered rows) hash as they are, their hashes cached on the
    # strings; anything else by its JSON (orjson: several times faster than its repr), which
    # keeps apart what a template tells apart (a SafeString from a str, a set's members).
    if isinstance(value, str | int | bool | None) or type(value) is tuple:
        return value
    try:
        return json_key(value, _KEY_OPTIONS, _plain)
    except TypeError:
        return repr(value)


_KEY_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS


def _plain(value: object) -> object:
    """What orjson cannot write itself, for a memo key (anything else: TypeError, so repr)."""
    if isinstance(value, SafeString):
        return ["<safe>", str.__str__(value)]
    if isinstance(value, str):
        return ["<str>", str.__str__(value)]
    if isinstance(value, int):  # an int subclass (bool cannot be subclassed: orjson writes it)
        return ["<int>", int.__int__(value)]
    if isinstance(value, dict):
        return ["<dict>", dict(value)]
    if isinstance(value, list):
        return ["<list>", list(value)]
    if isinstance(value, set | frozenset):
        return ["<set>", sorted(value, key=repr)]
    raise TypeError(type(value).__name__)


# The log's rows go in groups of LOG_GROUP events by the events' numbers in the game's log, in a
# ring of LOG_GROUPS parts: group g is part kb-log-{g % LOG_GROUPS}. A decision logs six events
# or so: it changes the newest group and, when its events start a new one, the part of the
# oldest group, which the new group takes. No part moves, so the board's outline stays the same;
# each group carries its number (`data-group`), the CSS orders the groups newest first
# (`order`), and static/js/log.js puts them in that order in the page too, for reading. The
# board shows whole groups: the newest LOG_GROUPS of them hold at most LOG_GROUP * LOG_GROUPS
# events, which the engine's view (LOG_TAIL newest events) always covers.
#
# The groups hold every viewer's events only (`vis` "all"), so they are the same for every
# viewer of a state, made once for all of them. A seat's own events (what it was asked and
# chose, the cards it drew) are its own part, `kb-log-own` (hidden): log.js places a copy of
# each of its rows among the groups' rows at its place (`LogRow.place`), under its day.
LOG_GROUP = 10
LOG_GROUPS = 6
# Per table (log_text.LogTail.view), the groups its last board showed: (their events, the day
# above them, their part's HTML, its rows newest first). Bounded: up to 6 groups of about 1 KiB
# per table (the events are the states' own objects, the rows the lines' own strings).
RINGS_KEPT = 1024


class Group(NamedTuple):
    """A group of the log as a table's board last showed it."""

    events: tuple | None  # None: the log is empty ("nothing yet" is said)
    above: int | None  # the day of the row above its newest (None: no row)
    body: SafeString
    rows: tuple[SafeString, ...]  # newest first


_rings: OrderedDict[tuple, dict[int, Group]] = OrderedDict()


class OwnRows(NamedTuple):
    """A viewer's own rows as its board last showed them."""

    events: tuple  # its own events the ring spans, newest first
    body: SafeString  # their part
    rows: dict[int, tuple[dict, SafeString]]  # each one's row, by the event (its id)


# Per table and viewer, its own rows its last board showed.
_own_rows: OrderedDict[tuple, OwnRows] = OrderedDict()


def log_groups(log: LogTail) -> tuple[list[tuple[str, SafeString]], SafeString]:
    """The log's parts for one view: (part id, its group of rows) for each part of the ring in
    turn (`kilforth/_log_group.html`: the group's number and its rows newest first), and the
    body of the viewer's own part (`kilforth/_log_own.html`: its own events' rows, newest
    first).

    The groups are every viewer's (`log.view`: the table, its names, its success number): made
    from the events every viewer sees, by the events' numbers, so the four seats and the
    spectators of a state show the same groups, made once (`_rings`). A group is made again
    only when its events or the day of the row above it changed since the table's last board:
    a decision adds its events to the newest group or two, and the others are the strings made
    before, whose hashes Python keeps. A new state shares its log's events with the state
    before (State.clone), so a group's events are most often the same objects, compared at
    once; a state read from its document has equal ones. They are kept here, not in the parts'
    memo, which they would crowd. A row is `kilforth/_log_row.html` rendered with its
    `LogRow`; its HTML is kept on its line (a line never changes, and the viewers who read the
    same sentence share one: log_text._shared), by whether a day heading goes above it. A row
    is the same for every viewer who reads its sentence (it names the seats it is about, and
    the board's CSS marks the viewer's own)."""
    events, numbers, own_at = log.events, log.numbers, log.own
    shown, shown_numbers = events, numbers  # every viewer's events (a spectator sees no other)
    if own_at:
        shown, shown_numbers, after = [], [], 0
        for i in own_at:
            shown += events[after:i]
            shown_numbers += numbers[after:i]
            after = i + 1
        shown += events[after:]
        shown_numbers += numbers[after:]
    newest = shown_numbers[-1] // LOG_GROUP if shown else 0
    with _lock:
        kept = _rings.get(log.view) or {}
    made: dict[int, Group] = {}
    ring: list[tuple[str, SafeString]] = [("", SafeString(""))] * LOG_GROUPS
    hi = len(shown)
    above: int | None = None  # the day of the row above the group's newest (None: no row)
    for back in range(LOG_GROUPS):
        group = newest - back
        part_id = f"kb-log-{group % LOG_GROUPS}"
        lo = bisect_left(shown_numbers, group * LOG_GROUP, 0, hi)  # the group's first event
        group_events = tuple(shown[lo:hi]) if shown else None  # None: "nothing yet" is said
        found = kept.get(group)
        if found is not None and found.events == group_events and found.above == above:
            made[group] = found
        else:
            rows = _group_rows(log, shown, lo, hi, above, _grown(found, group_events))
            body = _group_body(part_id, group, rows, not shown and back == 0)
            made[group] = Group(group_events, above, body, rows)
        ring[group % LOG_GROUPS] = (part_id, made[group].body)
        if lo < hi:
            above = event_day(shown[lo])
        hi = lo
    with _lock:
        _rings[log.view] = made
        _rings.move_to_end(log.view)
        while len(_rings) > RINGS_KEPT:
            _rings.popitem(last=False)
    if not own_at:
        return ring, _no_own()
    # The viewer's own events the ring's groups span, newest first: their part is made again
    # only when they changed since the viewer's last board (`_own_rows`).
    oldest = (newest - LOG_GROUPS + 1) * LOG_GROUP
    mine_at = [i for i in reversed(own_at) if numbers[i] >= oldest]
    own = tuple(events[i] for i in mine_at)
    mine = (log.view, log.viewer)
    with _lock:
        found = _own_rows.get(mine)
    if found is not None and found.events == own:
        return ring, found.body
    # Each row with its place among everyone's: its group, and how many of everyone's events
    # in that group are older (a place that never changes: everyone's later events are newer).
    # The rows shown last are taken as they were (the same events: their lines are not asked
    # again); only the new events' are made.
    shown_rows = found.rows if found is not None else {}
    rows: dict[int, tuple[dict, SafeString]] = {}
    for i in mine_at:
        event = events[i]
        kept = shown_rows.get(id(event))
        if kept is None or kept[0] is not event:
            number = numbers[i]
            group = number // LOG_GROUP
            older = bisect_left(shown_numbers, number) - bisect_left(
                shown_numbers, group * LOG_GROUP
            )
            kept = (event, _row(log, event, False, (group, older)))
        rows[id(event)] = kept
    body = _own_body(tuple(html for _, html in rows.values()))
    with _lock:
        _own_rows[mine] = OwnRows(own, body, rows)
        _own_rows.move_to_end(mine)
        while len(_own_rows) > RINGS_KEPT:
            _own_rows.popitem(last=False)
    return ring, body


def _row(
    log: LogTail, event: dict, new_day: bool, place: tuple[int, int] | None = None
) -> SafeString:
    """`kilforth/_log_row.html` for `event` (`place`: a viewer's own row's, `LogRow.place`),
    kept on its line."""
    line = log.line(event)
    made = line.__dict__.get("_rows")
    if made is None:
        made = line.__dict__["_rows"] = {}
    key = new_day if place is None else place
    html = made.get(key)
    if html is None:
        row = LogRow(line=line, new_day=new_day, day=line.day, place=place)
        html = made[key] = SafeString(render("kilforth/_log_row.html", {"r": row}).strip())
    return html


# The groups' HTML by what it is made of (the groups are every viewer's; a table's views past
# the first take its ring's, and a group is kept here too for a view whose ring was pushed
# out). And a seat's own rows' part, by its rows. Bounded: a few groups per table's newest
# version, about 1-2 KiB each.
GROUPS_KEPT = 512
_groups: OrderedDict[tuple, SafeString] = OrderedDict()


def _group_body(part_id: str, group: int, rows: tuple[SafeString, ...], empty: bool) -> SafeString:
    """`kilforth/_log_group.html` for these rows, made once for every view that shows them."""
    key = (part_id, group, rows, empty)
    body = _recent(_groups, key)
    if body is None:
        joined = SafeString("".join(rows))
        context = {"part_id": part_id, "rows": joined, "group": group, "empty": empty}
        body = SafeString(render("kilforth/_log_group.html", context).strip())
        _keep_recent(_groups, key, body, GROUPS_KEPT)
    return body


def _own_body(rows: tuple[SafeString, ...]) -> SafeString:
    """`kilforth/_log_own.html` for a viewer's own rows, made once for them as they stand."""
    key = ("kb-log-own", rows)
    body = _recent(_groups, key)
    if body is None:
        before, after = _own_around()
        body = SafeString(before + "".join(rows) + after)
        _keep_recent(_groups, key, body, GROUPS_KEPT)
    return body


_ROWS_PLACE = "<!--kilforth-online:rows-->"


@cache
def _no_own() -> SafeString:
    """The own part of a viewer with no event of its own (the spectators': one string)."""
    return SafeString("".join(_own_around()))


@cache
def _own_around() -> tuple[str, str]:
    """`kilforth/_log_own.html` around its rows, read once: a seat's own part is made again
    after most of its decisions, and is only its rows between the two."""
    context = {"part_id": "kb-log-own", "rows": SafeString(_ROWS_PLACE)}
    before, _, after = render("kilforth/_log_own.html", context).strip().partition(_ROWS_PLACE)
    return before, after


def _grown(found: Group | None, group_events: tuple | None) -> Group | None:
    """The group as the board showed it last, if its events are the first of `group_events`
    (the same objects: the newest group, a decision's events added to it, or the group below
    it, the day above it changed); else None (nor for a group that showed no row: there is
    no row of it to keep)."""
    if found is None or found.events is None or group_events is None:
        return None
    old = found.events
    if (
        not old
        or len(old) > len(group_events)
        or not all(a is b for a, b in zip(old, group_events, strict=False))
    ):
        return None
    return found


def _group_rows(
    log: LogTail,
    events: list[dict],
    lo: int,
    hi: int,
    above: int | None,
    before: Group | None = None,
) -> tuple[SafeString, ...]:
    """The rows of `events` lo..hi-1 (every viewer's), newest first; `above`: the day of the
    row above them.

    `before` (`_grown`): the group as shown last, its events the oldest of these. Only the new
    events' rows are made, and the row of the newest event before, whose day heading depends
    on the row now above it (or on `above`); the rows below that are the same as they were."""
    out = []
    prev_day = above
    stop = lo - 1
    if before is not None and before.events is not None:
        stop = lo + len(before.events) - 2  # down to the newest event shown before, included
    for i in range(hi - 1, stop, -1):
        day = event_day(events[i])
        out.append(_row(log, events[i], day != prev_day))
        prev_day = day
    if before is not None:
        out.extend(before.rows[1:])
    return tuple(out)


@lru_cache(maxsize=16)
def _static(template: str, part_id: str, edition: str | None) -> SafeString:
    """A part that is the same in every view of an edition (`edition` None: of every edition),
    made once per process."""
    if edition is None:
        return snippet(template, part_id=part_id)
    return snippet(template, part_id=part_id, edition=edition)


def forget() -> None:
    """Forget every memoized part (a cold start: benchmarks and tests)."""
    with _lock:
        _memo.clear()
        _rings.clear()
        _own_rows.clear()
        _groups.clear()
    _static.cache_clear()
    _presence.cache_clear()
    _own_around.cache_clear()
    _no_own.cache_clear()


@dataclass(frozen=True, slots=True)
class Kept:
    """A part of a view's own taken as the same viewer's view before made it (`render.Own`): in
    the view's context in the place of the item (a cell, a panel) it would be made of."""

    part_id: str
    part: SafeString


class Slots:
    """The board's parts as data: `board.html` is given each part as its empty slot
    (`frames.slot`), and `bodies` keeps what goes in it (`frames.compose` puts it there), so
    the platform reads the parts without searching the board for them."""

    def __init__(self) -> None:
        self.bodies: dict[str, str] = {}

    def fill(self, part_id: str, body: str) -> SafeString:
        self.bodies[part_id] = body
        return slot(part_id)

    def part(self, part_id: str, template: str, **context: object) -> SafeString:
        """A memoized snippet as the part `part_id` (its ids carry that name)."""
        return self.fill(part_id, snippet(template, part_id=part_id, **context))


@lru_cache(maxsize=64)
def _presence(online: tuple[int, ...]) -> SafeString:
    """The presence part for the seats `online` (a few sets of four seats at most)."""
    return snippet("kilforth/_presence.html", part_id="kb-presence", online=online)


def _cell_id(c: dict) -> str:
    return f"kb-loc-{c['index']}"


def _hero_id(h: dict) -> str:
    return f"kb-hero-card-{h['seat']}"


def board_parts(context: dict) -> tuple[dict, Slots]:
    """Every changing part of the board for `board.html`, from the full board context: the
    template's parts (empty slots) and the slots' bodies."""
    status = context["status"]
    ring, own_log = log_groups(context["log"])
    public = context.get("public")
    own_items = context.get("own")
    slots = Slots()
    part = slots.part

    def own(part_id: str, template: str, name: str, item: object, **rest: object) -> SafeString:
        # A part of the view's own (`render.Own`): kept from the viewer's view before when it
        # was made from the same (`Kept`), else made of its item (memoized by its context,
        # `rest` included); recorded as this view's either way.
        if isinstance(item, Kept):
            body = item.part
            html = slots.fill(part_id, body)
        else:
            html = part(part_id, template, **{name: item}, **rest)
            body = slots.bodies[part_id]
        if own_items is not None:
            own_items.parts[part_id] = body
        return html

    def listed(
        items: list[dict],
        shared: list[dict] | None,
        name: str,
        template: str,
        id_of: Callable[[dict], str],
    ) -> list[SafeString]:
        # The map's cells or the heroes' panels: those the view shares with the public layer
        # (`shared`, the same objects) take their parts from it, made once for every view of
        # the state (`Public.listed`); only the view's own are looked up here.
        if public is None or shared is None or len(shared) != len(items):
            return [part(id_of(x), template, **{name: x}) for x in items]
        empty, bodies = public.listed(
            name, shared, id_of, lambda part_id, x: snippet(template, part_id=part_id, **{name: x})
        )
        slots.bodies.update(bodies)
        pairs = enumerate(zip(items, shared, strict=True))
        mine = [i for i, (x, theirs) in pairs if x is not theirs]
        if not mine:
            return empty
        out = list(empty)
        for i in mine:
            item = items[i]
            part_id = item.part_id if isinstance(item, Kept) else id_of(item)
            out[i] = own(part_id, template, name, item)
        return out

    def alike(part_id: str, template: str, **values: object) -> SafeString:
        # A part every viewer of the state sees alike (its values are the public layer's, when
        # there is one): made once for all of them.
        if public is None:
            return part(part_id, template, **values)
        body = public.part(part_id, lambda: snippet(template, part_id=part_id, **values))
        return slots.fill(part_id, body)

    return {
        # Static help (the same in every view of an edition), named for unique tip ids.
        "terms": _static("kilforth/_terms.html", "kb-terms", context["edition"]),
        "legend": _static("kilforth/_legend.html", "kb-legend", None),
        "result": alike("kb-result", "kilforth/_result.html", result=context["result"]),
        "status": alike(
            "kb-status", "kilforth/_status.html", status=status, edition=context["edition"]
        ),
        # Who is online, for every hero's panel to show by (board.css): the only part a
        # socket joining or leaving the table changes.
        "presence": slots.fill("kb-presence", _presence(context["online"])),
        "decision": part(
            "kb-decision",
            "kilforth/_decision.html",
            decision=context["decision"],
            version=context["version"],
        ),
        "dice": own(
            "kb-dice",
            "kilforth/_dice.html",
            "tests",
            context["tests"],
            success_min=context["success_min"],
        ),
        "cells": listed(
            context["cells"], public and public.cells, "c", "kilforth/_cell.html", _cell_id
        ),
        "decks": alike(
            "kb-decks", "kilforth/_decks.html", decks=status["decks"], loot_bag=status["loot_bag"]
        ),
        "night": own("kb-night", "kilforth/_night.html", "night", context["night"]),
        "ancients": alike("kb-ancients", "kilforth/_ancients.html", ancients=context["ancients"]),
        "heroes": listed(
            context["heroes"], public and public.heroes, "h", "kilforth/_hero.html", _hero_id
        ),
        # The hands the viewer sees: its own (the heroes' panels are everyone's).
        "hand": own("kb-hand", "kilforth/_hand.html", "hands", context["hands"]),
        # In a ring of groups by event number (log_groups): a decision changes one or two.
        "log": [slots.fill(part_id, body) for part_id, body in ring],
        # The viewer's own rows, placed among the groups' by log.js (empty: the spectators').
        "log_own": slots.fill("kb-log-own", own_log),
    }, slots

"""The game board as one server-rendered HTML fragment (see docs/board.md).

`render_board(picture, ...)` is a pure function of its arguments: it reads the picture dict (already
filtered for the viewer by the engine) plus public card texts, never the engine state, and puts
nothing per-request (no CSRF token, no session data) in the HTML. Most of the work happens here,
in plain Python, so the templates stay simple and fast.
"""

from __future__ import annotations

import logging
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from threading import Lock
from typing import Any, TypeVar

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from games.kilforth.engine.events import name_people
from games.tables.frames import Skeleton, Unjoined, compose, same_tuple, slot

from . import rules_help
from .card_facts import (
    ATTR_SHORT,
    ATTRS,
    SYMBOL_LABEL,
    TERRAIN_LABEL,
    bonus_of,
    card,
    card_name,
    gold_value,
    keywords_of,
    race_name,
    saga_stage,
)
from .log_text import (
    LogLine,
    LogRow,
    LogTail,
    Names,
    describe_kept,
    describe_scoped,
    event_key,
    faces,
)
from .parts import Kept, board_parts, render

logger = logging.getLogger(__name__)
DAYS = 25
SEAT_COLOURS = ("crimson", "azure", "jade", "violet")
PHASES = {"setup": "Setting up", "daylight": "Daylight", "night": "Night", "over": "Game over"}
ENC_TYPE_LABEL = {
    "enemy": "Enemy",
    "place": "Place",
    "quest": "Quest",
    "stranger": "Stranger",
    "event": "Event",
}


def render_board(
    picture: dict,
    *,
    viewer: int | None,
    players: dict[int, str],
    online: set[int],
    table_slug: str,
    source: object = None,
    joined: bool = True,
) -> str | Unjoined:
    """The whole board for one viewer: one `<div class="kb ...">` (the platform frames it).
    `joined=False`: composed, not joined into one string (`frames.Unjoined`, for a socket).

    `source`: the engine state the picture was made from, when the caller renders several viewers
    of it (a table's seats and spectators): what they all see alike is then made once for that
    state (`Public`), and each view makes only what is its own.

    Should the picture ever surprise the board (the engine keeps evolving), the error is logged and
    a plain fallback board still shows the decision forms, so the game stays playable.
    """
    try:
        context = board_context(
            picture,
            viewer=viewer,
            players=players,
            online=online,
            table_slug=table_slug,
            source=source,
        )
        try:
            parts, slots = board_parts(context)
        finally:
            if context["own"] is not None:
                context["own"].done()
        return compose(_skeleton(context, parts), slots.bodies, joined)
    except Exception:
        logger.exception("board rendering failed for version %s", picture.get("version"))
        return _fallback(picture, viewer, players)


def _skeleton(context: dict, parts: dict) -> Skeleton:
    """`board.html` with the parts as given (empty slots, `parts.board_parts`): all it shows
    besides them is the edition and whose view it is, so it is rendered once per viewer of a
    table and kept read (`_skeletons`), not as its text."""
    return _skeletons(
        context["edition"],
        context["spectator"],
        context["viewer"],
        context["slug"],
        # The same slots for every view of a table: one key, kept once.
        same_tuple(tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in parts.items())),
    )


@lru_cache(maxsize=1024)
def _skeletons(
    edition: str, spectator: bool, viewer: int | None, slug: str, parts: tuple
) -> Skeleton:
    context = {"edition": edition, "spectator": spectator, "viewer": viewer, "slug": slug}
    return Skeleton.read(render("kilforth/board.html", {**context, "parts": dict(parts)}))


def _fallback(picture: dict, viewer: int | None, players: dict[int, str]) -> str:
    prompt = picture.get("prompt") or {}

    def named(seat: int | None) -> str:
        return players.get(seat) or f"Seat {seat + 1}" if isinstance(seat, int) else str(seat)

    options = []
    if viewer is not None:
        options = [
            dict(c, label=name_people(str(c.get("label") or c["key"]), named))
            for c in picture.get("choices") or []
            if isinstance(c, dict) and "key" in c
        ]
    waiting = [named(s) for s in picture.get("waiting_for") or [] if s != viewer]
    return render_to_string(
        "kilforth/fallback.html",
        {
            "version": picture.get("version", 0),
            "day": picture.get("day"),
            "text": name_people(str(prompt.get("text", "")), named) if options else "",
            "options": options,
            "waiting": waiting,
            "result": picture.get("result"),
        },
    )


def board_context(
    picture: dict,
    *,
    viewer: int | None,
    players: dict[int, str],
    online: set[int],
    table_slug: str,
    source: object = None,
) -> dict:
    """Everything the templates need, computed from the picture dict only (`source`: see
    `render_board`)."""
    heroes = picture.get("heroes") or []
    by_seat = {h["seat"]: h for h in heroes}

    def person(seat: int | None) -> str:
        if seat is None:
            return "Someone"
        if seat in players and players[seat]:
            return str(players[seat])
        h = by_seat.get(seat)
        return h["name"] if h else f"Seat {seat + 1}"

    succ_min = picture.get("success_min", 5)  # the engine's fact (TEST-3)
    # Everything `person` can answer: the sentences of events are kept by it (log_text.py).
    names_key = tuple((s, person(s)) for s in sorted(set(players) | set(by_seat)))

    public = (
        _public_of(source, picture, person, names_key, table_slug) if source is not None else None
    )

    def line_of(event: dict) -> LogLine:
        if public is not None:
            return public.line(event, viewer, person, names_key, succ_min)
        return describe_kept(event, person, names_key, viewer, succ_min)

    events = picture.get("log") or []
    log = LogTail(
        view=(table_slug, names_key, succ_min),
        events=events,
        numbers=_log_numbers(picture, len(events)),
        line=line_of,
        viewer=viewer,
        own=_log_own(picture, events),
    )
    me = by_seat.get(viewer) if viewer is not None else None
    own = _own_of(table_slug, names_key, viewer) if public is not None else None
    return {
        "version": picture.get("version", 0),
        "viewer": viewer,
        "spectator": viewer is None,
        "slug": table_slug,
        "edition": picture.get("edition", ""),
        "mode": picture.get("mode", ""),
        "status": public.status if public is not None else _status(picture, person),
        "decision": _decision(picture, viewer, person, succ_min),
        "cells": _cells(picture, viewer, person, public, own=own),
        # Every hero's panel is the same for every viewer (the viewer's own is marked by
        # board.css, from the board's data-viewer); the hands a viewer sees are a part of its own.
        "heroes": public.heroes
        if public is not None
        else [_hero(picture, h, person) for h in heroes],
        "hands": _own_panel(
            own,
            "kb-hand",
            _hands_facts(picture, heroes),
            lambda: _hands(picture, heroes, viewer, person),
        ),
        "public": public,
        "own": own,
        "ancients": public.ancients if public is not None else _ancients(picture),
        "tests": _own_panel(
            own,
            "kb-dice",
            (picture.get("recent_tests"), picture.get("test"), succ_min),
            lambda: _tests_panel(
                picture.get("recent_tests"), line_of, person, picture.get("test"), succ_min
            ),
        ),
        "night": _own_panel(
            own,
            "kb-night",
            (picture.get("night"), succ_min),
            lambda: _night_panel(picture.get("night"), line_of),
        ),
        "log": log,  # oldest first; the board shows them newest first (parts.log_groups)
        "result": public.result if public is not None else _result(picture, person),
        "me": me,
        "success_min": succ_min,
        # The seats with someone at them now (a bot's always): said by the presence part only.
        "online": tuple(sorted(online)),
    }


def _own_panel(
    own: Own | None, part_id: str, made_of: tuple, make: Callable[[], dict | None]
) -> dict | Kept | None:
    """A panel told to the viewer (its lines are theirs): with `own`, the part of their view
    before when made from the same facts (the events, the success number; the viewer and the
    names are the record's)."""
    return make() if own is None else own.item(part_id, made_of, make)


# -- status bar ------------------------------------------------------------------------------


def _status(picture: dict, person: Names) -> dict:
    decks = picture.get("decks") or {}
    weather = picture.get("weather")
    phase = picture.get("phase", "")
    return {
        "day": picture.get("day", 1),
        "days": picture.get("last_day", DAYS),
        "phase": phase,
        "phase_label": PHASES.get(phase, str(phase).capitalize()),
        "night_left": decks.get("night"),
        "weather": {
            "name": card_name(weather),
            "text": _strip_prefix(card(weather).get("text", "")),
        }
        if weather
        else None,
        "first": person(picture.get("first")),
        "first_seat": picture.get("first"),
        "turn": person(picture["turn"]) if picture.get("turn") is not None else "",
        "turn_seat": picture.get("turn"),
        # The seats deciding now and the team's: board.css marks the heroes' panels by them.
        "waiting_seats": list(picture.get("waiting_for") or []),
        "team_seats": list(picture.get("team") or []),
        "decks": [(k, n) for k, n in decks.items() if ":" not in k and k != "night"],
        "team": [person(m) for m in picture.get("team") or []],
        "loot_bag": picture.get("loot_bag"),
    }


def _strip_prefix(text: str) -> str:
    """'Weather: -1 influence.' -> '-1 influence.' (the label is already on the board)."""
    head, sep, tail = text.partition(": ")
    return tail if sep and head.lower() in ("weather", "event") else text


# -- decisions -------------------------------------------------------------------------------


# The turn menu's sections, in order: the engine names each choice's group.
TURN_GROUPS = (
    ("action", "Actions: 1 AP each"),
    ("deed", "Free deeds"),
    ("other", "Other"),
    ("end", "End your day"),
)


def _decision(picture: dict, viewer: int | None, person: Names, succ_min: int = 5) -> dict:
    """The viewer's choices as the engine lists them (picture["choices"]), with their text."""
    prompt = picture.get("prompt")
    waiting = [s for s in picture.get("waiting_for") or [] if s != viewer]
    mine = prompt is not None and viewer is not None and prompt.get("seat") == viewer
    choices = [
        c
        for c in (picture.get("choices") or [] if viewer is not None else [])
        if isinstance(c, dict) and c.get("key")
    ]
    groups: list[dict] = []
    kind = (prompt or {}).get("kind", "")
    asked = [_option(c, person) for c in choices if not c.get("offturn")]
    if asked and kind == "turn":
        for group, title in TURN_GROUPS:
            items = [o for o in asked if o["group"] == group]
            if items:
                groups.append({"title": title, "options": items})
        known = {g for g, _ in TURN_GROUPS}
        rest = [o for o in asked if o["group"] not in known]
        if rest:
            groups.append({"title": "Other", "options": rest})
    elif asked:
        groups.append({"title": "", "options": asked})
    extras = [_option(c, person) for c in choices if c.get("offturn")]
    if extras:
        groups.append({"title": "Any time", "options": extras})
    lines = []
    for seat in waiting:
        lines.append(f"Waiting for {person(seat)} to {rules_help.deciding(kind)}.")
    return {
        "mine": mine,
        "text": name_people(prompt.get("text", ""), person) if mine else "",
        "kind": kind,
        "groups": groups,
        "waiting": lines,
        "has_choices": any(g["options"] for g in groups),
        "roll": _roll_to_judge(picture) if mine and kind == "fate" else None,
        "card": _card_in_question(picture) if mine and kind == "card_choice" else None,
    }


def _card_in_question(picture: dict) -> dict | None:
    """The newest event or night card drawn: the card a 'choose one' prompt comes from."""
    for e in reversed(picture.get("log") or []):
        if e.get("e") in ("night_card", "encounter_drawn") and e.get("card"):
            c = card(e["card"])
            return {
                "name": card_name(e["card"]),
                "text": c.get("text", ""),
                "type": c.get("type", ""),
            }
    return None


def _roll_to_judge(picture: dict) -> dict | None:
    """The dice of the test awaiting a fate decision (the engine's `test` fact)."""
    test = picture.get("test")
    if not test:
        return None
    return {
        "dice": faces(test, test["threshold"]),
        "successes": test["successes"],
        "attr": test["attr"],
    }


def _option(c: dict, person: Names) -> dict:
    """One choice as the engine states it: label, explanation, group and glossary topic (the
    people it names by their players' names)."""
    key = str(c["key"])
    return {
        "key": key,
        "label": name_people(c.get("label") or key, person),
        "explain": name_people(c.get("explain") or "", person),
        "group": c.get("group") or "other",
        "topic": c.get("topic"),
        "cost": c.get("cost") or "",
        "rule": c.get("rule") or "",
    }


# -- the map ---------------------------------------------------------------------------------


def _cells(
    picture: dict,
    viewer: int | None,
    person: Names,
    public: Public | None = None,
    earlier: Earlier | None = None,
    facts: list | None = None,
    own: Own | None = None,
) -> list[dict | Kept]:
    """The map's cells as `viewer` sees them; with `public`, a cell that shows this viewer
    nothing of their own is the public one (the same object, whose part is made once), and
    with `own`, a cell of their own made from the same as in their view before is the part
    that view made (`Kept`).

    `facts` (the public layer's): filled with what each cell is made from; a cell made from the
    same as in `earlier` (the table's public layer before) is that one."""
    heroes = {h["seat"]: h for h in picture.get("heroes") or []}
    reach: dict[int, list[dict]] = {}
    for c in picture.get("choices") or [] if viewer is not None else []:
        # A choice that takes the hero to a location names it (move, escape): the location's card
        # offers it too, as a label for that choice's button in the decision (one form per key).
        loc = (c.get("data") or {}).get("loc") if isinstance(c, dict) else None
        if isinstance(loc, int) and not c.get("offturn") and c.get("key"):
            reach.setdefault(loc, []).append(
                {
                    "key": str(c["key"]),
                    "label": name_people(c.get("label") or str(c["key"]), person),
                }
            )
    ancients_at: dict[int, list[dict]] = {}
    for a in public.ancients if public is not None else _ancients(picture):
        if a["in_play"] and a["loc"] is not None:
            ancients_at.setdefault(a["loc"], []).append(a)
    cells: list[dict | Kept] = []
    for i, loc in enumerate(picture.get("map") or []):
        idx = loc.get("index", i)
        if public is not None and idx not in reach:
            # Only a way there is the viewer's own: their hero, their progress and the foes of
            # theirs are marked by the board's CSS, which knows the viewer (`data-viewer`).
            cells.append(public.cells[i])
            continue
        if own is not None:
            made_of = (
                loc,
                [_standee_facts(heroes[s]) for s in loc.get("heroes") or [] if s in heroes],
                ancients_at.get(idx),
                reach.get(idx),
            )
            kept = own.kept(f"kb-loc-{idx}", made_of)
            if kept is not None:
                cells.append(kept)
                continue
        if facts is not None:
            made_of = (
                loc,
                [_standee_facts(heroes[s]) for s in loc.get("heroes") or [] if s in heroes],
                ancients_at.get(idx),
            )
            facts.append(made_of)
            if earlier is not None and i < len(earlier.cell_facts):
                if earlier.cell_facts[i] == made_of:
                    cells.append(earlier.cells[i])
                    continue
        row, col = divmod(idx, 5)
        terrain = loc.get("terrain", "none")
        seats_here = [s for s in loc.get("heroes") or [] if s in heroes]
        cells.append(
            {
                "index": idx,
                "row": row + 1,
                "col": col + 1,
                "name": loc.get("name", ""),
                "terrain": terrain,
                "terrain_label": TERRAIN_LABEL.get(terrain, str(terrain).capitalize()),
                "gloom": bool(loc.get("gloom")),
                "gloom_value": loc.get("gloom_value", 0),
                "symbol": loc.get("symbol") or "",
                "symbol_label": SYMBOL_LABEL.get(loc.get("symbol") or "", "Shortcut"),
                "market": bool(loc.get("market")),
                "obstacles": loc.get("obstacles") or 0,
                "plots": [_plot(p) for p in loc.get("plots") or []],
                "encounters": [_encounter(e, person) for e in loc.get("encounters") or []],
                "standees": [_standee(heroes[s], person) for s in seats_here],
                # The seats whose heroes stand here: the viewer's own is marked by board.css.
                "here": " ".join(str(s) for s in seats_here),
                "ancients": ancients_at.get(idx, []),
                "reachable": idx in reach,
                "go": reach.get(idx, []),
                "centre": idx == 12,
                "text": _loc_text(loc),
            }
        )
        if own is not None:
            own.facts[f"kb-loc-{idx}"] = made_of
    return cells


def _loc_text(loc: dict) -> str:
    """A location's own rules text, minus what the board already shows (centre, market)."""
    text = card(loc.get("id")).get("text", "")
    if loc.get("market") and "arket" in text and len(text) < 40:
        return ""
    return text


def _plot(pid: str) -> dict:
    p = card(pid)
    return {
        "name": card_name(pid),
        "attr": p.get("attr", ""),
        "need": p.get("need", 0),
        "text": p.get("text", ""),
    }


def _encounter(e: dict, person: Names) -> dict:
    c = card(e.get("id"))
    etype = e.get("type") or c.get("type", "")
    values = [{"attr": a, "short": ATTR_SHORT[a], "value": c.get(a, 0)} for a in ATTRS if c.get(a)]
    progress = []
    for seat, prog in (e.get("progress") or {}).items():
        try:
            s = int(seat)
        except (TypeError, ValueError):
            continue
        attr = prog.get("attr", "")
        progress.append(
            {
                "who": person(s),
                "n": prog.get("n", 0),
                "need": c.get(attr, 0),
                "attr": attr,
                "seat": s,
            }
        )
    foes = [s for s in e.get("enemies") or [] if isinstance(s, int)]
    return {
        "id": e.get("id"),
        "name": e.get("name") or card_name(e.get("id")),
        "type": etype,
        "type_label": ENC_TYPE_LABEL.get(etype, str(etype).capitalize()),
        "values": values,
        "health": c.get("health", 0),
        "gold": c.get("gold", 0),
        "weakness": c.get("weakness", ""),
        "keywords": keywords_of(e.get("id")) if c else [],
        "text": c.get("text", ""),
        "progress": progress,
        "foes_of": [person(s) for s in foes],
    }


def _standee(h: dict, person: Names) -> dict:
    seat = h["seat"]
    who = person(seat)
    return {
        "seat": seat,
        "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
        "initial": (who[:1] or "?").upper(),
        "player": who,
        "hero": h.get("name", ""),
        "hidden": h.get("hidden"),
        "camped": h.get("camped"),
        "defeated": h.get("defeated"),
    }


def _standee_facts(h: dict) -> tuple:
    """What `_standee` reads of a hero (besides the viewer and the names)."""
    return (h["seat"], h.get("name"), h.get("hidden"), h.get("camped"), h.get("defeated"))


def _ancients(picture: dict) -> list[dict]:
    out = []
    for a in picture.get("ancients") or []:
        c = card(a.get("id"))
        health = c.get("health", 0) + (c.get("abilities") or {}).get("health", 0)
        fight = c.get("fight", 0) + (c.get("abilities") or {}).get("fight", 0)
        for p in a.get("plots") or []:
            ab = card(p).get("ability") or {}
            health += ab.get("health", 0)
            fight += ab.get("fight", 0)
        out.append(
            {
                "id": a.get("id"),
                "name": card_name(a.get("id")),
                "in_play": bool(a.get("in_play")),
                "loc": a.get("loc"),
                "loc_name": _loc_name(picture, a.get("loc")),
                "health": health,
                "hp": max(0, health - (a.get("damage") or 0)),
                "fight": fight,
                "defeated": bool(a.get("defeated")),
                "plots": [card_name(p) for p in a.get("plots") or []],
                "plot_deck": (picture.get("decks") or {}).get(f"plots:{a.get('id')}"),
                "wakes": ", ".join(
                    card_name(x)
                    for x in c.get("where") or []
                    if card(x).get("edition") == picture.get("edition")
                ),
                "gloom_terrains": ", ".join(c.get("gloom_terrains") or []),
                "text": c.get("text", ""),
            }
        )
    return out


def _loc_name(picture: dict, idx: object) -> str:
    m = picture.get("map") or []
    if isinstance(idx, int) and 0 <= idx < len(m):
        return m[idx].get("name", "")
    return ""


# -- what every viewer sees alike --------------------------------------------------------------


@dataclass
class Public:
    """The map's cells and the heroes' panels of one state as a spectator sees them, with their
    parts, made once for every view of that state (`_public_of`). A view whose cell or panel holds
    nothing of its own (a cell it has no way to; every hero's panel) takes the public one, and so
    its part."""

    source: weakref.ref
    cells: list[dict]
    heroes: list[dict]
    # The status bar, the ancients and the result: the same for every viewer of the state.
    status: dict
    ancients: list[dict]
    result: dict | None
    parts: dict[str, SafeString] = field(default_factory=dict)
    # `listed`: the cells' and the panels' slots and bodies, made once.
    lists: dict[str, tuple[list[SafeString], dict[str, SafeString]]] = field(default_factory=dict)
    # Log events' sentences: the views of one state show the same event objects (the state's
    # own), so each is looked up once (`lines`, by the event object, for a sentence that is
    # every viewer's: most) or once per viewer (`own_lines`, by the event and the viewer, for
    # one that reads the viewer), and its key (`event_key`) made once. The event is kept with
    # its line, so its id cannot be reused.
    lines: dict[int, tuple[dict, LogLine]] = field(default_factory=dict)
    own_lines: dict[tuple[int, int | None], tuple[dict, LogLine]] = field(default_factory=dict)
    event_keys: dict[int, tuple[dict, bytes | None]] = field(default_factory=dict)
    # The same three of the table's layer before (`Earlier`): a new state shares the log's
    # events of the state it came from (State.clone), so most of its events were keyed and
    # described there (the success number they are described with being the same).
    lines_before: dict[int, tuple[dict, LogLine]] = field(default_factory=dict)
    own_lines_before: dict[tuple[int, int | None], tuple[dict, LogLine]] = field(
        default_factory=dict
    )
    keys_before: dict[int, tuple[dict, bytes | None]] = field(default_factory=dict)

    def _event_key(self, event: dict) -> bytes | None:
        kept = self.event_keys.get(id(event))
        if kept is None or kept[0] is not event:
            kept = self.keys_before.get(id(event))
            if kept is None or kept[0] is not event:
                kept = (event, event_key(event))
            self.event_keys[id(event)] = kept
        return kept[1]

    def part(self, part_id: str, make: Callable[[], SafeString]) -> SafeString:
        html = self.parts.get(part_id)
        if html is None:
            html = self.parts[part_id] = make()
        return html

    def listed(
        self,
        name: str,
        items: list[dict],
        id_of: Callable[[dict], str],
        make: Callable[[str, dict], SafeString],
    ) -> tuple[list[SafeString], dict[str, SafeString]]:
        """The empty slots of `items` (this layer's cells or panels, called `name`) and their
        parts' bodies by part id, made once for every view of the state: a view copies them
        all and looks up only its own (`parts.board_parts`)."""
        found = self.lists.get(name)
        if found is None:
            ids = [id_of(x) for x in items]
            bodies = {
                part_id: self.part(part_id, lambda part_id=part_id, x=x: make(part_id, x))
                for part_id, x in zip(ids, items, strict=True)
            }
            found = self.lists[name] = ([slot(part_id) for part_id in ids], bodies)
        return found

    def line(
        self, event: dict, viewer: int | None, person: Names, names_key: tuple, succ_min: int
    ) -> LogLine:
        found = self.lines.get(id(event))
        if found is not None and found[0] is event:
            return found[1]
        own = (id(event), viewer)
        found = self.own_lines.get(own)
        if found is not None and found[0] is event:
            return found[1]
        found = self.lines_before.get(id(event))
        if found is not None and found[0] is event:
            self.lines[id(event)] = found
            return found[1]
        found = self.own_lines_before.get(own)
        if found is not None and found[0] is event:
            self.own_lines[own] = found
            return found[1]
        key = self._event_key(event)
        line, everyones = describe_scoped(event, person, names_key, viewer, succ_min, key=key)
        if everyones:
            self.lines[id(event)] = (event, line)
        else:
            self.own_lines[own] = (event, line)
        return line


@dataclass(frozen=True)
class Earlier:
    """What the next public layer of a table may take from the one before: each cell and hero
    panel with what it was made from, and the parts made of them."""

    cell_facts: list
    cells: list[dict]
    hero_facts: list
    heroes: list[dict]
    parts: dict[str, SafeString]
    # The layer's log sentences (every viewer's, and viewers' own) and event keys (filled as
    # its views are made), and the success number its sentences were made with.
    lines: dict[int, tuple[dict, LogLine]]
    own_lines: dict[tuple[int, int | None], tuple[dict, LogLine]]
    event_keys: dict[int, tuple[dict, bytes | None]]
    succ_min: object


@dataclass
class Own:
    """What one viewer's board shows that is its own, by part id: what each part was made from
    and the part. Its own are the cells it has a way to, the hands it sees (`_hands`), and the
    dice and night panels (their lines are told to the viewer). The viewer's next view takes
    each part made from the same facts (`kept`) instead of making its item and part again: a
    decision seldom changes what the seats who did not make it hold, nor the last dice or
    night, as it seldom changes the public cells (`Earlier`). `before` is the record of the
    viewer's view before, read while this view is made (then let go, `done`); this one is
    filled as the view is made (its parts by `board_parts`)."""

    before: Own | None
    facts: dict[str, tuple] = field(default_factory=dict)
    parts: dict[str, SafeString] = field(default_factory=dict)

    def kept(self, part_id: str, made_of: tuple) -> Kept | None:
        """The part of the view before, if it was made from `made_of`."""
        before = self.before
        if before is None or before.facts.get(part_id) != made_of:
            return None
        part = before.parts.get(part_id)
        if part is None:  # that view was not finished
            return None
        self.facts[part_id] = made_of
        return Kept(part_id, part)

    def item(self, part_id: str, made_of: tuple, make: Callable[[], Item]) -> Item | Kept:
        """The part kept from the view before, else `make()`; recorded as made from `made_of`."""
        kept = self.kept(part_id, made_of)
        if kept is not None:
            return kept
        self.facts[part_id] = made_of
        return make()

    def done(self) -> None:
        """The view is made: the record before is no longer read."""
        self.before = None


Item = TypeVar("Item")
OWN_KEPT = 1024  # viewers whose records are kept (their own parts' facts: about 2 KiB each)
_owns: OrderedDict[tuple, Own] = OrderedDict()
_owns_lock = Lock()
# Of each table and viewer, the keys of its records kept (`_few`): a record of names the table
# no longer shows went on holding its parts after they changed.
_own_keys: OrderedDict[tuple, list[tuple]] = OrderedDict()

# How many names of one table (a bot standing in for a person renames a seat) its layers,
# `Earlier`s and records are kept for: the newest, and the one before, which sockets still
# showing it may ask for while the others show the newest. Who is online is in none of them:
# the board says it in a part of its own (`parts.board_parts`, "presence"), so a socket
# joining or leaving makes no layer, record or part again.
NAMES_KEPT = 2


def _few(
    keys: OrderedDict[Any, list[tuple]], kept: OrderedDict, owner: Any, key: tuple, bound: int
) -> None:
    """Record `key` as the newest entry of `owner` (a table, or a table's viewer) in `kept`;
    its entries beyond the newest NAMES_KEPT go (from `kept` too). At most `bound` owners
    are followed (the least recent go). Under the caller's lock."""
    mine = keys.get(owner)
    if mine is None:
        mine = keys[owner] = []
    if key in mine:
        mine.remove(key)
    mine.append(key)
    keys.move_to_end(owner)
    while len(mine) > NAMES_KEPT:
        kept.pop(mine.pop(0), None)
    while len(keys) > bound:
        keys.popitem(last=False)


def _own_of(lineage: str, names_key: tuple, viewer: int | None) -> Own | None:
    """A new record of `viewer`'s own items (None: the spectators') for the table `lineage`,
    with the one before (the record is kept at once: a view made with it fills it)."""
    if not lineage:
        return None
    key = (lineage, names_key, viewer)
    with _owns_lock:
        own = _owns[key] = Own(before=_owns.get(key))
        _owns.move_to_end(key)
        _few(_own_keys, _owns, (lineage, viewer), key, OWN_KEPT)
        while len(_owns) > OWN_KEPT:
            _owns.popitem(last=False)
    return own


PUBLIC_KEPT = 256  # states whose public layer is kept (a table's views render together)
_publics: OrderedDict[tuple, Public] = OrderedDict()
# The newest public layer of each table (by its slug and the names).
_earlier: OrderedDict[tuple, Earlier] = OrderedDict()
# Of each table, the keys of its layers and of its `Earlier`s kept (`_few`): its two newest
# layers (of a newer state, or of the same state with other names) and the `Earlier`s of its
# two newest names. A layer of names the table no longer showed went on holding its parts
# until pushed out.
_public_keys: OrderedDict[str, list[tuple]] = OrderedDict()
_earlier_keys: OrderedDict[str, list[tuple]] = OrderedDict()
# The keys of the layers whose states are gone (appended by the states' weak references).
_gone: list[tuple] = []
_publics_lock = Lock()


def _public_of(
    source: object,
    picture: dict,
    person: Names,
    names_key: tuple,
    lineage: str = "",
) -> Public:
    """The public layer of `source` (an engine state) for these player names.

    Keyed by the state object itself (held weakly): a state never changes once made, so every
    picture made from it shows the same public facts. Built from `picture`'s public facts only
    (any viewer's picture: the heroes' hands are left out).

    `lineage` names the game (the table's slug): a cell or a hero's panel made from the same
    facts as in that game's layer before is taken from it, with its part, not made again (a
    decision changes one or two of the 25 cells and of the panels)."""
    key = (id(source), names_key)
    with _publics_lock:
        found = _publics.get(key)
        if found is not None and found.source() is source:
            _publics.move_to_end(key)
            return found
        earlier = _earlier.get((lineage, *key[1:])) if lineage else None
    heroes = [
        {k: v for k, v in h.items() if k not in ("hand", "loot")}
        for h in picture.get("heroes") or []
    ]
    public_picture = dict(picture, heroes=heroes, choices=[])
    cell_facts: list = []
    cells = _cells(public_picture, None, person, earlier=earlier, facts=cell_facts)
    hero_facts = [_hero_facts(public_picture, h) for h in heroes]
    panels = [
        earlier.heroes[i]
        if earlier is not None and i < len(earlier.hero_facts) and earlier.hero_facts[i] == fact
        else _hero(public_picture, h, person)
        for i, (h, fact) in enumerate(zip(heroes, hero_facts, strict=True))
    ]
    made = Public(
        source=weakref.ref(source, lambda _, key=key: _gone.append(key)),
        cells=cells,
        heroes=panels,
        status=_status(public_picture, person),
        ancients=_ancients(public_picture),
        result=_result(public_picture, person),
    )
    succ_min = picture.get("success_min", 5)
    if earlier is not None:
        made.keys_before = earlier.event_keys
        if earlier.succ_min == succ_min:
            made.lines_before = earlier.lines
            made.own_lines_before = earlier.own_lines
    if earlier is not None:  # the parts of what was taken, as they were made
        for mine, theirs, name in ((cells, earlier.cells, "loc"), (panels, earlier.heroes, "")):
            for taken, before in zip(mine, theirs, strict=False):
                if taken is before:
                    part_id = (
                        f"kb-loc-{taken['index']}" if name else f"kb-hero-card-{taken['seat']}"
                    )
                    if part_id in earlier.parts:
                        made.parts[part_id] = earlier.parts[part_id]
    with _publics_lock:
        # Those of states gone (superseded versions) go first, they hold their log events:
        # each state's layer names itself in `_gone` when the state goes (its weak reference's
        # callback), so they are found without looking at every layer kept.
        while _gone:
            gone = _gone.pop()
            if gone in _publics and _publics[gone].source() is None:
                del _publics[gone]
        _publics[key] = made
        _publics.move_to_end(key)
        while len(_publics) > PUBLIC_KEPT:
            _publics.popitem(last=False)
        if lineage:
            _few(_public_keys, _publics, lineage, key, PUBLIC_KEPT)
            lineage_key = (lineage, *key[1:])
            _earlier[lineage_key] = Earlier(
                cell_facts,
                cells,
                hero_facts,
                panels,
                made.parts,
                made.lines,
                made.own_lines,
                made.event_keys,
                succ_min,
            )
            _earlier.move_to_end(lineage_key)
            _few(_earlier_keys, _earlier, lineage, lineage_key, PUBLIC_KEPT)
            while len(_earlier) > PUBLIC_KEPT:
                _earlier.popitem(last=False)
    return made


def _hero_facts(picture: dict, h: dict) -> tuple:
    """What a hero's panel is made from (`_hero`, the same for every viewer), besides the names."""
    return (
        h,
        picture.get("edition"),
        len(picture.get("heroes") or []),
        _loc_name(picture, h.get("loc")),
    )


# -- heroes ----------------------------------------------------------------------------------


def _hero(picture: dict, h: dict, person: Names) -> dict:
    """A hero's panel, the same for every viewer: its hand and loot are counted, not shown (the
    hands a viewer sees are a part of its own, `_hands`)."""
    seat = h["seat"]
    veiled = set(h.get("veiled") or [])
    attrs = []
    for a in ATTRS:
        fact = (h.get("attrs") or {}).get(a) or {"total": 0, "sources": []}  # the engine's numbers
        attrs.append(
            {
                "attr": a,
                "short": ATTR_SHORT[a],
                "total": fact["total"],
                "parts": " + ".join(
                    f"{_source_label(src, person)} {n:+d}" for src, n in fact["sources"]
                ),
            }
        )
    held = _held_keywords(h)
    stage = _saga(picture, h)
    stage["kw"] = [{"kw": k, "in_play": k in held} for k in stage["keywords"]]
    assets = [_asset(c, c in veiled) for c in h.get("assets") or []]
    return {
        "seat": seat,
        "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
        "player": person(seat),
        "initial": (person(seat)[:1] or "?").upper(),
        "hero": h.get("name", ""),
        "race": race_name(h.get("race", ""), bool(h.get("female"))),
        "klass": card_name(h.get("class")),
        "hp": h.get("hp", 0),
        "max_hp": h.get("max_hp", 0),
        "hp_pct": int(100 * h.get("hp", 0) / h["max_hp"]) if h.get("max_hp") else 0,
        "ap": h.get("ap", 0),
        "gold": h.get("gold", 0),
        "fate": h.get("fate", 0),
        "vp": h.get("gold", 0) + sum(gold_value(c) for c in h.get("assets") or []),
        "hidden": h.get("hidden"),
        "camped": h.get("camped"),
        "defeated": h.get("defeated"),
        "eliminated": h.get("eliminated"),
        "side": h.get("side"),
        "enemy_tokens": h.get("enemy_tokens"),
        "location": _loc_name(picture, h.get("loc")),
        "attrs": attrs,
        "skills": [
            {
                "name": card_name(c),
                "veiled": c in veiled,
                "text": card(c).get("text", ""),
                "bonus": _bonus_text(c),
            }
            for c in h.get("skills") or []
        ],
        "assets": assets,
        "hand_size": h.get("hand_size", len(h.get("hand") or [])),
        "loot_size": h.get("loot_size", len(h.get("loot") or [])),
        "saga": stage,
    }


def _held_keywords(h: dict) -> set[str]:
    """The keywords of the hero's assets in play."""
    held: set[str] = set()
    for cid in h.get("assets") or []:
        held.update(keywords_of(cid))
    return held


def _saga(picture: dict, h: dict) -> dict:
    """The hero's saga at its chapter (a new dict: the caller may add to it)."""
    return saga_stage(
        h.get("saga", ""),
        h.get("chapter", 0),
        len(picture.get("heroes") or []),
        picture.get("edition", ""),
    )


def _hands_facts(picture: dict, heroes: list[dict]) -> tuple:
    """What the hands part is made from (`_hands`), besides the viewer and the names."""
    return (
        picture.get("edition"),
        len(heroes),
        tuple(
            (
                h["seat"],
                tuple(h.get("hand") or ()),
                tuple(h.get("loot") or ()),
                "hand" in h,
                "loot" in h,
                h.get("saga"),
                h.get("chapter"),
                tuple(h.get("assets") or ()),
            )
            for h in heroes
            if "hand" in h or "loot" in h
        ),
    )


def _hands(picture: dict, heroes: list[dict], viewer: int | None, person: Names) -> list[dict]:
    """The hands the viewer sees (its own; in co-op with open hands, every hero's that holds
    something), its hero's first: the rumours and loot tokens, and which keywords the hero's
    saga still needs are in that hand (the panel, the same for everyone, marks only those in
    play)."""
    out = []
    for h in sorted(heroes, key=lambda h: h["seat"] != viewer):
        seat = h["seat"]
        if seat != viewer and not h.get("hand") and not h.get("loot"):
            continue  # another hero's open hand, empty: its panel says so
        hand = h.get("hand") or []
        in_hand: set[str] = set()
        for cid in hand:
            in_hand.update(keywords_of(cid))
        held = _held_keywords(h)
        out.append(
            {
                "seat": seat,
                "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                "player": person(seat),
                "me": seat == viewer,
                "hand": [_asset(c, False) for c in hand],
                "loot": [
                    {"name": card_name(c), "text": card(c).get("text", "")}
                    for c in h.get("loot") or []
                ],
                "saga_in_hand": [
                    k for k in _saga(picture, h)["keywords"] if k in in_hand and k not in held
                ],
            }
        )
    return out


def _bonus_text(cid: str) -> str:
    return ", ".join(f"{v:+d} {a}" for a, v in bonus_of(cid).items())


def _asset(cid: str, veiled: bool) -> dict:
    c = card(cid)
    return {
        "name": card_name(cid),
        "veiled": veiled,
        "gold": gold_value(cid),
        "kind": c.get("deck") or c.get("type") or c.get("kind", ""),
        "keywords": [k for k in keywords_of(cid)],
        "bonus": _bonus_text(cid),
        "text": c.get("text", ""),
        "where": ", ".join(card_name(w) for w in c.get("where") or []),
    }


# -- dice, battles and the night ----------------------------------------------------------------


def _source_label(src: object, person: Names) -> str:
    if isinstance(src, str):
        if src == "race":
            return "race"
        if src == "class":
            return "class"
        if src.startswith("team:"):
            try:
                return "team: " + person(int(src.split(":", 1)[1]))
            except ValueError:
                return "team"
        if card(src):
            return card_name(src)
        return src.replace("_", " ")
    return str(src)


def _tests_panel(
    recent: dict | None,
    line_of: Callable[[dict], LogLine],
    person: Names,
    pending: dict | None = None,
    succ_min: int = 5,
) -> dict | None:
    """The engine's newest stretch of play with dice (RECENT facts), as tests and rounds.

    The view keeps that stretch from one day to the next (`recent_tests`), so the panel shows the
    last dice until new ones are rolled; a test whose fate decision is open (`test`) is its
    newest roll, and is drawn from that fact should the stretch not hold it yet.
    """
    if not recent or not recent["events"]:
        if not pending:
            return None
        return {"items": [_pending_test(pending, person, succ_min)], "day": None, "pending": True}
    items: list[dict] = []
    for e in recent["events"]:
        k = e.get("e")
        line = line_of(e)
        if k == "roll":
            sources = [
                f"{_source_label(s[0], person)} {s[1]:+d}"
                for s in e.get("sources") or []
                if isinstance(s, list | tuple) and len(s) == 2
            ]
            items.append(
                {
                    "type": "test",
                    "who": card_name(e["foe"]) if e.get("foe") else person(e.get("seat")),
                    "foe": bool(e.get("foe")),
                    "attr": e.get("attr", ""),
                    "sources": sources,
                    "dice": line.dice,
                    "successes": e.get("successes", 0),
                    "total": e.get("successes", 0),
                    "seat": e.get("seat"),
                    "count": e.get("dice", 0),
                    "seats": line.seats,
                }
            )
        elif k in ("fate_called", "reroll") and _last_test(items, e.get("seat")):
            test = _last_test(items, e.get("seat"))
            if k == "fate_called":
                test["fate"] = True
                test["total"] = test["successes"] + 1
            else:
                test["reroll"] = card_name(e.get("card"))
                test["dice"] = line.dice
                test["successes"] = e.get("successes", 0)
                test["total"] = test["successes"] + (1 if test.get("fate") else 0)
        elif k in ("battle", "assault"):
            items.append({"type": "heading", "text": line.text})
        elif k in ("skirmish", "ancient_skirmish"):
            items.append({"type": "round", "text": line.text, "round": e.get("round")})
        else:
            items.append({"type": "line", "text": line.text, "dice": line.dice, "tone": line.tone})
    return {"items": items, "day": recent["day"], "pending": bool(pending)}


def _pending_test(test: dict, person: Names, succ_min: int) -> dict:
    return {
        "type": "test",
        "who": person(test.get("tester")),
        "foe": False,
        "attr": test.get("attr", ""),
        "sources": [
            f"{_source_label(s[0], person)} {s[1]:+d}"
            for s in test.get("sources") or []
            if isinstance(s, list | tuple) and len(s) == 2
        ],
        "dice": faces(test, test.get("threshold", succ_min)),
        "successes": test.get("successes", 0),
        "total": test.get("successes", 0),
        "seat": test.get("tester"),
        "count": test.get("dice", 0),
        "seats": (),
    }


def _last_test(items: list[dict], seat: object) -> dict | None:
    for it in reversed(items):
        if it["type"] == "test" and not it["foe"] and it.get("seat") == seat:
            return it
    return None


def _night_panel(night: dict | None, line_of: Callable[[dict], LogLine]) -> dict | None:
    """The engine's newest night (or the gloom spread before day 1), as cards and lines."""
    if not night:
        return None
    if night["before_day_one"]:
        if not night["events"]:
            return None
        lines = [line_of(e) for e in night["events"]]
        return {"title": "Before the first day", "card": None, "lines": lines, "open": False}
    cards = []
    rows = []
    for e in night["events"]:
        if e.get("e") == "night_card":
            c = card(e.get("card"))
            cards.append(
                {
                    "name": card_name(e.get("card")),
                    "type": e.get("type", ""),
                    "loc": card_name(e.get("loc")),
                    "text": c.get("text", ""),
                    "extra": bool(e.get("extra")),
                }
            )
        else:
            rows.append(line_of(e))
    if not cards and not rows:
        return None
    return {
        "title": f"Night after day {night['day']}",
        "cards": cards,
        "lines": rows,
        "open": night["open"],
    }


# -- log, result, glossary -----------------------------------------------------------------------


def _log_numbers(picture: dict, count: int) -> list[int]:
    """Each event's number in the game's log: the engine's; by position for a picture without
    them (a whole history, given to render_full_log)."""
    numbers = picture.get("log_numbers")
    if isinstance(numbers, list) and len(numbers) == count:
        return numbers
    return list(range(count))


def _log_own(picture: dict, events: list[dict]) -> list[int]:
    """Where among `events` the viewer's own are (seen by it alone): the engine's; found here
    for a picture without them."""
    own = picture.get("log_own")
    if isinstance(own, list):
        return own
    return [i for i, e in enumerate(events) if e.get("vis") != "all"]


def _log_rows(lines: list[LogLine]) -> list[LogRow]:
    rows = []
    prev_day = None
    for line in reversed(lines):
        rows.append(LogRow(line=line, new_day=line.day != prev_day, day=line.day))
        prev_day = line.day
    return rows


def _result(picture: dict, person: Names) -> dict | None:
    res = picture.get("result")
    if not res:
        return None
    vp = res.get("vp") or []
    winners = set(res.get("winners") or [])
    heroes = {h["seat"]: h for h in picture.get("heroes") or []}
    table = sorted(
        (
            {
                "seat": s,
                "player": person(s),
                "hero": heroes.get(s, {}).get("name", ""),
                "vp": v,
                "winner": s in winners,
                "colour": SEAT_COLOURS[s % len(SEAT_COLOURS)],
            }
            for s, v in enumerate(vp)
        ),
        key=lambda r: -r["vp"],
    )
    coop = picture.get("mode") != "competitive"
    names = [person(s) for s in sorted(winners)]
    if coop:
        headline = "The heroes prevail!" if res.get("won") else "The gloom has won."
    elif names:
        headline = ("Winner: " if len(names) == 1 else "Shared win: ") + ", ".join(names)
    else:
        headline = "Nobody wins."
    return {
        "headline": headline,
        "won": bool(res.get("won")),
        "coop": coop,
        "reason": res.get("reason", ""),
        "table": table,
        "team_vp": res.get("team_vp"),
    }


def page_parts() -> str:
    """The icon sprite and the rules glossary: once per page, never inside each board frame.

    Every board references the sprite's icons by id; sending both with every frame would add
    about 18 KB to each of them.
    """
    return _static_html("kilforth/_sprite.html") + _static_html("kilforth/_glossary.html")


@lru_cache(maxsize=8)
def _static_html(name: str) -> str:
    """Parts that never change between renders (icon sprite, rules glossary): rendered once."""
    return mark_safe(render_to_string(name, {"glossary": _glossary()}))  # noqa: S308 - our own


def _glossary() -> dict:
    return {
        "actions": list(rules_help.ACTIONS.values()),
        "deeds": list(rules_help.DEEDS.values()),
        "keywords": list(rules_help.KEYWORDS.values()),
    }


def render_full_log(picture: dict, *, viewer: int | None, players: dict[int, str]) -> str:
    """The whole game log for one viewer (the board shows only its newest part)."""
    context = board_context(picture, viewer=viewer, players=players, online=set(), table_slug="")
    # Not memoized (board/parts.py): a whole game's rows would crowd out the live boards' parts.
    rows = _log_rows(context["log"].lines())
    html = SafeString("".join(render("kilforth/_log_row.html", {"r": r}) for r in rows))
    whole = {"part_id": "", "rows": html, "group": 0, "empty": not rows}
    context["parts"] = {"log": [render("kilforth/_log_group.html", whole)]}
    # Its own ids: the replay's page shows it beside the board's log.
    context["log_id"] = "kb-whole-log"
    return render("kilforth/full_log.html", context)

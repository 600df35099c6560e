"""The game board as one server-rendered HTML fragment (see docs/board.md).

`render_board(view, ...)` is a pure function of its arguments: it reads the view dict (already
filtered for the viewer by the engine) plus public card texts, never the engine state, and puts
nothing per-request (no CSRF token, no session data) in the HTML. Most of the work happens here,
in plain Python, so the templates stay simple and fast.
"""

from __future__ import annotations

import logging
from functools import lru_cache

from django.template.loader import get_template, render_to_string
from django.utils.safestring import mark_safe

from . import rules_help
from .cards import (
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
from .log_text import MARKERS, LogLine, Names, describe, faces
from .parts import board_parts

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
TEST_KINDS = {
    "roll",
    "reroll",
    "fate_called",
    "battle",
    "skirmish",
    "escape",
    "confront",
    "test_gate",
    "plot_attempt",
    "finale_attempt",
    "interlude_attempt",
    "assault",
    "ancient_skirmish",
    "ancient_defeated",
    "encounter_defeated",
    "hero_defeated",
    "evaded",
    "evade_failed",
    "engage",
    "enemy_token",
    "hp_lost",
}
NIGHT_KINDS = {
    "night_card",
    "gloomed",
    "hp_lost",
    "hp_gained",
    "plot_enters",
    "hero_defeated",
    "gold_lost",
    "gold_gained",
    "defeated",
    "moved",
    "obstacle_placed",
    "fate_gained",
    "dawn",
    "ancient_enters",
    "weather",
}


def render_board(
    view: dict,
    *,
    viewer: int | None,
    players: dict[int, str],
    online: set[int],
    table_slug: str,
    extra_choices: list[dict] | None = None,
) -> str:
    """The whole board for one viewer: `<div id="game-board" ...>...</div>`.

    Should the view ever surprise the board (the engine keeps evolving), the error is logged and
    a plain fallback board still shows the decision forms, so the game stays playable.
    """
    try:
        context = board_context(
            view,
            viewer=viewer,
            players=players,
            online=online,
            table_slug=table_slug,
            extra_choices=extra_choices,
        )
        return render_to_string("kilforth/board.html", {**context, "parts": board_parts(context)})
    except Exception:
        logger.exception("board rendering failed for version %s", view.get("version"))
        return _fallback(view, viewer, players, extra_choices)


def _fallback(
    view: dict, viewer: int | None, players: dict[int, str], extra: list[dict] | None
) -> str:
    prompt = view.get("prompt") or {}
    options = []
    if viewer is not None and prompt.get("seat") == viewer:
        options = [o for o in prompt.get("options") or [] if isinstance(o, dict) and "key" in o]
    options += [c for c in extra or [] if isinstance(c, dict) and "key" in c]
    waiting = [
        players.get(s) or f"Seat {s + 1}" if isinstance(s, int) else str(s)
        for s in view.get("waiting_for") or []
        if s != viewer
    ]
    return render_to_string(
        "kilforth/fallback.html",
        {
            "version": view.get("version", 0),
            "day": view.get("day"),
            "text": prompt.get("text", "") if options else "",
            "options": options,
            "waiting": waiting,
            "result": view.get("result"),
        },
    )


def board_context(
    view: dict,
    *,
    viewer: int | None,
    players: dict[int, str],
    online: set[int],
    table_slug: str,
    extra_choices: list[dict] | None = None,
) -> dict:
    """Everything the templates need, computed from the view dict only."""
    heroes = view.get("heroes") or []
    by_seat = {h["seat"]: h for h in heroes}

    def person(seat: int | None) -> str:
        if seat is None:
            return "Someone"
        if seat in players and players[seat]:
            return str(players[seat])
        h = by_seat.get(seat)
        return h["name"] if h else f"Seat {seat + 1}"

    succ_min = _success_min(view.get("log") or [])
    lines = [describe(e, person, viewer, succ_min) for e in view.get("log") or []]
    me = by_seat.get(viewer) if viewer is not None else None
    return {
        "version": view.get("version", 0),
        "viewer": viewer,
        "spectator": viewer is None,
        "slug": table_slug,
        "edition": view.get("edition", ""),
        "mode": view.get("mode", ""),
        "phase": view.get("phase", ""),
        "status": _status(view, person),
        "decision": _decision(view, viewer, person, extra_choices, succ_min),
        "cells": _cells(view, viewer, person, online),
        "heroes": [_hero(view, h, viewer, person, online) for h in heroes],
        "ancients": _ancients(view),
        "tests": _latest_tests(view.get("log") or [], lines, person),
        "night": _last_night(view.get("log") or [], lines),
        "log": _log_rows(lines, viewer),
        "result": _result(view, person),
        "glossary": _static_html("kilforth/_glossary.html"),
        "sprite": _static_html("kilforth/_sprite.html"),
        "me": me,
        "success_min": succ_min,
    }


# -- status bar ------------------------------------------------------------------------------


def _status(view: dict, person: Names) -> dict:
    decks = view.get("decks") or {}
    weather = view.get("weather")
    phase = view.get("phase", "")
    return {
        "day": view.get("day", 1),
        "days": DAYS if view.get("edition") != "shadows" or view.get("day", 1) <= DAYS else None,
        "phase": phase,
        "phase_label": PHASES.get(phase, str(phase).capitalize()),
        "night_left": decks.get("night"),
        "weather": {
            "name": card_name(weather),
            "text": _strip_prefix(card(weather).get("text", "")),
        }
        if weather
        else None,
        "first": person(view.get("first")),
        "first_seat": view.get("first"),
        "turn": person(view["turn"]) if view.get("turn") is not None else "",
        "turn_seat": view.get("turn"),
        "decks": [(k, n) for k, n in decks.items() if ":" not in k and k != "night"],
        "team": [person(m) for m in view.get("team") or []],
        "loot_bag": view.get("loot_bag"),
    }


def _strip_prefix(text: str) -> str:
    """'Weather: -1 influence.' -> '-1 influence.' (the label is already on the board)."""
    head, sep, tail = text.partition(": ")
    return tail if sep and head.lower() in ("weather", "event") else text


# -- decisions -------------------------------------------------------------------------------


def _decision(
    view: dict, viewer: int | None, person: Names, extra: list[dict] | None, succ_min: int = 5
) -> dict:
    prompt = view.get("prompt")
    waiting = [s for s in view.get("waiting_for") or [] if s != viewer]
    mine = prompt is not None and viewer is not None and prompt.get("seat") == viewer
    groups: list[dict] = []
    if mine and prompt.get("options") is not None:
        kind = prompt.get("kind", "")
        opts = [_option(o, kind, view) for o in prompt["options"]]
        if kind == "turn":
            acts = [o for o in opts if o["group"] == "action"]
            deeds = [o for o in opts if o["group"] == "deed"]
            end = [o for o in opts if o["group"] == "end"]
            other = [o for o in opts if o["group"] == "other"]
            for title, items in (
                ("Actions: 1 AP each", acts),
                ("Free deeds", deeds),
                ("Other", other),
                ("End your day", end),
            ):
                if items:
                    groups.append({"title": title, "options": items})
        else:
            groups.append({"title": "", "options": opts})
    extras = [
        {
            "key": c["key"],
            "label": c.get("label", c["key"]),
            "group": "extra",
            "explain": rules_help.explain_choice("offturn", c["key"], c.get("data") or {}, view)
            or _topic_line(c["key"]),
            "topic": rules_help.choice_topic(c["key"]),
        }
        for c in (extra or [])
        if c.get("key")
    ]
    if extras:
        groups.append({"title": "Any time", "options": extras})
    lines = []
    kind = (prompt or {}).get("kind", "")
    for seat in waiting:
        lines.append(f"Waiting for {person(seat)} to {rules_help.deciding(kind)}.")
    return {
        "mine": mine,
        "text": prompt.get("text", "") if mine else "",
        "kind": kind,
        "groups": groups,
        "waiting": lines,
        "has_choices": any(g["options"] for g in groups),
        "roll": _roll_to_judge(view, viewer, succ_min) if mine and kind == "fate" else None,
        "card": _card_in_question(view) if mine and kind == "card_choice" else None,
    }


def _topic_line(key: str) -> str:
    topic = rules_help.choice_topic(key)
    entry = rules_help.help_for(topic) if topic else None
    return rules_help.first_sentences(entry[1], 1) if entry else ""


def _card_in_question(view: dict) -> dict | None:
    """The newest event or night card drawn: the card a 'choose one' prompt comes from."""
    for e in reversed(view.get("log") or []):
        if e.get("e") in ("night_card", "encounter_drawn") and e.get("card"):
            c = card(e["card"])
            return {
                "name": card_name(e["card"]),
                "text": c.get("text", ""),
                "type": c.get("type", ""),
            }
    return None


def _roll_to_judge(view: dict, viewer: int | None, succ_min: int) -> dict | None:
    """The viewer's newest roll, shown beside a fate decision (the result is not final yet)."""
    for e in reversed(view.get("log") or []):
        if e.get("e") in MARKERS:
            return None
        if e.get("e") in ("roll", "reroll") and e.get("seat") == viewer:
            return {
                "dice": faces(e, succ_min),
                "successes": e.get("successes", 0),
                "attr": e.get("attr", ""),
            }
    return None


def _option(o: dict, kind: str, view: dict) -> dict:
    key = str(o.get("key", ""))
    head = key.split(":", 1)[0]
    if kind == "turn":
        if head == "camp":
            group = "end"
        elif head in rules_help.DEEDS:
            group = "deed"
        elif head in rules_help.ACTIONS:
            group = "action"
        else:
            group = "other"
    else:
        group = "other"
    explain = rules_help.explain_choice(kind, key, o.get("data") or {}, view)
    return {
        "key": key,
        "label": o.get("label", key),
        "explain": explain,
        "group": group,
        "topic": rules_help.choice_topic(key) if kind in ("turn", "market") else None,
    }


# -- the map ---------------------------------------------------------------------------------


def _cells(view: dict, viewer: int | None, person: Names, online: set[int]) -> list[dict]:
    heroes = {h["seat"]: h for h in view.get("heroes") or []}
    prompt = view.get("prompt") or {}
    reach = set()
    for o in prompt.get("options") or []:
        if str(o.get("key", "")).startswith(("move:", "to:")) and "loc" in (o.get("data") or {}):
            reach.add(o["data"]["loc"])
    here = heroes[viewer]["loc"] if viewer in heroes else None
    ancients_at: dict[int, list[dict]] = {}
    for a in _ancients(view):
        if a["in_play"] and a["loc"] is not None:
            ancients_at.setdefault(a["loc"], []).append(a)
    cells = []
    for i, loc in enumerate(view.get("map") or []):
        idx = loc.get("index", i)
        row, col = divmod(idx, 5)
        terrain = loc.get("terrain", "none")
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
                "encounters": [_encounter(e, person, viewer) for e in loc.get("encounters") or []],
                "standees": [
                    _standee(heroes[s], view, viewer, person, online)
                    for s in loc.get("heroes") or []
                    if s in heroes
                ],
                "ancients": ancients_at.get(idx, []),
                "reachable": idx in reach,
                "here": idx == here,
                "centre": idx == 12,
                "text": _loc_text(loc),
            }
        )
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


def _encounter(e: dict, person: Names, viewer: int | None) -> dict:
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
                "me": s == viewer,
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
        "my_foe": etype == "enemy" or (viewer in foes),
    }


def _standee(h: dict, view: dict, viewer: int | None, person: Names, online: set[int]) -> dict:
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
        "me": seat == viewer,
        "turn": seat == view.get("turn"),
        "first": seat == view.get("first"),
        "online": seat in online,
    }


def _ancients(view: dict) -> list[dict]:
    out = []
    for a in view.get("ancients") or []:
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
                "loc_name": _loc_name(view, a.get("loc")),
                "health": health,
                "hp": max(0, health - (a.get("damage") or 0)),
                "fight": fight,
                "defeated": bool(a.get("defeated")),
                "plots": [card_name(p) for p in a.get("plots") or []],
                "plot_deck": (view.get("decks") or {}).get(f"plots:{a.get('id')}"),
                "wakes": ", ".join(
                    card_name(x)
                    for x in c.get("where") or []
                    if card(x).get("edition") == view.get("edition")
                ),
                "gloom_terrains": ", ".join(c.get("gloom_terrains") or []),
                "text": c.get("text", ""),
            }
        )
    return out


def _loc_name(view: dict, idx: object) -> str:
    m = view.get("map") or []
    if isinstance(idx, int) and 0 <= idx < len(m):
        return m[idx].get("name", "")
    return ""


# -- heroes ----------------------------------------------------------------------------------


def _hero(view: dict, h: dict, viewer: int | None, person: Names, online: set[int]) -> dict:
    seat = h["seat"]
    veiled = set(h.get("veiled") or [])
    weather = view.get("weather")
    mods = card(weather).get("mods") or {} if weather else {}
    attrs = []
    for a in ATTRS:
        parts = [("race", card(h.get("race")).get(a, 0)), ("class", card(h.get("class")).get(a, 0))]
        for cid in list(h.get("skills") or []) + list(h.get("assets") or []):
            if cid not in veiled and bonus_of(cid).get(a):
                parts.append((card_name(cid), bonus_of(cid)[a]))
        if mods.get(a):
            parts.append(("weather", mods[a]))
        total = max(0, sum(v for _, v in parts))
        attrs.append(
            {
                "attr": a,
                "short": ATTR_SHORT[a],
                "total": total,
                "parts": " + ".join(f"{n} {v:+d}" for n, v in parts if v),
            }
        )
    hand = h.get("hand")
    loot = h.get("loot")
    held: set[str] = set()
    for cid in h.get("assets") or []:
        held.update(keywords_of(cid))
    hand_kw: set[str] = set()
    for cid in hand or []:
        hand_kw.update(keywords_of(cid))
    stage = saga_stage(
        h.get("saga", ""),
        h.get("chapter", 0),
        len(view.get("heroes") or []),
        view.get("edition", ""),
    )
    stage["kw"] = [
        {"kw": k, "in_play": k in held, "in_hand": k in hand_kw} for k in stage["keywords"]
    ]
    assets = [_asset(c, c in veiled) for c in h.get("assets") or []]
    return {
        "seat": seat,
        "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
        "player": person(seat),
        "initial": (person(seat)[:1] or "?").upper(),
        "hero": h.get("name", ""),
        "race": race_name(h.get("race", ""), bool(h.get("female"))),
        "klass": card_name(h.get("class")),
        "online": seat in online,
        "me": seat == viewer,
        "turn": seat == view.get("turn"),
        "first": seat == view.get("first"),
        "waiting": seat in (view.get("waiting_for") or []),
        "in_team": seat in (view.get("team") or []),
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
        "location": _loc_name(view, h.get("loc")),
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
        "hand_size": h.get("hand_size", len(hand or [])),
        "hand": [_asset(c, False) for c in hand] if hand is not None else None,
        "loot_size": h.get("loot_size", len(loot or [])),
        "loot": [{"name": card_name(c), "text": card(c).get("text", "")} for c in loot]
        if loot is not None
        else None,
        "saga": stage,
    }


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


def _success_min(log: list[dict]) -> int:
    """5 (standard) or 4 (easier), read off the logged rolls; 5 when nothing tells."""
    for e in log:
        if e.get("e") == "roll" and isinstance(e.get("faces"), list):
            f = e["faces"]
            hi = sum(1 for x in f if isinstance(x, int) and x >= 5)
            lo = sum(1 for x in f if isinstance(x, int) and x >= 4)
            if hi != lo and e.get("successes") == lo:
                return 4
            if hi != lo and e.get("successes") == hi:
                return 5
    return 5


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


def _latest_tests(log: list[dict], lines: list[LogLine], person: Names) -> dict | None:
    """The stretch of play holding the most recent roll, as tests and battle rounds."""
    last = next((i for i in range(len(log) - 1, -1, -1) if log[i].get("e") == "roll"), None)
    if last is None:
        return None
    start = last
    while start > 0 and log[start - 1].get("e") not in MARKERS:
        start -= 1
    end = last
    while end + 1 < len(log) and log[end + 1].get("e") not in MARKERS:
        end += 1
    items = []
    for i in range(start, end + 1):
        e = log[i]
        k = e.get("e")
        if k not in TEST_KINDS:
            continue
        line = lines[i]
        if k == "roll":
            sources = [
                f"{_source_label(s[0], person)} {s[1]:+d}"
                for s in e.get("sources") or []
                if isinstance(s, list | tuple) and len(s) == 2 and s[1]
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
    day = log[last].get("day")
    return {"items": items, "day": day}


def _last_test(items: list[dict], seat: object) -> dict | None:
    for it in reversed(items):
        if it["type"] == "test" and not it["foe"] and it.get("seat") == seat:
            return it
    return None


def _last_night(log: list[dict], lines: list[LogLine]) -> dict | None:
    start = next((i for i in range(len(log) - 1, -1, -1) if log[i].get("e") == "night"), None)
    if start is None:
        pre = [lines[i] for i, e in enumerate(log) if e.get("e") == "pre_gloom"]
        if not pre:
            return None
        return {"title": "Before the first day", "card": None, "lines": pre, "open": False}
    end = start
    while end + 1 < len(log) and log[end + 1].get("e") not in ("dawn", "daylight"):
        end += 1
    cards = []
    rows = []
    for i in range(start + 1, end + 1):
        e = log[i]
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
        elif e.get("e") in NIGHT_KINDS:
            rows.append(lines[i])
    over = end + 1 < len(log)
    if not cards and not rows:
        return None
    return {
        "title": f"Night after day {log[start].get('day')}",
        "cards": cards,
        "lines": rows,
        "open": not over,
    }


# -- log, result, glossary -----------------------------------------------------------------------


def _log_rows(lines: list[LogLine], viewer: int | None) -> list[dict]:
    rows = []
    prev_day = None
    for line in reversed(lines):
        rows.append(
            {
                "line": line,
                "mine": viewer is not None and viewer in line.seats,
                "new_day": line.day != prev_day,
                "day": line.day,
            }
        )
        prev_day = line.day
    return rows


def _result(view: dict, person: Names) -> dict | None:
    res = view.get("result")
    if not res:
        return None
    vp = res.get("vp") or []
    winners = set(res.get("winners") or [])
    heroes = {h["seat"]: h for h in view.get("heroes") or []}
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
    coop = view.get("mode") != "competitive"
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


def render_full_log(view: dict, *, viewer: int | None, players: dict[int, str]) -> str:
    """The whole game log for one viewer (the board shows only its newest part)."""
    context = board_context(view, viewer=viewer, players=players, online=set(), table_slug="")
    # Not memoized (board/parts.py): a whole game's rows would crowd out the live boards' parts.
    row = get_template("kilforth/_log_row.html")
    context["rows"] = [mark_safe(row.render({"r": r})) for r in context["log"]]  # noqa: S308
    return render_to_string("kilforth/full_log.html", context)

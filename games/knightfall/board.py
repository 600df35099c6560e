"""The Knight Fall board: HTML for one viewer, built only from `engine.api.view(state, viewer)`.

Every changing part is one element between part markers (ids `kf-*`; the board template gets
empty slots, `frames.compose` fills them), so a socket is sent only the parts a decision
changed. The board root carries neither `#game-board` nor
`#game-flash`: the platform frames it (games/tables/frames.board_frame).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.knightfall.engine.board import CENTRE, number
from games.knightfall.engine.content import content
from games.knightfall.engine.core import EVENTS, sentence
from games.tables import frames

LOG_LINES = 14
TEAM_NAMES = {"knights": "Knights", "demons": "Demons"}
UNIT_NAMES = {
    "elder": "Elder",
    "imp": "Imp",
    "stone_golem": "Stone golem",
    "bone_crawler": "Bone crawler",
    "ice_golem": "Ice golem",
    "slag_golem": "Slag golem",
}
ORDER = {"knight": 0, "demon": 1, "elder": 2}
SHAPES = {"knight": "knight", "demon": "demon", "elder": "elder"}
WAITING = {
    "characters": "choose a character",
    "turn": "play a card",
    "symbols": "use a card's symbols",
    "target": "pick a target",
    "block": "decide whether to block",
    "move": "move",
    "tile": "pick a tile",
    "command": "command a minion",
    "minion": "choose a minion",
    "defend": "decide whether to defend an ally",
    "guard": "choose which knight guards the elder",
    "heal": "choose whom to heal",
    "push": "choose whom to push",
    "place": "place a minion",
    "golem": "place a stone golem",
    "imp": "place an imp",
    "desperate": "make a desperate choice",
    "frost": "decide whether to spend frost",
    "bound": "decide whether an imp takes the blow",
    "retribution": "decide whether to strike back",
    "gaze": "choose whom the stare falls on",
    "minion_order": "choose the order the minions act in",
}
PORTAL_TEXT = (
    "A portal of the Veil Strider stands here. The Veil Strider (or, once it has fallen, the"
    " knight who takes its place) may step through to its other portal's tile as one step of a"
    " move. Portals stay when the Veil Strider falls."
)
SYMBOL_NAMES = {
    "melee": "melee",
    "ranged": "ranged",
    "move": "move",
    "heal": "heal",
    "magic": "magic",
    "defend": "defend",
    "command": "command",
}


def _card(cid: str) -> dict:
    """A card's content by its copy id ("kp_strike#1", "basic_2")."""
    return content().cards.get(cid.split("#")[0], {"name": cid, "text": "", "symbols": []})


def _unit_name(unit: dict) -> str:
    if unit["type"] in ("knight", "demon"):
        return content().chars[unit["char"]]["name"]
    return UNIT_NAMES.get(unit["type"], unit["type"].replace("_", " ").capitalize())


def _unit(unit: dict, view: dict, players: dict[int, str]) -> dict:
    seat = unit.get("seat")
    return {
        "id": unit["id"],
        "tile": unit["tile"],
        "name": _unit_name(unit),
        # The number the log and the choices name it by ("imp 2"), not its internal id.
        "number": number(unit),
        "type": unit["type"],
        "shape": SHAPES.get(unit["type"], "minion"),
        "side": unit["side"],
        "hp": unit["hp"],
        "max_hp": unit["max_hp"],
        "defense": unit.get("defense", 0) if unit["type"] == "knight" else None,
        "max_def": unit.get("max_def", 0),
        "owner": players.get(seat, "") if seat is not None else "",
        "seat": seat,
        "active": view["turn"].get("unit") == unit["id"],
        "sealed": bool(unit.get("seal")),
    }


def _option_card(key: str, hand: list[str]) -> str | None:
    """The hand card an option acts on, read from its key (None: not tied to one card)."""
    parts = key.split(":")
    if parts[0] == "basic":
        return next((c for c in hand if c.startswith("basic")), None)
    return next((c for c in hand if c in parts), None)


def context(view: dict, viewer: int | None, players: dict[int, str], online: set[int]) -> dict:
    """Everything the board templates show, from one viewer's view."""
    c = content()
    units = [u for u in view["units"].values() if u["tile"] is not None]
    gates = [e["tile"] for e in view.get("effects", []) if e["kind"] == "portal"]
    tiles = []
    for index, tile_id in enumerate(view["tiles"]):
        tile = c.tiles.get(tile_id, {"name": tile_id, "text": ""})
        here = [_unit(u, view, players) for u in units if u["tile"] == index]
        here.sort(key=lambda u: ORDER.get(u["type"], len(ORDER)))
        tiles.append(
            {
                "index": index,
                "name": tile["name"],
                "text": tile["text"],
                "seal": index == CENTRE,
                "units": here,
                "portal": PORTAL_TEXT if index in gates else "",
            }
        )
    prompt = view["prompt"]
    mine = prompt is not None and prompt.get("seat") == viewer and "options" in prompt
    me = next((p for p in view["players"] if p["seat"] == viewer), None)
    hand_ids: list[str] = list(me["hand"]) if me and isinstance(me["hand"], list) else []
    by_card: dict[str, list[dict]] = {cid: [] for cid in hand_ids}
    loose: list[dict] = []
    if mine:
        for o in prompt["options"]:
            cid = _option_card(o["key"], hand_ids) if prompt["kind"] == "turn" else None
            (by_card[cid] if cid else loose).append(o)
    hand = [
        {
            "id": cid,
            "name": _card(cid)["name"],
            "text": _card(cid)["text"],
            "symbols": [SYMBOL_NAMES.get(s, s) for s in _card(cid).get("symbols", [])],
            "options": [o for o in by_card[cid] if not o["key"].startswith("minor:")],
            "minors": [
                o | {"short": o["key"].rsplit(":", 1)[-1]}
                for o in by_card[cid]
                if o["key"].startswith("minor:")
            ],
        }
        for cid in hand_ids
    ]
    units_by_id = view["units"]
    sides = []
    for team in ("demons", "knights"):
        seats = []
        for p in view["players"]:
            if p["team"] != team:
                continue
            chars = []
            for slot in view["slots"]:
                if slot["seat"] != p["seat"]:
                    continue
                unit = units_by_id.get(slot["unit"] or "")
                if unit is not None:
                    char = c.chars[unit["char"]]
                    chars.append(
                        _unit(unit, view, players)
                        | {
                            "power": char["power"]["text"],
                            "magic": char["magic"]["name"],
                            "fallen": unit["tile"] is None,
                        }
                    )
                pair = units_by_id.get(slot.get("pair") or "")
                if pair is not None:  # co-op: the demon the cards run against this knight
                    chars.append(_unit(pair, view, players) | {"paired": True})
                elif slot.get("waiting"):
                    chars.append({"name": c.chars[slot["waiting"]]["name"], "waiting": True})
            hand_size = p["hand"] if isinstance(p["hand"], int) else len(p["hand"])
            seats.append(
                {
                    "seat": p["seat"],
                    "label": f"Seat {p['seat'] + 1}",
                    "name": players.get(p["seat"], f"Seat {p['seat'] + 1}"),
                    "you": p["seat"] == viewer,
                    "online": p["seat"] in online,
                    "hand": hand_size,
                    "slowed": bool(p["slowed"]),
                    "chars": chars,
                    "waiting": prompt is not None and prompt.get("seat") == p["seat"],
                }
            )
        if seats:
            sides.append({"team": team, "name": TEAM_NAMES[team], "seats": seats})
    waiting = ""
    if prompt is not None and not mine and view["result"] is None:
        who = players.get(prompt["seat"], f"Seat {prompt['seat'] + 1}")
        waiting = f"Waiting for {who} to {WAITING.get(prompt['kind'], 'decide')}."
    result = view["result"]
    ending = None
    if result is not None:
        ending = {
            "winner": TEAM_NAMES.get(result.get("winner"), str(result.get("winner"))),
            "reason": result.get("reason", ""),
            "round": result.get("round"),
            "you_won": me is not None and me["team"] == result.get("winner"),
            "you_played": me is not None,
        }
    score = view["score"]
    door = view["door"]
    return {
        "version": view["version"],
        "tiles": tiles,
        "sides": sides,
        "hand": hand,
        "seated": me is not None,
        "my_team": TEAM_NAMES.get(me["team"], "") if me else "",
        "decision": {
            "mine": mine,
            "text": prompt.get("text", "") if mine else "",
            "options": loose,
            "on_cards": mine and any(card["options"] or card["minors"] for card in hand),
            "waiting": waiting,
        },
        "status": {
            "round": view["round"],
            "demons": score["demons"],
            "knights": score["knights"],
            "door": door,
            "demons_pct": min(100, round(100 * score["demons"] / door)) if door else 0,
            "knights_pct": min(100, round(100 * score["knights"] / door)) if door else 0,
            "mode": "Co-op" if view["settings"]["mode"] == "coop" else "Knights against demons",
            "decks": view["decks"],
        },
        "log": [_line(e) for e in view["log"][-LOG_LINES:]],
        "result": ending,
    }


def _line(entry: dict) -> dict:
    try:
        text = sentence(entry) if entry.get("e") in EVENTS else str(entry.get("e", ""))
    except (KeyError, IndexError, ValueError):
        text = str(entry.get("e", ""))
    return {"kind": entry.get("e", ""), "text": text}


def render(view: dict, viewer: int | None, players: dict[int, str], online: set[int]) -> str:
    """The whole board for one viewer, its changing parts marked and known as data: the board
    template gets each part as its empty slot, `frames.compose` fills them."""
    ctx = context(view, viewer, players, online)
    bodies: dict[str, str] = {}

    def _part(part_id: str, template: str, **values: Any) -> str:
        bodies[part_id] = render_to_string(template, {"part_id": part_id, **values}).strip()
        return frames.slot(part_id)

    parts = {
        "status": _part("kf-status", "knightfall/_status.html", status=ctx["status"]),
        "result": _part("kf-result", "knightfall/_result.html", result=ctx["result"]),
        "decision": _part(
            "kf-decision",
            "knightfall/_decision.html",
            decision=ctx["decision"],
            version=ctx["version"],
        ),
        "hand": _part(
            "kf-hand",
            "knightfall/_hand.html",
            hand=ctx["hand"],
            seated=ctx["seated"],
            my_team=ctx["my_team"],
            version=ctx["version"],
        ),
        "grid": _part("kf-grid", "knightfall/_grid.html", tiles=ctx["tiles"]),
        "sides": _part("kf-sides", "knightfall/_sides.html", sides=ctx["sides"]),
        "log": _part("kf-log", "knightfall/_log.html", log=ctx["log"]),
    }
    return frames.compose(render_to_string("knightfall/board.html", {"parts": parts}), bodies)


def page_parts() -> str:
    """The stylesheet and the unit shapes: once per page, never inside each board frame."""
    return _page_parts()


@lru_cache(maxsize=1)
def _page_parts() -> SafeString:
    link = format_html('<link rel="stylesheet" href="{}">', static("css/knightfall.css"))
    sprite = render_to_string("knightfall/_sprite.html")
    return mark_safe(link + sprite)  # noqa: S308 - our own template


def render_full_log(history: list, viewer: int | None) -> str:
    """Every event of the game this viewer may read, oldest first."""
    lines = [
        _line(entry)
        for entry in history
        if isinstance(entry, dict) and entry.get("vis") in (None, viewer)
    ]
    link = format_html('<link rel="stylesheet" href="{}">', static("css/knightfall.css"))
    body = render_to_string("knightfall/full_log.html", {"log": lines})
    return mark_safe(link + body)  # noqa: S308 - our own template, autoescaped

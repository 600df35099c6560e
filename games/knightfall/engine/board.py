"""The 3x3 monastery grid (KSET-1, KLOC-2, KLOC-3) and unit queries (KLOC-4)."""

from __future__ import annotations

from .core import GameState, Unit

CENTRE = 4
CORNERS = (0, 2, 6, 8)
# The outer ring, clockwise from the top-left corner (KCOOP-11).
RING = (0, 1, 2, 5, 8, 7, 6, 3)
MINIONS = ("imp", "bone_crawler", "stone_golem", "ice_golem", "slag_golem")
CHARACTERS = ("knight", "demon")


def neighbours(tile: int) -> list[int]:
    """Tiles sharing an edge with `tile` (orthogonal only, KLOC-2)."""
    r, c = divmod(tile, 3)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < 3 and 0 <= cc < 3:
            out.append(rr * 3 + cc)
    return out


def distance(a: int, b: int) -> int:
    """Steps between edge-sharing tiles."""
    return abs(a // 3 - b // 3) + abs(a % 3 - b % 3)


def on_board(state: GameState) -> list[Unit]:
    """Every unit standing on a tile."""
    return [u for u in state["units"].values() if u["tile"] is not None]


def at(state: GameState, tile: int) -> list[Unit]:
    """Units on one tile."""
    return [u for u in on_board(state) if u["tile"] == tile]


def enemies(a: Unit, b: Unit) -> bool:
    """KLOC-4: units of the other team."""
    return a["side"] != b["side"]


def close(a: Unit, b: Unit) -> bool:
    """KLOC-3: on the same tile (never oneself)."""
    return a["id"] != b["id"] and a["tile"] is not None and a["tile"] == b["tile"]


def adjacent(a: Unit, b: Unit) -> bool:
    """KLOC-3: on an edge-sharing tile; a close unit is never adjacent."""
    if a["tile"] is None or b["tile"] is None:
        return False
    return distance(a["tile"], b["tile"]) == 1


def guarded(state: GameState, elder: Unit) -> bool:
    """KDEF-3: an elder close to a knight."""
    return elder["type"] == "elder" and any(
        u["type"] == "knight"
        for u in at(state, elder["tile"])  # type: ignore[arg-type]
    )


def is_minion(u: Unit) -> bool:
    """KMIN-1."""
    return u["type"] in MINIONS


def tile_name(state: GameState, tile: int | None) -> str:
    if tile is None:
        return "off the board"
    return state["tiles"][tile].replace("_", " ")


def number(u: Unit) -> int | None:
    """The number a player reads on a minion or an elder: a minion's is its standee's (the
    lowest free one of its kind when it was placed), an elder's its place in the setup (1-8);
    None for a character. Never the engine's internal id ("m42")."""
    if u["type"] in CHARACTERS:
        return None
    if u["type"] == "elder" and u["id"][1:].isdigit():
        return int(u["id"][1:]) + 1
    return u.get("n") or None


def name(state: GameState, u: Unit) -> str:
    """A unit's display name: a character's name, else its kind and number ("imp 2")."""
    from .content import content

    if u["type"] in CHARACTERS:
        return content().chars[u["char"]]["name"]
    kind = u["type"].replace("_", " ")
    n = number(u)
    return f"{kind} {n}" if n else kind


# ---- the sewer (KLOC-5..7) -------------------------------------------------------------------
_DIRS = {-3: "n", 3: "s", -1: "w", 1: "e"}


def direction(a: int, b: int) -> str:
    """The side of tile `a` that faces its neighbour `b` (n, s, w or e)."""
    return _DIRS[b - a]


def sewer(state: GameState) -> int | None:
    """The sewer's board position when location effects are on (KVAR-2), else None."""
    from .content import content

    if not state["settings"].get("locations"):
        return None
    for pos, tid in enumerate(state["tiles"]):
        if content().tiles[tid].get("effect") == "sewer":
            return pos
    return None


def banks(state: GameState) -> dict[str, list[str]]:
    """The sewer's banks and the sides of the tile each borders (tile data, KLOC-7)."""
    from .content import content

    for tid in state["tiles"]:
        t = content().tiles[tid]
        if t.get("effect") == "sewer":
            return t["banks"]
    return {}


def bank(state: GameState, u: Unit) -> str | None:
    """The bank a unit on the sewer stands on (a unit placed there stands on the first bank)."""
    if u["tile"] is None or u["tile"] != sewer(state):
        return None
    return u.get("bank") or next(iter(banks(state)))  # type: ignore[return-value]


def same_side(state: GameState, a: Unit, b: Unit) -> bool:
    """Close and not split by the sewer's water (KLOC-5)."""
    return a["tile"] == b["tile"] and bank(state, a) == bank(state, b)


def entry_banks(state: GameState, frm: int, to: int) -> list[str]:
    """The banks of the sewer at `to` that border the tile `frm` (KLOC-7)."""
    d = direction(to, frm)
    return [b for b, sides in banks(state).items() if d in sides]


def exits(state: GameState, u: Unit) -> list[int]:
    """Tiles a unit may step to by its own move: from the sewer, only those its bank borders."""
    here = u["tile"]
    if here is None:
        return []
    if here != sewer(state):
        return neighbours(here)
    sides = banks(state)[bank(state, u)]  # type: ignore[index]
    return [t for t in neighbours(here) if direction(here, t) in sides]

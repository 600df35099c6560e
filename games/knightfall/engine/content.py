"""Cards as data: loading and validating the JSON files under games/knightfall/content/."""

from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass, field

from .core import CARD_STEPS

ROOT = pathlib.Path(__file__).resolve().parent.parent / "content"
SYMBOLS = ("melee", "ranged", "move", "heal", "magic", "defend", "command")
BACKS = {
    "knights": ("melee", "ranged", "move", "heal", "magic", "defend"),
    "demons": ("melee", "ranged", "move", "heal", "magic", "command"),
}
AI_STEPS = ("ai_move", "ai_attack", "ai_ring", "ai_magic", "ai_respawn")


class ContentError(ValueError):
    """A content file that breaks the schema, with the place and reason."""


def _check_steps(where: str, steps: object, allow_ai: bool = False) -> None:
    from . import steps as _  # noqa: F401  (registers the card steps)

    if not isinstance(steps, list):
        raise ContentError(f"{where}: 'steps' must be a list")
    for i, s in enumerate(steps):
        if not isinstance(s, dict) or "k" not in s:
            raise ContentError(f"{where}: step {i} must be an object with a 'k'")
        k = s["k"]
        if k not in CARD_STEPS or (k.startswith("ai_") and not allow_ai):
            raise ContentError(f"{where}: step {i} has unknown kind {k!r}")
        params = CARD_STEPS[k]
        for p, typ in params.items():
            if p not in s:
                raise ContentError(f"{where}: step {i} ({k}) is missing {p!r}")
            if not isinstance(s[p], typ):
                raise ContentError(f"{where}: step {i} ({k}) {p!r} must be {typ.__name__}")
        extra = set(s) - set(params) - {"k", "slow", "free"}
        if extra:
            raise ContentError(f"{where}: step {i} ({k}) has unknown field(s) {sorted(extra)}")


def validate(kind: str, data: dict) -> None:
    """Raise ContentError for a bad file of `kind` (characters, power, coop, locations)."""
    from .powers import PASSIVES

    if kind == "characters":
        for c in data.get("characters", []):
            w = f"character {c.get('id', '?')}"
            for f in ("id", "name", "team", "health", "max_health", "magic", "power"):
                if f not in c:
                    raise ContentError(f"{w}: missing {f!r}")
            if c["team"] not in BACKS:
                raise ContentError(f"{w}: team must be knights or demons")
            if not 1 <= c["health"] <= c["max_health"]:
                raise ContentError(f"{w}: health must be between 1 and max_health")
            if c["team"] == "knights" and not 0 <= c.get("defense", -1) <= c.get("max_defense", -1):
                raise ContentError(f"{w}: a knight needs defense <= max_defense")
            if c["power"].get("kind") not in PASSIVES:
                raise ContentError(f"{w}: unknown ongoing power {c['power'].get('kind')!r}")
            _check_steps(f"{w} magic", c["magic"].get("steps"))
            from .coop import TRAITS

            bad = [t for t in c.get("coop", {}).get("traits", []) if t not in TRAITS]
            if bad:
                raise ContentError(f"{w}: unknown co-op trait(s) {bad}")
            ice = c.get("ice")
            if ice is not None and not 0 <= ice.get("start", -1) <= ice.get("max", -1):
                raise ContentError(f"{w}: an ice track needs 0 <= start <= max")
    elif kind == "power":
        for c in data.get("cards", []):
            w = f"card {c.get('id', '?')}"
            for f in ("id", "name", "team", "text", "steps", "symbols"):
                if f not in c:
                    raise ContentError(f"{w}: missing {f!r}")
            if c["team"] not in BACKS:
                raise ContentError(f"{w}: team must be knights or demons")
            bad = [s for s in c["symbols"] if s not in BACKS[c["team"]]]
            if bad or not 1 <= len(c["symbols"]) <= 2:
                raise ContentError(f"{w}: 1-2 symbols from {BACKS[c['team']]}, not {bad}")
            if "seal" in c and c["seal"] not in PASSIVES:
                raise ContentError(f"{w}: unknown seal benefit {c['seal']!r}")
            _check_steps(w, c["steps"])
    elif kind == "coop":
        for c in data.get("cards", []):
            for half in ("top", "bottom"):
                if half not in c:
                    raise ContentError(f"co-op card {c.get('id', '?')}: missing {half!r}")
                _check_steps(f"co-op card {c['id']} {half}", c[half].get("steps"), True)
    elif kind == "locations":
        tiles = data.get("tiles", [])
        if len(tiles) != 9 or tiles[0].get("id") != "seal":
            raise ContentError("locations: exactly 9 tiles, the seal tile first")
        for t in tiles:
            if t.get("effect") == "sewer":
                sides = t.get("banks", {})
                if len(sides) != 2 or any(set(v) - set("nswe") for v in sides.values()):
                    raise ContentError("locations: the sewer needs 2 banks bordering n/s/w/e")
    elif kind == "track":
        doors = data.get("door", {})
        if sorted(doors) != ["2", "3", "4", "5", "6"] or any(
            not isinstance(v, int) or v < 2 for v in doors.values()
        ):
            raise ContentError("track: a door (2 or more) for every standard count, 2 to 6")
        supply = data.get("supply", {})
        if sorted(supply) != ["2", "3", "4", "5", "6"] or any(
            set(v) - {"imp", "stone_golem"} or min(v.values()) < 1 for v in supply.values()
        ):
            raise ContentError("track: imp and stone golem standees (1 or more) for 2 to 6")
        levels = data.get("coop_levels", {})
        if "normal" not in levels:
            raise ContentError("track: the co-op levels need a normal level")
        for key, lv in levels.items():
            for f in ("name", "door", "demon_health", "imps", "golems", "imp_standees"):
                if f not in lv:
                    raise ContentError(f"track: co-op level {key} lacks {f}")
            if lv["door"] < 2 or lv["demon_health"] < 0 or lv["imps"] < 0 or lv["golems"] < 1:
                raise ContentError(f"track: co-op level {key} has a negative figure")
            if lv["imp_standees"] < 4:  # 3 at setup, 1 more in the desperate variant (KVAR-3)
                raise ContentError(f"track: co-op level {key} needs 4 or more imp standees")
    else:
        raise ContentError(f"unknown content kind {kind!r}")


@dataclass
class Content:
    chars: dict[str, dict] = field(default_factory=dict)
    cards: dict[str, dict] = field(default_factory=dict)
    coop: dict[str, dict] = field(default_factory=dict)
    tiles: dict[str, dict] = field(default_factory=dict)
    doors: dict[int, int] = field(default_factory=dict)
    coop_levels: dict[str, dict] = field(default_factory=dict)
    supply: dict[int, dict[str, int]] = field(default_factory=dict)

    def load(self) -> None:
        for kind, fname in (
            ("characters", "characters.json"),
            ("power", "power.json"),
            ("coop", "coop.json"),
            ("locations", "locations.json"),
            ("track", "track.json"),
        ):
            data = json.loads((ROOT / fname).read_text(encoding="utf-8"))
            validate(kind, data)
            if kind == "characters":
                self.chars = {c["id"]: c for c in data["characters"]}
            elif kind == "power":
                self.cards = {c["id"]: c for c in data["cards"]}
            elif kind == "coop":
                self.coop = {c["id"]: c for c in data["cards"]}
            elif kind == "track":
                self.doors = {int(n): v for n, v in data["door"].items()}
                self.coop_levels = dict(data["coop_levels"])
                self.supply = {int(n): dict(v) for n, v in data["supply"].items()}
            else:
                self.tiles = {t["id"]: t for t in data["tiles"]}
        for b in json.loads((ROOT / "basic.json").read_text(encoding="utf-8"))["cards"]:
            self.cards[b["id"]] = b


CONTENT = Content()


def content() -> Content:
    """The loaded content (loaded once)."""
    if not CONTENT.chars:
        CONTENT.load()
    return CONTENT

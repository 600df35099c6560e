"""Loading and validating card declarations from the content/ data files.

Cards are plain TOML tables. Each file holds arrays named after the card kind
(`location`, `encounter`, `reward`, `loot`, `race`, `class`, `skill`, `saga`, `ancient`, `night`).
Effects are lists of steps: `{k = "gain_gold", n = 2}`; their kinds must be registered in
steps.py, and validation names the file and card id of any mistake.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"

ATTRS = ("fight", "study", "sneak", "influence")
TERRAINS = ("badlands", "forest", "mountain", "plains")
ENC_TYPES = ("enemy", "place", "quest", "stranger", "event")
REWARD_DECKS = ("item", "title", "spell", "ally")
# The keywords cards may bear (SAGA-3: encounter and reward types count as keywords too). A new
# keyword is added here, so that a typo in a card file is an error rather than a keyword nobody
# can ever pay. Unique keywords (LIM-2) are declared by their leading "*" and need no entry.
THEMES = ("beast", "coin", "fire", "holy", "lore", "silver")
KEYWORDS = frozenset(ENC_TYPES + REWARD_DECKS + THEMES)
# REW-2: the reward deck that matches a defeated encounter type.
REWARD_FOR = {"enemy": "item", "place": "title", "quest": "spell", "stranger": "ally"}
NIGHT_TYPES = ("weather", "event", "enemy", "place", "quest", "stranger")
SKILL_TYPES = ("arcane", "martial", "pious", "shadow")
KINDS = ("location", "encounter", "reward", "loot", "race", "class", "skill", "saga", "ancient")
KINDS = KINDS + ("night",)

# Defaults of the fields an encounter may have; night cards share them.
_ENCOUNTER_DEFAULTS: dict = {
    "fight": 0,
    "study": 0,
    "sneak": 0,
    "influence": 0,
    "health": 0,
    "gold": 0,
    "keywords": [],
    "weakness": "",
    "trophy": [],
    "trophy_forced": False,
    "effect": [],
    "text": "",
}


# Fields each kind must have (others are optional with defaults filled in below).
REQUIRED = {
    "location": ("id", "name", "edition", "terrain"),
    "encounter": ("id", "name", "type", "terrain"),
    "reward": ("id", "name", "deck", "gold"),
    "loot": ("id", "name"),
    "race": ("id", "name", "female"),
    "class": ("id", "name", "skill_types"),
    "skill": ("id", "name", "type", "level"),
    "saga": ("id", "name", "class", "chapters", "finale", "totem"),
    "ancient": ("id", "name", "health", "fight", "gold", "where", "plots"),
    "night": ("id", "name", "edition", "type", "location"),
}
DEFAULTS = {
    "location": {
        "gloom": 1,
        "symbol": "",
        "market": False,
        "centre": "",
        "arrive": [],
        "gloom_arrive": [],
        "night": None,
        "text": "",
    },
    "encounter": _ENCOUNTER_DEFAULTS,
    "reward": {
        "bonus": {},
        "keywords": [],
        "where": [],
        "deed": [],
        "veil": False,
        "reroll": False,
        "text": "",
    },
    "loot": {"gold": 0, "deed": [], "text": ""},
    "race": {"fight": 0, "study": 0, "sneak": 0, "influence": 0, "female_attrs": {}, "text": ""},
    "class": {"fight": 0, "study": 0, "sneak": 0, "influence": 0},
    "skill": {"bonus": {}, "deed": [], "veil": False, "reroll": False, "text": ""},
    "saga": {},
    "ancient": {"abilities": {}, "gloom_terrains": [], "text": ""},
    # A night card can be an encounter going into play (NIGHT-4): it takes the same fields.
    "night": {**_ENCOUNTER_DEFAULTS, "mods": {}, "nightly": []},
}


class ContentError(ValueError):
    """A card file is wrong; the message names the file and the card id."""


class Content:
    """All cards, indexed by id and by kind."""

    def __init__(self) -> None:
        self.cards: dict[str, dict] = {}
        self.by_kind: dict[str, list[str]] = {k: [] for k in KINDS}
        self.plots: dict[str, dict] = {}
        self.totems: dict[str, dict] = {}

    def card(self, cid: str) -> dict:
        return self.cards[cid]

    @property
    def races(self) -> list[str]:
        return self.by_kind["race"]

    @property
    def classes(self) -> list[str]:
        return self.by_kind["class"]

    def locations(self, edition: str) -> list[str]:
        return [c for c in self.by_kind["location"] if self.cards[c]["edition"] == edition]

    def night(self, edition: str) -> list[str]:
        return [c for c in self.by_kind["night"] if self.cards[c]["edition"] == edition]

    def where(self, card: dict, edition: str) -> str | None:
        """The one location of `edition` among a card's `where` list."""
        for loc in card.get("where", []):
            if self.cards.get(loc, {}).get("edition") == edition:
                return loc
        return None


def _fail(path: Path, cid: str, msg: str) -> None:
    raise ContentError(f"{path.name}: card {cid!r}: {msg}")


def _check_steps(path: Path, cid: str, steps: object, known: set[str]) -> None:
    if not isinstance(steps, list):
        _fail(path, cid, "effects must be a list of steps")
    for s in steps:  # type: ignore[union-attr]
        if not isinstance(s, dict) or "k" not in s:
            _fail(path, cid, f"step {s!r} needs a kind 'k'")
        if s["k"] not in known:
            _fail(path, cid, f"unknown step kind {s['k']!r}")
        for key in ("steps", "pass", "fail"):
            if key in s:
                _check_steps(path, cid, s[key], known)
        for opt in s.get("options", []):
            if "label" not in opt:
                _fail(path, cid, "each choice option needs a label")
            _check_steps(path, cid, opt.get("steps", []), known)


def load_files(files: list[Path], known_steps: set[str]) -> Content:
    """Load and validate the given TOML files into a Content index."""
    c = Content()
    origin: dict[str, Path] = {}
    for path in files:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ContentError(f"{path.name}: invalid TOML: {exc}") from exc
        for kind, items in data.items():
            if kind not in KINDS:
                raise ContentError(f"{path.name}: unknown card kind {kind!r}")
            for raw in items:
                cid = raw.get("id", "?")
                for req in REQUIRED[kind]:
                    if req not in raw:
                        _fail(path, cid, f"missing field {req!r}")
                if cid in c.cards:
                    _fail(path, cid, f"duplicate id (also in {origin[cid].name})")
                card = {**DEFAULTS[kind], **raw, "kind": kind}
                for key in ("arrive", "gloom_arrive", "trophy", "effect", "deed", "nightly"):
                    if key in card:
                        _check_steps(path, cid, card[key], known_steps)
                if card.get("night") is not None:
                    _check_steps(path, cid, card["night"], known_steps)
                _validate_kind(path, kind, card, known_steps)
                c.cards[cid] = card
                origin[cid] = path
                c.by_kind[kind].append(cid)
                if kind == "ancient":
                    for p in card["plots"]:
                        if "id" not in p or p["id"] in c.cards:
                            _fail(path, cid, f"plot {p.get('id')!r} missing or duplicate id")
                        plot = {
                            "kind": "plot",
                            "ancient": cid,
                            "ability": {},
                            "enter": [],
                            "text": "",
                            **p,
                        }
                        _check_steps(path, p["id"], plot["enter"], known_steps)
                        c.cards[p["id"]] = plot
                        c.plots[p["id"]] = plot
                if kind == "saga":
                    t = {
                        "kind": "totem",
                        "id": cid + ".totem",
                        "bonus": {},
                        "keywords": [],
                        "deed": [],
                        "veil": False,
                        "reroll": False,
                        "where": [],
                        **card["totem"],
                    }
                    t["id"] = cid + ".totem"
                    c.cards[t["id"]] = t
                    c.totems[t["id"]] = t
    _cross_check(c, origin)
    return c


def _validate_kind(path: Path, kind: str, card: dict, known: set[str]) -> None:
    cid = card["id"]
    if kind == "location":
        if card["terrain"] not in TERRAINS + ("none",):
            _fail(path, cid, f"terrain {card['terrain']!r} unknown")
        if card["edition"] not in ("gloom", "shadows"):
            _fail(path, cid, "edition must be gloom or shadows")
    elif kind == "encounter":
        if card["type"] not in ENC_TYPES:
            _fail(path, cid, f"type {card['type']!r} unknown")
        if card["terrain"] not in TERRAINS:
            _fail(path, cid, f"terrain {card['terrain']!r} unknown")
        if card["type"] == "enemy" and card["health"] < 1:
            _fail(path, cid, "an enemy needs health >= 1")
        if card["type"] in ("place", "quest", "stranger") and not any(card[a] for a in ATTRS):
            _fail(path, cid, "needs at least one attribute value to be confronted")
    elif kind == "reward":
        if card["deck"] not in REWARD_DECKS:
            _fail(path, cid, f"deck {card['deck']!r} unknown")
    elif kind == "night":
        if card["type"] not in NIGHT_TYPES:
            _fail(path, cid, f"type {card['type']!r} unknown")
        if card["type"] == "enemy" and card["health"] < 1:
            _fail(path, cid, "an enemy needs health >= 1")
    elif kind == "skill":
        if card["type"] not in SKILL_TYPES:
            _fail(path, cid, f"skill type {card['type']!r} unknown")
        if card["deed"] and not card["veil"]:
            _fail(path, cid, "a skill's deed must veil it (skills are never sacrificed)")
    elif kind == "class":
        for t in card["skill_types"]:
            if t not in SKILL_TYPES:
                _fail(path, cid, f"skill type {t!r} unknown")
    elif kind == "saga":
        if len(card["chapters"]) != 4:
            _fail(path, cid, "a saga has exactly 4 chapters")
        for ch in card["chapters"]:
            if "interlude" in ch and ch["interlude"].get("attr") not in ATTRS:
                _fail(path, cid, "interlude needs attr")
        if card["finale"].get("attr") not in ATTRS or "need" not in card["finale"]:
            _fail(path, cid, "finale needs attr and need")
    elif kind == "ancient":
        if not card["plots"]:
            _fail(path, cid, "an ancient needs plot cards")
    for b in list(card.get("bonus", {})) + list(card.get("female_attrs", {})):
        if b not in ATTRS:
            _fail(path, cid, f"bonus attribute {b!r} unknown")


def _keywords_named(card: dict) -> list[str]:
    """Every keyword a card names: its own, its weakness, and a saga's chapters and totem."""
    named = list(card.get("keywords") or [])
    if card.get("weakness"):
        named.append(card["weakness"])
    for chapter in card.get("chapters") or []:
        named += chapter.get("keywords", []) + chapter.get("solo_keywords", [])
        named += (chapter.get("interlude") or {}).get("keywords", [])
    named += (card.get("totem") or {}).get("keywords", [])
    return named


def _cross_check(c: Content, origin: dict[str, Path]) -> None:
    for cid, card in c.cards.items():
        path = origin.get(cid, Path("?"))
        for keyword in _keywords_named(card):
            if keyword not in KEYWORDS and not keyword.startswith("*"):
                _fail(path, cid, f"unknown keyword {keyword!r} (known: engine/cards.py KEYWORDS)")
        for loc in card.get("where", []):
            if c.cards.get(loc, {}).get("kind") != "location":
                _fail(path, cid, f"unknown location {loc!r}")
        if card["kind"] == "night" and c.cards.get(card["location"], {}).get("kind") != "location":
            _fail(path, cid, f"unknown location {card['location']!r}")
        if card["kind"] == "class" and card.get("saga") and card["saga"] not in c.cards:
            _fail(path, cid, f"unknown saga {card['saga']!r}")
        if card["kind"] == "saga":
            for ch in card["chapters"]:
                for loc in ch.get("interlude", {}).get("where", []):
                    if c.cards.get(loc, {}).get("kind") != "location":
                        _fail(path, cid, f"unknown interlude location {loc!r}")
            for loc in card["finale"].get("where", []):
                if c.cards.get(loc, {}).get("kind") != "location":
                    _fail(path, cid, f"unknown finale location {loc!r}")


@lru_cache(maxsize=1)
def content() -> Content:
    """The game's card set, loaded once per process."""
    from . import steps  # the registry must be complete before validation

    steps.load_all()
    files = sorted(CONTENT_DIR.rglob("*.toml"))
    return load_files(files, set(steps.CARD_STEPS))

"""Loading and validating card declarations from the content/ data files.

Cards are plain TOML tables. Each file holds arrays named after the card kind
(`location`, `encounter`, `reward`, `loot`, `race`, `class`, `skill`, `saga`, `ancient`, `night`).
Every field a kind may have is declared with its type in `FIELDS` (required ones in `REQUIRED`,
defaults in `DEFAULTS`); a field not declared is refused. Effects are lists of steps:
`{k = "gain_gold", n = 2}`; their kinds must be registered in steps.py, with the parameters each
declares there. Validation names the file and card id of any mistake.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from functools import lru_cache
from pathlib import Path

from games.kilforth.engine.cards import steps
from games.kilforth.engine.cards.schema import (
    BOOL,
    INT,
    STEPS,
    STR,
    STRS,
    ListOf,
    SchemaError,
    Spec,
    Table,
    check,
    one_of,
)
from games.kilforth.engine.cards.steps import CARD_PARAMS

CONTENT_DIR = Path(__file__).resolve().parents[2] / "content"

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

# The type of every field each kind may have (schema.py); a field not listed here is refused.
_ATTR_INTS: dict[str, Spec] = {a: INT for a in ATTRS}
BONUS = Table(_ATTR_INTS, name="a table of attribute = integer")  # e.g. {fight = 1}
STRENGTH = Table({"health": INT, "fight": INT}, name="a table of health/fight = integer")
ATTR = one_of(*ATTRS)
_ENCOUNTER_FIELDS: dict[str, Spec] = {
    **_ATTR_INTS,
    "health": INT,
    "gold": INT,
    "keywords": STRS,
    "weakness": STR,
    "trophy": STEPS,
    "trophy_forced": BOOL,
    "effect": STEPS,
    "text": STR,
}
_TEST = {"where": STRS, "attr": ATTR, "need": INT}  # a saga's interlude or finale
CHAPTER = Table(
    {
        "keywords": STRS,
        "solo_keywords": STRS,
        "interlude": Table({**_TEST, "keywords": STRS}, ("attr", "need")),
    }
)
TOTEM = Table(
    {
        "name": STR,
        "gold": INT,
        "bonus": BONUS,
        "keywords": STRS,
        "deed": STEPS,
        "veil": BOOL,
        "reroll": BOOL,
        "text": STR,
    },
    ("name", "gold"),
)
PLOT = Table(
    {
        "id": STR,
        "name": STR,
        "attr": ATTR,
        "need": INT,
        "ability": STRENGTH,
        "enter": STEPS,
        "text": STR,
    },
    ("id", "name", "attr", "need"),
)
FIELDS: dict[str, dict[str, Spec]] = {
    "location": {
        "id": STR,
        "name": STR,
        "edition": STR,
        "terrain": STR,
        "gloom": INT,
        "symbol": STR,
        "market": BOOL,
        "centre": STR,
        "arrive": STEPS,
        "gloom_arrive": STEPS,
        "night": STEPS,
        "text": STR,
    },
    "encounter": {"id": STR, "name": STR, "type": STR, "terrain": STR, **_ENCOUNTER_FIELDS},
    "reward": {
        "id": STR,
        "name": STR,
        "deck": STR,
        "gold": INT,
        "bonus": BONUS,
        "keywords": STRS,
        "where": STRS,
        "deed": STEPS,
        "veil": BOOL,
        "reroll": BOOL,
        "text": STR,
    },
    "loot": {"id": STR, "name": STR, "gold": INT, "deed": STEPS, "text": STR},
    "race": {
        "id": STR,
        "name": STR,
        "female": STR,
        **_ATTR_INTS,
        "female_attrs": BONUS,
        "text": STR,
    },
    "class": {"id": STR, "name": STR, "skill_types": STRS, **_ATTR_INTS, "saga": STR, "text": STR},
    "skill": {
        "id": STR,
        "name": STR,
        "type": STR,
        "level": INT,
        "bonus": BONUS,
        "deed": STEPS,
        "veil": BOOL,
        "reroll": BOOL,
        "text": STR,
    },
    "saga": {
        "id": STR,
        "name": STR,
        "class": STR,
        "chapters": ListOf(CHAPTER, "a list of chapters"),
        "finale": Table({**_TEST, "text": STR}, ("attr", "need")),
        "totem": TOTEM,
    },
    "ancient": {
        "id": STR,
        "name": STR,
        "health": INT,
        "fight": INT,
        "gold": INT,
        "where": STRS,
        "plots": ListOf(PLOT, "a list of plot cards"),
        "abilities": STRENGTH,
        "gloom_terrains": STRS,
        "text": STR,
    },
    "night": {
        "id": STR,
        "name": STR,
        "edition": STR,
        "type": STR,
        "location": STR,
        **_ENCOUNTER_FIELDS,
        "mods": BONUS,
        "nightly": STEPS,
    },
}
SCHEMAS = {kind: Table(FIELDS[kind], REQUIRED[kind], "a card") for kind in KINDS}


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


def load_files(files: list[Path], known_steps: Collection[str]) -> Content:
    """Load and validate the given TOML files into a Content index.

    `known_steps`: the step kinds card files may use (their parameters as declared in steps.py).
    """
    c = Content()
    origin: dict[str, Path] = {}
    step_params = {k: CARD_PARAMS.get(k) for k in known_steps}
    for path in files:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ContentError(f"{path.name}: invalid TOML: {exc}") from exc
        for kind, items in data.items():
            if kind not in KINDS:
                raise ContentError(f"{path.name}: unknown card kind {kind!r}")
            if type(items) is not list or not all(type(raw) is dict for raw in items):
                raise ContentError(f"{path.name}: {kind!r} must be an array of cards (tables)")
            for raw in items:
                cid = raw.get("id", "?")
                try:
                    check(raw, SCHEMAS[kind], step_params)
                except SchemaError as exc:
                    _fail(path, cid, str(exc))
                if cid in c.cards:
                    _fail(path, cid, f"duplicate id (also in {origin[cid].name})")
                card = {**DEFAULTS[kind], **raw, "kind": kind}
                _validate_kind(path, kind, card)
                c.cards[cid] = card
                origin[cid] = path
                c.by_kind[kind].append(cid)
                if kind == "ancient":
                    for p in card["plots"]:
                        if p["id"] in c.cards:
                            _fail(path, cid, f"plot {p['id']!r}: duplicate id")
                        plot = {
                            "kind": "plot",
                            "ancient": cid,
                            "ability": {},
                            "enter": [],
                            "text": "",
                            **p,
                        }
                        c.cards[p["id"]] = plot
                        c.plots[p["id"]] = plot
                        origin[p["id"]] = path
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
                    if t["id"] in c.cards:
                        _fail(path, cid, f"its totem's id {t['id']!r} is taken")
                    c.cards[t["id"]] = t
                    c.totems[t["id"]] = t
                    origin[t["id"]] = path
    _cross_check(c, origin)
    return c


def _validate_kind(path: Path, kind: str, card: dict) -> None:
    """The values of a card's fields (their types are already checked against FIELDS)."""
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
    elif kind == "ancient":
        if not card["plots"]:
            _fail(path, cid, "an ancient needs plot cards")


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
                _fail(
                    path,
                    cid,
                    f"unknown keyword {keyword!r} (known: engine/cards/catalogue.py KEYWORDS)",
                )
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

    steps.load_all()
    files = sorted(CONTENT_DIR.rglob("*.toml"))
    return load_files(files, set(steps.CARD_STEPS))

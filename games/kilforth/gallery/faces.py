"""`card_view(card_id) -> dict`: everything needed to draw one card, from public card data alone.

No game state goes in, so the board can draw its cards with the same partials later:
`{% include card.template with card=card %}` (templates/kilforth/gallery/cards/). The dict holds
only strings, numbers, booleans, lists and dicts, and always has the keys listed in `_base`.
"""

from __future__ import annotations

from functools import lru_cache

from games.kilforth.board import rules_help
from games.kilforth.engine import content
from games.kilforth.engine.cards.catalogue import ATTRS, REWARD_FOR, Content

from .census import EDITIONS, editions_of
from .words import sentence

# The order the gallery shows kinds in, with their names.
KIND_LABEL = {
    "location": ("Location", "Locations"),
    "encounter": ("Encounter", "Encounters"),
    "reward": ("Reward", "Rewards"),
    "night": ("Night card", "Night cards"),
    "loot": ("Loot token", "Loot tokens"),
    "race": ("Race", "Races"),
    "class": ("Class", "Classes"),
    "skill": ("Skill", "Skills"),
    "saga": ("Saga", "Sagas"),
    "totem": ("Totem", "Totems"),
    "ancient": ("Ancient", "Ancients"),
    "plot": ("Plot", "Plots"),
}
KINDS = tuple(KIND_LABEL)
TYPE_LABEL = {
    "enemy": "Enemy",
    "place": "Place",
    "quest": "Quest",
    "stranger": "Stranger",
    "event": "Event",
    "weather": "Weather",
}
TERRAIN_LABEL = {
    "badlands": "Badlands",
    "forest": "Forest",
    "mountain": "Mountain",
    "plains": "Plains",
    "none": "No terrain",
}
DECK_LABEL = {
    "badlands": "Badlands encounters",
    "forest": "Forest encounters",
    "mountain": "Mountain encounters",
    "plains": "Plains encounters",
    "item": "Item rewards",
    "title": "Title rewards",
    "spell": "Spell rewards",
    "ally": "Ally rewards",
    "night": "Night deck",
    "loot": "Loot bag",
    "plot": "Plot decks",
}
EDITION_LABEL = {"gloom": "Gloom", "shadows": "Shadows"}
ATTR_LABEL = {"fight": "Fight", "study": "Study", "sneak": "Sneak", "influence": "Influence"}
SYMBOL_LABEL = {"sun": "Sun", "moon": "Moon", "star": "Star"}
REWARD_FROM = {deck: etype for etype, deck in REWARD_FOR.items()}
SKILL_LABEL = {"arcane": "Arcane", "martial": "Martial", "pious": "Pious", "shadow": "Shadow"}


class UnknownCard(KeyError):
    """No card has this id."""


def all_ids(c: Content | None = None) -> list[str]:
    """Every card of the game in gallery order: by kind, then as the files list them."""
    c = c or content()
    by_kind: dict[str, list[str]] = {k: [] for k in KINDS}
    for cid, card in c.cards.items():
        by_kind.setdefault(card.get("kind", ""), []).append(cid)
    return [cid for k in by_kind for cid in by_kind[k]]


def facets(cid: str, c: Content | None = None) -> dict[str, tuple[str, ...]]:
    """What the gallery filters by: kind, type, terrain, deck and edition (each a tuple)."""
    c = c or content()
    card = c.cards[cid]
    kind = card["kind"]
    ctype = card.get("type") if kind in ("encounter", "night") else None
    terrain = card.get("terrain") if kind in ("location", "encounter") else None
    deck = {
        "encounter": card.get("terrain"),
        "reward": card.get("deck"),
        "night": "night",
        "loot": "loot",
        "plot": "plot",
    }.get(kind)
    return {
        "kind": (kind,),
        "type": (ctype,) if ctype else (),
        "terrain": (terrain,) if terrain else (),
        "deck": (deck,) if deck else (),
        "edition": editions_of(c, card),
    }


def card_view(card_id: str) -> dict:
    """One card as data for its partial. Raises UnknownCard for an id no card has."""
    return _card_view(card_id)


@lru_cache(maxsize=2048)
def _card_view(card_id: str) -> dict:
    c = content()
    if card_id not in c.cards:
        raise UnknownCard(card_id)
    card = c.cards[card_id]
    view = _base(c, card)
    build = BUILDERS.get(card["kind"])
    if build:
        build(c, card, view)
    return view


def clear_cache() -> None:
    """Forget drawn cards (tests that swap the content call this)."""
    _card_view.cache_clear()


# --------------------------------------------------------------------------- common parts


def _base(c: Content, card: dict) -> dict:
    kind = card["kind"]
    eds = editions_of(c, card)
    return {
        "id": card["id"],
        "dom_id": "kc-" + "".join(ch if ch.isalnum() else "-" for ch in card["id"]),
        "kind": kind,
        "kind_label": KIND_LABEL.get(kind, (kind.capitalize(),))[0],
        "template": f"kilforth/gallery/cards/_{kind}.html"
        if kind in KIND_LABEL
        else "kilforth/gallery/cards/_card.html",
        "name": str(card.get("name") or card["id"]),
        "badge": {"icon": "deck", "label": KIND_LABEL.get(kind, (kind.capitalize(),))[0]},
        "tone": kind,
        "terrain": "",
        "terrain_label": "",
        "editions": [EDITION_LABEL[e] for e in eds],
        "edition_note": "Both editions" if len(eds) == len(EDITIONS) else EDITION_LABEL[eds[0]],
        "stats": [],
        "values": _values(card),
        "bonus": _bonus(card.get("bonus")),
        "keywords": _keywords(card.get("keywords", [])),
        "weakness": str(card.get("weakness") or ""),
        # Shown on the face only when it is worth something (events and most loot are not).
        "gold": card.get("gold") if isinstance(card.get("gold"), int) and card["gold"] else None,
        "effects": [],
        "text": str(card.get("text") or ""),
        "facts": [],
        "appears": [],
        "related": [],
    }


def _values(card: dict) -> list[dict]:
    return [
        {"attr": a, "label": ATTR_LABEL[a], "value": card.get(a)}
        for a in ATTRS
        if isinstance(card.get(a), int) and card.get(a)
    ]


def _bonus(bonus: object) -> list[dict]:
    if not isinstance(bonus, dict):
        return []
    return [
        {"attr": a, "label": ATTR_LABEL.get(a, a), "value": v, "text": f"{v:+d} {a}"}
        for a, v in bonus.items()
        if isinstance(v, int) and v
    ]


def _keywords(words: object) -> list[dict]:
    out = []
    for w in words if isinstance(words, list) else []:
        word = str(w)
        plain = word.lstrip("*")
        entry = rules_help.help_for(plain)
        out.append(
            {
                "word": plain,
                "unique": word.startswith("*"),
                "help": entry[1] if entry else "",
            }
        )
    return out


def _effect(view: dict, label: str, steps: object, help_text: str = "") -> None:
    if isinstance(steps, list) and steps:
        view["effects"].append({"label": label, "words": sentence(steps), "help": help_text})


def _ref(c: Content, cid: str) -> dict:
    card = c.cards.get(cid, {})
    return {"id": cid, "name": card.get("name", cid), "known": bool(card)}


def _where_by_edition(c: Content, ids: object) -> list[dict]:
    """[{'edition': 'Gloom', 'id': ..., 'name': ...}] for a card's `where` list."""
    out = []
    for loc in ids if isinstance(ids, list) else []:
        ed = c.cards.get(loc, {}).get("edition", "")
        out.append({"edition": EDITION_LABEL.get(ed, ""), **_ref(c, loc)})
    return out


def _appear(view: dict, text: str, refs: list[dict] | None = None) -> None:
    view["appears"].append({"text": text, "refs": refs or []})


def _fact(view: dict, label: str, value: object) -> None:
    if value not in (None, "", [], {}):
        view["facts"].append({"label": label, "value": value})


def _stat(view: dict, key: str, label: str, value: object, icon: str = "") -> None:
    view["stats"].append({"key": key, "label": label, "value": value, "icon": icon or key})


# --------------------------------------------------------------------------- per kind


def _location(c: Content, card: dict, v: dict) -> None:
    terrain = str(card.get("terrain", "none"))
    v.update(
        terrain=terrain,
        terrain_label=TERRAIN_LABEL.get(terrain, terrain.capitalize()),
        badge={"icon": terrain, "label": TERRAIN_LABEL.get(terrain, terrain)},
        gloom=card.get("gloom", 1),
        symbol=str(card.get("symbol") or ""),
        symbol_label=SYMBOL_LABEL.get(str(card.get("symbol")), str(card.get("symbol", ""))),
        market=bool(card.get("market")),
        centre=str(card.get("centre") or ""),
    )
    if v["centre"]:
        v["badge"] = {
            "icon": "none",
            "label": "Harder centre" if v["centre"] == "harder" else "Centre",
        }
    _effect(v, "Arriving (colour side)", card.get("arrive"))
    _effect(v, "Arriving (gloom side)", card.get("gloom_arrive"))
    night = card.get("night")
    if isinstance(night, list) and night:
        v["gloom_text"] = "At night, in gloom: " + sentence(night)[0].lower() + sentence(night)[1:]
        _effect(v, "At night in gloom (instead of losing HP)", night)
    else:
        v["gloom_text"] = f"At night, in gloom: every hero here loses {v['gloom']} HP."
    if v["centre"]:
        _fact(v, "Centre", "Harder centre" if v["centre"] == "harder" else "The centre of the map")
    _fact(v, "Terrain", v["terrain_label"])
    _fact(v, "Gloom value", f"{v['gloom']} HP lost here each night once in gloom")
    if v["symbol"]:
        _fact(v, "Shortcut", f"{v['symbol_label']}: a move links it with the same symbol")
    if v["market"]:
        _fact(v, "Market", "Heal, buy and sell here")
    ed = card.get("edition")
    _appear(v, f"On the {EDITION_LABEL.get(ed, ed)} map.")
    if terrain in TERRAIN_LABEL and terrain != "none":
        _appear(v, f"Searching or arriving here draws from the {terrain} encounter deck.")
    if v["symbol"]:
        twins = [
            _ref(c, i)
            for i in c.by_kind["location"]
            if i != card["id"]
            and c.cards[i].get("edition") == ed
            and c.cards[i].get("symbol") == v["symbol"]
        ]
        if twins:
            _appear(v, f"{v['symbol_label']} shortcut to:", twins)
    rumours = [_ref(c, i) for i, x in c.cards.items() if card["id"] in (x.get("where") or [])]
    discover = [r for r in rumours if c.cards[r["id"]]["kind"] in ("reward", "totem")]
    arrive = [r for r in rumours if c.cards[r["id"]]["kind"] == "ancient"]
    if discover:
        _appear(v, "Rumours discovered here:", discover)
    if arrive:
        _appear(v, "Ancients arrive here:", arrive)
    nights = [_ref(c, i) for i in c.by_kind["night"] if c.cards[i].get("location") == card["id"]]
    if nights:
        _appear(v, "Night cards that throw it into gloom:", nights)
    sagas = []
    for sid in c.by_kind["saga"]:
        s = c.cards[sid]
        spots = list(s.get("finale", {}).get("where", []))
        for ch in s.get("chapters", []):
            spots += ch.get("interlude", {}).get("where", [])
        if card["id"] in spots:
            sagas.append(_ref(c, sid))
    if sagas:
        _appear(v, "Saga finales or interludes here:", sagas)


def _encounter_like(c: Content, card: dict, v: dict) -> None:
    etype = str(card.get("type", ""))
    v.update(
        type=etype,
        type_label=TYPE_LABEL.get(etype, etype.capitalize()),
        badge={"icon": etype if etype != "weather" else "weather", "label": TYPE_LABEL.get(etype)},
        tone=etype,
    )
    if isinstance(card.get("health"), int) and card.get("health"):
        _stat(v, "hp", "Health", card["health"])
    if etype == "stranger":
        v["note"] = "Answers to influence only. Made your enemy, it fights with its fight value."
    forced = bool(card.get("trophy_forced"))
    _effect(
        v,
        "Forced trophy" if forced else "Trophy",
        card.get("trophy"),
        "Must be taken when it is defeated." if forced else "May be taken when it is defeated.",
    )
    _effect(v, "When drawn", card.get("effect"))
    if etype in REWARD_FOR:
        _fact(v, "Reward when defeated", f"a card from the {REWARD_FOR[etype]} deck")
    if v["weakness"]:
        _fact(v, "Weakness", f"overcome it at once with a {v['weakness']} card in play")


def _encounter(c: Content, card: dict, v: dict) -> None:
    terrain = str(card.get("terrain", ""))
    v.update(terrain=terrain, terrain_label=TERRAIN_LABEL.get(terrain, terrain))
    _encounter_like(c, card, v)
    _fact(v, "Deck", f"{TERRAIN_LABEL.get(terrain, terrain)} encounters")
    spots = {
        ed: [_ref(c, i) for i in c.locations(ed) if c.cards[i].get("terrain") == terrain]
        for ed in EDITIONS
    }
    for ed, refs in spots.items():
        if refs:
            _appear(v, f"Drawn at {terrain} locations ({EDITION_LABEL[ed]}):", refs)


def _night(c: Content, card: dict, v: dict) -> None:
    _encounter_like(c, card, v)
    v["tone"] = "night"
    loc = str(card.get("location", ""))
    v["location"] = _ref(c, loc)
    mods = card.get("mods") or {}
    v["mods"] = [
        {"attr": a, "label": ATTR_LABEL.get(a, a), "value": n, "text": f"{n:+d} {a}"}
        for a, n in mods.items()
        if isinstance(n, int) and n
    ]
    _effect(v, "Each night while it lasts", card.get("nightly"))
    _fact(v, "Falls on", v["location"]["name"])
    if v["mods"]:
        _fact(v, "Weather changes every test", ", ".join(m["text"] for m in v["mods"]))
    ed = card.get("edition")
    _appear(
        v,
        f"In the {EDITION_LABEL.get(ed, ed)} night deck. When drawn, this location falls "
        "into gloom:",
        [v["location"]],
    )
    if card.get("type") in ("enemy", "place", "quest", "stranger"):
        _appear(v, "It then waits there as an encounter.")


def _reward(c: Content, card: dict, v: dict) -> None:
    deck = str(card.get("deck", ""))
    v.update(deck=deck, badge={"icon": "deck", "label": "Reward"}, tone=f"r-{deck}")
    _reward_like(c, card, v)
    if deck in REWARD_FROM:
        _appear(v, f"Drawn from the {deck} deck for defeating {_plural(REWARD_FROM[deck])}.")
    _appear(v, "Also bought at a market.")
    where = _where_by_edition(c, card.get("where"))
    v["where"] = where
    if where:
        _appear(v, "As a rumour, discovered at:", where)
        _fact(v, "Discover at", " · ".join(f"{w['name']} ({w['edition']})" for w in where))


def _plural(word: str) -> str:
    return {"enemy": "enemies", "place": "places", "quest": "quests"}.get(word, word + "s")


def _reward_like(c: Content, card: dict, v: dict) -> None:
    veil = bool(card.get("veil"))
    _effect(
        v,
        "Deed (veil)" if veil else "Deed (sacrifice)",
        card.get("deed"),
        "Turn the card aside until dawn." if veil else "The card is discarded after use.",
    )
    if card.get("reroll"):
        v["effects"].append(
            {
                "label": "Re-roll",
                "words": "After a test, veil it to re-roll all failed dice.",
                "help": "",
            }
        )
    uniq = [k["word"] for k in v["keywords"] if k["unique"]]
    if uniq:
        _fact(v, "Unique", f"only one {', '.join(uniq)} asset at a time")
    if v["bonus"]:
        _fact(v, "Bonus dice", ", ".join(b["text"] for b in v["bonus"]))


def _totem(c: Content, card: dict, v: dict) -> None:
    saga_id = card["id"].removesuffix(".totem")
    v.update(badge={"icon": "fate", "label": "Totem"}, saga=_ref(c, saga_id))
    _reward_like(c, card, v)
    _appear(v, "The reward for completing the finale of", [v["saga"]])


def _loot(c: Content, card: dict, v: dict) -> None:
    v.update(badge={"icon": "loot", "label": "Loot"})
    deed = card.get("deed")
    if v["gold"] and not deed:
        v["note"] = f"Cashed at once for {v['gold']} gold."
    _effect(v, "Use once", deed)
    _appear(v, "In the loot bag, drawn at random.")


def _hero_values(card: dict) -> list[dict]:
    return [
        {"attr": a, "label": ATTR_LABEL[a], "value": card.get(a, 0) or 0}
        for a in ATTRS
        if isinstance(card.get(a, 0), int)
    ]


def _race(c: Content, card: dict, v: dict) -> None:
    v.update(badge={"icon": "stranger", "label": "Race"}, values=_hero_values(card))
    female = card.get("female")
    fem_attrs = {**{a: card.get(a, 0) for a in ATTRS}, **(card.get("female_attrs") or {})}
    v["sides"] = [
        {"label": "One side", "name": v["name"], "values": _hero_values(card)},
        {
            "label": "Other side",
            "name": str(female) if isinstance(female, str) else v["name"],
            "values": _hero_values(fem_attrs),
        },
    ]
    for side in v["sides"]:
        numbers = ", ".join(f"{x['label'].lower()} {x['value']}" for x in side["values"])
        _fact(v, side["name"], numbers)
    _fact(v, "Sneak (decides who goes first)", card.get("sneak", 0))
    _appear(v, "Dealt to a hero at setup, with a class.")


def _class(c: Content, card: dict, v: dict) -> None:
    v.update(badge={"icon": "first", "label": "Class"}, values=_hero_values(card))
    types = [str(t) for t in card.get("skill_types", [])]
    v["skill_types"] = [SKILL_LABEL.get(t, t) for t in types]
    _fact(v, "Learns skills", ", ".join(v["skill_types"]))
    if card.get("saga"):
        v["saga"] = _ref(c, card["saga"])
        _appear(v, "Its own saga:", [v["saga"]])
    skills = [_ref(c, i) for i in c.by_kind["skill"] if c.cards[i].get("type") in types]
    if skills:
        _appear(v, "Skills it can learn:", skills)


def _skill(c: Content, card: dict, v: dict) -> None:
    stype = str(card.get("type", ""))
    v.update(
        badge={"icon": "fate", "label": f"{SKILL_LABEL.get(stype, stype)} skill"},
        tone=f"s-{stype}",
        level=card.get("level"),
    )
    _reward_like(c, card, v)
    classes = [_ref(c, i) for i in c.by_kind["class"] if stype in c.cards[i].get("skill_types", [])]
    _appear(v, f"Learned by completing saga chapters, level {card.get('level')}. Classes:", classes)


def _saga(c: Content, card: dict, v: dict) -> None:
    v.update(badge={"icon": "plot", "label": "Saga"})
    chapters = []
    for n, ch in enumerate(card.get("chapters", []), 1):
        item = {
            "n": n,
            "keywords": [str(k) for k in ch.get("keywords", [])],
            "solo": [str(k) for k in ch.get("solo_keywords", [])],
            "interlude": None,
        }
        il = ch.get("interlude")
        if isinstance(il, dict):
            item["interlude"] = {
                "attr": il.get("attr"),
                "need": il.get("need"),
                "keywords": [str(k) for k in il.get("keywords", [])],
                "where": _where_by_edition(c, il.get("where")),
            }
        chapters.append(item)
    fin = card.get("finale") or {}
    v["chapters"] = chapters
    v["finale"] = {
        "attr": fin.get("attr"),
        "need": fin.get("need"),
        "text": fin.get("text", ""),
        "where": _where_by_edition(c, fin.get("where")),
    }
    v["totem"] = _ref(c, card["id"] + ".totem")
    for ch in chapters:
        words = "pay a card for each keyword: " + (", ".join(ch["keywords"]) or "none")
        if ch["solo"]:
            words += f"; with 1-2 players also {', '.join(ch['solo'])}"
        il = ch["interlude"]
        if il:
            spots = " or ".join(f"{w['name']} ({w['edition']})" for w in il["where"])
            words += (
                f". In Shadows it is an interlude instead: a {il['attr']} test, {il['need']}"
                f" successes, at {spots}"
            )
            if il["keywords"]:
                words += f"; with 1-2 players also pay {', '.join(il['keywords'])}"
        _fact(v, f"Chapter {ch['n']}", words)
    fin = v["finale"]
    spots = " or ".join(f"{w['name']} ({w['edition']})" for w in fin["where"])
    _fact(v, "Finale", f"{fin['attr']} test, {fin['need']} successes, at {spots}")
    _fact(v, "Totem", v["totem"]["name"])
    if card.get("class"):
        v["klass"] = _ref(c, card["class"])
        _appear(v, "The saga of the class", [v["klass"]])
    _appear(v, "Its totem:", [v["totem"]])


def _ancient(c: Content, card: dict, v: dict) -> None:
    v.update(badge={"icon": "ancient", "label": "Ancient"})
    _stat(v, "hp", "Health", card.get("health"))
    ab = card.get("abilities") or {}
    v["abilities"] = [f"{n:+d} {k}" for k, n in ab.items() if isinstance(n, int) and n]
    v["gloom_terrains"] = [
        {"terrain": t, "label": TERRAIN_LABEL.get(t, t)} for t in card.get("gloom_terrains", [])
    ]
    v["where"] = _where_by_edition(c, card.get("where"))
    v["plots"] = [_ref(c, p.get("id", "")) for p in card.get("plots", [])]
    _fact(v, "Fight", card.get("fight"))
    if v["abilities"]:
        _fact(v, "Abilities", ", ".join(v["abilities"]))
    if v["gloom_terrains"]:
        terrains = " or ".join(t["label"].lower() for t in v["gloom_terrains"])
        _fact(v, "Plots come out when", f"a {terrains} location falls into gloom")
    _appear(v, "Arrives at:", v["where"])
    _appear(v, "Its plots:", v["plots"])


def _plot(c: Content, card: dict, v: dict) -> None:
    anc = str(card.get("ancient", ""))
    v.update(badge={"icon": "plot", "label": "Plot"}, ancient=_ref(c, anc))
    attr = str(card.get("attr", ""))
    v["defeat"] = {"attr": attr, "label": ATTR_LABEL.get(attr, attr), "need": card.get("need")}
    ab = card.get("ability") or {}
    v["ability"] = [f"{n:+d} {k}" for k, n in ab.items() if isinstance(n, int) and n]
    _effect(v, "When it comes out", card.get("enter"))
    _fact(
        v,
        "To defeat",
        f"{v['defeat']['label']} test, {card.get('need')} successes, with the clear action",
    )
    if v["ability"]:
        _fact(v, "The ancient gains", ", ".join(v["ability"]))
    _appear(v, "In the plot deck of", [v["ancient"]])


BUILDERS = {
    "location": _location,
    "encounter": _encounter,
    "night": _night,
    "reward": _reward,
    "totem": _totem,
    "loot": _loot,
    "race": _race,
    "class": _class,
    "skill": _skill,
    "saga": _saga,
    "ancient": _ancient,
    "plot": _plot,
}
